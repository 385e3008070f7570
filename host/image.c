/* SPDX-License-Identifier: MIT */
/* Plan -> configuration-bus writes (docs/hardware.md). */
#include "image.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

/* A board build (INFO LIMITS, docs/hardware.md "Board builds") keeps the
 * low CW bits of durations, offsets, addresses and lengths (bits 31:24;
 * 0: all 32), has no relay hardware (bit 0) and no gather field (bit 2):
 * a plan that needs more is refused before anything is loaded. */
static int check_limits(const struct tn_plan *p, const struct tn_info *dev, char *err,
                        size_t errlen)
{
    uint32_t cw = dev->limits >> 24;
    uint64_t lim = (cw == 0 || cw >= 32) ? UINT32_MAX : (1ull << cw) - 1;
    const char *fix = "use a shorter --msg-flits or the simulator's full design";
    for (uint32_t r = 0; r < p->nrounds; r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        if (pr->duration > lim)
            return tn_errf(err, errlen, TN_ECAPACITY,
                           "round %u lasts %llu cycles; this board build keeps %u-bit durations "
                           "(at most %llu): %s", r, (unsigned long long)pr->duration, cw,
                           (unsigned long long)lim, fix);
        for (uint32_t i = 0; i < pr->ninj; i++) {
            const struct tn_inject *in = &pr->inj[i];
            uint64_t m = in->start > in->len ? in->start : in->len;
            if (in->addr > m)
                m = in->addr;
            if (m > lim)
                return tn_errf(err, errlen, TN_ECAPACITY,
                               "round %u: node %u injects %u flits from word %u at offset %u; "
                               "this board build keeps %u-bit offsets, addresses and lengths "
                               "(at most %llu): %s", r, in->node, in->len, in->addr, in->start,
                               cw, (unsigned long long)lim, fix);
            if ((dev->limits & 1u) && in->relay)
                return tn_errf(err, errlen, TN_ENOTSUP,
                               "round %u routes head flits (relay streams); this board build "
                               "has no relay hardware: run it on the simulator", r);
            if ((dev->limits & 4u) && in->run)
                return tn_errf(err, errlen, TN_ENOTSUP,
                               "round %u gathers strided runs of words (the long-message "
                               "gossip); this board build has no gather field: use another "
                               "--algo or the simulator", r);
        }
        for (uint32_t i = 0; i < pr->nej; i++) {
            const struct tn_eject *ej = &pr->ej[i];
            if ((ej->addr > ej->len ? ej->addr : ej->len) > lim)
                return tn_errf(err, errlen, TN_ECAPACITY,
                               "round %u: node %u ejects %u flits to word %u; this board build "
                               "keeps %u-bit addresses and lengths (at most %llu): %s", r,
                               ej->node, ej->len, ej->addr, cw, (unsigned long long)lim, fix);
        }
    }
    return 0;
}

int tn_image_check(const struct tn_plan *p, const struct tn_info *dev, char *err,
                   size_t errlen)
{
    const struct tn_topo *t = &p->topo;
    if (dev->dims[0] != t->dim[0] || dev->dims[1] != t->dim[1] || dev->dims[2] != t->dim[2])
        return tn_errf(err, errlen, TN_ENOTSUP,
                       "the schedule is for a %ux%ux%u torus but the device is %ux%ux%u: "
                       "use --dims %ux%ux%u or a device of that geometry",
                       t->dim[0], t->dim[1], t->dim[2], dev->dims[0], dev->dims[1],
                       dev->dims[2], dev->dims[0], dev->dims[1], dev->dims[2]);
    if (p->par.lanes > dev->lanes)
        return tn_errf(err, errlen, TN_ECAPACITY,
                       "the schedule needs %u lanes per node, the device has %u: "
                       "use the single-port schedule (--ports 1) or a LANES=6 build",
                       p->par.lanes, dev->lanes);
    if (p->par.width != dev->w)
        return tn_errf(err, errlen, TN_EINVAL,
                       "plan lowered for W=%u but the device has W=%u", p->par.width, dev->w);
    if (p->nrounds > dev->rounds)
        return tn_errf(err, errlen, TN_ECAPACITY,
                       "the schedule has %u rounds, the device's round table holds %u: "
                       "rebuild the device with ROUNDS >= %u",
                       p->nrounds, dev->rounds, p->nrounds);
    if (p->mem_max > dev->mem_depth)
        return tn_errf(err, errlen, TN_ECAPACITY,
                       "a node needs %llu words of flit memory, the device has %u: "
                       "use a shorter --msg-flits or a device with MEM_DEPTH >= %llu",
                       (unsigned long long)p->mem_max, dev->mem_depth,
                       (unsigned long long)p->mem_max);
    for (uint32_t r = 0; r < p->nrounds; r++)
        if (p->rounds[r].duration > UINT32_MAX)
            return tn_errf(err, errlen, TN_ECAPACITY,
                           "round %u lasts %llu cycles, more than the 32-bit round table holds",
                           r, (unsigned long long)p->rounds[r].duration);
    return check_limits(p, dev, err, errlen);
}

