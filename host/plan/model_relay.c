/* SPDX-License-Identifier: MIT */
/* Reference model of relay rounds (docs/hardware.md "Relay mode",
 * docs/timing.md): cycle by cycle, every node serves the flits on its
 * relay inputs (links 0..5, then its relay inject lanes) in that order. A
 * head flit on a link is routed by DOR (X, Y, Z; + on a tie) or, when its
 * bits 12-14 name a six tree (1..6), along that tree (tn_tree_hop, bit 15
 * its detour flag; 7 is unroutable). A head on an inject lane is not
 * routed: it wants the hop of its lane's current descriptor (0..5 an
 * output, 6 this node, 7 none), whatever its data says. A head takes the
 * output it wants if the output's select is relay and nobody holds it,
 * or, addressed to this node, the lowest free relay eject lane; the input
 * then forwards every flit there until the tail, which releases it for
 * the next cycle. A head that finds its output held (or taken by a lower
 * input in the same cycle) is a collision: it and the rest of its packet
 * are dropped. Heads with no relay output or eject lane are unroutable
 * and dropped. A flit forwarded in cycle c is on the neighbour's input in
 * c + 1; an eject lane takes a flit in the cycle it is on the input (that
 * cycle is its timestamp). Only relay lanes and relay eject descriptors
 * are modelled here; the circuit engines of model.c skip them. Per node
 * it counts what the status counters count: collisions (a head whose
 * output or every relay eject lane is held), unroutable heads (no relay
 * output or eject lane for it) and dropped flits (a body flit on an input
 * that holds no path). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "model.h"
#include "plani.h"
#include "tn_error.h"

struct rflit {
    uint32_t data;
    uint8_t valid, head, tail;
};

enum { HOLD_NONE = -1, HOLD_DROP = -2 };

/* Output of a head with the given data at node v: 0..5, 6 = here, -1 =
 * unroutable (coordinates outside the torus, tree 7). */
static int head_out(const struct tn_topo *t, uint32_t v, uint32_t data)
{
    unsigned own[3], dst[3] = {data & 15, (data >> 4) & 15, (data >> 8) & 15};
    unsigned tree = (data >> 12) & 7;
    tn_coords(t, v, own);
    for (int k = 0; k < 3; k++)
        if (dst[k] >= t->dim[k])
            return -1;
    if (tree == 7)
        return -1;
    if (tree) {
        int o = tn_tree_hop(t, v, tn_node_id(t, dst[0], dst[1], dst[2]), (int)tree - 1,
                            (data >> 15) & 1);
        return o == TN_NDIRS ? 6 : o;
    }
    for (int k = 0; k < 3; k++) {
        if (dst[k] == own[k])
            continue;
        unsigned n = t->dim[k], f = (dst[k] + n - own[k]) % n;
        return 2 * k + !tn_ring_plus(n, own[k], f, TN_TIE_PLUS);
    }
    return 6;
}

/* The flit f that output dir of node v sends in cycle c of round r, as
 * it reaches the link (fault applied where it names it). */
static struct rflit faulty(const struct tn_model_fault *fault, uint32_t r, uint64_t c, uint32_t v,
                           int dir, struct rflit f)
{
    if (fault && fault->round == r && fault->c == c && fault->node == v && fault->dir == dir) {
        f.data ^= fault->data;
        f.tail ^= fault->tail;
        f.head ^= fault->head;
        f.valid &= !fault->drop;
    }
    return f;
}

/* The state of the relay model while it runs. */
struct relay_sim {
    const struct tn_plan *p;
    struct tn_model_out *out;
    const struct tn_model_probe *probe;
    const struct tn_model_fault *fault;
    unsigned nb;         /* bytes of a flit in the CRC */
    uint64_t area;       /* staged words per node */
    uint64_t *stage;     /* data | flags << 32, per node from mem_base */
    struct rflit *cur, *nxt;  /* what is on every input link, now and next cycle */
    int *inhold;         /* per (node, input 0..11): the output it holds or HOLD_* */
    int *outheld;        /* per (node, output 0..11): the input holding it or HOLD_NONE */
    int32_t *ejstat;     /* per (node, eject lane): the record of its relay descriptor */
    int32_t *lane_inj;   /* per (node, inject lane): its current relay descriptor */
};

static bool round_has_relay(const struct tn_plan_round *pr)
{
    for (uint32_t i = 0; i < pr->ninj; i++)
        if (pr->inj[i].relay)
            return true;
    return false;
}

