/* SPDX-License-Identifier: MIT */
/* Channel-dependency graphs: the dependency list, its CSR form, the cycle
 * search and the ring-by-ring construction for dimension-order routing on
 * tori and meshes (cdg.h, docs/deadlock.md). */
#include "cdg.h"

#include <stdlib.h>
#include <string.h>

#include "cdgi.h"
#include "names.h"
#include "tn_error.h"

/* ---- dependency list ------------------------------------------------- */

#define EMPTY UINT64_MAX

struct deps {
    uint64_t *e; /* from << 32 | to */
    size_t n, cap;
    uint64_t *set; /* with dedup: open addressing over e's values */
    size_t setcap; /* a power of two, at least twice n */
};

static size_t slot(uint64_t x, size_t cap)
{
    return (size_t)((x * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

/* Doubles the set and reinserts the list. */
static int set_grow(struct deps *d)
{
    size_t cap = d->setcap ? 2 * d->setcap : 8192;
    uint64_t *set = malloc(cap * sizeof *set);
    if (!set)
        return TN_ENOMEM;
    memset(set, 0xff, cap * sizeof *set);
    for (size_t i = 0; i < d->n; i++) {
        size_t k = slot(d->e[i], cap);
        while (set[k] != EMPTY)
            k = (k + 1) & (cap - 1);
        set[k] = d->e[i];
    }
    free(d->set);
    d->set = set;
    d->setcap = cap;
    return 0;
}

/* Appends c1 -> c2; with dedup, only if it is not in the list yet. */
static int deps_add(struct deps *d, uint32_t c1, uint32_t c2, bool dedup)
{
    uint64_t x = (uint64_t)c1 << 32 | c2;
    if (dedup) {
        if (2 * (d->n + 1) > d->setcap && set_grow(d))
            return TN_ENOMEM;
        size_t k = slot(x, d->setcap);
        while (d->set[k] != EMPTY && d->set[k] != x)
            k = (k + 1) & (d->setcap - 1);
        if (d->set[k] == x)
            return 0;
        d->set[k] = x;
    }
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 4096;
        uint64_t *e = realloc(d->e, cap * sizeof *e);
        if (!e)
            return TN_ENOMEM;
        d->e = e;
        d->cap = cap;
    }
    d->e[d->n++] = x;
    return 0;
}

static void deps_free(struct deps *d)
{
    free(d->e);
    free(d->set);
    memset(d, 0, sizeof *d);
}

/* ---- CSR and cycle search -------------------------------------------- */

/* Iterative depth-first search; on the first edge back to a vertex on the
 * stack, the stack from that vertex up is the cycle. */
static int find_cycle(struct tn_cdg *g)
{
    uint32_t n = g->nch;
    uint8_t *color = calloc(n ? n : 1, 1); /* 0 new, 1 on the stack, 2 done */
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    uint32_t *next = malloc((n ? n : 1) * sizeof *next);
    uint32_t *pos = malloc((n ? n : 1) * sizeof *pos);
    int rc = TN_ENOMEM;
    if (!color || !stack || !next || !pos)
        goto out_free;
    rc = 0;
    for (uint32_t r = 0; r < n && !g->ncycle && !rc; r++) {
        if (color[r])
            continue;
        uint32_t sp = 0;
        stack[sp] = r, pos[r] = sp++, next[r] = g->off[r], color[r] = 1;
        while (sp && !g->ncycle) {
            uint32_t v = stack[sp - 1];
            if (next[v] == g->off[v + 1]) {
                color[v] = 2;
                sp--;
                continue;
            }
            uint32_t w = g->succ[next[v]++];
            if (color[w] == 0) {
                stack[sp] = w, pos[w] = sp++, next[w] = g->off[w], color[w] = 1;
            } else if (color[w] == 1) {
                g->ncycle = sp - pos[w];
                g->cycle = malloc(g->ncycle * sizeof *g->cycle);
                if (!g->cycle) {
                    g->ncycle = 0;
                    rc = TN_ENOMEM;
                    break;
                }
                memcpy(g->cycle, stack + pos[w], g->ncycle * sizeof *g->cycle);
            }
        }
    }
out_free:
    free(color);
    free(stack);
    free(next);
    free(pos);
    return rc;
}

int tn_csr_build(uint32_t nkeys, const uint64_t *pairs, size_t n, uint32_t **off,
                 uint32_t **list)
{
    *off = calloc((size_t)nkeys + 1, sizeof **off);
    *list = malloc((n ? n : 1) * sizeof **list);
    if (!*off || !*list)
        return TN_ENOMEM;
    for (size_t i = 0; i < n; i++)
        (*off)[(pairs[i] >> 32) + 1]++;
    for (uint32_t k = 0; k < nkeys; k++)
        (*off)[k + 1] += (*off)[k];
    for (size_t i = 0; i < n; i++)
        (*list)[(*off)[pairs[i] >> 32]++] = (uint32_t)pairs[i];
    for (uint32_t k = nkeys; k > 0; k--) /* shifted by one: restore */
        (*off)[k] = (*off)[k - 1];
    (*off)[0] = 0;
    return 0;
}

/* Unless rc (the construction's result) is an error, turns the list
 * (duplicate-free) into successor lists, then searches a cycle. Frees the
 * list; returns rc or the first error. */
static int finish(struct tn_cdg *g, struct deps *d, int rc)
{
    if (!rc)
        rc = tn_csr_build(g->nch, d->e, d->n, &g->off, &g->succ);
    if (!rc) {
        g->deps = d->n;
        rc = find_cycle(g);
    }
    deps_free(d);
    return rc;
}

void tn_cdg_free(struct tn_cdg *g)
{
    free(g->off);
    free(g->succ);
    free(g->cycle);
    memset(g, 0, sizeof *g);
}

/* ---- any routing, route by route ------------------------------------- */

int tn_cdg_from_routes(struct tn_cdg *g, uint32_t nnodes, uint32_t nch, tn_cdg_route_fn route,
                       void *ctx)
{
    memset(g, 0, sizeof *g);
    g->nch = g->channels = nch;
    g->classes = 1;
    struct deps d = {0};
    uint32_t *ch = malloc(((size_t)nch + 1) * sizeof *ch);
    if (!ch)
        return TN_ENOMEM;
    int rc = 0;
    for (uint32_t t = 0; t < nnodes && !rc; t++) /* by destination: routers may cache */
        for (uint32_t s = 0; s < nnodes && !rc; s++) {
            if (s == t)
                continue;
            g->pairs++;
            int len = route(ctx, s, t, ch, nch + 1);
            if (len < 0)
                continue;
            if ((uint32_t)len > nch) {
                rc = TN_EVERIFY; /* longer than the channel count: a loop */
                break;
            }
            g->routable++;
            for (int h = 1; h < len && !rc; h++)
                rc = deps_add(&d, ch[h - 1], ch[h], true);
        }
    free(ch);
    g->reachable = g->routable;
    return finish(g, &d, rc);
}

/* ---- destination-based routing, hop by hop --------------------------- */

#define HOPS_ON_STACK (TN_HOPS_DEAD - 1)

int tn_next_hops(uint32_t nnodes, unsigned phases, uint32_t d, const uint32_t *ch,
                 const uint32_t *to, uint32_t *hops, uint32_t *stack)
{
    uint32_t nstates = nnodes * phases;
    for (uint32_t st = 0; st < nstates; st++)
        hops[st] = st / phases == d ? 0 : TN_HOPS_UNUSED;
    for (uint32_t s = 0; s < nnodes; s++) {
        uint32_t sp = 0, st = s * phases;
        while (hops[st] == TN_HOPS_UNUSED) { /* forward to a state already known */
            if (ch[st] == TN_CDG_NO_ROUTE) {
                hops[st] = TN_HOPS_DEAD;
                break;
            }
            if (to[st] >= nstates)
                return TN_EINVAL;
            hops[st] = HOPS_ON_STACK;
            stack[sp++] = st;
            st = to[st];
        }
        if (hops[st] == HOPS_ON_STACK)
            return TN_EVERIFY; /* the route loops */
        uint32_t h = hops[st];
        while (sp) { /* back along the walk: one hop more each, or dead */
            h += h != TN_HOPS_DEAD;
            hops[stack[--sp]] = h;
        }
    }
    return 0;
}

/* The dependencies towards one destination: every state on a complete
 * route whose next state is not the destination's. TN_EINVAL for a
 * channel id not below nch. */
static int next_deps(struct deps *dp, uint32_t nstates, uint32_t nch, const uint32_t *ch,
                     const uint32_t *to, const uint32_t *hops)
{
    int rc = 0;
    for (uint32_t st = 0; st < nstates && !rc; st++) {
        if (hops[st] == 0 || hops[st] >= TN_HOPS_DEAD)
            continue;
        if (ch[st] >= nch)
            rc = TN_EINVAL;
        else if (hops[st] >= 2)
            rc = deps_add(dp, ch[st], ch[to[st]], true);
    }
    return rc;
}

int tn_cdg_from_next(struct tn_cdg *g, uint32_t nnodes, unsigned phases, uint32_t nch,
                     tn_cdg_next_fn next, void *ctx)
{
    memset(g, 0, sizeof *g);
    if (phases == 0 || (uint64_t)nnodes * phases >= HOPS_ON_STACK)
        return TN_EINVAL; /* state ids and hop counts are 32 bits */
    g->nch = g->channels = nch;
    g->classes = 1;
    size_t nstates = (size_t)nnodes * phases + 1;
    struct deps dp = {0};
    uint32_t *ch = malloc(nstates * sizeof *ch), *to = malloc(nstates * sizeof *to);
    uint32_t *hops = malloc(nstates * sizeof *hops), *stack = malloc(nstates * sizeof *stack);
    int rc = ch && to && hops && stack ? 0 : TN_ENOMEM;
    for (uint32_t d = 0; d < nnodes && !rc; d++) {
        rc = next(ctx, d, ch, to);
        if (!rc)
            rc = tn_next_hops(nnodes, phases, d, ch, to, hops, stack);
        if (!rc)
            rc = next_deps(&dp, nnodes * phases, nch, ch, to, hops);
        for (uint32_t s = 0; s < nnodes && !rc; s++)
            g->routable += s != d && hops[s * phases] < TN_HOPS_DEAD;
        g->pairs += nnodes - 1;
    }
    free(ch);
    free(to);
    free(hops);
    free(stack);
    g->reachable = g->routable;
    return finish(g, &dp, rc);
}

/* ---- dimension order, ring by ring ----------------------------------- */

/* One ring (or line, on a mesh) of k nodes: the hop a packet at coordinate
 * a takes towards b (sign 0 +, 1 -) and its class. False when a == b. */
static bool ring_hop(unsigned k, bool mesh, bool dateline, unsigned a, unsigned b, unsigned *sign,
                     unsigned *cls)
{
    if (a == b)
        return false;
    if (mesh) {
        *sign = b > a ? 0 : 1;
        *cls = 0;
        return true;
    }
    unsigned f = (b + k - a) % k;
    *sign = 2 * f <= k ? 0 : 1;
    bool wrap_ahead = *sign == 0 ? b < a : b > a;
    /* the lecture's R'_d (Definition 7): decr channels in strictly
     * decreasing order of (class, node), incr channels in increasing order */
    *cls = dateline && (*sign == 1 ? wrap_ahead : !wrap_ahead);
    return true;
}

/* What the ring paths of one dimension do: dependencies between hops
 * (hop at coordinate a with sign/class followed by another), first hops
 * leaving a coordinate and last hops arriving at one. Index
 * [a][sign][cls] = a * 4 + sign * 2 + cls. */
struct ring {
    uint8_t *dep;   /* [a][sign][cls][sign2][cls2]: k * 16 */
    uint8_t *first; /* k * 4 */
    uint8_t *last;  /* by arrival coordinate: k * 4 */
};

static int ring_build(struct ring *r, unsigned k, bool mesh, bool dateline)
{
    r->dep = calloc((size_t)k * 16, 1);
    r->first = calloc((size_t)k * 4, 1);
    r->last = calloc((size_t)k * 4, 1);
    if (!r->dep || !r->first || !r->last)
        return TN_ENOMEM;
    for (unsigned a = 0; a < k; a++)
        for (unsigned b = 0; b < k; b++) {
            unsigned s, c, x = a, px = 0, ps = 0, pc = 0; /* p: the previous hop */
            bool first = true;
            while (ring_hop(k, mesh, dateline, x, b, &s, &c)) {
                if (first)
                    r->first[a * 4 + s * 2 + c] = 1;
                else
                    r->dep[px * 16 + ps * 8 + pc * 4 + s * 2 + c] = 1;
                first = false;
                px = x, ps = s, pc = c;
                x = s == 0 ? (x + 1) % k : (x + k - 1) % k;
            }
            if (!first)
                r->last[b * 4 + ps * 2 + pc] = 1;
        }
    return 0;
}

static void ring_free(struct ring *r)
{
    free(r->dep);
    free(r->first);
    free(r->last);
}

static inline uint32_t chan(uint32_t node, unsigned dir, unsigned cls, unsigned classes)
{
    return tn_arc_id(node, (int)dir) * classes + cls;
}

/* The dependencies of node u: hops continuing in a ring at u, and turns at
 * u from the last hop of a lower dimension to the first of a higher. */
static int node_deps(struct deps *d, const struct tn_topo *t, const struct ring *rg, uint32_t u,
                     unsigned classes)
{
    unsigned c[3];
    tn_coords(t, u, c);
    int rc = 0;
    for (unsigned i = 0; i < 3 && !rc; i++) {
        if (t->dim[i] < 2)
            continue;
        const uint8_t *dep = rg[i].dep + c[i] * 16;
        for (unsigned h = 0; h < 16 && !rc; h++)
            if (dep[h]) {
                unsigned d1 = 2 * i + (h >> 3), d2 = 2 * i + ((h >> 1) & 1);
                rc = deps_add(d, chan(u, d1, (h >> 2) & 1, classes),
                              chan(tn_neighbor(t, u, (int)d1), d2, h & 1, classes), false);
            }
        for (unsigned j = i + 1; j < 3 && !rc; j++) {
            if (t->dim[j] < 2)
                continue;
            for (unsigned l = 0; l < 4 && !rc; l++) {
                if (!rg[i].last[c[i] * 4 + l])
                    continue;
                unsigned din = 2 * i + (l >> 1);
                uint32_t w = tn_neighbor(t, u, tn_dir_opposite((int)din));
                for (unsigned f = 0; f < 4 && !rc; f++)
                    if (rg[j].first[c[j] * 4 + f])
                        rc = deps_add(d, chan(w, din, l & 1, classes),
                                      chan(u, 2 * j + (f >> 1), f & 1, classes), false);
            }
        }
    }
    return rc;
}

static int cdg_dor(struct tn_cdg *g, const struct tn_topo *t, bool mesh, bool dateline)
{
    struct ring rg[3];
    struct deps d = {0};
    memset(rg, 0, sizeof rg);
    int rc = 0;
    for (unsigned i = 0; i < 3 && !rc; i++)
        rc = ring_build(&rg[i], t->dim[i], mesh, dateline);
    for (uint32_t u = 0; u < t->n && !rc; u++)
        rc = node_deps(&d, t, rg, u, g->classes);
    for (unsigned i = 0; i < 3; i++)
        ring_free(&rg[i]);
    g->pairs = g->reachable = g->routable = (uint64_t)t->n * (t->n - 1);
    return finish(g, &d, rc);
}

/* ---- entry points ---------------------------------------------------- */

static const char *const routing_names[] = {"dor", "dor-dateline", "interval", "updown"};

int tn_routing_parse(const char *s, enum tn_routing *r)
{
    int i = tn_name_index(s, routing_names, TN_ROUTE_UPDOWN + 1);
    if (i < 0)
        return TN_EINVAL;
    *r = (enum tn_routing)i;
    return 0;
}

const char *tn_routing_name(enum tn_routing r)
{
    return r <= TN_ROUTE_UPDOWN ? routing_names[r] : "?";
}

int tn_cdg_topo(struct tn_cdg *g, const struct tn_topo *t, bool mesh, enum tn_routing r)
{
    int rc;
    memset(g, 0, sizeof *g);
    if (r == TN_ROUTE_DATELINE && mesh)
        return TN_EINVAL;
    if (r == TN_ROUTE_DOR || r == TN_ROUTE_DATELINE) {
        g->classes = r == TN_ROUTE_DATELINE ? 2 : 1;
        g->nch = t->n * 6 * g->classes;
        rc = cdg_dor(g, t, mesh, r == TN_ROUTE_DATELINE);
    } else if (t->n > TN_CDG_ROUTED_MAX) {
        return TN_ENOTSUP; /* before building a network of n * 6 links */
    } else {
        struct tn_net n;
        rc = tn_net_from_topo(&n, t, mesh);
        if (!rc)
            rc = tn_cdg_net(g, &n, r);
        tn_net_free(&n);
    }
    if (rc) {
        tn_cdg_free(g);
        return rc;
    }
    g->net = NULL;
    g->topo = *t;
    g->mesh = mesh;
    g->channels = 0;
    for (unsigned dir = 0; dir < TN_NDIRS; dir++)
        if (tn_dir_exists(t, (int)dir))
            g->channels += mesh ? (t->dim[dir >> 1] - 1) * (t->n / t->dim[dir >> 1]) : t->n;
    g->channels *= g->classes;
    return 0;
}

void tn_cdg_channel_name(const struct tn_cdg *g, uint32_t c, char *buf, unsigned len)
{
    uint32_t link = c / g->classes;
    char vc[16] = "";
    if (g->classes > 1)
        snprintf(vc, sizeof vc, " vc%u", c % g->classes);
    if (g->net) {
        if (g->net->link_name && g->net->link_name[link])
            snprintf(buf, len, "%s%s", g->net->link_name[link], vc);
        else
            snprintf(buf, len, "link %u%s", link, vc);
        return;
    }
    unsigned x[3];
    tn_coords(&g->topo, link / 6, x);
    snprintf(buf, len, "(%u,%u,%u) %s%s", x[0], x[1], x[2], tn_dir_name((int)(link % 6)), vc);
}
