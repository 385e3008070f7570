/* SPDX-License-Identifier: MIT */
/* The verifier: checks any schedule (ours or imported) for structure, arc
 * conflicts, lane and memory limits, message possession and completeness,
 * and reports its cost against the lower bounds. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "rope.h"
#include "sched.h"
#include "tn_error.h"
#include "verify.h"

static const char *const viol_names[] = {
    [TN_V_ARC] = "bad-arc",         [TN_V_PATH] = "broken-path",
    [TN_V_EJECT] = "bad-eject",     [TN_V_LEAF] = "dangling-branch",
    [TN_V_CONFLICT] = "arc-conflict", [TN_V_LANE] = "lanes-oversubscribed",
    [TN_V_MSG] = "message-not-held", [TN_V_CONTIG] = "messages-not-contiguous",
    [TN_V_EMPTY] = "empty-circuit", [TN_V_MISSING] = "missing-delivery",
    [TN_V_MEM] = "memory-overflow", [TN_V_DURATION] = "round-too-short",
    [TN_V_SRC] = "bad-source",      [TN_V_COLLISION] = "relay-collision",
    [TN_V_BANK] = "bank-conflict",  [TN_V_DUPLICATE] = "duplicate-delivery",
    [TN_V_EXTRA] = "extra-delivery", [TN_V_STORE] = "sent-too-soon",
};

const char *tn_viol_name(int kind)
{
    if (kind < 0 || kind >= (int)(sizeof viol_names / sizeof viol_names[0]))
        return "?";
    return viol_names[kind];
}

static int add_viol(struct tn_report *rep, unsigned max, int kind, int32_t round,
                    int32_t circ, int32_t arc, int64_t node, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
static int add_viol(struct tn_report *rep, unsigned max, int kind, int32_t round,
                    int32_t circ, int32_t arc, int64_t node, const char *fmt, ...)
{
    rep->nviol++;
    if (rep->nkept >= max)
        return 0;
    if (!rep->viol) {
        rep->viol = calloc(max, sizeof *rep->viol);
        if (!rep->viol)
            return TN_ENOMEM;
    }
    struct tn_violation *v = &rep->viol[rep->nkept++];
    v->kind = kind;
    v->round = round;
    v->circuit = circ;
    v->arc = arc;
    v->node = node;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->text, sizeof v->text, fmt, ap);
    va_end(ap);
    return 0;
}

void tn_report_free(struct tn_report *rep)
{
    free(rep->viol);
    free(rep->round_dmax);
    free(rep->round_lmax);
    free(rep->round_need);
    memset(rep, 0, sizeof *rep);
}

/* ---- completeness: does a rope hold every message id 0..N-1? ---- */

static void blk_mark(const struct tn_blk *b, uint32_t off, uint32_t n, uint64_t *bits,
                     uint32_t N)
{
    while (n) {
        if (b->kind == TN_BLK_LEAF) {
            for (uint32_t i = 0; i < n; i++) {
                uint32_t id = b->u.ids[off + i];
                if (id < N)
                    bits[id >> 6] |= 1ull << (id & 63);
            }
            return;
        }
        if (b->kind == TN_BLK_SLICE) {
            off += b->off;
            b = b->u.base;
            continue;
        }
        if (b->kind == TN_BLK_STRIDE) {
            while (n) {
                uint32_t take = b->run - off % b->run < n ? b->run - off % b->run : n;
                blk_mark(b->u.base, b->off + off + off / b->run * b->skip, take, bits, N);
                off += take;
                n -= take;
            }
            return;
        }
        for (uint32_t k = 0; k < b->nk && n; k++) {
            const struct tn_blk *kid = b->u.kids[k];
            if (off >= kid->n) {
                off -= kid->n;
                continue;
            }
            uint32_t take = kid->n - off < n ? kid->n - off : n;
            blk_mark(kid, off, take, bits, N);
            n -= take;
            off = 0;
        }
        return;
    }
}

/* Large tori: a multiset hash (sum of a 64-bit mix of each id) finds a
 * range that holds exactly the N ids without expanding it; exact bitset
 * expansion remains the fallback and is the only method below
 * EXACT_LIMIT nodes. */
#define EXACT_LIMIT 20000u

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct hmemo {
    const struct tn_blk *b;
    uint64_t h;
};

struct hctx {
    struct hmemo *tab;
    size_t cap;
    struct tn_sel sel;        /* stride ropes */
};

static uint64_t blk_hash(struct hctx *hc, const struct tn_blk *b, uint32_t off, uint32_t n);

/* Stride ropes: through the memoised selection fold of sched.c. */
static uint64_t sel_range(void *ctx, struct tn_blk *b, uint32_t off, uint32_t n)
{
    return blk_hash(ctx, b, off, n);
}

static uint64_t sel_cat(void *ctx, uint64_t a, uint64_t v, uint32_t nb)
{
    (void)ctx;
    (void)nb;
    return a + v;
}

/* Messages [off, off + n) of a stride rope. */
static uint64_t stride_hash(struct hctx *hc, const struct tn_blk *b, uint32_t off, uint32_t n)
{
    return tn_sel_stride(&hc->sel, (struct tn_blk *)b, off, n);
}

static uint64_t blk_hash_whole(struct hctx *hc, const struct tn_blk *b)
{
    size_t i = (size_t)(mix64((uintptr_t)b) & (hc->cap - 1));
    while (hc->tab[i].b && hc->tab[i].b != b)
        i = (i + 1) & (hc->cap - 1);
    if (hc->tab[i].b)
        return hc->tab[i].h;
    uint64_t h = 0;
    if (b->kind == TN_BLK_LEAF) {
        for (uint32_t k = 0; k < b->n; k++)
            h += mix64(b->u.ids[k]);
    } else if (b->kind == TN_BLK_SLICE) {
        h = blk_hash(hc, b->u.base, b->off, b->n);
    } else if (b->kind == TN_BLK_STRIDE) {
        h = stride_hash(hc, b, 0, b->n);
    } else {
        for (uint32_t k = 0; k < b->nk; k++)
            h += blk_hash_whole(hc, b->u.kids[k]);
    }
    /* the table never fills: it is sized for every block (see caller) */
    i = (size_t)(mix64((uintptr_t)b) & (hc->cap - 1));
    while (hc->tab[i].b)
        i = (i + 1) & (hc->cap - 1);
    hc->tab[i].b = b;
    hc->tab[i].h = h;
    return h;
}

static uint64_t blk_hash(struct hctx *hc, const struct tn_blk *b, uint32_t off, uint32_t n)
{
    if (off == 0 && n == b->n)
        return blk_hash_whole(hc, b);
    if (b->kind == TN_BLK_LEAF) {
        uint64_t h = 0;
        for (uint32_t k = 0; k < n; k++)
            h += mix64(b->u.ids[off + k]);
        return h;
    }
    if (b->kind == TN_BLK_SLICE)
        return blk_hash(hc, b->u.base, b->off + off, n);
    uint64_t h = 0;
    if (b->kind == TN_BLK_STRIDE)
        return stride_hash(hc, b, off, n);
    for (uint32_t k = 0; k < b->nk && n; k++) {
        const struct tn_blk *kid = b->u.kids[k];
        if (off >= kid->n) {
            off -= kid->n;
            continue;
        }
        uint32_t take = kid->n - off < n ? kid->n - off : n;
        h += blk_hash(hc, kid, off, take);
        n -= take;
        off = 0;
    }
    return h;
}