static void relay_sim_free(struct relay_sim *m)
{
    free(m->stage);
    free(m->cur);
    free(m->nxt);
    free(m->inhold);
    free(m->outheld);
    free(m->ejstat);
    free(m->lane_inj);
}

static int relay_sim_alloc(struct relay_sim *m)
{
    size_t N = m->p->topo.n;
    m->stage = calloc((size_t)(m->area * N), sizeof *m->stage);
    m->cur = calloc(N * TN_NDIRS, sizeof *m->cur);
    m->nxt = calloc(N * TN_NDIRS, sizeof *m->nxt);
    m->inhold = malloc(N * 12 * sizeof *m->inhold);
    m->outheld = malloc(N * 12 * sizeof *m->outheld);
    m->ejstat = malloc(N * TN_NDIRS * sizeof *m->ejstat);
    m->lane_inj = malloc(N * TN_NDIRS * sizeof *m->lane_inj);
    m->out->relay_ev = calloc(N * 3, sizeof *m->out->relay_ev);
    if (!m->stage || !m->cur || !m->nxt || !m->inhold || !m->outheld || !m->ejstat ||
        !m->lane_inj || !m->out->relay_ev)
        return TN_ENOMEM;
    for (size_t i = 0; i < N * TN_NDIRS; i++)
        m->ejstat[i] = m->lane_inj[i] = -1;
    return 0;
}

/* Every staged packet word into m->stage. */
static int stage_packets(struct relay_sim *m, uint64_t seed)
{
    const struct tn_plan *p = m->p;
    uint32_t *buf = NULL, bcap = 0;
    uint8_t *fl = NULL;
    int rc = 0;
    for (uint32_t i = 0; i < p->nstage && !rc; i++) {
        uint32_t n = tn_plan_stage_words(p, i, seed, buf, fl, bcap);
        if (n > bcap) {
            bcap = n;
            free(buf);
            free(fl);
            buf = malloc(bcap * sizeof *buf);
            fl = malloc(bcap);
            if (!buf || !fl) {
                rc = TN_ENOMEM;
                break;
            }
            tn_plan_stage_words(p, i, seed, buf, fl, bcap);
        }
        const struct tn_plan_stage *st = &p->stage[i];
        for (uint32_t k = 0; k < n; k++) {
            uint64_t a = st->addr + k - p->mem_base;
            if (a < m->area)
                m->stage[st->node * m->area + a] = buf[k] | (uint64_t)fl[k] << 32;
        }
    }
    free(buf);
    free(fl);
    return rc;
}

/* Round pr's relay descriptors (its eject records from k0 on) armed, the
 * links empty and no path held. */
static void round_begin(struct relay_sim *m, const struct tn_plan_round *pr, uint32_t k0)
{
    uint32_t N = m->p->topo.n;
    for (uint32_t i = 0; i < pr->nej; i++)
        if (pr->ej[i].port == TN_PORT_RELAY)
            m->ejstat[pr->ej[i].node * TN_NDIRS + pr->ej[i].lane] = (int32_t)(k0 + i);
    for (uint32_t i = pr->ninj; i-- > 0;)  /* each lane's first descriptor */
        if (pr->inj[i].relay)
            m->lane_inj[pr->inj[i].node * TN_NDIRS + pr->inj[i].lane] = (int32_t)i;
    memset(m->cur, 0, (size_t)N * TN_NDIRS * sizeof *m->cur);
    memset(m->nxt, 0, (size_t)N * TN_NDIRS * sizeof *m->nxt);
    for (uint32_t i = 0; i < N * 12; i++)
        m->inhold[i] = m->outheld[i] = HOLD_NONE;
}

static void round_end(struct relay_sim *m, const struct tn_plan_round *pr)
{
    for (uint32_t i = 0; i < pr->nej; i++)
        m->ejstat[pr->ej[i].node * TN_NDIRS + pr->ej[i].lane] = -1;
    for (uint32_t i = 0; i < pr->ninj; i++)
        m->lane_inj[pr->inj[i].node * TN_NDIRS + pr->inj[i].lane] = -1;
}

/* The flit inject lane `lane` of node v presents in cycle c of round r
 * (f.valid 0 when none). */
