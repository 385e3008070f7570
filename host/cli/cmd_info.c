/* SPDX-License-Identifier: MIT */
/* torusctl info: the device's INFO constants. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmd_dev.h"

#define CMD "torusctl info"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl info [options]\n"
        "Print the device's constants (INFO and PARAMS): version, dims, W, LANES,\n"
        "MEM_DEPTH and its banks, ROUNDS, DW, relay and fault injection hardware,\n"
        "alpha and the bridge's frame size.\n\n"
        TN_CMD_JSON_HELP
        "%s"
        "  --help            this text\n"
        "exit codes: 0 ok, 1 usage, 2 device or communication error\n",
        tn_dev_help);
}

/* --json and --help (tn_dev_getopt). */
static int info_option(void *ctx, int c, char **argv, bool *done)
{
    switch (c) {
    case 'j':
        tn_cmd_json_opt(ctx, optarg);
        return 0;
    case 'h':
        help(stdout);
        *done = true;
        return TN_EXIT_OK;
    default:
        return tn_cmd_bad_option(CMD, argv);
    }
}

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", optional_argument, NULL, 'j'}, TN_DEV_LONGOPTS, {NULL, 0, NULL, 0}};
    struct tn_dev_args da;
    struct tn_cmd_json json = {false, NULL};
    bool done = false;
    int ex = tn_dev_getopt(argc, argv, opts, &da, CMD, info_option, &json, &done);
    if (ex != 0 || done)
        return ex;
    if (optind < argc) {
        fprintf(stderr, CMD ": unexpected argument '%s'\n", argv[optind]);
        return TN_EXIT_USAGE;
    }
    struct tn_dev dev;
    ex = tn_dev_open(&dev, &da, CMD);
    if (ex != 0)
        return ex;
    const struct tn_info *i = &dev.info;
    if (json.on) {
        json_t *o = json_pack("{s:s, s:i, s:[i,i,i], s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:b,"
                              " s:b, s:i, s:i}",
                              "backend", da.t.backend, "version", (int)i->version, "dims",
                              (int)i->dims[0], (int)i->dims[1], (int)i->dims[2], "w", (int)i->w,
                              "lanes", (int)i->lanes, "mem_depth", (int)i->mem_depth, "rounds",
                              (int)i->rounds, "alpha", (int)i->alpha, "banks", (int)i->banks,
                              "dw", (int)i->dw, "relay", i->relay != 0, "fault",
                              i->fault != 0, "max_payload",
                              (int)i->max_payload, "proto_version", (int)i->proto_version);
        ex = tn_cmd_json_emit(CMD, &json, o);
    }
    if (!tn_cmd_json_stdout(&json)) {
        printf("backend      %s\n", da.t.backend);
        printf("version      0x%08x\n", i->version);
        printf("dims         %ux%ux%u\n", i->dims[0], i->dims[1], i->dims[2]);
        printf("W            %u bits per flit\n", i->w);
        printf("LANES        %u inject and eject lanes per node\n", i->lanes);
        printf("MEM_DEPTH    %u flit words per node in %u bank%s\n", i->mem_depth, i->banks,
               i->banks == 1 ? "" : "s");
        printf("ROUNDS       %u round-table entries and descriptors per lane list\n",
               i->rounds);
        printf("DW           %u bits: a round lasts at most %llu cycles\n", i->dw,
               (1ull << i->dw) - 1);
        printf("RELAY        %s\n", i->relay ? "yes (head-routed flits)" : "no (circuits only)");
        printf("FAULT        %s\n", i->fault ? "yes (link fault injection, run --fault link:...)"
                                               : "no");
        printf("alpha        %u cycles per round switch\n", i->alpha);
        printf("frame        %u payload bytes, protocol version %u\n", i->max_payload,
               i->proto_version);
    }
    tn_dev_close(&dev);
    return ex;
}
