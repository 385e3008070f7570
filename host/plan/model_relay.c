/* SPDX-License-Identifier: MIT */
/* Reference model of relay rounds (docs/hardware.md "Relay mode",
 * docs/timing.md): cycle by cycle, every node serves the flits on its
 * relay inputs (links 0..5, then its relay inject lanes) in that order. A
 * head flit routed by DOR (X, Y, Z; + on a tie) takes its output if the
 * output's select is relay and nobody holds it, or, addressed to this
 * node, the lowest free relay eject lane; the input then forwards every
 * flit there until the tail, which releases it for the next cycle. A
 * head that finds its output held (or taken by a lower input in the same
 * cycle) is a collision: it and the rest of its packet are dropped. Heads
 * with no relay output or eject lane are unroutable and dropped. A flit
 * forwarded in cycle c is on the neighbour's input in c + 1; an eject lane
 * takes a flit in the cycle it is on the input (that cycle is its
 * timestamp). Only relay lanes and relay eject descriptors are modelled
 * here; the circuit engines of model.c skip them. Per node it counts what
 * the status counters count: collisions (a head whose output or every
 * relay eject lane is held), unroutable heads (no relay output or eject
 * lane for it) and dropped flits (a body flit on an input that holds no
 * path). */
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

/* DOR output of a head at node v for coordinates dst: 0..5, 6 = here,
 * -1 = unroutable coordinates. */
