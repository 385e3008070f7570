/* SPDX-License-Identifier: MIT */
/* Networks for the CDG (the torus as links, the network of a traffic
 * file) and the routings walked pair by pair: 1-interval routing on a DFS
 * labelling and up* / down* on CorrectOrient (cdg.h, docs/deadlock.md). */
#include "cdg.h"

#include <stdlib.h>
#include <string.h>

#include "cdgi.h"
#include "tn_error.h"
#include "traffic.h"

#define NONE TN_CDG_NO_ROUTE /* no node, label, link or depth */

/* ---- networks -------------------------------------------------------- */

static int net_alloc(struct tn_net *n, uint32_t nnodes, uint32_t nlinks)
{
    memset(n, 0, sizeof *n);
    n->nnodes = nnodes;
    n->nlinks = nlinks;
    n->from = malloc(((size_t)nlinks + 1) * sizeof *n->from);
    n->to = malloc(((size_t)nlinks + 1) * sizeof *n->to);
    return n->from && n->to ? 0 : TN_ENOMEM;
}

int tn_net_from_topo(struct tn_net *n, const struct tn_topo *t, bool mesh)
{
    if (net_alloc(n, t->n, t->n * 6)) {
        tn_net_free(n);
        return TN_ENOMEM;
    }
    for (uint32_t u = 0; u < t->n; u++) {
        unsigned c[3];
        tn_coords(t, u, c);
        for (int dir = 0; dir < TN_NDIRS; dir++) {
            unsigned k = t->dim[tn_dir_dim(dir)], x = c[tn_dir_dim(dir)];
            bool wraps = (dir & 1) ? x == 0 : x == k - 1;
            bool exists = tn_dir_exists(t, dir) && !(mesh && wraps);
            n->from[tn_arc_id(u, dir)] = exists ? (int32_t)u : -1;
            n->to[tn_arc_id(u, dir)] = exists ? (int32_t)tn_neighbor(t, u, dir) : -1;
        }
    }
    return 0;
}

int tn_net_read(struct tn_net *n, const char *path)
{
    struct tn_traffic tr;
    int rc = tn_traffic_read_network(&tr, path);
    if (rc)
        return rc;
    rc = net_alloc(n, (uint32_t)tr.nnodes, (uint32_t)tr.nlinks);
    if (!rc) {
        for (int l = 0; l < tr.nlinks; l++)
            n->from[l] = tr.lfrom[l], n->to[l] = tr.lto[l];
        n->node_name = tr.nname, tr.nname = NULL;
        n->link_name = tr.lname, tr.lname = NULL;
    }
    tn_traffic_free(&tr);
    if (rc)
        tn_net_free(n);
    return rc;
}

void tn_net_free(struct tn_net *n)
{
    for (uint32_t i = 0; n->node_name && i < n->nnodes; i++)
        free(n->node_name[i]);
    for (uint32_t i = 0; n->link_name && i < n->nlinks; i++)
        free(n->link_name[i]);
    free(n->node_name);
    free(n->link_name);
    free(n->from);
    free(n->to);
    memset(n, 0, sizeof *n);
}

/* ---- adjacency ------------------------------------------------------- */

/* Links leaving (out) and entering (in) each node, in id order. */
struct adj {
    uint32_t *out_off, *out, *in_off, *in;
};

/* The links that exist by key[l] (their from or to node), in id order. */
static int csr(const struct tn_net *n, const int32_t *key, uint32_t **off, uint32_t **list)
{
    uint64_t *pairs = malloc(((size_t)n->nlinks + 1) * sizeof *pairs);
    size_t np = 0;
    if (!pairs)
        return TN_ENOMEM;
    for (uint32_t l = 0; l < n->nlinks; l++)
        if (n->from[l] >= 0)
            pairs[np++] = (uint64_t)(uint32_t)key[l] << 32 | l;
    int rc = tn_csr_build(n->nnodes, pairs, np, off, list);
    free(pairs);
    return rc;
}

static void adj_free(struct adj *a)
{
    free(a->out_off);
    free(a->out);
    free(a->in_off);
    free(a->in);
}

