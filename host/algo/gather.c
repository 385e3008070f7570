/* SPDX-License-Identifier: MIT */
/* Gather: shoulder-tap on paths, transmission certificates on trees
 * (see gather.h and docs/collectives.md). */
#include "gather.h"

#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

void tn_gather_free(struct tn_gather *g)
{
    free(g->parent);
    free(g->flits);
    free(g->start);
    free(g->lag);
    free(g->stream);
    free(g->ctl);
    memset(g, 0, sizeof(*g));
}

static int g_alloc(struct tn_gather *g, int n, int maxctl)
{
    memset(g, 0, sizeof(*g));
    g->n = n;
    g->parent = malloc(sizeof(int) * n);
    g->flits = calloc(n, sizeof(int));
    g->start = malloc(sizeof(long) * n);
    g->lag = malloc(sizeof(long) * n);
    g->stream = calloc(n, sizeof(long));
    g->ctl = malloc(sizeof(*g->ctl) * (maxctl ? maxctl : 1));
    if (!g->parent || !g->flits || !g->start || !g->lag || !g->stream ||
        !g->ctl) {
        tn_gather_free(g);
        return TN_ENOMEM;
    }
    for (int v = 0; v < n; v++) {
        g->start[v] = -1;
        g->lag[v] = -1;
    }
    return 0;
}

static void add_ctl(struct tn_gather *g, int from, int to, long cycle, int kind,
                    long value)
{
    struct tn_ga_ctl *c = &g->ctl[g->nctl++];
    c->from = from;
    c->to = to;
    c->cycle = cycle;
    c->kind = kind;
    c->value = value;
}

/* lower = max(M + 2 dmin, max_p 2 d_p + n_p): every node must be told
 * (d_p hops) before its data travels d_p hops back, and the root ejects
 * one flit per cycle. */
static void set_lower(struct tn_gather *g, const int *depth)
{
    long lo = 0;
    int dmin = -1;
    g->total = 0;
    for (int v = 0; v < g->n; v++) {
        if (!g->flits[v])
            continue;
        g->total += g->flits[v];
        if (dmin < 0 || depth[v] < dmin)
            dmin = depth[v];
        if (2L * depth[v] + g->flits[v] > lo)
            lo = 2L * depth[v] + g->flits[v];
    }
    if (dmin >= 0 && g->total + 2L * dmin > lo)
        lo = g->total + 2L * dmin;
    g->lower = lo;
}

static int check_opts(const struct tn_ga_opts *o)
{
    return o->head < 0 || o->react < 0 || o->value_flits < 0 ? TN_EINVAL : 0;
}

/* Flits of a control message of kind k: a token is one, the others carry
 * a value. */
static long ctl_flits(const struct tn_ga_opts *o, int k)
{
    return k == TN_GA_TOKEN ? 1 : 1 + o->value_flits;
}

int tn_gather_shoulder_tap(int n, const int *len, const struct tn_ga_opts *o,
                           struct tn_gather *g)
{
    if (n < 1 || check_opts(o))
        return TN_EINVAL;
    int rc = g_alloc(g, n, n);
    if (rc)
        return rc;
    int last = 0;
    for (int i = 0; i < n; i++) {
        g->parent[i] = i - 1;
        if (len[i] < 0) {
            tn_gather_free(g);
            return TN_EINVAL;
        }
        if (i > 0 && len[i] > 0) {
            g->flits[i] = len[i] + o->head;
            last = i;
        }
    }
    int *depth = malloc(sizeof(int) * n);
    if (!depth) {
        tn_gather_free(g);
        return TN_ENOMEM;
    }
    for (int i = 0; i < n; i++)
        depth[i] = i;
    set_lower(g, depth);
    free(depth);
    g->first = -1;
    if (last == 0)
        return 0;
    /* p0 presents the first wake-up call in cycle 0. 'free_at' is the
     * first root-ejection cycle not yet promised to a nearer node: the
     * value a call carries. */
    long C = ctl_flits(o, TN_GA_CALL), w = C, free_at = 0;
    add_ctl(g, 0, 1, 0, TN_GA_CALL, free_at);
    for (int i = 1; i <= last; i++) {
        long e, call = -1;
        if (i < last) {
            call = w + o->react; /* the call first, then own data */
            e = call + C;
        } else {
            e = w + o->react;
        }
        if (g->flits[i]) {
            long a = e + i > free_at ? e + i : free_at; /* root ejection */
            g->start[i] = a - i;
            if (g->first < 0)
                g->first = a;
            free_at = a + g->flits[i];
        }
        if (call >= 0) {
            add_ctl(g, i, i + 1, call, TN_GA_CALL, free_at);
            w = call + C;
        }
    }
    g->time = free_at;
    g->bound = g->time;
    return 0;
}

