/* SPDX-License-Identifier: MIT */
/* The collectives by request (coll.h): builders, closed forms, report
 * lines and JSON, one table entry each. */
#include "coll.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "runopt.h"
#include "tn_error.h"

/* ---- builders ---- */

/* Scatter or gather: the lengths (given, random or L), FDF or
 * certificates over one relay round. */
static int build_sg(const struct tn_coll_req *r, const struct tn_topo *t, struct tn_coll_built *b,
                    char *err, size_t errlen)
{
    if (t->n > 1 && (t->dim[0] > 15 || t->dim[1] > 15 || t->dim[2] > 15))
        return tn_errf(err, errlen, TN_ENOTSUP,
                    "relay heads carry 4-bit coordinates: dims up to 15");
    bool tap = b->coll == TN_GATHER && r->algo && strcmp(r->algo, "shoulder-tap") == 0;
    if (b->coll == TN_GATHER)
        b->ports = 1;
    if (b->coll == TN_GATHER && r->algo && !tap && strcmp(r->algo, "certificates") != 0)
        return tn_errf(err, errlen, TN_EINVAL, "bad --algo '%s' for gather: use certificates "
                       "(the DOR tree) or shoulder-tap (the path along X from the root)",
                       r->algo);
    if (tap && t->dim[0] < 3)
        return tn_errf(err, errlen, TN_EINVAL, "shoulder-tap runs on the path of the root and "
                       "the nodes after it in X+ whose routes run X- to it: it needs DIM_X >= 3");
    if (r->sg_tree == TN_SG_SIX && (b->coll == TN_GATHER || b->ports != 6))
        return tn_errf(err, errlen, TN_EINVAL, "the six trees are for the all-port scatter "
                       "(--ports 6)%s", b->coll == TN_GATHER ? "; the gather runs on the DOR tree"
                                                             : "");
    uint32_t *len = calloc(t->n, sizeof *len);
    if (!len)
        return tn_errf(err, errlen, TN_ENOMEM, "out of memory");
    if (r->lengths)
        memcpy(len, r->lengths, t->n * sizeof *len);
    else
        tn_lengths_fill(len, t->n, r->msg_flits, r->random_lengths, r->seed);
    struct tn_sg_opts so = {r->root, b->ports, r->sg_tree, len, b->alpha, 0, tap};
    int rc = b->coll == TN_SCATTER ? tn_scatter_build(&b->s, t, &so, &b->x.sg)
                                   : tn_gather_build(&b->s, t, &so, &b->x.sg);
    free(len);
    if (rc == TN_EINVAL && r->sg_tree == TN_SG_SIX)
        return tn_errf(err, errlen, rc, "cannot build the scatter on the six trees: they need "
                       "every dimension of at least 2 nodes and 6 ports");
    if (rc != 0)
        return tn_errf(err, errlen, rc, "cannot build the %s: %s", tn_coll_name(b->coll),
                    tn_strerror(rc));
    b->formula.cycles = b->x.sg.formula;
    b->formula.rounds = b->s->nrounds;
    return 0;
}

static int build_p2p(const struct tn_coll_req *r, const struct tn_topo *t,
                     struct tn_coll_built *b, char *err, size_t errlen)
{
    struct tn_p2p_opts po = {r->sw, r->root, r->distance, r->msg_flits, r->packet_flits,
                             b->alpha};
    int rc = tn_p2p_build(&b->s, t, &po, &b->x.p2p);
    if (rc != 0)
        return tn_errf(err, errlen, rc, "cannot build the p2p transfer: %s (distance 1..%u from a "
                    "node, at most %u packets, cs without packets, sf with equal packets)",
                    tn_strerror(rc), tn_diameter(t), t->n);
    b->formula.cycles = b->x.p2p.device;
    b->formula.rounds = b->x.p2p.rounds;
    return 0;
}

