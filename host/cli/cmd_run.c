/* SPDX-License-Identifier: MIT */
/* torusctl run: the command line to a collective request (coll.h) or a
 * schedule file, one tn_run (run.h: build, verify, lower, predict,
 * compile, load, run, read back, compare with the model and the closed
 * form), and its report; fault campaigns and p2p sweeps around it. The
 * product's main job. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "a2a.h"
#include "algo.h"
#include "clock.h"
#include "cmd.h"
#include "cmd_dev.h"
#include "colls.h"
#include "fault.h"
#include "image.h"
#include "model.h"
#include "p2p.h"
#include "perm.h"
#include "plan.h"
#include "run.h"
#include "runopt.h"
#include "sched.h"
#include "sg.h"
#include "svg.h"
#include "tn_error.h"
#include "verify.h"

#define CMD "torusctl run"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl run gossip|broadcast|alltoall|scatter|gather|p2p|perm [options]\n"
        "Run a collective on the device (by default the simulated torus) and\n"
        "check every node's data and the measured cycles against the reference\n"
        "model and the closed form.\n\n"
        "collective:\n"
        "  --msg-flits L     flits per message (default 1)\n"
        "  --algo A          algorithm (default: the cheapest for L and the device's alpha):\n");
    tn_cmd_print_algos(f);
    fprintf(f,
        "  --ports P         6 all-port or 1 single-port (default: the device's lanes)\n"
        "  --root N          broadcast source node (default 0)\n"
        "  --schedule FILE   run this JSON schedule instead (docs/schedule-format.md; the\n"
        "                    collective may be named, then it must be the file's)\n"
        "alltoall (personalised exchange, one circuit round per step):\n"
        "  --schedule S      liquid (default: the liquid schedule search) or round-robin\n"
        "                    (--algo S says the same)\n"
        "  --ports P         6 all-port or 1 single-port traffic model\n"
        "  --time SECONDS    bound of the liquid search (default 10)\n"
        "scatter, gather (relay rounds of head-routed packets on the DOR tree or, all-port\n"
        "  scatter, the six arc-disjoint trees; the gather's tokens, certificates and\n"
        "  orders are real packets too; --algo shoulder-tap: on the path along X from\n"
        "  the root, the other messages left out):\n"
        "  --root N          root node (default 0)\n"
        "  --tree T          scatter with 6 ports: dor (FDF per DOR subtree), six (the six\n"
        "                    arc-disjoint trees, heads routed along them) or auto (default:\n"
        "                    the earlier completion); gather: dor only\n"
        "  --msg-flits L     payload flits per node (default 1)\n"
        "  --random-lengths  lengths uniform in 0..L from --seed (0: null message)\n"
        "  --lengths FILE    one length per node id, whitespace separated (root's ignored)\n"
        "  --ports P         scatter: 1 single-port root (FDF) or 6 (FDF per tree, --tree)\n"
        "p2p (one transfer of --msg-flits payload flits from --root, docs/switching.md):\n"
        "  --switching S     cs (one circuit), sf (a round per hop through memory) or\n"
        "                    relay (head-routed packets); default cs\n"
        "  --distance D      hops to the destination, 1..diameter (default 1)\n"
        "  --packet-flits P  cut the message into packets of P payload flits (sf, relay)\n"
        "  --sweep           every technique (cs, sf, relay, and sf and relay in packets\n"
        "                    of P, default the largest divisor of L up to L/4, larger\n"
        "                    when that makes more packets than nodes) over distances\n"
        "                    1..diameter of --dims at one L: a table (--json: points,\n"
        "                    --svg FILE: cycles against distance)\n"
        "  --sweep=msg-flits the same over L = 1, 2, 4, .. and the largest L the device's\n"
        "                    memory holds for each technique, at --distance (default the\n"
        "                    diameter); P as above for each L\n"
        "perm (every node sends --msg-flits flits to its image under a permutation):\n"
        "  --permutation P   random (from --seed), tornado (every coordinate + ceil(k/2) - 1),\n"
        "                    bit-reversal (N a power of 2) or transpose (X = Y); default random\n"
        "  --switching S     relay: every packet at once along its DOR route in one relay\n"
        "                    round, collisions drop packets and the routers' collision,\n"
        "                    unroutable and drop counters are checked against the model;\n"
        "                    cs (default): rounds of arc-disjoint circuits from the liquid\n"
        "                    search (--time bounds it), against Lambda; sf: store and\n"
        "                    forward, rounds of one-hop circuits through memory\n"
        "  --seed S          payload seed (default 1)\n"
        "  --json[=FILE]     the report as one JSON object on stdout instead of the\n"
        "                    text, or in FILE (the text then on stdout as usual)\n"
        "  --dump N          after the report, print what node N holds as torusctl dump\n"
        "                    does (on the simulator each command starts a fresh model,\n"
        "                    so this is where to look at a run's tables and records)\n"
        "  --svg FILE        write the schedule's space-time diagram (time across, links\n"
        "                    down, a colour per message) as SVG\n"
        "  --svg-rows SEL    its links: all (default), node:N (out of and into N) or\n"
        "                    dim:X|Y|Z (readable figures of large tori)\n"
        "  --svg-rounds FILE after the run, a bar chart of measured and model cycles per round\n"
        "  --fault F         corrupt the load on purpose to prove the checks catch it:\n"
        "                    payload:NODE (flip a bit of NODE's first message),\n"
        "                    duration:ROUND (load ROUND, from 1, one cycle short; refused\n"
        "                    on a round of 3 cycles, the shortest) or rounds:N\n"
        "                    (run only the first N rounds: the others' records are not filed)\n"
        "                    or, on the simulator, link:NODE:DIR:CYCLE:BIT (flip BIT of the\n"
        "                    flit NODE sends on link DIR, X+..Z-, in run CYCLE; BIT 'drop'\n"
        "                    drops it) and report whether the records catch and locate it\n"
        "  --fault-campaign K  simulator: K runs, each with one random link fault on a\n"
        "                    flit the schedule sends (half a data bit, half a drop; from\n"
        "                    --seed), fault-free runs between: injected, detected, located\n"
        "%s"
        "  --help            this text\n"
        "exit codes: 0 data and cycles as predicted, 1 usage or file error,\n"
        "2 device or communication error, 3 verification failed (schedule, data\n"
        "or cycles; the report names node, round and lane), 130 interrupted\n"
        "(Ctrl-C: the device is closed cleanly; a second Ctrl-C exits at once)\n",
        tn_dev_help);
}



static void print_text(const struct tn_run_report *r, const struct tn_info *info,
                       const char *backend)
{
    const struct tn_sched *s = r->b.s;
    const struct tn_plan *p = r->plan;
    const struct tn_report *rep = &r->verify;
    const struct tn_run_result *res = &r->res;
    const struct tn_image *img = &r->image;
    const double *tm = r->tm;
    char dims[32];
    tn_topo_format(&s->topo, dims, sizeof dims);
    printf("%s %s on %s (%s, W=%u, LANES=%u, alpha=%u), L=%u flits", tn_coll_name(s->coll),
           s->algo, dims, backend, info->w, info->lanes, info->alpha, s->msg_flits * s->parts);
    if (s->parts > 1)
        printf(" in %u parts of P=%u", s->parts, s->msg_flits);
    if (s->pad)
        printf(" (%u of them padding)", s->pad);
    printf(", %u rounds\n", p->nrounds);
    printf("\n%5s %6s %8s %10s %10s %10s\n", "round", "path", "stream", "duration", "measured",
           "model");
    for (uint32_t r = 0; r < p->nrounds; r++)
        printf("%5u %6u %8" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", r + 1,
               rep->round_dmax[r], rep->round_lmax[r], p->rounds[r].duration,
               res->round_meas[r], res->round_model[r]);
    printf("\ncycles measured     %" PRIu64 "\n", res->measured);
    printf("cycles model        %" PRIu64 "\n", res->model);
    tn_coll_formula_text(stdout, &r->b, res);
    printf("lower bound         %" PRIu64 "  (%u rounds, delta %" PRIu64 ", tau %" PRIu64 ")\n",
           r->lower, rep->bounds.rounds, rep->bounds.dsum, rep->bounds.tsum);
    uint64_t arcs = (uint64_t)s->topo.n * tn_ports(&s->topo);
    printf("flits moved         %" PRIu64 " flit-hops, link utilisation %.1f%%\n",
           res->flit_hops,
           arcs && res->measured ? 100.0 * (double)res->flit_hops / ((double)arcs * (double)res->measured) : 0.0);
    tn_coll_text(stdout, &r->b, res);
    printf("errors              %u descriptors with error bits, %u nodes with errors latched\n",
           res->hw_err_desc, res->err_nodes);
    printf("image               %zu words in %zu bursts (%zu KiB), %zu of them flit memory\n",
           img->nwords, img->nbursts, tn_image_bytes(img) / 1024, img->mem_words);
    if (res->net_cycles)
        printf("simulated           %" PRIu64 " network cycles (clocked only while the network "
               "has work)\n", res->net_cycles);
    printf("wall time           schedule %.3f s, compile %.3f s, load %.3f s, run %.3f s, "
           "readback %.3f s\n", tm[0], tm[1], tm[2], tm[3], tm[4]);
    for (uint32_t i = 0; i < res->nmis && i < TN_RUN_MAX_LISTED; i++) {
        const struct tn_mismatch *m = &res->listed[i];
        if (m->node == UINT32_MAX)
            printf("MISMATCH: %s\n", m->what);
        else if (m->round == UINT32_MAX)
            printf("MISMATCH node %u: %s\n", m->node, m->what);
        else
            printf("MISMATCH round %u node %u lane %u: %s\n", m->round + 1, m->node, m->lane,
                   m->what);
    }
    if (res->nmis > TN_RUN_MAX_LISTED)
        printf("... %u mismatches in all\n", res->nmis);
    printf("\ndata %s, cycles %s\n", !res->data_ok ? "WRONG" : res->relay_events
           ? "as predicted (every record and router counter equals the model's)"
           : "ok (every CRC matches)", res->cycles_ok ? "as predicted" : "DIFFER from the prediction");
}

static json_t *run_json(const struct tn_run_report *r, const struct tn_info *info,
                        const char *backend)
{
    const struct tn_sched *s = r->b.s;
    const struct tn_plan *p = r->plan;
    const struct tn_run_result *res = &r->res;
    const struct tn_image *img = &r->image;
    const struct tn_coll_built *b = &r->b;
    const double *tm = r->tm;
    json_t *rounds = json_array(), *errors = json_array();
    for (uint32_t r = 0; r < p->nrounds; r++)
        json_array_append_new(rounds, json_pack("{s:I, s:I, s:I}", "duration",
                                                (json_int_t)p->rounds[r].duration, "measured",
                                                (json_int_t)res->round_meas[r], "model",
                                                (json_int_t)res->round_model[r]));
    for (uint32_t i = 0; i < res->nmis && i < TN_RUN_MAX_LISTED; i++) {
        const struct tn_mismatch *m = &res->listed[i];
        json_array_append_new(errors, json_pack("{s:s, s:o, s:o, s:o, s:s}", "kind",
            tn_mis_kind_name(m->kind), "round",
            m->round == UINT32_MAX ? json_null() : json_integer(m->round + 1), "node",
            m->node == UINT32_MAX ? json_null() : json_integer(m->node), "lane",
            m->lane == UINT32_MAX ? json_null() : json_integer(m->lane), "message", m->what));
    }
    uint64_t arcs = (uint64_t)s->topo.n * tn_ports(&s->topo);
    json_t *o = json_pack(
        "{s:s, s:o, s:I, s:s, s:I, s:I, s:s, s:I, s:I, s:I, s:o, s:I, s:b, s:b, s:I, s:o,"
        " s:I, s:f, s:I, s:o}",
        "collective", tn_coll_name(s->coll), "dims", tn_cmd_json_dims(&s->topo),
        "msg_flits", (json_int_t)(s->msg_flits * s->parts), "algorithm", s->algo,
        "rounds", (json_int_t)p->nrounds, "alpha", (json_int_t)info->alpha,
        "backend", backend, "lanes", (json_int_t)info->lanes,
        "cycles_measured", (json_int_t)res->measured, "cycles_model", (json_int_t)res->model,
        "cycles_formula", b->have_formula ? json_integer((json_int_t)b->formula.cycles)
                                          : json_null(),
        "lower_bound_cycles", (json_int_t)r->lower, "data_ok", res->data_ok, "cycles_ok",
        res->cycles_ok, "mismatches", (json_int_t)res->nmis, "errors", errors,
        "flit_hops", (json_int_t)res->flit_hops, "link_utilisation",
        arcs && res->measured ? (double)res->flit_hops / ((double)arcs * (double)res->measured) : 0.0,
        "image_words", (json_int_t)img->nwords, "per_round", rounds);
    if (s->parts > 1) {
        json_object_set_new(o, "parts", json_integer((json_int_t)s->parts));
        json_object_set_new(o, "part_flits", json_integer((json_int_t)s->msg_flits));
        json_object_set_new(o, "padding_flits", json_integer((json_int_t)s->pad));
    }
    json_object_set_new(o, "image_bursts", json_integer((json_int_t)img->nbursts));
    json_object_set_new(o, "image_bytes", json_integer((json_int_t)tn_image_bytes(img)));
    json_object_set_new(o, "sim_net_cycles", res->net_cycles
                        ? json_integer((json_int_t)res->net_cycles) : json_null());
    json_object_set_new(o, "wall_s", json_pack("{s:f, s:f, s:f, s:f, s:f}", "schedule", tm[0],
                                               "compile", tm[1], "load", tm[2], "run", tm[3],
                                               "readback", tm[4]));
    json_t *own = tn_coll_json(b, res);
    if (own)
        json_object_set_new(o, tn_coll_name(s->coll), own);
    return o;
}


/* No progress lines: the JSON takes stdout, or -q. */
static bool no_progress(const struct tn_cmd_json *json)
{
    return tn_cmd_json_stdout(json) || tn_cmd_verbosity == 0;
}

