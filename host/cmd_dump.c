/* SPDX-License-Identifier: MIT */
/* torusctl dump: one node's status, round settings, eject statistics and
 * (optionally) flit memory, read from the device as they are. */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "cmd_dev.h"
#include "image.h"

#define CMD "torusctl dump"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl dump --node N [options]\n"
        "Print what node N holds: status flags and error counters, the collision\n"
        "latch, each loaded round's crossbar settings and descriptors, the eject\n"
        "statistics, and with --mem its flit memory.\n\n"
        "  --node N          node id (x + X*(y + Y*z))\n"
        "  --mem FIRST:COUNT also print COUNT memory words from FIRST\n"
        "(a fresh simulator model holds nothing: dump is for boards and debugging)\n"
        "%s"
        "  --help            this text\n"
        "exit codes: 0 ok, 1 usage, 2 device or communication error\n",
        tn_dev_help);
}

static const char *const status_names[] = {
    "error flags", "overruns", "short streams", "bounds errors", "collisions",
    "collision latch", "unroutable heads", "dropped flits", "active round",
};

static const char *sel_name(uint32_t v, char *buf, size_t len)
{
    static const char *const dirs[] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};
    if (v == 0)
        snprintf(buf, len, "off");
    else if (v >= 1 && v <= 6)
        snprintf(buf, len, "lane%u", v - 1);
    else if (v >= 8 && v <= 13)
        snprintf(buf, len, "in %s", dirs[v - 8]);
    else if (v == 15)
        snprintf(buf, len, "relay");
    else
        snprintf(buf, len, "?%u", v);
    return buf;
}

static int dump(struct tn_dev *d, uint32_t node, uint32_t mfirst, uint32_t mcount)
{
    const struct tn_info *in = &d->info;
    uint32_t st[9], nrounds;
    int rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_STATUS, 0), st, 9);
    if (rc == 0)
        rc = tn_proto_read(d->p, TN_G_NROUNDS, &nrounds, 1);
    if (rc != 0)
        return rc;
    printf("node %u\n", node);
    for (int i = 0; i < 9; i++)
        printf("  %-18s 0x%08x (%u)\n", status_names[i], st[i], st[i]);
    if (nrounds > in->rounds)
        nrounds = in->rounds;
    for (uint32_t r = 0; r < nrounds; r++) {
        uint32_t cfg[TN_CFG_FIELDS];
        rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_CFG, r * TN_CFG_FIELDS), cfg,
                           TN_CFG_FIELDS);
        if (rc != 0)
            return rc;
        char b[16];
        printf("round %u:\n  outputs  ", r + 1);
        for (int o = 0; o < 6; o++)
            printf(" %s", sel_name(cfg[o], b, sizeof b));
        printf("\n  ejects   ");
        for (unsigned l = 0; l < in->lanes; l++)
            printf(" %s", sel_name(cfg[8 + l], b, sizeof b));
        printf("\n");
        for (unsigned l = 0; l < in->lanes; l++) {
            const uint32_t *i = &cfg[TN_CFG_INJ(l)], *e = &cfg[TN_CFG_EJ(l)];
            if (i[0] >> 31)
                printf("  inject lane %u: start %u, words %u..%u%s\n", l, i[0] & 0xFFFFFF, i[1],
                       i[1] + i[2] - 1, i[0] >> 30 & 1 ? ", relay" : "");
            if (e[0] >> 31) {
                uint32_t s[TN_STATS_WORDS];
                rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_STATS,
                                                      r * TN_CFG_FIELDS + l * TN_STATS_LANE),
                                   s, TN_STATS_WORDS);
                if (rc != 0)
                    return rc;
                uint64_t first = s[0] | (uint64_t)(s[1] & 0xFFFF) << 32;
                uint64_t last = s[2] | (uint64_t)(s[3] & 0xFFFF) << 32;
                printf("  eject lane %u: words %u..%u expecting %u: got %u flits, cycles "
                       "%" PRIu64 "..%" PRIu64 ", crc %08x, errors %x\n",
                       l, e[1], e[1] + e[2] - 1, e[2], s[4], first, last, s[5], s[6]);
            }
        }
    }
    if (mcount > 0) {
        uint32_t buf[256];
        printf("memory:\n");
        for (uint32_t a = mfirst; a < mfirst + mcount; a += 256) {
            uint32_t n = mfirst + mcount - a < 256 ? mfirst + mcount - a : 256;
            rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_MEM, a), buf, n);
            if (rc != 0)
                return rc;
            for (uint32_t k = 0; k < n; k++)
                printf("%s%08x", k % 8 == 0 ? (k ? "\n  " : "  ") : " ", buf[k]);
            printf("\n");
        }
    }
    return 0;
}

