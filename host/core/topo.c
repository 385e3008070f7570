/* SPDX-License-Identifier: MIT */
/* Torus geometry: ids, neighbours, distances, DOR paths, spanning trees. */
#include "topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

static const char *const dir_names[TN_NDIRS] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};

int tn_topo_init(struct tn_topo *t, unsigned x, unsigned y, unsigned z)
{
    if (x == 0 || y == 0 || z == 0 || x > TN_DIM_MAX || y > TN_DIM_MAX || z > TN_DIM_MAX)
        return TN_EINVAL;
    uint64_t n = (uint64_t)x * y * z;
    if (n > TN_NODES_MAX)
        return TN_EINVAL;
    t->dim[0] = x;
    t->dim[1] = y;
    t->dim[2] = z;
    t->n = (uint32_t)n;
    return 0;
}

int tn_topo_parse(struct tn_topo *t, const char *s)
{
    unsigned d[3] = {1, 1, 1};
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        char *end;
        if (*p < '0' || *p > '9')
            return TN_EINVAL;
        unsigned long v = strtoul(p, &end, 10);
        if (v == 0 || v > TN_DIM_MAX)
            return TN_EINVAL;
        d[i] = (unsigned)v;
        p = end;
        if (*p == '\0')
            return tn_topo_init(t, d[0], d[1], d[2]);
        if (*p != 'x' || i == 2)
            return TN_EINVAL;
        p++;
    }
    return TN_EINVAL;
}

void tn_topo_format(const struct tn_topo *t, char *buf, unsigned len)
{
    snprintf(buf, len, "%ux%ux%u", t->dim[0], t->dim[1], t->dim[2]);
}

void tn_coords(const struct tn_topo *t, uint32_t id, unsigned c[3])
{
    c[0] = id % t->dim[0];
    id /= t->dim[0];
    c[1] = id % t->dim[1];
    c[2] = id / t->dim[1];
}

int tn_dir_parse(const char *s)
{
    for (int d = 0; d < TN_NDIRS; d++)
        if (strcmp(s, dir_names[d]) == 0)
            return d;
    return -1;
}

const char *tn_dir_name(int dir)
{
    return dir >= 0 && dir < TN_NDIRS ? dir_names[dir] : "?";
}

uint32_t tn_neighbor(const struct tn_topo *t, uint32_t id, int dir)
{
    unsigned c[3];
    tn_coords(t, id, c);
    unsigned k = (unsigned)dir >> 1, m = t->dim[k];
    c[k] = (dir & 1) ? (c[k] + m - 1) % m : (c[k] + 1) % m;
    return tn_node_id(t, c[0], c[1], c[2]);
}

unsigned tn_ports(const struct tn_topo *t)
{
    unsigned p = 0;
    for (int k = 0; k < 3; k++)
        p += t->dim[k] > 1 ? 2 : 0;
    return p;
}

static unsigned ring_dist(unsigned a, unsigned b, unsigned m)
{
    unsigned f = (b + m - a) % m;
    return f <= m - f ? f : m - f;
}

unsigned tn_distance(const struct tn_topo *t, uint32_t a, uint32_t b)
{
    unsigned ca[3], cb[3], d = 0;
    tn_coords(t, a, ca);
    tn_coords(t, b, cb);
    for (int k = 0; k < 3; k++)
        d += ring_dist(ca[k], cb[k], t->dim[k]);
    return d;
}

unsigned tn_diameter(const struct tn_topo *t)
{
    return t->dim[0] / 2 + t->dim[1] / 2 + t->dim[2] / 2;
}

bool tn_ring_plus(unsigned m, unsigned from, unsigned offset, enum tn_tie tie)
{
    if (2 * offset != m)
        return 2 * offset < m;
    return tie == TN_TIE_PLUS || from % 2 == 0;
}

unsigned tn_dor_path_tie(const struct tn_topo *t, uint32_t a, uint32_t b, enum tn_tie tie,
                         struct tn_arc *arcs, unsigned cap)
{
    unsigned ca[3], cb[3], len = 0;
    uint32_t cur = a;
    tn_coords(t, a, ca);
    tn_coords(t, b, cb);
    for (int k = 0; k < 3; k++) {
        unsigned m = t->dim[k], f = (cb[k] + m - ca[k]) % m;
        if (f == 0)
            continue;
        bool plus = tn_ring_plus(m, ca[k], f, tie);
        int dir = 2 * k + !plus;
        unsigned steps = plus ? f : m - f;
        for (unsigned i = 0; i < steps; i++) {
            if (len < cap) {
                arcs[len].node = cur;
                arcs[len].dir = (uint8_t)dir;
            }
            len++;
            cur = tn_neighbor(t, cur, dir);
        }
    }
    return len;
}

