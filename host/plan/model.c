/* SPDX-License-Identifier: MIT */
/* The reference model: executes a plan as docs/timing.md defines it and
 * predicts the eject statistics the hardware reports. Two engines that
 * must agree (tests/host/test_model.c): CYCLE moves every flit over every
 * link cycle by cycle through real (physical, banked-layout) memories;
 * STREAM traces each inject lane through the crossbar settings, times
 * each descriptor of its chain per stream and gets the CRC from the
 * message layout (physical addresses mapped back through the plan's gaps)
 * with crc32_combine (fast enough for 49x49x49). A lane's descriptor is
 * cut by the next one of its lane starting and by the round's end
 * (tn_plan_inj_sent). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model.h"
#include "plani.h"
#include "rope.h"
#include "tn_error.h"

void tn_model_free(struct tn_model_out *out)
{
    free(out->stats);
    free(out->relay_ev);
    memset(out, 0, sizeof *out);
}

static unsigned flit_bytes(const struct tn_plan *p)
{
    return (p->par.width + 7) / 8;
}

static uint32_t crc_flit(uint32_t crc, uint32_t data, unsigned nb)
{
    unsigned char b[4] = {(unsigned char)data, (unsigned char)(data >> 8),
                          (unsigned char)(data >> 16), (unsigned char)(data >> 24)};
    return (uint32_t)crc32(crc, b, nb);
}

static int init_stats(const struct tn_plan *p, struct tn_model_out *out)
{
    memset(out, 0, sizeof *out);
    uint64_t n = 0;
    for (uint32_t r = 0; r < p->nrounds; r++)
        n += p->rounds[r].nej;
    out->stats = calloc(n ? n : 1, sizeof *out->stats);
    if (!out->stats)
        return TN_ENOMEM;
    out->nstats = (uint32_t)n;
    uint32_t k = 0;
    for (uint32_t r = 0; r < p->nrounds; r++)
        for (uint32_t i = 0; i < p->rounds[r].nej; i++, k++) {
            out->stats[k].round = r;
            out->stats[k].node = p->rounds[r].ej[i].node;
            out->stats[k].lane = p->rounds[r].ej[i].lane;
            out->stats[k].crc = 0;
        }
    out->total = p->total;
    return 0;
}

static void finish_stats(const struct tn_plan *p, struct tn_model_out *out)
{
    uint32_t k = 0;
    for (uint32_t r = 0; r < p->nrounds; r++)
        for (uint32_t i = 0; i < p->rounds[r].nej; i++, k++) {
            struct tn_stat *st = &out->stats[k];
            const struct tn_eject *e = &p->rounds[r].ej[i];
            if (st->count < e->len)
                st->err |= 2;
            if (p->par.mem_depth && (uint64_t)e->addr + st->count > p->par.mem_depth)
                st->err |= 4;
            if (st->err)
                out->errors++;
        }
}

/* ---- CYCLE engine ---- */

struct flit {
    uint32_t data;
    uint8_t valid;
};

/* The inject lanes of a round for the cycle engine: lane g's chain is
 * pr->inj[first[g] .. first[g + 1]), its descriptor cur[g] the one that
 * started last; sent[i] what descriptor i sends (tn_plan_inj_sent). */
struct lane_chains {
    uint32_t n, cap;
    uint32_t *first, *cur;
    uint64_t *sent;
};

static int chains_init(struct lane_chains *ch, const struct tn_plan *p, uint32_t r)
{
    const struct tn_plan_round *pr = &p->rounds[r];
    if (pr->ninj + 1 > ch->cap) {
        free(ch->first);
        free(ch->sent);
        ch->cap = pr->ninj + 1;
        ch->first = malloc(2 * (size_t)ch->cap * sizeof *ch->first);
        ch->sent = malloc((size_t)ch->cap * sizeof *ch->sent);
        if (!ch->first || !ch->sent)
            return TN_ENOMEM;
    }
    ch->cur = ch->first + ch->cap;
    ch->n = 0;
    for (uint32_t i = 0; i < pr->ninj; i++) {
        ch->sent[i] = tn_plan_inj_sent(p, r, i);
        if (i == 0 || pr->inj[i].node != pr->inj[i - 1].node ||
            pr->inj[i].lane != pr->inj[i - 1].lane) {
            ch->cur[ch->n] = i;
            ch->first[ch->n++] = i;
        }
    }
    ch->first[ch->n] = pr->ninj;
    return 0;
}