/* A link fault's outcome: detected (any record, the total or a node's
 * status differs) and located: no record of an earlier round differs,
 * and in the fault's round a circuit round's differing records are
 * exactly those of the descriptors its link feeds, a relay round's
 * records are exactly those the model predicts with the fault (a relay
 * flit's reach depends on its head). Later rounds may differ: the data
 * was forwarded. */
struct fault_outcome {
    uint32_t round, rcyc, reached, flagged;
    bool detected, located;
    bool masked;  /* relay: the flit's packet is lost to a collision anyway, and the
                   * model with the fault predicts no change, nor does the device show one */
};

/* Whether the device's record r equals the model's statistics e (count
 * masked as the record keeps it). */
static bool record_is(const struct tn_record *r, const struct tn_stat *e,
                      const struct tn_plan_round *pr, uint32_t count_mask)
{
    return r->count == (e->count & count_mask) && r->crc == e->crc && r->err == e->err &&
           (r->count == 0 || (pr->t0 + r->first == e->first && pr->t0 + r->last == e->last));
}

/* Relay round: reach[i] = the model with the fault predicts a record other
 * than the fault-free one; located when the device shows exactly the
 * faulty model's records in that round. */
static int judge_relay_fault(const struct tn_plan *p, const struct tn_info *info, uint64_t seed,
                             const struct tn_model_out *mo, const struct tn_run_result *res,
                             const struct tn_link_fault *f, uint8_t *reach,
                             struct fault_outcome *o)
{
    struct tn_model_fault mf;
    struct tn_model_out fo;
    tn_link_fault_model(f, info->w, o->round, o->rcyc, &mf);
    memset(reach, 0, mo->nstats);
    int rc = tn_model_run_fault(p, seed, &mf, &fo);
    if (rc != 0)
        return rc;
    uint32_t mask = tn_record_count_mask(info);
    o->reached = 0;
    for (uint32_t i = 0; i < mo->nstats; i++) {
        const struct tn_stat *e = &fo.stats[i];
        if (e->round != o->round)
            continue;
        const struct tn_stat *clean = &mo->stats[i];
        reach[i] = e->count != clean->count || e->crc != clean->crc || e->err != clean->err ||
                   e->first != clean->first || e->last != clean->last;
        o->reached += reach[i];
        if (!record_is(&res->rec[i], e, &p->rounds[o->round], mask))
            o->located = false;
    }
    o->masked = !o->detected && o->reached == 0 && o->located;
    tn_model_free(&fo);
    return 0;
}

