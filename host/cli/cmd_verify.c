/* SPDX-License-Identifier: MIT */
/* torusctl verify: check any schedule file; exit 3 on a violation. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cdg.h"
#include "cmd.h"
#include "model.h"
#include "outfile.h"
#include "plan.h"
#include "sched.h"
#include "svg.h"
#include "tn_error.h"
#include "verify.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl verify FILE.json [options]\n"
        "  --lanes N         lanes per node to check against (default: the file's ports)\n"
        "  --mem-depth N     memory words per node to check against (default: no limit)\n"
        "  --alpha A         round switch cost for the predicted cycles (default: the file's)\n"
        "  --width W         flit width for the model (default 16)\n"
        "  --model           run the reference model and print its total and error count\n"
        "  --seed S          payload seed for the model (default 1)\n"
        "  --stats FILE      with --model: write the predicted eject statistics as CSV\n"
        "                    (round,node,lane,first,last,count,crc,err; rounds from 1,\n"
        "                    cycles from T0)\n"
        "  --max N           violations to print (default 20)\n"
        "  --svg FILE        write the schedule's space-time diagram as SVG\n"
        "  --svg-rows SEL    its links: all (default), node:N (out of and into N) or\n"
        "                    dim:X|Y|Z\n"
        "  --json[=FILE]     the report as JSON on stdout (the text then on stderr) or in\n"
        "                    FILE: cost, bounds, violations as objects, plan, model\n"
        "  --help            this text\n"
        "exit codes: 0 ok, 1 usage or file error, 3 verification failed\n");
}

/* Relay streams routed by DOR (not along a six tree): report the DOR
 * CDG as information (docs/deadlock.md). The bufferless relay drops a
 * blocked head instead of holding its channels, so it cannot deadlock. */
static void print_relay_cdg(FILE *out, const struct tn_sched *s)
{
    bool relay = false;
    for (uint32_t r = 0; r < s->nrounds; r++)
        for (uint32_t i = 0; i < s->rounds[r].nrelay; i++)
            relay |= s->rounds[r].relay[i].tree == 0;
    struct tn_cdg g;
    if (!relay || tn_cdg_topo(&g, &s->topo, false, TN_ROUTE_DOR))
        return;
    fprintf(out, "relay routing tables (dor): CDG of %u channels %s", g.channels,
           tn_cdg_acyclic(&g) ? "acyclic\n" : "cyclic (information: the relay drops blocked "
           "heads and cannot deadlock; wormhole switching on these tables could):");
    for (uint32_t i = 0; i < g.ncycle; i++) {
        char name[80];
        tn_cdg_channel_name(&g, g.cycle[i], name, sizeof name);
        fprintf(out, "%s%s", i ? " -> " : " ", name);
    }
    if (g.ncycle)
        fprintf(out, "\n");
    tn_cdg_free(&g);
}

/* --stats: the model's statistics of every eject descriptor as CSV. */
static int write_stats(const void *ctx, FILE *f)
{
    const struct tn_model_out *mo = ctx;
    fprintf(f, "round,node,lane,first,last,count,crc,err\n");
    for (uint32_t i = 0; i < mo->nstats; i++) {
        const struct tn_stat *st = &mo->stats[i];
        fprintf(f, "%u,%u,%u,%llu,%llu,%u,0x%08x,%u\n", st->round + 1, st->node, st->lane,
                (unsigned long long)st->first, (unsigned long long)st->last, st->count,
                st->crc, st->err);
    }
    return ferror(f) ? TN_EIO : 0;
}

/* What verify found, for --json. */
struct verdict {
    const struct tn_sched *s;
    const struct tn_report *rep;
    unsigned alpha;
    const char *path;
    const struct tn_plan *plan;   /* lowered and checked, or NULL */
    const char *plan_why;         /* why not lowered (NULL: it was, or not tried) */
    bool model;                   /* model ran: */
    uint64_t model_cycles;
    uint32_t model_streams, model_errors;
    int exit;
};

static json_t *cost_json(const struct tn_cost *c)
{
    return json_pack("{s:I, s:I, s:I, s:I}", "rounds", (json_int_t)c->rounds, "delta",
                     (json_int_t)c->dsum, "tau", (json_int_t)c->tsum, "cycles",
                     (json_int_t)c->cycles);
}

