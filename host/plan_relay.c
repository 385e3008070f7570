/* SPDX-License-Identifier: MIT */
/* Relay-mode lowering (docs/hardware.md "Relay mode", docs/host.md):
 * every relay stream of the schedule is one packet, a head flit carrying
 * the destination's coordinates (x | y << 4 | z << 8, routed by DOR)
 * followed by the words of its messages, the last flagged tail.
 *
 * Memory: packets are staged at their source above the message layout
 * (from word mem_base on; the image writes their words and MEM flags), so a
 * source may send any subset of what it holds in any order; a destination
 * receives into an area above the layout. Relay-delivered words are
 * therefore not part of the message layout, and relay rounds must come
 * after every circuit round.
 *
 * Lanes, as the hardware allocates them: the packets of a source that
 * follow each other without a gap (each starts the cycle after the
 * previous one's tail) share one inject descriptor (a chain); a
 * destination's packets take the lowest relay eject lane free when their
 * head arrives (a lane is free from the cycle after its holder's tail;
 * heads of one cycle in input-port order), and each lane's descriptor
 * expects the total of its packets. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "tn_error.h"

struct pkt {
    uint32_t idx, src, dst;
    uint64_t start, flits, first; /* first: arrival of the head at dst */
    unsigned d, inport;           /* hops, input port at dst */
    unsigned lane;
};

