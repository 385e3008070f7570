/* SPDX-License-Identifier: MIT */
/* Topology: ids, neighbours, Lee distances against BFS, diameter, DOR
 * paths, DFS interval labels, the six arc-disjoint trees and their
 * forward routing rule, dims parsing. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tn_error.h"
#include "topo.h"

static const char *const geoms[] = {"7x7x7", "4x4x4", "2x2x2", "16", "8x8", "5x3x2", "3x3x3",
                                    "1x1x1", "2x1x5"};

static void check_geom(const char *g)
{
    struct tn_topo t;
    if (!ok(tn_topo_parse(&t, g) == 0, "%s parses", g))
        return;
    uint32_t N = t.n;
    uint32_t *parent = malloc(N * sizeof *parent), *depth = malloc(N * sizeof *depth);
    uint32_t *label = malloc(N * sizeof *label), *last = malloc(N * sizeof *last);
    uint8_t *pdir = malloc(N);
    bool ids = true, nb = true, dist = true, dor = true;
    unsigned maxd = 0;
    for (uint32_t v = 0; v < N; v++) {
        unsigned c[3];
        tn_coords(&t, v, c);
        ids &= tn_node_id(&t, c[0], c[1], c[2]) == v;
        for (int d = 0; d < TN_NDIRS; d++) {
            if (!tn_dir_exists(&t, d))
                continue;
            uint32_t w = tn_neighbor(&t, v, d);
            nb &= tn_neighbor(&t, w, tn_dir_opposite(d)) == v && w != v &&
                  tn_distance(&t, v, w) == 1;
        }
    }
    ok(ids, "%s: id = x + X*(y + Y*z) round-trips", g);
    ok(nb, "%s: every arc has its opposite and joins nodes at distance 1", g);
    uint32_t roots[3] = {0, N / 2, N - 1};
    for (int k = 0; k < 3; k++) {
        tn_bfs_tree(&t, roots[k], parent, pdir, depth);
        struct tn_arc arcs[64];
        for (uint32_t v = 0; v < N; v++) {
            dist &= tn_distance(&t, roots[k], v) == depth[v];
            if (depth[v] > maxd)
                maxd = depth[v];
            unsigned len = tn_dor_path(&t, roots[k], v, arcs, 64);
            uint32_t cur = roots[k];
            int lastdim = 0;
            for (unsigned i = 0; i < len && i < 64; i++) {
                dor &= arcs[i].node == cur && tn_dir_dim(arcs[i].dir) >= lastdim;
                lastdim = tn_dir_dim(arcs[i].dir);
                cur = tn_neighbor(&t, cur, arcs[i].dir);
            }
            dor &= len == depth[v] && cur == v;
        }
    }
    ok(dist, "%s: Lee distance equals BFS depth from three roots", g);
    is(tn_diameter(&t), maxd, "%s: diameter is the largest distance", g);
    ok(dor, "%s: DOR paths are connected, dimension-ordered, shortest, end at the target", g);
    /* DFS preorder labels: a permutation, and [label, last] is the subtree */
    tn_dfs_tree(&t, 0, parent, pdir, label, last);
    uint8_t *seen = calloc(N, 1);
    uint32_t *size = calloc(N, sizeof *size);
    bool perm = true, interval = true;
    for (uint32_t v = 0; v < N; v++) {
        perm &= label[v] < N && !seen[label[v]];
        if (label[v] < N)
            seen[label[v]] = 1;
        for (uint32_t u = v;; u = parent[u]) {
            size[u]++;
            if (u == 0)
                break;
        }
        if (v != 0) {
            uint32_t p = parent[v];
            interval &= label[p] < label[v] && last[v] <= last[p] &&
                        tn_neighbor(&t, p, pdir[v]) == v;
        }
    }
    for (uint32_t v = 0; v < N; v++)
        interval &= last[v] - label[v] + 1 == size[v];
    ok(perm, "%s: DFS labels are a permutation of 0..N-1", g);
    ok(interval, "%s: DFS interval [label, last] is exactly the subtree", g);
    free(seen);
    free(size);
    free(parent);
    free(depth);
    free(label);
    free(last);
    free(pdir);
}

/* The DOR tree holds every DOR path: v's parent arc is the last arc of
 * the path from the root to v. The split tie rule changes only the
 * antipodal hops of even rings: same length, - from odd coordinates. */
static void check_dor_tree(const char *g)
{
    struct tn_topo t;
    tn_topo_parse(&t, g);
    uint32_t *parent = malloc(t.n * sizeof *parent), root = t.n / 3;
    uint8_t *pdir = malloc(t.n);
    bool tree = true, split = true;
    tn_dor_tree(&t, root, parent, pdir);
    for (uint32_t v = 0; v < t.n; v++) {
        struct tn_arc plus[64], tie[64];
        unsigned len = tn_dor_path(&t, root, v, plus, 64);
        unsigned slen = tn_dor_path_tie(&t, v, root, TN_TIE_SPLIT, tie, 64);
        tree &= v == root ? parent[v] == root
                          : plus[len - 1].node == parent[v] && plus[len - 1].dir == pdir[v];
        unsigned cv[3], cr[3];
        tn_coords(&t, v, cv);
        tn_coords(&t, root, cr);
        for (unsigned i = 0; i < slen; i++) {
            int k = tn_dir_dim(tie[i].dir);
            bool antipode = 2 * ((cr[k] + t.dim[k] - cv[k]) % t.dim[k]) == t.dim[k];
            split &= !antipode || tie[i].dir % 2 == cv[k] % 2;
        }
        split &= slen == len;
    }
    ok(tree, "%s: the DOR tree's parent arcs are the DOR paths' last arcs", g);
    ok(split, "%s: split ties: shortest, - from odd coordinates at the antipode", g);
    free(parent);
    free(pdir);
}