static int write_verdict(const void *ctx, FILE *f)
{
    const struct verdict *v = ctx;
    const struct tn_report *rep = v->rep;
    json_t *viol = json_array();
    for (uint32_t i = 0; i < rep->nkept; i++) {
        const struct tn_violation *x = &rep->viol[i];
        json_array_append_new(viol, json_pack("{s:s, s:o, s:o, s:o, s:o, s:s}", "kind",
            tn_viol_name(x->kind), "round", x->round >= 0 ? json_integer(x->round + 1) : json_null(),
            "circuit", x->circuit >= 0 ? json_integer(x->circuit) : json_null(), "arc",
            x->arc >= 0 ? json_integer(x->arc) : json_null(), "node",
            x->node >= 0 ? json_integer(x->node) : json_null(), "message", x->text));
    }
    struct tn_cost bound = {rep->bounds.rounds, rep->bounds.dsum, rep->bounds.tsum,
                            (uint64_t)rep->bounds.rounds * v->alpha + rep->bounds.dsum +
                                rep->bounds.tsum};
    json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:I, s:I, s:o, s:o, s:I, s:I, s:I, s:I, s:o}",
        "file", v->path, "collective", tn_coll_name(v->s->coll), "algorithm", v->s->algo,
        "dims", tn_cmd_json_dims(&v->s->topo), "msg_flits",
        (json_int_t)(v->s->msg_flits * v->s->parts), "alpha", (json_int_t)v->alpha, "cost",
        cost_json(&rep->cost), "lower_bound", cost_json(&bound), "nodes",
        (json_int_t)v->s->topo.n, "complete_nodes", (json_int_t)rep->complete_nodes,
        "memory_words", (json_int_t)rep->mem_max_words, "violation_count",
        (json_int_t)rep->nviol, "violations", viol);
    json_object_set_new(o, "plan", v->plan ? json_pack("{s:I, s:I}", "memory_words",
                        (json_int_t)v->plan->mem_max, "cycles", (json_int_t)v->plan->total)
                        : v->plan_why ? json_pack("{s:s}", "not_lowered", v->plan_why)
                        : json_null());
    json_object_set_new(o, "model", v->model ? json_pack("{s:I, s:I, s:I}", "cycles",
                        (json_int_t)v->model_cycles, "eject_streams",
                        (json_int_t)v->model_streams, "errors", (json_int_t)v->model_errors)
                        : json_null());
    json_object_set_new(o, "ok", json_boolean(v->exit == TN_EXIT_OK));
    int rc = o && json_dumpf(o, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0 &&
             fputc('\n', f) != EOF ? 0 : TN_EIO;
    json_decref(o);
    return rc;
}

/* Lower s to the device level (lanes, memory and width of the options)
 * and check the plan on its own: an exit code; the plan in *p when
 * lowered (NULL when this schedule is not lowered: the reason in vd). */
static int check_plan(FILE *out, struct tn_sched *s, const struct tn_verify_opts *vo,
                      unsigned width, unsigned a, unsigned max, struct tn_plan **p,
                      struct verdict *vd)
{
    static char err[400];  /* vd->plan_why points here */
    struct tn_plan_params par = {.lanes = vo->lanes ? vo->lanes : s->ports,
                                 .mem_depth = (uint32_t)vo->mem_depth, .width = width,
                                 .alpha = a};
    struct tn_report prep;
    int rc = tn_plan_lower(p, s, &par, err, sizeof err);
    if (rc == TN_ENOTSUP) {
        fprintf(out, "plan: not lowered: %s\n", err);
        vd->plan_why = err;
        return TN_EXIT_OK;
    }
    if (rc) {
        fprintf(stderr, "torusctl verify: cannot lower to the device: %s\n", err);
        return TN_EXIT_VERIFY;
    }
    rc = tn_plan_check(*p, &prep);
    if (rc == TN_EVERIFY) {
        for (uint32_t i = 0; i < prep.nkept && i < max; i++)
            fprintf(out, "plan violation %s: round %d node %lld: %s\n",
                    tn_viol_name(prep.viol[i].kind), prep.viol[i].round + 1,
                    (long long)prep.viol[i].node, prep.viol[i].text);
        tn_report_free(&prep);
        return TN_EXIT_VERIFY;
    }
    if (rc == 0) {
        fprintf(out, "plan: %u lanes, %llu memory words per node, %llu cycles at alpha %u: ok\n",
                par.lanes, (unsigned long long)(*p)->mem_max, (unsigned long long)(*p)->total, a);
        vd->plan = *p;
        tn_report_free(&prep);
    }
    return TN_EXIT_OK;
}

