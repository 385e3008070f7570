/* SPDX-License-Identifier: MIT */
/* Minimal private 3-D torus helper for the collective algorithms (scatter,
 * gather, all-to-all): coordinates, arcs, Lee distance, dimension-order
 * paths, the DOR shortest-path tree and six arc-disjoint spanning trees.
 * Node id = x + X*(y + Y*z); directions X+,X-,Y+,Y-,Z+,Z- are 0..5; the
 * arc leaving node v in direction d has id 6*v + d. The host library's
 * topology module (host/topo.*) is meant to replace this helper later. */
#ifndef TN_COLL_TORUS_H
#define TN_COLL_TORUS_H

enum { TN_CT_XP, TN_CT_XM, TN_CT_YP, TN_CT_YM, TN_CT_ZP, TN_CT_ZM, TN_CT_NDIR };

/* How a dimension-order path breaks the tie at distance k/2 on an even ring. */
enum tn_ct_tie {
    TN_CT_TIE_POS = 0,   /* always the + direction */
    TN_CT_TIE_SPLIT = 1, /* + if the source coordinate is even, - if odd */
};

struct tn_ct {
    int dim[3];
    int n; /* number of nodes */
};

/* 0, or TN_EINVAL when a dimension is < 1 or the torus is too large. */
int tn_ct_init(struct tn_ct *t, int x, int y, int z);
int tn_ct_node(const struct tn_ct *t, int x, int y, int z);
void tn_ct_coords(const struct tn_ct *t, int v, int c[3]);
/* Neighbour of v in direction d (wraps around). */
int tn_ct_neighbor(const struct tn_ct *t, int v, int d);
static inline int tn_ct_arc(int v, int d) { return 6 * v + d; }
static inline int tn_ct_narcs(const struct tn_ct *t) { return 6 * t->n; }
/* True when direction d is a real link (its dimension has size >= 2). */
int tn_ct_has_dir(const struct tn_ct *t, int d);
/* Lee (shortest-path) distance. */
int tn_ct_dist(const struct tn_ct *t, int a, int b);
/* Dimension-order (X, then Y, then Z) shortest path from a to b: writes
 * its arc ids to arcs[] (room for dim[0]/2+dim[1]/2+dim[2]/2 entries),
 * returns the number of arcs. */
int tn_ct_dor_path(const struct tn_ct *t, int a, int b, enum tn_ct_tie tie,
                   int *arcs);
/* The tree of DOR paths from root (a BFS tree: depth = Lee distance):
 * parent[v] (-1 at the root) and pdir[v], the direction of the arc
 * parent[v] -> v. */
void tn_ct_dor_tree(const struct tn_ct *t, int root, enum tn_ct_tie tie,
                    int *parent, int *pdir);
/* Six arc-disjoint spanning trees rooted at root (every dimension >= 2):
 * parent[k][v], pdir[k][v] for k = 0..5; tree k leaves the root by
 * direction k only. Returns 0 or TN_EINVAL. */
int tn_ct_six_trees(const struct tn_ct *t, int root, int *parent[6],
                    int *pdir[6]);

#endif
