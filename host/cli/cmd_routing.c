/* SPDX-License-Identifier: MIT */
/* torusctl routing: interval routing depth on the torus. DFS-tree interval
 * routing against minimal routing (stretch), and whether cyclic 1-interval
 * tables give minimal routing on each ring (an analysis: the router routes
 * by coordinates, DOR or the six trees). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdg.h"
#include "perm.h"
#include "cmd.h"
#include "cmd_dev.h"
#include "tn_error.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl routing [--dims XxYxZ] [--permutation P] [--json[=FILE]]\n"
        "  --dims XxYxZ      the torus (default 7x7x7; at most %u nodes for the\n"
        "                    stretch, about 1 s)\n"
        "  --permutation P   instead: every node sends --msg-flits flits to its image\n"
        "                    under P (random, tornado, bit-reversal, transpose): packets\n"
        "                    dropped by collisions when all go at once as relay packets\n"
        "                    (reference model), against Lambda and the rounds of a\n"
        "                    liquid circuit schedule (docs/switching.md)\n"
        "  --msg-flits M     payload flits per transfer (default 8)\n"
        "  --seed S          seed of the random permutation (default 1)\n"
        "  --time SECONDS    bound of the liquid search (default 10)\n"
        TN_CMD_JSON_HELP
        "  --help            this text\n"
        "Reports the stretch of 1-interval routing on a DFS spanning tree from node 0\n"
        "against minimal (Lee distance)\n"
        "routing over every ordered pair, and checks that cyclic 1-interval tables per\n"
        "dimension (output + holds the next floor(k/2) coordinates, - the rest) route\n"
        "every pair of each ring minimally with the cyclic interval compare\n"
        "(LO > HI wraps).\n"
        "docs/deadlock.md, \"Interval routing depth\".\n"
        "exit codes: 0 ok, 1 usage error\n", TN_CDG_ROUTED_MAX);
}

/* --permutation: relay losses against circuit rounds. */
static int permutation(const struct tn_topo *t, enum tn_perm pk, uint32_t mu, uint64_t seed,
                       double seconds, const struct tn_cmd_json *json)
{
    uint32_t *dst = malloc((t->n + 1) * sizeof *dst);
    struct tn_perm_report r;
    char name[32], err[200] = "";
    int rc = dst ? tn_perm_build(t, pk, seed, dst) : TN_ENOMEM;
    if (!rc)
        rc = tn_perm_analyse(t, dst, mu, seconds, &r, err, sizeof err);
    free(dst);
    tn_topo_format(t, name, sizeof name);
    if (rc) {
        fprintf(stderr, "torusctl routing: %s on %s: %s\n", tn_perm_name(pk), name,
                err[0] ? err : rc == TN_ENOTSUP ? "not applicable (bit-reversal needs N a power "
                "of 2, transpose X = Y)" : tn_strerror(rc));
        return TN_EXIT_USAGE;
    }
    int ex = TN_EXIT_OK;
    if (json->on) {
        json_t *o = json_pack("{s:o, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:b}", "dims",
                              tn_cmd_json_dims(t),
                              "permutation", tn_perm_name(pk), "msg_flits", (json_int_t)mu,
                              "transfers", (json_int_t)r.transfers, "relay_lost",
                              (json_int_t)r.relay_lost, "relay_cycles",
                              (json_int_t)r.relay_cycles, "lambda", (json_int_t)r.lambda,
                              "circuit_rounds", (json_int_t)r.circuit_rounds, "liquid", r.liquid);
        ex = tn_cmd_json_emit("torusctl routing", json, o);
        if (tn_cmd_json_stdout(json))
            return ex;
    }
    printf("permutation %s on %s: %u transfers of %u flits (DOR routes)\n", tn_perm_name(pk),
           name, r.transfers, mu);
    printf("relay (all at once) %u of %u packets dropped by collisions (reference model), "
           "round of %llu cycles\n", r.relay_lost, r.transfers,
           (unsigned long long)r.relay_cycles);
    printf("circuits            Lambda %u (most transfers on one arc), schedule of %u rounds%s\n",
           r.lambda, r.circuit_rounds, r.liquid ? " (liquid: = Lambda, minimal)" : "");
    return ex;
}

/* The tree stretch of interval routing on t and the ring tables'
 * minimality: an exit code. */
