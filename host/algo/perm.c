/* SPDX-License-Identifier: MIT */
/* Permutation traffic on the torus under the two switching modes of the
 * hardware (perm.h, docs/switching.md "Permutations"). */
#include "perm.h"

#include <stdlib.h>
#include <string.h>

#include "liquid.h"
#include "model.h"
#include "names.h"
#include "plan.h"
#include "tn_error.h"
#include "traffic.h"

static const char *const perm_names[] = {"random", "tornado", "bit-reversal", "transpose"};

int tn_perm_parse(const char *s, enum tn_perm *p)
{
    int i = tn_name_index(s, perm_names, TN_PERM_TRANSPOSE + 1);
    if (i < 0)
        return TN_EINVAL;
    *p = (enum tn_perm)i;
    return 0;
}

const char *tn_perm_name(enum tn_perm p)
{
    return p <= TN_PERM_TRANSPOSE ? perm_names[p] : "?";
}

static unsigned log2_exact(uint32_t n)
{
    unsigned b = 0;
    while ((1u << b) < n)
        b++;
    return (1u << b) == n ? b : 0;
}

int tn_perm_build(const struct tn_topo *t, enum tn_perm p, uint64_t seed, uint32_t *dst)
{
    uint32_t N = t->n;
    unsigned c[3], bits = log2_exact(N);
    if (p == TN_PERM_BITREV && (N < 2 || !bits))
        return TN_ENOTSUP;
    if (p == TN_PERM_TRANSPOSE && t->dim[0] != t->dim[1])
        return TN_ENOTSUP;
    for (uint32_t v = 0; v < N; v++) {
        tn_coords(t, v, c);
        if (p == TN_PERM_TORNADO) { /* every coordinate shifted by ceil(k/2) - 1 */
            for (int k = 0; k < 3; k++)
                c[k] = (c[k] + (t->dim[k] + 1) / 2 - 1) % t->dim[k];
            dst[v] = tn_node_id(t, c[0], c[1], c[2]);
        } else if (p == TN_PERM_TRANSPOSE) { /* (x, y, z) -> (y, x, z) */
            dst[v] = tn_node_id(t, c[1], c[0], c[2]);
        } else if (p == TN_PERM_BITREV) {
            uint32_t r = 0;
            for (unsigned b = 0; b < bits; b++)
                r |= ((v >> b) & 1u) << (bits - 1 - b);
            dst[v] = r;
        } else {
            dst[v] = v;
        }
    }
    if (p == TN_PERM_RANDOM) /* Fisher-Yates with a 64-bit LCG */
        for (uint32_t i = N; i > 1; i--) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t j = (uint32_t)((seed >> 33) % i), x = dst[i - 1];
            dst[i - 1] = dst[j];
            dst[j] = x;
        }
    return 0;
}

/* Relay: one round, every node v with dst[v] != v sends one packet (a
 * head and mu flits) at offset 0 along its DOR route. */
static int relay_sched(struct tn_sched *s, const uint32_t *dst, struct tn_perm_report *r)
{
    const struct tn_topo *t = &s->topo;
    unsigned dmax = 0;
    if (tn_sched_add_round(s) < 0)
        return TN_ENOMEM;
    for (uint32_t v = 0; v < t->n; v++) {
        if (dst[v] == v)
            continue;
        uint32_t m = v * t->n + dst[v];
        unsigned d = tn_distance(t, v, dst[v]);
        dmax = d > dmax ? d : dmax;
        r->transfers++;
        if (!tn_sched_add_relay(s, 0, v, dst[v], 0, 0, &m, 1, 0))
            return TN_ENOMEM;
    }
    r->formula = tn_round_duration(s->alpha, r->transfers ? dmax + 1 + (uint64_t)s->msg_flits : 0);
    return 0;
}

/* Circuits: the transfers' DOR arcs as a traffic (transfer x is node
 * from[x]'s), Lambda, the liquid schedule's steps, a circuit round per
 * step. */
