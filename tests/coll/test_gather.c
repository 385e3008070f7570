/* SPDX-License-Identifier: MIT */
/* Gather: shoulder-tap equals the brute-force optimum on paths (Theorem 2)
 * and is gap-free when no message is null; transmission certificates on
 * random trees are collision-free (independent arc/lane/eject/causality
 * checker), arrive gap-free at the root, and lie between the lower bound
 * max(M + 2 dmin, 2 d + n) and the Theorem 3 bound t_sync + b3 + M. */
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "topo.h"
#include "gather.h"
#include "tree.h"

static unsigned long long rng = 0x2545f4914f6cdd1dULL;
static int rnd(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (unsigned long long)n);
}

/* ---- brute force on a path ------------------------------------------
 * Every schedule in which node i may act only after a wake-up call
 * relayed hop by hop from p0 (ejected at w_i, reaction from w_i + react),
 * each node's single lane presents its call and its own data in distinct
 * cycles, and data flits never share an arc in a cycle. On a path every
 * data stream crosses arc 1->0 and a flit on arc j->j-1 in cycle c is on
 * arc 1->0 in cycle c + j - 1, so collision freedom is exactly
 * disjointness of the streams' ejection intervals at p0. The call of a
 * node is, without loss, either as early as possible or right after its
 * own data (any other cycle is dominated: calls only bound later nodes
 * from below). Data start times range freely: any order, any gaps. A
 * call is C flits (1 + value_flits): it holds the lane C cycles and is
 * acted on C cycles after it leaves. */
struct bf {
    int last, react, C, n[16];
    long lo[16], hi[16];
    int nint;
    long best;
};

static void bf_node(struct bf *b, int i, long w, long end)
{
    if (i > b->last) {
        if (end < b->best)
            b->best = end;
        return;
    }
    int call = i < b->last, n = b->n[i];
    long e = w + b->react;
    if (n == 0) {
        bf_node(b, i + 1, call ? e + b->C : w, end);
        return;
    }
    for (long g = e; g + i + n < b->best + 0; g++) {
        long a = g + i, z = a + n - 1;
        int clash = 0;
        for (int k = 0; k < b->nint && !clash; k++)
            clash = a <= b->hi[k] && b->lo[k] <= z;
        if (clash)
            continue;
        b->lo[b->nint] = a;
        b->hi[b->nint] = z;
        b->nint++;
        long ne = z + 1 > end ? z + 1 : end;
        if (!call) {
            bf_node(b, i + 1, w, ne);
        } else {
            if (e + b->C <= g) /* call first, from cycle e */
                bf_node(b, i + 1, e + b->C, ne);
            bf_node(b, i + 1, g + n + b->C, ne); /* call right after data */
        }
        b->nint--;
    }
}

static long brute_path(int np, const int *flits, int react, int C, long start_best)
{
    struct bf b;
    memset(&b, 0, sizeof(b));
    b.react = react;
    b.C = C;
    b.best = start_best;
    for (int i = 1; i < np; i++) {
        b.n[i] = flits[i];
        if (flits[i])
            b.last = i;
    }
    if (!b.last)
        return 0;
    bf_node(&b, 1, C, 0);
    return b.best;
}

/* ---- independent checker -------------------------------------------- */
static int up_hop_arc(const int *parent, int n, int from, int to)
{
    if (parent[from] == to)
        return from; /* up arc from -> parent */
    if (parent[to] == from)
        return to + n; /* down arc parent -> to */
    return -1;
}

static int depth_of(const int *parent, int v)
{
    int d = 0;
    for (; parent[v] >= 0; v = parent[v])
        d++;
    return d;
}

struct grid {
    int rows;
    long cols;
    unsigned char *c;
};

static int grid_mark(struct grid *g, int r, long c)
{
    if (r < 0 || r >= g->rows || c < 0 || c >= g->cols)
        return 1;
    return g->c[(long)r * g->cols + c]++ ? 1 : 0;
}