static int stretch(const struct tn_topo *t, const struct tn_cmd_json *json)
{
    struct tn_stretch st;
    int rc = tn_interval_stretch(t, &st);
    if (rc) {
        if (rc == TN_ENOTSUP)
            fprintf(stderr, "torusctl routing: the stretch is computed per destination, in "
                    "time growing as nodes^2: at most %u nodes\n", TN_CDG_ROUTED_MAX);
        else
            fprintf(stderr, "torusctl routing: %s\n", tn_strerror(rc));
        return TN_EXIT_USAGE;
    }
    unsigned ring_bad[3];
    for (int k = 0; k < 3; k++)
        ring_bad[k] = tn_ring_interval_check(t->dim[k]);
    char name[32];
    tn_topo_format(t, name, sizeof name);
    int ex = TN_EXIT_OK;
    if (json->on) {
        json_t *rings = json_array();
        for (int k = 0; k < 3; k++)
            json_array_append_new(rings, json_pack("{s:i, s:b}", "size", t->dim[k], "minimal",
                                                   ring_bad[k] == 0));
        json_t *o = json_pack("{s:o, s:I, s:I, s:I, s:f, s:f, s:f, s:i, s:o}", "dims",
                              tn_cmd_json_dims(t),
                              "pairs", (json_int_t)st.pairs, "routed", (json_int_t)st.routed,
                              "minimal_pairs", (json_int_t)st.minimal_pairs, "avg_hops",
                              st.avg_hops, "avg_minimal", st.avg_minimal, "avg_extra",
                              st.avg_hops - st.avg_minimal, "max_extra", st.max_extra,
                              "rings", rings);
        ex = tn_cmd_json_emit("torusctl routing", json, o);
        if (tn_cmd_json_stdout(json))
            return ex;
    }
    printf("interval routing on %s: 1-interval tables of a DFS spanning tree from node 0\n",
           name);
    printf("pairs routed        %llu of %llu\n", (unsigned long long)st.routed,
           (unsigned long long)st.pairs);
    printf("hops                average %.2f, minimal (Lee) %.2f: %+.2f on average, +%u at "
           "most\n", st.avg_hops, st.avg_minimal, st.avg_hops - st.avg_minimal, st.max_extra);
    printf("minimal pairs       %llu (%.1f%%)\n", (unsigned long long)st.minimal_pairs,
           st.pairs ? 100.0 * (double)st.minimal_pairs / (double)st.pairs : 0.0);
    for (int k = 0; k < 3; k++)
        if (t->dim[k] > 1)
            printf("ring %c (%2u nodes)   cyclic 1-interval tables: %s\n", "XYZ"[k], t->dim[k],
                   ring_bad[k] ? "NOT minimal" : "minimal on every pair");
    return ex;
}

int cmd_routing(int argc, char **argv)
{
    static const struct option opts[] = {{"dims", required_argument, NULL, 'd'},
                                         {"json", optional_argument, NULL, 'j'},
                                         {"permutation", required_argument, NULL, 'p'},
                                         {"msg-flits", required_argument, NULL, 'L'},
                                         {"seed", required_argument, NULL, 's'},
                                         {"time", required_argument, NULL, 'T'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *dims = "7x7x7";
    struct tn_cmd_json json = {false, NULL};
    bool perm = false;
    enum tn_perm pk = TN_PERM_RANDOM;
    unsigned long mu = 8, seed = 1;
    double seconds = 10;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'd') {
            dims = optarg;
        } else if (c == 'p') {
            perm = true;
            if (tn_perm_parse(optarg, &pk)) {
                fprintf(stderr, "torusctl routing: bad --permutation '%s': use random, tornado, "
                                "bit-reversal or transpose\n", optarg);
                return TN_EXIT_USAGE;
            }
        } else if (c == 'L' || c == 's') {
            if (!tn_cmd_uint(optarg, c == 'L', c == 'L' ? 1u << 16 : UINT32_MAX,
                             c == 'L' ? &mu : &seed)) {
                fprintf(stderr, "torusctl routing: bad --%s '%s'\n",
                        c == 'L' ? "msg-flits" : "seed", optarg);
                return TN_EXIT_USAGE;
            }
        } else if (c == 'T') {
            if (!tn_cmd_seconds("torusctl routing", optarg, &seconds))
                return TN_EXIT_USAGE;
        } else if (c == 'j') {
            tn_cmd_json_opt(&json, optarg);
        } else if (c == 'h') {
            help(stdout);
            return TN_EXIT_OK;
        } else {
            return tn_cmd_bad_option("torusctl routing", argv);
        }
    }
    struct tn_topo t;
    if (optind != argc || tn_topo_parse(&t, dims)) {
        fprintf(stderr, "torusctl routing: bad --dims '%s' or stray argument: use e.g. 7x7x7\n",
                dims);
        return TN_EXIT_USAGE;
    }
    if (perm)
        return permutation(&t, pk, (uint32_t)mu, seed, seconds, &json);
    return stretch(&t, &json);
}
