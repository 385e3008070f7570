/* SPDX-License-Identifier: MIT */
/* Step classes of the all-port torus all-to-all on a k x k x k cube
 * (include/torus/traffic.h, docs/collectives.md "Step classes"). */
#include "traffic.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "liquid.h"
#include "splitmix.h"
#include "tn_error.h"

/* Node budget of one class's exact cover (per mirror t) before it gives
 * up; an attempt that cannot finish a class starts again. */
#define CLASS_NODES 2000
/* Classes built by backtracking across classes at the end. */
#define CLASS_TAIL 2

/* Quotient transfer (c, v): offset v (node v + 1 of the cube), source
 * coset c; its index in the quotient traffic is c (n - 1) + v. */
struct cls {
    int k, nv;            /* ring size; offsets 0..nv-1 */
    int ncell;            /* 6 k quotient links, one bit each */
    uint64_t need;        /* the bottlenecks: every class covers them once
                             (every link when k is odd, the + links when
                             k is even), the other links at most once */
    int pair;             /* k odd: classes are closed under inversion */
    uint64_t *mask;       /* mask[v k + c]: links of transfer (c, v) */
    int *neg;             /* neg[v]: the offset paired with v: -v when
                             pair, else v itself */
    int *len;             /* bottleneck links of v (|v|_1 when k odd) */
    unsigned char *used;  /* the offset is in a class */
    uint64_t rng;
    uint64_t *om;         /* the class being built, mirror t: links of the
                             pair (c, v), (t - c, -v); 0 if they overlap or
                             v is not the pair's representative (v < -v);
                             without pairs the links of (c, v) */
    int nclass;           /* classes of a schedule of Lambda steps */
    int head;             /* classes below it are built greedily, the
                             rest by backtracking across classes */
    int *pick;            /* members v k + c of class g from g ncell on */
    int *npick, *mirror;  /* per class: members, its t */
    long nodes;           /* of the class being covered */
};

static uint64_t cls_rand(struct cls *s)
{
    return tn_splitmix(&s->rng);
}