static int dor_out(const struct tn_topo *t, uint32_t v, uint32_t data)
{
    unsigned own[3], dst[3] = {data & 15, (data >> 4) & 15, (data >> 8) & 15};
    tn_coords(t, v, own);
    for (int k = 0; k < 3; k++)
        if (dst[k] >= t->dim[k])
            return -1;
    for (int k = 0; k < 3; k++) {
        if (dst[k] == own[k])
            continue;
        unsigned n = t->dim[k], f = (dst[k] + n - own[k]) % n;
        return 2 * k + (2 * f <= n ? 0 : 1);
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

int tn_model_relay(const struct tn_plan *p, uint64_t seed, struct tn_model_out *out,
                   const struct tn_model_probe *probe, const struct tn_model_fault *fault)
{
    const struct tn_topo *t = &p->topo;
    uint32_t N = t->n;
    unsigned nb = (p->par.width + 7) / 8;
    bool any = false;
    for (uint32_t r = 0; r < p->nrounds && !any; r++)
        for (uint32_t i = 0; i < p->rounds[r].ninj && !any; i++)
            any = p->rounds[r].inj[i].relay;
    if (!any)
        return 0;
    int rc = TN_ENOMEM;
    uint64_t area = p->mem_max > p->mem_base ? p->mem_max - p->mem_base : 1;
    if (area * N > ((uint64_t)1 << 28))
        return TN_ECAPACITY;
    /* staged words: data | flags << 32, per node from mem_base */
    uint64_t *stage = calloc((size_t)(area * N), sizeof *stage);
    struct rflit *cur = calloc((size_t)N * TN_NDIRS, sizeof *cur);
    struct rflit *nxt = calloc((size_t)N * TN_NDIRS, sizeof *nxt);
    int *inhold = malloc((size_t)N * 12 * sizeof *inhold);
    int *outheld = malloc((size_t)N * 12 * sizeof *outheld);
    int32_t *ejstat = malloc((size_t)N * TN_NDIRS * sizeof *ejstat);
    int32_t *lane_inj = malloc((size_t)N * TN_NDIRS * sizeof *lane_inj);
    uint32_t *buf = NULL;
    uint8_t *fl = NULL;
    uint32_t bcap = 0;
    out->relay_ev = calloc((size_t)N * 3, sizeof *out->relay_ev);
    if (!stage || !cur || !nxt || !inhold || !outheld || !ejstat || !lane_inj || !out->relay_ev)
        goto out_free;
    for (uint32_t i = 0; i < p->nstage; i++) {
        uint32_t n = tn_plan_stage_words(p, i, seed, buf, fl, bcap);
        if (n > bcap) {
            bcap = n;
            free(buf);
            free(fl);
            buf = malloc(bcap * sizeof *buf);
            fl = malloc(bcap);
            if (!buf || !fl)
                goto out_free;
            tn_plan_stage_words(p, i, seed, buf, fl, bcap);
        }
        const struct tn_plan_stage *st = &p->stage[i];
        for (uint32_t k = 0; k < n; k++) {
            uint64_t a = st->addr + k - p->mem_base;
            if (a < area)
                stage[st->node * area + a] = buf[k] | (uint64_t)fl[k] << 32;
        }
    }
    for (uint32_t i = 0; i < N * TN_NDIRS; i++)
        ejstat[i] = lane_inj[i] = -1;
    uint32_t k0 = 0;
    for (uint32_t r = 0; r < p->nrounds; k0 += p->rounds[r].nej, r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        bool relay = false;
        for (uint32_t i = 0; i < pr->ninj; i++)
            relay |= pr->inj[i].relay;
        if (!relay)
            continue;
        for (uint32_t i = 0; i < pr->nej; i++)
            if (pr->ej[i].port == TN_PORT_RELAY)
                ejstat[pr->ej[i].node * TN_NDIRS + pr->ej[i].lane] = (int32_t)(k0 + i);
        for (uint32_t i = pr->ninj; i-- > 0;)  /* each lane's first descriptor */
            if (pr->inj[i].relay)
                lane_inj[pr->inj[i].node * TN_NDIRS + pr->inj[i].lane] = (int32_t)i;
        memset(cur, 0, (size_t)N * TN_NDIRS * sizeof *cur);
        memset(nxt, 0, (size_t)N * TN_NDIRS * sizeof *nxt);
        for (uint32_t i = 0; i < N * 12; i++)
            inhold[i] = outheld[i] = HOLD_NONE;
        /* one cycle more: the next round's switch cycle (or the run's end)
         * keeps this round's relay paths and eject descriptors (paths are
         * released at its end, records filed in the cycle after); nothing
         * moves then unless a fault made a packet longer */
        for (uint64_t c = 0; c <= pr->duration; c++) {
            for (uint32_t v = 0; v < N; v++) {
                const uint8_t *x = &pr->xbar[(size_t)v * 12];
                int release[12];
                unsigned nrel = 0;
                for (unsigned in = 0; in < 12; in++) {
                    struct rflit f = {0, 0, 0, 0};
                    if (in < TN_NDIRS) {
                        f = cur[v * TN_NDIRS + in];
                    } else {
                        int32_t *li = &lane_inj[v * TN_NDIRS + (in - TN_NDIRS)];
                        if (*li < 0)
                            continue;
                        /* a chain: the lane's next descriptor starts (and cuts) */
                        while ((uint32_t)*li + 1 < pr->ninj && pr->inj[*li + 1].node == v &&
                               pr->inj[*li + 1].lane == in - TN_NDIRS &&
                               c >= p->par.alpha + pr->inj[*li + 1].start)
                            (*li)++;
                        const struct tn_inject *dj = &pr->inj[*li];
                        uint64_t s0 = p->par.alpha + dj->start;
                        if (!dj->relay || c < s0 || c >= s0 + tn_plan_inj_sent(p, r, (uint32_t)*li))
                            continue;
                        uint64_t a = dj->addr + (c - s0) - p->mem_base;
                        if (dj->addr < p->mem_base || a >= area)
                            continue;
                        uint64_t w = stage[v * area + a];
                        f.valid = 1;
                        f.data = (uint32_t)w;
                        f.head = (w >> 32) & 1;
                        f.tail = (w >> 33) & 1;
                    }
                    if (!f.valid)
                        continue;
                    int *h = &inhold[v * 12 + in];
                    uint32_t *ev = &out->relay_ev[3 * (size_t)v];
                    if (f.head && *h < 0) { /* a head on a held path is forwarded */
                        int o = dor_out(t, v, f.data);
                        *h = HOLD_DROP;
                        if (o >= 0 && o < TN_NDIRS) {
                            if (x[o] != TN_SEL_RELAY) {
                                ev[TN_RELAY_UNRT]++;
                            } else if (outheld[v * 12 + o] == HOLD_NONE) {
                                outheld[v * 12 + o] = (int)in;
                                *h = o;
                            } else {
                                ev[TN_RELAY_COLL]++;
                            }
                        } else if (o == 6) {
                            bool any_lane = false;
                            for (unsigned l = 0; l < p->par.lanes && l < TN_NDIRS; l++) {
                                any_lane |= x[6 + l] == TN_SEL_RELAY;
                                if (x[6 + l] == TN_SEL_RELAY &&
                                    outheld[v * 12 + 6 + l] == HOLD_NONE) {
                                    outheld[v * 12 + 6 + l] = (int)in;
                                    *h = 6 + (int)l;
                                    break;
                                }
                            }
                            if (*h < 0) /* every relay eject lane held, or none */
                                ev[any_lane ? TN_RELAY_COLL : TN_RELAY_UNRT]++;
                        } else {
                            ev[TN_RELAY_UNRT]++;
                        }
                    } else if (*h < 0) {
                        ev[TN_RELAY_DROP]++;
                    }
                    if (*h >= 0 && *h < TN_NDIRS) {
                        uint32_t w = tn_neighbor(t, v, *h);
                        if (probe)
                            probe->on_flit(probe->ctx, r, c, v, *h);
                        nxt[w * TN_NDIRS + *h] = faulty(fault, r, c, v, *h, f);
                    } else if (*h >= 6) {
                        int32_t si = ejstat[v * TN_NDIRS + (*h - 6)];
                        if (si >= 0) {
                            struct tn_stat *st = &out->stats[si];
                            const struct tn_eject *e = &pr->ej[si - k0];
                            if (st->count == 0)
                                st->first = pr->t0 + c;
                            st->last = pr->t0 + c;
                            unsigned char b[4] = {(unsigned char)f.data,
                                                  (unsigned char)(f.data >> 8),
                                                  (unsigned char)(f.data >> 16),
                                                  (unsigned char)(f.data >> 24)};
                            st->crc = (uint32_t)crc32(st->crc, b, nb);
                            if (st->count >= e->len)
                                st->err |= 1;
                            st->count++;
                        }
                    }
                    if (f.tail) {
                        if (*h >= 0)
                            release[nrel++] = *h;
                        *h = HOLD_NONE;
                    }
                }
                /* a tail frees its output for the next cycle */
                for (unsigned i = 0; i < nrel; i++)
                    outheld[v * 12 + release[i]] = HOLD_NONE;
            }
            struct rflit *tmp = cur;
            cur = nxt;
            nxt = tmp;
            memset(nxt, 0, (size_t)N * TN_NDIRS * sizeof *nxt);
        }
        for (uint32_t i = 0; i < pr->nej; i++)
            ejstat[pr->ej[i].node * TN_NDIRS + pr->ej[i].lane] = -1;
        for (uint32_t i = 0; i < pr->ninj; i++)
            lane_inj[pr->inj[i].node * TN_NDIRS + pr->inj[i].lane] = -1;
    }
    for (uint32_t v = 0; v < N; v++)
        for (int k = 0; k < 3; k++)
            out->relay_total[k] += out->relay_ev[3 * (size_t)v + k];
    rc = 0;
out_free:
    free(stage);
    free(cur);
    free(nxt);
    free(inhold);
    free(outheld);
    free(ejstat);
    free(lane_inj);
    free(buf);
    free(fl);
    return rc;
}
