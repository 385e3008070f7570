/* SPDX-License-Identifier: MIT */
/* Personalised all-to-all on the torus as a device schedule: the traffic
 * of include/torus/traffic.h (one transfer per ordered pair (s, d), dimension-order
 * routes with + on ties, the port model explicit), scheduled by the liquid
 * search (include/torus/liquid.h) or round-robin, each step one circuit round (one
 * unicast circuit per transfer along its DOR path). Message ids: node s
 * starts with message s * N + d for every d != s, in increasing d, and
 * node d must end with s * N + d from every s != d (docs/collectives.md,
 * "All-to-all on the device"). */
#ifndef TN_A2A_H
#define TN_A2A_H

#include <stdint.h>

#include "sched.h"

enum tn_a2a_kind { TN_A2A_LIQUID, TN_A2A_RR };

struct tn_a2a_opts {
    enum tn_a2a_kind kind;
    uint32_t msg_flits;       /* L */
    unsigned ports;           /* 6 all-port, 1 single-port */
    unsigned alpha;
    double seconds;           /* liquid search time bound (<= 0: 10 s) */
    unsigned seed;            /* liquid search tie breaks */
};

struct tn_a2a_info {
    uint32_t transfers;       /* #(X) = N (N - 1) */
    uint32_t lambda;          /* Lambda(X): bottleneck load in transfers */
    uint32_t steps;           /* length of the schedule (rounds) */
    uint32_t rr_steps;        /* round-robin length, for comparison */
    int exhausted;            /* liquid: the exhaustive search finished */
    char via[24];             /* liquid: product, classes, quotient, full;
                                 or round-robin */
    double search_s;
    /* Closed form of the run: sum over steps of (alpha + longest DOR
     * distance in the step + L), from the traffic's step assignment and
     * Lee distances alone (independent of the plan and the model). */
    uint64_t formula, formula_dsum;
    /* Lower bounds: Lambda L (the bottleneck link carries Lambda L flits,
     * any schedule on these routes) and Lambda (alpha + 1 + L) (one step
     * per round, every step at least one hop). */
    uint64_t flow_bound, step_bound;
};

/* Build the schedule (laid out). TN_EINVAL for bad options or a torus of
 * more than TN_A2A_NODES_MAX nodes, TN_ENOMEM. */
int tn_a2a_build(struct tn_sched **out, const struct tn_topo *t, const struct tn_a2a_opts *o,
                 struct tn_a2a_info *info);

static inline uint32_t tn_a2a_msg(uint32_t n, uint32_t src, uint32_t dst)
{
    return src * n + dst;
}

#endif