/* --model: the reference model on the plan (--stats: its statistics as
 * CSV). An exit code. */
static int check_model(FILE *out, const struct tn_plan *p, unsigned long seed, const char *stats,
                       struct verdict *vd)
{
    struct tn_model_out mo;
    int rc = tn_model_run(p, seed, TN_ENGINE_AUTO, &mo);
    if (rc) {
        fprintf(stderr, "torusctl verify: model: %s\n", tn_strerror(rc));
        return TN_EXIT_USAGE;
    }
    fprintf(out, "model: %llu cycles, %u eject streams, %u with errors\n",
            (unsigned long long)mo.total, mo.nstats, mo.errors);
    vd->model = true;
    vd->model_cycles = mo.total;
    vd->model_streams = mo.nstats;
    vd->model_errors = mo.errors;
    int ret = mo.errors ? TN_EXIT_VERIFY : TN_EXIT_OK;
    if (stats && tn_write_file(stats, write_stats, &mo) != 0) {
        fprintf(stderr, "torusctl verify: cannot write %s: %s\n", stats, strerror(errno));
        ret = TN_EXIT_USAGE;
    }
    tn_model_free(&mo);
    return ret;
}

static const struct option verify_opts[] = {
    {"lanes", required_argument, NULL, 'l'}, {"mem-depth", required_argument, NULL, 'm'},
    {"alpha", required_argument, NULL, 'A'}, {"width", required_argument, NULL, 'w'},
    {"model", no_argument, NULL, 'M'},       {"max", required_argument, NULL, 'x'},
    {"seed", required_argument, NULL, 'S'},  {"stats", required_argument, NULL, 'O'},
    {"svg", required_argument, NULL, 'V'},   {"svg-rows", required_argument, NULL, 'W'},
    {"json", optional_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};

/* What the command line asks for. */
struct verify_args {
    struct tn_verify_opts vo;
    unsigned long alpha, width, max, seed;  /* alpha ULONG_MAX: the file's */
    bool model;
    const char *stats, *svg, *svg_rows, *json;
};

/* One option: 0 or an exit code (--help: TN_EXIT_OK and *done). */
static int verify_option(struct verify_args *a, int c, char **argv, bool *done)
{
    unsigned long v;
    const char *what = NULL;
    switch (c) {
    case 'l':
        if (!tn_cmd_uint(optarg, 1, 6, &v))
            what = "--lanes (1..6)";
        a->vo.lanes = (unsigned)v;
        break;
    case 'm':
        if (!tn_cmd_uint(optarg, 1, UINT32_MAX, &v))
            what = "--mem-depth";
        a->vo.mem_depth = v;
        break;
    case 'A':
        if (!tn_cmd_uint(optarg, 0, 1u << 20, &a->alpha))
            what = "--alpha";
        break;
    case 'w':
        if (!tn_cmd_uint(optarg, 1, 32, &a->width))
            what = "--width (1..32)";
        break;
    case 'M':
        a->model = true;
        break;
    case 'S':
        if (!tn_cmd_uint(optarg, 0, ULONG_MAX, &a->seed))
            what = "--seed";
        break;
    case 'O':
        a->stats = optarg;
        break;
    case 'V':
        a->svg = optarg;
        break;
    case 'W':
        a->svg_rows = optarg;
        break;
    case 'j':
        a->json = optarg ? optarg : "-";
        break;
    case 'x':
        if (!tn_cmd_uint(optarg, 0, 1000, &a->max))
            what = "--max (0..1000)";
        break;
    case 'h':
        help(stdout);
        *done = true;
        return TN_EXIT_OK;
    default:
        fprintf(stderr, "torusctl verify: unknown or incomplete option '%s': see "
                        "torusctl verify --help\n", argv[optind - 1]);
        return TN_EXIT_USAGE;
    }
    if (what) {
        fprintf(stderr, "torusctl verify: bad %s value '%s'\n", what, optarg);
        return TN_EXIT_USAGE;
    }
    return 0;
}

/* The options and the file: 0 or an exit code (*done: --help). */
static int parse_verify_args(int argc, char **argv, struct verify_args *a, bool *done)
{
    *a = (struct verify_args){.vo = {0, 0, 1000, false}, .alpha = ULONG_MAX, .width = 16,
                              .max = 20, .seed = 1};
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", verify_opts, NULL)) != -1) {
        int ex = verify_option(a, c, argv, done);
        if (ex != 0 || *done)
            return ex;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "torusctl verify: name one schedule file: see torusctl verify --help\n");
        return TN_EXIT_USAGE;
    }
    if (a->stats && !a->model) {
        fprintf(stderr, "torusctl verify: --stats writes the model's statistics: add --model\n");
        return TN_EXIT_USAGE;
    }
    return 0;
}

