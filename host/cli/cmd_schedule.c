/* SPDX-License-Identifier: MIT */
/* torusctl schedule: build a gossip or broadcast schedule, verify it and
 * print its cost against the lower bounds; optionally write it as JSON. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a2a.h"
#include "algo.h"
#include "cmd.h"
#include "colls.h"
#include "netsched.h"
#include "outfile.h"
#include "plan.h"
#include "runopt.h"
#include "sched.h"
#include "sg.h"
#include "svg.h"
#include "tn_error.h"
#include "transport.h"
#include "verify.h"

/* Message ids above which --json refuses (a 49x49x49 gossip lists 2e9). */
#define JSON_MAX_IDS 50000000ull

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl schedule gossip|broadcast|alltoall|scatter|gather [options]\n"
        "  --dims XxYxZ      torus size (default 7x7x7)\n"
        "  --msg-flits L     flits per message (default 1)\n"
        "  --algo A          algorithm (default: the cheapest for L and alpha;\n"
        "                    docs/host.md describes each):\n");
    tn_cmd_print_algos(f);
    fprintf(f,
        "  --alpha A         round switch cost in cycles (default 1)\n"
        "  --ports P         6 all-port (default) or 1 single-port\n"
        "  --root N          broadcast source node (default 0)\n"
        "  --network FILE    alltoall: the traffic of a network file instead of the torus\n"
        "                    (docs/traffic-format.md; data/fig1-fig7.net is the paper's Fig. 7):\n"
        "                    Lambda, the schedule's steps, --json and --svg (steps x links)\n"
        "  --schedule S      alltoall: liquid (default) or round-robin (--algo S too)\n"
        "  --time SECONDS    alltoall: bound of the liquid search (default 10)\n"
        "  --random-lengths  scatter, gather: lengths uniform in 0..L from --seed\n"
        "  --seed S          seed of --random-lengths (default 1)\n"
        "  --tree T          scatter with 6 ports: dor (FDF per DOR subtree), six (the six\n"
        "                    arc-disjoint trees) or auto (default: the earlier completion)\n"
        "  --json[=FILE]     write the schedule as JSON (docs/schedule-format.md) in\n"
        "                    FILE, or on stdout (the report then on stderr); --json\n"
        "                    FILE works too\n"
        "  --svg FILE        write its space-time diagram as SVG\n"
        "  --svg-rows SEL    its links: all (default), node:N (out of and into N) or\n"
        "                    dim:X|Y|Z\n"
        "  --help            this text\n"
        "exit codes: 0 ok, 1 usage, 3 the schedule failed verification\n");
}

static int netsched_json(const void *ns, FILE *f)
{
    return tn_netsched_write_json(ns, f);
}

static int netsched_svg(const void *ns, FILE *f)
{
    return tn_netsched_write_svg(ns, f);
}

/* schedule alltoall --network FILE: its traffic in liquid or round-robin
 * steps (netsched.h). */
static int schedule_network(const char *path, bool liquid, double seconds, unsigned seed,
                            const char *json, const char *svg)
{
    struct tn_netsched ns;
    int rc = tn_netsched_build(&ns, path, liquid, seconds, seed);
    if (rc) {
        if (rc == TN_ENOMEM)
            fprintf(stderr, "torusctl schedule: out of memory\n");
        tn_netsched_free(&ns);
        return TN_EXIT_USAGE;
    }
    int ret = TN_EXIT_OK;
    tn_netsched_print(&ns, json && strcmp(json, "-") == 0 ? stderr : stdout);
    const char *file[2] = {json, svg};
    int (*write[2])(const void *, FILE *) = {netsched_json, netsched_svg};
    for (int i = 0; i < 2; i++)
        if (file[i] && (rc = tn_write_file(file[i], write[i], &ns)) != 0) {
            fprintf(stderr, "torusctl schedule: cannot write %s: %s\n", file[i], tn_strerror(rc));
            ret = TN_EXIT_USAGE;
        }
    tn_netsched_free(&ns);
    return ret;
}

static bool is_coll_name(const char *s)
{
    enum tn_coll c;
    return tn_coll_parse(s, &c) == 0;
}

