/* SPDX-License-Identifier: MIT */
/* Collective algorithms (docs/host.md "Algorithms and closed forms"):
 * their names per collective, closed-form costs, the cheapest by L and
 * alpha, building a schedule, and the host memory a build needs. */
#ifndef TN_ALGO_H
#define TN_ALGO_H

#include <stdbool.h>
#include <stdint.h>

#include "sched.h"

struct tn_algo_opts {
    const char *algo;         /* NULL or "auto": the cheapest */
    uint32_t msg_flits;       /* L (>= 1) */
    unsigned ports;           /* 6 or 1 */
    unsigned alpha;           /* for the cost that picks the cheapest */
    uint32_t root;            /* broadcast */
};

/* About how many bytes of host memory building and verifying the schedule
 * of coll with o on t takes (an upper estimate, from the measured cost:
 * about 700 bytes per node and round for gossip and broadcast, 450 per
 * transfer for the all-to-all; docs/host.md "Guards"); 0 when the
 * algorithm does not apply. */
uint64_t tn_build_bytes(enum tn_coll coll, const struct tn_topo *t, const struct tn_algo_opts *o);
/* What tn_build_bytes may ask for on this machine: three quarters of its
 * physical memory. */
uint64_t tn_build_bytes_max(void);

/* Names of the algorithms for a collective, NULL-terminated (gossip and
 * broadcast: tn_build's; alltoall: tn_a2a_build's kinds, liquid and
 * round-robin; none for the others, which --switching or their options
 * shape). */
const char *const *tn_algo_names(enum tn_coll coll);
/* True if algorithm name applies to geometry t and port model. */
bool tn_algo_applies(enum tn_coll coll, const char *name, const struct tn_topo *t,
                     unsigned ports);
/* Closed-form cost of an algorithm (rounds, delta and tau sums, cycles at
 * o->alpha): the theory the built schedules are tested against. */
int tn_algo_cost(enum tn_coll coll, const char *name, const struct tn_topo *t,
                 const struct tn_algo_opts *o, struct tn_cost *c);
/* Where the cheapest algorithm of coll on t (at o's alpha and ports)
 * changes as the message grows, scanning L = 1 .. lmax: from[i] is the
 * first L at which name[i] is the cheapest (from[0] = 1). Returns the
 * number of entries (at most max), 0 when no algorithm applies. */
unsigned tn_algo_crossovers(enum tn_coll coll, const struct tn_topo *t,
                            const struct tn_algo_opts *o, uint32_t lmax, uint32_t *from,
                            const char **name, unsigned max);
/* Build (and lay out) a schedule. TN_ENOTSUP if the algorithm does not
 * apply to the geometry, TN_EINVAL for an unknown name. */
int tn_build(struct tn_sched **out, enum tn_coll coll, const struct tn_topo *t,
             const struct tn_algo_opts *o);

/* The 7x7x7 building blocks (exposed for tests): the step-2 dipaths.
 * For round k (0: 2-a, vectors M0 B1; 1: 2-b, vectors M0^2 B1) and j =
 * 0..5 (u1, -u1, u2, -u2, u3, -u3) the directions of the dipath. */
int tn_dp_paths(int k, uint8_t dirs[6][8], unsigned len[6], int vec[6][3]);

#endif