static int judge_fault(const struct tn_plan *p, const struct tn_info *info, uint64_t seed,
                       const struct tn_model_out *mo, const struct tn_run_result *res,
                       const struct tn_link_fault *f, uint8_t *reach, struct fault_outcome *o)
{
    bool relay = p->rounds[o->round].mode == TN_MODE_RELAY;
    o->reached = relay ? 0 : tn_link_fault_reach(p, f, reach, mo->nstats);
    o->detected = !res->data_ok || !res->cycles_ok || res->err_nodes > 0 || (res->status & 8);
    o->located = relay || o->reached > 0;
    o->masked = false;
    o->flagged = 0;
    for (uint32_t i = 0; i < mo->nstats; i++) {
        uint32_t r = mo->stats[i].round;
        o->flagged += res->bad[i];
        if (r < o->round ? res->bad[i] : r == o->round && !relay && res->bad[i] != reach[i])
            o->located = false;
    }
    return relay ? judge_relay_fault(p, info, seed, mo, res, f, reach, o) : 0;
}

/* The report's line for a single link fault. */
static void print_link_fault(const struct tn_plan *p, const struct tn_info *info, uint64_t seed,
                             const struct tn_model_out *mo, const struct tn_run_result *res,
                             const struct tn_link_fault *f, struct fault_outcome *o)
{
    char name[80];
    struct tn_link_fault *tg = NULL;
    size_t ntg = 0;
    uint8_t *reach = malloc(mo->nstats ? mo->nstats : 1);
    if (reach == NULL || tn_link_fault_targets(p, &tg, &ntg) != 0) {
        free(reach);
        return;
    }
    bool passes = false;
    for (size_t i = 0; i < ntg && !passes; i++)
        passes = tg[i].node == f->node && tg[i].dir == f->dir && tg[i].cycle == f->cycle;
    bool relay = p->rounds[o->round].mode == TN_MODE_RELAY;
    if (judge_fault(p, info, seed, mo, res, f, reach, o) != 0)
        o->located = false;
    tn_link_fault_format(f, name, sizeof name);
    printf("link fault          %s (%s round %u, its cycle %u): %s; %s, %u descriptor records "
           "differ, %s %u in its round: %s\n", name, relay ? "relay" : "circuit", o->round + 1,
           o->rcyc, passes ? "a flit passes" : "no flit passes (the schedule leaves the link idle)",
           o->detected ? "detected" : "NOT detected", o->flagged,
           relay ? "the model with the fault changes" : "the link feeds", o->reached,
           o->located ? "located" : "not located");
    free(tg);
    free(reach);
}

