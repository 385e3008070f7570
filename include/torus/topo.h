/* SPDX-License-Identifier: MIT */
/* Torus geometry: X x Y x Z (sizes 1..), node id = x + X*(y + Y*z),
 * directions 0 X+, 1 X-, 2 Y+, 3 Y-, 4 Z+, 5 Z- (docs/hardware.md). A
 * dimension of size 1 has no links; on size 2 the + and - links are two
 * distinct arcs to the same neighbour. */
#ifndef TN_TOPO_H
#define TN_TOPO_H

#include <stdbool.h>
#include <stdint.h>

enum tn_dir { TN_XP, TN_XM, TN_YP, TN_YM, TN_ZP, TN_ZM, TN_NDIRS };

#define TN_DIM_MAX 4096u        /* per dimension */
#define TN_NODES_MAX (1u << 24) /* whole torus */

struct tn_topo {
    unsigned dim[3];
    uint32_t n;                 /* number of nodes */
};

/* An arc: the link leaving node in direction dir. */
struct tn_arc {
    uint32_t node;
    uint8_t dir;
};

/* Arcs numbered densely, TN_NDIRS per node: the id of arc (node, dir);
 * ids run from 0 to tn_narcs() - 1. */
static inline uint32_t tn_arc_id(uint32_t node, int dir)
{
    return node * TN_NDIRS + (uint32_t)dir;
}
static inline uint32_t tn_narcs(const struct tn_topo *t) { return t->n * TN_NDIRS; }

/* Set up an x*y*z torus: 0 or TN_EINVAL (a size 0, too large). */
int tn_topo_init(struct tn_topo *t, unsigned x, unsigned y, unsigned z);
/* Parse "7x7x7", "8x8", "16" (missing sizes are 1): 0 or TN_EINVAL. */
int tn_topo_parse(struct tn_topo *t, const char *s);
/* "7x7x7" into buf. */
void tn_topo_format(const struct tn_topo *t, char *buf, unsigned len);

static inline uint32_t tn_node_id(const struct tn_topo *t, unsigned x,
                                  unsigned y, unsigned z)
{
    return x + t->dim[0] * (y + t->dim[1] * z);
}
void tn_coords(const struct tn_topo *t, uint32_t id, unsigned c[3]);

/* Direction names "X+".."Z-": parse (-1 if unknown) and format. */
int tn_dir_parse(const char *s);
const char *tn_dir_name(int dir);
static inline int tn_dir_opposite(int dir) { return dir ^ 1; }
static inline int tn_dir_dim(int dir) { return dir >> 1; }

/* True if links in direction dir exist (its dimension has size > 1). */
static inline bool tn_dir_exists(const struct tn_topo *t, int dir)
{
    return dir >= 0 && dir < TN_NDIRS && t->dim[dir >> 1] > 1;
}
/* Neighbour of id in direction dir (the head of arc (id, dir)). The
 * direction must exist. */
uint32_t tn_neighbor(const struct tn_topo *t, uint32_t id, int dir);
/* Number of existing directions (ports per node). */
unsigned tn_ports(const struct tn_topo *t);

/* Lee distance and diameter. */
unsigned tn_distance(const struct tn_topo *t, uint32_t a, uint32_t b);
unsigned tn_diameter(const struct tn_topo *t);

/* Dimension-order (X, then Y, then Z) shortest path from a to b; in a
 * ring of even size the antipode is reached in the + direction. Writes
 * at most cap arcs and returns the path length (the distance). */
unsigned tn_dor_path(const struct tn_topo *t, uint32_t a, uint32_t b,
                     struct tn_arc *arcs, unsigned cap);

/* Which way a shortest path goes to the antipode of an even ring. */
enum tn_tie {
    TN_TIE_PLUS,  /* always + (tn_dor_path) */
    TN_TIE_SPLIT, /* + from an even coordinate, - from an odd one */
};
/* True when the shortest way on a ring of size m from coordinate from
 * to from + offset (mod m, offset 1..m-1) is the + direction. */