/* Returns the number of violations; *gapfree tells whether the root's
 * data ejections are one contiguous run ending at g->time - 1. A control
 * message is a flit, and vf more if it carries a value (all but tokens):
 * it holds its sender's lane, its arc and its receiver's ejection for
 * that many cycles and is acted on after the last. */
static int check_gather(const struct tn_gather *g, const int *len, int head,
                        int react, int vf, int certificates, int *gapfree)
{
    int n = g->n, bad = 0, root = 0;
    for (int v = 0; v < n; v++)
        if (g->parent[v] < 0)
            root = v;
    long hz = g->time + 2;
    for (int i = 0; i < g->nctl; i++)
        if (g->ctl[i].cycle + vf + 3 > hz)
            hz = g->ctl[i].cycle + vf + 3;
    struct grid arcs = {2 * n, hz, calloc((size_t)2 * n * hz, 1)};
    struct grid lane = {n, hz, calloc((size_t)n * hz, 1)};
    struct grid ej = {n, hz, calloc((size_t)n * hz, 1)};
    long *trig = malloc(sizeof(long) * n);  /* call/order ejection */
    long *token = malloc(sizeof(long) * n); /* token ejection */
    long *certs = calloc(n, sizeof(long));  /* last child cert ejection */
    int *ncert = calloc(n, sizeof(int));
    for (int v = 0; v < n; v++)
        trig[v] = token[v] = -1;
    token[root] = -1 - react; /* the root starts phase 1 by itself */
    for (int i = 0; i < g->nctl; i++) {
        const struct tn_ga_ctl *c = &g->ctl[i];
        int a = up_hop_arc(g->parent, n, c->from, c->to);
        if (a < 0) {
            bad++;
            continue;
        }
        int ctl = c->kind == TN_GA_TOKEN ? 1 : 1 + vf;
        for (int f = 0; f < ctl; f++) {
            bad += grid_mark(&arcs, a, c->cycle + 1 + f);
            bad += grid_mark(&lane, c->from, c->cycle + f);
            bad += grid_mark(&ej, c->to, c->cycle + 1 + f);
        }
        long got = c->cycle + ctl; /* its last flit ejected */
        if (c->kind == TN_GA_CALL || c->kind == TN_GA_ORDER) {
            if (trig[c->to] >= 0)
                bad++; /* told twice */
            trig[c->to] = got;
        } else if (c->kind == TN_GA_TOKEN) {
            token[c->to] = got;
        } else {
            ncert[c->to]++;
            if (got > certs[c->to])
                certs[c->to] = got;
        }
    }
    /* causality of control flits */
    for (int i = 0; i < g->nctl; i++) {
        const struct tn_ga_ctl *c = &g->ctl[i];
        int p = c->from;
        if (c->kind == TN_GA_CALL || c->kind == TN_GA_ORDER) {
            if (p == root) {
                if (certificates &&
                    (ncert[root] == 0 || c->cycle < certs[root] + react))
                    bad++;
            } else if (trig[p] < 0 || c->cycle < trig[p] + react) {
                bad++;
            }
        } else if (c->kind == TN_GA_TOKEN) {
            if (c->cycle < token[p] + react)
                bad++;
        } else if (token[p] == -1 || c->cycle < token[p] + react ||
                   (ncert[p] && c->cycle < certs[p] + react)) {
            bad++; /* certificate before token or before children's */
        }
    }
    long first = -1, last = -1, count = 0;
    for (int v = 0; v < n; v++) {
        int want = v != root && len[v] > 0 ? len[v] + head : 0;
        if (g->flits[v] != want)
            bad++;
        if (!want)
            continue;
        if (g->start[v] < 0 || trig[v] < 0 || g->start[v] < trig[v] + react) {
            bad++;
            continue;
        }
        int d = depth_of(g->parent, v);
        for (int f = 0; f < want; f++) {
            long s = g->start[v] + f;
            bad += grid_mark(&lane, v, s);
            int u = v, h = 1;
            for (; g->parent[u] >= 0; u = g->parent[u], h++)
                bad += grid_mark(&arcs, u, s + h);
            bad += grid_mark(&ej, root, s + d);
            if (first < 0 || s + d < first)
                first = s + d;
            if (s + d > last)
                last = s + d;
            count++;
        }
    }
    *gapfree = count == 0 || (last - first + 1 == count && last + 1 == g->time &&
                              first == g->first);
    free(arcs.c);
    free(lane.c);
    free(ej.c);
    free(trig);
    free(token);
    free(certs);
    free(ncert);
    return bad;
}

