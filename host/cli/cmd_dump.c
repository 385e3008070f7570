/* SPDX-License-Identifier: MIT */
/* torusctl dump: one node's status, round settings, descriptor lists with
 * their eject records and (optionally) flit memory, read from the device
 * as they are. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd_dev.h"
#include "image.h"
#include "tn_error.h"

#define CMD "torusctl dump"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl dump --node N [options]\n"
        "Print what node N holds: status flags and error counters, the collision\n"
        "latch, each loaded round's output selects and relay mode, every lane's\n"
        "inject and eject descriptor list with the eject records, and with --mem\n"
        "its flit memory.\n\n"
        "  --node N          node id (x + X*(y + Y*z))\n"
        "  --mem FIRST:COUNT also print COUNT memory words from FIRST\n"
        "(a fresh simulator model holds nothing: dump is for boards and debugging)\n"
        "%s"
        "  --help            this text\n"
        "exit codes: 0 ok, 1 usage, 2 device or communication error\n",
        tn_dev_help);
}

static const char *const status_names[TN_ST_WORDS] = {
    "error flags", "overruns", "short streams", "bounds errors", "collisions",
    "collision latch", "unroutable heads", "dropped flits", "active round",
    "bank conflicts",
};

static const char *const dir_names[6] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};

static const char *sel_name(unsigned v, char *buf, size_t len)
{
    if (v == TN_SEL_OFF)
        snprintf(buf, len, "off");
    else if (v >= TN_SEL_LANE(0) && v <= TN_SEL_LANE(5))
        snprintf(buf, len, "lane%u", v - TN_SEL_LANE(0));
    else if (v >= TN_SEL_PORT(0) && v <= TN_SEL_PORT(5))
        snprintf(buf, len, "in %s", dir_names[v - TN_SEL_PORT(0)]);
    else if (v == TN_SEL_RELAY)
        snprintf(buf, len, "relay");
    else
        snprintf(buf, len, "?%u", v);
    return buf;
}

static int dump_status(struct tn_dev *d, uint32_t node)
{
    uint32_t st[TN_ST_WORDS];
    char why[256];
    int rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_STATUS, 0), st, TN_ST_WORDS);
    if (rc != 0)
        return rc;
    printf("node %u\n", node);
    for (int i = 0; i < TN_ST_WORDS; i++)
        printf("  %-18s 0x%08x (%u)\n", status_names[i], st[i], st[i]);
    if (st[TN_ST_FLAGS] != 0)
        printf("  latched: %s\n", tn_status_describe(st, why, sizeof why));
    return 0;
}

/* The round settings of the first nrounds rounds. */
static int dump_rounds(struct tn_dev *d, uint32_t node, uint32_t nrounds)
{
    uint32_t cfg[256];
    char b[16];
    printf("round settings (outputs X+ X- Y+ Y- Z+ Z-, relay mode):\n");
    for (uint32_t r0 = 0; r0 < nrounds; r0 += 256) {
        uint32_t n = nrounds - r0 < 256 ? nrounds - r0 : 256;
        int rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_CFG, r0), cfg, n);
        if (rc != 0)
            return rc;
        for (uint32_t k = 0; k < n; k++) {
            printf("  round %u:", r0 + k + 1);
            for (unsigned o = 0; o < 6; o++)
                printf(" %s", sel_name(TN_CFG_SEL_OF(cfg[k], o), b, sizeof b));
            printf(", %s\n", cfg[k] & TN_CFG_MODE_DOR ? "dor" : "intervals");
        }
    }
    return 0;
}

/* Entries per READ of a descriptor list. */
#define LIST_CHUNK 32

/* Lane's list of region as the loaded run reaches it: its entries' words
 * into w (room for ROUNDS entries) up to the terminator, or up to an entry
 * for a round at or beyond nrounds (stale, never reached); their number. */
/* The first n entries of lane's inject list or eject table (region) into
 * w, LIST_CHUNK entries per READ. */