/* Every lane's flit of cycle c (a descriptor starts when the cycle reaches
 * its start and cuts the one before). */
static void chains_step(struct lane_chains *ch, const struct tn_plan *p, uint32_t r, uint64_t c,
                        const uint32_t *mem, uint64_t cap, struct flit *lane,
                        const struct tn_model_probe *probe)
{
    const struct tn_plan_round *pr = &p->rounds[r];
    for (uint32_t g = 0; g < ch->n; g++) {
        uint32_t i = ch->cur[g];
        while (i + 1 < ch->first[g + 1] && c >= (uint64_t)p->par.alpha + pr->inj[i + 1].start)
            i++;
        ch->cur[g] = i;
        const struct tn_inject *in = &pr->inj[i];
        struct flit *l = &lane[in->node * TN_NDIRS + in->lane];
        uint64_t s0 = (uint64_t)p->par.alpha + in->start, a = in->addr + (c - s0);
        l->valid = !in->relay && c >= s0 && c < s0 + ch->sent[i] && a < cap;
        if (l->valid)
            l->data = mem[in->node * cap + a];
        if (l->valid && probe && probe->on_mem)
            probe->on_mem(probe->ctx, r, pr->t0 + c, in->node, in->lane, 0, a);
    }
}

/* The state of the cycle engine: every node's memory, what is on every
 * link now (cur) and in the next cycle (nxt), every inject lane's flit,
 * and for every link the link that feeds it by input port. */
struct cycle_sim {
    const struct tn_plan *p;
    const struct tn_model_probe *probe; /* may be NULL */
    const struct tn_model_fault *fault; /* may be NULL */
    unsigned nb;                        /* bytes of a flit in the CRC */
    uint64_t cap;                       /* memory words per node */
    uint32_t *mem;
    struct flit *cur, *nxt, *lane;
    uint32_t *inlink;                   /* per (node, port): the link arriving there */
    uint32_t *active, nact;             /* the links a round's crossbars drive */
    struct lane_chains ch;
};

static void cycle_sim_free(struct cycle_sim *m)
{
    free(m->mem);
    free(m->cur);
    free(m->nxt);
    free(m->lane);
    free(m->inlink);
    free(m->active);
    free(m->ch.first);
    free(m->ch.sent);
}

/* The memories as loaded (seed) and the links' input ports. */
static int cycle_sim_init(struct cycle_sim *m, uint64_t seed)
{
    const struct tn_topo *t = &m->p->topo;
    size_t N = t->n;
    m->mem = calloc((size_t)(m->cap * N), sizeof *m->mem);
    m->cur = calloc(N * TN_NDIRS, sizeof *m->cur);
    m->nxt = calloc(N * TN_NDIRS, sizeof *m->nxt);
    m->lane = calloc(N * TN_NDIRS, sizeof *m->lane);
    m->inlink = malloc(N * TN_NDIRS * sizeof *m->inlink);
    m->active = malloc(N * TN_NDIRS * sizeof *m->active);
    if (!m->mem || !m->cur || !m->nxt || !m->lane || !m->inlink || !m->active)
        return TN_ENOMEM;
    for (uint32_t v = 0; v < N; v++) {
        tn_plan_init_mem(m->p, seed, v, m->mem + v * m->cap, (uint32_t)m->cap);
        for (int d = 0; d < TN_NDIRS; d++)
            m->inlink[v * TN_NDIRS + d] = tn_dir_exists(t, d)
                ? tn_neighbor(t, v, tn_dir_opposite(d)) * TN_NDIRS + (uint32_t)d : 0;
    }
    return 0;
}

/* Every circuit eject descriptor of round pr (records st) stores what is
 * on its input link in cycle c. */
