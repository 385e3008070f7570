/* SPDX-License-Identifier: MIT */
/* Schedule representation: construction, memory layout (ropes of message
 * ids), per-circuit timing, cost and lower bounds. */
#include "sched.h"

#include <stdlib.h>
#include <string.h>

#include "rope.h"
#include "tn_error.h"

/* ---- arena: bump allocation freed with the schedule ---- */

struct tn_arena {
    struct tn_arena *next;
    size_t used, cap;
    max_align_t data[];
};

/* Chunks double from ARENA_FIRST to ARENA_CHUNK: a schedule of a few
 * circuits takes a few kB, a large one megabyte chunks. A request of more
 * than a quarter of the next chunk gets a chunk of its own, linked behind
 * the current one, which keeps filling. */
#define ARENA_FIRST ((size_t)1 << 14)
#define ARENA_CHUNK ((size_t)1 << 20)

void *tn_sched_alloc(struct tn_sched *s, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    struct tn_arena *a = s->st->arena;
    if (!a || a->cap - a->used < size) {
        size_t next = !a ? ARENA_FIRST : a->cap < ARENA_CHUNK / 2 ? 2 * a->cap : ARENA_CHUNK;
        size_t cap = size > next / 4 ? size : next;
        struct tn_arena *n = malloc(sizeof *n + cap);
        if (!n)
            return NULL;
        n->used = 0;
        n->cap = cap;
        if (a && size > next / 4) {
            n->next = a->next;
            a->next = n;
        } else {
            n->next = a;
            s->st->arena = n;
        }
        a = n;
    }
    void *p = (char *)a->data + a->used;
    a->used += size;
    return p;
}

int tn_sched_new(struct tn_sched **out, const struct tn_topo *t, enum tn_coll coll,
                 const char *algo, uint32_t msg_flits, unsigned ports,
                 unsigned alpha, uint32_t root)
{
    if (msg_flits == 0 || (ports != 1 && ports != 6) || root >= t->n ||
        (coll == TN_ALLTOALL && t->n > TN_A2A_NODES_MAX))
        return TN_EINVAL;
    struct tn_sched *s = calloc(1, sizeof *s);
    struct tn_sched_state *st = calloc(1, sizeof *st);
    if (!s || !st) {
        free(s);
        free(st);
        return TN_ENOMEM;
    }
    s->st = st;
    s->topo = *t;
    s->coll = coll;
    snprintf(s->algo, sizeof s->algo, "%s", algo ? algo : "");
    s->msg_flits = msg_flits;
    s->ports = ports;
    s->alpha = alpha;
    s->root = root;
    s->parts = 1;
    s->st->scratch = malloc((size_t)t->n * sizeof *s->st->scratch);
    if (!s->st->scratch) {
        free(s->st);
        free(s);
        return TN_ENOMEM;
    }
    for (uint32_t v = 0; v < t->n; v++)
        s->st->scratch[v] = -1;
    *out = s;
    return 0;
}

void tn_sched_free(struct tn_sched *s)
{
    if (!s)
        return;
    for (uint32_t r = 0; r < s->nrounds; r++) {
        free(s->rounds[r].circ);
        free(s->rounds[r].relay);
    }
    free(s->rounds);
    free(s->st->mem);
    free(s->st->scratch);
    struct tn_arena *a = s->st->arena;
    while (a) {
        struct tn_arena *n = a->next;
        free(a);
        a = n;
    }
    free(s->st);
    free(s);
}

void tn_sched_changed(struct tn_sched *s)
{
    s->st->laid_out = false;
}

int tn_sched_add_round(struct tn_sched *s)
{
    if (s->nrounds == s->rcap) {
        uint32_t cap = s->rcap ? 2 * s->rcap : 8;
        struct tn_round *r = realloc(s->rounds, cap * sizeof *r);
        if (!r)
            return TN_ENOMEM;
        s->rounds = r;
        s->rcap = cap;
    }
    memset(&s->rounds[s->nrounds], 0, sizeof s->rounds[0]);
    s->st->laid_out = false;
    return (int)s->nrounds++;
}

struct tn_circuit *tn_sched_add_circuit(struct tn_sched *s, uint32_t r,
    uint32_t src, const struct tn_arc *arcs, uint32_t narcs,
    const uint32_t *eject, uint32_t nej, uint32_t moff, uint32_t mcnt,
    const uint32_t *msgs, uint32_t nmsgs, uint32_t start)
{
    struct tn_round *rd = &s->rounds[r];
    if (rd->ncirc == rd->cap) {
        uint32_t cap = rd->cap ? 2 * rd->cap : 16;
        struct tn_circuit *c = realloc(rd->circ, cap * sizeof *c);
        if (!c)
            return NULL;
        rd->circ = c;
        rd->cap = cap;
    }
    struct tn_circuit *c = &rd->circ[rd->ncirc];
    memset(c, 0, sizeof *c);
    c->arcs = tn_sched_alloc(s, (narcs ? narcs : 1) * sizeof *arcs);
    c->eject = tn_sched_alloc(s, (nej ? nej : 1) * sizeof *eject);
    if (!c->arcs || !c->eject)
        return NULL;
    if (narcs)
        memcpy(c->arcs, arcs, narcs * sizeof *arcs);
    if (nej)
        memcpy(c->eject, eject, nej * sizeof *eject);
    if (msgs) {
        c->msgs = tn_sched_alloc(s, (nmsgs ? nmsgs : 1) * sizeof *msgs);
        if (!c->msgs)
            return NULL;
        if (nmsgs)
            memcpy(c->msgs, msgs, nmsgs * sizeof *msgs);
        c->nmsgs = nmsgs;
    }
    c->src = src;
    c->narcs = narcs;
    c->nej = nej;
    c->moff = moff;
    c->mcnt = mcnt;
    c->start = start;
    c->msg_bad = -1;
    rd->ncirc++;
    s->st->laid_out = false;
    return c;
}