static int build_a2a(const struct tn_coll_req *r, const struct tn_topo *t,
                     struct tn_coll_built *b, char *err, size_t errlen)
{
    if (t->n > TN_A2A_NODES_MAX)
        return tn_errf(err, errlen, TN_ENOTSUP, "alltoall takes at most %u nodes (message ids "
                    "s*N+d)", TN_A2A_NODES_MAX);
    struct tn_a2a_opts o = {r->a2a_kind, r->msg_flits, b->ports, b->alpha, r->search_s,
                            (unsigned)r->seed};
    int rc = tn_a2a_build(&b->s, t, &o, &b->x.a2a);
    if (rc != 0)
        return tn_errf(err, errlen, rc, "cannot build the all-to-all schedule: %s",
                    tn_strerror(rc));
    const struct tn_a2a_info *ai = &b->x.a2a;
    b->formula.rounds = ai->steps;
    b->formula.dsum = ai->formula_dsum;
    b->formula.tsum = (uint64_t)ai->steps * r->msg_flits;
    b->formula.cycles = ai->formula;
    return 0;
}

/* Gossip or broadcast by algorithm (the cheapest by default). */
static int build_algo(const struct tn_coll_req *r, const struct tn_topo *t,
                      struct tn_coll_built *b, char *err, size_t errlen)
{
    struct tn_algo_opts ao = {r->algo, r->msg_flits, b->ports, b->alpha, r->root};
    int rc = tn_build(&b->s, b->coll, t, &ao);
    if (rc == TN_EINVAL || rc == TN_ENOTSUP) {
        int n = snprintf(err, errlen, "algorithm '%s' %s for %ux%ux%u with %u ports; choose "
                         "from:", r->algo ? r->algo : "auto",
                         rc == TN_EINVAL ? "is unknown" : "does not apply", t->dim[0],
                         t->dim[1], t->dim[2], b->ports);
        for (const char *const *a = tn_algo_names(b->coll); *a && n > 0 && (size_t)n < errlen; a++)
            if (tn_algo_applies(b->coll, *a, t, b->ports))
                n += snprintf(err + n, errlen - (size_t)n, " %s", *a);
        return rc;
    }
    if (rc != 0)
        return tn_errf(err, errlen, rc, "cannot build the schedule: %s", tn_strerror(rc));
    b->have_formula = tn_algo_cost(b->coll, b->s->algo, t, &ao, &b->formula) == 0;
    return 0;
}

/* The permutation (random from the seed) as relay packets sent all at
 * once, liquid circuit rounds or store and forward. */
static int build_perm(const struct tn_coll_req *r, const struct tn_topo *t,
                      struct tn_coll_built *b, char *err, size_t errlen)
{
    uint32_t *dst = malloc(((size_t)t->n + 1) * sizeof *dst);
    int rc = dst ? tn_perm_build(t, r->perm, r->seed, dst) : TN_ENOMEM;
    if (rc == TN_ENOTSUP)
        tn_errf(err, errlen, rc, "%s does not apply to %ux%ux%u (bit-reversal needs N a power "
             "of 2, transpose X = Y)", tn_perm_name(r->perm), t->dim[0], t->dim[1], t->dim[2]);
    if (rc == 0) {
        rc = tn_perm_sched(&b->s, t, dst, r->sw, r->msg_flits, b->alpha, r->search_s,
                           &b->x.perm);
        if (rc)
            tn_errf(err, errlen, rc, "cannot build the permutation schedule: %s",
                 tn_strerror(rc));
    } else if (rc == TN_ENOMEM) {
        tn_errf(err, errlen, rc, "out of memory");
    }
    free(dst);
    if (rc)
        return rc;
    b->formula.cycles = b->x.perm.formula;
    b->formula.rounds = b->s->nrounds;
    return 0;
}

/* ---- report lines ---- */

/* p2p: the device's closed form, the lecture's formula at the hardware's
 * constants and its difference from the measurement (docs/switching.md). */
static void p2p_formula(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct tn_sched *s = b->s;
    const struct tn_p2p_info *p2p = &b->x.p2p;
    unsigned alpha = b->alpha;
    fprintf(f, "cycles formula      %" PRIu64 "  (the device's closed form for %s, "
            "docs/switching.md)\n", p2p->device, s->algo);
    fprintf(f, "lecture             %" PRIu64 "  (%s; t_s = alpha = %u, t_r = t_w = 0, t_m = 1)",
            p2p->lecture, p2p->formula, alpha);
    if (res)
        fprintf(f, ", measured - lecture = %+" PRId64, (int64_t)(res->measured - p2p->lecture));
    fprintf(f, "\ntransfer            node %u -> node %u, %u hops, %u packet%s\n", s->root,
            s->dst, tn_distance(&s->topo, s->root, s->dst), p2p->packets,
            p2p->packets == 1 ? "" : "s");
}