static void cls_shuffle(struct cls *s, int *a, int m)
{
    for (int i = m - 1; i > 0; i--) {
        int j = (int)(cls_rand(s) % (uint64_t)(i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Pairs (c, v) of unused offsets that cover link 'cell' and fit beside
 * 'covered', written to opt[]; returns their number. */
static int cls_options(const struct cls *s, uint64_t covered, int cell, int *opt)
{
    uint64_t bit = 1ULL << cell;
    int m = 0;
    for (int v = 0; v < s->nv; v++) {
        if (s->used[v])
            continue;
        for (int c = 0; c < s->k; c++) {
            uint64_t w = s->om[v * s->k + c];
            if ((w & bit) && !(w & covered)) {
                opt[m] = v * s->k + c;
                m++;
            }
        }
    }
    return m;
}

/* The bottleneck link not in 'covered' with the fewest fitting pairs
 * (the first of them on ties); -1 when one has none. */
static int cls_fewest(const struct cls *s, uint64_t covered)
{
    int cnt[64] = {0}, best = -1;
    for (int v = 0; v < s->nv; v++) {
        if (s->used[v])
            continue;
        for (int c = 0; c < s->k; c++) {
            uint64_t w = s->om[v * s->k + c];
            for (w = w & covered ? 0 : w & s->need; w; w &= w - 1)
                cnt[__builtin_ctzll(w)]++;
        }
    }
    for (int cell = 0; cell < s->ncell; cell++)
        if (!((covered | ~s->need) >> cell & 1) && (best < 0 || cnt[cell] < cnt[best])) {
            best = cell;
            if (!cnt[cell])
                return -1;
        }
    return best;
}

/* Longest pairs first (they have the fewest ways to fit later), ties in
 * random order. */
static void cls_order(struct cls *s, int *opt, int m)
{
    cls_shuffle(s, opt, m);
    for (int i = 1; i < m; i++) { /* stable insertion sort by length */
        int o = opt[i], l = s->len[o / s->k], j = i;
        for (; j > 0 && s->len[opt[j - 1] / s->k] < l; j--)
            opt[j] = opt[j - 1];
        opt[j] = o;
    }
}

static int cls_build(struct cls *s, int g, int *opt);

/* Links of the transfer (t - c, -v) paired with (c, v) under mirror t. */
static uint64_t cls_mate(const struct cls *s, int v, int c, int t)
{
    return s->mask[s->neg[v] * s->k + ((t - c) % s->k + s->k) % s->k];
}

/* Links of class g's members (both transfers of each pair). */
static uint64_t cls_links(const struct cls *s, int g)
{
    int k = s->k, t = s->mirror[g];
    const int *pick = s->pick + g * s->ncell;
    uint64_t w = 0;
    for (int i = 0; i < s->npick[g]; i++) {
        int v = pick[i] / k, c = pick[i] % k;
        w |= s->mask[pick[i]];
        if (s->pair)
            w |= cls_mate(s, v, c, t);
    }
    return w;
}

/* The pairs' links for mirror t (the class is closed under the
 * inversion x -> -x followed by the shift of cosets by t); without pairs
 * each transfer's own links. */
static void cls_mirror(struct cls *s, int t)
{
    int k = s->k;
    for (int v = 0; v < s->nv; v++)
        for (int c = 0; c < k; c++) {
            uint64_t a = s->mask[v * k + c], b = cls_mate(s, v, c, t);
            s->om[v * k + c] = !s->pair ? a : v < s->neg[v] && !(a & b) ? a | b : 0;
        }
}

/* Class g with mirror t: transfers (c + sh, v) and (t - c + sh, -v) in
 * step g k + sh for every shift sh. */
static void cls_steps(const struct cls *s, int g, int *qstep)
{
    int k = s->k, t = s->mirror[g];
    const int *pick = s->pick + g * s->ncell;
    for (int i = 0; i < s->npick[g]; i++) {
        int v = pick[i] / k, c = pick[i] % k;
        for (int sh = 0; sh < k; sh++) {
            qstep[(c + sh) % k * s->nv + v] = g * k + sh;
            if (s->pair)
                qstep[((t - c + sh) % k + k) % k * s->nv + s->neg[v]] = g * k + sh;
        }
    }
}

/* Class g is covered: below the head that is final, in the tail the classes after it must follow, else its members
 * are freed again and the cover search goes on. */
static int cls_done(struct cls *s, int g, int *opt)
{
    const int *pick = s->pick + g * s->ncell;
    for (int i = 0; i < s->npick[g]; i++)
        s->used[s->neg[pick[i] / s->k]] = 1;
    long nodes = s->nodes; /* the classes after it count their own */
    if (g < s->head || cls_build(s, g + 1, opt))
        return 1;
    s->nodes = nodes;
    /* without pairs neg[v] = v, which the cover frees itself */
    for (int i = 0; i < s->npick[g] && s->pair; i++)
        s->used[s->neg[pick[i] / s->k]] = 0;
    cls_mirror(s, s->mirror[g]);
    return 0;
}

/* Exact cover of the bottleneck links by pairs (the other links at most
 * once) for class g, depth-first on the link with the fewest options. 1
 * found, 0 not (or out of nodes). opt[] holds each depth's options in
 * turn. */
static int cls_cover(struct cls *s, int g, uint64_t covered, int *opt)
{
    if ((covered & s->need) == s->need)
        return cls_done(s, g, opt);
    if (++s->nodes > CLASS_NODES)
        return 0;
    int best = cls_fewest(s, covered);
    if (best < 0)
        return 0;
    int m = cls_options(s, covered, best, opt), *pick = s->pick + g * s->ncell;
    cls_order(s, opt, m);
    for (int i = 0; i < m; i++) {
        int o = opt[i], v = o / s->k;
        s->used[v] = 1;
        pick[s->npick[g]++] = o;
        if (cls_cover(s, g, covered | s->om[o], opt + m))
            return 1;
        s->npick[g]--;
        s->used[v] = 0;
    }
    return 0;
}

/* Class g under each mirror in random order (and, in the tail, the
 * classes after it). 1 when built. */
static int cls_class(struct cls *s, int g, int *opt)
{
    int mirrors[64], nm = s->pair ? s->k : 1;
    for (int i = 0; i < nm; i++)
        mirrors[i] = i;
    cls_shuffle(s, mirrors, nm);
    for (int i = 0; i < nm; i++) {
        s->mirror[g] = mirrors[i];
        cls_mirror(s, mirrors[i]);
        s->npick[g] = 0;
        s->nodes = 0;
        if (cls_cover(s, g, 0, opt))
            return 1;
    }
    return 0;
}

/* Classes g.. to the end by backtracking (the tail). */
static int cls_build(struct cls *s, int g, int *opt)
{
    return g == s->nclass || cls_class(s, g, opt);
}

/* Classes g.. : the head greedily, then the tail. Returns the number of
 * classes built. */
static int cls_fill(struct cls *s, int g, int *opt)
{
    for (; g < s->head; g++)
        if (!cls_class(s, g, opt))
            return g;
    return cls_build(s, g, opt) ? s->nclass : g;
}

/* Frees class g (its pairs go back to the pool); the last class moves
 * into its place. Returns the new number of classes. */
static int cls_drop(struct cls *s, int g, int built)
{
    int *pick = s->pick + g * s->ncell;
    for (int i = 0; i < s->npick[g]; i++) {
        int v = pick[i] / s->k;
        s->used[v] = s->used[s->neg[v]] = 0;
    }
    built--;
    memcpy(pick, s->pick + built * s->ncell, sizeof(int) * (size_t)s->npick[built]);
    s->npick[g] = s->npick[built];
    s->mirror[g] = s->mirror[built];
    return built;
}

/* A copy of the classes built (the search's state), to go back to. */
struct cls_saved {
    int *pick, *npick, *mirror;
    unsigned char *used;
};

static void cls_copy(const struct cls *s, const struct cls_saved *to, const struct cls_saved *from)
{
    memcpy(to->pick, from->pick, sizeof(int) * (size_t)s->ncell * (size_t)s->nclass);
    memcpy(to->npick, from->npick, sizeof(int) * (size_t)s->nclass);
    memcpy(to->mirror, from->mirror, sizeof(int) * (size_t)s->nclass);
    memcpy(to->used, from->used, (size_t)s->nv);
}

/* Large-neighbourhood search: from a greedy start, drop a few random
 * classes and build again from the pool; keep the result unless fewer
 * classes are built. Returns the number of classes built (at most
 * nclass) when the time is up or all are. */
static int cls_search(struct cls *s, struct cls_saved *b, int *opt, double seconds)
{
    double t0 = tn_now_s();
    const struct cls_saved now = {s->pick, s->npick, s->mirror, s->used};
    memset(s->used, 0, (size_t)s->nv);
    int built = cls_fill(s, 0, opt);
    while (built < s->nclass && tn_now_s() - t0 < seconds) {
        cls_copy(s, b, &now);
        int drop = 2 + (int)(cls_rand(s) % 3), g = built;
        for (int i = 0; i < drop && g > 0; i++)
            g = cls_drop(s, (int)(cls_rand(s) % (uint64_t)g), g);
        g = cls_fill(s, g, opt);
        if (g >= built)
            built = g;
        else
            cls_copy(s, &now, b);
    }
    return built;
}

/* Offset v (on no bottleneck) into the first class (0..built-1) and
 * coset where its links are free (links[g]: class g's links). */
static void cls_put(struct cls *s, uint64_t *links, int built, int v)
{
    for (int g = 0; g < built; g++)
        for (int c = 0; c < s->k; c++) {
            uint64_t m = s->mask[v * s->k + c];
            if (!(m & links[g])) {
                links[g] |= m;
                s->pick[g * s->ncell + s->npick[g]++] = v * s->k + c;
                s->used[v] = 1;
                return;
            }
        }
}

/* The offsets on no bottleneck (k even: those with no + arc; none when
 * k is odd) into the links the classes leave free, longest first, first
 * fit; any left over go to the residue. 0 or TN_ENOMEM. */
static int cls_place(struct cls *s, int built)
{
    uint64_t *links = malloc(sizeof *links * (size_t)(built ? built : 1));
    if (!links)
        return TN_ENOMEM;
    for (int g = 0; g < built; g++)
        links[g] = cls_links(s, g);
    for (int l = s->ncell; l > 0; l--)
        for (int v = 0; v < s->nv; v++)
            if (!s->used[v] && !s->len[v] && __builtin_popcountll(s->mask[v * s->k]) == l)
                cls_put(s, links, built, v);
    free(links);
    return 0;
}

/* The transfers of offsets in no class, scheduled by the liquid search
 * after step 'base'. Returns the residue's length (0 when empty) or a
 * negative TN_E*. */
static int cls_residue(const struct cls *s, const struct tn_traffic *q, int base, unsigned seed,
                       double seconds, int *qstep)
{
    struct tn_traffic r;
    int rc = 0, nr = 0;
    int *map = malloc(sizeof(int) * (size_t)q->nx), *rstep = malloc(sizeof(int) * (size_t)q->nx);
    tn_traffic_init(&r, q->nlinks);
    if (!map || !rstep)
        rc = TN_ENOMEM;
    for (int x = 0; x < q->nx && !rc; x++)
        if (!s->used[x % s->nv]) {
            map[nr++] = x;
            rc = tn_traffic_add(&r, q->link + q->off[x], q->off[x + 1] - q->off[x], -1, -1);
        }
    if (!rc && nr) {
        struct tn_liquid_opts lo;
        struct tn_liquid_stats st;
        tn_liquid_defaults(&lo);
        lo.seconds = seconds;
        lo.seed = seed;
        rc = tn_liquid_search(&r, &lo, rstep, &st);
        for (int i = 0; i < nr && rc > 0; i++)
            qstep[map[i]] = base + rstep[i];
    }
    tn_traffic_free(&r);
    free(map);
    free(rstep);
    return rc;
}

/* Offset v's negative: node v + 1 of the cube mirrored through 0. */
static int cls_neg(const struct tn_topo *c, int v)
{
    unsigned x[3], k = c->dim[0];
    tn_coords(c, (uint32_t)v + 1, x);
    return (int)tn_node_id(c, (k - x[0]) % k, (k - x[1]) % k, (k - x[2]) % k) - 1;
}

/* The bottleneck links (load Lambda) as a mask; 0 when out of memory. */
static uint64_t cls_need(const struct tn_traffic *q)
{
    int *load = malloc(sizeof(int) * (size_t)q->nlinks);
    uint64_t need = 0;
    if (!load)
        return 0;
    int lambda = tn_traffic_load(q, NULL, load);
    for (int l = 0; l < q->nlinks; l++)
        if (load[l] == lambda)
            need |= 1ULL << l;
    free(load);
    return need;
}

static int cls_init(struct cls *s, const struct tn_traffic *q, const struct tn_topo *c)
{
    int k = (int)c->dim[0], total = 0, nneed = 0;
    memset(s, 0, sizeof *s);
    s->k = k;
    s->nv = q->nx / k;
    s->ncell = q->nlinks;
    s->pair = k % 2;
    s->need = cls_need(q);
    s->mask = calloc((size_t)q->nx, sizeof *s->mask);
    s->om = calloc((size_t)q->nx, sizeof *s->om);
    s->neg = malloc(sizeof(int) * (size_t)s->nv);
    s->len = calloc((size_t)s->nv, sizeof(int));
    s->used = malloc((size_t)s->nv);
    if (!s->need || !s->mask || !s->om || !s->neg || !s->len || !s->used)
        return TN_ENOMEM;
    for (int x = 0; x < q->nx; x++) {
        int v = x % s->nv, cs = x / s->nv;
        for (int j = q->off[x]; j < q->off[x + 1]; j++) {
            s->mask[v * k + cs] |= 1ULL << q->link[j];
            s->len[v] += cs == 0 && (s->need >> q->link[j] & 1);
        }
    }
    for (int v = 0; v < s->nv; v++) {
        s->neg[v] = s->pair ? cls_neg(c, v) : v;
        total += s->len[v];
    }
    for (int l = 0; l < s->ncell; l++)
        nneed += (int)(s->need >> l & 1);
    s->nclass = total / nneed;
    s->head = s->nclass > CLASS_TAIL ? s->nclass - CLASS_TAIL : 0;
    s->pick = malloc(sizeof(int) * (size_t)s->ncell * (size_t)s->nclass);
    s->npick = malloc(sizeof(int) * (size_t)s->nclass);
    s->mirror = malloc(sizeof(int) * (size_t)s->nclass);
    return s->pick && s->npick && s->mirror ? 0 : TN_ENOMEM;
}

static void cls_free(struct cls *s)
{
    free(s->mask);
    free(s->om);
    free(s->neg);
    free(s->len);
    free(s->used);
    free(s->pick);
    free(s->npick);
    free(s->mirror);
}

int tn_traffic_torus_classes(const struct tn_traffic *q, const struct tn_topo *c, unsigned seed,
                             double seconds, int *qstep)
{
    int k = (int)c->dim[0], n = (int)c->n;
    if (c->dim[1] != c->dim[0] || c->dim[2] != c->dim[0] ||
        q->nlinks != 6 * k || q->nlinks > 64 || q->nx != k * (n - 1))
        return TN_ENOTSUP;
    struct cls s;
    struct cls_saved b;
    int rc = cls_init(&s, q, c);
    /* options of every depth: at most ncell / 2 per class (a pair covers
     * two links or more; without pairs, k even, the bottlenecks are the
     * 3k + links), CLASS_TAIL + 1 classes nested */
    size_t depth = (size_t)(s.ncell / 2 + 1) * (CLASS_TAIL + 1);
    int *opt = malloc(sizeof(int) * depth * (size_t)q->nx);
    b.pick = malloc(sizeof(int) * (size_t)s.ncell * (size_t)s.nclass);
    b.npick = malloc(sizeof(int) * (size_t)s.nclass);
    b.mirror = malloc(sizeof(int) * (size_t)s.nclass);
    b.used = malloc((size_t)s.nv);
    if (rc || !opt || !b.pick || !b.npick || !b.mirror || !b.used) {
        rc = TN_ENOMEM;
        goto out;
    }
    double bound = seconds > 0 ? seconds : 10;
    s.rng = seed;
    int built = cls_search(&s, &b, opt, bound / 2);
    rc = cls_place(&s, built);
    for (int g = 0; g < built && !rc; g++)
        cls_steps(&s, g, qstep);
    if (!rc)
        rc = cls_residue(&s, q, built * k, seed, bound / 2, qstep);
    if (rc >= 0)
        rc += built * k;
out:
    free(opt);
    free(b.pick);
    free(b.npick);
    free(b.mirror);
    free(b.used);
    cls_free(&s);
    return rc;
}