struct tn_relay *tn_sched_add_relay(struct tn_sched *s, uint32_t r, uint32_t src, uint32_t dst,
                                    uint32_t moff, uint32_t mcnt, const uint32_t *msgs,
                                    uint32_t nmsgs, uint32_t start)
{
    struct tn_round *rd = &s->rounds[r];
    if (rd->nrelay == rd->relcap) {
        uint32_t cap = rd->relcap ? 2 * rd->relcap : 8;
        struct tn_relay *n = realloc(rd->relay, cap * sizeof *n);
        if (!n)
            return NULL;
        rd->relay = n;
        rd->relcap = cap;
    }
    struct tn_relay *x = &rd->relay[rd->nrelay];
    memset(x, 0, sizeof *x);
    if (msgs) {
        x->msgs = tn_sched_alloc(s, (nmsgs ? nmsgs : 1) * sizeof *msgs);
        if (!x->msgs)
            return NULL;
        if (nmsgs)
            memcpy(x->msgs, msgs, nmsgs * sizeof *msgs);
        x->nmsgs = nmsgs;
    }
    x->src = src;
    x->dst = dst;
    x->start = start;
    x->moff = moff;
    x->mcnt = mcnt;
    x->msg_bad = -1;
    rd->nrelay++;
    s->st->laid_out = false;
    return x;
}

struct tn_relay *tn_sched_add_relay_words(struct tn_sched *s, uint32_t r, uint32_t src,
                                          uint32_t dst, const uint32_t *words, uint32_t nwords,
                                          uint32_t start)
{
    struct tn_relay *x = tn_sched_add_relay(s, r, src, dst, 0, 0, NULL, 0, start);
    if (!x || !(x->words = tn_sched_alloc(s, (nwords ? nwords : 1) * sizeof *words)))
        return NULL;
    if (nwords)
        memcpy(x->words, words, nwords * sizeof *words);
    x->nwords = nwords;
    return x;
}

/* ---- ropes ---- */

uint32_t tn_blk_get(const struct tn_blk *b, uint32_t i)
{
    for (;;) {
        switch (b->kind) {
        case TN_BLK_LEAF:
            return b->u.ids[i];
        case TN_BLK_SLICE:
            i += b->off;
            b = b->u.base;
            break;
        case TN_BLK_STRIDE:
            i = b->off + i + i / b->run * b->skip;
            b = b->u.base;
            break;
        default:
            for (uint32_t k = 0; k < b->nk; k++) {
                if (i < b->u.kids[k]->n) {
                    b = b->u.kids[k];
                    break;
                }
                i -= b->u.kids[k]->n;
            }
        }
    }
}

bool tn_blk_each(const struct tn_blk *b, uint32_t off, uint32_t n, tn_blk_fn *fn, void *ctx)
{
    while (n) {
        switch (b->kind) {
        case TN_BLK_LEAF:
            return fn(ctx, b->u.ids + off, n);
        case TN_BLK_SLICE:
            off += b->off;
            b = b->u.base;
            break;
        case TN_BLK_STRIDE:
            /* run by run: index off + j of b is one contiguous stretch of
             * base up to the end of its run */
            while (n) {
                uint32_t r = off % b->run, take = b->run - r < n ? b->run - r : n;
                if (!tn_blk_each(b->u.base, b->off + off + off / b->run * b->skip, take, fn,
                                 ctx))
                    return false;
                off += take;
                n -= take;
            }
            return true;
        default:
            for (uint32_t k = 0; k < b->nk && n; k++) {
                const struct tn_blk *kid = b->u.kids[k];
                if (off >= kid->n) {
                    off -= kid->n;
                    continue;
                }
                uint32_t take = kid->n - off < n ? kid->n - off : n;
                if (!tn_blk_each(kid, off, take, fn, ctx))
                    return false;
                n -= take;
                off = 0;
            }
            return true;
        }
    }
    return true;
}

static bool copy_ids(void *ctx, const uint32_t *ids, uint32_t n)
{
    uint32_t **out = ctx;
    memcpy(*out, ids, n * sizeof *ids);
    *out += n;
    return true;
}

void tn_blk_read(const struct tn_blk *b, uint32_t off, uint32_t n, uint32_t *out)
{
    tn_blk_each(b, off, n, copy_ids, &out);
}

/* ---- selections ---- */

static uint64_t sel_pos(uint64_t i, uint32_t run, uint32_t skip)
{
    return i + i / run * skip;
}

/* Elements of a selection at positions below q (positions from its start). */
static uint64_t sel_count(uint64_t q, uint32_t run, uint32_t skip)
{
    uint64_t P = (uint64_t)run + skip;
    return q / P * run + (q % P < run ? q % P : run);
}

static uint64_t sel_key(const struct tn_blk *b, uint32_t start, uint32_t n, uint32_t run,
                        uint32_t skip)
{
    uint64_t z = (uint64_t)(uintptr_t)b * 0x9E3779B97F4A7C15ull;
    z ^= ((uint64_t)start << 32 | n) * 0xBF58476D1CE4E5B9ull;
    z ^= ((uint64_t)run << 32 | skip) * 0x94D049BB133111EBull;
    return z ^ (z >> 29);
}

static struct tn_sel_memo *sel_slot(struct tn_sel *sel, const struct tn_blk *b, uint32_t start,
                                    uint32_t n, uint32_t run, uint32_t skip)
{
    size_t i = (size_t)(sel_key(b, start, n, run, skip) & (sel->cap - 1));
    while (sel->tab[i].b && !(sel->tab[i].b == b && sel->tab[i].start == start &&
                              sel->tab[i].n == n && sel->tab[i].run == run &&
                              sel->tab[i].skip == skip))
        i = (i + 1) & (sel->cap - 1);
    return &sel->tab[i];
}

static void sel_remember(struct tn_sel *sel, const struct tn_blk *b, uint32_t start, uint32_t n,
                         uint32_t run, uint32_t skip, uint64_t v)
{
    if (2 * (sel->used + 1) > sel->cap) {
        size_t ocap = sel->cap, ncap = ocap ? 2 * ocap : 1024;
        struct tn_sel_memo *old = sel->tab, *nt = calloc(ncap, sizeof *nt);
        if (!nt)
            return;  /* no memo: correct, only slower */
        sel->tab = nt;
        sel->cap = ncap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i].b)
                *sel_slot(sel, old[i].b, old[i].start, old[i].n, old[i].run, old[i].skip) = old[i];
        free(old);
    }
    *sel_slot(sel, b, start, n, run, skip) = (struct tn_sel_memo){b, start, n, run, skip, v};
    sel->used++;
}

/* Run by run. */
static uint64_t sel_runs(struct tn_sel *sel, struct tn_blk *b, uint32_t start, uint32_t n,
                         uint32_t run, uint32_t skip)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < n; i += run) {
        uint32_t take = n - i < run ? n - i : run;
        uint64_t r = sel->range(sel->ctx, b, (uint32_t)(start + sel_pos(i, run, skip)), take);
        v = i == 0 ? r : sel->cat(sel->ctx, v, r, take);
    }
    return v;
}