static void eject_cycle(struct cycle_sim *m, uint32_t r, struct tn_stat *st, uint64_t c)
{
    const struct tn_plan_round *pr = &m->p->rounds[r];
    for (uint32_t i = 0; i < pr->nej; i++) {
        const struct tn_eject *e = &pr->ej[i];
        if (e->port == TN_PORT_RELAY)
            continue; /* tn_model_relay */
        const struct flit *f = &m->cur[m->inlink[e->node * TN_NDIRS + e->port]];
        if (!f->valid)
            continue;
        struct tn_stat *s = &st[i];
        if (s->count == 0)
            s->first = pr->t0 + c;
        s->last = pr->t0 + c;
        s->crc = crc_flit(s->crc, f->data, m->nb);
        uint64_t a = (uint64_t)e->addr + s->count;
        if (a < m->cap && (!m->p->par.mem_depth || a < m->p->par.mem_depth)) {
            m->mem[e->node * m->cap + a] = f->data;
            if (m->probe && m->probe->on_mem)
                m->probe->on_mem(m->probe->ctx, r, pr->t0 + c, e->node, e->lane, 1, a);
        } else
            s->err |= 4;
        s->count++;
    }
}

/* Every driven link of round r takes, for cycle c + 1, the flit its
 * select names (a link into the node or an inject lane); the probe sees
 * it, the fault changes it. */
static void links_cycle(struct cycle_sim *m, uint32_t r, uint64_t c)
{
    const struct tn_plan_round *pr = &m->p->rounds[r];
    const struct tn_model_fault *fault = m->fault;
    for (uint32_t k = 0; k < m->nact; k++) {
        uint32_t i = m->active[k], v = i / TN_NDIRS;
        int dir = (int)(i % TN_NDIRS);
        uint8_t sel = pr->xbar[v * 12 + i % TN_NDIRS];
        struct flit *f = &m->nxt[i];
        if (sel >= TN_SEL_PORT(0) && sel < TN_SEL_PORT(TN_NDIRS))
            *f = m->cur[m->inlink[v * TN_NDIRS + (sel - TN_SEL_PORT(0))]];
        else if (sel >= TN_SEL_LANE(0) && sel < TN_SEL_LANE(TN_NDIRS))
            *f = m->lane[v * TN_NDIRS + (sel - TN_SEL_LANE(0))];
        else
            f->valid = 0;
        if (m->probe && m->probe->on_flit && f->valid)
            m->probe->on_flit(m->probe->ctx, r, c, v, dir);
        if (fault && fault->round == r && fault->c == c && fault->node == v && fault->dir == dir) {
            f->data ^= fault->data;
            f->valid &= !fault->drop;
        }
    }
    for (uint32_t k = 0; k < m->nact; k++)
        m->cur[m->active[k]] = m->nxt[m->active[k]];
}

/* Circuit round r, cycle by cycle, its records st. */
static int cycle_round(struct cycle_sim *m, uint32_t r, struct tn_stat *st)
{
    const struct tn_plan *p = m->p;
    const struct tn_plan_round *pr = &p->rounds[r];
    uint32_t N = p->topo.n;
    int rc = chains_init(&m->ch, p, r);
    if (rc)
        return rc;
    m->nact = 0;
    for (uint32_t i = 0; i < N * TN_NDIRS; i++) {
        m->cur[i].valid = 0;
        if (pr->xbar[(i / TN_NDIRS) * 12 + i % TN_NDIRS] != TN_SEL_OFF)
            m->active[m->nact++] = i;
    }
    for (uint64_t c = 0; c < pr->duration; c++) {
        /* eject what is on the input links in cycle c */
        eject_cycle(m, r, st, c);
        /* inject lanes present flit k in cycle alpha + start + k */
        chains_step(&m->ch, p, r, c, m->mem, m->cap, m->lane, m->probe);
        /* links move one hop */
        links_cycle(m, r, c);
    }
    for (uint32_t i = 0; i < pr->ninj; i++)
        m->lane[pr->inj[i].node * TN_NDIRS + pr->inj[i].lane].valid = 0;
    return 0;
}

/* probe (may be NULL) is told every flit a router output sends; fault
 * (may be NULL) is applied to one of them. */