static json_t *p2p_json(const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct tn_sched *s = b->s;
    const struct tn_p2p_info *p2p = &b->x.p2p;
    return json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:s, s:o, s:I, s:I, s:I, s:I}",
                     "switching", s->algo, "src", (json_int_t)s->root, "dst",
                     (json_int_t)s->dst, "distance",
                     (json_int_t)tn_distance(&s->topo, s->root, s->dst), "packets",
                     (json_int_t)p2p->packets, "cycles_lecture", (json_int_t)p2p->lecture,
                     "lecture_formula", p2p->formula, "measured_minus_lecture",
                     res ? json_integer((json_int_t)((int64_t)res->measured -
                                                     (int64_t)p2p->lecture))
                         : json_null(),
                     "t_s", (json_int_t)b->alpha, "t_r", (json_int_t)0, "t_w",
                     (json_int_t)0, "t_m", (json_int_t)1);
}

static void perm_formula(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res)
{
    (void)res;
    enum tn_switching sw = b->sw;
    fprintf(f, "cycles formula      %" PRIu64 "  (%s)\n", b->formula.cycles,
            sw == TN_SW_RELAY ? "relay: alpha + the longest distance + 1 + L, one round"
            : sw == TN_SW_SF ? "store and forward: rounds x (alpha + 1 + L)"
            : "circuits: the sum over rounds of alpha + the round's longest distance + L");
}

/* What the relay lost, device against model, or the circuit rounds
 * against Lambda. */
static void perm_text(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct tn_perm_report *r = &b->x.perm;
    fprintf(f, "permutation         %s: %u transfers\n", tn_perm_name(b->perm), r->transfers);
    if (b->sw == TN_SW_SF) {
        fprintf(f, "store and forward   %u rounds of one-hop circuits, every transfer a hop a "
                "round when its arc is free\n", r->circuit_rounds);
        return;
    }
    if (b->sw == TN_SW_CS) {
        fprintf(f, "circuits            %u rounds, Lambda %u (most transfers on one arc)%s\n",
                r->circuit_rounds, r->lambda, r->liquid ? ": liquid, minimal" : "");
        return;
    }
    if (!res)
        return;
    fprintf(f, "relay (all at once) %u packets lost (model %u), %u arrived whole\n",
            res->hw_err_desc, r->relay_lost, r->transfers - res->hw_err_desc);
    fprintf(f, "router events       %" PRIu64 " collisions, %" PRIu64 " unroutable heads, %" PRIu64
            " dropped flits (model %" PRIu64 ", %" PRIu64 ", %" PRIu64 ")\n", res->relay_dev[0],
            res->relay_dev[1], res->relay_dev[2], res->relay_model[0], res->relay_model[1],
            res->relay_model[2]);
}

static json_t *perm_json(const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct tn_perm_report *r = &b->x.perm;
    enum tn_switching sw = b->sw;
    json_t *o = json_pack("{s:s, s:s, s:I}", "permutation", tn_perm_name(b->perm),
                          "switching", tn_switching_name(sw), "transfers",
                          (json_int_t)r->transfers);
    if (sw == TN_SW_RELAY && res) {
        json_object_set_new(o, "lost", json_integer(res->hw_err_desc));
        json_object_set_new(o, "lost_model", json_integer(r->relay_lost));
        json_object_set_new(o, "collisions", json_integer((json_int_t)res->relay_dev[0]));
        json_object_set_new(o, "collisions_model", json_integer((json_int_t)res->relay_model[0]));
        json_object_set_new(o, "unroutable", json_integer((json_int_t)res->relay_dev[1]));
        json_object_set_new(o, "dropped_flits", json_integer((json_int_t)res->relay_dev[2]));
        json_object_set_new(o, "dropped_flits_model",
                            json_integer((json_int_t)res->relay_model[2]));
    } else if (sw != TN_SW_RELAY) {
        json_object_set_new(o, "rounds", json_integer(r->circuit_rounds));
        if (sw == TN_SW_CS) {
            json_object_set_new(o, "lambda", json_integer(r->lambda));
            json_object_set_new(o, "liquid", json_boolean(r->liquid));
        }
    }
    return o;
}

