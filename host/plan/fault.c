/* SPDX-License-Identifier: MIT */
/* Link faults: naming, placing in a plan, the flits a plan sends, and the
 * eject descriptors a faulty flit reaches (fault.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "model.h"
#include "tn_error.h"

/* A field of digits only, at most max: 0, or -1. */
static int parse_digits(const char *s, size_t n, uint64_t max, uint64_t *v)
{
    *v = 0;
    if (n == 0 || n > 20)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || *v > (max - (uint64_t)(s[i] - '0')) / 10)
            return -1;
        *v = *v * 10 + (uint64_t)(s[i] - '0');
    }
    return 0;
}

int tn_link_fault_parse(const char *s, struct tn_link_fault *f)
{
    const char *field[4];
    size_t len[4], k = 0;
    for (const char *p = s;; p++) {
        if (*p == ':' || *p == '\0') {
            if (k == 4)
                return -1;
            field[k] = s;
            len[k++] = (size_t)(p - s);
            s = p + 1;
        }
        if (*p == '\0')
            break;
    }
    uint64_t node, cycle, bit;
    char dir[3];
    if (k != 4 || parse_digits(field[0], len[0], UINT32_MAX, &node) != 0 || len[1] != 2 ||
        parse_digits(field[2], len[2], (uint64_t)1 << 48, &cycle) != 0)
        return -1;
    memcpy(dir, field[1], 2);
    dir[2] = '\0';
    if ((f->dir = tn_dir_parse(dir)) < 0)
        return -1;
    f->node = (uint32_t)node;
    f->cycle = cycle;
    if (len[3] == 4 && strncmp(field[3], "drop", 4) == 0)
        f->bit = TN_FAULT_DROP;
    else if (parse_digits(field[3], len[3], 63, &bit) == 0)
        f->bit = (int)bit;
    else
        return -1;
    return 0;
}

void tn_link_fault_format(const struct tn_link_fault *f, char *buf, size_t len)
{
    char what[16] = "drop";
    if (f->bit != TN_FAULT_DROP)
        snprintf(what, sizeof what, "bit %d", f->bit);
    snprintf(buf, len, "node %" PRIu32 " %s cycle %" PRIu64 " %s", f->node, tn_dir_name(f->dir),
             f->cycle, what);
}

/* The round that holds run cycle c (rounds are contiguous from t0 = 0). */
static uint32_t round_of(const struct tn_plan *p, uint64_t c)
{
    uint32_t lo = 0, hi = p->nrounds;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->rounds[mid].t0 <= c)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int tn_link_fault_place(const struct tn_plan *p, unsigned width, const struct tn_link_fault *f,
                        uint32_t *round, uint32_t *rcyc, char *err, size_t errlen)
{
    const char *why = NULL;
    if (f->node >= p->topo.n)
        why = "no such node";
    else if (!tn_dir_exists(&p->topo, f->dir))
        why = "no link in that direction (a dimension of size 1)";
    else if (p->nrounds == 0 || f->cycle >= p->total)
        why = "the run is shorter";
    else if (f->bit != TN_FAULT_DROP && (f->bit < 0 || (unsigned)f->bit > width + 1))
        why = "a flit has bits 0..W-1 data, W tail, W+1 head";
    if (why == NULL) {
        *round = round_of(p, f->cycle);
        *rcyc = (uint32_t)(f->cycle - p->rounds[*round].t0);
    }
    if (why != NULL) {
        char name[80];
        tn_link_fault_format(f, name, sizeof name);
        snprintf(err, errlen, "link fault %s: %s (%u nodes, %" PRIu64 " cycles, W %u)", name,
                 why, p->topo.n, p->total, width);
        return TN_EINVAL;
    }
    return 0;
}

void tn_link_fault_model(const struct tn_link_fault *f, unsigned width, uint32_t round,
                         uint32_t rcyc, struct tn_model_fault *mf)
{
    *mf = (struct tn_model_fault){round, f->node, rcyc, f->dir, 0, false, false, false};
    if (f->bit == TN_FAULT_DROP)
        mf->drop = true;
    else if ((unsigned)f->bit < width)
        mf->data = 1u << f->bit;
    else
        *((unsigned)f->bit == width ? &mf->tail : &mf->head) = true;
}

struct target_list {
    const struct tn_plan *p;
    struct tn_link_fault *v;
    size_t n, cap;
    int rc;
};

static void add_target(void *ctx, uint32_t round, uint64_t c, uint32_t node, int dir)
{
    struct target_list *tl = ctx;
    if (tl->rc != 0)
        return;
    if (tl->n == tl->cap) {
        size_t cap = tl->cap ? 2 * tl->cap : 1024;
        struct tn_link_fault *v = realloc(tl->v, cap * sizeof *v);
        if (v == NULL) {
            tl->rc = TN_ENOMEM;
            return;
        }
        tl->v = v;
        tl->cap = cap;
    }
    tl->v[tl->n++] = (struct tn_link_fault){node, dir, tl->p->rounds[round].t0 + c, 0};
}

int tn_link_fault_targets(const struct tn_plan *p, struct tn_link_fault **out, size_t *n)
{
    struct target_list tl = {p, NULL, 0, 0, 0};
    struct tn_model_probe probe = {.on_flit = add_target, .ctx = &tl};
    int rc = tn_model_probe_links(p, 1, &probe);
    if (rc == 0)
        rc = tl.rc;
    if (rc != 0) {
        free(tl.v);
        return rc;
    }
    *out = tl.v;
    *n = tl.n;
    return 0;
}

/* Mark the eject descriptors of round r (statistics from base on) that
 * listen to input port d of node u. */
static uint32_t mark_ejects(const struct tn_plan_round *pr, uint32_t base, uint32_t u, int d,
                            uint8_t *reach)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pr->nej; i++)
        if (pr->ej[i].node == u && pr->ej[i].port == d && !reach[base + i]) {
            reach[base + i] = 1;
            n++;
        }
    return n;
}

uint32_t tn_link_fault_reach(const struct tn_plan *p, const struct tn_link_fault *f, uint8_t *reach,
                             uint32_t nstats)
{
    memset(reach, 0, nstats);
    uint32_t r = round_of(p, f->cycle), base = 0, n = 0;
    for (uint32_t k = 0; k < r; k++)
        base += p->rounds[k].nej;
    const struct tn_plan_round *pr = &p->rounds[r];
    /* A circuit is a tree of links: follow every output that relays the
     * input the flit arrives on (at most one visit per link). */
    size_t nlinks = (size_t)p->topo.n * TN_NDIRS, top = 0;
    uint32_t *stack = malloc(nlinks * sizeof *stack);
    uint8_t *seen = calloc(nlinks, 1);
    if (stack == NULL || seen == NULL) {
        free(stack);
        free(seen);
        return 0;
    }
    stack[top++] = f->node * TN_NDIRS + (uint32_t)f->dir;
    seen[stack[0]] = 1;
    while (top > 0) {
        uint32_t link = stack[--top];
        int d = (int)(link % TN_NDIRS);
        uint32_t u = tn_neighbor(&p->topo, link / TN_NDIRS, d);
        n += mark_ejects(pr, base, u, d, reach);
        for (int o = 0; o < TN_NDIRS; o++) {
            uint32_t next = u * TN_NDIRS + (uint32_t)o;
            if (pr->xbar[u * 12 + o] == TN_SEL_PORT(d) && !seen[next]) {
                seen[next] = 1;
                stack[top++] = next;
            }
        }
    }
    free(stack);
    free(seen);
    return n;
}