/* The aligned selection: elements [0, n) at b[start + i + (i / run) * skip]. */
static uint64_t sel_whole(struct tn_sel *sel, struct tn_blk *b, uint32_t start, uint32_t n,
                          uint32_t run, uint32_t skip)
{
    if (n <= run || skip == 0)
        return sel->range(sel->ctx, b, start, n);
    uint64_t v = 0;
    bool first = true;
    switch (b->kind) {
    case TN_BLK_SLICE:
        return sel_whole(sel, b->u.base, b->off + start, n, run, skip);
    case TN_BLK_STRIDE:
        if (run == 1 && (uint64_t)skip + 1 == b->run) {
            /* one element of each inner run: again a selection */
            uint64_t f = b->off + start + (uint64_t)start / b->run * b->skip;
            return sel_whole(sel, b->u.base, (uint32_t)f, n, 1, b->run + b->skip - 1);
        }
        return sel_runs(sel, b, start, n, run, skip);
    case TN_BLK_LEAF:
        return sel_runs(sel, b, start, n, run, skip);
    default:
        break;
    }
    if (sel->cap) {
        struct tn_sel_memo *m = sel_slot(sel, b, start, n, run, skip);
        if (m->b)
            return m->v;
    }
    uint64_t ko = 0;
    for (uint32_t k = 0; k < b->nk; k++) {
        struct tn_blk *kid = b->u.kids[k];
        uint64_t lo = ko > start ? ko - start : 0, hi = ko + kid->n;
        ko += kid->n;
        if (hi <= start)
            continue;
        hi -= start;
        /* elements whose position relative to start is in [lo, hi) */
        uint64_t i0 = sel_count(lo, run, skip), i1 = sel_count(hi, run, skip);
        if (i1 > n)
            i1 = n;
        if (i0 >= i1)
            continue;
        /* re-indexed from the start of the run holding element i0 (that run
         * may begin before the kid) */
        uint64_t ia = i0 - i0 % run;
        int64_t ks = (int64_t)(start + sel_pos(ia, run, skip)) - (int64_t)(ko - kid->n);
        uint64_t r = tn_sel_fold(sel, kid, ks, run, skip, (uint32_t)(i0 - ia), (uint32_t)(i1 - ia));
        v = first ? r : sel->cat(sel->ctx, v, r, (uint32_t)(i1 - i0));
        first = false;
    }
    sel_remember(sel, b, start, n, run, skip, v);
    return v;
}

uint64_t tn_sel_fold(struct tn_sel *sel, struct tn_blk *b, int64_t start, uint32_t run,
                     uint32_t skip, uint32_t i0, uint32_t i1)
{
    uint64_t v = 0;
    bool first = true;
    if (i0 < i1 && i0 % run) {
        uint32_t take = run - i0 % run < i1 - i0 ? run - i0 % run : i1 - i0;
        v = sel->range(sel->ctx, b, (uint32_t)(start + (int64_t)sel_pos(i0, run, skip)), take);
        first = false;
        i0 += take;
    }
    if (i0 < i1) {
        uint64_t r = sel_whole(sel, b, (uint32_t)(start + (int64_t)sel_pos(i0, run, skip)),
                               i1 - i0, run, skip);
        v = first ? r : sel->cat(sel->ctx, v, r, i1 - i0);
    }
    return v;
}

uint64_t tn_sel_stride(struct tn_sel *sel, struct tn_blk *b, uint32_t off, uint32_t n)
{
    return tn_sel_fold(sel, b->u.base, b->off, b->run, b->skip, off, off + n);
}

void tn_sel_free(struct tn_sel *sel)
{
    free(sel->tab);
    sel->tab = NULL;
    sel->cap = sel->used = 0;
}

static struct tn_blk *blk_new(struct tn_sched *s, int kind, uint32_t n)
{
    struct tn_blk *b = tn_sched_alloc(s, sizeof *b);
    if (!b)
        return NULL;
    memset(b, 0, sizeof *b);
    b->kind = (uint8_t)kind;
    b->n = n;
    b->complete = -1;
    return b;
}

static struct tn_blk *blk_leaf(struct tn_sched *s, const uint32_t *ids, uint32_t n)
{
    struct tn_blk *b = blk_new(s, TN_BLK_LEAF, n);
    if (!b)
        return NULL;
    b->u.ids = tn_sched_alloc(s, (n ? n : 1) * sizeof *ids);
    if (!b->u.ids)
        return NULL;
    if (n)
        memcpy(b->u.ids, ids, n * sizeof *ids);
    return b;
}

/* ---- circuit geometry ---- */

bool tn_circuit_walk(const struct tn_sched *s, const struct tn_circuit *c,
                     uint32_t *head, uint32_t *depth, uint32_t *parent, uint32_t *ejarc)
{
    const struct tn_topo *t = &s->topo;
    int32_t *pos = s->st->scratch;  /* node -> arc entering it; -1 between calls */
    bool good = true;
    uint32_t i;
    for (i = 0; i < c->narcs && good; i++) {
        const struct tn_arc *a = &c->arcs[i];
        if (a->node >= t->n || !tn_dir_exists(t, a->dir)) {
            good = false;
            break;
        }
        uint32_t h = tn_neighbor(t, a->node, a->dir), j = UINT32_MAX;
        if (a->node != c->src) {
            if (pos[a->node] < 0) {
                good = false;
                break;
            }
            j = (uint32_t)pos[a->node];
        }
        if (h == c->src || pos[h] >= 0) {
            good = false;
            break;
        }
        head[i] = h;
        depth[i] = j == UINT32_MAX ? 1 : depth[j] + 1;
        if (parent)
            parent[i] = j;
        pos[h] = (int32_t)i;
    }
    if (good && ejarc)
        for (uint32_t e = 0; e < c->nej; e++)
            ejarc[e] = c->eject[e] < t->n && pos[c->eject[e]] >= 0 ? (uint32_t)pos[c->eject[e]]
                                                                    : UINT32_MAX;
    while (i-- > 0)
        pos[head[i]] = -1;
    return good;
}

/* Scratch arrays for walking circuits: head, depth, parent (narcs each),
 * ejarc (nej); on the stack when small. */
#define WALK_STACK 64
struct walkbuf {
    uint32_t st[4 * WALK_STACK];
    uint32_t *p;
    uint32_t *head, *depth, *parent, *ejarc;
};

