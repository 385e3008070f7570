/* SPDX-License-Identifier: MIT */
/* Scatter and gather on the torus as device schedules (one relay round):
 * the algorithms of host/algo/scatter.c and host/algo/gather.c on the tree of DOR
 * routes (a DOR-routed packet follows its DOR route) or, for the all-port
 * scatter, on the six arc-disjoint trees (packets routed along their
 * tree, tn_tree_hop), every message one relay packet (head flit +
 * payload), dispatch times from the algorithm.
 * Message ids: scatter, message d is the root's message for node d;
 * gather, message s is node s's message for the root. Lengths per node
 * (len[root] ignored, 0 = null message, nothing sent). */
#ifndef TN_SG_H
#define TN_SG_H

#include <stdint.h>

#include "sched.h"

/* The trees of an all-port scatter. */
enum tn_sg_tree {
    TN_SG_AUTO,               /* the one with the earlier completion */
    TN_SG_DOR,                /* FDF per root port subtree of the DOR tree */
    TN_SG_SIX,                /* the six arc-disjoint trees (tn_scatter_allport) */
};

struct tn_sg_opts {
    uint32_t root;
    unsigned ports;           /* scatter: 1 single-port root (FDF on one lane),
                               * 6 all-port (tree below) */
    enum tn_sg_tree tree;     /* scatter, 6 ports */
    const uint32_t *len;      /* N payload lengths in flits */
    unsigned alpha;
    int react;                /* gather: cycles from a control flit to the reaction */
    bool shoulder_tap;        /* gather: shoulder-tap (Theorem 2) on the path of the
                               * root and the (DIM_X - 1) / 2 nodes after it in X+,
                               * whose DOR routes run X- to the root; the other
                               * nodes' messages are left out (null) */
};

struct tn_sg_info {
    uint32_t messages;        /* non-null messages */
    uint64_t total_flits;     /* M: payload flits + one head per packet */
    unsigned height;          /* depth of the farthest non-null node */
    /* Cycles on the device, from the algorithm's own timing (independent
     * of the plan and the model): scatter alpha + T (one relay round);
     * gather sync_round + data_round. */
    uint64_t formula;
    uint64_t time;            /* T: the algorithm's completion time */
    uint64_t optimum;         /* scatter 1-port: FDF = optimum (Theorem 1); gather
                               * shoulder-tap: T (Theorem 2) */
    uint64_t lower;           /* scatter: Proposition 1 / all-port bound;
                               * gather: max(b, M) style lower bound */
    uint64_t bound;           /* gather: Theorem 3 upper bound t_sync + b3 + M */
    uint64_t sixtree;         /* all-port scatter over six arc-disjoint trees
                               * (0 when a dimension has fewer than 2 nodes) */
    uint64_t dortree;         /* all-port scatter, FDF per DOR subtree */
    bool six;                 /* the schedule uses the six trees */
    /* gather: the algorithm's phases (tokens a head alone, certificates
     * and orders a head and a value word): tokens and certificates until the root's first
     * order (t_sync), orders until the first data flit at the root
     * (first - t_sync); on the device two relay rounds, their closed forms
     * alpha + the last packet's start + hops + flits: sync_round (tokens
     * and certificates) and data_round (orders and data, from t_sync) */
    uint64_t t_sync, first, sync_round, data_round;
    /* gather by shoulder-tap: one round (data_round) of calls and data on
     * the path of the root and path_nodes more */
    bool shoulder_tap;
    unsigned path_nodes;
};

int tn_scatter_build(struct tn_sched **out, const struct tn_topo *t, const struct tn_sg_opts *o,
                     struct tn_sg_info *info);
int tn_gather_build(struct tn_sched **out, const struct tn_topo *t, const struct tn_sg_opts *o,
                    struct tn_sg_info *info);

#endif
