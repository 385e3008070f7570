/* SPDX-License-Identifier: MIT */
/* Permutation traffic on the torus (docs/switching.md "Permutations"):
 * every node v sends mu flits to dst[v]. Under bufferless relay all
 * packets leave at once along their DOR routes and the reference model
 * (which the device matches on every relay run) counts the packets that
 * a collision drops; as circuits the same transfers need at least Lambda
 * rounds (the most transfers on one arc), and the liquid schedule search
 * (include/torus/liquid.h) finds how many rounds of arc-disjoint circuits do it. */
#ifndef TN_PERM_H
#define TN_PERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "p2p.h"
#include "sched.h"
#include "topo.h"

/* random (seeded), tornado (every coordinate + ceil(k/2) - 1, the
 * lecture's cyclic shift), bit-reversal of the node id (N a power of 2),
 * transpose (x, y, z) -> (y, x, z) (X = Y). */
enum tn_perm { TN_PERM_RANDOM, TN_PERM_TORNADO, TN_PERM_BITREV, TN_PERM_TRANSPOSE };

int tn_perm_parse(const char *s, enum tn_perm *p);
const char *tn_perm_name(enum tn_perm p);
/* dst[0..N): 0 or TN_ENOTSUP (bit-reversal on N not a power of 2,
 * transpose with X != Y). */
int tn_perm_build(const struct tn_topo *t, enum tn_perm p, uint64_t seed, uint32_t *dst);

struct tn_perm_report {
    uint32_t transfers;      /* v with dst[v] != v */
    uint64_t formula;        /* the device's closed form of the built schedule: relay,
                              * alpha + longest DOR distance + 1 + mu (one round; lost
                              * packets do not shorten it); circuits, the sum over
                              * rounds of alpha + the round's longest distance + mu */
    uint32_t relay_lost;     /* packets a collision dropped (all sent at once) */
    uint64_t relay_cycles;   /* the relay round's length */
    uint32_t lambda;         /* most transfers on one arc: a bound on circuit rounds */
    uint32_t circuit_rounds; /* rounds of the schedule found */
    bool liquid;             /* circuit_rounds == lambda */
};

/* The permutation as a TN_PERM schedule (laid out) of mu-flit messages,
 * in switching technique sw:
 * - TN_SW_RELAY: one relay round in which every node sends its packet at
 *   cycle 0 along its DOR route (what collides is dropped: the experiment);
 * - TN_SW_CS: the rounds of arc-disjoint DOR circuits that the liquid
 *   search (bounded by seconds) finds;
 * - TN_SW_SF: store and forward, rounds of one-hop circuits: every
 *   transfer moves one hop a round along its DOR route through each
 *   intermediate node's memory, and waits a round when its next arc (or
 *   the six inject lanes of its node, or the six eject lanes of the next)
 *   is taken by a transfer of a lower source.
 * Fills transfers, formula and, for cs, lambda, circuit_rounds and liquid
 * (sf: circuit_rounds). 0, TN_ENOMEM, TN_EINVAL (not a permutation) or an
 * error of the liquid search. */
int tn_perm_sched(struct tn_sched **out, const struct tn_topo *t, const uint32_t *dst,
                  enum tn_switching sw, uint32_t mu, unsigned alpha, double seconds,
                  struct tn_perm_report *r);

/* The reference model's answer on both (alpha 1): 0, TN_ENOTSUP (dims
 * above 15: relay heads; why in err, checked before the liquid search) or
 * TN_ENOMEM; seconds bound the liquid search. */
int tn_perm_analyse(const struct tn_topo *t, const uint32_t *dst, uint32_t mu, double seconds,
                    struct tn_perm_report *r, char *err, size_t errlen);

#endif