static bool walkbuf_get(struct walkbuf *w, const struct tn_circuit *c)
{
    size_t na = c->narcs, ne = c->nej;
    w->p = NULL;
    uint32_t *b = w->st;
    if (na > WALK_STACK || ne > WALK_STACK) {
        w->p = b = malloc((3 * na + ne + 1) * sizeof *b);
        if (!b)
            return false;
        w->head = b;
        w->depth = b + na;
        w->parent = b + 2 * na;
        w->ejarc = b + 3 * na;
        return true;
    }
    w->head = b;
    w->depth = b + WALK_STACK;
    w->parent = b + 2 * WALK_STACK;
    w->ejarc = b + 3 * WALK_STACK;
    return true;
}

unsigned tn_circuit_depth(const struct tn_sched *s, const struct tn_circuit *c)
{
    struct walkbuf w;
    if (!walkbuf_get(&w, c))
        return 0;
    unsigned dmax = 0;
    if (tn_circuit_walk(s, c, w.head, w.depth, NULL, w.ejarc)) {
        for (uint32_t e = 0; e < c->nej; e++)
            if (w.ejarc[e] != UINT32_MAX && w.depth[w.ejarc[e]] > dmax)
                dmax = w.depth[w.ejarc[e]];
    }
    free(w.p);
    return dmax;
}

uint32_t tn_circuit_nmsgs(const struct tn_circuit *c)
{
    return c->stream ? c->stream->n : 0;
}

uint64_t tn_circuit_flits(const struct tn_sched *s, const struct tn_circuit *c)
{
    uint64_t n = c->stream ? c->stream->n : (c->msgs ? c->nmsgs : c->mcnt);
    if (n == TN_WHOLE)
        n = 0;
    if (s->msg_len && c->stream) {
        uint64_t w = 0;
        for (uint32_t i = 0; i < c->stream->n; i++)
            w += s->msg_len[tn_blk_get(c->stream, i)];
        return w;
    }
    return n * s->msg_flits;
}

/* ---- layout ---- */

/* The message fields shared by circuits and relay streams. */
struct msgref {
    uint32_t *moff, *mcnt, *msgs, nmsgs;
    uint32_t *mphase, *mrun, *mskip;  /* NULL: no gather (relay streams) */
    struct tn_blk **stream;
    int32_t *msg_bad;
    bool *msg_noncontig;
    uint32_t *nruns, **runs;          /* NULL: one run only (relay streams) */
};

/* Span from the first to the last of n messages taken in runs of run with
 * skip between runs. */
static uint32_t gather_span(uint32_t n, uint32_t run, uint32_t skip)
{
    return n ? (uint32_t)sel_pos(n - 1, run, skip) + 1 : 0;
}

/* Does the explicit list of c sit in memory ids[0..n) as equally spaced
 * runs (the inject gather)? Sets the gather fields if so. */
static bool locate_gather(struct msgref *c, const uint32_t *ids, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (ids[i] != c->msgs[0])
            continue;
        uint32_t run = 1;
        while (run < c->nmsgs && i + run < n && ids[i + run] == c->msgs[run])
            run++;
        if (run == c->nmsgs)
            continue;
        for (uint32_t j = i + run + 1; j < n; j++) {
            if (ids[j] != c->msgs[run])
                continue;
            uint32_t skip = j - (i + run), k;
            if ((uint64_t)i + gather_span(c->nmsgs, run, skip) > n)
                break;
            for (k = 0; k < c->nmsgs; k++)
                if (ids[i + k + k / run * skip] != c->msgs[k])
                    break;
            if (k == c->nmsgs) {
                *c->moff = i;
                *c->mcnt = gather_span(c->nmsgs, run, skip);
                *c->mphase = 0;
                *c->mrun = run;
                *c->mskip = skip;
                return true;
            }
        }
    }
    return false;
}