int cmd_verify(int argc, char **argv)
{
    struct verify_args va;
    bool done = false;
    int ex = parse_verify_args(argc, argv, &va, &done);
    if (ex != 0 || done)
        return ex;
    const char *path = argv[optind];
    char err[400];
    struct tn_sched *s;
    int rc = tn_sched_load_json(&s, path, err, sizeof err);
    if (rc) {
        fprintf(stderr, "torusctl verify: %s: %s\n", path, err);
        return TN_EXIT_USAGE;
    }
    struct tn_report rep;
    rc = tn_verify(s, &va.vo, &rep);
    if (rc == TN_ENOMEM) {
        fprintf(stderr, "torusctl verify: out of memory\n");
        tn_sched_free(s);
        return TN_EXIT_USAGE;
    }
    unsigned a = va.alpha == ULONG_MAX ? s->alpha : (unsigned)va.alpha;
    FILE *out = va.json && strcmp(va.json, "-") == 0 ? stderr : stdout;
    struct verdict vd = {s, &rep, a, path, NULL, NULL, false, 0, 0, 0, 0};
    tn_report_print(out, s, &rep, a, (unsigned)va.max);
    print_relay_cdg(out, s);
    int ret = rc ? TN_EXIT_VERIFY : TN_EXIT_OK;
    struct tn_svg_opts so;
    if (va.svg && !tn_cmd_svg_opts("torusctl verify", va.svg_rows, &s->topo, a, &so)) {
        tn_report_free(&rep);
        tn_sched_free(s);
        return TN_EXIT_USAGE;
    }
    if (va.svg && (rc = tn_svg_save(s, &so, va.svg)) != 0) {
        fprintf(stderr, "torusctl verify: cannot write %s: %s\n", va.svg,
                rc == TN_EIO ? strerror(errno) : tn_strerror(rc));
        ret = TN_EXIT_USAGE;
    }
    struct tn_plan *p = NULL;
    if (ret == TN_EXIT_OK)
        ret = check_plan(out, s, &va.vo, (unsigned)va.width, a, (unsigned)va.max, &p, &vd);
    if (ret == TN_EXIT_OK && va.model && p)
        ret = check_model(out, p, va.seed, va.stats, &vd);
    vd.exit = ret;
    if (va.json && (rc = tn_write_file(va.json, write_verdict, &vd)) != 0) {
        fprintf(stderr, "torusctl verify: cannot write %s: %s\n", va.json,
                rc == TN_EIO ? strerror(errno) : tn_strerror(rc));
        ret = TN_EXIT_USAGE;
    }
    tn_plan_free(p);
    if (ret == TN_EXIT_VERIFY)
        fprintf(stderr, "torusctl verify: %s: %u violation%s\n", path, rep.nviol,
                rep.nviol == 1 ? "" : "s");
    tn_report_free(&rep);
    tn_sched_free(s);
    return ret;
}
