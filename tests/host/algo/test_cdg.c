/* SPDX-License-Identifier: MIT */
/* Channel-dependency graphs (include/torus/cdg.h) against the lecture's examples:
 * XY on a mesh is acyclic, a ring (and DOR on a k >= 4 torus) is cyclic,
 * the dateline classes make it acyclic, 3-rings never take two hops in a
 * dimension; the ring-by-ring DOR construction equals the route-by-route
 * one; up* / down* on random irregular networks is acyclic and connected;
 * interval and up* / down* built per destination equal their pair-by-pair
 * walks (the oracle); a hand-built cyclic routing is caught. */
#include <stdlib.h>
#include <string.h>

#include "cdg.h"
#include "cdgi.h"
#include "tap.h"
#include "tn_error.h"

/* The cycle is one: consecutive channels are dependencies (the last
 * back to the first). */
static bool cycle_is_real(const struct tn_cdg *g)
{
    if (g->ncycle == 0)
        return false;
    for (uint32_t i = 0; i < g->ncycle; i++) {
        uint32_t a = g->cycle[i], b = g->cycle[(i + 1) % g->ncycle];
        bool found = false;
        for (uint32_t e = g->off[a]; e < g->off[a + 1]; e++)
            found |= g->succ[e] == b;
        if (!found)
            return false;
    }
    return true;
}

static void check_topo(const char *dims, bool mesh, enum tn_routing r, bool want_acyclic)
{
    struct tn_topo t;
    struct tn_cdg g;
    tn_topo_parse(&t, dims);
    int rc = tn_cdg_topo(&g, &t, mesh, r);
    is(rc, 0, "%s %s %s: built", dims, mesh ? "mesh" : "torus", tn_routing_name(r));
    ok(tn_cdg_acyclic(&g) == want_acyclic, "%s %s %s: %s (%u channels, %llu dependencies)", dims,
       mesh ? "mesh" : "torus", tn_routing_name(r), want_acyclic ? "acyclic" : "cyclic",
       g.channels, (unsigned long long)g.deps);
    if (!want_acyclic)
        ok(cycle_is_real(&g), "%s %s: the reported cycle (%u channels) is a cycle of the CDG", dims,
           tn_routing_name(r), g.ncycle);
    tn_cdg_free(&g);
}

/* ---- route-by-route oracles for DOR ---------------------------------- */

struct dor_ctx {
    const struct tn_topo *t;
    bool mesh, dateline;
};

/* The torus DOR route of tn_dor_path; with the dateline (the lecture's
 * R'_d), a - hop is class 1 and a + hop class 0 while the rest of the route
 * in its dimension still takes a wrap link, the other class after it. */
static int route_dor(void *ctx, uint32_t s, uint32_t d, uint32_t *ch, uint32_t cap)
{
    struct dor_ctx *c = ctx;
    struct tn_arc arcs[64];
    unsigned len = tn_dor_path(c->t, s, d, arcs, 64), classes = c->dateline ? 2 : 1;
    for (unsigned h = 0; h < len && h < cap; h++) {
        unsigned ahead = 0;
        for (unsigned j = h; c->dateline && j < len && arcs[j].dir == arcs[h].dir; j++) {
            unsigned x[3], dim = tn_dir_dim(arcs[j].dir);
            tn_coords(c->t, arcs[j].node, x);
            ahead |= (arcs[j].dir & 1) ? x[dim] == 0 : x[dim] == c->t->dim[dim] - 1;
        }
        unsigned cls = c->dateline && ((arcs[h].dir & 1) ? ahead : !ahead);
        ch[h] = (arcs[h].node * 6 + arcs[h].dir) * classes + cls;
    }
    return (int)len;
}

/* Channel of node u's link in direction dir, class cls, with two classes. */
static uint32_t ch2(uint32_t u, unsigned dir, unsigned cls)
{
    return (u * 6 + dir) * 2 + cls;
}

/* Whether g has the dependency a -> b. */
static bool has_dep(const struct tn_cdg *g, uint32_t a, uint32_t b)
{
    for (uint32_t i = g->off[a]; i < g->off[a + 1]; i++)
        if (g->succ[i] == b)
            return true;
    return false;
}