struct cert_ctx {
    const struct tn_ctree *t;
    const struct tn_ga_opts *o;
    struct tn_gather *g;
    int *slot;      /* order slot of a node among its parent's children */
    long *off;      /* offset of a node's segment in its parent's stream */
    long *off_own;  /* offset of the node's own message in its stream */
    long *b3;       /* phase-3 broadcast bound of the subtree */
    struct seg { long r; int who; int len; } *seg;
    int *tmp;
};

static int cmp_lag_desc(const void *a, const void *b, const long *lag)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (lag[x] != lag[y])
        return lag[x] > lag[y] ? -1 : 1;
    return (x > y) - (x < y);
}

static int cmp_seg(const void *a, const void *b)
{
    const struct seg *x = a, *y = b;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    return (x->who > y->who) - (x->who < y->who);
}

/* Certificate of p from its children's: slots by decreasing lag, segments
 * combined by increasing release; lag = max_j (r_j - prefix_j). */
static void certify(struct cert_ctx *x, int p)
{
    const struct tn_ctree *t = x->t;
    struct tn_gather *g = x->g;
    int m = 0, isroot = p == t->root;
    for (int i = t->child_off[p]; i < t->child_off[p + 1]; i++)
        if (g->stream[t->child[i]] > 0)
            x->tmp[m++] = t->child[i];
    /* insertion sort by decreasing lag (few children) */
    for (int a = 1; a < m; a++)
        for (int b = a; b > 0 && cmp_lag_desc(&x->tmp[b], &x->tmp[b - 1],
                                               g->lag) < 0; b--) {
            int s = x->tmp[b];
            x->tmp[b] = x->tmp[b - 1];
            x->tmp[b - 1] = s;
        }
    int ns = 0;
    long react = x->o->react, C = ctl_flits(x->o, TN_GA_ORDER), b3 = 0, N = g->flits[p];
    for (int k = 0; k < m; k++) {
        int q = x->tmp[k];
        x->slot[q] = k;
        /* q's order from C k, ejected by C k + C; its stream follows lag[q]
         * later, one hop up unless p is the root */
        x->seg[ns].r = C * k + C + g->lag[q] + (isroot ? 0 : react + 1);
        x->seg[ns].who = q;
        x->seg[ns].len = (int)g->stream[q];
        ns++;
        N += g->stream[q];
        if (x->b3[q] > b3)
            b3 = x->b3[q];
    }
    if (!isroot && g->flits[p]) {
        x->seg[ns].r = react + C * m + 1;
        x->seg[ns].who = -1; /* sorts first among equal releases */
        x->seg[ns].len = g->flits[p];
        ns++;
    }
    qsort(x->seg, ns, sizeof(*x->seg), cmp_seg);
    long pre = 0, c = 0;
    for (int j = 0; j < ns; j++) {
        if (x->seg[j].r - pre > c)
            c = x->seg[j].r - pre;
        if (x->seg[j].who < 0)
            x->off_own[p] = pre;
        else
            x->off[x->seg[j].who] = pre;
        pre += x->seg[j].len;
    }
    g->stream[p] = N;
    g->lag[p] = N ? c : -1;
    x->b3[p] = N ? (isroot ? C * m + b3 : react + C * m + 1 + b3) : 0;
}

/* Phases 1-2 for the subtree of p, whose token p ejects in cycle tau:
 * token to each child in turn, wait for its certificate. Returns the
 * cycle p presents its certificate (the root: its first order). */