static int run_cycle(const struct tn_plan *p, uint64_t seed, struct tn_model_out *out,
                     const struct tn_model_probe *probe, const struct tn_model_fault *fault)
{
    struct cycle_sim m = {.p = p, .probe = probe, .fault = fault, .nb = flit_bytes(p),
                          .cap = p->mem_max ? p->mem_max : 1};
    if (m.cap * p->topo.n > ((uint64_t)1 << 31))
        return TN_ECAPACITY;
    int rc = cycle_sim_init(&m, seed);
    if (!rc)
        rc = init_stats(p, out);
    struct tn_stat *st = rc ? NULL : out->stats;
    for (uint32_t r = 0; r < p->nrounds && !rc; r++) {
        rc = cycle_round(&m, r, st);
        st += p->rounds[r].nej;
    }
    if (!rc)
        rc = tn_model_relay(p, seed, out, probe, fault);
    if (!rc)
        finish_stats(p, out);
    cycle_sim_free(&m);
    if (rc)
        tn_model_free(out);
    return rc;
}

/* ---- STREAM engine ---- */

struct crcctx {
    uint64_t seed;
    unsigned width, nb;
    uint32_t L;
    uint32_t tag;
    uint32_t *msgcrc;
    uint8_t *msgok;
    uint32_t nmsg;
    struct { uint64_t len; uLong op; } ops[512];
    struct tn_sel sel;        /* stride ropes */
};

static uint32_t combine(struct crcctx *cc, uint32_t a, uint32_t b, uint64_t len)
{
    if (len == 0)
        return a;
    unsigned h = (unsigned)((len * 0x9E3779B97F4A7C15ull) >> 55) & 511;
    if (cc->ops[h].len != len) {
        cc->ops[h].len = len;
        cc->ops[h].op = crc32_combine_gen((z_off_t)len);
    }
    return (uint32_t)crc32_combine_op(a, b, cc->ops[h].op);
}

/* CRC of a (done: it covers something) followed by b of len bytes. */
static uint32_t cat_crc(struct crcctx *cc, uint32_t a, bool done, uint32_t b, uint64_t len)
{
    return done ? combine(cc, a, b, len) : b;
}

static uint32_t msg_crc(struct crcctx *cc, uint32_t m, uint32_t k0, uint32_t n)
{
    if (k0 == 0 && n == cc->L && m < cc->nmsg && cc->msgok[m])
        return cc->msgcrc[m];
    uint32_t crc = 0;
    for (uint32_t k = k0; k < k0 + n; k++)
        crc = crc_flit(crc, tn_payload(cc->seed, m, k, cc->width), cc->nb);
    if (k0 == 0 && n == cc->L && m < cc->nmsg) {
        cc->msgok[m] = 1;
        cc->msgcrc[m] = crc;
    }
    return crc;
}

static uint32_t blk_crc(struct crcctx *cc, struct tn_blk *b, uint32_t off, uint32_t n);

static uint32_t blk_crc_whole(struct crcctx *cc, struct tn_blk *b)
{
    if (b->memo_tag == cc->tag)
        return b->memo_crc;
    uint32_t crc = 0;
    uint64_t bytes = (uint64_t)cc->L * cc->nb;
    if (b->kind == TN_BLK_LEAF) {
        for (uint32_t i = 0; i < b->n; i++)
            crc = combine(cc, crc, msg_crc(cc, b->u.ids[i], 0, cc->L), bytes);
    } else if (b->kind == TN_BLK_SLICE) {
        crc = blk_crc(cc, b->u.base, b->off, b->n);
    } else if (b->kind == TN_BLK_STRIDE) {
        crc = (uint32_t)tn_sel_stride(&cc->sel, b, 0, b->n);
    } else {
        for (uint32_t k = 0; k < b->nk; k++)
            crc = combine(cc, crc, blk_crc_whole(cc, b->u.kids[k]), b->u.kids[k]->n * bytes);
    }
    b->memo_tag = cc->tag;
    b->memo_crc = crc;
    return crc;
}