static bool blk_complete(struct tn_blk *b, uint32_t N, uint64_t *bits);

static bool blk_complete_fast(struct hctx *hc, uint64_t hall, struct tn_blk *b, uint32_t N,
                              uint64_t *bits)
{
    if (b->complete >= 0 || b->n < N)
        return blk_complete(b, N, bits);
    if (b->n == N && blk_hash_whole(hc, b) == hall)
        return (b->complete = 1);
    if (b->kind == TN_BLK_CAT) {
        for (uint32_t k = 0; k < b->nk; k++)
            if (b->u.kids[k]->n >= N && blk_complete_fast(hc, hall, b->u.kids[k], N, bits))
                return (b->complete = 1);
    }
    if (blk_hash(hc, b, 0, N) == hall || blk_hash(hc, b, b->n - N, N) == hall)
        return (b->complete = 1);
    return blk_complete(b, N, bits);
}

static bool blk_complete(struct tn_blk *b, uint32_t N, uint64_t *bits)
{
    if (b->complete >= 0)
        return b->complete;
    bool ok = false;
    if (b->n >= N) {
        if (b->kind == TN_BLK_CAT) {
            for (uint32_t k = 0; k < b->nk && !ok; k++)
                if (b->u.kids[k]->n >= N)
                    ok = blk_complete(b->u.kids[k], N, bits);
        } else if (b->kind == TN_BLK_SLICE && b->off == 0 && b->n == b->u.base->n) {
            ok = blk_complete(b->u.base, N, bits);
        }
        if (!ok) {
            size_t words = ((size_t)N + 63) / 64;
            memset(bits, 0, words * sizeof *bits);
            blk_mark(b, 0, b->n, bits, N);
            ok = true;
            for (uint32_t i = 0; i < N && ok; i++)
                ok = (bits[i >> 6] >> (i & 63)) & 1;
        }
    }
    b->complete = ok;
    return ok;
}

static uint32_t first_missing(const struct tn_blk *b, uint32_t N, uint64_t *bits)
{
    memset(bits, 0, ((size_t)N + 63) / 64 * sizeof *bits);
    blk_mark(b, 0, b->n, bits, N);
    for (uint32_t i = 0; i < N; i++)
        if (!((bits[i >> 6] >> (i & 63)) & 1))
            return i;
    return N;
}

/* ---- the checks ---- */

struct occ {
    uint64_t arc, lo, hi;     /* arc id, cycles it is held (after the switch) */
    uint32_t idx, hop;
};

/* A relay packet's use of a lane: [lo, hi) cycles after the switch. */
struct rlane {
    uint32_t node;
    uint64_t lo, hi;
    int ej;                   /* 0 inject (src), 1 eject (dst) */
};