static int adj_build(struct adj *a, const struct tn_net *n)
{
    memset(a, 0, sizeof *a);
    if (csr(n, n->from, &a->out_off, &a->out) || csr(n, n->to, &a->in_off, &a->in)) {
        adj_free(a);
        return TN_ENOMEM;
    }
    return 0;
}

/* The i-th neighbour of v over its links in either direction (out-links
 * first), or NONE past the last. */
static uint32_t neighbour(const struct tn_net *n, const struct adj *a, uint32_t v, uint32_t i)
{
    uint32_t nout = a->out_off[v + 1] - a->out_off[v];
    if (i < nout)
        return (uint32_t)n->to[a->out[a->out_off[v] + i]];
    i -= nout;
    if (i < a->in_off[v + 1] - a->in_off[v])
        return (uint32_t)n->from[a->in[a->in_off[v] + i]];
    return NONE;
}

/* The first link from u to v, or NONE. */
static uint32_t link_to(const struct tn_net *n, const struct adj *a, uint32_t u, uint32_t v)
{
    for (uint32_t i = a->out_off[u]; i < a->out_off[u + 1]; i++)
        if ((uint32_t)n->to[a->out[i]] == v)
            return a->out[i];
    return NONE;
}

/* ---- routing contexts ------------------------------------------------ */

struct router {
    const struct tn_net *n;
    struct adj a;
    uint32_t *parent, *label, *last; /* interval: DFS tree, NONE outside it */
    uint32_t *depth;                 /* updown: BFS depth from node 0 */
    uint8_t *up;                     /* updown: per link, CorrectOrient's up */
    uint32_t *dist, *queue;          /* updown: per destination, states v*2+phase */
    uint32_t dist_for;               /* the destination dist[] is for */
};

/* The network's neighbour lists for tn_dfs_label (NONE is TN_DFS_END). */
static uint32_t net_neighbour(const void *ctx, uint32_t v, uint32_t i)
{
    const struct router *r = ctx;
    return neighbour(r->n, &r->a, v, i);
}

/* Depth-first tree from node 0 with preorder labels (neighbours in the
 * order of neighbour()); last[v] = largest label in v's subtree. 0 or
 * TN_ENOMEM. */
static int dfs_label(struct router *r)
{
    return tn_dfs_label(r->n->nnodes, 0, net_neighbour, r, r->parent, r->label, r->last);
}

/* Interval routing at u towards label ld (not u's): a label inside u's
 * subtree goes to the child whose interval holds it (NONE if none does),
 * any other to the parent (the cyclic complement). */
static uint32_t interval_next(const struct router *r, uint32_t u, uint32_t ld)
{
    uint32_t next;
    if (!(ld > r->label[u] && ld <= r->last[u]))
        return r->parent[u];
    for (uint32_t i = 0; (next = neighbour(r->n, &r->a, u, i)) != NONE; i++)
        if (r->parent[next] == u && next != u && r->label[next] <= ld && ld <= r->last[next])
            break;
    return next;
}

/* The route from s to d, hop by hop (the oracle of next_interval). */
static int route_interval(void *ctx, uint32_t s, uint32_t d, uint32_t *ch, uint32_t cap)
{
    struct router *r = ctx;
    uint32_t ld = r->label[d], len = 0;
    if (r->label[s] == NONE || ld == NONE)
        return -1;
    for (uint32_t u = s; u != d && len < cap;) {
        uint32_t next = interval_next(r, u, ld), l = link_to(r->n, &r->a, u, next);
        if (l == NONE)
            return -1;
        ch[len++] = l;
        u = next;
    }
    return (int)len;
}

/* The interval tables towards d: one state per node. */
static int next_interval(void *ctx, uint32_t d, uint32_t *ch, uint32_t *to)
{
    struct router *r = ctx;
    uint32_t ld = r->label[d];
    for (uint32_t u = 0; u < r->n->nnodes; u++) {
        ch[u] = TN_CDG_NO_ROUTE;
        if (u == d || r->label[u] == NONE || ld == NONE)
            continue;
        to[u] = interval_next(r, u, ld);
        ch[u] = link_to(r->n, &r->a, u, to[u]);
    }
    return 0;
}

/* CorrectOrient: BFS depths from node 0 over links in either direction;
 * a link is up when it points to the smaller depth, or on equal depths to
 * the smaller id. */