/* CRC of messages [off, off + n) of b. */
static uint32_t blk_crc(struct crcctx *cc, struct tn_blk *b, uint32_t off, uint32_t n)
{
    if (off == 0 && n == b->n)
        return blk_crc_whole(cc, b);
    uint64_t bytes = (uint64_t)cc->L * cc->nb;
    uint32_t crc = 0;
    if (b->kind == TN_BLK_LEAF) {
        for (uint32_t i = off; i < off + n; i++)
            crc = combine(cc, crc, msg_crc(cc, b->u.ids[i], 0, cc->L), bytes);
        return crc;
    }
    if (b->kind == TN_BLK_SLICE)
        return blk_crc(cc, b->u.base, b->off + off, n);
    if (b->kind == TN_BLK_STRIDE)
        return (uint32_t)tn_sel_stride(&cc->sel, b, off, n);
    for (uint32_t k = 0; k < b->nk && n; k++) {
        struct tn_blk *kid = b->u.kids[k];
        if (off >= kid->n) {
            off -= kid->n;
            continue;
        }
        uint32_t take = kid->n - off < n ? kid->n - off : n;
        crc = combine(cc, crc, blk_crc(cc, kid, off, take), take * bytes);
        n -= take;
        off = 0;
    }
    return crc;
}

static uint64_t sel_range(void *ctx, struct tn_blk *b, uint32_t off, uint32_t n)
{
    return blk_crc(ctx, b, off, n);
}

static uint64_t sel_cat(void *ctx, uint64_t a, uint64_t v, uint32_t nb)
{
    struct crcctx *cc = ctx;
    return combine(cc, (uint32_t)a, (uint32_t)v, (uint64_t)nb * cc->L * cc->nb);
}

/* CRC of n flits of data 0 (memory words nothing placed). */
static uint32_t zeros_crc(struct crcctx *cc, uint64_t n)
{
    uint32_t crc = 0;
    for (uint64_t k = 0; k < n; k++)
        crc = crc_flit(crc, 0, cc->nb);
    return crc;
}

/* CRC of logical words [addr, addr + n) of memory block b (words beyond
 * it read 0). */
static uint32_t words_crc(struct crcctx *cc, struct tn_blk *b, uint64_t addr, uint64_t n)
{
    uint32_t L = cc->L, crc = 0;
    uint64_t held = (uint64_t)b->n * L;
    if (addr + n > held) {
        uint64_t z = addr >= held ? n : addr + n - held;
        return combine(cc, addr < held ? words_crc(cc, b, addr, n - z) : 0, zeros_crc(cc, z),
                       z * cc->nb);
    }
    for (bool done = false; n; done = true) {
        uint32_t m = (uint32_t)(addr / L), k = (uint32_t)(addr % L);
        if (k == 0 && n >= L) {
            uint32_t cnt = (uint32_t)(n / L);
            crc = cat_crc(cc, crc, done, blk_crc(cc, b, m, cnt), (uint64_t)cnt * L * cc->nb);
            addr += (uint64_t)cnt * L;
            n -= (uint64_t)cnt * L;
            continue;
        }
        uint32_t take = L - k < n ? (uint32_t)(L - k) : (uint32_t)n;
        crc = cat_crc(cc, crc, done, msg_crc(cc, tn_blk_get(b, m), k, take),
                      (uint64_t)take * cc->nb);
        addr += take;
        n -= take;
    }
    return crc;
}

/* CRC of physical words [a, a + n) of node, whose message layout is b:
 * mapped back through the plan's gaps (gap words read 0). */
static uint32_t phys_crc(struct crcctx *cc, const struct tn_plan *p, uint32_t node,
                         struct tn_blk *b, uint64_t a, uint64_t n)
{
    uint32_t crc = 0;
    for (bool done = false; n; done = true) {
        uint64_t w, run;
        bool data = tn_plan_span(p, node, a, &w, &run);
        if (run > n)
            run = n;
        crc = cat_crc(cc, crc, done, data ? words_crc(cc, b, w, run) : zeros_crc(cc, run),
                      run * cc->nb);
        a += run;
        n -= run;
    }
    return crc;
}

