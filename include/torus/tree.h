/* SPDX-License-Identifier: MIT */
/* A rooted tree for the scatter/gather algorithms: parent array, children
 * lists (CSR, children in increasing id order) and each node's distance
 * to the root. Works for any tree; tn_ctree_from_parent() converts any
 * parent array, tn_ctree_from_topo() a torus spanning tree of topo.h. */
#ifndef TN_COLL_TREE_H
#define TN_COLL_TREE_H

#include <stdint.h>

struct tn_ctree {
    int n;          /* number of nodes, ids 0..n-1 */
    int root;
    int *parent;    /* parent[v], -1 at the root */
    int *depth;     /* hops from v to the root */
    int *child_off; /* children of v: child[child_off[v] .. child_off[v+1]) */
    int *child;
    int *bfs;       /* nodes in breadth-first order, root first */
    int height;     /* max depth */
};

/* Builds the tree from parent[0..n-1] (exactly one -1 entry, the root;
 * every other node must reach it). Returns 0, TN_EINVAL (not a tree) or
 * TN_ENOMEM. */
int tn_ctree_from_parent(struct tn_ctree *t, int n, const int *parent);
/* The same from a topo.h tree (parent[root] = root). */
int tn_ctree_from_topo(struct tn_ctree *t, uint32_t n, const uint32_t *parent);
void tn_ctree_free(struct tn_ctree *t);
static inline int tn_ctree_nchild(const struct tn_ctree *t, int v)
{
    return t->child_off[v + 1] - t->child_off[v];
}

#endif