static void sg_formula(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res)
{
    (void)res;
    if (b->coll == TN_GATHER && b->x.sg.shoulder_tap)
        fprintf(f, "cycles formula      %" PRIu64 "  (alpha + T, T = %" PRIu64 " from "
                "shoulder-tap's own timing)\n", b->formula.cycles, b->x.sg.time);
    else if (b->coll == TN_GATHER)
        fprintf(f, "cycles formula      %" PRIu64 "  (two rounds, %" PRIu64 " + %" PRIu64
                ", from the certificate algorithm's own timing)\n", b->formula.cycles,
                b->x.sg.sync_round, b->x.sg.data_round);
    else
        fprintf(f, "cycles formula      %" PRIu64 "  (alpha + T, at least 3, T = %" PRIu64
                " from the FDF algorithm's own timing)\n", b->formula.cycles, b->x.sg.time);
}

/* One of the gather's two rounds: measured (when run), model, closed form. */
static void gather_round(FILE *f, const char *phases, const char *what, unsigned r,
                         uint64_t formula, const struct tn_run_result *res)
{
    fprintf(f, "%-20sround %u (%s): ", phases, r + 1, what);
    if (res)
        fprintf(f, "measured %" PRIu64 ", model %" PRIu64 ", ", res->round_meas[r],
                res->round_model[r]);
    fprintf(f, "closed form %" PRIu64 " cycles\n", formula);
}

/* The gather's phases, each a relay round of real packets. */
static void gather_text(FILE *f, const struct tn_sg_info *gi, const struct tn_run_result *res)
{
    if (gi->shoulder_tap) {
        fprintf(f, "path                the root and the %u node%s after it in X+ (DOR routes "
                "X- to it); the other nodes' messages are left out\n", gi->path_nodes,
                gi->path_nodes == 1 ? "" : "s");
        gather_round(f, "phases", "calls and data", 0, gi->data_round, res);
        fprintf(f, "algorithm           shoulder-tap: the first data flit at the root in cycle "
                "%" PRIu64 ", the last at T %" PRIu64 ", optimal among woken schedules "
                "(Theorem 2; calls a head and a value word)\n", gi->first, gi->time);
        fprintf(f, "bounds              lower max(b, M) %" PRIu64 " <= T\n", gi->lower);
        return;
    }
    gather_round(f, "phases 1-2", "tokens, certificates", 0, gi->sync_round, res);
    gather_round(f, "phases 3-4", "orders and data", 1, gi->data_round, res);
    fprintf(f, "algorithm           the root's first order at t_sync %" PRIu64
            ", its first data flit %" PRIu64 " later, the last at T %" PRIu64
            " (tokens a head alone; certificates and orders a head and a value word)\n",
            gi->t_sync, gi->first - gi->t_sync, gi->time);
    fprintf(f, "bounds              lower max(b, M) %" PRIu64 " <= T <= %" PRIu64
            " (Theorem 3: t_sync + b3 + M); on the device the root's reaction to the last "
            "certificate is the switch between the rounds\n", gi->lower, gi->bound);
}

/* The optimum or bounds of the algorithm; for the gather, its phases. */
static void sg_text(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct tn_sg_info *gi = &b->x.sg;
    unsigned alpha = b->alpha;
    fprintf(f, "messages            %u non-null, %" PRIu64 " flits with heads, farthest %u hops\n",
            gi->messages, gi->total_flits, gi->height);
    if (gi->messages == 0 && b->coll == TN_GATHER && !gi->shoulder_tap) {
        fprintf(f, "                    every message is null: nothing to gather, but the root "
                "polls every node all the same\n");
        gather_round(f, "phases 1-2", "tokens, certificates", 0, gi->sync_round, res);
    } else if (gi->messages == 0) {
        fprintf(f, "                    every message is null: nothing to %s, the run is the "
                "round switch alone\n", tn_coll_name(b->coll));
    } else if (b->coll == TN_SCATTER && b->ports == 1) {
        fprintf(f, "optimum             %" PRIu64 " = alpha + %" PRIu64 " (every FDF order is "
                "optimal, Theorem 1); Proposition 1 lower bound alpha + %" PRIu64 "\n",
                alpha + gi->optimum, gi->optimum, gi->lower);
    } else if (b->coll == TN_SCATTER) {
        fprintf(f, "trees               %s: FDF per DOR subtree alpha + %" PRIu64
                ", six arc-disjoint trees alpha + %" PRIu64 "%s\n",
                gi->six ? "the six arc-disjoint trees" : "the DOR tree", gi->dortree,
                gi->sixtree, gi->sixtree ? "" : " (none: a dimension has 1 node)");
        fprintf(f, "bound               all-port lower bound alpha + %" PRIu64
                " (max(n_i + D_i, F(d)/6 + d, whole packets packed into ports))\n", gi->lower);
        fprintf(f, "                    the issue's total/6 + farthest = alpha + %" PRIu64
                " (not a valid bound in general: docs/collectives.md)\n",
                (gi->total_flits + 5) / 6 + gi->height);
    } else {
        gather_text(f, gi, res);
    }
}