unsigned tn_dor_path(const struct tn_topo *t, uint32_t a, uint32_t b,
                     struct tn_arc *arcs, unsigned cap)
{
    return tn_dor_path_tie(t, a, b, TN_TIE_PLUS, arcs, cap);
}

void tn_dor_tree(const struct tn_topo *t, uint32_t root, uint32_t *parent, uint8_t *pdir)
{
    unsigned cr[3];
    tn_coords(t, root, cr);
    for (uint32_t v = 0; v < t->n; v++) {
        unsigned cv[3];
        int k = 2;
        tn_coords(t, v, cv);
        while (k >= 0 && cv[k] == cr[k])
            k--;
        parent[v] = root;
        pdir[v] = 0;
        if (k < 0)
            continue;
        /* the path's last dimension is the highest one where v differs */
        unsigned m = t->dim[k], f = (cv[k] + m - cr[k]) % m;
        int dir = 2 * k + !tn_ring_plus(m, cr[k], f, TN_TIE_PLUS);
        parent[v] = tn_neighbor(t, v, tn_dir_opposite(dir));
        pdir[v] = (uint8_t)dir;
    }
}

/* The dimension of v's parent arc in the three + trees, by the set S of
 * v's nonzero coordinates relative to the root (bit k: coordinate k) and
 * the tree's first dimension. Each row is a permutation of {0,1,2}: the
 * three arcs entering a node go to three different trees, so the trees
 * are arc-disjoint; docs/collectives.md shows that following parents
 * always ends at the root. The - trees mirror them. */
static const signed char six_rule[8][3] = {
    [1] = {0, 1, 2}, /* {0} */
    [2] = {0, 1, 2}, /* {1} */
    [4] = {0, 1, 2}, /* {2} */
    [3] = {1, 0, 2}, /* {0,1} */
    [5] = {2, 1, 0}, /* {0,2} */
    [6] = {0, 2, 1}, /* {1,2} */
    [7] = {2, 0, 1}, /* {0,1,2} */
};

/* The set S of six_rule for v in a tree leaving the root by + (minus
 * false) or - (mirrored coordinates). */
static unsigned nonzero_set(const struct tn_topo *t, const unsigned cr[3], uint32_t v, bool minus)
{
    unsigned c[3], set = 0;
    tn_coords(t, v, c);
    for (int k = 0; k < 3; k++) {
        unsigned m = t->dim[k], r = (c[k] + m - cr[k]) % m;
        if (minus)
            r = (m - r) % m;
        if (r)
            set |= 1u << k;
    }
    return set;
}

int tn_six_trees(const struct tn_topo *t, uint32_t root, uint32_t *parent[TN_NDIRS],
                 uint8_t *pdir[TN_NDIRS])
{
    unsigned cr[3];
    for (int k = 0; k < 3; k++)
        if (t->dim[k] < 2)
            return TN_EINVAL;
    tn_coords(t, root, cr);
    for (int tree = 0; tree < TN_NDIRS; tree++) {
        bool minus = tree % 2;
        for (uint32_t v = 0; v < t->n; v++) {
            parent[tree][v] = root;
            pdir[tree][v] = 0;
            if (v == root)
                continue;
            int k = six_rule[nonzero_set(t, cr, v, minus)][tn_dir_dim(tree)];
            /* + tree: parent = v - e_k by arc (parent, k+); - tree: v + e_k by (parent, k-) */
            int dir = 2 * k + minus;
            parent[tree][v] = tn_neighbor(t, v, tn_dir_opposite(dir));
            pdir[tree][v] = (uint8_t)dir;
        }
    }
    return 0;
}

int tn_tree_hop(const struct tn_topo *t, uint32_t v, uint32_t dst, int tree, bool detour)
{
    if (tree < 0 || tree >= TN_NDIRS)
        return TN_NDIRS;
    unsigned cv[3], target[3];
    int d = tn_dir_dim(tree), minus = tree & 1, b = (d + 1) % 3, c = (d + 2) % 3;
    tn_coords(t, v, cv);
    tn_coords(t, dst, target);
    if (detour && !(cv[b] == target[b] && cv[c] == target[c])) {
        unsigned m = t->dim[d];
        target[d] = minus ? (target[d] + 1) % m : (target[d] + m - 1) % m;
    }
    for (int i = 0; i < 3; i++) {
        int k = (d + i) % 3;
        if (cv[k] != target[k])
            return 2 * k + minus;
    }
    return TN_NDIRS;
}