/* Arm f (placed in round, rcyc) in the device: region 7 of the sending
 * node (docs/hardware.md "Link faults"); f NULL disarms every fault. 0 or
 * a TN_E* code. */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Fault campaign totals: row 0 data bits, row 1 drops. */
struct campaign {
    uint64_t injected[2], detected[2], located[2], masked[2];
    uint64_t clean_runs, false_alarms;
    size_t targets;
    char first_miss[200];
};

static int print_campaign(const struct campaign *c, const struct tn_plan *p, uint64_t seed,
                          const struct tn_cmd_json *json)
{
    static const char *kind[2] = {"data bit", "drop"};
    int ex = TN_EXIT_OK;
    if (json->on) {
        json_t *o = json_object(), *rows = json_array();
        for (int k = 0; k < 2; k++)
            json_array_append_new(rows, json_pack("{s:s, s:I, s:I, s:I, s:I}", "kind", kind[k],
                                                  "injected", (json_int_t)c->injected[k],
                                                  "detected", (json_int_t)c->detected[k],
                                                  "located", (json_int_t)c->located[k],
                                                  "masked", (json_int_t)c->masked[k]));
        json_object_set_new(o, "faults", rows);
        json_object_set_new(o, "flits", json_integer((json_int_t)c->targets));
        json_object_set_new(o, "rounds", json_integer(p->nrounds));
        json_object_set_new(o, "seed", json_integer((json_int_t)seed));
        json_object_set_new(o, "fault_free_runs", json_integer((json_int_t)c->clean_runs));
        json_object_set_new(o, "false_alarms", json_integer((json_int_t)c->false_alarms));
        json_object_set_new(o, "first_miss", c->first_miss[0] ? json_string(c->first_miss)
                                                              : json_null());
        ex = tn_cmd_json_emit(CMD, json, o);
        if (tn_cmd_json_stdout(json))
            return ex;
    }
    printf("link fault campaign: %zu flits on links in %u rounds, seed %" PRIu64 "\n",
           c->targets, p->nrounds, seed);
    printf("%-10s %9s %9s %9s %9s\n", "fault", "injected", "detected", "located", "masked");
    for (int k = 0; k < 2; k++)
        printf("%-10s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "\n", kind[k],
               c->injected[k], c->detected[k], c->located[k], c->masked[k]);
    if (c->masked[0] + c->masked[1])
        printf("masked: the flit belongs to a relay packet that a collision drops anyway; the "
               "model with the fault predicts no change and the device shows none\n");
    printf("fault-free runs %" PRIu64 ", false alarms %" PRIu64 "\n", c->clean_runs,
           c->false_alarms);
    if (c->first_miss[0])
        printf("first fault missed or misplaced: %s\n", c->first_miss);
    return ex;
}

/* K runs of the loaded schedule, each with one random link fault on a
 * flit the schedule sends (half of them a data bit, half a drop), and a
 * fault-free run before the first and after every 100th: exit 0 when
 * every fault is detected and located and no fault-free run differs. */
static int fault_campaign(struct tn_dev *d, const struct tn_plan *p, const struct tn_model_out *mo,
                          struct tn_run_result *res, uint64_t runs, uint64_t seed,
                          const struct tn_cmd_json *json)
{
    struct campaign c;
    memset(&c, 0, sizeof c);
    struct tn_link_fault *tg = NULL;
    uint8_t *reach = malloc(mo->nstats ? mo->nstats : 1);
    int rc = reach == NULL ? TN_ENOMEM : tn_link_fault_targets(p, &tg, &c.targets);
    if (rc == 0 && c.targets == 0) {
        fprintf(stderr, CMD ": the schedule sends no flit on a link: no link fault to "
                "inject\n");
        free(reach);
        return TN_EXIT_USAGE;
    }
    struct tn_progress pr = {"fault runs", tn_now_s(), 0, false, no_progress(json)};
    uint64_t rng = seed;
    unsigned w = d->info.w;
    int ex = TN_EXIT_OK;
    double tm[2];
    for (uint64_t k = 0; rc == 0 && ex == TN_EXIT_OK && k <= runs; k++) {
        uint32_t clear = TN_CTRL_CLEAR;
        if (k % 100 == 0 || k == runs) {           /* a fault-free run */
            if ((rc = tn_run_set_link_fault(d->p, NULL, 0, 0)) != 0 ||
                (rc = tn_proto_write(d->p, TN_G_CTRL, &clear, 1)) != 0 ||
                (rc = tn_run_execute(d->p, &d->info, p, mo, res, true, tm)) != 0)
                break;
            c.clean_runs++;
            c.false_alarms += !res->data_ok || !res->cycles_ok || res->err_nodes > 0 ||
                              (res->status & 8);
            if (k == runs)
                break;
        }
        struct tn_link_fault f = tg[splitmix(&rng) % c.targets];
        f.bit = splitmix(&rng) % 2 ? TN_FAULT_DROP : (int)(splitmix(&rng) % w);
        struct fault_outcome o;
        char err[256];
        if (tn_link_fault_place(p, w, &f, &o.round, &o.rcyc, err, sizeof err) != 0) {
            fprintf(stderr, CMD ": %s\n", err);     /* a target of the model: cannot happen */
            ex = TN_EXIT_USAGE;
            break;
        }
        if ((rc = tn_run_set_link_fault(d->p, &f, o.round, o.rcyc)) != 0 ||
            (rc = tn_proto_write(d->p, TN_G_CTRL, &clear, 1)) != 0 ||
            (rc = tn_run_execute(d->p, &d->info, p, mo, res, true, tm)) != 0)
            break;
        if ((rc = judge_fault(p, &d->info, seed, mo, res, &f, reach, &o)) != 0)
            break;
        int kind = f.bit == TN_FAULT_DROP;
        c.injected[kind]++;
        c.detected[kind] += o.detected;
        c.located[kind] += o.detected && o.located;
        c.masked[kind] += o.masked;
        if (!(o.detected && o.located) && !o.masked && !c.first_miss[0]) {
            char name[80];
            tn_link_fault_format(&f, name, sizeof name);
            snprintf(c.first_miss, sizeof c.first_miss,
                     "%s (round %u, its cycle %u): %s, %u descriptors flagged, %u reached",
                     name, o.round + 1, o.rcyc, o.detected ? "detected" : "not detected", o.flagged,
                     o.reached);
        }
        tn_progress(&pr, k + 1, runs);
    }
    tn_progress_end(&pr);
    free(tg);
    free(reach);
    if (rc != 0) {
        if (rc == TN_ENOMEM || rc == TN_ECAPACITY) {
            fprintf(stderr, CMD ": cannot list the schedule's flits: %s\n", tn_strerror(rc));
            return TN_EXIT_USAGE;
        }
        if (rc == TN_EINTR) {
            fprintf(stderr, CMD ": interrupted: the campaign stopped and the device is "
                    "closed\n");
            return TN_EXIT_INTERRUPTED;
        }
        fprintf(stderr, CMD ": device error: %s\n", tn_proto_errmsg(d->p));
        return TN_EXIT_DEVICE;
    }
    if (ex != TN_EXIT_OK)
        return ex;
    ex = print_campaign(&c, p, seed, json);
    return ex ? ex : c.first_miss[0] || c.false_alarms ? TN_EXIT_VERIFY : TN_EXIT_OK;
}