static int cmp_src(const void *a, const void *b)
{
    const struct pkt *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_dst(const void *a, const void *b)
{
    const struct pkt *x = a, *y = b;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    if (x->inport != y->inport)
        return x->inport < y->inport ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int tn_plan_lower_relay(struct tn_plan *p, char *err, size_t errlen)
{
    struct tn_sched *s = p->sched;
    const struct tn_topo *t = &p->topo;
    uint32_t N = t->n, last_circ = 0, first_relay = UINT32_MAX;
    for (uint32_t r = 0; r < s->nrounds; r++) {
        if (s->rounds[r].ncirc)
            last_circ = r + 1;
        if (s->rounds[r].nrelay && first_relay == UINT32_MAX)
            first_relay = r;
    }
    if (first_relay == UINT32_MAX)
        return 0;
    if (first_relay < last_circ)
        return tn_errf(err, errlen, TN_ENOTSUP,
                       "round %u has relay streams before a circuit round: relay-delivered words "
                       "live outside the message layout, so relay rounds must come last",
                       first_relay);
    if (p->par.width < 12)
        return tn_errf(err, errlen, TN_ENOTSUP,
                       "relay heads carry x | y << 4 | z << 8: they need W >= 12 (W is %u)",
                       p->par.width);
    for (int k = 0; k < 3; k++)
        if (t->dim[k] > 15)
            return tn_errf(err, errlen, TN_ENOTSUP, "relay heads carry 4-bit coordinates: "
                           "dimension %d has %u nodes", k, t->dim[k]);
    int rc = TN_ENOMEM;
    uint64_t *top = malloc((size_t)N * sizeof *top);
    struct tn_arc *route = malloc((t->dim[0] + t->dim[1] + t->dim[2] + 1) * sizeof *route);
    struct pkt *pk = NULL;
    uint32_t scap = p->nstage;
    if (!top || !route)
        goto out_free;
    if (last_circ == 0) {
        /* no circuit reads the message layout: it is not loaded, the
         * packets carry everything from word 0 */
        p->mem_base = 0;
        p->mem_max = 0;
    }
    for (uint32_t v = 0; v < N; v++)
        top[v] = p->mem_base;
    unsigned rcap = t->dim[0] + t->dim[1] + t->dim[2] + 1;

    for (uint32_t r = 0; r < s->nrounds; r++) {
        const struct tn_round *rd = &s->rounds[r];
        struct tn_plan_round *pr = &p->rounds[r];
        if (!rd->nrelay)
            continue;
        free(pk);
        pk = calloc(rd->nrelay, sizeof *pk);
        if (!pk)
            goto out_free;
        uint32_t np = 0;
        uint64_t need = 0;
        for (uint32_t i = 0; i < rd->nrelay; i++) {
            const struct tn_relay *x = &rd->relay[i];
            if (x->src >= N || x->dst >= N || x->src == x->dst || !x->stream ||
                x->msg_bad != -1 || x->msg_noncontig) {
                rc = tn_errf(err, errlen, TN_EVERIFY,
                             "round %u relay stream %u is broken: run torusctl verify", r, i);
                goto out_free;
            }
            uint64_t flits = tn_relay_flits(s, x);
            if (flits == 0)
                continue; /* null messages only: nothing is sent */
            struct pkt *q = &pk[np++];
            q->idx = i;
            q->src = x->src;
            q->dst = x->dst;
            q->start = x->start;
            q->flits = flits;
            q->d = tn_dor_path(t, x->src, x->dst, route, rcap);
            q->first = x->start + q->d;
            q->inport = route[q->d - 1].dir;
            for (unsigned h = 0; h < q->d; h++)
                pr->xbar[(size_t)route[h].node * 12 + route[h].dir] = TN_SEL_RELAY;
            if (x->start + q->d + flits > need)
                need = x->start + q->d + flits;
        }
        pr->mode = TN_MODE_DOR;
        pr->duration = p->par.alpha + need;
        struct tn_inject *ni = realloc(pr->inj, ((size_t)pr->ninj + np + 1) * sizeof *ni);
        if (!ni)
            goto out_free;
        pr->inj = ni;
        struct tn_eject *ne = realloc(pr->ej, ((size_t)pr->nej + np + 1) * sizeof *ne);
        if (!ne)
            goto out_free;
        pr->ej = ne;
        /* injection: chains of back-to-back packets per source */
        qsort(pk, np, sizeof *pk, cmp_src);
        for (uint32_t a = 0, b; a < np; a = b) {
            uint32_t v = pk[a].src;
            uint64_t end[TN_NDIRS + 1];
            unsigned nl = 0;
            for (b = a; b < np && pk[b].src == v; b++) {
                unsigned l = 0;
                while (l < nl && end[l] != pk[b].start)
                    l++;
                if (l == nl) {
                    if (nl >= p->par.lanes) {
                        rc = tn_errf(err, errlen, TN_ECAPACITY,
                                     "round %u: node %u injects more than %u chains "
                                     "of relay packets "
                                     "(the device has %u lane%s)", r, v, p->par.lanes, p->par.lanes,
                                     p->par.lanes == 1 ? "" : "s");
                        goto out_free;
                    }
                    nl++;
                }
                pk[b].lane = l;
                end[l] = pk[b].start + pk[b].flits;
            }
            for (unsigned l = 0; l < nl; l++) {
                struct tn_inject *in = &pr->inj[pr->ninj++];
                memset(in, 0, sizeof *in);
                in->node = v;
                in->lane = (uint8_t)l;
                in->relay = 1;
                in->addr = (uint32_t)top[v];
                in->circuit = UINT32_MAX;
                for (uint32_t k = a; k < b; k++) {
                    if (pk[k].lane != l)
                        continue;
                    if (in->circuit == UINT32_MAX) {
                        in->circuit = pk[k].idx;
                        in->start = (uint32_t)pk[k].start;
                    }
                    if (p->nstage == scap) {
                        scap = scap ? 2 * scap : 64;
                        struct tn_plan_stage *ns = realloc(p->stage, scap * sizeof *ns);
                        if (!ns)
                            goto out_free;
                        p->stage = ns;
                    }
                    struct tn_plan_stage *st = &p->stage[p->nstage++];
                    st->node = v;
                    st->addr = (uint32_t)top[v];
                    st->round = r;
                    st->relay = pk[k].idx;
                    st->dst = pk[k].dst;
                    top[v] += pk[k].flits;
                    in->len += (uint32_t)pk[k].flits;
                }
                if (top[v] > UINT32_MAX) {
                    rc = tn_errf(err, errlen, TN_ECAPACITY,
                                 "node %u needs more than 2^32 words", v);
                    goto out_free;
                }
            }
        }
        /* ejection: lowest free relay eject lane at head arrival */
        qsort(pk, np, sizeof *pk, cmp_dst);
        for (uint32_t a = 0, b; a < np; a = b) {
            uint32_t v = pk[a].dst;
            uint64_t busy[TN_NDIRS + 1], total[TN_NDIRS + 1];
            uint32_t firstidx[TN_NDIRS + 1];
            unsigned nl = 0;
            for (b = a; b < np && pk[b].dst == v; b++) {
                unsigned l = 0;
                while (l < nl && busy[l] >= pk[b].first)
                    l++;
                if (l == nl) {
                    if (nl >= p->par.lanes) {
                        rc = tn_errf(err, errlen, TN_ECAPACITY,
                                     "round %u: node %u receives more than %u relay "
                                     "packets at once "
                                     "(the device has %u lane%s)", r, v, p->par.lanes, p->par.lanes,
                                     p->par.lanes == 1 ? "" : "s");
                        goto out_free;
                    }
                    total[nl] = 0;
                    firstidx[nl] = pk[b].idx;
                    nl++;
                }
                busy[l] = pk[b].first + pk[b].flits - 1;
                total[l] += pk[b].flits;
            }
            for (unsigned l = 0; l < nl; l++) {
                struct tn_eject *e = &pr->ej[pr->nej++];
                memset(e, 0, sizeof *e);
                e->node = v;
                e->lane = (uint8_t)l;
                e->port = TN_PORT_RELAY;
                e->addr = (uint32_t)top[v];
                e->len = (uint32_t)total[l];
                e->circuit = firstidx[l];
                pr->xbar[(size_t)v * 12 + 6 + l] = TN_SEL_RELAY;
                top[v] += total[l];
            }
            if (top[v] > UINT32_MAX) {
                rc = tn_errf(err, errlen, TN_ECAPACITY, "node %u needs more than 2^32 words", v);
                goto out_free;
            }
        }
        qsort(pr->inj, pr->ninj, sizeof *pr->inj, tn_plan_cmp_inj);
        qsort(pr->ej, pr->nej, sizeof *pr->ej, tn_plan_cmp_ej);
    }
    p->total = 0;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        p->rounds[r].t0 = p->total;
        p->total += p->rounds[r].duration;
    }
    for (uint32_t v = 0; v < N; v++)
        if (top[v] > p->mem_max)
            p->mem_max = top[v];
    rc = 0;
out_free:
    if (rc == TN_ENOMEM)
        tn_errf(err, errlen, rc, "out of memory");
    free(top);
    free(route);
    free(pk);
    return rc;
}

uint32_t tn_plan_stage_words(const struct tn_plan *p, uint32_t i, uint64_t seed, uint32_t *data,
                             uint8_t *flags, uint32_t cap)
{
    const struct tn_plan_stage *st = &p->stage[i];
    const struct tn_sched *s = p->sched;
    const struct tn_relay *x = &s->rounds[st->round].relay[st->relay];
    unsigned c[3];
    tn_coords(&p->topo, st->dst, c);
    uint32_t w = 0;
    if (cap > 0) {
        data[0] = c[0] | c[1] << 4 | c[2] << 8;
        flags[0] = 1;
    }
    w = 1;
    for (uint32_t j = 0; j < x->stream->n; j++) {
        uint32_t m = tn_blk_get(x->stream, j), len = tn_msg_len(s, m);
        for (uint32_t k = 0; k < len; k++, w++)
            if (w < cap) {
                data[w] = tn_payload(seed, m, k, p->par.width);
                flags[w] = 0;
            }
    }
    if (w - 1 < cap)
        flags[w - 1] |= 2;
    return w;
}