static void correct_orient(struct router *r)
{
    uint32_t N = r->n->nnodes, head = 0, tail = 0;
    for (uint32_t v = 0; v < N; v++)
        r->depth[v] = NONE;
    if (!N)
        return;
    r->depth[0] = 0;
    r->queue[tail++] = 0;
    while (head < tail) {
        uint32_t v = r->queue[head++], w;
        for (uint32_t i = 0; (w = neighbour(r->n, &r->a, v, i)) != NONE; i++)
            if (r->depth[w] == NONE) {
                r->depth[w] = r->depth[v] + 1;
                r->queue[tail++] = w;
            }
    }
    for (uint32_t l = 0; l < r->n->nlinks; l++) {
        uint32_t u = (uint32_t)r->n->from[l], v = (uint32_t)r->n->to[l];
        r->up[l] = r->n->from[l] >= 0 &&
                   (r->depth[v] < r->depth[u] || (r->depth[v] == r->depth[u] && v < u));
    }
}

/* Hops from every state (node, phase) to d over legal routes: phase 0 may
 * still go up, phase 1 (after a down link) only down. */
static void updown_dist(struct router *r, uint32_t d)
{
    uint32_t N = r->n->nnodes, head = 0, tail = 0;
    for (uint32_t i = 0; i < 2 * N; i++)
        r->dist[i] = NONE;
    r->dist[2 * d] = r->dist[2 * d + 1] = 0;
    r->queue[tail++] = 2 * d, r->queue[tail++] = 2 * d + 1;
    while (head < tail) {
        uint32_t st = r->queue[head++], v = st / 2, phase = st % 2;
        for (uint32_t i = r->a.in_off[v]; i < r->a.in_off[v + 1]; i++) {
            uint32_t l = r->a.in[i], u = (uint32_t)r->n->from[l];
            bool up = r->up[l];
            if (up != (phase == 0))
                continue; /* up links lead to phase 0 states, down links to phase 1 */
            for (uint32_t p = 0; p < (up ? 1u : 2u); p++)
                if (r->dist[2 * u + p] == NONE) {
                    r->dist[2 * u + p] = r->dist[st] + 1;
                    r->queue[tail++] = 2 * u + p;
                }
        }
    }
    r->dist_for = d;
}

/* up* / down* at state st (dist[] towards the destination): the first
 * link that stays on a shortest legal route, or NONE; *next: the state it
 * enters (down links lead to phase 1). */
static uint32_t updown_step(const struct router *r, uint32_t st, uint32_t *next)
{
    uint32_t u = st / 2, phase = st % 2;
    if (r->dist[st] == NONE)
        return NONE;
    for (uint32_t i = r->a.out_off[u]; i < r->a.out_off[u + 1]; i++) {
        uint32_t l = r->a.out[i];
        bool up = r->up[l];
        uint32_t to = 2 * (uint32_t)r->n->to[l] + !up;
        if ((!up || phase == 0) && r->dist[to] != NONE && r->dist[to] + 1 == r->dist[st]) {
            *next = to;
            return l;
        }
    }
    return NONE;
}

/* The route from (s, phase 0) to d, hop by hop (the oracle of
 * next_updown). */
static int route_updown(void *ctx, uint32_t s, uint32_t d, uint32_t *ch, uint32_t cap)
{
    struct router *r = ctx;
    if (r->dist_for != d)
        updown_dist(r, d);
    uint32_t st = 2 * s, len = 0;
    while (st / 2 != d && len < cap) {
        uint32_t l = updown_step(r, st, &st);
        if (l == NONE)
            return -1;
        ch[len++] = l;
    }
    return (int)len;
}

/* The up* / down* tables towards d: states (node, phase). */
static int next_updown(void *ctx, uint32_t d, uint32_t *ch, uint32_t *to)
{
    struct router *r = ctx;
    updown_dist(r, d);
    for (uint32_t st = 0; st < 2 * r->n->nnodes; st++) /* NONE is TN_CDG_NO_ROUTE */
        ch[st] = st / 2 == d ? NONE : updown_step(r, st, &to[st]);
    return 0;
}

