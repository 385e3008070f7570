/* SPDX-License-Identifier: MIT */
/* FDF scatter on trees and all-port torus scatter (see scatter.h). */
#include "scatter.h"

#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

void tn_scatter_free(struct tn_scatter *s)
{
    free(s->s);
    memset(s, 0, sizeof(*s));
}

struct fdf_key {
    int dist, id;
};

static int cmp_fdf(const void *a, const void *b)
{
    const struct fdf_key *x = a, *y = b;
    if (x->dist != y->dist)
        return x->dist > y->dist ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

long tn_scatter_order_time(const struct tn_ctree *t, const int *len, int head,
                           const int *order, int k)
{
    long sent = 0, time = 0;
    for (int j = 0; j < k; j++) {
        int v = order[j];
        if (v == t->root || len[v] <= 0)
            continue;
        sent += len[v] + head;
        if (sent + t->depth[v] > time)
            time = sent + t->depth[v];
    }
    return time;
}

/* Streams of one port in FDF order, starting at cycle 0. Fills s[] and
 * returns the port's completion. */
static long fdf_port(const int *dests, int m, const int *depth, const int *len,
                     int head, int port, struct tn_sc_stream *s)
{
    long at = 0, time = 0;
    for (int j = 0; j < m; j++) {
        int v = dests[j];
        struct tn_sc_stream *x = &s[j];
        x->dest = v;
        x->port = port;
        x->len = len[v];
        x->flits = len[v] + head;
        x->dist = depth[v];
        x->start = at;
        x->first = at + x->dist;
        x->last = x->first + x->flits - 1;
        at += x->flits;
        if (x->last + 1 > time)
            time = x->last + 1;
    }
    return time;
}

static int sort_fdf(int *dests, int m, const int *depth)
{
    struct fdf_key *k = malloc(sizeof(*k) * (m ? m : 1));
    if (!k)
        return TN_ENOMEM;
    for (int j = 0; j < m; j++) {
        k[j].dist = depth[dests[j]];
        k[j].id = dests[j];
    }
    qsort(k, m, sizeof(*k), cmp_fdf);
    for (int j = 0; j < m; j++)
        dests[j] = k[j].id;
    free(k);
    return 0;
}

int tn_scatter_fdf(const struct tn_ctree *t, const int *len, int head,
                   struct tn_scatter *out)
{
    memset(out, 0, sizeof(*out));
    if (head < 0)
        return TN_EINVAL;
    int m = 0, *dests = malloc(sizeof(int) * t->n);
    if (!dests)
        return TN_ENOMEM;
    for (int v = 0; v < t->n; v++) {
        if (len[v] < 0) {
            free(dests);
            return TN_EINVAL;
        }
        if (v != t->root && len[v] > 0)
            dests[m++] = v;
    }
    int rc = sort_fdf(dests, m, t->depth);
    out->s = malloc(sizeof(*out->s) * (m ? m : 1));
    if (rc || !out->s) {
        free(dests);
        free(out->s);
        out->s = NULL;
        return TN_ENOMEM;
    }
    out->nstreams = m;
    out->nports = 1;
    out->time = fdf_port(dests, m, t->depth, len, head, 0, out->s);
    /* Proposition 1: every order needs at least all flits plus the
     * nearest distance, and each stream its own length plus distance. */
    long sum = 0, lo = 0;
    int dmin = 0;
    for (int j = 0; j < m; j++) {
        int v = dests[j];
        sum += len[v] + head;
        if (j == 0 || t->depth[v] < dmin)
            dmin = t->depth[v];
        if (len[v] + head + t->depth[v] > lo)
            lo = len[v] + head + t->depth[v];
    }
    out->lower = sum + dmin > lo ? sum + dmin : lo;
    free(dests);
    return 0;
}

long tn_scatter_allport_lower(const struct tn_ct *t, int root, const int *len,
                              int head)
{
    int ports = 0, dmax = 0;
    for (int d = 0; d < TN_CT_NDIR; d++)
        ports += tn_ct_has_dir(t, d);
    for (int v = 0; v < t->n; v++) {
        int d = tn_ct_dist(t, root, v);
        if (d > dmax)
            dmax = d;
    }
    long *f = calloc(dmax + 2, sizeof(long)), lo = 0;
    if (!f)
        return -1;
    for (int v = 0; v < t->n; v++) {
        if (v == root || len[v] <= 0)
            continue;
        int d = tn_ct_dist(t, root, v);
        f[d] += len[v] + head;
        if (len[v] + head + d > lo)
            lo = len[v] + head + d;
    }
    long tail = 0;
    for (int d = dmax; d >= 1; d--) {
        tail += f[d];
        if (tail > 0 && (tail + ports - 1) / ports + d > lo)
            lo = (tail + ports - 1) / ports + d;
    }
    free(f);
    return lo;
}

/* FDF completion of a set of destinations on one tree. */
static long port_time(const int *dests, int m, const int *depth, const int *len,
                      int head)
{
    long sent = 0, time = 0;
    for (int j = 0; j < m; j++) {
        sent += len[dests[j]] + head;
        if (sent + depth[dests[j]] > time)
            time = sent + depth[dests[j]];
    }
    return time;
}

/* Insert v into dests (kept in FDF order for depth). */
static void fdf_insert(int *dests, int *m, int v, const int *depth)
{
    int j = *m;
    while (j > 0 && (depth[dests[j - 1]] < depth[v] ||
                     (depth[dests[j - 1]] == depth[v] && dests[j - 1] > v))) {
        dests[j] = dests[j - 1];
        j--;
    }
    dests[j] = v;
    (*m)++;
}

static void fdf_remove(int *dests, int *m, int v)
{
    int j = 0;
    while (dests[j] != v)
        j++;
    memmove(&dests[j], &dests[j + 1], sizeof(int) * (*m - j - 1));
    (*m)--;
}

struct lpt_key {
    int flits, id;
};

static int cmp_lpt(const void *a, const void *b)
{
    const struct lpt_key *x = a, *y = b;
    if (x->flits != y->flits)
        return x->flits > y->flits ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

int tn_scatter_allport(const struct tn_ct *t, int root, const int *len,
                       int head, struct tn_scatter *out)
{
    memset(out, 0, sizeof(*out));
    if (head < 0 || root < 0 || root >= t->n)
        return TN_EINVAL;
    int n = t->n, rc = TN_ENOMEM;
    int *par[6] = {0}, *pdir[6] = {0}, *depth[6] = {0}, *dests[6] = {0};
    int cnt[6] = {0};
    long ptime[6] = {0};
    struct lpt_key *keys = malloc(sizeof(*keys) * n);
    struct tn_ctree tr;
    if (!keys)
        goto out_free;
    for (int k = 0; k < 6; k++) {
        par[k] = malloc(sizeof(int) * n);
        pdir[k] = malloc(sizeof(int) * n);
        depth[k] = malloc(sizeof(int) * n);
        dests[k] = malloc(sizeof(int) * n);
        if (!par[k] || !pdir[k] || !depth[k] || !dests[k])
            goto out_free;
    }
    rc = tn_ct_six_trees(t, root, par, pdir);
    if (rc)
        goto out_free;
    for (int k = 0; k < 6; k++) {
        rc = tn_ctree_from_parent(&tr, n, par[k]);
        if (rc)
            goto out_free;
        memcpy(depth[k], tr.depth, sizeof(int) * n);
        tn_ctree_free(&tr);
    }
    int m = 0;
    for (int v = 0; v < n; v++) {
        if (len[v] < 0) {
            rc = TN_EINVAL;
            goto out_free;
        }
        if (v != root && len[v] > 0) {
            keys[m].flits = len[v] + head;
            keys[m].id = v;
            m++;
        }
    }
    qsort(keys, m, sizeof(*keys), cmp_lpt);
    /* LPT: each message to the tree whose completion becomes smallest */
    for (int j = 0; j < m; j++) {
        int v = keys[j].id, best = -1;
        long bt = 0;
        for (int k = 0; k < 6; k++) {
            fdf_insert(dests[k], &cnt[k], v, depth[k]);
            long tk = port_time(dests[k], cnt[k], depth[k], len, head);
            fdf_remove(dests[k], &cnt[k], v);
            if (best < 0 || tk < bt) {
                best = k;
                bt = tk;
            }
        }
        fdf_insert(dests[best], &cnt[best], v, depth[best]);
        ptime[best] = bt;
    }
    /* improvement: move a message off the latest tree while the maximum
     * of the two trees involved decreases */
    for (int iter = 0; iter < 4 * m; iter++) {
        int worst = 0;
        for (int k = 1; k < 6; k++)
            if (ptime[k] > ptime[worst])
                worst = k;
        int moved = 0;
        for (int j = 0; j < cnt[worst] && !moved; j++) {
            int v = dests[worst][j];
            for (int k = 0; k < 6 && !moved; k++) {
                if (k == worst)
                    continue;
                fdf_remove(dests[worst], &cnt[worst], v);
                fdf_insert(dests[k], &cnt[k], v, depth[k]);
                long tw = port_time(dests[worst], cnt[worst], depth[worst], len,
                                    head);
                long tk = port_time(dests[k], cnt[k], depth[k], len, head);
                if ((tw > tk ? tw : tk) < ptime[worst]) {
                    ptime[worst] = tw;
                    ptime[k] = tk;
                    moved = 1;
                } else {
                    fdf_remove(dests[k], &cnt[k], v);
                    fdf_insert(dests[worst], &cnt[worst], v, depth[worst]);
                }
            }
        }
        if (!moved)
            break;
    }
    out->s = malloc(sizeof(*out->s) * (m ? m : 1));
    if (!out->s) {
        rc = TN_ENOMEM;
        goto out_free;
    }
    out->nstreams = m;
    out->nports = 6;
    int at = 0;
    for (int k = 0; k < 6; k++) {
        long tk = fdf_port(dests[k], cnt[k], depth[k], len, head, k,
                           &out->s[at]);
        if (tk > out->time)
            out->time = tk;
        at += cnt[k];
    }
    out->lower = tn_scatter_allport_lower(t, root, len, head);
    rc = out->lower < 0 ? TN_ENOMEM : 0;
    if (rc)
        tn_scatter_free(out);
out_free:
    for (int k = 0; k < 6; k++) {
        free(par[k]);
        free(pdir[k]);
        free(depth[k]);
        free(dests[k]);
    }
    free(keys);
    return rc;
}
