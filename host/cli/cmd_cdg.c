/* SPDX-License-Identifier: MIT */
/* torusctl cdg: the channel-dependency graph of a routing function on the
 * torus, a mesh or a network file, and whether it has a cycle (exit 3). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdg.h"
#include "cmd.h"
#include "cmd_dev.h"
#include "tn_error.h"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl cdg (--dims XxYxZ [--mesh] | --network FILE) [options]\n"
        "  --dims XxYxZ      the torus (e.g. 7x7x7, 4x4, 5)\n"
        "  --mesh            with --dims: a mesh (no wrap links)\n"
        "  --network FILE    a network file (docs/traffic-format.md): its links\n"
        "  --routing R       dor (default; X, Y, then Z), dor-dateline (dor with two\n"
        "                    virtual channels per link as the lecture's R'_d: going\n"
        "                    -, class 1 up to the wrap link; going +, class 0 up to it),\n"
        "                    interval (1-interval tables of a DFS spanning tree from\n"
        "                    node 0), updown\n"
        "                    (up*/down* on the CorrectOrient orientation of a BFS\n"
        "                    tree from node 0)\n"
        "  --json[=FILE]     the result as JSON (channels, dependencies, acyclic,\n"
        "                    cycle, pairs, reachable, routable) on stdout, or in FILE\n"
        "                    (the text then on stdout as usual)\n"
        "  --svg FILE        draw the network with the cycle in red\n"
        "  --help            this text\n"
        "The CDG has a vertex per channel and an edge c1 -> c2 when the routing takes\n"
        "some packet from c1 onto c2; deterministic routing is deadlock-free under\n"
        "wormhole switching iff it is acyclic. dor and dor-dateline need --dims;\n"
        "interval and updown are built one hop per (node, destination), in time\n"
        "growing as nodes^2: at most %u nodes (about 3 s). docs/deadlock.md.\n"
        "exit codes: 0 acyclic, 1 usage or file error, 3 the CDG has a cycle\n",
        TN_CDG_ROUTED_MAX);
}

static void print_text(const struct tn_cdg *g, const char *network, enum tn_routing r)
{
    char name[80];
    printf("network: %s, routing %s\n", network, tn_routing_name(r));
    printf("channels: %u, dependencies: %llu\n", g->channels, (unsigned long long)g->deps);
    printf("pairs routed: %llu of %llu connected (%llu ordered pairs)%s\n",
           (unsigned long long)g->routable, (unsigned long long)g->reachable,
           (unsigned long long)g->pairs, g->routable < g->reachable ? ": NOT connected" : "");
    if (tn_cdg_acyclic(g)) {
        printf("CDG: acyclic: deadlock-free under wormhole switching\n");
        return;
    }
    printf("CDG: cyclic: a cycle of %u channels (deadlock possible under wormhole switching):\n",
           g->ncycle);
    for (uint32_t i = 0; i <= g->ncycle; i++) {
        tn_cdg_channel_name(g, g->cycle[i % g->ncycle], name, sizeof name);
        printf("  %s%s\n", i ? "-> " : "   ", name);
    }
}

static json_t *cdg_json(const struct tn_cdg *g, const char *network, enum tn_routing r)
{
    json_t *cycle = json_array();
    char name[80];
    for (uint32_t i = 0; cycle && i < g->ncycle; i++) {
        tn_cdg_channel_name(g, g->cycle[i], name, sizeof name);
        json_array_append_new(cycle, json_string(name));
    }
    json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:b, s:o, s:I, s:I, s:I}", "network", network,
                          "routing", tn_routing_name(r), "channels", (json_int_t)g->channels,
                          "dependencies", (json_int_t)g->deps, "acyclic", tn_cdg_acyclic(g),
                          "cycle", cycle, "pairs", (json_int_t)g->pairs, "reachable",
                          (json_int_t)g->reachable, "routable", (json_int_t)g->routable);
    return o;
}