/* XYZ on a mesh: walk the coordinates. */
static int route_mesh(void *ctx, uint32_t s, uint32_t d, uint32_t *ch, uint32_t cap)
{
    struct dor_ctx *c = ctx;
    unsigned a[3], b[3];
    uint32_t len = 0;
    tn_coords(c->t, s, a);
    tn_coords(c->t, d, b);
    for (unsigned dim = 0; dim < 3; dim++)
        while (a[dim] != b[dim] && len < cap) {
            int dir = 2 * (int)dim + (b[dim] < a[dim]);
            ch[len++] = tn_node_id(c->t, a[0], a[1], a[2]) * 6 + (uint32_t)dir;
            a[dim] += b[dim] > a[dim] ? 1 : -1;
        }
    return (int)len;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static bool same_deps(struct tn_cdg *a, struct tn_cdg *b)
{
    if (a->nch != b->nch || a->deps != b->deps)
        return false;
    for (uint32_t c = 0; c < a->nch; c++) {
        uint32_t n = a->off[c + 1] - a->off[c];
        if (n != b->off[c + 1] - b->off[c])
            return false;
        qsort(a->succ + a->off[c], n, sizeof(uint32_t), cmp_u32);
        qsort(b->succ + b->off[c], n, sizeof(uint32_t), cmp_u32);
        if (n && memcmp(a->succ + a->off[c], b->succ + b->off[c], n * sizeof(uint32_t)))
            return false;
    }
    return true;
}

static void check_against_routes(const char *dims, bool mesh, enum tn_routing r)
{
    struct tn_topo t;
    struct tn_cdg fast, slow;
    tn_topo_parse(&t, dims);
    struct dor_ctx c = {&t, mesh, r == TN_ROUTE_DATELINE};
    unsigned classes = c.dateline ? 2 : 1;
    int rc1 = tn_cdg_topo(&fast, &t, mesh, r);
    int rc2 = tn_cdg_from_routes(&slow, t.n, t.n * 6 * classes, mesh ? route_mesh : route_dor, &c);
    ok(!rc1 && !rc2 && same_deps(&fast, &slow),
       "%s %s %s: the ring-by-ring CDG equals the route-by-route one (%llu dependencies)", dims,
       mesh ? "mesh" : "torus", tn_routing_name(r), (unsigned long long)slow.deps);
    tn_cdg_free(&fast);
    tn_cdg_free(&slow);
}

/* ---- per destination against the pairwise walk ----------------------- */

/* Routing r on n built per destination (tn_cdg_net) and by walking every
 * pair (tn_cdg_net_walk): the same dependency set, cycle verdict and pair
 * counts. Adds the connected pairs the walk did not route to *unrouted. */
static bool same_as_walk(const struct tn_net *n, enum tn_routing r, uint64_t *unrouted)
{
    struct tn_cdg fast, slow;
    int rc1 = tn_cdg_net(&fast, n, r), rc2 = tn_cdg_net_walk(&slow, n, r);
    bool same = !rc1 && !rc2 && same_deps(&fast, &slow) && fast.pairs == slow.pairs &&
                fast.routable == slow.routable && fast.reachable == slow.reachable &&
                fast.channels == slow.channels && tn_cdg_acyclic(&fast) == tn_cdg_acyclic(&slow);
    *unrouted += slow.reachable - slow.routable;
    tn_cdg_free(&fast);
    tn_cdg_free(&slow);
    return same;
}

static void check_topo_as_walk(const char *dims, bool mesh)
{
    struct tn_topo t;
    struct tn_net n;
    tn_topo_parse(&t, dims);
    if (tn_net_from_topo(&n, &t, mesh)) {
        ok(false, "%s: network built", dims);
        return;
    }
    uint64_t unrouted = 0;
    for (int r = TN_ROUTE_INTERVAL; r <= TN_ROUTE_UPDOWN; r++)
        ok(same_as_walk(&n, (enum tn_routing)r, &unrouted),
           "%s %s %s: the CDG built per destination equals the pairwise walk (dependencies, "
           "routable and reachable pairs)", dims, mesh ? "mesh" : "torus",
           tn_routing_name((enum tn_routing)r));
    tn_net_free(&n);
}

static bool same_stretch(const struct tn_stretch *a, const struct tn_stretch *b)
{
    return a->pairs == b->pairs && a->routed == b->routed &&
           a->minimal_pairs == b->minimal_pairs && a->max_extra == b->max_extra &&
           a->avg_hops == b->avg_hops && a->avg_minimal == b->avg_minimal;
}

static void check_stretch_as_walk(const char *dims)
{
    struct tn_topo t;
    struct tn_stretch fast, slow;
    tn_topo_parse(&t, dims);
    int rc1 = tn_interval_stretch(&t, &fast), rc2 = tn_interval_stretch_walk(&t, &slow);
    ok(!rc1 && !rc2 && same_stretch(&fast, &slow),
       "%s: interval stretch per destination equals the pairwise walk (average %.2f, max +%u, "
       "%llu minimal pairs)", dims, fast.avg_hops, fast.max_extra,
       (unsigned long long)fast.minimal_pairs);
}

/* ---- irregular networks ---------------------------------------------- */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33) % n;
}

