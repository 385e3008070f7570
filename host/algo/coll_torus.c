/* SPDX-License-Identifier: MIT */
/* Minimal 3-D torus helper for the collective algorithms (see coll_torus.h). */
#include "coll_torus.h"

#include "tn_error.h"

int tn_ct_init(struct tn_ct *t, int x, int y, int z)
{
    if (x < 1 || y < 1 || z < 1 || x > 1024 || y > 1024 || z > 1024 ||
        (long)x * y * z > (1L << 24))
        return TN_EINVAL;
    t->dim[0] = x;
    t->dim[1] = y;
    t->dim[2] = z;
    t->n = x * y * z;
    return 0;
}

int tn_ct_node(const struct tn_ct *t, int x, int y, int z)
{
    return x + t->dim[0] * (y + t->dim[1] * z);
}

void tn_ct_coords(const struct tn_ct *t, int v, int c[3])
{
    c[0] = v % t->dim[0];
    v /= t->dim[0];
    c[1] = v % t->dim[1];
    c[2] = v / t->dim[1];
}

int tn_ct_neighbor(const struct tn_ct *t, int v, int d)
{
    int c[3];
    int k = d / 2;
    tn_ct_coords(t, v, c);
    c[k] = (c[k] + (d % 2 ? t->dim[k] - 1 : 1)) % t->dim[k];
    return tn_ct_node(t, c[0], c[1], c[2]);
}

int tn_ct_has_dir(const struct tn_ct *t, int d)
{
    return d >= 0 && d < TN_CT_NDIR && t->dim[d / 2] >= 2;
}

int tn_ct_dist(const struct tn_ct *t, int a, int b)
{
    int ca[3], cb[3], s = 0;
    tn_ct_coords(t, a, ca);
    tn_ct_coords(t, b, cb);
    for (int k = 0; k < 3; k++) {
        int m = ((cb[k] - ca[k]) % t->dim[k] + t->dim[k]) % t->dim[k];
        s += m < t->dim[k] - m ? m : t->dim[k] - m;
    }
    return s;
}

int tn_ct_dor_path(const struct tn_ct *t, int a, int b, enum tn_ct_tie tie,
                   int *arcs)
{
    int ca[3], cb[3], len = 0, v = a;
    tn_ct_coords(t, a, ca);
    tn_ct_coords(t, b, cb);
    for (int k = 0; k < 3; k++) {
        int K = t->dim[k];
        int m = ((cb[k] - ca[k]) % K + K) % K;
        if (m == 0)
            continue;
        int plus;
        if (2 * m < K)
            plus = 1;
        else if (2 * m > K)
            plus = 0;
        else
            plus = tie == TN_CT_TIE_SPLIT ? ca[k] % 2 == 0 : 1;
        int steps = plus ? m : K - m, d = 2 * k + (plus ? 0 : 1);
        for (int s = 0; s < steps; s++) {
            arcs[len++] = tn_ct_arc(v, d);
            v = tn_ct_neighbor(t, v, d);
        }
    }
    return len;
}

void tn_ct_dor_tree(const struct tn_ct *t, int root, enum tn_ct_tie tie,
                    int *parent, int *pdir)
{
    int arcs[3 * 512 + 3];
    for (int v = 0; v < t->n; v++) {
        if (v == root) {
            parent[v] = -1;
            pdir[v] = -1;
            continue;
        }
        int len = tn_ct_dor_path(t, root, v, tie, arcs);
        parent[v] = arcs[len - 1] / 6;
        pdir[v] = arcs[len - 1] % 6;
    }
}

/* Parent dimension of a node whose relative coordinates have the nonzero
 * set S (bit k = coordinate k nonzero), for the three trees that use
 * only + arcs (tree t leaves the root along dimension t). Each row is a
 * permutation of {0,1,2}: the three arcs entering a node go to three
 * different trees, so the trees are arc-disjoint; docs/collectives.md
 * shows that following parents always ends at the root. */
static const signed char six_rule[8][3] = {
    [1] = {0, 1, 2}, /* {0} */
    [2] = {0, 1, 2}, /* {1} */
    [4] = {0, 1, 2}, /* {2} */
    [3] = {1, 0, 2}, /* {0,1} */
    [5] = {2, 1, 0}, /* {0,2} */
    [6] = {0, 2, 1}, /* {1,2} */
    [7] = {2, 0, 1}, /* {0,1,2} */
};

int tn_ct_six_trees(const struct tn_ct *t, int root, int *parent[6],
                    int *pdir[6])
{
    int cr[3];
    for (int k = 0; k < 3; k++)
        if (t->dim[k] < 2)
            return TN_EINVAL;
    tn_ct_coords(t, root, cr);
    for (int tree = 0; tree < 6; tree++) {
        int dimt = tree / 2, minus = tree % 2;
        for (int v = 0; v < t->n; v++) {
            int c[3], S = 0;
            if (v == root) {
                parent[tree][v] = -1;
                pdir[tree][v] = -1;
                continue;
            }
            tn_ct_coords(t, v, c);
            for (int k = 0; k < 3; k++) {
                int K = t->dim[k];
                /* relative coordinate, mirrored for the - trees */
                int r = ((c[k] - cr[k]) % K + K) % K;
                if (minus)
                    r = (K - r) % K;
                if (r)
                    S |= 1 << k;
            }
            int k = six_rule[S][dimt];
            /* + tree: parent = v - e_k via arc (parent, k+);
             * - tree: parent = v + e_k via arc (parent, k-). */
            int d = 2 * k + minus;
            parent[tree][v] = tn_ct_neighbor(t, v, d ^ 1);
            pdir[tree][v] = d;
        }
    }
    return 0;
}