static void test_shoulder_tap(void)
{
    int trials = 400, opt = 0, clean = 0, strict = 0, gap_all = 0, gap_cases = 0,
        lower_ok = 0, rc_ok = 0;
    for (int tr = 0; tr < trials; tr++) {
        int np = 2 + rnd(5), len[16], head = rnd(2), react = rnd(3) == 0, vf = rnd(2);
        int allnon = rnd(4) == 0;
        for (int i = 0; i < np; i++)
            len[i] = allnon ? 1 + rnd(4) : (rnd(3) == 0 ? 0 : 1 + rnd(4));
        struct tn_ga_opts o = {head, react, vf};
        struct tn_gather g;
        if (tn_gather_shoulder_tap(np, len, &o, &g)) {
            continue;
        }
        rc_ok++;
        long bf = brute_path(np, g.flits, react, 1 + vf, g.time + 1);
        opt += bf == g.time;
        int gf;
        clean += check_gather(&g, len, head, react, vf, 0, &gf) == 0;
        lower_ok += g.lower <= g.time;
        /* does some non-NRF/gapped schedule cost more? (discrimination) */
        strict += g.time > g.lower;
        if (allnon && head == 1 && react == 0 && vf == 0) {
            gap_cases++;
            gap_all += gf;
        }
        tn_gather_free(&g);
    }
    is(rc_ok, trials, "shoulder-tap accepts every path instance");
    is(opt, trials, "shoulder-tap equals the brute-force optimum over all "
                    "woken schedules on paths (Theorem 2; %d paths, null "
                    "messages, react 0/1, head 0/1, calls of 1 or 2 flits)", trials);
    is(clean, trials, "shoulder-tap schedules pass the independent checker "
                      "(arcs, lanes, ejection, wake-up causality)");
    is(lower_ok, trials, "shoulder-tap time >= lower bound");
    ok(gap_cases > 10 && gap_all == gap_cases,
       "no null message, head flit, react 0, one-flit calls: arrival at p0 is gap-free "
       "(%d/%d)", gap_all, gap_cases);
    ok(strict > 0, "lower bound is not always tight (brute force has work "
                   "to do: %d instances)", strict);
}

/* Independent phase-3 bound b3 (orders of ctl flits broadcast down the
 * active tree). */
static long b3_of(const int *parent, int n, const long *stream, int p, int react, int ctl,
                  int root)
{
    long best = 0;
    int m = 0;
    for (int q = 0; q < n; q++)
        if (parent[q] == p && stream[q] > 0) {
            m++;
            long b = b3_of(parent, n, stream, q, react, ctl, root);
            if (b > best)
                best = b;
        }
    return p == root ? ctl * m + best : react + ctl * m + 1 + best;
}

static long subtree_flits(const int *parent, int n, const int *flits, int p,
                          long *stream)
{
    long s = flits[p];
    for (int q = 0; q < n; q++)
        if (parent[q] == p)
            s += subtree_flits(parent, n, flits, q, stream);
    stream[p] = s;
    return s;
}