/* A random connected network: a random tree plus extra cables, every
 * cable two links. */
static int random_net(struct tn_net *n, uint32_t nodes, uint32_t extra)
{
    uint32_t cables = nodes - 1 + extra;
    memset(n, 0, sizeof *n);
    n->nnodes = nodes;
    n->from = malloc(2 * cables * sizeof *n->from);
    n->to = malloc(2 * cables * sizeof *n->to);
    if (!n->from || !n->to)
        return TN_ENOMEM;
    for (uint32_t i = 0; i < cables; i++) {
        uint32_t a = i + 1 < nodes ? i + 1 : rnd(nodes), b = i + 1 < nodes ? rnd(i + 1) : rnd(nodes);
        if (a == b)
            b = (a + 1) % nodes;
        n->from[n->nlinks] = (int32_t)a, n->to[n->nlinks++] = (int32_t)b;
        n->from[n->nlinks] = (int32_t)b, n->to[n->nlinks++] = (int32_t)a;
    }
    return 0;
}

static void check_random_updown(void)
{
    int bad_acyclic = 0, bad_connected = 0, bad_walk = 0, bad_oneway = 0, seeds = 300;
    uint64_t unrouted = 0, unrouted_oneway = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        rng_state = (uint64_t)seed;
        struct tn_net n;
        struct tn_cdg g;
        uint32_t nodes = 2 + rnd(40);
        if (random_net(&n, nodes, rnd(2 * nodes)) || tn_cdg_net(&g, &n, TN_ROUTE_UPDOWN)) {
            bad_acyclic++;
            tn_net_free(&n);
            continue;
        }
        if (!tn_cdg_acyclic(&g)) {
            bad_acyclic++;
            diag("seed %d: cyclic up*/down* CDG", seed);
        }
        if (g.routable != g.pairs || g.reachable != g.pairs) {
            bad_connected++;
            diag("seed %d: %llu of %llu pairs routable", seed, (unsigned long long)g.routable,
                 (unsigned long long)g.pairs);
        }
        tn_cdg_free(&g);
        for (int r = TN_ROUTE_INTERVAL; r <= TN_ROUTE_UPDOWN; r++)
            if (!same_as_walk(&n, (enum tn_routing)r, &unrouted)) {
                bad_walk++;
                diag("seed %d: %s per destination differs from the walk", seed,
                     tn_routing_name((enum tn_routing)r));
            }
        for (uint32_t l = 0; l < n.nlinks; l += 3) /* one way only: routes that stop short */
            n.from[l] = n.to[l] = -1;
        for (int r = TN_ROUTE_INTERVAL; r <= TN_ROUTE_UPDOWN; r++)
            if (!same_as_walk(&n, (enum tn_routing)r, &unrouted_oneway)) {
                bad_oneway++;
                diag("seed %d, every third link removed: %s per destination differs from the "
                     "walk", seed, tn_routing_name((enum tn_routing)r));
            }
        tn_net_free(&n);
    }
    is(bad_acyclic, 0, "up*/down* on %d random irregular networks: every CDG acyclic", seeds);
    is(bad_connected, 0, "up*/down* on %d random irregular networks: every pair routable", seeds);
    is(bad_walk, 0, "interval and up*/down* on %d random irregular networks: the CDG built per "
       "destination equals the pairwise walk", seeds);
    ok(bad_oneway == 0 && unrouted_oneway > 0 && unrouted == 0,
       "the same with every third link removed: equal to the walk, where %llu connected pairs "
       "have no route (routes that stop short; none without the removal)",
       (unsigned long long)unrouted_oneway);
}