static int cmp_pair(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* pos[0..2n): the (id, position) pairs of memory ids[0..n), sorted. */
static void sort_positions(const uint32_t *ids, uint32_t n, uint32_t *pos)
{
    for (uint32_t i = 0; i < n; i++) {
        pos[2 * i] = ids[i];
        pos[2 * i + 1] = i;
    }
    qsort(pos, n, 2 * sizeof *pos, cmp_pair);
}

/* The first position of id in the memory whose sorted pairs are pos[0..2n),
 * or n when it does not hold id. */
static uint32_t first_copy(const uint32_t *pos, uint32_t n, uint32_t id)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pos[2 * mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && pos[2 * lo] == id ? pos[2 * lo + 1] : n;
}

/* The first of msgs[0..k) that the memory (sorted pairs pos, n ids) does
 * not hold, or -1. */
static int32_t first_not_held(const uint32_t *pos, uint32_t n, const uint32_t *msgs, uint32_t k)
{
    for (uint32_t i = 0; i < k; i++)
        if (first_copy(pos, n, msgs[i]) == n)
            return (int32_t)msgs[i];
    return -1;
}

/* The runs of memory ids[0..n) (sorted pairs pos) that c's explicit list
 * (all held) reads, into the schedule's arena: each message continues the
 * previous run when the next word holds it, else starts a run at its first
 * copy. 0 or TN_ENOMEM. */
static int locate_runs(struct tn_sched *s, struct msgref *c, const uint32_t *ids,
                       const uint32_t *pos, uint32_t n)
{
    uint32_t *runs = malloc(2 * (size_t)c->nmsgs * sizeof *runs);
    if (!runs)
        return TN_ENOMEM;
    uint32_t nr = 0, at = 0;
    for (uint32_t k = 0; k < c->nmsgs; k++) {
        if (nr && at + 1 < n && ids[at + 1] == c->msgs[k]) {
            at++;
            runs[2 * nr - 1]++;
            continue;
        }
        at = first_copy(pos, n, c->msgs[k]);
        runs[2 * nr] = at;
        runs[2 * nr++ + 1] = 1;
    }
    int rc = TN_ENOMEM;
    *c->runs = tn_sched_alloc(s, 2 * (size_t)nr * sizeof **c->runs);
    if (*c->runs) {
        memcpy(*c->runs, runs, 2 * (size_t)nr * sizeof *runs);
        *c->nruns = nr;
        *c->moff = runs[0];
        *c->mcnt = c->nmsgs;
        rc = 0;
    }
    free(runs);
    return rc;
}

/* A node's memory as a flat array of ids, kept from one lookup to the
 * next: a memory that extends the one read last (a concatenation whose
 * first kid is it, or extends it, as the rounds' merges make them) costs
 * only its new ids, so a schedule's layout reads each node's memory about
 * once, not once per stream it sends (a 7x7x7 all-to-all: 117,306 reads
 * of memories that are chains of a concatenation per round). */
struct flat {
    const struct tn_blk *m;   /* the memory in ids, or NULL */
    uint32_t *ids;
    size_t cap;
};

/* How many of m's first ids are f's: all of f->m's when m extends it. */
static uint32_t flat_prefix(const struct flat *f, const struct tn_blk *m)
{
    for (const struct tn_blk *b = m; f->m && b->kind == TN_BLK_CAT; b = b->u.kids[0])
        if (b->u.kids[0] == f->m)
            return f->m->n;
    return 0;
}

/* m's ids (m->n of them), or NULL when out of memory. */
static const uint32_t *flat_ids(struct flat *f, const struct tn_blk *m)
{
    if (f->m == m)
        return f->ids;
    uint32_t from = flat_prefix(f, m);
    if (m->n >= f->cap) {  /* (at least one more: ids is never NULL) */
        size_t cap = m->n >= 2 * f->cap ? (size_t)m->n + 1 : 2 * f->cap;
        uint32_t *ids = realloc(f->ids, cap * sizeof *ids);
        if (!ids)
            return NULL;
        f->ids = ids;
        f->cap = cap;
    }
    tn_blk_read(m, from, m->n - from, f->ids + from);
    f->m = m;
    return f->ids;
}

/* Locate the explicit list of c in m (the source's memory, f its flat
 * copy): as one contiguous run first (the common case, linear in m), else
 * which message m lacks, else a gather pattern, else (circuits) several
 * runs. 0 or TN_ENOMEM. */
static int locate_msgs(struct tn_sched *s, struct msgref *c, const struct tn_blk *m,
                       struct flat *f)
{
    int rc = 0;
    *c->msg_bad = -1;
    *c->msg_noncontig = false;
    if (c->mrun)
        *c->mrun = *c->mskip = *c->mphase = 0;
    if (c->nruns)
        *c->nruns = 0;
    if (c->nmsgs == 0) {
        *c->moff = 0;
        *c->mcnt = 0;
        return 0;
    }
    const uint32_t *ids = flat_ids(f, m);
    if (!ids)
        return TN_ENOMEM;
    for (uint32_t i = 0; i + c->nmsgs <= m->n; i++)
        if (ids[i] == c->msgs[0] && memcmp(ids + i, c->msgs, c->nmsgs * sizeof *ids) == 0) {
            *c->moff = i;
            *c->mcnt = c->nmsgs;
            return 0;
        }
    uint32_t *pos = malloc(((size_t)m->n + 1) * 2 * sizeof *pos);  /* (id, position) pairs */
    if (!pos)
        return TN_ENOMEM;
    bool found = false;
    sort_positions(ids, m->n, pos);
    *c->msg_bad = first_not_held(pos, m->n, c->msgs, c->nmsgs);
    if (*c->msg_bad < 0 && c->mrun)
        found = locate_gather(c, ids, m->n);
    if (*c->msg_bad < 0 && !found && c->runs) {
        rc = locate_runs(s, c, ids, pos, m->n);
        found = rc == 0;
    }
    *c->msg_noncontig = *c->msg_bad < 0 && !found;
    free(pos);
    return rc;
}

/* Resolve a message slice against m (the source's memory at the start of
 * round r, f its flat copy) and make the stream block; 0 or TN_ENOMEM. */
static int resolve_msgs(struct tn_sched *s, uint32_t r, struct tn_blk *m, struct flat *f,
                        uint32_t src, struct msgref *c)
{
    uint32_t N = s->topo.n;
    *c->stream = NULL;
    if (c->msgs) {
        /* the stream is the list itself, a leaf: a slice of the source's
         * memory would make every receiver's memory a chain of references
         * into other nodes' (reading one cost the depth of the schedule:
         * a 8x8x8 all-to-all took 9 minutes to lay out) */
        if (locate_msgs(s, c, m, f))
            return TN_ENOMEM;
        if (*c->msg_bad >= 0 || *c->msg_noncontig || !c->mrun || !*c->mrun) {
            *c->stream = blk_leaf(s, c->msgs, c->nmsgs);
            return *c->stream ? 0 : TN_ENOMEM;
        }
    } else {
        *c->msg_bad = -1;
        if (*c->mcnt == TN_WHOLE) {
            *c->moff = 0;
            *c->mcnt = m->n;
        } else if (*c->mcnt == TN_SINCE) {
            uint32_t before = *c->moff <= r ? s->st->mem[(size_t)*c->moff * N + src]->n : 0;
            *c->moff = before;
            *c->mcnt = m->n - before;
        }
        if ((uint64_t)*c->moff + *c->mcnt > m->n)
            *c->msg_bad = -2;
    }
    if (*c->msg_bad != -1)
        return 0;
    if (c->mrun && *c->mrun) {
        /* gather: fold the phase in, count the messages, keep the span */
        uint32_t run = *c->mrun, skip = *c->mskip, span, n;
        if (*c->mphase > *c->mcnt) {
            *c->msg_bad = -2;
            return 0;
        }
        *c->moff += *c->mphase;
        span = *c->mcnt - *c->mphase;
        *c->mphase = 0;
        n = (uint32_t)sel_count(span, run, skip);
        *c->mcnt = gather_span(n, run, skip);
        struct tn_blk *b = blk_new(s, TN_BLK_STRIDE, n);
        if (!b)
            return TN_ENOMEM;
        b->u.base = m;
        b->off = *c->moff;
        b->run = run;
        b->skip = skip;
        *c->stream = b;
        return 0;
    }
    if (*c->moff == 0 && *c->mcnt == m->n) {
        *c->stream = m;
        return 0;
    }
    struct tn_blk *b = blk_new(s, TN_BLK_SLICE, *c->mcnt);
    if (!b)
        return TN_ENOMEM;
    b->u.base = m;
    b->off = *c->moff;
    *c->stream = b;
    return 0;
}

const char *tn_coll_name(enum tn_coll c)
{
    static const char *const names[TN_COLL_COUNT] = {"gossip", "broadcast", "alltoall",
                                                      "scatter", "gather", "p2p", "perm"};
    return (unsigned)c < TN_COLL_COUNT ? names[c] : "?";
}

int tn_sched_set_perm(struct tn_sched *s, const uint32_t *dst)
{
    uint32_t N = s->topo.n;
    if (s->coll != TN_PERM || s->st->laid_out)
        return TN_EINVAL;
    uint32_t *p = tn_sched_alloc(s, 2 * (size_t)N * sizeof *p);
    if (!p)
        return TN_ENOMEM;
    uint32_t *src = p + N;
    for (uint32_t v = 0; v < N; v++)
        src[v] = UINT32_MAX;
    for (uint32_t v = 0; v < N; v++) {
        if (dst[v] >= N || src[dst[v]] != UINT32_MAX)
            return TN_EINVAL;
        p[v] = dst[v];
        src[dst[v]] = v;
    }
    s->perm = p;
    s->perm_src = src;
    return 0;
}

int tn_coll_parse(const char *name, enum tn_coll *c)
{
    for (int i = 0; i < TN_COLL_COUNT; i++)
        if (strcmp(name, tn_coll_name((enum tn_coll)i)) == 0) {
            *c = (enum tn_coll)i;
            return 0;
        }
    return TN_EINVAL;
}

int tn_sched_set_parts(struct tn_sched *s, uint32_t n)
{
    if (s->coll != TN_GOSSIP || n == 0 || s->st->laid_out || (uint64_t)n * s->topo.n > UINT32_MAX)
        return TN_EINVAL;
    s->parts = n;
    return 0;
}

uint32_t tn_sched_max_flits(const struct tn_sched *s, uint64_t words, uint64_t depth)
{
    if (s->msg_len)
        return UINT32_MAX;
    uint64_t msgs = words / s->msg_flits, P = msgs ? depth / msgs : UINT32_MAX;
    return P * s->parts > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)(P * s->parts);
}