static int circuit_sched(struct tn_sched *s, const uint32_t *dst, double seconds,
                         struct tn_perm_report *r)
{
    const struct tn_topo *t = &s->topo;
    uint32_t N = t->n, cap = t->dim[0] + t->dim[1] + t->dim[2] + 1;
    struct tn_traffic tr;
    struct tn_arc *arcs = malloc(cap * sizeof *arcs);
    int *links = malloc(cap * sizeof *links);
    int *step = malloc((N + 1) * sizeof *step);
    uint32_t *from = malloc((N + 1) * sizeof *from);
    int rc = arcs && links && step && from ? 0 : TN_ENOMEM;
    tn_traffic_init(&tr, (int)tn_narcs(t));
    for (uint32_t v = 0; v < N && !rc; v++) {
        if (dst[v] == v)
            continue;
        unsigned d = tn_dor_path(t, v, dst[v], arcs, cap);
        for (unsigned h = 0; h < d; h++)
            links[h] = (int)tn_arc_id(arcs[h].node, arcs[h].dir);
        from[tr.nx] = v;
        rc = tn_traffic_add(&tr, links, (int)d, -1, -1);
    }
    r->transfers = (uint32_t)tr.nx;
    int steps = 0;
    if (!rc && tr.nx) {
        struct tn_liquid_opts o;
        struct tn_liquid_stats st;
        tn_liquid_defaults(&o);
        o.seconds = seconds;
        steps = tn_liquid_search(&tr, &o, step, &st);
        if (steps < 0) {
            rc = steps;
        } else {
            r->lambda = (uint32_t)st.lambda;
            r->circuit_rounds = (uint32_t)steps;
            r->liquid = steps == st.lambda;
        }
    }
    for (int k = 0; k < steps && !rc; k++) {
        unsigned dmax = 0;
        rc = tn_sched_add_round(s) < 0 ? TN_ENOMEM : 0;
        for (int x = 0; x < tr.nx && !rc; x++) {
            if (step[x] != k)
                continue;
            uint32_t v = from[x], m = v * N + dst[v];
            unsigned d = tn_dor_path(t, v, dst[v], arcs, cap);
            dmax = d > dmax ? d : dmax;
            if (!tn_sched_add_circuit(s, (uint32_t)k, v, arcs, d, &dst[v], 1, 0, 1, &m, 1, 0))
                rc = TN_ENOMEM;
        }
        r->formula += s->alpha + dmax + (uint64_t)s->msg_flits;
    }
    tn_traffic_free(&tr);
    free(arcs);
    free(links);
    free(step);
    free(from);
    return rc;
}

/* Store and forward: a round of one-hop circuits at a time, every transfer
 * (in source order) taking its next arc when the arc, its node's inject
 * lanes and the next node's eject lanes are free in the round. */