bool tn_ring_plus(unsigned m, unsigned from, unsigned offset, enum tn_tie tie);
/* tn_dor_path with the given tie rule. */
unsigned tn_dor_path_tie(const struct tn_topo *t, uint32_t a, uint32_t b, enum tn_tie tie,
                         struct tn_arc *arcs, unsigned cap);

/* Spanning trees rooted at root. parent[root] = root, pdir[v] = direction
 * of the arc parent -> v, depth[v] in hops. Arrays have t->n entries;
 * 0 or TN_ENOMEM. */
int tn_bfs_tree(const struct tn_topo *t, uint32_t root, uint32_t *parent,
                uint8_t *pdir, uint32_t *depth);
/* The tree of the DOR paths (tn_dor_path) from root, a BFS tree too
 * (depth = Lee distance): v's parent is the tail of the last arc of its
 * path. */
void tn_dor_tree(const struct tn_topo *t, uint32_t root, uint32_t *parent, uint8_t *pdir);
/* Six arc-disjoint spanning trees (every dimension of size >= 2, else
 * TN_EINVAL): tree k leaves root by direction k only; parent[k][],
 * pdir[k][] as above. docs/collectives.md gives the construction. */
int tn_six_trees(const struct tn_topo *t, uint32_t root, uint32_t *parent[TN_NDIRS],
                 uint8_t *pdir[TN_NDIRS]);
/* The hop a head takes at node v towards dst in six tree `tree` (0..5,
 * tn_six_trees' numbering) rooted at a node whose coordinate in the
 * tree's first dimension equals dst's exactly when `detour` is set: a
 * direction 0..5, or TN_NDIRS at dst. The rule (the router's tree mode,
 * docs/hardware.md "Route"): every hop goes in the tree's direction
 * (+ for even trees, - for odd ones); dimensions are taken in the cyclic
 * order d, d+1, d+2 from the tree's first dimension d, each until it
 * matches the target; the target is dst, but with detour set, and until
 * the other two dimensions match dst, one step short in d (dst's
 * coordinate - 1 for a + tree, + 1 for a - tree). Paths from root by
 * this rule are exactly those of tn_six_trees (tests/host/core). */
int tn_tree_hop(const struct tn_topo *t, uint32_t v, uint32_t dst, int tree, bool detour);
/* (A tree outside 0..5: tn_tree_hop gives TN_NDIRS, tn_tree_path 0 and
 * tn_tree_detour false.) */
/* Path from root to dst in six tree `tree` (tn_tree_hop with detour =
 * root and dst agree in the tree's first dimension): writes at most cap
 * arcs (arcs may be NULL when cap is 0) and returns the path length. */
unsigned tn_tree_path(const struct tn_topo *t, uint32_t root, uint32_t dst, int tree,
                      struct tn_arc *arcs, unsigned cap);
/* Whether dst's path from root in six tree `tree` takes the detour. */
bool tn_tree_detour(const struct tn_topo *t, uint32_t root, uint32_t dst, int tree);

/* Depth-first tree (neighbours visited in direction order) with preorder
 * labels: label[v] = preorder number, last[v] = largest label in v's
 * subtree, so [label[c], last[c]] is the 1-interval of child c (interval
 * routing). tn_dfs_label on the torus's directions. */
int tn_dfs_tree(const struct tn_topo *t, uint32_t root, uint32_t *parent,
                uint8_t *pdir, uint32_t *label, uint32_t *last);

/* The same on any graph given by neighbour lists: nb(ctx, v, i) is v's
 * i-th neighbour, v itself for a slot to skip, or TN_DFS_END past the
 * last. Arrays of n entries; parent[root] = root; nodes not reached have
 * TN_DFS_END in all three. 0 or TN_ENOMEM. */
#define TN_DFS_END UINT32_MAX
typedef uint32_t (*tn_neighbour_fn)(const void *ctx, uint32_t v, uint32_t i);
int tn_dfs_label(uint32_t n, uint32_t root, tn_neighbour_fn nb, const void *ctx,
                 uint32_t *parent, uint32_t *label, uint32_t *last);

#endif