/* One inject lane's descriptors pr->inj[i0, i1) of round r, and the CRC
 * of everything they send once computed (shared by every eject lane the
 * lane reaches whose flits all arrive within the round). */
struct chain {
    uint32_t r, i0, i1;
    bool known;
    uint32_t crc;
    uint64_t flits;
};

/* Add the descriptors' flits arriving within the round, d links away
 * (cut at the round's end: an overrun), to eject statistic st. */
static void chain_pieces(struct crcctx *cc, const struct tn_plan *p, const struct chain *ch,
                         uint64_t d, struct tn_stat *st)
{
    const struct tn_plan_round *pr = &p->rounds[ch->r];
    uint64_t end = pr->t0 + pr->duration;  /* first cycle after the round */
    struct tn_blk *src = p->sched->st->mem[(size_t)ch->r * p->topo.n + pr->inj[ch->i0].node];
    for (uint32_t i = ch->i0; i < ch->i1; i++) {
        const struct tn_inject *in = &pr->inj[i];
        uint64_t n = tn_plan_inj_sent(p, ch->r, i), first = pr->t0 + p->par.alpha + in->start + d;
        uint64_t room = first < end ? end - first : 0;
        if (room < n) {
            st->err |= 1;
            n = room;
        }
        if (n == 0)
            continue;
        if (st->count == 0)
            st->first = first;
        st->last = first + n - 1;
        st->crc = cat_crc(cc, st->crc, st->count, phys_crc(cc, p, in->node, src, in->addr, n),
                          n * cc->nb);
        st->count += (uint32_t)n;
    }
}

/* What eject statistic st (fresh: an eject lane hears one inject lane a
 * round) hears from chain ch, d links away. */
static void chain_stat(struct crcctx *cc, const struct tn_plan *p, struct chain *ch, uint64_t d,
                       struct tn_stat *st)
{
    const struct tn_plan_round *pr = &p->rounds[ch->r];
    uint64_t end = pr->t0 + pr->duration, first = 0, last = 0;
    for (uint32_t i = ch->i0; i < ch->i1; i++) {
        uint64_t n = tn_plan_inj_sent(p, ch->r, i);
        uint64_t f = pr->t0 + p->par.alpha + pr->inj[i].start + d;
        if (n && f + n > end) {
            chain_pieces(cc, p, ch, d, st);  /* an overrun: flit by flit */
            return;
        }
        if (n && !first)
            first = f;
        if (n)
            last = f + n - 1;
    }
    if (!ch->known) {
        struct tn_stat all = {0};
        chain_pieces(cc, p, ch, d, &all);
        ch->known = true;
        ch->crc = all.crc;
        ch->flits = all.count;
    }
    if (ch->flits == 0)
        return;
    st->first = first;
    st->last = last;
    st->count = (uint32_t)ch->flits;
    st->crc = ch->crc;
}

