/* SPDX-License-Identifier: MIT */
/* Rooted tree from a parent array (see tree.h). */
#include "tree.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

void tn_ctree_free(struct tn_ctree *t)
{
    free(t->parent);
    free(t->depth);
    free(t->child_off);
    free(t->child);
    free(t->bfs);
    memset(t, 0, sizeof(*t));
}

int tn_ctree_from_parent(struct tn_ctree *t, int n, const int *parent)
{
    memset(t, 0, sizeof(*t));
    if (n < 1)
        return TN_EINVAL;
    int root = -1;
    for (int v = 0; v < n; v++) {
        if (parent[v] == -1) {
            if (root >= 0)
                return TN_EINVAL;
            root = v;
        } else if (parent[v] < 0 || parent[v] >= n || parent[v] == v) {
            return TN_EINVAL;
        }
    }
    if (root < 0)
        return TN_EINVAL;
    t->n = n;
    t->root = root;
    t->parent = malloc(sizeof(int) * n);
    t->depth = malloc(sizeof(int) * n);
    t->child_off = calloc(n + 1, sizeof(int));
    t->child = malloc(sizeof(int) * n);
    t->bfs = malloc(sizeof(int) * n);
    if (!t->parent || !t->depth || !t->child_off || !t->child || !t->bfs) {
        tn_ctree_free(t);
        return TN_ENOMEM;
    }
    memcpy(t->parent, parent, sizeof(int) * n);
    for (int v = 0; v < n; v++)
        if (v != root)
            t->child_off[parent[v] + 1]++;
    for (int v = 0; v < n; v++)
        t->child_off[v + 1] += t->child_off[v];
    int *fill = t->depth; /* scratch: next free slot per node */
    for (int v = 0; v < n; v++)
        fill[v] = t->child_off[v];
    for (int v = 0; v < n; v++)
        if (v != root)
            t->child[fill[parent[v]]++] = v;
    /* breadth-first from the root: a node not reached lies on a cycle */
    int head = 0, tail = 0;
    t->bfs[tail++] = root;
    t->depth[root] = 0;
    t->height = 0;
    while (head < tail) {
        int v = t->bfs[head++];
        for (int i = t->child_off[v]; i < t->child_off[v + 1]; i++) {
            int c = t->child[i];
            t->depth[c] = t->depth[v] + 1;
            if (t->depth[c] > t->height)
                t->height = t->depth[c];
            t->bfs[tail++] = c;
        }
    }
    if (tail != n) {
        tn_ctree_free(t);
        return TN_EINVAL;
    }
    return 0;
}

int tn_ctree_from_topo(struct tn_ctree *t, uint32_t n, const uint32_t *parent)
{
    memset(t, 0, sizeof(*t));
    if (n < 1 || n > INT_MAX)
        return TN_EINVAL;
    int *p = malloc(sizeof(int) * n);
    if (!p)
        return TN_ENOMEM;
    for (uint32_t v = 0; v < n; v++)
        p[v] = parent[v] == v ? -1 : parent[v] < n ? (int)parent[v] : -2;
    int rc = tn_ctree_from_parent(t, (int)n, p);
    free(p);
    return rc;
}