static int sf_sched(struct tn_sched *s, const uint32_t *dst, struct tn_perm_report *r)
{
    const struct tn_topo *t = &s->topo;
    uint32_t N = t->n, cap = t->dim[0] + t->dim[1] + t->dim[2] + 1, left = 0;
    struct tn_arc *path = malloc((size_t)N * cap * sizeof *path);
    uint32_t *len = calloc(N, sizeof *len), *hop = calloc(N, sizeof *hop);
    uint32_t *ninj = malloc(N * sizeof *ninj), *nej = malloc(N * sizeof *nej);
    uint8_t *used = malloc((size_t)N * TN_NDIRS);
    int rc = path && len && hop && ninj && nej && used ? 0 : TN_ENOMEM;
    for (uint32_t v = 0; v < N && !rc; v++)
        if (dst[v] != v) {
            len[v] = tn_dor_path(t, v, dst[v], path + (size_t)v * cap, cap);
            left++;
            r->transfers++;
        }
    for (int k = 0; left > 0 && !rc; k++) {
        rc = tn_sched_add_round(s) < 0 ? TN_ENOMEM : 0;
        memset(ninj, 0, N * sizeof *ninj);
        memset(nej, 0, N * sizeof *nej);
        memset(used, 0, (size_t)N * TN_NDIRS);
        for (uint32_t v = 0; v < N && !rc; v++) {
            if (hop[v] == len[v])
                continue;
            const struct tn_arc *a = &path[(size_t)v * cap + hop[v]];
            uint32_t next = tn_neighbor(t, a->node, a->dir), m = v * N + dst[v];
            if (used[a->node * TN_NDIRS + a->dir] || ninj[a->node] == 6 || nej[next] == 6)
                continue;
            used[a->node * TN_NDIRS + a->dir] = 1;
            ninj[a->node]++;
            nej[next]++;
            if (!tn_sched_add_circuit(s, (uint32_t)k, a->node, a, 1, &next, 1, 0, 1, &m, 1, 0))
                rc = TN_ENOMEM;
            left -= ++hop[v] == len[v];
        }
        r->formula += s->alpha + 1 + (uint64_t)s->msg_flits;
        r->circuit_rounds++;
    }
    free(path);
    free(len);
    free(hop);
    free(ninj);
    free(nej);
    free(used);
    return rc;
}

int tn_perm_sched(struct tn_sched **out, const struct tn_topo *t, const uint32_t *dst,
                  enum tn_switching sw, uint32_t mu, unsigned alpha, double seconds,
                  struct tn_perm_report *r)
{
    struct tn_sched *s;
    memset(r, 0, sizeof *r);
    int rc = tn_sched_new(&s, t, TN_PERM, tn_switching_name(sw), mu, 6, alpha, 0);
    if (rc)
        return rc;
    rc = tn_sched_set_perm(s, dst);
    if (!rc)
        rc = sw == TN_SW_RELAY ? relay_sched(s, dst, r)
             : sw == TN_SW_SF  ? sf_sched(s, dst, r)
                               : circuit_sched(s, dst, seconds, r);
    if (!rc)
        rc = tn_sched_layout(s);
    if (rc) {
        tn_sched_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

/* The reference model on the relay round: the packets that arrive whole. */
static int relay_losses(const struct tn_topo *t, const uint32_t *dst, uint32_t mu,
                        struct tn_perm_report *r, char *err, size_t errlen)
{
    struct tn_sched *s;
    struct tn_plan *p = NULL;
    struct tn_model_out mo;
    int rc = tn_perm_sched(&s, t, dst, TN_SW_RELAY, mu, 1, 0, r);
    struct tn_plan_params par = {.lanes = 1, .width = 16, .alpha = 1};
    if (rc)
        return rc;
    rc = tn_plan_lower(&p, s, &par, err, errlen);
    if (!rc)
        rc = tn_model_run(p, 1, TN_ENGINE_AUTO, &mo);
    if (!rc) {
        r->relay_lost = mo.errors;
        r->relay_cycles = mo.total;
        tn_model_free(&mo);
    }
    tn_plan_free(p);
    tn_sched_free(s);
    return rc;
}

int tn_perm_analyse(const struct tn_topo *t, const uint32_t *dst, uint32_t mu, double seconds,
                    struct tn_perm_report *r, char *err, size_t errlen)
{
    struct tn_perm_report rr;
    struct tn_sched *s = NULL;
    memset(r, 0, sizeof *r);
    if (errlen)
        err[0] = 0;
    /* the relay first: its lowering refuses what relay heads cannot address
     * before the liquid search spends its time */
    int rc = relay_losses(t, dst, mu, &rr, err, errlen);
    if (!rc)
        rc = tn_perm_sched(&s, t, dst, TN_SW_CS, mu, 1, seconds, r);
    tn_sched_free(s);
    r->relay_lost = rr.relay_lost;
    r->relay_cycles = rr.relay_cycles;
    return rc;
}
