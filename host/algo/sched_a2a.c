/* SPDX-License-Identifier: MIT */
/* All-to-all traffic schedule (liquid or round-robin) -> rounds of DOR
 * circuits (include/torus/a2a.h). */
#include "a2a.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "liquid.h"
#include "clock.h"
#include "tn_error.h"
#include "traffic.h"

static int steps_of(const int *step, int nx)
{
    int n = 0;
    for (int i = 0; i < nx; i++)
        if (step[i] + 1 > n)
            n = step[i] + 1;
    return n;
}

/* The sum over the n steps of their longest transfer (links): beside the
 * steps, what a schedule costs on the device, a step a round of alpha +
 * longest path + L cycles; -1 when out of memory. */
static long path_sum(const struct tn_traffic *tr, const int *step, int n)
{
    long *longest = calloc((size_t)n, sizeof *longest), sum = 0;
    if (!longest)
        return -1;
    for (int i = 0; i < tr->nx; i++)
        if (tr->off[i + 1] - tr->off[i] > longest[step[i]])
            longest[step[i]] = tr->off[i + 1] - tr->off[i];
    for (int s = 0; s < n; s++)
        sum += longest[s];
    free(longest);
    return sum;
}

/* Whether cand (n steps, as many as the best so far in step) has shorter
 * paths; not when that cannot be computed (out of memory). */
static int shorter_paths(const struct tn_traffic *tr, const int *cand, const int *step, int n)
{
    long c = path_sum(tr, cand, n), s = path_sum(tr, step, n);
    return c >= 0 && s >= 0 && c < s;
}

/* Keeps cand[] (n steps, from the stage 'via') as the schedule when the
 * verifier accepts it and it is shorter than the best so far, or as short
 * with shorter paths. */
static void keep(const struct tn_traffic *tr, const int *cand, int n, const char *via,
                 int exhausted, int *best, int *step, struct tn_a2a_info *info)
{
    if (n <= 0 || (*best && n > *best) ||
        (*best == n && !shorter_paths(tr, cand, step, n)) ||
        tn_traffic_check(tr, cand, n, 0) != 0)
        return;
    *best = n;
    memcpy(step, cand, sizeof(int) * (size_t)tr->nx);
    snprintf(info->via, sizeof info->via, "%s", via);
    info->exhausted = exhausted;
}

/* On the quotient by translations (cubes): the step classes (all-port),
 * then the liquid search on the quotient, with its share of the bound if
 * still above Lambda, else a twentieth of it for a liquid schedule with
 * shorter paths (4x4x4: 300 cycles at L = 1 against the classes' 312);
 * each lifted to the full traffic. */
static int quotient(const struct tn_traffic *tr, const struct tn_topo *c, enum tn_port_model pm,
                    const struct tn_a2a_opts *o, double bound, int lambda, int *cand, int *best,
                    int *step, struct tn_a2a_info *info)
{
    struct tn_traffic q;
    if (tn_traffic_torus_quotient(&q, c, pm, TN_TIE_PLUS) != 0)
        return 0;
    int rc = 0, *sq = malloc(sizeof(int) * (size_t)(q.nx ? q.nx : 1));
    if (!sq) {
        rc = TN_ENOMEM;
        goto out;
    }
    if (pm == TN_PORT_ALL) {
        int n = tn_traffic_torus_classes(&q, c, o->seed, bound / 2, sq);
        if (n == TN_ENOMEM) {
            rc = n;
            goto out;
        }
        if (n > 0 && tn_traffic_torus_lift(tr, c, sq, cand) == 0)
            keep(tr, cand, n, "classes", n == lambda, best, step, info);
    }
    {
        struct tn_liquid_opts lo;
        struct tn_liquid_stats st;
        tn_liquid_defaults(&lo);
        lo.seconds = *best == lambda ? bound / 20 : bound / 2;
        lo.seed = o->seed;
        int n = tn_liquid_search(&q, &lo, sq, &st);
        if (n > 0 && tn_traffic_torus_lift(tr, c, sq, cand) == 0)
            keep(tr, cand, n, "quotient", st.exhausted && n == lambda, best, step, info);
    }
out:
    free(sq);
    tn_traffic_free(&q);
    return rc;
}

/* Liquid: the product schedule (single-port, liquid by construction),
 * else the step classes and the search on the quotient by translations
 * (cubes), else the search on the full traffic; the shortest valid
 * schedule wins. */