static long poll(struct cert_ctx *x, int p, long tau, int depth)
{
    const struct tn_ctree *t = x->t;
    long at = tau + x->o->react;
    int deg = tn_ctree_nchild(t, p);
    for (int i = t->child_off[p]; i < t->child_off[p + 1]; i++) {
        int q = t->child[i];
        add_ctl(x->g, p, q, at, TN_GA_TOKEN, 0);
        long cq = poll(x, q, at + ctl_flits(x->o, TN_GA_TOKEN), depth + 1);
        add_ctl(x->g, q, p, cq, TN_GA_CERT, x->g->lag[q]);
        at = cq + ctl_flits(x->o, TN_GA_CERT) + x->o->react;
    }
    int k = 0;
    while ((1 << k) < deg)
        k++; /* ceil(log2 deg): sorting the children's lags */
    certify(x, p);
    return at + k;
}

int tn_gather_certificates(const struct tn_ctree *t, const int *len,
                           const struct tn_ga_opts *o, struct tn_gather *g)
{
    if (check_opts(o) || t->height > 50000)
        return TN_EINVAL;
    int n = t->n, rc = g_alloc(g, n, 3 * n);
    if (rc)
        return rc;
    g->root = t->root;
    memcpy(g->parent, t->parent, sizeof(int) * n);
    for (int v = 0; v < n; v++) {
        if (len[v] < 0) {
            tn_gather_free(g);
            return TN_EINVAL;
        }
        if (v != t->root && len[v] > 0)
            g->flits[v] = len[v] + o->head;
    }
    set_lower(g, t->depth);
    struct cert_ctx x = {t, o, g, NULL, NULL, NULL, NULL, NULL, NULL};
    x.slot = malloc(sizeof(int) * n);
    x.off = calloc(n, sizeof(long));
    x.off_own = calloc(n, sizeof(long));
    x.b3 = calloc(n, sizeof(long));
    x.seg = malloc(sizeof(*x.seg) * (n + 1));
    x.tmp = malloc(sizeof(int) * n);
    long *recv = malloc(sizeof(long) * n); /* order ejection cycle */
    long *S = malloc(sizeof(long) * n);    /* stream start on the up arc */
    rc = TN_ENOMEM;
    if (!x.slot || !x.off || !x.off_own || !x.b3 || !x.seg || !x.tmp ||
        !recv || !S)
        goto out_free;
    rc = 0;
    g->t_sync = poll(&x, t->root, -o->react, 0);
    g->first = -1;
    if (g->stream[t->root] > 0) {
        long base = g->t_sync + g->lag[t->root];
        g->first = base;
        g->time = base + g->stream[t->root];
        g->bound = g->t_sync + x.b3[t->root] + g->total;
        /* phase 3: orders top-down in breadth-first order */
        for (int i = 0; i < n; i++) {
            int p = t->bfs[i];
            if (g->stream[p] == 0)
                continue;
            long first_order; /* cycle p presents its first order */
            if (p == t->root) {
                first_order = g->t_sync;
            } else {
                first_order = recv[p] + o->react;
                if (g->flits[p])
                    g->start[p] = S[p] + x.off_own[p] - 1;
            }
            for (int j = t->child_off[p]; j < t->child_off[p + 1]; j++) {
                int q = t->child[j];
                if (g->stream[q] == 0)
                    continue;
                /* q's stream on arc q->p; at the root that is ejection */
                S[q] = p == t->root ? base + x.off[q] : S[p] + x.off[q] - 1;
                long C = ctl_flits(o, TN_GA_ORDER), c = first_order + C * x.slot[q];
                add_ctl(g, p, q, c, TN_GA_ORDER, S[q]);
                recv[q] = c + C;
            }
        }
    }
out_free:
    free(x.slot);
    free(x.off);
    free(x.off_own);
    free(x.b3);
    free(x.seg);
    free(x.tmp);
    free(recv);
    free(S);
    if (rc)
        tn_gather_free(g);
    return rc;
}