/* A graph of 5 nodes as neighbour lists: 0 - 1, 0 - 2, 1 - 2, node 3
 * alone, 4 hanging off 2; slot 1 of node 0 skipped (0 itself). */
static uint32_t small_graph(const void *ctx, uint32_t v, uint32_t i)
{
    static const uint32_t nb[5][4] = {{1, 0, 2, TN_DFS_END}, {2, 0, TN_DFS_END},
                                      {0, 1, 4, TN_DFS_END}, {TN_DFS_END}, {2, TN_DFS_END}};
    (void)ctx;
    return nb[v][i];
}

static void check_dfs_label(void)
{
    uint32_t parent[5], label[5], last[5];
    is(tn_dfs_label(5, 0, small_graph, NULL, parent, label, last), 0, "DFS on neighbour lists");
    /* 0 -> 1 -> 2 -> 4: a path in preorder; 2 is not 0's child (reached
     * through 1 first) */
    ok(label[0] == 0 && label[1] == 1 && label[2] == 2 && label[4] == 3 && parent[1] == 0 &&
       parent[2] == 1 && parent[4] == 2 && parent[0] == 0 && last[0] == 3 && last[1] == 3 &&
       last[4] == 3, "DFS on neighbour lists: preorder labels and subtree ends along 0-1-2-4");
    ok(label[3] == TN_DFS_END && parent[3] == TN_DFS_END && last[3] == TN_DFS_END,
       "DFS on neighbour lists: a node not reached is TN_DFS_END in all three");
}

/* tn_six_trees: six spanning trees, pairwise arc-disjoint, and each one
 * routable forward by tn_tree_hop (the router's tree mode: no tables),
 * tn_tree_path giving the same paths. */
static void check_six_trees(const char *g)
{
    struct tn_topo t;
    if (!ok(tn_topo_parse(&t, g) == 0, "%s parses", g))
        return;
    uint32_t N = t.n, *parent[TN_NDIRS];
    uint8_t *pdir[TN_NDIRS], *used = calloc((size_t)tn_narcs(&t), 1);
    for (int k = 0; k < TN_NDIRS; k++) {
        parent[k] = malloc(N * sizeof **parent);
        pdir[k] = malloc(N);
    }
    bool disjoint = true, routed = true, paths = true;
    struct tn_arc arcs[64];
    uint32_t roots[2] = {0, N / 2};
    for (int r = 0; r < 2; r++) {
        is(tn_six_trees(&t, roots[r], parent, pdir), 0, "%s: six trees from root %u", g, roots[r]);
        memset(used, 0, tn_narcs(&t));
        for (int k = 0; k < TN_NDIRS; k++)
            for (uint32_t v = 0; v < N; v++) {
                if (v == roots[r])
                    continue;
                uint32_t a = tn_arc_id(parent[k][v], pdir[k][v]);
                disjoint &= !used[a] && tn_neighbor(&t, parent[k][v], pdir[k][v]) == v;
                used[a] = 1;
                uint32_t u = roots[r];
                bool detour = tn_tree_detour(&t, roots[r], v, k);
                int dir;
                unsigned hops = 0, len = tn_tree_path(&t, roots[r], v, k, arcs, 64);
                while ((dir = tn_tree_hop(&t, u, v, k, detour)) < TN_NDIRS && hops < N) {
                    uint32_t w = tn_neighbor(&t, u, dir);
                    routed &= parent[k][w] == u && pdir[k][w] == dir;
                    paths &= hops < len && hops < 64 && arcs[hops].node == u && arcs[hops].dir == dir;
                    u = w;
                    hops++;
                }
                routed &= u == v;
                paths &= hops == len;
            }
    }
    ok(disjoint, "%s: the six trees' arcs are pairwise disjoint", g);
    ok(routed, "%s: tn_tree_hop leads from the root to every node along the tree's arcs", g);
    ok(paths, "%s: tn_tree_path gives those paths", g);
    for (int k = 0; k < TN_NDIRS; k++) {
        free(parent[k]);
        free(pdir[k]);
    }
    free(used);
}

int main(void)
{
    check_dfs_label();
    for (size_t i = 0; i < sizeof geoms / sizeof geoms[0]; i++)
        check_geom(geoms[i]);
    for (size_t i = 0; i < sizeof geoms / sizeof geoms[0]; i++)
        check_dor_tree(geoms[i]);
    static const char *const cubes[] = {"7x7x7", "4x4x4", "2x2x2", "5x3x2", "8x8x8", "3x3x3"};
    for (size_t i = 0; i < sizeof cubes / sizeof cubes[0]; i++)
        check_six_trees(cubes[i]);
    struct tn_topo t;
    static const char *const bad[] = {"0x3", "7x", "x7", "7x7x7x7", "abc", "", "7x-1", "5000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        is(tn_topo_parse(&t, bad[i]), TN_EINVAL, "dims '%s' rejected", bad[i]);
    tn_topo_parse(&t, "2x1x1");
    ok(tn_neighbor(&t, 0, TN_XP) == 1 && tn_neighbor(&t, 0, TN_XM) == 1 &&
       !tn_dir_exists(&t, TN_YP) && tn_ports(&t) == 2,
       "size 2: X+ and X- reach the same neighbour, size-1 dims have no links");
    for (int d = 0; d < TN_NDIRS; d++)
        is(tn_dir_parse(tn_dir_name(d)), d, "direction %s parses back", tn_dir_name(d));
    is(tn_dir_parse("W+"), -1, "unknown direction name rejected");
    return tap_done();
}