/* Builds the CDG; a message and an exit code on failure. */
static int build(struct tn_cdg *g, struct tn_net *net, const char *dims, bool mesh,
                 const char *file, enum tn_routing r)
{
    int rc;
    if (file) {
        if (r == TN_ROUTE_DOR || r == TN_ROUTE_DATELINE) {
            fprintf(stderr, "torusctl cdg: routing %s needs coordinates: use --dims, or "
                            "--routing interval or updown on a network file\n", tn_routing_name(r));
            return TN_EXIT_USAGE;
        }
        if (tn_net_read(net, file))
            return TN_EXIT_USAGE; /* the reader said why */
        rc = tn_cdg_net(g, net, r);
    } else {
        struct tn_topo t;
        if (tn_topo_parse(&t, dims)) {
            fprintf(stderr, "torusctl cdg: bad --dims '%s': use e.g. 7x7x7, 4x4 or 5\n", dims);
            return TN_EXIT_USAGE;
        }
        if (mesh && r == TN_ROUTE_DATELINE) {
            fprintf(stderr, "torusctl cdg: a mesh has no wrap links, hence no dateline: use "
                            "--routing dor\n");
            return TN_EXIT_USAGE;
        }
        rc = tn_cdg_topo(g, &t, mesh, r);
    }
    if (rc == TN_ENOTSUP)
        fprintf(stderr, "torusctl cdg: routing %s is built per destination, in time growing "
                        "as nodes^2: at most %u nodes\n", tn_routing_name(r), TN_CDG_ROUTED_MAX);
    else if (rc)
        fprintf(stderr, "torusctl cdg: %s\n", tn_strerror(rc));
    return rc ? TN_EXIT_USAGE : TN_EXIT_OK;
}

int cmd_cdg(int argc, char **argv)
{
    static const struct option opts[] = {
        {"dims", required_argument, NULL, 'd'},    {"mesh", no_argument, NULL, 'm'},
        {"network", required_argument, NULL, 'n'}, {"routing", required_argument, NULL, 'r'},
        {"json", optional_argument, NULL, 'j'},        {"svg", required_argument, NULL, 'V'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
    const char *dims = NULL, *file = NULL, *svg = NULL;
    bool mesh = false;
    struct tn_cmd_json json = {false, NULL};
    enum tn_routing r = TN_ROUTE_DOR;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            dims = optarg;
            break;
        case 'm':
            mesh = true;
            break;
        case 'n':
            file = optarg;
            break;
        case 'r':
            if (tn_routing_parse(optarg, &r)) {
                fprintf(stderr, "torusctl cdg: bad --routing '%s': use dor, dor-dateline, "
                                "interval or updown\n", optarg);
                return TN_EXIT_USAGE;
            }
            break;
        case 'j':
            tn_cmd_json_opt(&json, optarg);
            break;
        case 'V':
            svg = optarg;
            break;
        case 'h':
            help(stdout);
            return TN_EXIT_OK;
        default:
            return tn_cmd_bad_option("torusctl cdg", argv);
        }
    }
    if (optind != argc || !dims == !file || (mesh && file)) {
        fprintf(stderr, "torusctl cdg: give either --dims (with --mesh for a mesh) or "
                        "--network FILE: see torusctl cdg --help\n");
        return TN_EXIT_USAGE;
    }
    struct tn_cdg g;
    struct tn_net net = {0};
    int ret = build(&g, &net, dims, mesh, file, r);
    if (ret)
        goto out_net;
    char network[128];
    snprintf(network, sizeof network, "%s%s", file ? file : dims,
             file ? "" : mesh ? " mesh" : " torus");
    if (json.on && tn_cmd_json_emit("torusctl cdg", &json, cdg_json(&g, network, r)) != 0) {
        ret = TN_EXIT_USAGE;
        goto out_cdg;
    }
    if (!tn_cmd_json_stdout(&json))
        print_text(&g, network, r);
    ret = tn_cdg_acyclic(&g) ? TN_EXIT_OK : TN_EXIT_VERIFY;
    if (svg && tn_cdg_svg_save(&g, svg)) { /* outputs last, through a temporary file */
        fprintf(stderr, "torusctl cdg: cannot write %s\n", svg);
        ret = TN_EXIT_USAGE;
    }
out_cdg:
    tn_cdg_free(&g);
out_net:
    tn_net_free(&net);
    return ret;
}