/* The collective options that apply to each collective (by option code;
 * the device options, --seed, --json, --svg and the faults apply to all):
 * the name of the first option given (codes in given) for a collective it
 * does not apply to, or for a schedule file (which holds its collective);
 * NULL when all apply. */
/* The schedule needs more flit memory than the device has: one line with
 * both figures and the longest message that fits. */
static void print_mem_capacity(const struct tn_sched *s, uint64_t words, uint32_t depth,
                               bool file)
{
    uint32_t L = tn_sched_max_flits(s, words, depth);
    fprintf(stderr, CMD ": the schedule needs %" PRIu64 " flit memory words a node, the device "
            "has %u (MEM_DEPTH): ", words, depth);
    if (L == UINT32_MAX)
        fprintf(stderr, "shorten the messages\n");
    else if (L == 0)
        fprintf(stderr, "no message length fits; take a smaller torus\n");
    else if (file)
        fprintf(stderr, "the longest msg_flits that fits is %u\n", L / s->parts);
    else
        fprintf(stderr, "with --algo %s the longest --msg-flits that fits is %u\n", s->algo, L);
}

/* What the command line asks for. */
struct run_args {
    struct tn_dev_args da;
    struct tn_coll_req req;
    bool named;                  /* the collective named (with a file: it must be the file's) */
    const char *sched_file, *lengths_file, *svg_file, *svg_rows, *svg_rounds;
    struct tn_fault fault;
    uint64_t campaign;           /* --fault-campaign K */
    uint32_t dump_node;          /* --dump N (UINT32_MAX: none) */
    bool sweep, distance_given;
    struct tn_p2p_sweep sweep_opts;
    struct tn_cmd_json json;
    char given[32];              /* the options given, by their codes */
};

static const struct option run_opts[] = {
    {"msg-flits", required_argument, NULL, 'L'},
    {"algo", required_argument, NULL, 'a'}, {"ports", required_argument, NULL, 'p'},
    {"root", required_argument, NULL, 'r'}, {"schedule", required_argument, NULL, 'S'},
    {"seed", required_argument, NULL, 's'}, {"json", optional_argument, NULL, 'j'},
    {"fault", required_argument, NULL, 'F'}, {"time", required_argument, NULL, 'T'},
    {"tree", required_argument, NULL, 't'}, {"lengths", required_argument, NULL, 'l'},
    {"random-lengths", no_argument, NULL, 'R'}, {"svg", required_argument, NULL, 'V'},
    {"fault-campaign", required_argument, NULL, 'K'},
    {"switching", required_argument, NULL, 'w'}, {"distance", required_argument, NULL, 'D'},
    {"packet-flits", required_argument, NULL, 'P'}, {"sweep", optional_argument, NULL, 'X'},
    {"permutation", required_argument, NULL, 'Q'}, {"dump", required_argument, NULL, 'U'},
    {"svg-rows", required_argument, NULL, 'Y'}, {"svg-rounds", required_argument, NULL, 'Z'},
    TN_DEV_LONGOPTS, {NULL, 0, NULL, 0}};

/* One collective option (coll.h's request fields): 0 or an exit code;
 * *handled false when c is none. */