static json_t *sg_json(const struct tn_coll_built *b, const struct tn_run_result *res)
{
    (void)res;
    const struct tn_sg_info *gi = &b->x.sg;
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:I, s:I, s:I, s:I, "
                     "s:b, s:I}",
                     "messages", (json_int_t)gi->messages, "flits", (json_int_t)gi->total_flits,
                     "height", (json_int_t)gi->height, "time", (json_int_t)gi->time,
                     "optimum", (json_int_t)gi->optimum, "lower", (json_int_t)gi->lower,
                     "bound", (json_int_t)gi->bound, "sixtree", (json_int_t)gi->sixtree,
                     "dortree", (json_int_t)gi->dortree, "tree", gi->six ? "six" : "dor",
                     "t_sync", (json_int_t)gi->t_sync, "first", (json_int_t)gi->first,
                     "sync_round", (json_int_t)gi->sync_round, "data_round",
                     (json_int_t)gi->data_round, "shoulder_tap", gi->shoulder_tap,
                     "path_nodes", (json_int_t)gi->path_nodes);
}

/* Transfers per step of the liquid schedule: #(X)/Lambda(X). */
static double liquid_throughput(const struct tn_a2a_info *ai)
{
    return ai->lambda ? (double)ai->transfers / ai->lambda : 0.0;
}

static double measured_throughput(const struct tn_coll_built *b, const struct tn_run_result *res)
{
    return res && res->measured
               ? (double)b->x.a2a.transfers * b->msg_flits / (double)res->measured : 0.0;
}

static void a2a_text(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct tn_a2a_info *ai = &b->x.a2a;
    fprintf(f, "traffic             %u transfers (DOR, %s), Lambda %u\n", ai->transfers,
            b->ports == 1 ? "single-port" : "all-port", ai->lambda);
    fprintf(f, "schedule            %u steps via %s (gap to Lambda %.2f%%%s), round-robin %u "
            "steps; search %.2f s\n", ai->steps, ai->via,
            ai->lambda ? 100.0 * ((double)ai->steps - ai->lambda) / ai->lambda : 0.0,
            ai->exhausted && ai->steps == ai->lambda ? ", liquid" : "", ai->rr_steps,
            ai->search_s);
    fprintf(f, "bounds              flow Lambda L = %" PRIu64 ", a step per round "
            "Lambda (alpha + 1 + L) = %" PRIu64 "\n", ai->flow_bound, ai->step_bound);
    fprintf(f, "throughput          ");
    if (res)
        fprintf(f, "measured %.3f flits/cycle (%u x %u flits / %" PRIu64 " cycles); ",
                measured_throughput(b, res), ai->transfers, b->msg_flits, res->measured);
    fprintf(f, "liquid #(X)/Lambda(X) = %.3f transfers per step (%.3f flits/cycle at L "
            "cycles a step)\n", liquid_throughput(ai), liquid_throughput(ai));
}

static json_t *a2a_json(const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct tn_a2a_info *ai = &b->x.a2a;
    return json_pack("{s:I, s:I, s:I, s:I, s:s, s:b, s:f, s:I, s:I, s:o, s:f}",
                     "transfers", (json_int_t)ai->transfers, "lambda", (json_int_t)ai->lambda,
                     "steps", (json_int_t)ai->steps, "round_robin_steps",
                     (json_int_t)ai->rr_steps, "via", ai->via, "liquid",
                     ai->exhausted && ai->steps == ai->lambda, "search_s", ai->search_s,
                     "flow_bound", (json_int_t)ai->flow_bound, "step_bound",
                     (json_int_t)ai->step_bound, "throughput_measured",
                     res ? json_real(measured_throughput(b, res)) : json_null(),
                     "throughput_liquid", liquid_throughput(ai));
}

