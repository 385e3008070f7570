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
        "  --algo A          algorithm (default: the cheapest for L and alpha)\n"
        "                    gossip: dp, dp-long (Delmas-Perennes, 7^i cubes), ring,\n"
        "                    split-ring (a part per dimension: all ports busy)\n"
        "                    broadcast: dp (perfect code, 7^i cubes), dim\n"
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
        "  --json FILE       write the schedule as JSON (- for stdout)\n"
        "  --svg FILE        write its space-time diagram as SVG\n"
        "  --svg-rows SEL    its links: all (default), node:N (out of and into N) or\n"
        "                    dim:X|Y|Z\n"
        "  --help            this text\n"
        "exit codes: 0 ok, 1 usage, 3 the schedule failed verification\n");
}

/* The name of an option given (by its code in given) that does not apply
 * to coll, or NULL. */
static const char *option_not_applying(enum tn_coll coll, const char *given)
{
#define C TN_COLL_BIT
    static const struct tn_cmd_applies table[] = {
        {'a', "algo", C(GOSSIP) | C(BROADCAST) | C(ALLTOALL)},
        {'p', "ports", C(GOSSIP) | C(BROADCAST) | C(ALLTOALL) | C(SCATTER)},
        {'r', "root", C(BROADCAST) | C(SCATTER) | C(GATHER)},
        {'S', "schedule", C(ALLTOALL)},
        {'T', "time", C(ALLTOALL)},
        {'R', "random-lengths", C(SCATTER) | C(GATHER)},
        {'s', "seed", C(SCATTER) | C(GATHER)},
    };
#undef C
    return tn_cmd_stray_option(table, sizeof table / sizeof *table, coll, false, given);
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

int cmd_schedule(int argc, char **argv)
{
    static const struct option opts[] = {
        {"dims", required_argument, NULL, 'd'}, {"msg-flits", required_argument, NULL, 'L'},
        {"algo", required_argument, NULL, 'a'}, {"alpha", required_argument, NULL, 'A'},
        {"ports", required_argument, NULL, 'p'}, {"root", required_argument, NULL, 'r'},
        {"json", required_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'},
        {"schedule", required_argument, NULL, 'S'}, {"time", required_argument, NULL, 'T'},
        {"random-lengths", no_argument, NULL, 'R'}, {"seed", required_argument, NULL, 's'},
        {"svg", required_argument, NULL, 'V'}, {"network", required_argument, NULL, 'N'},
        {"svg-rows", required_argument, NULL, 'W'},
        {NULL, 0, NULL, 0}};
    const char *network = NULL;
    char given[32] = "";      /* the options given, by their codes */
    struct tn_topo t;
    struct tn_algo_opts ao = {NULL, 1, 6, 1, 0};
    const char *json = NULL, *dims = "7x7x7", *svg = NULL, *svg_rows = NULL;
    unsigned long v;
    int c;
    enum tn_a2a_kind kind = TN_A2A_LIQUID;
    const char *kind_arg = NULL;
    double search_s = 10.0;
    bool random_lengths = false;
    unsigned long seed = 1;
    tn_topo_parse(&t, dims);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c > 0 && c < 128 && !strchr(given, c) && strlen(given) + 1 < sizeof given)
            given[strlen(given)] = (char)c;
        switch (c) {
        case 'N':
            network = optarg;
            break;
        case 'W':
            svg_rows = optarg;
            break;
        case 'd':
            dims = optarg;
            if (tn_topo_parse(&t, optarg)) {
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
            ao.msg_flits = (uint32_t)v;
            break;
        case 'a':
            ao.algo = optarg;
            break;
        case 'A':
            if (!tn_cmd_uint(optarg, 0, 1u << 20, &v)) {
                fprintf(stderr, "torusctl schedule: bad --alpha '%s': use a cycle count\n", optarg);
                return TN_EXIT_USAGE;
            }
            ao.alpha = (unsigned)v;
            break;
        case 'p':
            if (!tn_cmd_uint(optarg, 1, 6, &v) || (v != 1 && v != 6)) {
                fprintf(stderr, "torusctl schedule: bad --ports '%s': use 6 or 1\n", optarg);
                return TN_EXIT_USAGE;
            }
            ao.ports = (unsigned)v;
            break;
        case 'r':
            if (!tn_cmd_uint(optarg, 0, UINT32_MAX, &v)) {
                fprintf(stderr, "torusctl schedule: bad --root '%s'\n", optarg);
                return TN_EXIT_USAGE;
            }
            ao.root = (uint32_t)v;
            break;
        case 'j':
            json = optarg;
            break;
        case 'S':
            if (strcmp(optarg, "liquid") != 0 && strcmp(optarg, "round-robin") != 0) {
                fprintf(stderr, "torusctl schedule: bad --schedule '%s': use liquid or "
                        "round-robin\n", optarg);
                return TN_EXIT_USAGE;
            }
            kind = strcmp(optarg, "liquid") == 0 ? TN_A2A_LIQUID : TN_A2A_RR;
            kind_arg = optarg;
            break;
        case 'R':
            random_lengths = true;
            break;
        case 'V':
            svg = optarg;
            break;
        case 's':
            if (!tn_cmd_uint(optarg, 0, UINT64_MAX, &seed)) {
                fprintf(stderr, "torusctl schedule: bad --seed '%s': use a number\n", optarg);
                return TN_EXIT_USAGE;
            }
            break;
        case 'T':
            if (!tn_cmd_seconds("torusctl schedule", optarg, &search_s))
                return TN_EXIT_USAGE;
            break;
        case 'h':
            help(stdout);
            return TN_EXIT_OK;
        default:
            fprintf(stderr, "torusctl schedule: unknown or incomplete option '%s': see "
                            "torusctl schedule --help\n", argv[optind - 1]);
            return TN_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "torusctl schedule: name one collective, gossip, broadcast, alltoall, scatter or "
                        "gather: see "
                        "torusctl schedule --help\n");
        return TN_EXIT_USAGE;
    }
    enum tn_coll coll;
    if (tn_coll_parse(argv[optind], &coll) != 0) {
        fprintf(stderr, "torusctl schedule: unknown collective '%s': use gossip, broadcast, "
                "alltoall, scatter or gather\n", argv[optind]);
        return TN_EXIT_USAGE;
    }
    if (coll == TN_P2P || coll == TN_PERM) {
        fprintf(stderr, "torusctl schedule: %s runs on the device: use torusctl run %s "
                "(docs/switching.md)\n", argv[optind], argv[optind]);
        return TN_EXIT_USAGE;
    }
    if ((coll == TN_SCATTER || coll == TN_GATHER) && t.n > 1 &&
        (t.dim[0] > 15 || t.dim[1] > 15 || t.dim[2] > 15)) {
        fprintf(stderr, "torusctl schedule: relay heads carry 4-bit coordinates: dims up to 15\n");
        return TN_EXIT_USAGE;
    }
    if (network && coll != TN_ALLTOALL) {
        fprintf(stderr, "torusctl schedule: --network is for alltoall\n");
        return TN_EXIT_USAGE;
    }
    if (network) {
        static const char *const stray[][2] = {{"d", "dims"}, {"L", "msg-flits"}, {"a", "algo"},
                                               {"A", "alpha"}, {"p", "ports"}, {"r", "root"},
                                               {"R", "random-lengths"}};
        for (size_t i = 0; i < sizeof stray / sizeof *stray; i++)
            if (strchr(given, stray[i][0][0])) {
                fprintf(stderr, "torusctl schedule: --%s does not apply to --network (the file "
                        "holds the network and its traffic)\n", stray[i][1]);
                return TN_EXIT_USAGE;
            }
        return schedule_network(network, kind == TN_A2A_LIQUID, search_s, (unsigned)seed, json,
                                svg);
    }
    const char *stray = option_not_applying(coll, given);
    if (stray) {
        fprintf(stderr, "torusctl schedule: --%s does not apply to %s (see --help)\n", stray,
                tn_coll_name(coll));
        return TN_EXIT_USAGE;
    }
    if (coll == TN_ALLTOALL && ao.algo) {
        /* --algo liquid|round-robin says what --schedule says */
        if (strcmp(ao.algo, "liquid") != 0 && strcmp(ao.algo, "round-robin") != 0) {
            fprintf(stderr, "torusctl schedule: bad --algo '%s' for alltoall: use liquid or "
                    "round-robin\n", ao.algo);
            return TN_EXIT_USAGE;
        }
        enum tn_a2a_kind k = strcmp(ao.algo, "liquid") == 0 ? TN_A2A_LIQUID : TN_A2A_RR;
        if (kind_arg && k != kind) {
            fprintf(stderr, "torusctl schedule: --schedule %s and --algo %s disagree\n",
                    kind_arg, ao.algo);
            return TN_EXIT_USAGE;
        }
        kind = k;
    }
    if (ao.root >= t.n) {
        fprintf(stderr, "torusctl schedule: --root %u is not a node of %s (0..%u)\n", ao.root,
                dims, t.n - 1);
        return TN_EXIT_USAGE;
    }
    struct tn_sched *s;
    struct tn_a2a_info ai;
    int rc;
    if ((coll == TN_ALLTOALL || coll == TN_GOSSIP || coll == TN_BROADCAST) &&
        !tn_cmd_fits("torusctl schedule", coll, &t, &ao))
        return TN_EXIT_USAGE;
    if (coll == TN_ALLTOALL) {
        if (t.n > TN_A2A_NODES_MAX) {
            fprintf(stderr, "torusctl schedule: alltoall takes at most %u nodes (message ids "
                    "s*N+d)\n", TN_A2A_NODES_MAX);
            return TN_EXIT_USAGE;
        }
        struct tn_a2a_opts o = {kind, ao.msg_flits, ao.ports, ao.alpha, search_s, 1};
        rc = tn_a2a_build(&s, &t, &o, &ai);
        if (rc) {
            fprintf(stderr, "torusctl schedule: %s\n", tn_strerror(rc));
            return TN_EXIT_USAGE;
        }
        goto built;
    }
    if (coll == TN_SCATTER || coll == TN_GATHER) {
        uint32_t *len = calloc(t.n, sizeof *len);
        if (!len)
            return TN_EXIT_USAGE;
        tn_lengths_fill(len, t.n, ao.msg_flits, random_lengths, seed);
        struct tn_sg_opts so = {ao.root, coll == TN_GATHER ? 1 : ao.ports, len, ao.alpha, 0};
        struct tn_sg_info gi;
        rc = coll == TN_SCATTER ? tn_scatter_build(&s, &t, &so, &gi) : tn_gather_build(&s, &t, &so, &gi);
        free(len);
        if (rc) {
            fprintf(stderr, "torusctl schedule: %s\n", tn_strerror(rc));
            return TN_EXIT_USAGE;
        }
        fprintf(stderr, "%s: %u messages, %llu flits with heads; device cycles alpha + T = %llu",
                s->algo, gi.messages, (unsigned long long)gi.total_flits,
                (unsigned long long)gi.formula);
        if (coll == TN_SCATTER && so.ports == 1)
            fprintf(stderr, " (FDF, optimal by Theorem 1)");
        else if (coll == TN_SCATTER)
            fprintf(stderr, ", all-port lower bound alpha + %llu", (unsigned long long)gi.lower);
        else
            fprintf(stderr, " from dispatch %llu; synchronisation %llu cycles (modelled), "
                    "lower bound %llu <= total %llu <= %llu (Theorem 3)",
                    (unsigned long long)gi.dispatch0, (unsigned long long)gi.t_sync,
                    (unsigned long long)gi.lower, (unsigned long long)gi.time,
                    (unsigned long long)gi.bound);
        fprintf(stderr, "\n");
        goto built;
    }
    rc = tn_build(&s, coll, &t, &ao);
    if (rc == TN_EINVAL || rc == TN_ENOTSUP) {
        fprintf(stderr, "torusctl schedule: algorithm '%s' %s; choose from:",
                ao.algo, rc == TN_EINVAL ? "is unknown" : "does not apply to this geometry/ports");
        for (const char *const *n = tn_algo_names(coll); *n; n++)
            if (tn_algo_applies(coll, *n, &t, ao.ports))
                fprintf(stderr, " %s", *n);
        fprintf(stderr, "\n");
        return TN_EXIT_USAGE;
    }
    if (rc) {
        fprintf(stderr, "torusctl schedule: %s\n", tn_strerror(rc));
        return TN_EXIT_USAGE;
    }
built:;
    struct tn_report rep;
    rc = tn_verify(s, NULL, &rep);
    if (rc == TN_ENOMEM) {
        fprintf(stderr, "torusctl schedule: out of memory while verifying\n");
        tn_sched_free(s);
        return TN_EXIT_USAGE;
    }
    FILE *out = json && strcmp(json, "-") == 0 ? stderr : stdout;
    tn_report_print(out, s, &rep, ao.alpha, 20);
    if (coll == TN_ALLTOALL) {
        fprintf(out, "traffic %u transfers (DOR, %s), Lambda %u, liquid throughput #(X)/Lambda(X) "
                "%.3f\n", ai.transfers, ao.ports == 1 ? "single-port" : "all-port", ai.lambda,
                ai.lambda ? (double)ai.transfers / ai.lambda : 0.0);
        fprintf(out, "schedule %s via %s: %u steps (gap to Lambda %.2f%%), round-robin %u steps, "
                "search %.2f s\n", s->algo, ai.via, ai.steps,
                ai.lambda ? 100.0 * ((double)ai.steps - ai.lambda) / ai.lambda : 0.0, ai.rr_steps,
                ai.search_s);
        fprintf(out, "closed form %llu cycles (%u alpha + %llu + %u L); bounds: flow Lambda L = "
                "%llu, a step per round %llu\n", (unsigned long long)ai.formula, ai.steps,
                (unsigned long long)ai.formula_dsum, ai.steps,
                (unsigned long long)ai.flow_bound, (unsigned long long)ai.step_bound);
    } else if (coll == TN_GOSSIP || coll == TN_BROADCAST) {
        fprintf(out, "algorithms (predicted cycles at alpha %u):", ao.alpha);
        for (const char *const *n = tn_algo_names(coll); *n; n++) {
            struct tn_cost cost;
            if (tn_algo_cost(coll, *n, &t, &ao, &cost) == 0)
                fprintf(out, " %s %llu", *n, (unsigned long long)cost.cycles);
        }
        fprintf(out, "\n");
        print_cheapest(out, coll, &t, &ao);
    }
    if (rep.mem_max_words > TN_SIM_MEM_DEPTH) {
        uint32_t L = tn_sched_max_flits(s, rep.mem_max_words, TN_SIM_MEM_DEPTH);
        fprintf(stderr, "torusctl schedule: note: %llu flit memory words a node, more than the "
                "simulator models' %u (MEM_DEPTH): torusctl run refuses it there",
                (unsigned long long)rep.mem_max_words, TN_SIM_MEM_DEPTH);
        if (L > 0 && L < UINT32_MAX)
            fprintf(stderr, " (the longest --msg-flits that fits with --algo %s: %u)", s->algo, L);
        fprintf(stderr, "\n");
    }
    int ret = rc ? TN_EXIT_VERIFY : TN_EXIT_OK;
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
    if (svg && !tn_cmd_svg_opts("torusctl schedule", svg_rows, &t, ao.alpha, &so)) {
        ret = TN_EXIT_USAGE;
        svg = NULL;
    }
    if (svg) {
        int src = tn_svg_save(s, &so, svg);
        if (src) {
            fprintf(stderr, "torusctl schedule: cannot write %s: %s\n", svg, tn_strerror(src));
            ret = TN_EXIT_USAGE;
        }
    }
    if (json) {
        int wrc = strcmp(json, "-") == 0 ? tn_sched_write_json(s, stdout)
                                          : tn_sched_save_json(s, json);
        if (wrc) {
            fprintf(stderr, "torusctl schedule: cannot write %s: %s\n", json, tn_strerror(wrc));
            ret = TN_EXIT_USAGE;
        }
    }
    tn_report_free(&rep);
    tn_sched_free(s);
    return ret;
}