static int run_stream(const struct tn_plan *p, uint64_t seed, struct tn_model_out *out)
{
    static uint32_t tags;
    const struct tn_topo *t = &p->topo;
    uint32_t N = t->n;
    int rc = TN_ENOMEM;
    struct crcctx *cc = calloc(1, sizeof *cc);
    int32_t *ejidx = malloc((size_t)N * TN_NDIRS * sizeof *ejidx);
    uint32_t scap = 1024, sp;
    uint32_t *stack = malloc(3 * (size_t)scap * sizeof *stack);
    if (!cc || !ejidx || !stack)
        goto out_free;
    cc->seed = seed;
    cc->width = p->par.width;
    cc->nb = flit_bytes(p);
    cc->L = p->msg_flits;
    cc->tag = ++tags;
    cc->nmsg = N;
    cc->sel.range = sel_range;
    cc->sel.cat = sel_cat;
    cc->sel.ctx = cc;
    cc->msgcrc = malloc((size_t)N * sizeof *cc->msgcrc);
    cc->msgok = calloc(N, 1);
    if (!cc->msgcrc || !cc->msgok)
        goto out_free;
    if ((rc = init_stats(p, out)))
        goto out_free;
    rc = TN_ENOMEM;
    for (uint32_t i = 0; i < N * TN_NDIRS; i++)
        ejidx[i] = -1;
    struct tn_stat *st = out->stats;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        for (uint32_t i = 0; i < pr->nej; i++)
            ejidx[pr->ej[i].node * TN_NDIRS + pr->ej[i].lane] = (int32_t)i;
        for (uint32_t i0 = 0, i1; i0 < pr->ninj; i0 = i1) {
            const struct tn_inject *in = &pr->inj[i0];
            for (i1 = i0; i1 < pr->ninj && pr->inj[i1].node == in->node &&
                          pr->inj[i1].lane == in->lane; i1++)
                ;
            if (in->relay)
                continue; /* tn_model_relay */
            struct chain ch = {r, i0, i1, false, 0, 0};
            sp = 0;
            for (int o = 0; o < TN_NDIRS; o++)
                if (pr->xbar[in->node * 12 + o] == TN_SEL_LANE(in->lane)) {
                    stack[3 * sp] = tn_neighbor(t, in->node, o);
                    stack[3 * sp + 1] = (uint32_t)o;
                    stack[3 * sp + 2] = 1;
                    sp++;
                }
            while (sp) {
                sp--;
                uint32_t w = stack[3 * sp], port = stack[3 * sp + 1], d = stack[3 * sp + 2];
                if (d > N * TN_NDIRS)
                    continue;  /* a loop in the crossbars: flits never land */
                uint8_t want = (uint8_t)TN_SEL_PORT(port);
                for (int l = 0; l < TN_NDIRS; l++)
                    if (pr->xbar[w * 12 + 6 + l] == want && ejidx[w * TN_NDIRS + l] >= 0)
                        chain_stat(cc, p, &ch, d, &st[ejidx[w * TN_NDIRS + l]]);
                for (int o = 0; o < TN_NDIRS; o++) {
                    if (pr->xbar[w * 12 + o] != want)
                        continue;
                    if (sp == scap) {
                        uint32_t *ns = realloc(stack, 6 * (size_t)scap * sizeof *ns);
                        if (!ns)
                            goto out_free;
                        stack = ns;
                        scap *= 2;
                    }
                    stack[3 * sp] = tn_neighbor(t, w, o);
                    stack[3 * sp + 1] = (uint32_t)o;
                    stack[3 * sp + 2] = d + 1;
                    sp++;
                }
            }
        }
        for (uint32_t i = 0; i < pr->nej; i++)
            ejidx[pr->ej[i].node * TN_NDIRS + pr->ej[i].lane] = -1;
        st += pr->nej;
    }
    if ((rc = tn_model_relay(p, seed, out, NULL, NULL)))
        goto out_free;
    finish_stats(p, out);
    rc = 0;
out_free:
    if (cc) {
        tn_sel_free(&cc->sel);
        free(cc->msgcrc);
        free(cc->msgok);
    }
    free(cc);
    free(ejidx);
    free(stack);
    if (rc)
        tn_model_free(out);
    return rc;
}

int tn_model_run(const struct tn_plan *p, uint64_t seed, enum tn_engine engine,
                 struct tn_model_out *out)
{
    if (engine == TN_ENGINE_AUTO) {
        /* the cycle engine costs links x cycles */
        uint64_t work = (uint64_t)p->topo.n * TN_NDIRS * p->total;
        engine = work <= 400000000ull && p->mem_max * p->topo.n <= (1u << 26)
                     ? TN_ENGINE_CYCLE : TN_ENGINE_STREAM;
    }
    return engine == TN_ENGINE_CYCLE ? run_cycle(p, seed, out, NULL, NULL)
                                     : run_stream(p, seed, out);
}

int tn_model_run_fault(const struct tn_plan *p, uint64_t seed, const struct tn_model_fault *fault,
                       struct tn_model_out *out)
{
    return run_cycle(p, seed, out, NULL, fault);
}

int tn_model_probe_links(const struct tn_plan *p, uint64_t seed, const struct tn_model_probe *probe)
{
    struct tn_model_out out;
    int rc = run_cycle(p, seed, &out, probe, NULL);
    if (rc == 0)
        tn_model_free(&out);
    return rc;
}