/* Which algorithm is the cheapest for which L (1..4096), as ranges per
 * algorithm ("class-ring L 1-2, 4; split-ring L 3, 5+"), or, when it
 * changes more than 12 times, which alternate up to where. */
static void print_cheapest(FILE *out, enum tn_coll coll, const struct tn_topo *t,
                           const struct tn_algo_opts *ao)
{
    enum { LMAX = 4096, MANY = 12 };
    uint32_t *from = malloc((LMAX + 1) * sizeof *from);
    const char **name = malloc(LMAX * sizeof *name);
    unsigned n = from && name ? tn_algo_crossovers(coll, t, ao, LMAX, from, name, LMAX) : 0;
    fprintf(out, "cheapest at alpha %u by message length (L <= %u):", ao->alpha, LMAX);
    for (unsigned i = 0; i < n; i++) {
        bool seen = false;
        for (unsigned j = 0; j < i; j++)
            seen |= strcmp(name[j], name[i]) == 0;
        if (seen)
            continue;
        if (n > MANY) {
            fprintf(out, "%s %s", i ? " and" : "", name[i]);
            continue;
        }
        fprintf(out, "%s %s L", i ? ";" : "", name[i]);
        from[n] = LMAX + 1;
        for (unsigned j = i, k = 0; j < n; j++) {
            if (strcmp(name[j], name[i]) != 0)
                continue;
            uint32_t last = from[j + 1] - 1;
            fprintf(out, "%s %u", k++ ? "," : "", from[j]);
            if (last == LMAX)
                fprintf(out, "+");
            else if (last > from[j])
                fprintf(out, "-%u", last);
        }
    }
    if (n > MANY)
        fprintf(out, " alternate (%u changes) up to L = %u, then %s", n - 1, from[n - 1] - 1,
                name[n - 1]);
    fprintf(out, "\n");
    free(from);
    free(name);
}

/* Gossip and broadcast: every algorithm's predicted cycles and the
 * cheapest by L (what `schedule` shows; a run shows the one it ran). */
static void algo_text(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res)
{
    if (res)
        return;
    struct tn_algo_opts ao = {NULL, b->msg_flits, b->ports, b->alpha, b->s->root};
    fprintf(f, "algorithms (predicted cycles at alpha %u):", b->alpha);
    for (const char *const *n = tn_algo_names(b->coll); *n; n++) {
        struct tn_cost cost;
        if (tn_algo_cost(b->coll, *n, &b->s->topo, &ao, &cost) == 0)
            fprintf(f, " %s %" PRIu64, *n, cost.cycles);
    }
    fprintf(f, "\n");
    print_cheapest(f, b->coll, &b->s->topo, &ao);
}


/* ---- the table ---- */

struct entry {
    enum tn_coll coll;
    /* the torusctl options (long names) that set what it reads, in run and
     * in schedule (NULL: schedule does not build it) */
    const char *run_opts, *sched_opts;
    int (*build)(const struct tn_coll_req *r, const struct tn_topo *t, struct tn_coll_built *b,
                 char *err, size_t errlen);
    /* NULL: the default closed-form line (rounds alpha + delta + tau) */
    void (*formula)(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res);
    void (*text)(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res);
    json_t *(*json)(const struct tn_coll_built *b, const struct tn_run_result *res);
};

static const struct entry entries[] = {
    {TN_GOSSIP, "msg-flits algo ports", "msg-flits algo ports", build_algo, NULL, algo_text,
     NULL},
    {TN_BROADCAST, "msg-flits algo ports root", "msg-flits algo ports root", build_algo, NULL,
     algo_text, NULL},
    {TN_ALLTOALL, "msg-flits algo ports time", "msg-flits algo ports schedule time", build_a2a,
     NULL, a2a_text, a2a_json},
    {TN_SCATTER, "msg-flits ports root tree lengths random-lengths",
     "msg-flits ports root tree random-lengths seed", build_sg, sg_formula, sg_text, sg_json},
    {TN_GATHER, "msg-flits algo root tree lengths random-lengths",
     "msg-flits algo root random-lengths seed", build_sg, sg_formula, sg_text, sg_json},
    {TN_P2P, "msg-flits root switching distance packet-flits sweep", NULL, build_p2p,
     p2p_formula, NULL, p2p_json},
    {TN_PERM, "msg-flits time switching permutation", NULL, build_perm, perm_formula,
     perm_text, perm_json},
};