int cmd_dump(int argc, char **argv)
{
    static const struct option opts[] = {
        {"node", required_argument, NULL, 'n'}, {"mem", required_argument, NULL, 'm'},
        TN_DEV_LONGOPTS, {NULL, 0, NULL, 0}};
    struct tn_dev_args da;
    unsigned long node = ULONG_MAX, v;
    uint32_t mfirst = 0, mcount = 0;
    int c;
    tn_dev_args_init(&da);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "hI:", opts, NULL)) != -1) {
        int h = tn_dev_arg(&da, c, optarg, CMD);
        if (h < 0)
            return TN_EXIT_USAGE;
        if (h > 0)
            continue;
        switch (c) {
        case 'n':
            if (!tn_cmd_uint(optarg, 0, 4094, &node)) {
                fprintf(stderr, CMD ": bad --node '%s': use a node id\n", optarg);
                return TN_EXIT_USAGE;
            }
            break;
        case 'm': {
            char *colon = strchr(optarg, ':');
            unsigned long cnt;
            if (colon == NULL) {
                fprintf(stderr, CMD ": bad --mem '%s': use FIRST:COUNT\n", optarg);
                return TN_EXIT_USAGE;
            }
            *colon = '\0';
            if (!tn_cmd_uint(optarg, 0, 65535, &v) || !tn_cmd_uint(colon + 1, 1, 65536, &cnt)) {
                fprintf(stderr, CMD ": bad --mem value: use FIRST:COUNT word numbers\n");
                return TN_EXIT_USAGE;
            }
            mfirst = (uint32_t)v;
            mcount = (uint32_t)cnt;
            break;
        }
        case 'h':
            help(stdout);
            return TN_EXIT_OK;
        default:
            return tn_cmd_bad_option(CMD, argv);
        }
    }
    if (node == ULONG_MAX || optind < argc) {
        fprintf(stderr, CMD ": %s: see " CMD " --help\n",
                optind < argc ? "unexpected argument" : "--node N is required");
        return TN_EXIT_USAGE;
    }
    struct tn_dev dev;
    int ex = tn_dev_open(&dev, &da, CMD);
    if (ex != 0)
        return ex;
    uint32_t n = dev.info.dims[0] * dev.info.dims[1] * dev.info.dims[2];
    if (node >= n) {
        fprintf(stderr, CMD ": node %lu does not exist: the device has %u nodes\n", node, n);
        tn_dev_close(&dev);
        return TN_EXIT_USAGE;
    }
    if (mcount > 0 && (uint64_t)mfirst + mcount > dev.info.mem_depth) {
        fprintf(stderr, CMD ": --mem beyond the %u words of flit memory\n", dev.info.mem_depth);
        tn_dev_close(&dev);
        return TN_EXIT_USAGE;
    }
    int rc = dump(&dev, (uint32_t)node, mfirst, mcount);
    if (rc != 0) {
        fprintf(stderr, CMD ": device error: %s\n", tn_proto_errmsg(dev.p));
        ex = TN_EXIT_DEVICE;
    }
    tn_dev_close(&dev);
    return ex;
}