int tn_sched_set_lengths(struct tn_sched *s, const uint32_t *len, uint32_t n)
{
    if (n != tn_sched_nids(s))
        return TN_EINVAL;
    uint32_t *l = tn_sched_alloc(s, (n ? n : 1) * sizeof *l);
    if (!l)
        return TN_ENOMEM;
    memcpy(l, len, n * sizeof *l);
    s->msg_len = l;
    s->st->laid_out = false;
    return 0;
}

unsigned tn_relay_path(const struct tn_topo *t, const struct tn_relay *x, struct tn_arc *arcs,
                       unsigned cap)
{
    return x->tree && x->tree <= TN_NDIRS ? tn_tree_path(t, x->src, x->dst, x->tree - 1, arcs, cap)
                                           : tn_dor_path(t, x->src, x->dst, arcs, cap);
}

uint64_t tn_relay_flits(const struct tn_sched *s, const struct tn_relay *x)
{
    if (!x->stream)
        return 0;
    if (x->words)
        return 1 + (uint64_t)x->nwords;
    uint64_t n = 0;
    for (uint32_t i = 0; i < x->stream->n; i++)
        n += tn_msg_len(s, tn_blk_get(x->stream, i));
    return n ? n + 1 : 0;
}

/* What node v holds before round 0 (buf: scratch of max(N, parts) ids);
 * NULL when out of memory. */
static struct tn_blk *initial_memory(struct tn_sched *s, uint32_t v, struct tn_blk *empty,
                                     uint32_t *buf)
{
    uint32_t N = s->topo.n, k = 0;
    if (s->coll == TN_ALLTOALL) {
        /* node v holds message v * N + d for every d != v, by d */
        for (uint32_t d = 0; d < N; d++)
            if (d != v)
                buf[k++] = v * N + d;
        return N > 1 ? blk_leaf(s, buf, N - 1) : empty;
    }
    if (s->coll == TN_PERM) {
        /* node v holds v * N + perm[v] unless it is a fixed point */
        bool sends = s->perm && s->perm[v] != v;
        buf[0] = sends ? v * N + s->perm[v] : 0;
        return sends ? blk_leaf(s, buf, 1) : empty;
    }
    if (s->coll == TN_P2P && v == s->root) {
        /* the source holds its packets 0..p2p_msgs-1 */
        for (uint32_t i = 0; i < s->p2p_msgs && i < N; i++)
            buf[i] = i;
        return blk_leaf(s, buf, s->p2p_msgs < N ? s->p2p_msgs : N);
    }
    if (s->coll == TN_SCATTER && v == s->root) {
        /* the root holds message d for every d != root, by d */
        for (uint32_t d = 0; d < N; d++)
            if (d != v)
                buf[k++] = d;
        return N > 1 ? blk_leaf(s, buf, N - 1) : empty;
    }
    if (s->coll == TN_SCATTER || (s->coll == TN_GATHER && v == s->root))
        return empty;
    if (s->coll == TN_GOSSIP) {
        /* node v holds the parts of its message */
        for (uint32_t i = 0; i < s->parts; i++)
            buf[i] = v * s->parts + i;
        return blk_leaf(s, buf, s->parts);
    }
    if (s->coll == TN_GATHER || v == s->root)
        return blk_leaf(s, &v, 1);
    return empty;
}

/* Scratch of the layout of a round: the stream that arrives at each
 * (node, input port) and the nodes that receive anything. */
struct layout {
    struct tn_blk *empty; /* the empty memory (a control packet's stream) */
    struct tn_blk **slot; /* N * TN_NDIRS */
    uint32_t *touched, ntouched;
    uint8_t *mark;        /* N: v is in touched */
    struct flat *flat;    /* N: each node's memory as read last */
};

static void touch(struct layout *l, uint32_t v)
{
    if (!l->mark[v]) {
        l->mark[v] = 1;
        l->touched[l->ntouched++] = v;
    }
}

/* Resolves circuit c of round r and places its stream at each ejecting
 * node, by input port (the first stream on a port wins). *cycles: what
 * the circuit needs of the round (start + depth + flits). 0 or
 * TN_ENOMEM. */
static int place_circuit(struct tn_sched *s, uint32_t r, struct tn_circuit *c, struct layout *l,
                         uint64_t *cycles)
{
    uint32_t N = s->topo.n;
    c->stream = NULL;
    *cycles = 0;
    if (c->src >= N)
        return 0;
    struct msgref ref = {&c->moff, &c->mcnt, c->msgs, c->nmsgs, &c->mphase, &c->mrun,
                         &c->mskip, &c->stream, &c->msg_bad, &c->msg_noncontig,
                         &c->nruns, &c->runs};
    if (resolve_msgs(s, r, s->st->mem[(size_t)r * N + c->src], &l->flat[c->src], c->src, &ref))
        return TN_ENOMEM;
    if (!c->stream)
        return 0;
    struct walkbuf w;
    if (!walkbuf_get(&w, c))
        return TN_ENOMEM;
    unsigned dmax = 0;
    if (tn_circuit_walk(s, c, w.head, w.depth, NULL, w.ejarc)) {
        for (uint32_t e = 0; e < c->nej; e++) {
            uint32_t v = c->eject[e], i = w.ejarc[e];
            if (i == UINT32_MAX)
                continue;
            if (w.depth[i] > dmax)
                dmax = w.depth[i];
            struct tn_blk **sl = &l->slot[(size_t)v * TN_NDIRS + c->arcs[i].dir];
            if (!*sl) {
                *sl = c->stream;
                touch(l, v);
            }
        }
    }
    free(w.p);
    *cycles = (uint64_t)c->start + dmax + tn_circuit_flits(s, c);
    return 0;
}

