/* SPDX-License-Identifier: MIT */
/* Scatter on a bufferless tree (farthest-destination-first, FDF) from a
 * single-port root, and the all-port scatter of a 3-D torus over six
 * arc-disjoint spanning trees. Timing follows docs/timing.md: a stream of
 * n flits presented on the root's inject lane from cycle s reaches a node
 * d hops away with its first flit in cycle s + d and its last in
 * s + d + n - 1. A non-null message of l payload flits is one stream of
 * n = l + head flits (head = number of head flits carrying the address,
 * 1 in relay mode); a null message sends nothing. */
#ifndef TN_SCATTER_H
#define TN_SCATTER_H

#include "topo.h"
#include "tree.h"

struct tn_sc_stream {
    int dest;   /* destination node */
    int port;   /* root port = tree index (0 for a single-port root) */
    int len;    /* payload flits l (> 0) */
    int flits;  /* stream length n = l + head */
    int dist;   /* hops from the root to dest along the tree */
    long start; /* cycle the first flit is presented on the root's lane */
    long first; /* cycle the first flit is ejected at dest: start + dist */
    long last;  /* cycle the last flit is ejected: first + flits - 1 */
};

struct tn_scatter {
    int nstreams;
    struct tn_sc_stream *s; /* by port, then in dispatch order */
    int nports;
    long time;  /* completion: max over streams of last + 1 */
    long lower; /* a lower bound valid for every schedule (see docs) */
};

/* FDF scatter from t->root: non-null messages (len[v] > 0, len[root]
 * ignored) dispatched back to back in decreasing tree distance (ties by
 * the root's child they lie under, then by id: the streams of one
 * distance through one child follow each other). Returns 0, TN_EINVAL
 * or TN_ENOMEM. */
int tn_scatter_fdf(const struct tn_ctree *t, const int *len, int head,
                   struct tn_scatter *out);

/* Completion time of back-to-back dispatch in the given order of k
 * destinations (null ones skipped): max over j of
 * (sum of flits dispatched up to and including j) + dist(j). */
long tn_scatter_order_time(const struct tn_ctree *t, const int *len, int head,
                           const int *order, int k);

/* All-port scatter on the torus from root over the six arc-disjoint trees
 * of tn_six_trees(): messages assigned to trees by LPT (longest
 * stream first, each to the tree whose FDF completion grows least), then
 * improved by moves and swaps of messages between trees while the
 * completions, sorted latest first, get lexicographically smaller; FDF
 * per tree. out->lower is the bound of docs/collectives.md. */
int tn_scatter_allport(const struct tn_topo *t, int root, const int *len,
                       int head, struct tn_scatter *out);

/* The all-port lower bound alone: max(max_i n_i + D_i,
 * max_delta ceil(F(delta)/P) + delta, max_k S_k + 1), D_i = Lee
 * distance, S_k = the k + 1 shortest of the k P + 1 longest packets (one
 * port sends k + 1 of them), F(delta) =
 * flits to nodes at Lee distance >= delta, P = root ports; and 1 + the
 * least room per port into which the packets pack (a bounded search:
 * if it stops, the room it was trying, all smaller ones proved too
 * small). */
long tn_scatter_allport_lower(const struct tn_topo *t, int root, const int *len,
                              int head);

void tn_scatter_free(struct tn_scatter *s);

#endif