static const struct option sched_opts[] = {
    {"dims", required_argument, NULL, 'd'}, {"msg-flits", required_argument, NULL, 'L'},
    {"algo", required_argument, NULL, 'a'}, {"alpha", required_argument, NULL, 'A'},
    {"ports", required_argument, NULL, 'p'}, {"root", required_argument, NULL, 'r'},
    {"json", optional_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'},
    {"schedule", required_argument, NULL, 'S'}, {"time", required_argument, NULL, 'T'},
    {"random-lengths", no_argument, NULL, 'R'}, {"seed", required_argument, NULL, 's'},
    {"svg", required_argument, NULL, 'V'}, {"network", required_argument, NULL, 'N'},
    {"svg-rows", required_argument, NULL, 'W'}, {"tree", required_argument, NULL, 't'},
    {NULL, 0, NULL, 0}};

/* What the command line asks for. */
struct sched_args {
    struct tn_topo t;
    const char *dims;
    struct tn_algo_opts ao;      /* algo, L, ports, alpha, root */
    const char *network, *json, *svg, *svg_rows;
    enum tn_a2a_kind kind;
    enum tn_sg_tree tree;        /* --tree */
    const char *kind_arg;        /* --schedule as given */
    double search_s;
    bool random_lengths;
    unsigned long seed;
    char given[32];              /* the options given, by their codes */
};

/* One option: 0 or an exit code (--help: TN_EXIT_OK and *done). */
static int sched_option(struct sched_args *a, int c, int argc, char **argv, bool *done)
{
    unsigned long v;
    switch (c) {
    case 'N':
        a->network = optarg;
        break;
    case 'W':
        a->svg_rows = optarg;
        break;
    case 'd':
        a->dims = optarg;
        if (tn_topo_parse(&a->t, optarg)) {
            fprintf(stderr, "torusctl schedule: bad --dims '%s': use e.g. 7x7x7, 8x8 or 16\n",
                    optarg);
            return TN_EXIT_USAGE;
        }
        break;
    case 'L':
        if (!tn_cmd_uint(optarg, 1, 1u << 24, &v)) {
            fprintf(stderr, "torusctl schedule: bad --msg-flits '%s': use 1..16777216\n",
                    optarg);
            return TN_EXIT_USAGE;
        }
        a->ao.msg_flits = (uint32_t)v;
        break;
    case 'a':
        a->ao.algo = optarg;
        break;
    case 'A':
        if (!tn_cmd_uint(optarg, 0, 1u << 20, &v)) {
            fprintf(stderr, "torusctl schedule: bad --alpha '%s': use a cycle count\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->ao.alpha = (unsigned)v;
        break;
    case 'p':
        if (!tn_cmd_uint(optarg, 1, 6, &v) || (v != 1 && v != 6)) {
            fprintf(stderr, "torusctl schedule: bad --ports '%s': use 6 or 1\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->ao.ports = (unsigned)v;
        break;
    case 'r':
        if (!tn_cmd_uint(optarg, 0, UINT32_MAX, &v)) {
            fprintf(stderr, "torusctl schedule: bad --root '%s'\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->ao.root = (uint32_t)v;
        break;
    case 'j':
        /* --json[=FILE]; also --json FILE, as the word after it is no
         * collective name */
        if (!optarg && optind < argc && !is_coll_name(argv[optind]) &&
            (argv[optind][0] != '-' || strcmp(argv[optind], "-") == 0))
            optarg = argv[optind++];
        a->json = optarg ? optarg : "-";
        break;
    case 'S':
        if (strcmp(optarg, "liquid") != 0 && strcmp(optarg, "round-robin") != 0) {
            fprintf(stderr, "torusctl schedule: bad --schedule '%s': use liquid or "
                    "round-robin\n", optarg);
            return TN_EXIT_USAGE;
        }
        a->kind = strcmp(optarg, "liquid") == 0 ? TN_A2A_LIQUID : TN_A2A_RR;
        a->kind_arg = optarg;
        break;
    case 'R':
        a->random_lengths = true;
        break;
    case 't':
        if (!coll_parse_tree("torusctl schedule", optarg, &a->tree))
            return TN_EXIT_USAGE;
        break;
    case 'V':
        a->svg = optarg;
        break;
    case 's':
        if (!tn_cmd_uint(optarg, 0, UINT64_MAX, &a->seed)) {
            fprintf(stderr, "torusctl schedule: bad --seed '%s': use a number\n", optarg);
            return TN_EXIT_USAGE;
        }
        break;
    case 'T':
        if (!tn_cmd_seconds("torusctl schedule", optarg, &a->search_s))
            return TN_EXIT_USAGE;
        break;
    case 'h':
        help(stdout);
        *done = true;
        return TN_EXIT_OK;
    default:
        fprintf(stderr, "torusctl schedule: unknown or incomplete option '%s': see "
                        "torusctl schedule --help\n", argv[optind - 1]);
        return TN_EXIT_USAGE;
    }
    return 0;
}

/* The options and the collective: 0 or an exit code (*done: --help). */
static int parse_sched_args(int argc, char **argv, struct sched_args *a, enum tn_coll *coll,
                            bool *done)
{
    memset(a, 0, sizeof *a);
    a->dims = "7x7x7";
    a->ao = (struct tn_algo_opts){NULL, 1, 6, 1, 0};
    a->kind = TN_A2A_LIQUID;
    a->search_s = 10.0;
    a->seed = 1;
    tn_topo_parse(&a->t, a->dims);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", sched_opts, NULL)) != -1) {
        size_t ng = strlen(a->given);
        if (c > 0 && c < 128 && !strchr(a->given, c) && ng + 1 < sizeof a->given)
            a->given[ng] = (char)c;
        int ex = sched_option(a, c, argc, argv, done);
        if (ex != 0 || *done)
            return ex;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "torusctl schedule: name one collective, gossip, broadcast, alltoall, "
                "scatter or gather: see torusctl schedule --help\n");
        return TN_EXIT_USAGE;
    }
    return coll_parse("torusctl schedule", argv[optind], true, coll) != 0 ? TN_EXIT_USAGE : 0;
}

/* --network FILE: no torus options with it. An exit code. */
static int network_strays(const struct sched_args *a, enum tn_coll coll)
{
    static const char *const stray[][2] = {{"d", "dims"}, {"L", "msg-flits"}, {"a", "algo"},
                                           {"A", "alpha"}, {"p", "ports"}, {"r", "root"},
                                           {"R", "random-lengths"}};
    if (coll != TN_ALLTOALL) {
        fprintf(stderr, "torusctl schedule: --network is for alltoall\n");
        return TN_EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof stray / sizeof *stray; i++)
        if (strchr(a->given, stray[i][0][0])) {
            fprintf(stderr, "torusctl schedule: --%s does not apply to --network (the file "
                    "holds the network and its traffic)\n", stray[i][1]);
            return TN_EXIT_USAGE;
        }
    return 0;
}

/* alltoall: --algo liquid|round-robin says what --schedule says. An exit
 * code. */
static int alltoall_kind(struct sched_args *a)
{
    const char *algo = a->ao.algo;
    if (strcmp(algo, "liquid") != 0 && strcmp(algo, "round-robin") != 0) {
        fprintf(stderr, "torusctl schedule: bad --algo '%s' for alltoall: use liquid or "
                "round-robin\n", algo);
        return TN_EXIT_USAGE;
    }
    enum tn_a2a_kind k = strcmp(algo, "liquid") == 0 ? TN_A2A_LIQUID : TN_A2A_RR;
    if (a->kind_arg && k != a->kind) {
        fprintf(stderr, "torusctl schedule: --schedule %s and --algo %s disagree\n",
                a->kind_arg, algo);
        return TN_EXIT_USAGE;
    }
    a->kind = k;
    return 0;
}

/* A note when a node's memory exceeds the simulator models'. */
static void memory_note(const struct tn_sched *s, const struct tn_report *rep)
{
    if (rep->mem_max_words <= TN_SIM_MEM_DEPTH || tn_cmd_verbosity == 0)
        return;
    uint32_t L = tn_sched_max_flits(s, rep->mem_max_words, TN_SIM_MEM_DEPTH);
    fprintf(stderr, "torusctl schedule: note: %llu flit memory words a node, more than the "
            "simulator models' %u (MEM_DEPTH): torusctl run refuses it there",
            (unsigned long long)rep->mem_max_words, TN_SIM_MEM_DEPTH);
    if (L > 0 && L < UINT32_MAX)
        fprintf(stderr, " (the longest --msg-flits that fits with --algo %s: %u)", s->algo, L);
    fprintf(stderr, "\n");
}

/* --svg and --json: 0 or an exit code. */
static int write_outputs(const struct sched_args *a, struct tn_sched *s)
{
    int ret = 0;
    const char *json = a->json, *svg = a->svg;
    uint64_t ids = 0;
    for (uint32_t r = 0; r < s->nrounds; r++)
        for (uint32_t i = 0; i < s->rounds[r].ncirc; i++)
            ids += tn_circuit_nmsgs(&s->rounds[r].circ[i]);
    if (json && ids > JSON_MAX_IDS) {
        fprintf(stderr, "torusctl schedule: the JSON would list %llu message ids (limit %llu): "
                        "choose smaller dims\n", (unsigned long long)ids,
                (unsigned long long)JSON_MAX_IDS);
        ret = TN_EXIT_USAGE;
        json = NULL;
    }
    struct tn_svg_opts so;
    if (svg && !tn_cmd_svg_opts("torusctl schedule", a->svg_rows, &a->t, a->ao.alpha, &so)) {
        ret = TN_EXIT_USAGE;
        svg = NULL;
    }
    int rc = svg ? tn_svg_save(s, &so, svg) : 0;
    if (rc) {
        fprintf(stderr, "torusctl schedule: cannot write %s: %s\n", svg, tn_strerror(rc));
        ret = TN_EXIT_USAGE;
    }
    rc = !json ? 0 : strcmp(json, "-") == 0 ? tn_sched_write_json(s, stdout)
                                            : tn_sched_save_json(s, json);
    if (rc) {
        fprintf(stderr, "torusctl schedule: cannot write %s: %s\n", json, tn_strerror(rc));
        ret = TN_EXIT_USAGE;
    }
    return ret;
}

/* Build, verify and report the collective; the outputs. An exit code. */
static int schedule_coll(struct sched_args *a, enum tn_coll coll)
{
    struct tn_coll_req req = {.coll = coll, .algo = a->ao.algo, .msg_flits = a->ao.msg_flits,
                              .ports = a->ao.ports, .root = a->ao.root,
                              .random_lengths = a->random_lengths, .seed = a->seed,
                              .search_s = a->search_s, .a2a_kind = a->kind,
                              .sg_tree = a->tree};
    struct tn_coll_built b;
    char err[600];
    int rc = tn_coll_build(&req, &a->t, 6, a->ao.alpha, &b, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "torusctl schedule: %s\n", err);
        return TN_EXIT_USAGE;
    }
    struct tn_report rep;
    rc = tn_verify(b.s, NULL, &rep);
    if (rc == TN_ENOMEM) {
        fprintf(stderr, "torusctl schedule: out of memory while verifying\n");
        tn_coll_built_free(&b);
        return TN_EXIT_USAGE;
    }
    FILE *out = a->json && strcmp(a->json, "-") == 0 ? stderr : stdout;
    tn_report_print(out, b.s, &rep, a->ao.alpha, 20);
    tn_coll_formula_text(out, &b, NULL);
    tn_coll_text(out, &b, NULL);
    memory_note(b.s, &rep);
    int ret = write_outputs(a, b.s);
    tn_report_free(&rep);
    tn_coll_built_free(&b);
    return ret ? ret : rc ? TN_EXIT_VERIFY : TN_EXIT_OK;
}

int cmd_schedule(int argc, char **argv)
{
    struct sched_args a;
    enum tn_coll coll;
    bool done = false;
    int ex = parse_sched_args(argc, argv, &a, &coll, &done);
    if (ex != 0 || done)
        return ex;
    if (a.network) {
        ex = network_strays(&a, coll);
        return ex ? ex : schedule_network(a.network, a.kind == TN_A2A_LIQUID, a.search_s,
                                          (unsigned)a.seed, a.json, a.svg);
    }
    const char *stray = coll_stray_option(coll, true, false, sched_opts, a.given);
    if (stray) {
        fprintf(stderr, "torusctl schedule: --%s does not apply to %s (see --help)\n", stray,
                tn_coll_name(coll));
        return TN_EXIT_USAGE;
    }
    if (coll == TN_ALLTOALL && a.ao.algo && (ex = alltoall_kind(&a)) != 0)
        return ex;
    return schedule_coll(&a, coll);
}