/* Resolves relay stream x of round r; it is appended at dst after the
 * circuits (merge_node). *cycles as for place_circuit. */
static int place_relay(struct tn_sched *s, uint32_t r, struct tn_relay *x, struct layout *l,
                       uint64_t *cycles)
{
    uint32_t N = s->topo.n;
    x->stream = NULL;
    *cycles = 0;
    if (x->src >= N || x->dst >= N || x->src == x->dst)
        return 0;
    if (x->words) {
        x->stream = l->empty; /* a control packet: nothing joins dst's memory */
    } else {
        struct msgref ref = {&x->moff, &x->mcnt, x->msgs, x->nmsgs, NULL, NULL, NULL,
                             &x->stream, &x->msg_bad, &x->msg_noncontig, NULL, NULL};
        if (resolve_msgs(s, r, s->st->mem[(size_t)r * N + x->src], &l->flat[x->src], x->src,
                         &ref))
            return TN_ENOMEM;
        if (!x->stream)
            return 0;
        touch(l, x->dst);
    }
    *cycles = (uint64_t)x->start + tn_relay_path(&s->topo, x, NULL, 0) + tn_relay_flits(s, x);
    return 0;
}

/* The round's resolved relay streams as (dst, index) pairs sorted by
 * dst: *n of them in *out (NULL when the round has none). */
static int relays_by_dst(const struct tn_round *rd, uint32_t **out, uint32_t *n)
{
    uint32_t *rel = NULL;
    *n = 0;
    if (rd->nrelay) {
        rel = malloc(2 * (size_t)rd->nrelay * sizeof *rel);
        if (!rel)
            return TN_ENOMEM;
        for (uint32_t i = 0; i < rd->nrelay; i++)
            if (rd->relay[i].stream) {
                rel[2 * *n] = rd->relay[i].dst;
                rel[2 * (*n)++ + 1] = i;
            }
        qsort(rel, *n, 2 * sizeof *rel, cmp_pair);
    }
    *out = rel;
    return 0;
}

/* v's relay streams: the pairs rel[*first ..) of relays_by_dst, their
 * number returned. */
static uint32_t relays_of(const uint32_t *rel, uint32_t n, uint32_t v, uint32_t *first)
{
    uint32_t lo = 0, hi = n, k = 0;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (rel[2 * mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo + k < n && rel[2 * (lo + k)] == v)
        k++;
    *first = lo;
    return k;
}

/* The concatenation of kids[0..nk) (nk >= 2); NULL when out of memory. */
static struct tn_blk *blk_cat(struct tn_sched *s, struct tn_blk *const *kids, uint32_t nk)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < nk; i++)
        n += kids[i]->n;
    struct tn_blk *b = blk_new(s, TN_BLK_CAT, n);
    if (b)
        b->u.kids = tn_sched_alloc(s, nk * sizeof *kids);
    if (!b || !b->u.kids)
        return NULL;
    b->nk = nk;
    memcpy(b->u.kids, kids, nk * sizeof *kids);
    return b;
}

/* v's memory after round rd into *next: what it held, then the streams
 * that arrived by input port X+ .. Z-, then its relay streams (rel, n
 * as relays_by_dst gives them). Clears v's slots and mark. */
static int merge_node(struct tn_sched *s, const struct tn_round *rd, uint32_t v,
                      struct layout *l, const uint32_t *rel, uint32_t n, struct tn_blk *held,
                      struct tn_blk **next)
{
    uint32_t first, nrel = relays_of(rel, n, v, &first), nk = 0;
    struct tn_blk *kidbuf[TN_NDIRS + 1 + 8], **kids = kidbuf;
    if (nrel > 8) {
        kids = malloc((TN_NDIRS + 1 + nrel) * sizeof *kids);
        if (!kids)
            return TN_ENOMEM;
    }
    if (held->n)
        kids[nk++] = held;
    for (int d = 0; d < TN_NDIRS; d++) {
        struct tn_blk **sl = &l->slot[(size_t)v * TN_NDIRS + d];
        if (*sl && (*sl)->n)
            kids[nk++] = *sl;
        *sl = NULL;
    }
    for (uint32_t i = first; i < first + nrel; i++)
        if (rd->relay[rel[2 * i + 1]].stream->n)
            kids[nk++] = rd->relay[rel[2 * i + 1]].stream;
    l->mark[v] = 0;
    int rc = 0;
    if (nk == 1) {
        *next = kids[0];
    } else if (nk > 1) {
        struct tn_blk *b = blk_cat(s, kids, nk);
        if (b)
            *next = b;
        else
            rc = TN_ENOMEM;
    }
    if (kids != kidbuf)
        free(kids);
    return rc;
}

/* Round r: every node's memory after it (s->st->mem row r + 1) and, unless
 * set, its duration (alpha + the longest stream's cycles). */
static int layout_round(struct tn_sched *s, uint32_t r, struct layout *l)
{
    uint32_t N = s->topo.n, *rel, nrel;
    struct tn_blk **cur = s->st->mem + (size_t)r * N, **next = cur + N;
    struct tn_round *rd = &s->rounds[r];
    uint64_t need = 0, cycles;
    int rc = 0;
    memcpy(next, cur, (size_t)N * sizeof *next);
    l->ntouched = 0;
    for (uint32_t ci = 0; ci < rd->ncirc && !rc; ci++)
        if (!(rc = place_circuit(s, r, &rd->circ[ci], l, &cycles)) && cycles > need)
            need = cycles;
    for (uint32_t i = 0; i < rd->nrelay && !rc; i++)
        if (!(rc = place_relay(s, r, &rd->relay[i], l, &cycles)) && cycles > need)
            need = cycles;
    if (rc || (rc = relays_by_dst(rd, &rel, &nrel)))
        return rc;
    for (uint32_t k = 0; k < l->ntouched && !rc; k++) {
        uint32_t v = l->touched[k];
        rc = merge_node(s, rd, v, l, rel, nrel, cur[v], &next[v]);
    }
    free(rel);
    if (!rc && rd->duration == 0)
        rd->duration = tn_round_duration(s->alpha, need);
    return rc;
}