static int liquid(const struct tn_traffic *tr, const struct tn_topo *c, enum tn_port_model pm,
                  const struct tn_a2a_opts *o, int lambda, int *step, struct tn_a2a_info *info)
{
    double bound = o->seconds > 0 ? o->seconds : 10.0;
    int best = 0, rc = 0;
    int *cand = malloc(sizeof(int) * (size_t)(tr->nx ? tr->nx : 1));
    if (!cand)
        return TN_ENOMEM;
    if (pm == TN_PORT_SINGLE) {
        int n = tn_traffic_torus_product(tr, c, TN_TIE_PLUS, cand);
        keep(tr, cand, n, "product", 1, &best, step, info);
    }
    if (best == 0 || best > lambda) {
        rc = quotient(tr, c, pm, o, bound, lambda, cand, &best, step, info);
        if (rc)
            goto out;
    }
    if (best == 0 || best > lambda) {
        struct tn_liquid_opts lo;
        struct tn_liquid_stats st;
        tn_liquid_defaults(&lo);
        lo.seconds = best ? bound / 2 : bound;
        lo.seed = o->seed;
        lo.start = best ? step : NULL;
        lo.start_steps = best;
        int n = tn_liquid_search(tr, &lo, cand, &st);
        keep(tr, cand, n, "full", st.exhausted, &best, step, info);
    }
    rc = best > 0 ? best : TN_ENOMEM;
out:
    free(cand);
    return rc;
}

int tn_a2a_build(struct tn_sched **out, const struct tn_topo *t, const struct tn_a2a_opts *o,
                 struct tn_a2a_info *info)
{
    memset(info, 0, sizeof *info);
    if (t->n > TN_A2A_NODES_MAX || o->msg_flits == 0 || (o->ports != 1 && o->ports != 6))
        return TN_EINVAL;
    enum tn_port_model pm = o->ports == 1 ? TN_PORT_SINGLE : TN_PORT_ALL;
    struct tn_traffic tr;
    struct tn_sched *s = NULL;
    int rc = tn_traffic_torus_a2a(&tr, t, pm, TN_TIE_PLUS);
    if (rc != 0)
        return rc;
    int nx = tr.nx;
    int *step = malloc(sizeof(int) * (size_t)(nx ? nx : 1));
    int *load = malloc(sizeof(int) * (size_t)(tr.nlinks ? tr.nlinks : 1));
    uint32_t *order = malloc(sizeof(uint32_t) * (size_t)(nx ? nx : 1));
    uint32_t *first = calloc((size_t)nx + 2, sizeof(uint32_t));
    unsigned diam = tn_diameter(t);
    struct tn_arc *arcs = malloc(sizeof *arcs * (diam + 1));
    rc = TN_ENOMEM;
    if (!step || !load || !order || !first || !arcs)
        goto out_free;
    double t0 = tn_now_s();
    info->transfers = (uint32_t)nx;
    info->lambda = (uint32_t)(nx ? tn_traffic_load(&tr, NULL, load) : 0);
    int nrr = nx ? tn_roundrobin(&tr, step) : 0;
    if (nrr < 0) {
        rc = nrr;
        goto out_free;
    }
    info->rr_steps = (uint32_t)nrr;
    int ns = nrr;
    if (o->kind == TN_A2A_LIQUID && nx > 0) {
        ns = liquid(&tr, t, pm, o, (int)info->lambda, step, info);
        if (ns < 0) {
            rc = ns;
            goto out_free;
        }
    } else {
        snprintf(info->via, sizeof info->via, nx ? "round-robin" : "no transfers");
        ns = steps_of(step, nx);
    }
    info->search_s = tn_now_s() - t0;
    info->steps = (uint32_t)ns;
    rc = tn_sched_new(&s, t, TN_ALLTOALL, o->kind == TN_A2A_LIQUID ? "liquid" : "round-robin",
                      o->msg_flits, o->ports, o->alpha, 0);
    if (rc != 0)
        goto out_free;
    rc = TN_ENOMEM;
    /* transfers by step (counting sort), in transfer order within a step */
    for (int i = 0; i < nx; i++)
        first[step[i] + 1]++;
    for (int k = 0; k < ns; k++)
        first[k + 1] += first[k];
    for (int i = 0; i < nx; i++)
        order[first[step[i]]++] = (uint32_t)i;
    uint32_t N = t->n;
    for (int k = 0, i = 0; k < ns; k++) {
        if (tn_sched_add_round(s) < 0)
            goto out_free;
        unsigned dmax = 0;
        for (; i < nx && step[order[i]] == k; i++) {
            int x = (int)order[i], src = tr.snd[x], dst = tr.rcv[x];
            unsigned d = tn_dor_path(t, (uint32_t)src, (uint32_t)dst, arcs, diam);
            uint32_t ej = (uint32_t)dst, id = tn_a2a_msg(N, (uint32_t)src, (uint32_t)dst);
            if (!tn_sched_add_circuit(s, (uint32_t)k, (uint32_t)src, arcs, d, &ej, 1,
                                      0, 1, &id, 1, 0))
                goto out_free;
            if (d > dmax) /* the Lee distance */
                dmax = d;
        }
        info->formula_dsum += dmax;
    }
    info->formula = (uint64_t)ns * (o->alpha + o->msg_flits) + info->formula_dsum;
    info->flow_bound = (uint64_t)info->lambda * o->msg_flits;
    info->step_bound = (uint64_t)info->lambda * (o->alpha + 1 + o->msg_flits);
    rc = tn_sched_layout(s);
    if (rc != 0)
        goto out_free;
    *out = s;
    s = NULL;
out_free:
    tn_sched_free(s);
    free(step);
    free(load);
    free(order);
    free(first);
    free(arcs);
    tn_traffic_free(&tr);
    return rc;
}