static int cmp_rlane(const void *a, const void *b)
{
    const struct rlane *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    if (x->ej != y->ej)
        return x->ej - y->ej;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int cmp_occ(const void *a, const void *b)
{
    const struct occ *x = a, *y = b;
    if (x->arc != y->arc)
        return x->arc < y->arc ? -1 : 1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

struct used_arc {
    uint32_t round_tag;       /* round + 1 */
    uint32_t circ;
};

/* Marking a memory's ids in a bitmap: those that an all-to-all delivers
 * to node v (s * N + v, bit s), or (v == UINT32_MAX) those below N (bit
 * id: a gather's messages). */
struct id_marks {
    uint32_t N, v;
    uint64_t *bits;
};

static bool mark_ids(void *ctx, const uint32_t *ids, uint32_t k)
{
    const struct id_marks *x = ctx;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t bit = x->v == UINT32_MAX ? ids[i] : ids[i] / x->N;
        if (x->v == UINT32_MAX ? ids[i] < x->N : ids[i] % x->N == x->v)
            x->bits[bit >> 6] |= 1ull << (bit & 63);
    }
    return true;
}

static void mark_memory(const struct tn_blk *b, uint32_t N, uint32_t v, uint64_t *bits)
{
    struct id_marks x = {N, v, bits};
    memset(bits, 0, ((size_t)N + 63) / 64 * sizeof *bits);
    tn_blk_each(b, 0, b->n, mark_ids, &x);
}

static bool lacks_id(void *ctx, const uint32_t *ids, uint32_t k)
{
    const uint32_t *id = ctx;
    for (uint32_t i = 0; i < k; i++)
        if (ids[i] == *id)
            return false;
    return true;
}

static bool blk_holds(const struct tn_blk *b, uint32_t id)
{
    return !tn_blk_each(b, 0, b->n, lacks_id, &id);
}

/* The words of a memory's messages (variable lengths). */
struct len_sum {
    const uint32_t *msg_len;
    uint64_t words;
};

static bool add_lens(void *ctx, const uint32_t *ids, uint32_t k)
{
    struct len_sum *x = ctx;
    for (uint32_t i = 0; i < k; i++)
        x->words += x->msg_len[ids[i]];
    return true;
}

/* Does node v, holding m at the end, hold what the collective requires?
 * Costs O(|m|) per node, plus O(N) for a gather's root and for a node
 * whose memory could be complete, so that a file asking for a large torus
 * with few messages stays cheap. *miss gets a message v lacks only when
 * want_miss (it costs a pass over the N ids). */
static bool node_complete(const struct tn_sched *s, uint32_t v, struct tn_blk *m,
                          struct hctx *hc, uint64_t hall, uint64_t *bits, bool want_miss,
                          uint32_t *miss)
{
    uint32_t N = s->topo.n;
    switch (s->coll) {
    case TN_SCATTER:
        /* v holds message v; null messages need not travel */
        *miss = v;
        return v == s->root || tn_msg_len(s, v) == 0 || blk_holds(m, v);
    case TN_GATHER:
        /* the root holds every u != root (null messages need not travel) */
        if (v != s->root)
            return true;
        mark_memory(m, N, UINT32_MAX, bits);
        for (uint32_t u = 0; u < N; u++)
            if (u != s->root && tn_msg_len(s, u) > 0 && !((bits[u >> 6] >> (u & 63)) & 1)) {
                *miss = u;
                return false;
            }
        return true;
    case TN_ALLTOALL:
        /* v holds s * N + v from every s != v: N - 1 messages at least */
        if (m->n + 1 < N && !want_miss)
            return false;
        mark_memory(m, N, v, bits);
        for (uint32_t src = 0; src < N; src++)
            if (src != v && !((bits[src >> 6] >> (src & 63)) & 1)) {
                *miss = src * N + v;
                return false;
            }
        return true;
    case TN_GOSSIP: {
        /* every part of every node's message */
        uint32_t n = tn_sched_nids(s);
        bool ok = hc->tab ? blk_complete_fast(hc, hall, m, n, bits) : blk_complete(m, n, bits);
        if (!ok && want_miss)
            *miss = first_missing(m, n, bits);
        return ok;
    }
    case TN_PERM: {
        /* v holds the message of the node that sends to it */
        uint32_t u = s->perm_src ? s->perm_src[v] : v;
        *miss = u * N + v;
        return u == v || blk_holds(m, u * N + v);
    }
    case TN_P2P:
        /* the destination holds the transfer's messages 0 .. p2p_msgs - 1 */
        if (v != s->dst)
            return true;
        for (uint32_t id = 0; id < s->p2p_msgs; id++)
            if (!blk_holds(m, id)) {
                *miss = id;
                return false;
            }
        return true;
    default:
        return blk_holds(m, s->root);
    }
}

/* A relay collision that o lets through: counted, true. */
static bool meet_ok(const struct tn_verify_opts *o, struct tn_report *rep)
{
    if (o->relay_meets_ok)
        rep->relay_meets++;
    return o->relay_meets_ok;
}

/* ---- deliveries of personalised collectives ---- */

/* Where message m must end: its one destination, or UINT32_MAX when the
 * collective is not personalised (every node, or the gather's root, which
 * may collect through other nodes). */
static uint32_t msg_dest(const struct tn_sched *s, uint32_t m)
{
    switch (s->coll) {
    case TN_ALLTOALL:
    case TN_PERM:
        return m % s->topo.n;
    case TN_SCATTER:
        return m;
    case TN_P2P:
        return s->dst;
    default:
        return UINT32_MAX;
    }
}

/* A message sent (or delivered) by node in round, sorted by message. */
struct dev_event {
    uint32_t msg, round, node;
    uint8_t delivery;
};

static int cmp_event(const void *a, const void *b)
{
    const struct dev_event *x = a, *y = b;
    if (x->msg != y->msg)
        return x->msg < y->msg ? -1 : 1;
    if (x->round != y->round)
        return x->round < y->round ? -1 : 1;
    if (x->delivery != y->delivery)
        return x->delivery < y->delivery ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

struct events {
    struct dev_event *v;
    size_t n, cap;
};

static int add_event(struct events *ev, uint32_t msg, uint32_t round, uint32_t node, bool deliv)
{
    if (ev->n == ev->cap) {
        size_t cap = ev->cap ? 2 * ev->cap : 1024;
        struct dev_event *v = realloc(ev->v, cap * sizeof *v);
        if (!v)
            return TN_ENOMEM;
        ev->v = v;
        ev->cap = cap;
    }
    ev->v[ev->n++] = (struct dev_event){msg, round, node, deliv};
    return 0;
}

/* Every send and delivery of a stream's messages. */
static int stream_events(struct events *ev, const struct tn_blk *stream, uint32_t round,
                         uint32_t src, const uint32_t *dst, uint32_t ndst)
{
    int rc = 0;
    for (uint32_t i = 0; stream && i < stream->n && !rc; i++) {
        uint32_t m = tn_blk_get(stream, i);
        rc = add_event(ev, m, round, src, false);
        for (uint32_t k = 0; k < ndst && !rc; k++)
            rc = add_event(ev, m, round, dst[k], true);
    }
    return rc;
}

/* Personalised collectives: each message reaches its destination once, and
 * a node that receives a message for another node sends it on in a later
 * round (store and forward); violations name node, round and message.
 * 0 or TN_ENOMEM. */
static int check_deliveries(const struct tn_sched *s, struct tn_report *rep, unsigned max)
{
    struct events ev = {NULL, 0, 0};
    int rc = 0;
    if (msg_dest(s, 0) == UINT32_MAX)
        return 0;
    for (uint32_t r = 0; r < s->nrounds && !rc; r++) {
        const struct tn_round *rd = &s->rounds[r];
        for (uint32_t i = 0; i < rd->ncirc && !rc; i++)
            rc = stream_events(&ev, rd->circ[i].stream, r, rd->circ[i].src, rd->circ[i].eject,
                               rd->circ[i].nej);
        for (uint32_t i = 0; i < rd->nrelay && !rc; i++)
            rc = stream_events(&ev, rd->relay[i].stream, r, rd->relay[i].src, &rd->relay[i].dst,
                               1);
    }
    if (ev.n > 1)
        qsort(ev.v, ev.n, sizeof *ev.v, cmp_event);
    for (size_t a = 0, b; a < ev.n && !rc; a = b) {
        uint32_t m = ev.v[a].msg, dest = msg_dest(s, m), first = UINT32_MAX;
        for (b = a; b < ev.n && ev.v[b].msg == m; b++) {
            const struct dev_event *e = &ev.v[b];
            if (!e->delivery)
                continue;
            if (e->node == dest && first == UINT32_MAX) {
                first = e->round;
            } else if (e->node == dest) {
                rc = add_viol(rep, max, TN_V_DUPLICATE, (int32_t)e->round, -1, -1, e->node,
                              "node %u receives message %u again in round %u (first in round "
                              "%u)", e->node, m, e->round + 1, first + 1);
            } else {
                bool sent_on = false;
                for (size_t k = b + 1; k < ev.n && ev.v[k].msg == m && !sent_on; k++)
                    sent_on = !ev.v[k].delivery && ev.v[k].node == e->node &&
                              ev.v[k].round > e->round;
                if (!sent_on)
                    rc = add_viol(rep, max, TN_V_EXTRA, (int32_t)e->round, -1, -1, e->node,
                                  "node %u receives message %u (for node %u) in round %u and "
                                  "never sends it on", e->node, m, dest, e->round + 1);
            }
        }
    }
    free(ev.v);
    return rc;
}

/* The verifier's state: the schedule, the report, and per-round scratch. */
struct vctx {
    struct tn_sched *s;
    const struct tn_verify_opts *o;
    struct tn_report *rep;
    unsigned max, lanes;
    uint32_t N;
    struct used_arc *used;    /* per arc: the circuit holding it this round */
    /* streams injected and ejected per node in a round: up to a round's
     * circuit count (65,537 from one node once wrapped 16-bit counters) */
    uint32_t *ninj, *nej, *touched, ntouched;
    uint32_t *head, wcap;     /* a circuit's walk: head, depth, flag per arc */
    struct tn_arc *route;     /* a relay stream's DOR route */
    uint32_t route_cap;
    struct occ *occ;          /* the round's relay arc occupations */
    uint32_t nocc, occ_cap;
    struct rlane *rl;         /* the round's relay lane uses */
    uint32_t nrl, rl_cap;
    uint64_t need;            /* the round's longest start + depth + flits */
};

/* Note that node v injects or ejects this round (for the lane check). */
static void touch(struct vctx *vx, uint32_t v)
{
    if (vx->ninj[v] == 0 && vx->nej[v] == 0)
        vx->touched[vx->ntouched++] = v;
}

/* A stream of round r, its deepest delivery depth hops away and flits
 * long from start on, in the round's figures. */
static void note_stream(struct vctx *vx, uint32_t r, uint64_t depth, uint64_t start,
                        uint64_t flits)
{
    struct tn_report *rep = vx->rep;
    if (depth > rep->round_dmax[r])
        rep->round_dmax[r] = (uint32_t)depth;
    if (start + flits > rep->round_lmax[r])
        rep->round_lmax[r] = start + flits;
    if (start + depth + flits > vx->need)
        vx->need = start + depth + flits;
}

/* A circuit's source and messages; *skip when its source is out of range.
 * 0, or TN_ENOMEM (the report's). */
static int check_circuit_msgs(struct vctx *vx, uint32_t r, uint32_t ci, bool *skip)
{
    const struct tn_circuit *c = &vx->s->rounds[r].circ[ci];
    struct tn_report *rep = vx->rep;
    int32_t R = (int32_t)r, C = (int32_t)ci;
    *skip = c->src >= vx->N;
    if (*skip)
        return add_viol(rep, vx->max, TN_V_SRC, R, C, -1, c->src,
                        "source node %u out of range (0..%u)", c->src, vx->N - 1);
    if ((c->narcs == 0 || c->nej == 0 || !c->stream || c->stream->n == 0) && c->msg_bad == -1 &&
        add_viol(rep, vx->max, TN_V_EMPTY, R, C, -1, c->src, "circuit from node %u has no %s",
                 c->src, c->narcs == 0 ? "arcs" : c->nej == 0 ? "ejecting node" : "messages"))
        return TN_ENOMEM;
    if (c->msg_bad >= 0)
        return add_viol(rep, vx->max, TN_V_MSG, R, C, -1, c->src,
                        "node %u sends message %d it does not hold", c->src, c->msg_bad);
    if (c->msg_bad == -2)
        return add_viol(rep, vx->max, TN_V_MSG, R, C, -1, c->src,
                        "node %u sends messages %u..%u of its memory but holds %u", c->src,
                        c->moff, c->moff + c->mcnt - 1,
                        vx->s->st->mem[(size_t)r * vx->N + c->src]->n);
    if (c->msg_noncontig)
        return add_viol(rep, vx->max, TN_V_CONTIG, R, C, -1, c->src,
                        "messages are not one contiguous run of node %u's memory "
                        "(layout: docs/schedule-format.md)", c->src);
    return 0;
}

/* A circuit's arcs: existence, connection, no node entered twice, one
 * circuit per output port and round. Records the walk (head, depth) and
 * the nodes entered (pos[] of the schedule's scratch, *nset of them in
 * head[]); *walk_ok when every arc is sound. 0 or TN_ENOMEM. */
static int walk_arcs(struct vctx *vx, uint32_t r, uint32_t ci, bool *walk_ok, uint32_t *nset)
{
    const struct tn_circuit *c = &vx->s->rounds[r].circ[ci];
    const struct tn_topo *t = &vx->s->topo;
    uint32_t *head = vx->head, *depth = head + vx->wcap, *flag = head + 2 * vx->wcap;
    int32_t *pos = vx->s->st->scratch;  /* node -> arc entering it */
    int32_t R = (int32_t)r, C = (int32_t)ci;
    *walk_ok = true;
    for (uint32_t i = 0; i < c->narcs; i++) {
        const struct tn_arc *a = &c->arcs[i];
        int32_t A = (int32_t)i;
        head[i] = UINT32_MAX;
        flag[i] = 0;
        if (a->node >= vx->N || !tn_dir_exists(t, a->dir)) {
            *walk_ok = false;
            if (add_viol(vx->rep, vx->max, TN_V_ARC, R, C, A, a->node,
                         a->node >= vx->N ? "arc from node %u: node out of range"
                                          : "arc from node %u: no link in direction %s",
                         a->node, tn_dir_name(a->dir)))
                return TN_ENOMEM;
            continue;
        }
        uint32_t h = tn_neighbor(t, a->node, a->dir), j = UINT32_MAX;
        if (a->node != c->src && pos[a->node] >= 0) {
            j = (uint32_t)pos[a->node];
        } else if (a->node != c->src) {
            *walk_ok = false;
            if (add_viol(vx->rep, vx->max, TN_V_PATH, R, C, A, a->node,
                         "arc %u %s starts at node %u, which the circuit from %u has not "
                         "reached", a->node, tn_dir_name(a->dir), a->node, c->src))
                return TN_ENOMEM;
        }
        if (h == c->src || pos[h] >= 0) {
            *walk_ok = false;
            if (add_viol(vx->rep, vx->max, TN_V_PATH, R, C, A, h, "circuit enters node %u twice",
                         h))
                return TN_ENOMEM;
        } else {
            pos[h] = A;
            head[(*nset)++] = h;
        }
        depth[i] = j == UINT32_MAX ? 1 : depth[j] + 1;
        /* arc conflicts: an output port has one source per round */
        struct used_arc *u = &vx->used[(size_t)a->node * TN_NDIRS + a->dir];
        if (u->round_tag == r + 1) {
            if (add_viol(vx->rep, vx->max, TN_V_CONFLICT, R, C, A, a->node,
                         "arc %u %s already used by circuit %u of this round", a->node,
                         tn_dir_name(a->dir), u->circ))
                return TN_ENOMEM;
        } else {
            u->round_tag = r + 1;
            u->circ = ci;
        }
    }
    return 0;
}

/* Ejecting nodes on the circuit, each once, and (walk_ok) every leaf
 * ejects (flag bit 0: the arc leads to an ejecting node, bit 1: to a node
 * the circuit leaves again). The deepest ejecting node's depth in *dmax.
 * 0 or TN_ENOMEM. */
static int check_ejects(struct vctx *vx, uint32_t r, uint32_t ci, bool walk_ok, unsigned *dmax)
{
    const struct tn_circuit *c = &vx->s->rounds[r].circ[ci];
    const struct tn_topo *t = &vx->s->topo;
    uint32_t *depth = vx->head + vx->wcap, *flag = vx->head + 2 * vx->wcap;
    const int32_t *pos = vx->s->st->scratch;
    int32_t R = (int32_t)r, C = (int32_t)ci;
    *dmax = 0;
    for (uint32_t e = 0; e < c->nej; e++) {
        uint32_t v = c->eject[e];
        int32_t i = v < vx->N ? pos[v] : -1;
        bool dup = i >= 0 && (flag[i] & 1);
        if (v >= vx->N || dup || i < 0) {
            if (add_viol(vx->rep, vx->max, TN_V_EJECT, R, C, -1, v,
                         dup ? "node %u ejects twice" : v >= vx->N
                             ? "ejecting node %u out of range"
                             : "ejecting node %u is not on the circuit", v))
                return TN_ENOMEM;
            continue;
        }
        flag[i] |= 1;
        if (depth[i] > *dmax)
            *dmax = depth[i];
        touch(vx, v);
        vx->nej[v]++;
    }
    if (!walk_ok)
        return 0;
    for (uint32_t i = 0; i < c->narcs; i++)
        if (c->arcs[i].node != c->src)
            flag[pos[c->arcs[i].node]] |= 2;
    for (uint32_t i = 0; i < c->narcs; i++) {
        uint32_t h = tn_neighbor(t, c->arcs[i].node, c->arcs[i].dir);
        if (!flag[i] && add_viol(vx->rep, vx->max, TN_V_LEAF, R, C, (int32_t)i, h,
                                 "branch ends at node %u, which does not eject", h))
            return TN_ENOMEM;
    }
    return 0;
}

/* One circuit of round r: messages, arcs, ejections; the round's figures.
 * 0 or TN_ENOMEM. */
static int verify_circuit(struct vctx *vx, uint32_t r, uint32_t ci)
{
    const struct tn_circuit *c = &vx->s->rounds[r].circ[ci];
    bool skip, walk_ok = false;
    int rc = check_circuit_msgs(vx, r, ci, &skip);
    if (rc || skip)
        return rc;
    if (c->narcs > vx->wcap) {
        uint32_t *h = realloc(vx->head, 3 * (size_t)c->narcs * sizeof *h);
        if (!h)
            return TN_ENOMEM;
        vx->head = h;
        vx->wcap = c->narcs;
    }
    uint32_t nset = 0;
    unsigned dmax = 0;
    rc = walk_arcs(vx, r, ci, &walk_ok, &nset);
    if (rc == 0)
        rc = check_ejects(vx, r, ci, walk_ok, &dmax);
    for (uint32_t k = 0; k < nset; k++)
        vx->s->st->scratch[vx->head[k]] = -1;
    if (rc)
        return rc;
    touch(vx, c->src);
    vx->ninj[c->src]++;
    note_stream(vx, r, dmax, c->start, tn_circuit_flits(vx->s, c));
    return 0;
}

/* Room for n more entries of *a (cap *cap, each size bytes). */
static int room(void **a, uint32_t *cap, uint32_t used, uint32_t n, size_t size)
{
    if (used + n <= *cap)
        return 0;
    uint32_t c = 2 * (used + n);
    void *x = realloc(*a, (size_t)c * size);
    if (!x)
        return TN_ENOMEM;
    *a = x;
    *cap = c;
    return 0;
}

/* One relay stream of round r: nodes, messages, its route against the
 * round's circuits; its arc occupations and lane uses kept for the
 * round's checks. 0 or TN_ENOMEM. */
static int verify_relay(struct vctx *vx, uint32_t r, uint32_t i)
{
    const struct tn_relay *x = &vx->s->rounds[r].relay[i];
    const struct tn_topo *t = &vx->s->topo;
    struct tn_report *rep = vx->rep;
    int32_t R = (int32_t)r, I = (int32_t)i;
    if (x->src >= vx->N || x->dst >= vx->N || x->src == x->dst)
        return add_viol(rep, vx->max, TN_V_SRC, R, I, -1, x->src,
                        "relay stream %u: source %u, destination %u (need two distinct nodes "
                        "of 0..%u)", i, x->src, x->dst, vx->N - 1);
    if ((x->msg_bad >= 0 || x->msg_bad == -2)
            ? add_viol(rep, vx->max, TN_V_MSG, R, I, -1, x->src,
                       "relay stream %u: node %u sends messages it does not hold", i, x->src)
        : x->msg_noncontig
            ? add_viol(rep, vx->max, TN_V_CONTIG, R, I, -1, x->src,
                       "relay stream %u: messages not contiguous in node %u's memory", i,
                       x->src)
        : (!x->stream || (x->stream->n == 0 && !x->words))
            ? add_viol(rep, vx->max, TN_V_EMPTY, R, I, -1, x->src,
                       "relay stream %u carries no messages", i)
            : 0)
        return TN_ENOMEM;
    if (x->tree > TN_NDIRS)
        return add_viol(rep, vx->max, TN_V_SRC, R, I, -1, x->src,
                        "relay stream %u: tree %u (0 for DOR, 1..6 for a six tree)", i, x->tree);
    uint64_t flits = tn_relay_flits(vx->s, x);
    /* a route (DOR or tree) has fewer hops than the rings' sizes summed */
    unsigned most = t->dim[0] + t->dim[1] + t->dim[2];
    if (room((void **)&vx->route, &vx->route_cap, 0, most, sizeof *vx->route))
        return TN_ENOMEM;
    unsigned d = tn_relay_path(t, x, vx->route, vx->route_cap);
    if (room((void **)&vx->occ, &vx->occ_cap, vx->nocc, d, sizeof *vx->occ) ||
        room((void **)&vx->rl, &vx->rl_cap, 2 * vx->nrl, 2, sizeof *vx->rl))
        return TN_ENOMEM;
    for (unsigned h = 0; h < d; h++) {
        const struct tn_arc *a = &vx->route[h];
        const struct used_arc *u = &vx->used[(size_t)a->node * TN_NDIRS + a->dir];
        if (u->round_tag == r + 1 && !meet_ok(vx->o, rep) &&
            add_viol(rep, vx->max, TN_V_COLLISION, R, I, (int32_t)h, a->node,
                     "relay stream %u needs arc %u %s, held by circuit %u for the round", i,
                     a->node, tn_dir_name(a->dir), u->circ))
            return TN_ENOMEM;
        vx->occ[vx->nocc++] = (struct occ){(uint64_t)a->node * TN_NDIRS + a->dir,
                                           x->start + h + 1, x->start + h + flits, i, h};
    }
    if (flits > 0) {
        /* injection [start, start + flits), ejection [start + d, ...) */
        vx->rl[2 * vx->nrl] = (struct rlane){x->src, x->start, x->start + flits, 0};
        vx->rl[2 * vx->nrl + 1] = (struct rlane){x->dst, x->start + d, x->start + d + flits, 1};
        vx->nrl++;
    }
    note_stream(vx, r, d, x->start, flits);
    return 0;
}

/* The round's relay lanes: an inject lane sends its chains (packets back
 * to back) one after the other, a relay eject lane holds a packet from
 * head to tail (lowest free lane first): a lane is free again once its
 * last packet has ended. */
static void count_relay_lanes(struct vctx *vx)
{
    struct rlane *rl = vx->rl;
    uint32_t n = 2 * vx->nrl;
    qsort(rl, n, sizeof *rl, cmp_rlane);
    for (uint32_t a = 0, b; a < n; a = b) {
        uint64_t end[64];
        unsigned nl = 0;
        for (b = a; b < n && rl[b].node == rl[a].node && rl[b].ej == rl[a].ej; b++) {
            unsigned l = 0;
            while (l < nl && end[l] > rl[b].lo)
                l++;
            if (l == nl && nl < 64)
                nl++;
            if (l < 64)
                end[l] = rl[b].hi;
        }
        touch(vx, rl[a].node);
        if (rl[a].ej)
            vx->nej[rl[a].node] += nl;
        else
            vx->ninj[rl[a].node] += nl;
    }
    vx->nrl = 0;
}

/* After a round's streams: relay meetings, lanes per node, the duration.
 * 0 or TN_ENOMEM. */
static int finish_round(struct vctx *vx, uint32_t r)
{
    struct tn_report *rep = vx->rep;
    const struct tn_round *rd = &vx->s->rounds[r];
    if (vx->nocc > 1)
        qsort(vx->occ, vx->nocc, sizeof *vx->occ, cmp_occ);
    for (uint32_t k = 1; k < vx->nocc; k++) {
        const struct occ *a = &vx->occ[k - 1], *b = &vx->occ[k];
        if (a->arc == b->arc && b->lo <= a->hi && !meet_ok(vx->o, rep) &&
            add_viol(rep, vx->max, TN_V_COLLISION, (int32_t)r, (int32_t)b->idx,
                     (int32_t)b->hop, (int64_t)(b->arc / TN_NDIRS),
                     "relay streams %u and %u meet on arc %llu %s in cycle %llu after the "
                     "switch", a->idx, b->idx, (unsigned long long)(b->arc / TN_NDIRS),
                     tn_dir_name((int)(b->arc % TN_NDIRS)), (unsigned long long)b->lo))
            return TN_ENOMEM;
    }
    vx->nocc = 0;
    for (uint32_t k = 0; k < vx->ntouched; k++) {
        uint32_t v = vx->touched[k];
        const char *what[2] = {"injects", "ejects"};
        uint32_t got[2] = {vx->ninj[v], vx->nej[v]};
        for (int j = 0; j < 2; j++)
            if (got[j] > vx->lanes &&
                add_viol(rep, vx->max, TN_V_LANE, (int32_t)r, -1, -1, v,
                         "node %u %s %u streams with %u lane%s", v, what[j], got[j], vx->lanes,
                         vx->lanes == 1 ? "" : "s"))
                return TN_ENOMEM;
        vx->ninj[v] = vx->nej[v] = 0;
    }
    vx->ntouched = 0;
    rep->round_need[r] = vx->need;
    if (rd->duration < vx->s->alpha + vx->need &&
        add_viol(rep, vx->max, TN_V_DURATION, (int32_t)r, -1, -1, -1,
                 "round lasts %llu cycles, its streams need %llu (alpha %u)",
                 (unsigned long long)rd->duration,
                 (unsigned long long)(vx->s->alpha + vx->need), vx->s->alpha))
        return TN_ENOMEM;
    vx->need = 0;
    return 0;
}

/* Memory and completeness at the end, node by node. 0 or TN_ENOMEM. */
static int check_end(struct vctx *vx)
{
    struct tn_sched *s = vx->s;
    struct tn_report *rep = vx->rep;
    uint32_t N = vx->N, nids = s->coll == TN_GOSSIP ? tn_sched_nids(s) : N;
    struct tn_blk **fin = s->st->mem + (size_t)s->nrounds * N;
    struct hctx hc = {NULL, 0, {0}};
    hc.sel.range = sel_range;
    hc.sel.cat = sel_cat;
    hc.sel.ctx = &hc;
    uint64_t hall = 0, *bits = malloc(((size_t)(nids > N ? nids : N) + 63) / 64 * sizeof *bits);
    int rc = bits ? 0 : TN_ENOMEM;
    if (rc == 0 && N > EXACT_LIMIT && s->coll == TN_GOSSIP) {
        size_t nblk = (size_t)N * (s->nrounds + 1);
        for (uint32_t r = 0; r < s->nrounds; r++)
            nblk += s->rounds[r].ncirc;
        hc.cap = 1;
        while (hc.cap < 2 * nblk)
            hc.cap <<= 1;
        hc.tab = calloc(hc.cap, sizeof *hc.tab);
        rc = hc.tab ? 0 : TN_ENOMEM;
        for (uint32_t i = 0; i < nids; i++)
            hall += mix64(i);
    }
    for (uint32_t v = 0; v < N && rc == 0; v++) {
        uint64_t words = (uint64_t)fin[v]->n * s->msg_flits;
        if (s->msg_len) {
            struct len_sum x = {s->msg_len, 0};
            tn_blk_each(fin[v], 0, fin[v]->n, add_lens, &x);
            words = x.words;
        }
        if (words > rep->mem_max_words)
            rep->mem_max_words = words;
        if (vx->o->mem_depth && words > vx->o->mem_depth &&
            add_viol(rep, vx->max, TN_V_MEM, -1, -1, -1, v,
                     "node %u needs %llu memory words, MEM_DEPTH is %llu", v,
                     (unsigned long long)words, (unsigned long long)vx->o->mem_depth))
            rc = TN_ENOMEM;
        uint32_t miss = s->root;
        bool ok = rc == 0 && node_complete(s, v, fin[v], &hc, hall, bits, rep->nkept < vx->max,
                                           &miss);
        if (ok)
            rep->complete_nodes++;
        else if (rc == 0 && (s->coll == TN_GOSSIP && s->parts > 1
                     ? add_viol(rep, vx->max, TN_V_MISSING, -1, -1, -1, v,
                                "node %u never receives part %u of node %u's message", v,
                                miss % s->parts, miss / s->parts)
                     : add_viol(rep, vx->max, TN_V_MISSING, -1, -1, -1, v,
                                "node %u never receives message %u", v, miss)))
            rc = TN_ENOMEM;
    }
    free(bits);
    free(hc.tab);
    tn_sel_free(&hc.sel);
    return rc;
}

int tn_verify(struct tn_sched *s, const struct tn_verify_opts *o, struct tn_report *rep)
{
    static const struct tn_verify_opts defaults = {0, 0, 0, false};
    if (!o)
        o = &defaults;
    memset(rep, 0, sizeof *rep);
    if (!s->st->laid_out && tn_sched_layout(s) != 0)
        return TN_ENOMEM;
    uint32_t N = s->topo.n;
    struct vctx vx = {.s = s, .o = o, .rep = rep, .N = N,
                      .max = o->max_report ? o->max_report : 100,
                      .lanes = o->lanes ? o->lanes : s->ports, .wcap = 64};
    vx.used = calloc((size_t)N * TN_NDIRS, sizeof *vx.used);
    vx.ninj = calloc(N, sizeof *vx.ninj);
    vx.nej = calloc(N, sizeof *vx.nej);
    vx.touched = malloc((size_t)N * sizeof *vx.touched);
    vx.head = malloc(3 * (size_t)vx.wcap * sizeof *vx.head);
    rep->round_dmax = calloc(s->nrounds + 1, sizeof *rep->round_dmax);
    rep->round_lmax = calloc(s->nrounds + 1, sizeof *rep->round_lmax);
    rep->round_need = calloc(s->nrounds + 1, sizeof *rep->round_need);
    int rc = vx.used && vx.ninj && vx.nej && vx.touched && vx.head && rep->round_dmax &&
             rep->round_lmax && rep->round_need ? 0 : TN_ENOMEM;
    for (uint32_t r = 0; r < s->nrounds && rc == 0; r++) {
        const struct tn_round *rd = &s->rounds[r];
        for (uint32_t ci = 0; ci < rd->ncirc && rc == 0; ci++)
            rc = verify_circuit(&vx, r, ci);
        for (uint32_t i = 0; i < rd->nrelay && rc == 0; i++)
            rc = verify_relay(&vx, r, i);
        if (rc == 0 && vx.nrl)
            count_relay_lanes(&vx);
        if (rc == 0)
            rc = finish_round(&vx, r);
    }
    if (rc == 0)
        rc = check_end(&vx);
    if (rc == 0)
        rc = check_deliveries(s, rep, vx.max);
    if (rc == 0) {
        tn_sched_cost(s, s->alpha, &rep->cost);
        tn_sched_bounds(s, &rep->bounds);
        rc = rep->nviol ? TN_EVERIFY : 0;
    }
    free(vx.used);
    free(vx.ninj);
    free(vx.nej);
    free(vx.touched);
    free(vx.head);
    free(vx.route);
    free(vx.occ);
    free(vx.rl);
    if (rc == TN_ENOMEM)
        tn_report_free(rep);
    return rc;
}

void tn_report_print(FILE *f, const struct tn_sched *s, const struct tn_report *rep,
                     unsigned alpha, unsigned max_viol)
{
    char dims[48];
    tn_topo_format(&s->topo, dims, sizeof dims);
    uint32_t L = s->msg_flits * s->parts;
    fprintf(f, "%s on %s (%u nodes), algorithm %s, %u flit%s per message", tn_coll_name(s->coll),
            dims, s->topo.n, s->algo[0] ? s->algo : "(unnamed)", L, L == 1 ? "" : "s");
    if (s->parts > 1)
        fprintf(f, " (%u parts of %u", s->parts, s->msg_flits);
    if (s->parts > 1 && s->pad)
        fprintf(f, ", %u of them padding", s->pad);
    if (s->parts > 1)
        fprintf(f, ")");
    fprintf(f, ", %s\n", s->ports == 1 ? "single-port (1 lane)" : "all-port (6 lanes)");
    if (s->coll == TN_BROADCAST)
        fprintf(f, "root %u\n", s->root);
    fprintf(f, "round  circuits  longest-path  longest-stream  cycles\n");
    uint64_t total = 0;
    for (uint32_t r = 0; r < s->nrounds; r++) {
        uint64_t d = alpha + rep->round_need[r];
        total += d;
        fprintf(f, "%5u  %8u  %12u  %14llu  %6llu\n", r + 1, s->rounds[r].ncirc, rep->round_dmax[r],
                (unsigned long long)rep->round_lmax[r], (unsigned long long)d);
    }
    fprintf(f, "rounds %u (lower bound %u)\n", rep->cost.rounds, rep->bounds.rounds);
    fprintf(f, "switch settings (delta sum) %llu (lower bound %llu)\n",
            (unsigned long long)rep->cost.dsum, (unsigned long long)rep->bounds.dsum);
    fprintf(f, "stream flits (tau sum) %llu (lower bound %llu)\n",
            (unsigned long long)rep->cost.tsum, (unsigned long long)rep->bounds.tsum);
    fprintf(f, "predicted cycles %llu at alpha %u\n", (unsigned long long)total, alpha);
    fprintf(f, "memory per node at most %llu word%s\n", (unsigned long long)rep->mem_max_words,
            rep->mem_max_words == 1 ? "" : "s");
    fprintf(f, "complete nodes %u of %u, violations %u\n", rep->complete_nodes, s->topo.n,
            rep->nviol);
    for (uint32_t i = 0; i < rep->nkept && i < max_viol; i++) {
        const struct tn_violation *v = &rep->viol[i];
        fprintf(f, "violation %s:", tn_viol_name(v->kind));
        if (v->round >= 0)
            fprintf(f, " round %d", v->round + 1);
        if (v->circuit >= 0)
            fprintf(f, " circuit %d", v->circuit);
        if (v->arc >= 0)
            fprintf(f, " arc %d", v->arc);
        if (v->node >= 0)
            fprintf(f, " node %lld", (long long)v->node);
        fprintf(f, ": %s\n", v->text);
    }
    if (rep->nviol > rep->nkept || rep->nkept > max_viol)
        fprintf(f, "(%u more violations not shown)\n",
                rep->nviol - (rep->nkept < max_viol ? rep->nkept : max_viol));
}

/* ---- plan check ---- */

#define PLAN_VIOL_MAX 100 /* violations a plan check keeps */

/* What the plan check knows of the round being checked: which (node,
 * lane) has an inject and an eject descriptor (>= 0). */
struct plan_chk {
    const struct tn_plan *p;
    struct tn_report *rep;
    uint64_t depth; /* MEM_DEPTH, UINT64_MAX when unknown */
    int8_t *inj, *ej;
};

/* Does a relay descriptor of node v in round pr send its heads to a
 * relay output: hop a direction whose link exists and whose select is
 * relay, or TN_HOP_HERE with a relay eject lane at v? */
static bool hop_relays(const struct tn_plan *p, const struct tn_plan_round *pr, uint32_t v,
                       unsigned hop)
{
    const uint8_t *x = &pr->xbar[(size_t)v * 12];
    if (hop < TN_NDIRS)
        return tn_dir_exists(&p->topo, (int)hop) && x[hop] == TN_SEL_RELAY;
    if (hop != TN_HOP_HERE)
        return false;
    for (unsigned l = 0; l < p->par.lanes && l < TN_NDIRS; l++)
        if (x[6 + l] == TN_SEL_RELAY)
            return true;
    return false;
}

/* Inject descriptor i of round r: on a lane that exists, after the one
 * before it on its lane, its words held (or staged, for relay; a relay
 * descriptor's heads leave by a relay output). 0 or TN_ENOMEM. */
static int check_inject(struct plan_chk *k, uint32_t r, uint32_t i)
{
    const struct tn_plan *p = k->p;
    const struct tn_inject *in = &p->rounds[r].inj[i], *prev = i ? in - 1 : NULL;
    int32_t R = (int32_t)r, C = (int32_t)in->circuit;
    unsigned lanes = p->par.lanes;
    if (in->node >= p->topo.n || in->lane >= lanes)
        return add_viol(k->rep, PLAN_VIOL_MAX, TN_V_LANE, R, C, -1, in->node,
                        "inject descriptor on lane %u of node %u (LANES %u)", in->lane,
                        in->node, lanes);
    /* a lane's descriptors of a round: a chain, in start order */
    if (prev && prev->node == in->node && prev->lane == in->lane &&
        (uint64_t)prev->start + prev->len > in->start &&
        add_viol(k->rep, PLAN_VIOL_MAX, TN_V_LANE, R, C, -1, in->node,
                 "node %u lane %u: an inject descriptor starts at %u, before the one "
                 "before it ends (%llu)", in->node, in->lane, in->start,
                 (unsigned long long)prev->start + prev->len))
        return TN_ENOMEM;
    k->inj[in->node * TN_NDIRS + in->lane] = 1;
    if (in->relay && !hop_relays(p, &p->rounds[r], in->node, in->hop) &&
        add_viol(k->rep, PLAN_VIOL_MAX, TN_V_PATH, R, C, -1, in->node,
                 "node %u lane %u: the relay descriptor's heads take hop %u (%s), not a relay "
                 "output of the round: they are unroutable", in->node, in->lane, in->hop,
                 in->hop < TN_NDIRS ? tn_dir_name(in->hop)
                 : in->hop == TN_HOP_HERE ? "a relay eject lane here" : "none"))
        return TN_ENOMEM;
    if (in->relay) {
        /* staged packets: above the message layout */
        if (in->addr < p->mem_base || (uint64_t)in->addr + in->len > p->mem_max)
            return add_viol(k->rep, PLAN_VIOL_MAX, TN_V_MSG, R, C, -1, in->node,
                            "node %u injects relay words %u..%llu outside its staging area",
                            in->node, in->addr, (unsigned long long)in->addr + in->len - 1);
        return 0;
    }
    /* message words: held before the round, one run of the layout */
    uint64_t held = tn_plan_held(p, r, in->node), w0, w1;
    bool run = in->len == 0 ||
               (tn_plan_word(p, in->node, in->addr, &w0) &&
                tn_plan_word(p, in->node, (uint64_t)in->addr + in->len - 1, &w1) &&
                w1 - w0 == in->len - 1);
    if (in->len && ((uint64_t)in->addr + in->len > held || !run))
        return add_viol(k->rep, PLAN_VIOL_MAX, TN_V_MSG, R, C, -1, in->node,
                        "node %u injects words %u..%llu but holds %llu%s", in->node, in->addr,
                        (unsigned long long)in->addr + in->len - 1, (unsigned long long)held,
                        run ? "" : " (the words span a gap of the placement)");
    return 0;
}

/* Eject descriptor i of round r: on a lane that exists, alone on it,
 * into words above what the node holds and within MEM_DEPTH, apart from
 * the node's other lanes. */
static int check_eject(struct plan_chk *k, uint32_t r, uint32_t i)
{
    const struct tn_plan *p = k->p;
    const struct tn_plan_round *pr = &p->rounds[r];
    const struct tn_eject *e = &pr->ej[i];
    int32_t R = (int32_t)r, C = (int32_t)e->circuit;
    unsigned lanes = p->par.lanes;
    if (e->node >= p->topo.n || e->lane >= lanes)
        return add_viol(k->rep, PLAN_VIOL_MAX, TN_V_LANE, R, C, -1, e->node,
                        "eject descriptor on lane %u of node %u (LANES %u)", e->lane, e->node,
                        lanes);
    int8_t *slot = &k->ej[e->node * TN_NDIRS + e->lane];
    if (*slot >= 0 &&
        add_viol(k->rep, PLAN_VIOL_MAX, TN_V_LANE, R, C, -1, e->node,
                 "node %u has two eject descriptors on lane %u", e->node, e->lane))
        return TN_ENOMEM;
    *slot = 1;
    uint64_t held = e->port == TN_PORT_RELAY ? p->mem_base : tn_plan_held(p, r, e->node);
    uint64_t end = (uint64_t)e->addr + e->len;
    if ((e->addr < held || end > k->depth) &&
        add_viol(k->rep, PLAN_VIOL_MAX, TN_V_MEM, R, C, -1, e->node,
                 "node %u ejects into words %u..%llu: %s", e->node, e->addr,
                 (unsigned long long)end - 1,
                 e->addr < held ? "overwrites what it holds" : "beyond MEM_DEPTH"))
        return TN_ENOMEM;
    for (uint32_t j = i + 1; j < pr->nej && pr->ej[j].node == e->node; j++) {
        const struct tn_eject *f = &pr->ej[j];
        if (f->addr < end && e->addr < (uint64_t)f->addr + f->len &&
            add_viol(k->rep, PLAN_VIOL_MAX, TN_V_MEM, R, (int32_t)f->circuit, -1, e->node,
                     "node %u: eject lanes %u and %u write overlapping words", e->node,
                     e->lane, f->lane))
            return TN_ENOMEM;
    }
    return 0;
}

/* Is eject lane l of v missing or without a descriptor? */
static bool eject_lane_unused(const struct plan_chk *k, uint32_t v, int l)
{
    return l >= (int)k->p->par.lanes || k->ej[v * TN_NDIRS + l] < 0;
}

/* Select sel of v's output k (0..5) or eject lane k - 6: true when it
 * names a missing port or a lane without descriptor; *idle when it
 * listens to a port whose link is not driven. */
static bool select_bad(const struct plan_chk *k, const struct tn_plan_round *pr, uint32_t v,
                       int out, uint8_t sel, bool *idle)
{
    const struct tn_topo *t = &k->p->topo;
    bool is_out = out < TN_NDIRS;
    *idle = false;
    if (is_out && !tn_dir_exists(t, out))
        return true;
    if (is_out && sel >= TN_SEL_LANE(0) && sel < TN_SEL_LANE(TN_NDIRS)) {
        unsigned l = sel - TN_SEL_LANE(0);
        return l >= k->p->par.lanes || k->inj[v * TN_NDIRS + l] < 0;
    }
    if (sel == TN_SEL_RELAY)
        return !is_out && eject_lane_unused(k, v, out - TN_NDIRS);
    if (sel < TN_SEL_PORT(0) || sel >= TN_SEL_PORT(TN_NDIRS))
        return true;
    int port = sel - TN_SEL_PORT(0);
    bool bad = !tn_dir_exists(t, port);
    if (!bad) {
        uint32_t from = tn_neighbor(t, v, tn_dir_opposite(port));
        *idle = pr->xbar[(size_t)from * 12 + port] == TN_SEL_OFF;
    }
    return bad || (!is_out && eject_lane_unused(k, v, out - TN_NDIRS));
}

/* Node v's selects in round r, and a source for every eject lane with a
 * descriptor. */
static int check_selects(struct plan_chk *k, uint32_t r, uint32_t v)
{
    const struct tn_plan_round *pr = &k->p->rounds[r];
    const uint8_t *x = &pr->xbar[(size_t)v * 12];
    for (int o = 0; o < 12; o++) {
        if (x[o] == TN_SEL_OFF)
            continue;
        bool idle, bad = select_bad(k, pr, v, o, x[o], &idle), out = o < TN_NDIRS;
        if ((bad || idle) &&
            add_viol(k->rep, PLAN_VIOL_MAX, bad ? TN_V_LANE : TN_V_PATH, (int32_t)r, -1, o, v,
                     "node %u %s %d select %u: %s", v, out ? "output" : "eject lane",
                     out ? o : o - TN_NDIRS, x[o],
                     bad ? "names a missing port or a lane without descriptor"
                         : "listens to a port whose link is not driven"))
            return TN_ENOMEM;
    }
    for (unsigned l = 0; l < k->p->par.lanes && l < TN_NDIRS; l++)
        if (k->ej[v * TN_NDIRS + l] >= 0 && x[6 + l] == TN_SEL_OFF &&
            add_viol(k->rep, PLAN_VIOL_MAX, TN_V_LANE, (int32_t)r, -1, -1, v,
                     "node %u: eject lane %u has a descriptor but no source", v, l))
            return TN_ENOMEM;
    return 0;
}

static int check_plan_round(struct plan_chk *k, uint32_t r)
{
    const struct tn_plan_round *pr = &k->p->rounds[r];
    uint32_t N = k->p->topo.n;
    int rc = 0;
    memset(k->inj, -1, (size_t)N * TN_NDIRS);
    memset(k->ej, -1, (size_t)N * TN_NDIRS);
    for (uint32_t i = 0; i < pr->ninj && !rc; i++)
        rc = check_inject(k, r, i);
    for (uint32_t i = 0; i < pr->nej && !rc; i++)
        rc = check_eject(k, r, i);
    for (uint32_t v = 0; v < N && !rc; v++)
        rc = check_selects(k, r, v);
    return rc;
}

int tn_plan_check(const struct tn_plan *p, struct tn_report *rep)
{
    uint32_t N = p->topo.n;
    memset(rep, 0, sizeof *rep);
    struct plan_chk k = {p, rep, p->par.mem_depth ? p->par.mem_depth : UINT64_MAX,
                         malloc((size_t)N * TN_NDIRS), malloc((size_t)N * TN_NDIRS)};
    int rc = k.inj && k.ej ? 0 : TN_ENOMEM;
    for (uint32_t r = 0; r < p->nrounds && !rc; r++)
        rc = check_plan_round(&k, r);
    free(k.inj);
    free(k.ej);
    if (rc)
        goto out_free;
    struct tn_bank_conflict bc;
    char text[sizeof rep->viol->text];
    rc = tn_plan_bank_check(p, &bc, text, sizeof text);
    if (rc == TN_ENOMEM)
        goto out_free;
    if (rc == TN_ECAPACITY &&
        (rc = add_viol(rep, PLAN_VIOL_MAX, TN_V_BANK, (int32_t)bc.round, -1, -1, bc.node, "%s",
                       text)))
        goto out_free;
    struct tn_store_hazard sh;
    rc = tn_plan_store_check(p, &sh, text, sizeof text);
    if (rc == TN_ENOMEM)
        goto out_free;
    if (rc == TN_ECAPACITY &&
        (rc = add_viol(rep, PLAN_VIOL_MAX, TN_V_STORE, (int32_t)sh.round, -1, -1, sh.node, "%s",
                       text)))
        goto out_free;
    rc = rep->nviol ? TN_EVERIFY : 0;
out_free:
    if (rc == TN_ENOMEM)
        tn_report_free(rep);
    return rc;
}