static struct rflit inject_flit(struct relay_sim *m, uint32_t r, uint32_t v, unsigned lane,
                                uint64_t c)
{
    const struct tn_plan *p = m->p;
    const struct tn_plan_round *pr = &p->rounds[r];
    struct rflit f = {0, 0, 0, 0};
    int32_t *li = &m->lane_inj[v * TN_NDIRS + lane];
    if (*li < 0)
        return f;
    /* a chain: the lane's next descriptor starts (and cuts) */
    while ((uint32_t)*li + 1 < pr->ninj && pr->inj[*li + 1].node == v &&
           pr->inj[*li + 1].lane == lane && c >= p->par.alpha + pr->inj[*li + 1].start)
        (*li)++;
    const struct tn_inject *dj = &pr->inj[*li];
    uint64_t s0 = p->par.alpha + dj->start;
    if (!dj->relay || c < s0 || c >= s0 + tn_plan_inj_sent(p, r, (uint32_t)*li))
        return f;
    uint64_t a = dj->addr + (c - s0) - p->mem_base;
    if (dj->addr < p->mem_base || a >= m->area)
        return f;
    uint64_t w = m->stage[v * m->area + a];
    f.valid = 1;
    f.data = (uint32_t)w;
    f.head = (w >> 32) & 1;
    f.tail = (w >> 33) & 1;
    return f;
}

/* The lowest free relay eject lane of v for input in: 6 + lane, or
 * HOLD_DROP counting a collision (every relay eject lane held) or an
 * unroutable head (none). */
static int take_eject_lane(struct relay_sim *m, uint32_t v, unsigned in, const uint8_t *x,
                           uint32_t *ev)
{
    bool any_lane = false;
    for (unsigned l = 0; l < m->p->par.lanes && l < TN_NDIRS; l++) {
        any_lane |= x[6 + l] == TN_SEL_RELAY;
        if (x[6 + l] == TN_SEL_RELAY && m->outheld[v * 12 + 6 + l] == HOLD_NONE) {
            m->outheld[v * 12 + 6 + l] = (int)in;
            return 6 + (int)l;
        }
    }
    ev[any_lane ? TN_RELAY_COLL : TN_RELAY_UNRT]++;
    return HOLD_DROP;
}

/* The output the head f on input in of node v wants in round r (as
 * head_out): a link's head is routed from its data; an inject lane's
 * takes its lane's current descriptor's hop (the device's three bits: 6
 * here, 7 none). */
static int head_want(const struct relay_sim *m, uint32_t r, uint32_t v, unsigned in,
                     struct rflit f)
{
    if (in < TN_NDIRS)
        return head_out(&m->p->topo, v, f.data);
    int32_t li = m->lane_inj[v * TN_NDIRS + in - TN_NDIRS];  /* >= 0: the lane sent f */
    unsigned hop = m->p->rounds[r].inj[li].hop & 7u;
    return hop == TN_HOP_NONE ? -1 : (int)hop;
}

/* Where the head f on input in of node v goes in round r (x: v's
 * selects): the output it now holds, or HOLD_DROP with the event
 * counted. */
static int route_head(struct relay_sim *m, uint32_t r, uint32_t v, unsigned in,
                      const uint8_t *x, struct rflit f)
{
    uint32_t *ev = &m->out->relay_ev[3 * (size_t)v];
    int o = head_want(m, r, v, in, f);
    if (o == 6)
        return take_eject_lane(m, v, in, x, ev);
    if (o < 0 || x[o] != TN_SEL_RELAY) {
        ev[TN_RELAY_UNRT]++;
        return HOLD_DROP;
    }
    if (m->outheld[v * 12 + o] != HOLD_NONE) {
        ev[TN_RELAY_COLL]++;
        return HOLD_DROP;
    }
    m->outheld[v * 12 + o] = (int)in;
    return o;
}

/* Flit f stored by v's eject lane `lane` in cycle c of round r (its
 * records from k0 on): count, cycles, CRC, overrun. */
static void eject_flit(struct relay_sim *m, uint32_t r, uint32_t k0, uint32_t v, int lane,
                       uint64_t c, struct rflit f)
{
    const struct tn_plan_round *pr = &m->p->rounds[r];
    int32_t si = m->ejstat[v * TN_NDIRS + lane];
    if (si < 0)
        return;
    struct tn_stat *st = &m->out->stats[si];
    const struct tn_eject *e = &pr->ej[si - k0];
    if (st->count == 0)
        st->first = pr->t0 + c;
    st->last = pr->t0 + c;
    unsigned char b[4] = {(unsigned char)f.data, (unsigned char)(f.data >> 8),
                          (unsigned char)(f.data >> 16), (unsigned char)(f.data >> 24)};
    st->crc = (uint32_t)crc32(st->crc, b, m->nb);
    if (st->count >= e->len)
        st->err |= 1;
    st->count++;
}