/* Ordered pairs the network connects (directed reachability). */
static uint64_t reachable_pairs(struct router *r)
{
    uint32_t N = r->n->nnodes;
    uint64_t pairs = 0;
    for (uint32_t s = 0; s < N; s++) {
        uint32_t head = 0, tail = 0;
        for (uint32_t v = 0; v < N; v++)
            r->dist[v] = NONE;
        r->dist[s] = 0;
        r->queue[tail++] = s;
        while (head < tail) {
            uint32_t v = r->queue[head++];
            for (uint32_t i = r->a.out_off[v]; i < r->a.out_off[v + 1]; i++) {
                uint32_t w = (uint32_t)r->n->to[r->a.out[i]];
                if (r->dist[w] == NONE) {
                    r->dist[w] = 0;
                    r->queue[tail++] = w;
                }
            }
        }
        pairs += tail - 1;
    }
    r->dist_for = NONE;
    return pairs;
}

static void router_free(struct router *r)
{
    adj_free(&r->a);
    free(r->parent);
    free(r->label);
    free(r->last);
    free(r->depth);
    free(r->up);
    free(r->dist);
    free(r->queue);
}

static int router_init(struct router *r, const struct tn_net *n)
{
    size_t N = n->nnodes + 1;
    memset(r, 0, sizeof *r);
    r->n = n;
    r->dist_for = NONE;
    int rc = adj_build(&r->a, n);
    r->parent = malloc(N * sizeof *r->parent);
    r->label = malloc(N * sizeof *r->label);
    r->last = malloc(N * sizeof *r->last);
    r->depth = malloc(N * sizeof *r->depth);
    r->up = malloc((size_t)n->nlinks + 1);
    r->dist = malloc(2 * N * sizeof *r->dist);
    r->queue = malloc(2 * N * sizeof *r->queue);
    if (rc || !r->parent || !r->label || !r->last || !r->depth || !r->up || !r->dist || !r->queue) {
        router_free(r);
        return TN_ENOMEM;
    }
    return 0;
}

/* The CDG of routing (interval or updown) on n: per destination, or with
 * walk pair by pair (the oracle). */
static int cdg_net(struct tn_cdg *g, const struct tn_net *n, enum tn_routing routing, bool walk)
{
    memset(g, 0, sizeof *g);
    if (routing != TN_ROUTE_INTERVAL && routing != TN_ROUTE_UPDOWN)
        return TN_EINVAL;
    struct router r;
    if (router_init(&r, n))
        return TN_ENOMEM;
    uint64_t reachable = reachable_pairs(&r);
    int rc;
    if (routing == TN_ROUTE_INTERVAL) {
        rc = dfs_label(&r);
        if (!rc)
            rc = walk ? tn_cdg_from_routes(g, n->nnodes, n->nlinks, route_interval, &r)
                      : tn_cdg_from_next(g, n->nnodes, 1, n->nlinks, next_interval, &r);
    } else {
        correct_orient(&r);
        rc = walk ? tn_cdg_from_routes(g, n->nnodes, n->nlinks, route_updown, &r)
                  : tn_cdg_from_next(g, n->nnodes, 2, n->nlinks, next_updown, &r);
    }
    if (rc) {
        tn_cdg_free(g);
    } else {
        g->reachable = reachable;
        g->net = n;
        g->channels = 0;
        for (uint32_t l = 0; l < n->nlinks; l++)
            g->channels += n->from[l] >= 0;
    }
    router_free(&r);
    return rc;
}

int tn_cdg_net(struct tn_cdg *g, const struct tn_net *n, enum tn_routing routing)
{
    memset(g, 0, sizeof *g);
    if (n->nnodes > TN_CDG_ROUTED_MAX)
        return TN_ENOTSUP;
    return cdg_net(g, n, routing, false);
}

int tn_cdg_net_walk(struct tn_cdg *g, const struct tn_net *n, enum tn_routing routing)
{
    return cdg_net(g, n, routing, true);
}

/* ---- interval routing depth ------------------------------------------ */

struct stretch_sum {
    uint64_t hops, minimal;
};

/* One ordered pair: len hops (< 0: not routed) against its Lee distance. */
static void stretch_pair(struct tn_stretch *st, struct stretch_sum *sum, int len, unsigned lee)
{
    st->pairs++;
    if (len < 0)
        return;
    st->routed++;
    sum->hops += (unsigned)len;
    sum->minimal += lee;
    if ((unsigned)len - lee > st->max_extra)
        st->max_extra = (unsigned)len - lee;
    st->minimal_pairs += (unsigned)len == lee;
}