static int collective_option(struct run_args *a, int c, bool *handled)
{
    unsigned long v;
    *handled = true;
    switch (c) {
    case 'L':
        if (!tn_cmd_uint(optarg, 1, 1u << 24, &v)) {
            fprintf(stderr, CMD ": bad --msg-flits '%s': use 1..16777216\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->req.msg_flits = (uint32_t)v;
        break;
    case 'a':
        a->req.algo = optarg;
        break;
    case 'p':
        if (!tn_cmd_uint(optarg, 1, 6, &v) || (v != 1 && v != 6)) {
            fprintf(stderr, CMD ": bad --ports '%s': use 6 or 1\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->req.ports = (unsigned)v;
        break;
    case 'r':
        if (!tn_cmd_uint(optarg, 0, UINT32_MAX, &v)) {
            fprintf(stderr, CMD ": bad --root '%s': use a node id\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->req.root = (uint32_t)v;
        break;
    case 't':
        if (!coll_parse_tree(CMD, optarg, &a->req.sg_tree))
            return TN_EXIT_USAGE;
        break;
    case 'l':
        a->lengths_file = optarg;
        break;
    case 'R':
        a->req.random_lengths = true;
        break;
    case 'T':
        if (!tn_cmd_seconds(CMD, optarg, &a->req.search_s))
            return TN_EXIT_USAGE;
        break;
    case 'w':
        if (tn_switching_parse(optarg, &a->req.sw) != 0) {
            fprintf(stderr, CMD ": bad --switching '%s': use cs, sf or relay\n", optarg);
            return TN_EXIT_USAGE;
        }
        break;
    case 'X':
        a->sweep = true;
        if (optarg && strcmp(optarg, "distance") != 0 && strcmp(optarg, "msg-flits") != 0) {
            fprintf(stderr, CMD ": bad --sweep=%s: use --sweep (over distance) or "
                    "--sweep=msg-flits\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->sweep_opts.by_msg = optarg && strcmp(optarg, "msg-flits") == 0;
        break;
    case 'Q':
        if (tn_perm_parse(optarg, &a->req.perm) != 0) {
            fprintf(stderr, CMD ": bad --permutation '%s': use random, tornado, "
                    "bit-reversal or transpose\n", optarg);
            return TN_EXIT_USAGE;
        }
        break;
    case 'D':
    case 'P':
        if (!tn_cmd_uint(optarg, 1, 1u << 24, &v)) {
            fprintf(stderr, CMD ": bad --%s '%s': use a positive number\n",
                    c == 'D' ? "distance" : "packet-flits", optarg);
            return TN_EXIT_USAGE;
        }
        *(c == 'D' ? &a->req.distance : &a->req.packet_flits) = (uint32_t)v;
        a->distance_given |= c == 'D';
        break;
    default:
        *handled = false;
    }
    return 0;
}

/* One option of run_opts (the device's are taken before): 0, or an exit
 * code (--help: TN_EXIT_OK through *done). */
static int run_option(void *ctx, int c, char **argv, bool *done)
{
    struct run_args *a = ctx;
    unsigned long v;
    size_t ng = strlen(a->given);
    if (c > 0 && c < 128 && !strchr(a->given, c) && ng + 1 < sizeof a->given)
        a->given[ng] = (char)c;
    bool handled;
    int ex = collective_option(a, c, &handled);
    if (handled)
        return ex;
    switch (c) {
    case 'S':
        a->sched_file = optarg;
        break;
    case 's':
        if (!tn_cmd_uint(optarg, 0, UINT64_MAX, &v)) {
            fprintf(stderr, CMD ": bad --seed '%s': use a number\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->req.seed = v;
        break;
    case 'j':
        tn_cmd_json_opt(&a->json, optarg);
        break;
    case 'V':
        a->svg_file = optarg;
        break;
    case 'F':
        if (tn_fault_parse(optarg, &a->fault) != 0) {
            fprintf(stderr, CMD ": bad --fault '%s': use payload:NODE, duration:ROUND, "
                    "rounds:N or link:NODE:DIR:CYCLE:BIT|drop\n", optarg);
            return TN_EXIT_USAGE;
        }
        break;
    case 'Y':
        a->svg_rows = optarg;
        break;
    case 'Z':
        a->svg_rounds = optarg;
        break;
    case 'U':
        if (!tn_cmd_uint(optarg, 0, UINT32_MAX - 1, &v)) {
            fprintf(stderr, CMD ": bad --dump '%s': use a node id\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->dump_node = (uint32_t)v;
        break;
    case 'K':
        if (!tn_cmd_uint(optarg, 1, 100000000, &v)) {
            fprintf(stderr, CMD ": bad --fault-campaign '%s': use 1..100000000 runs\n",
                    optarg);
            return TN_EXIT_USAGE;
        }
        a->campaign = v;
        break;
    case 'h':
        help(stdout);
        *done = true;
        return TN_EXIT_OK;
    default:
        return tn_cmd_bad_option(CMD, argv);
    }
    return 0;
}


/* alltoall: --schedule liquid|round-robin (or --algo) names the kind of
 * schedule; any other --schedule is a file. An exit code. */
static int alltoall_kind(struct run_args *a)
{
    const char *f = a->sched_file, *algo = a->req.algo;
    const char *kind = f && (strcmp(f, "liquid") == 0 || strcmp(f, "round-robin") == 0) ? f : algo;
    if (kind && strcmp(kind, "liquid") != 0 && strcmp(kind, "round-robin") != 0) {
        fprintf(stderr, CMD ": bad --algo '%s' for alltoall: use liquid or round-robin\n", kind);
        return TN_EXIT_USAGE;
    }
    if (kind && algo && kind != algo && strcmp(kind, algo) != 0) {
        fprintf(stderr, CMD ": --schedule %s and --algo %s disagree\n", kind, algo);
        return TN_EXIT_USAGE;
    }
    a->req.a2a_kind = kind && strcmp(kind, "round-robin") == 0 ? TN_A2A_RR : TN_A2A_LIQUID;
    if (a->sched_file == kind)
        a->sched_file = NULL;
    if (!a->sched_file)
        a->req.algo = NULL;
    return 0;
}

/* The options together: what cannot go with what. An exit code. */
static int check_args(struct run_args *a)
{
    bool to_stdout = tn_cmd_json_stdout(&a->json);
    if ((a->svg_rounds || a->svg_rows) && (a->campaign > 0 || a->sweep)) {
        fprintf(stderr, CMD ": --%s draws one run: leave out %s\n",
                a->svg_rounds ? "svg-rounds" : "svg-rows",
                a->sweep ? "--sweep" : "--fault-campaign");
        return TN_EXIT_USAGE;
    }
    if (a->dump_node != UINT32_MAX && (to_stdout || a->campaign > 0 || a->sweep)) {
        fprintf(stderr, CMD ": --dump prints one run's node as text: leave out %s\n",
                to_stdout ? "--json" : a->campaign > 0 ? "--fault-campaign" : "--sweep");
        return TN_EXIT_USAGE;
    }
    if (a->campaign > 0 && a->fault.kind != TN_FAULT_NONE) {
        fprintf(stderr, CMD ": --fault-campaign draws its own faults: leave out --fault\n");
        return TN_EXIT_USAGE;
    }
    const char *stray = coll_stray_option(a->req.coll, false, a->sched_file != NULL, run_opts,
                                          a->given);
    if (stray && a->sched_file)
        fprintf(stderr, CMD ": --%s does not apply to a schedule file (it holds the "
                "collective)\n", stray);
    else if (stray)
        fprintf(stderr, CMD ": --%s does not apply to %s (see --help)\n", stray,
                tn_coll_name(a->req.coll));
    return stray ? TN_EXIT_USAGE : 0;
}

/* Options, then the collective (or a schedule file). An exit code; *done
 * when there is nothing more to do (--help). */
static int parse_args(int argc, char **argv, struct run_args *a, bool *done)
{
    memset(a, 0, sizeof *a);
    a->req = (struct tn_coll_req){.coll = TN_GOSSIP, .msg_flits = 1, .seed = 1,
                                  .search_s = 10.0, .sw = TN_SW_CS, .distance = 1};
    a->dump_node = UINT32_MAX;
    int ex = tn_dev_getopt(argc, argv, run_opts, &a->da, CMD, run_option, a, done);
    if (ex != 0 || *done)
        return ex;
    a->named = optind < argc;
    if (a->named && coll_parse(CMD, argv[optind++], false, &a->req.coll) != 0)
        return TN_EXIT_USAGE;
    ex = a->named && a->req.coll == TN_ALLTOALL ? alltoall_kind(a) : 0;
    if (ex != 0)
        return ex;
    if (a->sched_file == NULL && !a->named) {
        fprintf(stderr, CMD ": which collective? use gossip, broadcast, alltoall, scatter, "
                "gather, p2p or perm (see --help)\n");
        return TN_EXIT_USAGE;
    }
    if (optind < argc) {
        fprintf(stderr, CMD ": unexpected argument '%s'\n", argv[optind]);
        return TN_EXIT_USAGE;
    }
    return check_args(a);
}

/* --schedule FILE: the schedule, its dims and collective checked against
 * the command line's. An exit code. */
static int load_file(struct run_args *a, struct tn_sched **s)
{
    char err[512];
    if (tn_sched_load_json(s, a->sched_file, err, sizeof err) != 0) {
        fprintf(stderr, CMD ": %s: %s\n", a->sched_file, err);
        return TN_EXIT_USAGE;
    }
    const char *why = NULL;
    if (a->da.dims_given && memcmp(a->da.dims.dim, (*s)->topo.dim, sizeof (*s)->topo.dim) != 0)
        why = "--dims disagrees with the schedule file's dims";
    if (why)
        fprintf(stderr, CMD ": %s\n", why);
    else if (a->named && a->req.coll != (*s)->coll)
        fprintf(stderr, CMD ": %s holds a %s schedule, not %s\n", a->sched_file,
                tn_coll_name((*s)->coll), tn_coll_name(a->req.coll));
    if (why || (a->named && a->req.coll != (*s)->coll)) {
        tn_sched_free(*s);
        *s = NULL;
        return TN_EXIT_USAGE;
    }
    a->da.dims = (*s)->topo;
    a->req.coll = (*s)->coll;
    return 0;
}

/* The device against the command line: its INFO, its dims. An exit code;
 * t becomes the device's torus. */
static int check_device(const struct run_args *a, const struct tn_info *info, struct tn_topo *t,
                        struct tn_svg_opts *so)
{
    char err[256];
    if (tn_info_check(info, err, sizeof err) != 0) {
        fprintf(stderr, CMD ": %s\n", err);
        return TN_EXIT_DEVICE;
    }
    if (memcmp(info->dims, a->da.dims.dim, sizeof info->dims) != 0 &&
        (a->da.dims_given || a->sched_file)) {
        fprintf(stderr, CMD ": the device is a %ux%ux%u torus, not %ux%ux%u\n", info->dims[0],
                info->dims[1], info->dims[2], a->da.dims.dim[0], a->da.dims.dim[1],
                a->da.dims.dim[2]);
        return TN_EXIT_USAGE;
    }
    tn_topo_init(t, info->dims[0], info->dims[1], info->dims[2]);
    if (a->dump_node != UINT32_MAX && a->dump_node >= t->n) {
        fprintf(stderr, CMD ": --dump %u is not a node of %ux%ux%u (0..%u)\n", a->dump_node,
                t->dim[0], t->dim[1], t->dim[2], t->n - 1);
        return TN_EXIT_USAGE;
    }
    if (a->campaign > 0 && !info->fault) {
        fprintf(stderr, CMD ": this device has no link fault injection (PARAMS bit 17, FAULT = "
                "1: the simulator models)\n");
        return TN_EXIT_USAGE;
    }
    return tn_cmd_svg_opts(CMD, a->svg_rows, t, info->alpha, so) ? 0 : TN_EXIT_USAGE;
}

/* A failed tn_run: its message, the violations or the memory line; the
 * exit code. */
static int run_failed(int rc, const char *err, const struct tn_run_report *r,
                      const struct tn_info *info, bool file)
{
    if (rc == TN_EVERIFY && r->verify.nviol > 0) {
        fprintf(stderr, CMD ": %s:\n", err);
        for (uint32_t i = 0; i < r->verify.nkept; i++)
            fprintf(stderr, "  %s\n", r->verify.viol[i].text);
        return TN_EXIT_VERIFY;
    }
    if (rc == TN_ECAPACITY && r->b.s && r->verify.mem_max_words > info->mem_depth) {
        print_mem_capacity(r->b.s, r->verify.mem_max_words, info->mem_depth, file);
        return TN_EXIT_USAGE;
    }
    fprintf(stderr, CMD ": %s\n", err);
    if (rc == TN_EINTR)
        return TN_EXIT_INTERRUPTED;
    if (r->device_failed)
        return TN_EXIT_DEVICE;
    return rc == TN_EVERIFY ? TN_EXIT_VERIFY : TN_EXIT_USAGE;
}

/* After the run: the diagrams and --dump. An exit code. */
static int after_run(const struct run_args *a, struct tn_dev *dev, const struct tn_run_report *r)
{
    int rc;
    if (a->svg_rounds) {
        const struct tn_sched *s = r->b.s;
        char title[160];
        snprintf(title, sizeof title, "%s %s: cycles per round, measured on the %s backend and "
                 "modelled", tn_coll_name(s->coll), s->algo, a->da.t.backend);
        if ((rc = tn_svg_rounds_save(a->svg_rounds, title, r->plan->nrounds, r->res.round_meas,
                                     r->res.round_model)) != 0) {
            fprintf(stderr, CMD ": cannot write %s: %s\n", a->svg_rounds, tn_strerror(rc));
            return TN_EXIT_USAGE;
        }
    }
    if (a->dump_node != UINT32_MAX) {
        struct tn_cmd_json text_only = {false, NULL};
        printf("\nnode %u after the run (torusctl dump --help explains the fields):\n",
               a->dump_node);
        if ((rc = tn_dump_node(dev, a->dump_node, 0, 0, &text_only)) != 0)
            return rc;
    }
    return 0;
}

/* --svg: the schedule's space-time diagram. An exit code. */
static int draw_schedule(const struct run_args *a, struct tn_sched *s,
                         const struct tn_svg_opts *so)
{
    int rc = a->svg_file ? tn_svg_save(s, so, a->svg_file) : 0;
    if (rc != 0)
        fprintf(stderr, CMD ": cannot write %s: %s\n", a->svg_file, tn_strerror(rc));
    return rc ? TN_EXIT_USAGE : 0;
}

/* -v: each stage of tn_run as it ends. */
static void note_stage(void *ctx, enum tn_run_stage st, const struct tn_run_report *r)
{
    (void)ctx;
    switch (st) {
    case TN_STAGE_PREPARED:
        tn_cmd_note(CMD, "schedule: %s %s, %u rounds, verified and lowered; the model predicts %"
                    PRIu64 " cycles (%.3f s)", tn_coll_name(r->b.s->coll), r->b.s->algo,
                    r->plan->nrounds, r->model.total, r->tm[0]);
        break;
    case TN_STAGE_COMPILED:
        tn_cmd_note(CMD, "image: %zu words in %zu bursts, %zu of them flit memory (%.3f s)",
                    r->image.nwords, r->image.nbursts, r->image.mem_words, r->tm[1]);
        break;
    case TN_STAGE_LOADED:
        tn_cmd_note(CMD, "loaded (%.3f s)", r->tm[2]);
        break;
    case TN_STAGE_RAN:
        tn_cmd_note(CMD, "ran %" PRIu64 " cycles (%.3f s), read back %u records (%.3f s)",
                    r->res.measured, r->tm[3], r->model.nstats, r->tm[4]);
        break;
    }
}

/* The run's report: text and/or JSON, a link fault's outcome, the
 * diagrams and --dump. 0 when data and cycles are as predicted. */
static int report(const struct run_args *a, struct tn_dev *dev, const struct tn_run_report *r)
{
    const struct tn_info *info = &dev->info;
    bool to_stdout = tn_cmd_json_stdout(&a->json);
    if (!to_stdout)
        print_text(r, info, a->da.t.backend);
    int ex = r->res.data_ok && r->res.cycles_ok ? TN_EXIT_OK : TN_EXIT_VERIFY;
    if (a->json.on && tn_cmd_json_emit(CMD, &a->json, run_json(r, info, a->da.t.backend)) != 0)
        ex = TN_EXIT_USAGE;
    if (a->fault.kind == TN_FAULT_LINK && !to_stdout) {
        struct fault_outcome at = {r->fault_round, r->fault_rcyc, 0, 0, false, false, false};
        print_link_fault(r->plan, info, a->req.seed, &r->model, &r->res, &a->fault.link, &at);
    }
    int after = after_run(a, dev, r);
    return after ? after : ex;
}

/* The run on an open device, its report. An exit code. */
static int run_device(struct run_args *a, struct tn_dev *dev, struct tn_sched *s)
{
    const struct tn_info *info = &dev->info;
    struct tn_topo t;
    struct tn_svg_opts so;
    int ex = check_device(a, info, &t, &so);
    uint32_t *len = NULL;
    if (ex == 0 && a->lengths_file && !s) {
        len = calloc(t.n, sizeof *len);
        ex = len && coll_read_lengths(CMD, a->lengths_file, len, t.n) ? 0 : TN_EXIT_USAGE;
        a->req.lengths = len;
    }
    if (ex != 0) {
        free(len);
        tn_sched_free(s);
        return ex;
    }
    struct tn_run_opts o = {a->req.seed, &a->fault, no_progress(&a->json), a->campaign > 0,
                            note_stage, NULL};
    struct tn_run_report r;
    char err[600] = "";
    int rc = tn_run(dev->p, info, &a->req, s, &o, &r, err, sizeof err);
    free(len);
    if (r.b.s && r.verify.nviol == 0 && rc != TN_EVERIFY)
        ex = draw_schedule(a, r.b.s, &so);
    if (rc != 0)
        ex = run_failed(rc, err, &r, info, a->sched_file != NULL);
    if (ex == 0) {
        r.res.net_cycles = dev->ops->net_cycles ? dev->ops->net_cycles(dev->t) : 0;
        ex = a->campaign > 0 ? fault_campaign(dev, r.plan, &r.model, &r.res, a->campaign,
                                              a->req.seed, &a->json)
                             : report(a, dev, &r);
    }
    tn_run_report_free(&r);
    return ex;
}

int cmd_run(int argc, char **argv)
{
    struct run_args a;
    bool done = false;
    int ex = parse_args(argc, argv, &a, &done);
    if (ex != 0 || done)
        return ex;
    if (a.sweep) {
        a.sweep_opts.distance = a.distance_given ? a.req.distance : 0;
        a.sweep_opts.mu = a.req.msg_flits;
        a.sweep_opts.P = a.req.packet_flits;
        a.sweep_opts.svg = a.svg_file;
        a.sweep_opts.json = a.json;
        return cmd_run_p2p_sweep(argc, argv, run_opts, &a.da, &a.sweep_opts);
    }
    struct tn_sched *s = NULL;
    if (a.sched_file && (ex = load_file(&a, &s)) != 0)
        return ex;
    struct tn_dev dev;
    ex = tn_dev_open(&dev, &a.da, CMD);
    if (ex != 0) {
        tn_sched_free(s);
        return ex;
    }
    ex = run_device(&a, &dev, s);
    tn_dev_close(&dev);
    return ex;
}
