/* SPDX-License-Identifier: MIT */
/* The image compiler writes every plan field at the address docs/hardware.md
 * gives it (decoded here with the document's formula, not the compiler's
 * macros), loads the initial memory and the round table, and refuses, with
 * a message naming what is needed, plans the device cannot run. */
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "plan.h"
#include "sched.h"
#include "tap.h"
#include "tn_error.h"

/* Sparse decode of an image: the last word written at each address. */
struct wmap {
    uint32_t *addr, *val;
    size_t n;
};

/* Writes in order; a write to node 0xFFE (broadcast) reaches every node. */
static void decode(const struct tn_image *img, uint32_t nodes, struct wmap *m)
{
    m->n = 0;
    size_t cap = img->nwords * nodes;
    m->addr = malloc(cap * sizeof *m->addr);
    m->val = malloc(cap * sizeof *m->val);
    uint64_t *pairs = malloc(cap * sizeof *pairs);
    size_t k = 0;
    for (size_t i = 0; i < img->nbursts; i++)
        for (uint32_t j = 0; j < img->bursts[i].n; j++) {
            uint32_t a = img->bursts[i].addr + j, w = img->words[img->bursts[i].off + j];
            if (a >> 20 == 0xFFE)
                for (uint32_t n = 0; n < nodes; n++)
                    pairs[k++] = (uint64_t)(n << 20 | (a & 0xFFFFF)) << 32 | w;
            else
                pairs[k++] = (uint64_t)a << 32 | w;
        }
    /* stable: keep the last write per address */
    for (size_t i = 0; i < k; i++) {
        uint32_t a = (uint32_t)(pairs[i] >> 32);
        size_t j;
        for (j = 0; j < m->n && m->addr[j] != a; j++)
            ;
        if (j == m->n)
            m->addr[m->n++] = a;
        m->val[j] = (uint32_t)pairs[i];
    }
    free(pairs);
}

static bool lookup(const struct wmap *m, uint32_t a, uint32_t *v)
{
    for (size_t j = 0; j < m->n; j++)
        if (m->addr[j] == a) {
            *v = m->val[j];
            return true;
        }
    return false;
}

static uint32_t cfg(uint32_t node, uint32_t r, uint32_t field)
{
    return node << 20 | 2u << 16 | (r * 64 + field);
}