/* ---- hand-built routings --------------------------------------------- */

/* Four nodes in a ring of one-way links i -> i+1: every packet goes round
 * (channel i = link i -> i+1). */
static int route_ring(void *ctx, uint32_t s, uint32_t d, uint32_t *ch, uint32_t cap)
{
    (void)ctx;
    uint32_t len = 0;
    for (uint32_t u = s; u != d && len < cap; u = (u + 1) % 4)
        ch[len++] = u;
    return (int)len;
}

/* The same ring, but no route crosses the link 3 -> 0: acyclic. */
static int route_broken_ring(void *ctx, uint32_t s, uint32_t d, uint32_t *ch, uint32_t cap)
{
    return d < s ? -1 : route_ring(ctx, s, d, ch, cap);
}

/* The ring of route_ring as next pointers: node u sends on channel u to
 * u + 1 whatever the destination. */
static int next_ring(void *ctx, uint32_t d, uint32_t *ch, uint32_t *to)
{
    (void)ctx;
    for (uint32_t u = 0; u < 4; u++)
        ch[u] = u, to[u] = (u + 1) % 4;
    ch[d] = TN_CDG_NO_ROUTE;
    return 0;
}

/* Node 1 sends everything back to node 0 and node 0 to node 1: packets
 * for 2 and 3 go round between them. */
static int next_loop(void *ctx, uint32_t d, uint32_t *ch, uint32_t *to)
{
    next_ring(ctx, d, ch, to);
    to[1] = 0;
    return 0;
}

/* Node 3 sends to a state that does not exist. */
static int next_off_graph(void *ctx, uint32_t d, uint32_t *ch, uint32_t *to)
{
    next_ring(ctx, d, ch, to);
    to[3] = 4;
    return 0;
}

static void check_hand_built(void)
{
    struct tn_cdg walk;
    if (tn_cdg_from_routes(&walk, 4, 4, route_ring, NULL) == 0) {
        struct tn_cdg g;
        is(tn_cdg_from_next(&g, 4, 1, 4, next_ring, NULL), 0, "ring as next pointers: built");
        ok(same_deps(&g, &walk) && g.ncycle == 4 && cycle_is_real(&g) && g.routable == 12,
           "ring as next pointers: the walk's dependencies, the 4-channel cycle, 12 pairs");
        tn_cdg_free(&g);
        memset(&g, 0xA5, sizeof g);
        is(tn_cdg_from_next(&g, 4, 1, 4, next_loop, NULL), TN_EVERIFY,
           "next pointers that go round between two nodes: TN_EVERIFY");
        ok(!g.off && !g.succ && !g.cycle, "and the refused graph is empty (safe to free)");
        tn_cdg_free(&g);
        is(tn_cdg_from_next(&g, 4, 1, 3, next_ring, NULL), TN_EINVAL,
           "next pointers onto channel 3 of 3: TN_EINVAL, not a write past the graph");
        tn_cdg_free(&g);
        is(tn_cdg_from_next(&g, 4, 0, 4, next_ring, NULL), TN_EINVAL, "0 phases: TN_EINVAL");
        tn_cdg_free(&g);
        is(tn_cdg_from_next(&g, 4, 1, 4, next_off_graph, NULL), TN_EINVAL,
           "next pointers onto state 4 of 4: TN_EINVAL");
        tn_cdg_free(&g);
    }
    tn_cdg_free(&walk);

    struct tn_cdg g;
    is(tn_cdg_from_routes(&g, 4, 4, route_ring, NULL), 0, "hand-built ring routing: built");
    ok(!tn_cdg_acyclic(&g) && g.ncycle == 4 && cycle_is_real(&g),
       "hand-built ring routing: the 4-channel cycle is caught");
    tn_cdg_free(&g);
    is(tn_cdg_from_routes(&g, 4, 4, route_broken_ring, NULL), 0, "ring without its wrap: built");
    ok(tn_cdg_acyclic(&g) && g.routable == 6,
       "ring without its wrap: acyclic, 6 of 12 pairs routed");
    tn_cdg_free(&g);
}