static const struct entry *entry_of(enum tn_coll c)
{
    for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
        if (entries[i].coll == c)
            return &entries[i];
    return NULL;
}

/* Whether the space separated list holds the word. */
static bool listed(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

bool tn_coll_reads(enum tn_coll c, bool sched, const char *option)
{
    const struct entry *e = entry_of(c);
    return e && listed(sched ? e->sched_opts : e->run_opts, option);
}

bool tn_coll_option(bool sched, const char *option)
{
    for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
        if (tn_coll_reads(entries[i].coll, sched, option))
            return true;
    return false;
}

bool tn_coll_schedulable(enum tn_coll c)
{
    const struct entry *e = entry_of(c);
    return e && e->sched_opts;
}

int tn_coll_build(const struct tn_coll_req *r, const struct tn_topo *t, unsigned lanes,
                  unsigned alpha, struct tn_coll_built *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->coll = r->coll;
    b->ports = r->ports ? r->ports : lanes >= 6 ? 6 : 1;
    b->alpha = alpha;
    b->msg_flits = r->msg_flits;
    b->sw = r->sw;
    b->perm = r->perm;
    enum tn_coll c = r->coll;
    const struct entry *e = entry_of(c);
    if (!e)
        return tn_errf(err, errlen, TN_EINVAL, "no such collective");
    bool rooted = c == TN_BROADCAST || c == TN_SCATTER || c == TN_GATHER || c == TN_P2P;
    if (rooted && r->root >= t->n)
        return tn_errf(err, errlen, TN_EINVAL, "--root %u is not a node of the %ux%ux%u torus "
                    "(0..%u)", r->root, t->dim[0], t->dim[1], t->dim[2], t->n - 1);
    if (c == TN_ALLTOALL || c == TN_GOSSIP || c == TN_BROADCAST) {
        struct tn_algo_opts ao = {r->algo, r->msg_flits, b->ports, alpha, r->root};
        uint64_t need = tn_build_bytes(c, t, &ao), have = tn_build_bytes_max();
        if (need > have) {
            char dims[32];
            tn_topo_format(t, dims, sizeof dims);
            return tn_errf(err, errlen, TN_ECAPACITY, "%s on %s (%u nodes) would need about "
                           "%.1f GB of memory to build and verify; this machine allows %.1f GB "
                           "(3/4 of its memory): use a smaller torus", tn_coll_name(c), dims, t->n,
                           (double)need / 1e9, (double)have / 1e9);
        }
    }
    b->have_formula = true;
    int rc = e->build(r, t, b, err, errlen);
    b->built = rc == 0;
    return rc;
}

void tn_coll_from_sched(struct tn_coll_built *b, struct tn_sched *s)
{
    memset(b, 0, sizeof *b);
    b->coll = s->coll;
    b->s = s;
    b->ports = s->ports;
    b->alpha = s->alpha;
    b->msg_flits = s->msg_flits;
}

void tn_coll_built_free(struct tn_coll_built *b)
{
    tn_sched_free(b->s);
    b->s = NULL;
}

void tn_coll_formula_text(FILE *f, const struct tn_coll_built *b,
                          const struct tn_run_result *res)
{
    const struct entry *e = entry_of(b->coll);
    const struct tn_sched *s = b->s;
    if (!b->have_formula)
        fprintf(f, "cycles formula      none\n");
    else if (b->built && e->formula)
        e->formula(f, b, res);
    else
        fprintf(f, "cycles formula      %" PRIu64 "  (%u alpha + %" PRIu64 " + %" PRIu64 " %s)\n",
                b->formula.cycles, b->formula.rounds, b->formula.dsum,
                s->msg_flits ? b->formula.tsum / s->msg_flits : 0, s->parts > 1 ? "P" : "L");
}

void tn_coll_text(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct entry *e = entry_of(b->coll);
    if (b->built && e->text)
        e->text(f, b, res);
}

json_t *tn_coll_json(const struct tn_coll_built *b, const struct tn_run_result *res)
{
    const struct entry *e = entry_of(b->coll);
    return b->built && e->json ? e->json(b, res) : NULL;
}