static int reserve(struct tn_image *img, size_t words)
{
    if (img->nbursts == img->bcap) {
        size_t cap = img->bcap ? 2 * img->bcap : 256;
        struct tn_image_burst *b = realloc(img->bursts, cap * sizeof *b);
        if (b == NULL)
            return TN_ENOMEM;
        img->bursts = b;
        img->bcap = cap;
    }
    if (img->nwords + words > img->wcap) {
        size_t cap = img->wcap ? img->wcap : 4096;
        while (cap < img->nwords + words)
            cap *= 2;
        uint32_t *w = realloc(img->words, cap * sizeof *w);
        if (w == NULL)
            return TN_ENOMEM;
        img->words = w;
        img->wcap = cap;
    }
    return 0;
}

/* Append a burst of n zeroed words at addr; returns them, or NULL. */
static uint32_t *burst(struct tn_image *img, uint32_t addr, uint32_t n)
{
    if (reserve(img, n) != 0)
        return NULL;
    struct tn_image_burst *b = &img->bursts[img->nbursts++];
    b->addr = addr;
    b->n = n;
    b->off = img->nwords;
    uint32_t *w = img->words + img->nwords;
    memset(w, 0, n * sizeof *w);
    img->nwords += n;
    return w;
}

/* Relay packets staged at their sources: words and MEM flags (head, tail). */
static int stage_relay(struct tn_image *img, const struct tn_plan *p, uint64_t seed)
{
    for (uint32_t i = 0; i < p->nstage; i++) {
        const struct tn_plan_stage *st = &p->stage[i];
        uint32_t n = tn_plan_stage_words(p, i, seed, NULL, NULL, 0);
        uint32_t *d = burst(img, TN_ADDR_NODE(st->node, TN_REGION_MEM, st->addr), n);
        uint8_t *fl = malloc(n);
        if (d == NULL || fl == NULL) {
            free(fl);
            return TN_ENOMEM;
        }
        tn_plan_stage_words(p, i, seed, d, fl, n);
        uint32_t *f = burst(img, TN_ADDR_NODE(st->node, TN_REGION_FLAGS, st->addr), n);
        if (f == NULL) {
            free(fl);
            return TN_ENOMEM;
        }
        for (uint32_t k = 0; k < n; k++)
            f[k] = fl[k];
        free(fl);
        img->mem_words += n;
    }
    return 0;
}