static void check_file(void)
{
    struct tn_net n;
    struct tn_cdg g;
    int rc = tn_net_read(&n, "data/fig1-fig7.net");
    ok(!rc && n.nnodes == 12 && n.nlinks == 12, "fig1-fig7.net: 12 nodes and 12 links read");
    if (rc)
        return;
    for (int r = TN_ROUTE_INTERVAL; r <= TN_ROUTE_UPDOWN; r++) {
        rc = tn_cdg_net(&g, &n, (enum tn_routing)r);
        ok(!rc && tn_cdg_acyclic(&g) && g.channels == 12,
           "fig1-fig7.net %s: acyclic on the 12 links", tn_routing_name((enum tn_routing)r));
        if (r == TN_ROUTE_UPDOWN)
            ok(!rc && g.routable == g.reachable,
               "fig1-fig7.net updown: every connected pair routable (%llu)",
               (unsigned long long)g.reachable);
        tn_cdg_free(&g);
    }
    uint64_t unrouted = 0;
    ok(same_as_walk(&n, TN_ROUTE_INTERVAL, &unrouted) &&
       same_as_walk(&n, TN_ROUTE_UPDOWN, &unrouted),
       "fig1-fig7.net: interval and updown per destination equal the pairwise walk");
    char name[64];
    rc = tn_cdg_net(&g, &n, TN_ROUTE_UPDOWN);
    tn_cdg_channel_name(&g, 11, name, sizeof name);
    ok(!rc && !strcmp(name, "l12"), "channels are named by their links ('%s')", name);
    tn_cdg_free(&g);
    is(tn_cdg_net(&g, &n, TN_ROUTE_DOR), TN_EINVAL, "dor on a network file: TN_EINVAL");
    tn_net_free(&n);
}