/* Every pair's route walked hop by hop (the oracle). */
static int stretch_walk(struct router *r, const struct tn_topo *t, struct tn_stretch *st,
                        struct stretch_sum *sum)
{
    uint32_t cap = r->n->nlinks + 1, *ch = malloc((size_t)cap * sizeof *ch);
    if (!ch)
        return TN_ENOMEM;
    for (uint32_t s = 0; s < t->n; s++)
        for (uint32_t d = 0; d < t->n; d++)
            if (s != d)
                stretch_pair(st, sum, route_interval(r, s, d, ch, cap), tn_distance(t, s, d));
    free(ch);
    return 0;
}

/* Per destination: the hops of every node by the next pointers. */
static int stretch_next(struct router *r, const struct tn_topo *t, struct tn_stretch *st,
                        struct stretch_sum *sum)
{
    size_t N = (size_t)t->n + 1;
    uint32_t *ch = malloc(N * sizeof *ch), *to = malloc(N * sizeof *to);
    uint32_t *hops = malloc(N * sizeof *hops), *stack = malloc(N * sizeof *stack);
    int rc = ch && to && hops && stack ? 0 : TN_ENOMEM;
    for (uint32_t d = 0; d < t->n && !rc; d++) {
        next_interval(r, d, ch, to);
        rc = tn_next_hops(t->n, 1, d, ch, to, hops, stack);
        for (uint32_t s = 0; s < t->n && !rc; s++)
            if (s != d)
                stretch_pair(st, sum, hops[s] < TN_HOPS_DEAD ? (int)hops[s] : -1,
                             tn_distance(t, s, d));
    }
    free(ch);
    free(to);
    free(hops);
    free(stack);
    return rc;
}

static int stretch(const struct tn_topo *t, struct tn_stretch *st, bool walk)
{
    memset(st, 0, sizeof *st);
    struct tn_net n;
    struct router r;
    struct stretch_sum sum = {0, 0};
    if (tn_net_from_topo(&n, t, false))
        return TN_ENOMEM;
    if (router_init(&r, &n)) {
        tn_net_free(&n);
        return TN_ENOMEM;
    }
    int rc = dfs_label(&r);
    if (!rc)
        rc = walk ? stretch_walk(&r, t, st, &sum) : stretch_next(&r, t, st, &sum);
    st->avg_hops = st->routed ? (double)sum.hops / (double)st->routed : 0;
    st->avg_minimal = st->routed ? (double)sum.minimal / (double)st->routed : 0;
    router_free(&r);
    tn_net_free(&n);
    return rc;
}

int tn_interval_stretch(const struct tn_topo *t, struct tn_stretch *st)
{
    memset(st, 0, sizeof *st);
    if (t->n > TN_CDG_ROUTED_MAX)
        return TN_ENOTSUP;
    return stretch(t, st, false);
}

int tn_interval_stretch_walk(const struct tn_topo *t, struct tn_stretch *st)
{
    return stretch(t, st, true);
}

/* The cyclic interval compare: LO <= HI holds LO..HI, LO > HI is
 * cyclic (LO..max and 0..HI). */
static bool interval_holds(unsigned lo, unsigned hi, unsigned label)
{
    return lo <= hi ? lo <= label && label <= hi : label >= lo || label <= hi;
}

unsigned tn_ring_interval_check(unsigned k)
{
    unsigned bad = 0, half = k / 2;
    for (unsigned a = 0; a < k; a++)
        for (unsigned b = 0; b < k; b++) {
            unsigned x = a, hops = 0, f = (b + k - a) % k, lee = f < k - f ? f : k - f;
            while (x != b && hops <= k) {
                /* + holds the next half of the ring, - (if the ring has
                 * more than 2 nodes) the rest but the node itself */
                if (interval_holds((x + 1) % k, (x + half) % k, b))
                    x = (x + 1) % k;
                else if (k > 2 && interval_holds((x + half + 1) % k, (x + k - 1) % k, b))
                    x = (x + k - 1) % k;
                else
                    break;
                hops++;
            }
            bad += x != b || hops != lee;
        }
    return bad;
}