static int read_entries(struct tn_dev *d, uint32_t node, unsigned region, unsigned lane,
                        uint32_t n, uint32_t *w)
{
    const struct tn_info *in = &d->info;
    for (uint32_t i = 0; i < n; i += LIST_CHUNK) {
        uint32_t m = n - i < LIST_CHUNK ? n - i : LIST_CHUNK;
        int rc = tn_proto_read(d->p, TN_ADDR_NODE(node, region, tn_list_off(in, lane, i)),
                               w + TN_DESC_WORDS * i, TN_DESC_WORDS * m);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Lane's inject list (entries tagged with their round, ended by an
 * invalid entry or one beyond the rounds loaded): its length in *n. */
static int read_list(struct tn_dev *d, uint32_t node, unsigned lane, uint32_t nrounds,
                     uint32_t *w, uint32_t *n)
{
    int rc = read_entries(d, node, TN_REGION_INJ, lane, d->info.rounds, w);
    for (*n = 0; rc == 0 && *n < d->info.rounds; (*n)++) {
        uint32_t w0 = w[TN_DESC_WORDS * *n];
        if (!(w0 & TN_DESC_VALID) || TN_DESC_ROUND_OF(w0) >= nrounds)
            break;
    }
    return rc;
}

static void print_inject(uint32_t index, const uint32_t *w)
{
    uint32_t len = TN_DESC_LEN_OF(w[1]), a = TN_DESC_ADDR_OF(w[1]);
    printf("    [%u] round %u, start %u, words %u..%u (%u flits)%s\n", index,
           TN_DESC_ROUND_OF(w[0]) + 1, w[0] & 0xFFFFu, a, a + len - 1, len,
           w[0] & TN_DESC_RELAY ? ", relay" : "");
}

/* Lane's eject descriptor of round r (a table indexed by round) and its
 * record. */
static void print_eject(uint32_t r, const uint32_t *w, const uint32_t *rw, uint32_t runs)
{
    uint32_t len = TN_DESC_LEN_OF(w[1]), a = TN_DESC_ADDR_OF(w[1]);
    struct tn_record rec;
    tn_record_decode(rw, &rec);
    printf("    round %u, %s%s, words %u..%u (%u flits)\n", r + 1,
           w[0] & TN_DESC_RELAY ? "relay" : "in ",
           w[0] & TN_DESC_RELAY ? "" : dir_names[TN_DESC_PORT_OF(w[0]) % 6], a, a + len - 1,
           len);
    printf("        record: %u flits, cycles %u..%u of the round, crc %08x, errors %x, "
           "epoch %u (%s)\n", rec.count, rec.first, rec.last, rec.crc, rec.err, rec.epoch,
           rec.epoch == runs % 16 ? "filed by the last run" : "not filed by the last run");
}

/* Every lane's inject list, then its eject list with the records (the
 * entries of the nrounds rounds loaded). */
static int dump_lists(struct tn_dev *d, uint32_t node, uint32_t nrounds, uint32_t runs)
{
    const struct tn_info *in = &d->info;
    uint32_t *w = malloc((size_t)in->rounds * (TN_DESC_WORDS + TN_REC_WORDS) * sizeof *w);
    uint32_t *rec = w + (size_t)in->rounds * TN_DESC_WORDS, n;
    int rc = w == NULL ? TN_ENOMEM : 0;
    for (unsigned l = 0; l < in->lanes && rc == 0; l++) {
        rc = read_list(d, node, l, nrounds, w, &n);
        if (rc == 0 && n > 0)
            printf("inject lane %u:\n", l);
        for (uint32_t i = 0; i < n && rc == 0; i++)
            print_inject(i, w + TN_DESC_WORDS * i);
        if (rc == 0 && nrounds > 0)
            rc = read_entries(d, node, TN_REGION_EJ, l, nrounds, w);
        if (rc == 0 && nrounds > 0)
            rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_REC, tn_rec_off(in, l, 0)),
                               rec, TN_REC_WORDS * nrounds);
        for (uint32_t r = 0, shown = 0; r < nrounds && rc == 0; r++) {
            if (!(w[TN_DESC_WORDS * r] & TN_DESC_VALID))
                continue;  /* the lane is off in round r */
            if (!shown++)
                printf("eject lane %u:\n", l);
            print_eject(r, w + TN_DESC_WORDS * r, rec + TN_REC_WORDS * r, runs);
        }
    }
    free(w);
    return rc;
}

static int dump_mem(struct tn_dev *d, uint32_t node, uint32_t mfirst, uint32_t mcount)
{
    uint32_t buf[256];
    int digits = ((int)d->info.w + 3) / 4;
    printf("memory (h: head, t: tail):\n");
    for (uint32_t a = mfirst; a < mfirst + mcount; a += 256) {
        uint32_t n = mfirst + mcount - a < 256 ? mfirst + mcount - a : 256;
        int rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_MEM, a), buf, n);
        if (rc != 0)
            return rc;
        for (uint32_t k = 0; k < n; k++) {
            if ((a + k - mfirst) % 8 == 0)
                printf("%s  %5u:", a + k > mfirst ? "\n" : "", a + k);
            printf(" %0*x%c%c", digits, buf[k] & ~(TN_MEM_HEAD | TN_MEM_TAIL),
                   buf[k] & TN_MEM_HEAD ? 'h' : ' ', buf[k] & TN_MEM_TAIL ? 't' : ' ');
        }
    }
    printf("\n");
    return 0;
}

int tn_dump_node(struct tn_dev *d, uint32_t node, uint32_t mfirst, uint32_t mcount)
{
    uint32_t nrounds, runs;
    int rc = dump_status(d, node);
    if (rc == 0)
        rc = tn_proto_read(d->p, TN_G_NROUNDS, &nrounds, 1);
    if (rc == 0)
        rc = tn_proto_read(d->p, TN_G_RUNS, &runs, 1);
    if (rc != 0)
        return rc;
    printf("runs since reset %u, rounds loaded %u\n", runs, nrounds);
    if (nrounds > d->info.rounds)
        nrounds = d->info.rounds;
    rc = dump_rounds(d, node, nrounds);
    if (rc == 0)
        rc = dump_lists(d, node, nrounds, runs);
    if (rc == 0 && mcount > 0)
        rc = dump_mem(d, node, mfirst, mcount);
    return rc;
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
    char err[256];
    if (tn_info_check(&dev.info, err, sizeof err) != 0) {
        fprintf(stderr, CMD ": %s\n", err);
        tn_dev_close(&dev);
        return TN_EXIT_DEVICE;
    }
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
    int rc = tn_dump_node(&dev, (uint32_t)node, mfirst, mcount);
    if (rc == TN_ENOMEM) {
        fprintf(stderr, CMD ": out of memory\n");
        ex = TN_EXIT_USAGE;
    } else if (rc != 0) {
        fprintf(stderr, CMD ": device error: %s\n", tn_proto_errmsg(dev.p));
        ex = TN_EXIT_DEVICE;
    }
    tn_dev_close(&dev);
    return ex;
}