int main(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "3x3x3");
    struct tn_algo_opts ao = {"ring", 2, 6, 1, 0};
    struct tn_sched *s;
    if (tn_build(&s, TN_GOSSIP, &t, &ao) != 0) {
        ok(0, "build the 3x3x3 ring gossip");
        return tap_done();
    }
    struct tn_plan_params par = {6, 4096, 16, 1};
    struct tn_plan *p;
    char err[256];
    is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "lower the gossip for LANES=6");
    struct tn_info dev = {1, {3, 3, 3}, 16, 6, 4096, 16, 1, 1024, 1, 0};
    struct tn_image img;
    is(tn_image_compile(&img, p, &dev, 7, err, sizeof err), 0, "compile it for a matching device");
    struct wmap m;
    decode(&img, t.n, &m);

    /* Crossbar and eject sources of every node and round. */
    bool xok = true, iok = true, eok = true, zok = true;
    uint32_t v;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        for (uint32_t n = 0; n < t.n; n++)
            for (int o = 0; o < 6; o++) {
                xok &= lookup(&m, cfg(n, r, (uint32_t)o), &v) && v == pr->xbar[n * 12 + o];
                xok &= lookup(&m, cfg(n, r, 8 + (uint32_t)o), &v) && v == pr->xbar[n * 12 + 6 + o];
            }
        /* Lanes with a descriptor carry it; every other lane is invalid. */
        uint8_t used_i[27][6] = {{0}}, used_e[27][6] = {{0}};
        for (uint32_t i = 0; i < pr->ninj; i++) {
            const struct tn_inject *d = &pr->inj[i];
            used_i[d->node][d->lane] = 1;
            uint32_t w0, w1, w2;
            iok &= lookup(&m, cfg(d->node, r, 16 + 3u * d->lane), &w0) &&
                   lookup(&m, cfg(d->node, r, 17 + 3u * d->lane), &w1) &&
                   lookup(&m, cfg(d->node, r, 18 + 3u * d->lane), &w2) &&
                   w0 == (0x80000000u | d->start) && w1 == d->addr && w2 == d->len;
        }
        for (uint32_t i = 0; i < pr->nej; i++) {
            const struct tn_eject *d = &pr->ej[i];
            used_e[d->node][d->lane] = 1;
            uint32_t w0, w1, w2;
            eok &= lookup(&m, cfg(d->node, r, 40 + 3u * d->lane), &w0) &&
                   lookup(&m, cfg(d->node, r, 41 + 3u * d->lane), &w1) &&
                   lookup(&m, cfg(d->node, r, 42 + 3u * d->lane), &w2) &&
                   w0 == 0x80000000u && w1 == d->addr && w2 == d->len;
        }
        for (uint32_t n = 0; n < t.n; n++)
            for (uint32_t l = 0; l < 6; l++) {
                if (!used_i[n][l])
                    zok &= lookup(&m, cfg(n, r, 16 + 3 * l), &v) && v == 0;
                if (!used_e[n][l])
                    zok &= lookup(&m, cfg(n, r, 40 + 3 * l), &v) && v == 0;
            }
    }
    ok(xok, "every output select and eject source is written at node<<20 | 2<<16 | r*64+field");
    ok(iok, "every inject descriptor: valid bit, start, first word and length at fields 16+3l..");
    ok(eok, "every eject descriptor: valid bit, first word and length at fields 40+3l..");
    ok(zok, "lanes without a descriptor are written invalid (no stale descriptor survives)");

    /* Initial memory and round table. */
    bool mok = true;
    uint32_t words[4096];
    for (uint32_t n = 0; n < t.n; n++) {
        uint32_t k = tn_plan_init_mem(p, 7, n, words, 4096);
        mok &= k == 2; /* one message of L = 2 flits */
        for (uint32_t i = 0; i < k; i++)
            mok &= lookup(&m, n << 20 | i, &v) && v == words[i] && v == tn_payload(7, n, i, 16);
    }
    ok(mok, "each node's memory starts with its own message's payload (seed 7)");
    bool dok = true;
    for (uint32_t r = 0; r < p->nrounds; r++)
        dok &= lookup(&m, 0xFFF00100u + r, &v) && v == p->rounds[r].duration;
    ok(dok, "DURATION[r] holds each round's duration");
    ok(lookup(&m, 0xFFF00011u, &v) && v == p->nrounds, "NROUNDS holds the number of rounds");
    is(tn_image_bytes(&img), img.nwords * 4, "image size is 4 bytes per word");
    size_t full = (size_t)p->nrounds * t.n * (40 + 3 * 6);
    ok(img.nwords - img.mem_words < full / 2,
       "only non-zero settings are written per node (%zu words, not %zu)",
       img.nwords - img.mem_words, full);
    free(m.addr);
    free(m.val);
    tn_image_free(&img);

    /* Devices that cannot run it. */
    struct tn_info d2 = dev;
    d2.rounds = p->nrounds - 1;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), TN_ECAPACITY, "too few ROUNDS: TN_ECAPACITY");
    ok(strstr(err, "ROUNDS >=") != NULL, "the message says how many rounds are needed: %s", err);
    d2 = dev;
    d2.mem_depth = 2;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), TN_ECAPACITY, "too little memory: TN_ECAPACITY");
    ok(strstr(err, "MEM_DEPTH >=") != NULL, "the message says how much memory is needed: %s", err);
    d2 = dev;
    d2.dims[2] = 4;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), TN_ENOTSUP, "other dims: TN_ENOTSUP");
    ok(strstr(err, "3x3x4") != NULL, "the message names the device's geometry: %s", err);
    d2 = dev;
    d2.lanes = 1;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), TN_ECAPACITY,
       "an all-port plan on a LANES=1 device: TN_ECAPACITY");
    ok(strstr(err, "lanes") != NULL, "the message names the lanes: %s", err);
    /* Board builds (INFO LIMITS) keep CW bits of durations, offsets,
     * addresses and lengths: the fewest bits that hold every value of the
     * plan compile, one fewer is refused; no relay and no gather fields
     * do not matter to this plan (circuits, contiguous streams). */
    uint64_t vmax = 0, dmax = 0;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        if (pr->duration > dmax)
            dmax = pr->duration;
        for (uint32_t i = 0; i < pr->ninj; i++) {
            const struct tn_inject *in = &pr->inj[i];
            uint64_t m = in->start > in->len ? in->start : in->len;
            vmax = m > vmax ? m : vmax;
            vmax = in->addr > vmax ? in->addr : vmax;
        }
        for (uint32_t i = 0; i < pr->nej; i++) {
            vmax = pr->ej[i].addr > vmax ? pr->ej[i].addr : vmax;
            vmax = pr->ej[i].len > vmax ? pr->ej[i].len : vmax;
        }
    }
    uint64_t need = dmax > vmax ? dmax : vmax;
    unsigned cwb = 1;
    while ((1ull << cwb) <= need)
        cwb++;                        /* the fewest bits that hold every value */
    d2 = dev;
    d2.limits = (uint32_t)cwb << 24 | 5u;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), 0,
       "a board build with %u-bit fields (largest value %llu), no relay, no gather: compiles",
       cwb, (unsigned long long)need);
    tn_image_free(&img);
    d2.limits = (uint32_t)(cwb - 1) << 24;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), TN_ECAPACITY,
       "one bit fewer: TN_ECAPACITY");
    ok(strstr(err, "this board build keeps") != NULL, "the message names the width: %s", err);
    /* durations alone: round 0 made 2^CW cycles long (every other value
     * still fits CW bits) */
    uint64_t d0 = p->rounds[0].duration;
    p->rounds[0].duration = 1ull << cwb;
    d2.limits = (uint32_t)cwb << 24;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), TN_ECAPACITY,
       "a round of 2^%u cycles on a %u-bit build: TN_ECAPACITY", cwb, cwb);
    ok(strstr(err, "round 0 lasts") != NULL && strstr(err, "-bit durations") != NULL,
       "the message names the round and the durations: %s", err);
    p->rounds[0].duration = d0;
    /* a relay stream or a gather on a build without them (LIMITS bits 0, 2) */
    struct tn_inject *i0 = &p->rounds[0].inj[0];
    i0->relay = 1;
    d2.limits = 1u;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), TN_ENOTSUP,
       "a relay stream on a build without relay hardware: TN_ENOTSUP");
    ok(strstr(err, "no relay hardware") != NULL, "the message says so: %s", err);
    i0->relay = 0;
    i0->run = 1;
    d2.limits = 4u;
    is(tn_image_compile(&img, p, &d2, 7, err, sizeof err), TN_ENOTSUP,
       "a gather on a build without the gather field: TN_ENOTSUP");
    ok(strstr(err, "no gather field") != NULL, "the message says so: %s", err);
    i0->run = 0;

    tn_plan_free(p);
    tn_sched_free(s);
    return tap_done();
}
