/* SPDX-License-Identifier: MIT */
/* FDF scatter on trees and all-port torus scatter (see scatter.h). */
#include "scatter.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

void tn_scatter_free(struct tn_scatter *s)
{
    free(s->s);
    memset(s, 0, sizeof(*s));
}

struct fdf_key {
    int dist, sub, id; /* sub: the root's child on the way to id */
};

static int cmp_fdf(const void *a, const void *b)
{
    const struct fdf_key *x = a, *y = b;
    if (x->dist != y->dist)
        return x->dist > y->dist ? -1 : 1;
    if (x->sub != y->sub)
        return x->sub < y->sub ? -1 : 1;
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

/* dests in FDF order; ties by the root's child they lie under (so a
 * relay root's back-to-back packets of one distance leave by one first
 * hop in a row, one inject descriptor for them), then by id. */
static int sort_fdf(int *dests, int m, const struct tn_ctree *t)
{
    struct fdf_key *k = malloc(sizeof(*k) * (m ? m : 1));
    if (!k)
        return TN_ENOMEM;
    for (int j = 0; j < m; j++) {
        int u = dests[j];
        while (t->parent[u] != t->root)
            u = t->parent[u];
        k[j].dist = t->depth[dests[j]];
        k[j].sub = u;
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
    int rc = sort_fdf(dests, m, t);
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

static int cmp_desc_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x < y) - (x > y);
}

/* Whole packets: among the k P + 1 longest, some port sends k + 1, so at
 * least the k + 1 shortest of them, and its last packet goes >= 1 hop:
 * max over k of that sum + 1 (pk: the m packet lengths, sorted here). */
static long packet_bound(long *pk, int m, int ports)
{
    long lo = 0;
    qsort(pk, (size_t)m, sizeof *pk, cmp_desc_long);
    for (int k = 1; k * ports + 1 <= m; k++) {
        long s = 0;
        for (int j = k * ports - k; j <= k * ports; j++)
            s += pk[j];
        if (s + 1 > lo)
            lo = s + 1;
    }
    return lo;
}

static long gcd_long(long a, long b)
{
    while (b) {
        long r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Packing search state: the packets pk (longest first), for each j the
 * sum and gcd of pk[j..m), the ports' room and each packet's port. */
struct packing {
    const long *pk;
    long *rest, *gcd, *room;
    int *at, m, ports;
};

/* The next port for packet j after at[j]: one with room for it and a
 * room unlike every earlier port's (ports of equal room are
 * interchangeable), or -1. */
static int next_port(const struct packing *p, int j)
{
    for (int b = p->at[j] + 1; b < p->ports; b++) {
        bool twin = false;
        for (int c = 0; c < b && !twin; c++)
            twin = p->room[c] == p->room[b];
        if (!twin && p->room[b] >= p->pk[j])
            return b;
    }
    return -1;
}

/* Whether the rest fits at all: each port's room rounded down to a
 * multiple of the gcd of the packets left. */
static bool rest_fits(const struct packing *p, int j)
{
    long room = 0;
    for (int b = 0; b < p->ports; b++)
        room += p->room[b] / p->gcd[j] * p->gcd[j];
    return room >= p->rest[j];
}

/* Whether the packets fit the ports' rooms: depth first, iterative (m may
 * be large). The search gives up after *budget steps and then answers
 * yes: a bound built on the rooms it said no to stays valid. */
static bool packs(struct packing *p, long *budget)
{
    int j = 0;
    p->at[0] = -1;
    while (j < p->m) {
        if (--*budget < 0)
            return true;
        int b = p->at[j] < 0 && !rest_fits(p, j) ? -1 : next_port(p, j);
        if (b >= 0) {
            p->at[j] = b;
            p->room[b] -= p->pk[j++];
            if (j < p->m)
                p->at[j] = -1;
            continue;
        }
        if (--j < 0)
            return false;
        p->room[p->at[j]] += p->pk[j];
    }
    return true;
}

/* Bin packing: a port's packets take at least their sum, and its last
 * one >= 1 hop, so T >= 1 + the least room per port into which the
 * packets pk (sorted longest first) pack; searched upwards from lo - 1
 * (the bound known), the search limited: returns the bound, >= lo. */
static long packing_bound(const long *pk, int m, int ports, long lo)
{
    long *rest = malloc(sizeof(long) * (size_t)(m + 1)), *g = malloc(sizeof(long) * (size_t)(m + 1));
    long *room = malloc(sizeof(long) * (size_t)ports), budget = 200000;
    int *at = malloc(sizeof(int) * (size_t)(m + 1));
    if (!rest || !g || !room || !at || m == 0)
        goto out;
    rest[m] = 0;
    g[m] = 0;
    for (int j = m - 1; j >= 0; j--) {
        rest[j] = rest[j + 1] + pk[j];
        g[j] = gcd_long(pk[j], g[j + 1]);
    }
    struct packing p = {pk, rest, g, room, at, m, ports};
    for (long cap = lo - 1 > pk[0] ? lo - 1 : pk[0];; cap++) {
        for (int b = 0; b < ports; b++)
            room[b] = cap;
        if (packs(&p, &budget)) {
            lo = cap + 1 > lo ? cap + 1 : lo;
            break;
        }
    }
out:
    free(rest);
    free(g);
    free(room);
    free(at);
    return lo;
}

long tn_scatter_allport_lower(const struct tn_topo *t, int root, const int *len,
                              int head)
{
    int ports = (int)tn_ports(t), n = (int)t->n, dmax = (int)tn_diameter(t), m = 0;
    long *f = calloc(dmax + 2, sizeof(long)), *pk = malloc(sizeof(long) * (size_t)n), lo = 0;
    if (!f || !pk) {
        free(f);
        free(pk);
        return -1;
    }
    for (int v = 0; v < n; v++) {
        if (v == root || len[v] <= 0)
            continue;
        int d = (int)tn_distance(t, (uint32_t)root, (uint32_t)v);
        f[d] += len[v] + head;
        pk[m++] = len[v] + head;
        if (len[v] + head + d > lo)
            lo = len[v] + head + d;
    }
    long tail = 0;
    for (int d = dmax; d >= 1; d--) {
        tail += f[d];
        if (tail > 0 && (tail + ports - 1) / ports + d > lo)
            lo = (tail + ports - 1) / ports + d;
    }
    long pb = packet_bound(pk, m, ports);
    lo = packing_bound(pk, m, ports, pb > lo ? pb : lo);
    free(f);
    free(pk);
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

/* The six trees as the root's ports: each tree's depths, its
 * destinations in FDF order and its completion. */
struct six_ports {
    int *depth[TN_NDIRS], *dests[TN_NDIRS], cnt[TN_NDIRS];
    long time[TN_NDIRS];
};

static void six_ports_free(struct six_ports *p)
{
    for (int k = 0; k < TN_NDIRS; k++) {
        free(p->depth[k]);
        free(p->dests[k]);
    }
}

/* The ports of the trees of tn_six_trees(), no destinations yet. */
static int six_ports_init(struct six_ports *p, const struct tn_topo *t, uint32_t root)
{
    memset(p, 0, sizeof *p);
    uint32_t *par[TN_NDIRS] = {0};
    uint8_t *pdir[TN_NDIRS] = {0};
    int rc = TN_ENOMEM;
    for (int k = 0; k < TN_NDIRS; k++) {
        par[k] = malloc(sizeof(uint32_t) * t->n);
        pdir[k] = malloc(t->n);
        p->depth[k] = malloc(sizeof(int) * t->n);
        p->dests[k] = malloc(sizeof(int) * t->n);
        if (!par[k] || !pdir[k] || !p->depth[k] || !p->dests[k])
            goto out_free;
    }
    rc = tn_six_trees(t, root, par, pdir);
    for (int k = 0; k < TN_NDIRS && !rc; k++) {
        struct tn_ctree tr;
        if (!(rc = tn_ctree_from_topo(&tr, t->n, par[k]))) {
            memcpy(p->depth[k], tr.depth, sizeof(int) * t->n);
            tn_ctree_free(&tr);
        }
    }
out_free:
    for (int k = 0; k < TN_NDIRS; k++) {
        free(par[k]);
        free(pdir[k]);
    }
    return rc;
}

static long six_port_time(const struct six_ports *p, int k, const int *len, int head)
{
    return port_time(p->dests[k], p->cnt[k], p->depth[k], len, head);
}

/* The non-null messages (but the root's), longest stream first: their
 * number, or TN_EINVAL for a negative length. */
static int lpt_order(const int *len, int n, int root, int head, struct lpt_key *keys)
{
    int m = 0;
    for (int v = 0; v < n; v++) {
        if (len[v] < 0)
            return TN_EINVAL;
        if (v != root && len[v] > 0) {
            keys[m].flits = len[v] + head;
            keys[m].id = v;
            m++;
        }
    }
    qsort(keys, m, sizeof(*keys), cmp_lpt);
    return m;
}

/* LPT: each message to the tree whose completion becomes smallest. */
static void assign_lpt(struct six_ports *p, const struct lpt_key *keys, int m, const int *len,
                       int head)
{
    for (int j = 0; j < m; j++) {
        int v = keys[j].id, best = -1;
        long bt = 0;
        for (int k = 0; k < TN_NDIRS; k++) {
            fdf_insert(p->dests[k], &p->cnt[k], v, p->depth[k]);
            long tk = six_port_time(p, k, len, head);
            fdf_remove(p->dests[k], &p->cnt[k], v);
            if (best < 0 || tk < bt) {
                best = k;
                bt = tk;
            }
        }
        fdf_insert(p->dests[best], &p->cnt[best], v, p->depth[best]);
        p->time[best] = bt;
    }
}

/* Whether the trees' completions with w's and k's replaced by tw and tk
 * are better: all six sorted latest first, compared in that order. */
static bool completions_better(const long *time, int w, int k, long tw, long tk)
{
    long a[TN_NDIRS], b[TN_NDIRS];
    memcpy(a, time, sizeof a);
    memcpy(b, time, sizeof b);
    b[w] = tw;
    b[k] = tk;
    qsort(a, TN_NDIRS, sizeof(long), cmp_desc_long);
    qsort(b, TN_NDIRS, sizeof(long), cmp_desc_long);
    for (int i = 0; i < TN_NDIRS; i++)
        if (a[i] != b[i])
            return b[i] < a[i];
    return false;
}

static void move_message(struct six_ports *p, int v, int from, int to)
{
    fdf_remove(p->dests[from], &p->cnt[from], v);
    fdf_insert(p->dests[to], &p->cnt[to], v, p->depth[to]);
}

/* Moves message v from tree w to tree k and, if u >= 0, u back from k to
 * w; keeps it if the completions got better (completions_better). */
static bool try_exchange(struct six_ports *p, int v, int w, int u, int k, const int *len, int head)
{
    move_message(p, v, w, k);
    if (u >= 0)
        move_message(p, u, k, w);
    long tw = six_port_time(p, w, len, head), tk = six_port_time(p, k, len, head);
    if (completions_better(p->time, w, k, tw, tk)) {
        p->time[w] = tw;
        p->time[k] = tk;
        return true;
    }
    if (u >= 0)
        move_message(p, u, w, k);
    move_message(p, v, k, w);
    return false;
}

static long latest(const struct six_ports *p)
{
    long t = 0;
    for (int k = 0; k < TN_NDIRS; k++)
        if (p->time[k] > t)
            t = p->time[k];
    return t;
}

/* One improvement: a message moved to another tree, or two messages of
 * two trees swapped, the trees taken latest first: true if one was
 * made. */
static bool improve_once(struct six_ports *p, const int *len, int head)
{
    int order[TN_NDIRS];
    for (int k = 0; k < TN_NDIRS; k++) {
        int j = k;
        for (; j > 0 && p->time[order[j - 1]] < p->time[k]; j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    for (int i = 0; i < TN_NDIRS; i++) {
        int w = order[i];
        for (int j = 0; j < p->cnt[w]; j++) {
            int v = p->dests[w][j];
            for (int k = 0; k < TN_NDIRS; k++) {
                if (k == w)
                    continue;
                if (try_exchange(p, v, w, -1, k, len, head))
                    return true;
                for (int x = 0; x < p->cnt[k]; x++)
                    if (try_exchange(p, v, w, p->dests[k][x], k, len, head))
                        return true;
            }
        }
    }
    return false;
}

/* Every tree's streams in FDF order into out. */
static int six_port_streams(const struct six_ports *p, int m, const int *len, int head,
                            struct tn_scatter *out)
{
    out->s = malloc(sizeof(*out->s) * (m ? m : 1));
    if (!out->s)
        return TN_ENOMEM;
    out->nstreams = m;
    out->nports = TN_NDIRS;
    int at = 0;
    for (int k = 0; k < TN_NDIRS; k++) {
        long tk = fdf_port(p->dests[k], p->cnt[k], p->depth[k], len, head, k, &out->s[at]);
        if (tk > out->time)
            out->time = tk;
        at += p->cnt[k];
    }
    return 0;
}

int tn_scatter_allport(const struct tn_topo *t, int root, const int *len,
                       int head, struct tn_scatter *out)
{
    memset(out, 0, sizeof(*out));
    if (head < 0 || root < 0 || (uint32_t)root >= t->n)
        return TN_EINVAL;
    struct six_ports p;
    int rc = six_ports_init(&p, t, (uint32_t)root);
    struct lpt_key *keys = malloc(sizeof(*keys) * t->n);
    int m = rc ? rc : keys ? lpt_order(len, (int)t->n, root, head, keys) : TN_ENOMEM;
    if (m < 0) {
        rc = m;
        goto out_free;
    }
    out->lower = tn_scatter_allport_lower(t, root, len, head);
    if (out->lower < 0) {
        rc = TN_ENOMEM;
        goto out_free;
    }
    assign_lpt(&p, keys, m, len, head);
    /* improvement, a move or swap at a time, at most 4 m of them, until
     * the latest tree meets the bound */
    for (int iter = 0; iter < 4 * m && latest(&p) > out->lower && improve_once(&p, len, head);
         iter++)
        ;
    rc = six_port_streams(&p, m, len, head, out);
    if (rc)
        tn_scatter_free(out);
out_free:
    six_ports_free(&p);
    free(keys);
    return rc;
}