bool tn_tree_detour(const struct tn_topo *t, uint32_t root, uint32_t dst, int tree)
{
    if (tree < 0 || tree >= TN_NDIRS)
        return false;
    unsigned cr[3], cd[3];
    tn_coords(t, root, cr);
    tn_coords(t, dst, cd);
    return cr[tn_dir_dim(tree)] == cd[tn_dir_dim(tree)];
}

unsigned tn_tree_path(const struct tn_topo *t, uint32_t root, uint32_t dst, int tree,
                      struct tn_arc *arcs, unsigned cap)
{
    bool detour = tn_tree_detour(t, root, dst, tree);
    unsigned len = 0, most = t->dim[0] + t->dim[1] + t->dim[2];
    uint32_t v = root;
    int dir;
    while ((dir = tn_tree_hop(t, v, dst, tree, detour)) < TN_NDIRS && len < most) {
        if (len < cap)
            arcs[len] = (struct tn_arc){v, (uint8_t)dir};
        len++;
        v = tn_neighbor(t, v, dir);
    }
    return len;
}

int tn_bfs_tree(const struct tn_topo *t, uint32_t root, uint32_t *parent,
                uint8_t *pdir, uint32_t *depth)
{
    uint32_t *queue = malloc((size_t)t->n * sizeof *queue);
    if (!queue)
        return TN_ENOMEM;
    for (uint32_t v = 0; v < t->n; v++)
        depth[v] = UINT32_MAX;
    uint32_t head = 0, tail = 0;
    queue[tail++] = root;
    parent[root] = root;
    pdir[root] = 0;
    depth[root] = 0;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (int d = 0; d < TN_NDIRS; d++) {
            if (!tn_dir_exists(t, d))
                continue;
            uint32_t v = tn_neighbor(t, u, d);
            if (depth[v] != UINT32_MAX)
                continue;
            depth[v] = depth[u] + 1;
            parent[v] = u;
            pdir[v] = (uint8_t)d;
            queue[tail++] = v;
        }
    }
    free(queue);
    return 0;
}

int tn_dfs_label(uint32_t n, uint32_t root, tn_neighbour_fn nb, const void *ctx,
                 uint32_t *parent, uint32_t *label, uint32_t *last)
{
    /* Iterative DFS: a stack of nodes and, per node, the next slot to try. */
    uint32_t *stack = malloc(((size_t)n + 1) * sizeof *stack);
    uint32_t *next = malloc(((size_t)n + 1) * sizeof *next);
    if (!stack || !next) {
        free(stack);
        free(next);
        return TN_ENOMEM;
    }
    for (uint32_t v = 0; v < n; v++)
        parent[v] = label[v] = last[v] = TN_DFS_END;
    uint32_t sp = 0, count = 0;
    if (root < n) {
        parent[root] = root;
        label[root] = count++;
        next[root] = 0;
        stack[sp++] = root;
    }
    while (sp > 0) {
        uint32_t u = stack[sp - 1], v = nb(ctx, u, next[u]++);
        if (v == TN_DFS_END) {
            last[u] = count - 1;
            sp--;
        } else if (label[v] == TN_DFS_END) { /* u itself (a skipped slot) is labelled */
            parent[v] = u;
            label[v] = count++;
            next[v] = 0;
            stack[sp++] = v;
        }
    }
    free(stack);
    free(next);
    return 0;
}

/* The torus's neighbour lists: slot = direction, the node itself where
 * the direction does not exist. */
static uint32_t torus_neighbour(const void *ctx, uint32_t v, uint32_t i)
{
    const struct tn_topo *t = ctx;
    if (i >= TN_NDIRS)
        return TN_DFS_END;
    return tn_dir_exists(t, (int)i) ? tn_neighbor(t, v, (int)i) : v;
}

int tn_dfs_tree(const struct tn_topo *t, uint32_t root, uint32_t *parent,
                uint8_t *pdir, uint32_t *label, uint32_t *last)
{
    int rc = tn_dfs_label(t->n, root, torus_neighbour, t, parent, label, last);
    /* the search entered v by the first direction from its parent to v */
    for (uint32_t v = 0; v < t->n && !rc; v++) {
        pdir[v] = 0;
        for (int d = 0; v != root && d < TN_NDIRS; d++)
            if (tn_dir_exists(t, d) && tn_neighbor(t, parent[v], d) == v) {
                pdir[v] = (uint8_t)d;
                break;
            }
    }
    return rc;
}