static void test_certificates(void)
{
    int trials = 300, clean = 0, gap = 0, within = 0, above = 0, bnd = 0,
        vs_path = 0, paths = 0;
    for (int tr = 0; tr < trials; tr++) {
        int n = 2 + rnd(30), parent[64], len[64], head = rnd(2);
        int react = rnd(3) == 0, ispath = rnd(5) == 0, vf = rnd(3);
        for (int v = 0; v < n; v++) {
            parent[v] = v == 0 ? -1 : ispath ? v - 1 : rnd(v);
            len[v] = rnd(3) == 0 ? 0 : 1 + rnd(8);
        }
        struct tn_ctree t;
        struct tn_gather g;
        struct tn_ga_opts o = {head, react, vf};
        if (tn_ctree_from_parent(&t, n, parent) ||
            tn_gather_certificates(&t, len, &o, &g))
            continue;
        int gf;
        clean += check_gather(&g, len, head, react, vf, 1, &gf) == 0;
        gap += gf;
        long stream[64];
        subtree_flits(parent, n, g.flits, 0, stream);
        long b3 = stream[0] ? b3_of(parent, n, stream, 0, react, 1 + vf, 0) : 0;
        long ub = stream[0] ? g.t_sync + b3 + stream[0] : 0;
        within += g.time <= ub && g.bound == ub;
        above += g.time >= g.lower;
        bnd += g.time == (stream[0] ? g.first + stream[0] : 0);
        if (ispath) {
            struct tn_gather s;
            paths++;
            if (!tn_gather_shoulder_tap(n, len, &o, &s)) {
                vs_path += s.time <= g.time;
                tn_gather_free(&s);
            }
        }
        tn_gather_free(&g);
        tn_ctree_free(&t);
    }
    is(clean, trials, "certificate gather passes the independent checker on "
                      "%d random trees, values of 0 to 2 flits beside a control message's "
                      "one (arcs, lanes, ejection, token/certificate/order causality)", trials);
    is(gap, trials, "certificate gather arrives gap-free at the root");
    is(bnd, trials, "completion = first arrival + M (phase 4 is M cycles)");
    is(within, trials, "completion <= t_sync + b3 + M (Theorem 3 form, b3 "
                       "recomputed independently)");
    is(above, trials, "completion >= lower bound max(M + 2 dmin, 2d + n)");
    ok(paths > 10 && vs_path == paths, "on paths shoulder-tap is never "
                                       "slower than certificates (%d)", paths);
}

static void test_torus_tree(void)
{
    struct tn_topo c;
    tn_topo_init(&c, 7, 7, 7);
    int n = (int)c.n;
    uint32_t *par = malloc(sizeof *par * c.n);
    uint8_t *pd = malloc(c.n);
    int *len = malloc(sizeof(int) * c.n);
    tn_dor_tree(&c, 0, par, pd);
    for (int v = 0; v < n; v++)
        len[v] = rnd(4) ? 1 + rnd(16) : 0;
    struct tn_ctree t;
    struct tn_gather g;
    struct tn_ga_opts o = {1, 0, 0};
    int rc = tn_ctree_from_topo(&t, c.n, par);
    int bfs = 1;
    for (int v = 0; v < n && !rc; v++)
        bfs &= t.depth[v] == (int)tn_distance(&c, 0, (uint32_t)v);
    ok(!rc && bfs, "7x7x7 DOR tree is a BFS tree (depth = Lee distance)");
    rc = rc ? rc : tn_gather_certificates(&t, len, &o, &g);
    int gf = 0;
    ok(!rc && check_gather(&g, len, 1, 0, 0, 1, &gf) == 0 && gf &&
           g.time >= g.lower && g.time <= g.bound,
       "7x7x7 certificate gather: clean, gap-free, sync %ld + lag %ld + M "
       "%ld = %ld (lower %ld, bound %ld)",
       g.t_sync, g.first - g.t_sync, g.total, g.time, g.lower, g.bound);
    if (!rc)
        tn_gather_free(&g);
    tn_ctree_free(&t);
    free(par);
    free(pd);
    free(len);
}

int main(void)
{
    test_shoulder_tap();
    test_certificates();
    test_torus_tree();
    return tap_done();
}