int main(void)
{
    /* the lecture's examples */
    check_topo("4x4", true, TN_ROUTE_DOR, true);
    check_topo("5", false, TN_ROUTE_DOR, false);
    check_topo("4", false, TN_ROUTE_DOR, false);
    check_topo("3", false, TN_ROUTE_DOR, true);
    check_topo("4x4", false, TN_ROUTE_DOR, false);
    check_topo("4x4", false, TN_ROUTE_DATELINE, true);
    check_topo("4x4x4", false, TN_ROUTE_DOR, false);
    check_topo("4x4x4", false, TN_ROUTE_DATELINE, true);
    check_topo("5x6x7", false, TN_ROUTE_DATELINE, true);
    check_topo("3x3x3", false, TN_ROUTE_DOR, true);
    check_topo("3x3x3", false, TN_ROUTE_DATELINE, true);
    check_topo("7x7x7", false, TN_ROUTE_DOR, false);
    check_topo("7x7x7", false, TN_ROUTE_DATELINE, true);
    check_topo("4x4x4", false, TN_ROUTE_INTERVAL, true);
    check_topo("4x4x4", false, TN_ROUTE_UPDOWN, true);
    check_topo("5x3x2", true, TN_ROUTE_UPDOWN, true);

    struct tn_topo t;
    struct tn_cdg g;
    tn_topo_parse(&t, "7x7x7");
    tn_cdg_topo(&g, &t, false, TN_ROUTE_DOR);
    is(g.channels, 2058, "7x7x7: 2,058 channels");
    tn_cdg_free(&g);
    tn_topo_parse(&t, "4x4");
    tn_cdg_topo(&g, &t, true, TN_ROUTE_DOR);
    is(g.channels, 48, "4x4 mesh: 48 channels");
    tn_cdg_free(&g);
    tn_topo_parse(&t, "5");
    tn_cdg_topo(&g, &t, false, TN_ROUTE_DOR);
    char name[64] = "no cycle";
    bool ring = g.ncycle == 5; /* channel = node * 6 + direction, one class */
    for (uint32_t i = 0; ring && i < 5; i++) {
        uint32_t c = g.cycle[i], next = g.cycle[(i + 1) % 5];
        ring = c % 6 == g.cycle[0] % 6 && c % 6 < 2 &&
               next / 6 == tn_neighbor(&t, c / 6, (int)(c % 6));
    }
    if (g.ncycle)
        tn_cdg_channel_name(&g, g.cycle[0], name, sizeof name);
    ok(ring, "ring of 5: the cycle is the ring's 5 channels in one direction, each followed by "
       "the next node's (%s ...)", name);
    tn_cdg_free(&g);
    /* Definition 7 on a ring of 8: 6 -> 1 goes + over the wrap 7 -> 0 in
     * the incr classes' increasing order (6 vc0, 7 vc0, then 0 vc1); 1 -> 6
     * goes - over 0 -> 7 in decreasing order (1 vc1, 0 vc1, then 7 vc0) */
    tn_topo_parse(&t, "8");
    tn_cdg_topo(&g, &t, false, TN_ROUTE_DATELINE);
    ok(has_dep(&g, ch2(6, 0, 0), ch2(7, 0, 0)) && has_dep(&g, ch2(7, 0, 0), ch2(0, 0, 1)) &&
       !has_dep(&g, ch2(7, 0, 1), ch2(0, 0, 0)),
       "dor-dateline, ring of 8, + over the wrap: class 0 up to and on the wrap link, 1 after");
    ok(has_dep(&g, ch2(1, 1, 1), ch2(0, 1, 1)) && has_dep(&g, ch2(0, 1, 1), ch2(7, 1, 0)),
       "dor-dateline, ring of 8, - over the wrap: class 1 up to and on the wrap link, 0 after");
    tn_cdg_free(&g);
    tn_topo_parse(&t, "5");
    memset(&g, 0xA5, sizeof g); /* as an uninitialised struct: refusals leave it freeable */
    is(tn_cdg_topo(&g, &t, true, TN_ROUTE_DATELINE), TN_EINVAL, "a mesh has no dateline");
    ok(!g.off && !g.succ && !g.cycle, "and the refused graph is empty (safe to free)");
    tn_cdg_free(&g);
    tn_topo_parse(&t, "21x21x21");
    memset(&g, 0xA5, sizeof g);
    is(tn_cdg_topo(&g, &t, false, TN_ROUTE_UPDOWN), TN_ENOTSUP,
       "updown on 9,261 nodes: above TN_CDG_ROUTED_MAX (%u), refused", TN_CDG_ROUTED_MAX);
    ok(!g.off && !g.succ && !g.cycle, "and the refused graph is empty (safe to free)");
    tn_cdg_free(&g);
    for (int r = TN_ROUTE_INTERVAL; r <= TN_ROUTE_UPDOWN; r++) {
        tn_topo_parse(&t, "4x4x4");
        tn_cdg_topo(&g, &t, false, (enum tn_routing)r);
        ok(g.routable == g.pairs && g.pairs == 64 * 63, "4x4x4 %s: all %llu pairs routed",
           tn_routing_name((enum tn_routing)r), (unsigned long long)g.pairs);
        tn_cdg_free(&g);
    }

    const char *dims[] = {"3x3x3", "4x4x4", "2x3x4", "5x2", "4", "6x4x3", "8x5"};
    for (unsigned i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        check_against_routes(dims[i], false, TN_ROUTE_DOR);
        check_against_routes(dims[i], false, TN_ROUTE_DATELINE);
        check_against_routes(dims[i], true, TN_ROUTE_DOR);
    }
    for (unsigned i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        check_topo_as_walk(dims[i], false);
        check_topo_as_walk(dims[i], true);
        check_stretch_as_walk(dims[i]);
    }
    check_topo_as_walk("7x7x7", false);
    check_stretch_as_walk("7x7x7");
    for (unsigned i = 0; i < 4; i++) {
        static const char *const sdims[] = {"2", "5", "3x3x3", "4x4x4"};
        struct tn_stretch st;
        tn_topo_parse(&t, sdims[i]);
        int rc = tn_interval_stretch(&t, &st);
        ok(!rc && st.routed == st.pairs && st.avg_hops >= st.avg_minimal &&
           (i == 0) == (st.minimal_pairs == st.pairs),
           "%s: DFS-tree interval routing routes all %llu pairs, average %.2f hops vs %.2f "
           "minimal, up to +%u (minimal only on a 2-ring)", sdims[i],
           (unsigned long long)st.pairs, st.avg_hops, st.avg_minimal, st.max_extra);
    }
    unsigned ring_bad = 0;
    for (unsigned k = 1; k <= 16; k++)
        ring_bad += tn_ring_interval_check(k);
    is(ring_bad, 0, "cyclic 1-interval tables route every pair of rings of 1..16 minimally");
    check_random_updown();
    check_hand_built();
    check_file();
    return tap_done();
}