int tn_image_compile(struct tn_image *img, const struct tn_plan *p,
                     const struct tn_info *dev, uint64_t seed, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    int rc = tn_image_check(p, dev, err, errlen);
    if (rc != 0)
        return rc;
    uint32_t n_nodes = p->topo.n;
    unsigned lanes = dev->lanes;
    /* Fields 0 .. the last inject gather word of the device's lanes. */
    uint32_t cfg_words = TN_CFG_GAT(lanes - 1) + 1;

    /* Per round: one broadcast write (node 0xFFE) clears every node's
     * fields, so no stale setting of an earlier load survives; then each
     * node gets only its non-zero fields, in runs of consecutive words. */
    uint32_t *row = malloc(cfg_words * sizeof *row);
    if (row == NULL)
        goto out_nomem;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        size_t ii = 0, ei = 0;
        if (burst(img, TN_ADDR_NODE(TN_NODE_ALL, TN_REGION_CFG, r * TN_CFG_FIELDS),
                  cfg_words) == NULL)
            goto out_nomem_row;
        for (uint32_t v = 0; v < n_nodes; v++) {
            memset(row, 0, cfg_words * sizeof *row);
            const uint8_t *x = &pr->xbar[(size_t)v * 12];
            for (unsigned o = 0; o < 6; o++) {
                row[o] = x[o];
                row[8 + o] = x[6 + o];
            }
            row[6] = pr->mode;
            for (; ii < pr->ninj && pr->inj[ii].node == v; ii++) {
                const struct tn_inject *in = &pr->inj[ii];
                uint32_t *d = &row[TN_CFG_INJ(in->lane)];
                d[0] = 0x80000000u | (in->relay ? 0x40000000u : 0) | (in->start & 0xFFFFFFu);
                d[1] = in->addr;
                d[2] = in->len;
                if (in->run)
                    row[TN_CFG_GAT(in->lane)] = in->skip << 16 | in->run;
            }
            for (; ei < pr->nej && pr->ej[ei].node == v; ei++) {
                const struct tn_eject *e = &pr->ej[ei];
                uint32_t *d = &row[TN_CFG_EJ(e->lane)];
                d[0] = 0x80000000u;
                d[1] = e->addr;
                d[2] = e->len;
            }
            /* Runs of non-zero words; gaps of up to TN_IMAGE_GAP zeros are
             * written rather than paying for another burst. */
            for (uint32_t f = 0; f < cfg_words;) {
                if (row[f] == 0) {
                    f++;
                    continue;
                }
                uint32_t e = f + 1, zeros = 0;
                for (uint32_t k = f + 1; k < cfg_words && zeros <= TN_IMAGE_GAP; k++) {
                    if (row[k] != 0) {
                        e = k + 1;
                        zeros = 0;
                    } else {
                        zeros++;
                    }
                }
                uint32_t *w = burst(img, TN_ADDR_NODE(v, TN_REGION_CFG, r * TN_CFG_FIELDS + f),
                                    e - f);
                if (w == NULL)
                    goto out_nomem_row;
                memcpy(w, row + f, (e - f) * sizeof *w);
                f = e;
            }
        }
    }
    free(row);

    uint32_t *tmp = malloc((size_t)dev->mem_depth * sizeof *tmp);
    if (tmp == NULL)
        goto out_nomem;
    /* relay-only plans (mem_base 0) stage everything they send */
    for (uint32_t v = 0; v < n_nodes && !(p->nstage && p->mem_base == 0); v++) {
        uint32_t n = tn_plan_init_mem(p, seed, v, tmp, dev->mem_depth);
        if (n == 0)
            continue;
        uint32_t *w = burst(img, TN_ADDR_NODE(v, TN_REGION_MEM, 0), n);
        if (w == NULL) {
            free(tmp);
            goto out_nomem;
        }
        memcpy(w, tmp, n * sizeof *w);
        img->mem_words += n;
    }
    free(tmp);
    if (stage_relay(img, p, seed) != 0)
        goto out_nomem;

    uint32_t *w = burst(img, TN_G_DURATION(0), p->nrounds);
    if (w == NULL)
        goto out_nomem;
    for (uint32_t r = 0; r < p->nrounds; r++)
        w[r] = (uint32_t)p->rounds[r].duration;
    w = burst(img, TN_G_NROUNDS, 1);
    if (w == NULL)
        goto out_nomem;
    w[0] = p->nrounds;
    return 0;

out_nomem_row:
    free(row);
out_nomem:
    tn_image_free(img);
    return tn_errf(err, errlen, TN_ENOMEM, "out of memory compiling the image");
}

void tn_image_free(struct tn_image *img)
{
    free(img->bursts);
    free(img->words);
    memset(img, 0, sizeof *img);
}

size_t tn_image_bytes(const struct tn_image *img)
{
    return img->nwords * 4;
}
