/* SPDX-License-Identifier: MIT */
/* Schedule -> plan: crossbar settings, lanes, descriptors, memory layout,
 * round durations (docs/hardware.md, docs/timing.md). */
#include "plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

void tn_plan_free(struct tn_plan *p)
{
    if (!p)
        return;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        free(p->rounds[r].xbar);
        free(p->rounds[r].inj);
        free(p->rounds[r].ej);
    }
    free(p->rounds);
    free(p->stage);
    free(p);
}

int tn_plan_cmp_inj(const void *a, const void *b)
{
    const struct tn_inject *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (int)x->lane - (int)y->lane;
}

int tn_plan_cmp_ej(const void *a, const void *b)
{
    const struct tn_eject *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (int)x->lane - (int)y->lane;
}

static unsigned lane_of(uint8_t mask, unsigned port)
{
    return (unsigned)__builtin_popcount(mask & ((1u << port) - 1));
}

int tn_plan_lower(struct tn_plan **out, struct tn_sched *s, const struct tn_plan_params *par,
                  char *err, size_t errlen)
{
    if (par->lanes < 1 || par->lanes > 6 || par->width < 1 || par->width > 32)
        return tn_errf(err, errlen, TN_EINVAL, "lanes must be 1..6 and width 1..32");
    if (!s->laid_out && tn_sched_layout(s) != 0)
        return tn_errf(err, errlen, TN_ENOMEM, "out of memory");
    const struct tn_topo *t = &s->topo;
    uint32_t N = t->n, L = s->msg_flits;
    int rc = TN_ENOMEM;
    struct tn_plan *p = calloc(1, sizeof *p);
    uint8_t *injmask = calloc(N, 1), *ejmask = calloc(N, 1);
    uint32_t *ejlen = calloc((size_t)N * TN_NDIRS, sizeof *ejlen);
    uint32_t *head = NULL, *depth = NULL, *parent = NULL, *ejarc = NULL, hcap = 0;
    if (!p || !injmask || !ejmask || !ejlen)
        goto out_fail;
    p->par = *par;
    p->sched = s;
    p->topo = *t;
    p->msg_flits = L;
    p->nrounds = s->nrounds;
    p->rounds = calloc(s->nrounds ? s->nrounds : 1, sizeof *p->rounds);
    if (!p->rounds)
        goto out_fail;

    for (uint32_t r = 0; r < s->nrounds; r++) {
        const struct tn_round *rd = &s->rounds[r];
        struct tn_plan_round *pr = &p->rounds[r];
        struct tn_blk **mem = s->mem + (size_t)r * N;
        uint64_t need = 0;
        uint32_t totej = 0;
        if (s->msg_len && rd->ncirc) {
            rc = tn_errf(err, errlen, TN_ENOTSUP,
                         "round %u: circuits need equal message lengths "
                         "(relay streams take any)", r);
            goto out_fail;
        }
        for (uint32_t ci = 0; ci < rd->ncirc; ci++)
            totej += rd->circ[ci].nej;
        pr->xbar = calloc((size_t)N, 12);
        pr->inj = calloc(rd->ncirc ? rd->ncirc : 1, sizeof *pr->inj);
        pr->ej = calloc(totej ? totej : 1, sizeof *pr->ej);
        if (!pr->xbar || !pr->inj || !pr->ej)
            goto out_fail;
        /* pass 1: ports used for injection (first root arc) and ejection */
        for (int pass = 1; pass <= 2; pass++) {
            for (uint32_t ci = 0; ci < rd->ncirc; ci++) {
                const struct tn_circuit *c = &rd->circ[ci];
                if (c->narcs > hcap || c->nej > hcap) {
                    hcap = c->narcs > c->nej ? c->narcs : c->nej;
                    free(head);
                    head = malloc(4 * (size_t)hcap * sizeof *head);
                    if (!head)
                        goto out_fail;
                    depth = head + hcap;
                    parent = head + 2 * hcap;
                    ejarc = head + 3 * hcap;
                }
                if (c->src >= N || !c->stream || c->msg_bad != -1 || c->msg_noncontig ||
                    !tn_circuit_walk(s, c, head, depth, parent, ejarc)) {
                    rc = tn_errf(err, errlen, TN_EVERIFY,
                                 "round %u circuit %u is broken: run torusctl verify", r, ci);
                    goto out_fail;
                }
                unsigned rootport = TN_NDIRS;
                for (uint32_t i = 0; i < c->narcs; i++)
                    if (c->arcs[i].node == c->src && c->arcs[i].dir < rootport)
                        rootport = c->arcs[i].dir;
                if (rootport == TN_NDIRS) {
                    rc = tn_errf(err, errlen, TN_EVERIFY, "round %u circuit %u has no arcs", r, ci);
                    goto out_fail;
                }
                if (pass == 1) {
                    if (injmask[c->src] >> rootport & 1) {
                        rc = tn_errf(err, errlen, TN_EVERIFY,
                                     "round %u: two circuits leave node %u on %s", r, c->src,
                                     tn_dir_name((int)rootport));
                        goto out_fail;
                    }
                    injmask[c->src] |= (uint8_t)(1u << rootport);
                    for (uint32_t e = 0; e < c->nej; e++) {
                        uint32_t i = ejarc[e];
                        if (i == UINT32_MAX)
                            continue;
                        ejmask[head[i]] |= (uint8_t)(1u << c->arcs[i].dir);
                        ejlen[(size_t)head[i] * TN_NDIRS + c->arcs[i].dir] = c->stream->n * L;
                    }
                    continue;
                }
                /* pass 2: crossbar and descriptors */
                unsigned lane = lane_of(injmask[c->src], rootport);
                if (lane >= par->lanes) {
                    rc = tn_errf(err, errlen, TN_ECAPACITY,
                                 "round %u: node %u injects %d streams, the device has %u lane%s",
                                 r, c->src, __builtin_popcount(injmask[c->src]), par->lanes,
                                 par->lanes == 1 ? "" : "s");
                    goto out_fail;
                }
                struct tn_inject *in = &pr->inj[pr->ninj++];
                in->node = c->src;
                in->lane = (uint8_t)lane;
                in->start = c->start;
                in->addr = c->moff * L;
                in->len = c->stream->n * L;
                if (c->mrun) {
                    uint64_t run = (uint64_t)c->mrun * L, skip = (uint64_t)c->mskip * L;
                    if (run > 0xFFFF || skip > 0xFFFF) {
                        rc = tn_errf(err, errlen, TN_ECAPACITY,
                                     "round %u circuit %u: gather run %llu / skip %llu flits "
                                     "exceed the descriptor's 16 bits", r, ci,
                                     (unsigned long long)run, (unsigned long long)skip);
                        goto out_fail;
                    }
                    in->run = (uint32_t)run;
                    in->skip = (uint32_t)skip;
                }
                in->circuit = ci;
                unsigned dmax = 0;
                for (uint32_t i = 0; i < c->narcs; i++) {
                    const struct tn_arc *a = &c->arcs[i];
                    uint8_t *sel = &pr->xbar[(size_t)a->node * 12 + a->dir];
                    if (*sel != TN_SEL_OFF) {
                        rc = tn_errf(err, errlen, TN_EVERIFY,
                                     "round %u: output %s of node %u driven twice", r,
                                     tn_dir_name(a->dir), a->node);
                        goto out_fail;
                    }
                    if (a->node == c->src) {
                        *sel = (uint8_t)TN_SEL_LANE(lane);
                    } else {
                        *sel = (uint8_t)TN_SEL_PORT(c->arcs[parent[i]].dir);
                    }
                }
                for (uint32_t e = 0; e < c->nej; e++) {
                    uint32_t v = c->eject[e], i = ejarc[e];
                    if (i == UINT32_MAX) {
                        rc = tn_errf(err, errlen, TN_EVERIFY,
                                     "round %u circuit %u: node %u ejects off the circuit",
                                     r, ci, v);
                        goto out_fail;
                    }
                    unsigned port = c->arcs[i].dir, el = lane_of(ejmask[v], port);
                    if (el >= par->lanes) {
                        rc = tn_errf(err, errlen, TN_ECAPACITY,
                                     "round %u: node %u ejects %d streams, "
                                     "the device has %u lane%s",
                                     r, v, __builtin_popcount(ejmask[v]), par->lanes,
                                     par->lanes == 1 ? "" : "s");
                        goto out_fail;
                    }
                    uint64_t addr = (uint64_t)mem[v]->n * L;
                    for (unsigned q = 0; q < port; q++)
                        if (ejmask[v] >> q & 1)
                            addr += ejlen[(size_t)v * TN_NDIRS + q];
                    struct tn_eject *ej = &pr->ej[pr->nej++];
                    ej->node = v;
                    ej->lane = (uint8_t)el;
                    ej->port = (uint8_t)port;
                    ej->addr = (uint32_t)addr;
                    ej->len = c->stream->n * L;
                    ej->circuit = ci;
                    pr->xbar[(size_t)v * 12 + 6 + el] = (uint8_t)TN_SEL_PORT(port);
                    if (depth[i] > dmax)
                        dmax = depth[i];
                    if (addr + ej->len > UINT32_MAX) {
                        rc = tn_errf(err, errlen, TN_ECAPACITY,
                                     "node %u needs more than 2^32 words", v);
                        goto out_fail;
                    }
                }
                uint64_t len = (uint64_t)c->start + dmax + (uint64_t)c->stream->n * L;
                if (len > need)
                    need = len;
            }
        }
        for (uint32_t ci = 0; ci < rd->ncirc; ci++) {
            const struct tn_circuit *c = &rd->circ[ci];
            injmask[c->src] = 0;
            for (uint32_t e = 0; e < c->nej; e++) {
                ejmask[c->eject[e]] = 0;
                memset(&ejlen[(size_t)c->eject[e] * TN_NDIRS], 0, TN_NDIRS * sizeof *ejlen);
            }
        }
        qsort(pr->inj, pr->ninj, sizeof *pr->inj, tn_plan_cmp_inj);
        qsort(pr->ej, pr->nej, sizeof *pr->ej, tn_plan_cmp_ej);
        pr->t0 = p->total;
        pr->duration = par->alpha + need;
        p->total += pr->duration;
    }
    for (uint32_t v = 0; v < N; v++) {
        for (uint32_t r = 0; r <= s->nrounds; r++) {
            uint64_t w = (uint64_t)s->mem[(size_t)r * N + v]->n * L;
            if (w > p->mem_max)
                p->mem_max = w;
        }
    }
    p->mem_base = p->mem_max;
    if ((rc = tn_plan_lower_relay(p, err, errlen)) != 0)
        goto out_fail;
    if (par->mem_depth && p->mem_max > par->mem_depth) {
        rc = tn_errf(err, errlen, TN_ECAPACITY,
                     "the schedule needs %llu memory words per node, MEM_DEPTH is %u",
                     (unsigned long long)p->mem_max, par->mem_depth);
        goto out_fail;
    }
    free(injmask);
    free(ejmask);
    free(ejlen);
    free(head);
    *out = p;
    return 0;
out_fail:
    if (rc == TN_ENOMEM)
        tn_errf(err, errlen, rc, "out of memory");
    free(injmask);
    free(ejmask);
    free(ejlen);
    free(head);
    tn_plan_free(p);
    return rc;
}

uint32_t tn_plan_mem_msgs(const struct tn_plan *p, uint32_t r, uint32_t node, uint32_t *ids,
                          uint32_t cap)
{
    const struct tn_blk *b = p->sched->mem[(size_t)r * p->topo.n + node];
    tn_blk_read(b, 0, b->n < cap ? b->n : cap, ids);
    return b->n;
}

uint32_t tn_payload(uint64_t seed, uint32_t m, uint32_t k, unsigned width)
{
    uint64_t z = seed ^ ((uint64_t)m << 32 | k);
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (uint32_t)(width >= 32 ? z : z & ((1ull << width) - 1));
}

uint32_t tn_plan_init_mem(const struct tn_plan *p, uint64_t seed, uint32_t node,
                          uint32_t *words, uint32_t cap)
{
    const struct tn_blk *b = p->sched->mem[node];
    uint32_t L = p->msg_flits, w = 0;
    for (uint32_t i = 0; i < b->n; i++) {
        uint32_t m = tn_blk_get(b, i);
        for (uint32_t k = 0; k < L; k++, w++)
            if (w < cap)
                words[w] = tn_payload(seed, m, k, p->par.width);
    }
    return w;
}