int tn_sched_layout(struct tn_sched *s)
{
    uint32_t N = s->topo.n;
    int rc = TN_ENOMEM;
    free(s->st->mem);
    s->st->mem = calloc(((size_t)s->nrounds + 1) * N, sizeof *s->st->mem);
    struct layout l = {
        .slot = calloc((size_t)N * TN_NDIRS, sizeof *l.slot),
        .touched = malloc(((size_t)N > s->parts ? N : s->parts) * sizeof *l.touched),
        .mark = calloc(N, 1),
        .flat = calloc(N, sizeof *l.flat),
    };
    if (!s->st->mem || !l.slot || !l.touched || !l.mark || !l.flat ||
        !(l.empty = blk_new(s, TN_BLK_LEAF, 0)))
        goto out_free;
    l.empty->u.ids = NULL;
    for (uint32_t v = 0; v < N; v++)
        if (!(s->st->mem[v] = initial_memory(s, v, l.empty, l.touched)))
            goto out_free;
    rc = 0;
    for (uint32_t r = 0; r < s->nrounds && !rc; r++)
        rc = layout_round(s, r, &l);
    if (!rc)
        s->st->laid_out = true;
out_free:
    for (uint32_t v = 0; l.flat && v < N; v++)
        free(l.flat[v].ids);
    free(l.flat);
    free(l.slot);
    free(l.touched);
    free(l.mark);
    return rc;
}

/* ---- cost and bounds ---- */

void tn_sched_cost(const struct tn_sched *s, unsigned alpha, struct tn_cost *c)
{
    memset(c, 0, sizeof *c);
    c->rounds = s->nrounds;
    for (uint32_t r = 0; r < s->nrounds; r++) {
        const struct tn_round *rd = &s->rounds[r];
        uint64_t dmax = 0, lmax = 0, need = 0;
        for (uint32_t i = 0; i < rd->ncirc; i++) {
            const struct tn_circuit *ci = &rd->circ[i];
            uint64_t d = tn_circuit_depth(s, ci);
            uint64_t l = tn_circuit_flits(s, ci);
            if (d > dmax)
                dmax = d;
            if (ci->start + l > lmax)
                lmax = ci->start + l;
            if (ci->start + d + l > need)
                need = ci->start + d + l;
        }
        for (uint32_t i = 0; i < rd->nrelay; i++) {
            const struct tn_relay *x = &rd->relay[i];
            if (x->src >= s->topo.n || x->dst >= s->topo.n || !x->stream)
                continue;
            uint64_t d = tn_relay_path(&s->topo, x, NULL, 0);
            uint64_t l = tn_relay_flits(s, x);
            if (d > dmax)
                dmax = d;
            if (x->start + l > lmax)
                lmax = x->start + l;
            if (x->start + d + l > need)
                need = x->start + d + l;
        }
        c->dsum += dmax;
        c->tsum += lmax;
        c->cycles += tn_round_duration(alpha, need);
    }
}

static uint32_t ceil_log(uint64_t n, uint64_t base)
{
    uint32_t k = 0;
    uint64_t p = 1;
    while (p < n) {
        p *= base;
        k++;
    }
    return k;
}

void tn_sched_bounds(const struct tn_sched *s, struct tn_bounds *b)
{
    const struct tn_topo *t = &s->topo;
    unsigned ports = tn_ports(t);
    unsigned lanes = s->ports < ports ? s->ports : ports;
    if (lanes == 0)
        lanes = 1;
    /* A node receives at most `lanes` streams per round, each carrying at
     * most what its sender knows: knowledge grows by a factor lanes + 1. */
    b->rounds = ceil_log(t->n, lanes + 1);
    if (s->coll == TN_SCATTER || s->coll == TN_GATHER) {
        /* every non-null message crosses the root's ports: M / lanes;
         * the farthest non-null node is at least ecc hops away */
        uint64_t M = 0;
        unsigned ecc = 0;
        for (uint32_t v = 0; v < t->n; v++)
            if (v != s->root && tn_msg_len(s, v) > 0) {
                M += tn_msg_len(s, v);
                unsigned d = tn_distance(t, s->root, v);
                if (d > ecc)
                    ecc = d;
            }
        b->dsum = ecc;
        b->tsum = (M + lanes - 1) / lanes;
        b->rounds = M > 0;
    } else if (s->coll == TN_ALLTOALL) {
        /* a node receives N - 1 messages through at most `lanes` ports;
         * one round may in principle carry everything (multi-message
         * streams with eject and forward) */
        b->dsum = tn_diameter(t);
        b->tsum = ((uint64_t)(t->n - 1) * s->msg_flits + lanes - 1) / lanes;
        b->rounds = t->n > 1;
    } else if (s->coll == TN_PERM) {
        /* the longest transfer crosses its distance, every message once */
        b->dsum = 0;
        b->tsum = 0;
        for (uint32_t v = 0; s->perm && v < t->n; v++)
            if (s->perm[v] != v) {
                unsigned d = tn_distance(t, v, s->perm[v]);
                b->dsum = d > b->dsum ? d : b->dsum;
                b->tsum = tn_msg_len(s, v * t->n + s->perm[v]);
            }
        b->rounds = b->dsum > 0;
    } else if (s->coll == TN_P2P) {
        /* every flit crosses the distance once */
        b->dsum = tn_distance(t, s->root, s->dst);
        b->tsum = 0;
        for (uint32_t m = 0; m < s->p2p_msgs; m++)
            b->tsum += tn_msg_len(s, m);
        b->rounds = 1;
    } else if (s->coll == TN_GOSSIP) {
        b->dsum = tn_diameter(t);
        b->tsum = ((uint64_t)(t->n - 1) * (s->parts * s->msg_flits - s->pad) + lanes - 1) / lanes;
    } else {
        unsigned ecc = 0;
        for (uint32_t v = 0; v < t->n; v++) {
            unsigned d = tn_distance(t, s->root, v);
            if (d > ecc)
                ecc = d;
        }
        b->dsum = ecc;
        b->tsum = t->n > 1 ? s->msg_flits : 0;
        /* circuits may be multicast trees: one round can reach everyone */
        b->rounds = t->n > 1;
    }
    if (t->n == 1) {
        b->rounds = 0;
        b->tsum = 0;
    }
}