/* Cycle c of round r at node v: every relay input in order (links, then
 * inject lanes) routes or forwards its flit; tails free their outputs for
 * the next cycle. */
static void node_cycle(struct relay_sim *m, uint32_t r, uint32_t k0, uint32_t v, uint64_t c)
{
    const struct tn_topo *t = &m->p->topo;
    const uint8_t *x = &m->p->rounds[r].xbar[(size_t)v * 12];
    int release[12];
    unsigned nrel = 0;
    for (unsigned in = 0; in < 12; in++) {
        struct rflit f = in < TN_NDIRS ? m->cur[v * TN_NDIRS + in]
                                       : inject_flit(m, r, v, in - TN_NDIRS, c);
        if (!f.valid)
            continue;
        int *h = &m->inhold[v * 12 + in];
        if (f.head && *h < 0) /* a head on a held path is forwarded */
            *h = route_head(m, r, v, in, x, f);
        else if (*h < 0)
            m->out->relay_ev[3 * (size_t)v + TN_RELAY_DROP]++;
        if (*h >= 0 && *h < TN_NDIRS) {
            uint32_t w = tn_neighbor(t, v, *h);
            if (m->probe && m->probe->on_flit)
                m->probe->on_flit(m->probe->ctx, r, c, v, *h);
            m->nxt[w * TN_NDIRS + *h] = faulty(m->fault, r, c, v, *h, f);
        } else if (*h >= 6) {
            eject_flit(m, r, k0, v, *h - 6, c, f);
        }
        if (f.tail) {
            if (*h >= 0)
                release[nrel++] = *h;
            *h = HOLD_NONE;
        }
    }
    for (unsigned i = 0; i < nrel; i++)
        m->outheld[v * 12 + release[i]] = HOLD_NONE;
}

/* Relay round r (its eject records from k0 on), cycle by cycle. */
static void run_round(struct relay_sim *m, uint32_t r, uint32_t k0)
{
    const struct tn_plan_round *pr = &m->p->rounds[r];
    uint32_t N = m->p->topo.n;
    round_begin(m, pr, k0);
    /* one cycle more: the next round's switch cycle (or the run's end)
     * keeps this round's relay paths and eject descriptors (paths are
     * released at its end, records filed in the cycle after); nothing
     * moves then unless a fault made a packet longer */
    for (uint64_t c = 0; c <= pr->duration; c++) {
        for (uint32_t v = 0; v < N; v++)
            node_cycle(m, r, k0, v, c);
        struct rflit *tmp = m->cur;
        m->cur = m->nxt;
        m->nxt = tmp;
        memset(m->nxt, 0, (size_t)N * TN_NDIRS * sizeof *m->nxt);
    }
    round_end(m, pr);
}

int tn_model_relay(const struct tn_plan *p, uint64_t seed, struct tn_model_out *out,
                   const struct tn_model_probe *probe, const struct tn_model_fault *fault)
{
    uint32_t N = p->topo.n;
    bool any = false;
    for (uint32_t r = 0; r < p->nrounds && !any; r++)
        any = round_has_relay(&p->rounds[r]);
    if (!any)
        return 0;
    struct relay_sim m = {.p = p, .out = out, .probe = probe, .fault = fault,
                          .nb = (p->par.width + 7) / 8,
                          .area = p->mem_max > p->mem_base ? p->mem_max - p->mem_base : 1};
    if (m.area * N > ((uint64_t)1 << 28))
        return TN_ECAPACITY;
    int rc = relay_sim_alloc(&m);
    if (!rc)
        rc = stage_packets(&m, seed);
    for (uint32_t r = 0, k0 = 0; r < p->nrounds && !rc; k0 += p->rounds[r].nej, r++)
        if (round_has_relay(&p->rounds[r]))
            run_round(&m, r, k0);
    for (uint32_t v = 0; v < N && !rc; v++)
        for (int k = 0; k < 3; k++)
            out->relay_total[k] += out->relay_ev[3 * (size_t)v + k];
    relay_sim_free(&m);
    return rc;
}
