/* SPDX-License-Identifier: MIT */
/* torusctl dump: one node's status, round settings, descriptor lists with
 * their eject records and (optionally) flit memory, read from the device
 * as they are. */
#include <getopt.h>
#include <jansson.h>
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
        "latch, each loaded round's output selects, every lane's\n"
        "inject and eject descriptor list with the eject records, and with --mem\n"
        "its flit memory.\n\n"
        "  --node N          node id (x + X*(y + Y*z))\n"
        "  --mem FIRST:COUNT also print COUNT memory words from FIRST\n"
        TN_CMD_JSON_HELP
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

/* A relay inject descriptor's hop (TN_DESC_HOP_OF): the output its heads
 * take at this node. */
static const char *hop_name(unsigned hop)
{
    return hop < 6 ? dir_names[hop] : hop == TN_HOP_HERE ? "here" : "none";
}

/* What dump reads of one node, as the device holds it. */
struct node_dump {
    uint32_t node, runs, nrounds;  /* nrounds: the rounds loaded (at most ROUNDS) */
    uint32_t st[TN_ST_WORDS];
    uint32_t *cfg;                 /* nrounds round settings */
    uint32_t ninj[6];              /* each lane's inject list length */
    uint32_t *inj;                 /* lane l's list at inj + l * ROUNDS * TN_DESC_WORDS */
    uint32_t *ej, *rec;            /* lane l's eject table and records, nrounds each,
                                    * at l * nrounds * TN_DESC_WORDS (TN_REC_WORDS) */
    uint32_t mfirst, mcount, *mem;
};

/* Entries per READ of a descriptor list. */
#define LIST_CHUNK 32

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

/* READs of up to 256 words each. */
static int read_words(struct tn_dev *d, uint32_t node, unsigned region, uint32_t first,
                      uint32_t n, uint32_t *w)
{
    for (uint32_t k = 0; k < n; k += 256) {
        int rc = tn_proto_read(d->p, TN_ADDR_NODE(node, region, first + k), w + k,
                               n - k < 256 ? n - k : 256);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static void free_node(struct node_dump *nd)
{
    free(nd->cfg);
    free(nd->inj);
    free(nd->ej);
    free(nd->rec);
    free(nd->mem);
}

static int read_lanes(struct tn_dev *d, struct node_dump *nd)
{
    const struct tn_info *in = &d->info;
    int rc = 0;
    for (unsigned l = 0; l < in->lanes && rc == 0; l++) {
        rc = read_list(d, nd->node, l, nd->nrounds,
                       nd->inj + (size_t)l * in->rounds * TN_DESC_WORDS, &nd->ninj[l]);
        if (rc == 0 && nd->nrounds > 0)
            rc = read_entries(d, nd->node, TN_REGION_EJ, l, nd->nrounds,
                              nd->ej + (size_t)l * nd->nrounds * TN_DESC_WORDS);
        if (rc == 0 && nd->nrounds > 0)
            rc = tn_proto_read(d->p, TN_ADDR_NODE(nd->node, TN_REGION_REC, tn_rec_off(in, l, 0)),
                               nd->rec + (size_t)l * nd->nrounds * TN_REC_WORDS,
                               TN_REC_WORDS * nd->nrounds);
    }
    return rc;
}

/* Everything dump shows of node (and mcount memory words from mfirst). */
static int read_node(struct tn_dev *d, uint32_t node, uint32_t mfirst, uint32_t mcount,
                     struct node_dump *nd)
{
    const struct tn_info *in = &d->info;
    memset(nd, 0, sizeof *nd);
    nd->node = node;
    nd->mfirst = mfirst;
    nd->mcount = mcount;
    int rc = tn_proto_read(d->p, TN_ADDR_NODE(node, TN_REGION_STATUS, 0), nd->st, TN_ST_WORDS);
    if (rc == 0)
        rc = tn_proto_read(d->p, TN_G_NROUNDS, &nd->nrounds, 1);
    if (rc == 0)
        rc = tn_proto_read(d->p, TN_G_RUNS, &nd->runs, 1);
    if (rc != 0)
        return rc;
    if (nd->nrounds > in->rounds)
        nd->nrounds = in->rounds;
    size_t lr = (size_t)in->lanes * nd->nrounds;
    nd->cfg = malloc(((size_t)nd->nrounds + 1) * sizeof *nd->cfg);
    nd->inj = malloc((size_t)in->lanes * in->rounds * TN_DESC_WORDS * sizeof *nd->inj);
    nd->ej = malloc((lr * TN_DESC_WORDS + 1) * sizeof *nd->ej);
    nd->rec = malloc((lr * TN_REC_WORDS + 1) * sizeof *nd->rec);
    nd->mem = malloc(((size_t)mcount + 1) * sizeof *nd->mem);
    if (!nd->cfg || !nd->inj || !nd->ej || !nd->rec || !nd->mem)
        return TN_ENOMEM;
    rc = read_words(d, node, TN_REGION_CFG, 0, nd->nrounds, nd->cfg);
    if (rc == 0)
        rc = read_lanes(d, nd);
    if (rc == 0)
        rc = read_words(d, node, TN_REGION_MEM, mfirst, mcount, nd->mem);
    return rc;
}

/* ---- text ---- */

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

static void print_status(const struct node_dump *nd)
{
    char why[256];
    printf("node %u\n", nd->node);
    for (int i = 0; i < TN_ST_WORDS; i++)
        printf("  %-18s 0x%08x (%u)\n", status_names[i], nd->st[i], nd->st[i]);
    if (nd->st[TN_ST_FLAGS] != 0)
        printf("  latched: %s\n", tn_status_describe(nd->st, why, sizeof why));
    printf("runs since reset %u, rounds loaded %u\n", nd->runs, nd->nrounds);
}

static void print_rounds(const struct node_dump *nd)
{
    char b[16];
    printf("round settings (outputs X+ X- Y+ Y- Z+ Z-):\n");
    for (uint32_t r = 0; r < nd->nrounds; r++) {
        printf("  round %u:", r + 1);
        for (unsigned o = 0; o < 6; o++)
            printf(" %s", sel_name(TN_CFG_SEL_OF(nd->cfg[r], o), b, sizeof b));
        printf("\n");
    }
}

static void print_inject(uint32_t index, const uint32_t *w)
{
    uint32_t len = TN_DESC_LEN_OF(w[1]), a = TN_DESC_ADDR_OF(w[1]);
    printf("    [%u] round %u, start %u, words %u..%u (%u flits)", index,
           TN_DESC_ROUND_OF(w[0]) + 1, w[0] & 0xFFFFu, a, a + len - 1, len);
    if (w[0] & TN_DESC_RELAY)
        printf(", relay, first hop %s", hop_name(TN_DESC_HOP_OF(w[0])));
    printf("\n");
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

/* Every lane's inject list, then its eject table with the records (the
 * entries of the rounds loaded; a lane off in a round has none). */
static void print_lanes(const struct node_dump *nd, const struct tn_info *in)
{
    for (unsigned l = 0; l < in->lanes; l++) {
        const uint32_t *inj = nd->inj + (size_t)l * in->rounds * TN_DESC_WORDS;
        const uint32_t *ej = nd->ej + (size_t)l * nd->nrounds * TN_DESC_WORDS;
        const uint32_t *rec = nd->rec + (size_t)l * nd->nrounds * TN_REC_WORDS;
        if (nd->ninj[l] > 0)
            printf("inject lane %u:\n", l);
        for (uint32_t i = 0; i < nd->ninj[l]; i++)
            print_inject(i, inj + TN_DESC_WORDS * i);
        for (uint32_t r = 0, shown = 0; r < nd->nrounds; r++) {
            if (!(ej[TN_DESC_WORDS * r] & TN_DESC_VALID))
                continue;
            if (!shown++)
                printf("eject lane %u:\n", l);
            print_eject(r, ej + TN_DESC_WORDS * r, rec + TN_REC_WORDS * r, nd->runs);
        }
    }
}

static void print_mem(const struct node_dump *nd, const struct tn_info *in)
{
    int digits = ((int)in->w + 3) / 4;
    printf("memory (h: head, t: tail):");
    for (uint32_t k = 0; k < nd->mcount; k++) {
        uint32_t w = nd->mem[k];
        if (k % 8 == 0)
            printf("\n  %5u:", nd->mfirst + k);
        printf(" %0*x%c%c", digits, w & ~(TN_MEM_HEAD | TN_MEM_TAIL),
               w & TN_MEM_HEAD ? 'h' : ' ', w & TN_MEM_TAIL ? 't' : ' ');
    }
    printf("\n");
}

/* ---- JSON ---- */

static json_t *words_json(const uint32_t *w, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; a && i < n; i++)
        json_array_append_new(a, json_integer(w[i]));
    return a;
}

static json_t *desc_json(const uint32_t *w)
{
    uint32_t len = TN_DESC_LEN_OF(w[1]);
    return json_pack("{s:I, s:I, s:I, s:b}", "round", (json_int_t)TN_DESC_ROUND_OF(w[0]) + 1,
                     "addr", (json_int_t)TN_DESC_ADDR_OF(w[1]), "flits", (json_int_t)len,
                     "relay", (w[0] & TN_DESC_RELAY) != 0);
}

static json_t *lane_json(const struct node_dump *nd, const struct tn_info *in, unsigned l)
{
    const uint32_t *inj = nd->inj + (size_t)l * in->rounds * TN_DESC_WORDS;
    const uint32_t *ej = nd->ej + (size_t)l * nd->nrounds * TN_DESC_WORDS;
    const uint32_t *rw = nd->rec + (size_t)l * nd->nrounds * TN_REC_WORDS;
    json_t *ia = json_array(), *ea = json_array();
    for (uint32_t i = 0; i < nd->ninj[l]; i++) {
        uint32_t w0 = inj[TN_DESC_WORDS * i];
        json_t *o = desc_json(inj + TN_DESC_WORDS * i);
        json_object_set_new(o, "start", json_integer(w0 & 0xFFFFu));
        json_object_set_new(o, "hop", w0 & TN_DESC_RELAY
                                          ? json_string(hop_name(TN_DESC_HOP_OF(w0)))
                                          : json_null());
        json_array_append_new(ia, o);
    }
    for (uint32_t r = 0; r < nd->nrounds; r++) {
        const uint32_t *w = ej + TN_DESC_WORDS * r;
        if (!(w[0] & TN_DESC_VALID))
            continue;
        struct tn_record rec;
        tn_record_decode(rw + TN_REC_WORDS * r, &rec);
        json_t *o = desc_json(w);
        json_object_set_new(o, "round", json_integer(r + 1));
        json_object_set_new(o, "in", w[0] & TN_DESC_RELAY
                                         ? json_null()
                                         : json_string(dir_names[TN_DESC_PORT_OF(w[0]) % 6]));
        json_object_set_new(o, "record", json_pack(
            "{s:I, s:I, s:I, s:I, s:I, s:I, s:b}", "flits", (json_int_t)rec.count, "first",
            (json_int_t)rec.first, "last", (json_int_t)rec.last, "crc", (json_int_t)rec.crc,
            "errors", (json_int_t)rec.err, "epoch", (json_int_t)rec.epoch, "filed_by_last_run",
            rec.epoch == nd->runs % 16));
        json_array_append_new(ea, o);
    }
    return json_pack("{s:i, s:o, s:o}", "lane", (int)l, "inject", ia, "eject", ea);
}

static json_t *node_json(const struct node_dump *nd, const struct tn_info *in)
{
    json_t *st = json_object(), *rounds = json_array(), *lanes = json_array();
    for (int i = 0; i < TN_ST_WORDS; i++) {
        char key[32];  /* "error flags" -> "error_flags" */
        snprintf(key, sizeof key, "%s", status_names[i]);
        for (char *k = key; *k; k++)
            *k = *k == ' ' ? '_' : *k;
        json_object_set_new(st, key, json_integer(nd->st[i]));
    }
    char b[16];
    for (uint32_t r = 0; r < nd->nrounds; r++) {
        json_t *sel = json_array();
        for (unsigned o = 0; o < 6; o++)
            json_array_append_new(sel, json_string(sel_name(TN_CFG_SEL_OF(nd->cfg[r], o), b,
                                                            sizeof b)));
        json_array_append_new(rounds, json_pack("{s:o}", "outputs", sel));
    }
    for (unsigned l = 0; l < in->lanes; l++)
        json_array_append_new(lanes, lane_json(nd, in, l));
    return json_pack("{s:I, s:o, s:I, s:I, s:o, s:o, s:I, s:o}", "node", (json_int_t)nd->node,
                     "status", st, "runs", (json_int_t)nd->runs, "rounds_loaded",
                     (json_int_t)nd->nrounds, "rounds", rounds, "lanes", lanes, "mem_first",
                     (json_int_t)nd->mfirst, "mem", words_json(nd->mem, nd->mcount));
}

int tn_dump_node(struct tn_dev *d, uint32_t node, uint32_t mfirst, uint32_t mcount,
                 const struct tn_cmd_json *json)
{
    struct node_dump nd;
    int rc = read_node(d, node, mfirst, mcount, &nd), ex = TN_EXIT_OK;
    if (rc == TN_ENOMEM) {
        fprintf(stderr, CMD ": out of memory\n");
        ex = TN_EXIT_USAGE;
    } else if (rc != 0) {
        fprintf(stderr, CMD ": device error: %s\n", tn_proto_errmsg(d->p));
        ex = TN_EXIT_DEVICE;
    }
    if (rc == 0 && !tn_cmd_json_stdout(json)) {
        print_status(&nd);
        print_rounds(&nd);
        print_lanes(&nd, &d->info);
        if (mcount > 0)
            print_mem(&nd, &d->info);
    }
    if (rc == 0 && json->on)
        ex = tn_cmd_json_emit(CMD, json, node_json(&nd, &d->info));
    free_node(&nd);
    return ex;
}

/* What the command line asks for. */
struct dump_args {
    unsigned long node;          /* ULONG_MAX: not given */
    uint32_t mfirst, mcount;
    struct tn_cmd_json json;
};

/* One option (tn_dev_getopt): 0 or an exit code. */
static int dump_option(void *ctx, int c, char **argv, bool *done)
{
    struct dump_args *d = ctx;
    unsigned long v;
    switch (c) {
    case 'n':
        if (!tn_cmd_uint(optarg, 0, 4094, &d->node)) {
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
        d->mfirst = (uint32_t)v;
        d->mcount = (uint32_t)cnt;
        break;
    }
    case 'j':
        tn_cmd_json_opt(&d->json, optarg);
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

int cmd_dump(int argc, char **argv)
{
    static const struct option opts[] = {
        {"node", required_argument, NULL, 'n'}, {"mem", required_argument, NULL, 'm'},
        {"json", optional_argument, NULL, 'j'},
        TN_DEV_LONGOPTS, {NULL, 0, NULL, 0}};
    struct tn_dev_args da;
    struct dump_args d = {ULONG_MAX, 0, 0, {false, NULL}};
    bool done = false;
    int ex = tn_dev_getopt(argc, argv, opts, &da, CMD, dump_option, &d, &done);
    if (ex != 0 || done)
        return ex;
    if (d.node == ULONG_MAX || optind < argc) {
        fprintf(stderr, CMD ": %s: see " CMD " --help\n",
                optind < argc ? "unexpected argument" : "--node N is required");
        return TN_EXIT_USAGE;
    }
    struct tn_dev dev;
    ex = tn_dev_open(&dev, &da, CMD);
    if (ex != 0)
        return ex;
    char err[256];
    if (tn_info_check(&dev.info, err, sizeof err) != 0) {
        fprintf(stderr, CMD ": %s\n", err);
        tn_dev_close(&dev);
        return TN_EXIT_DEVICE;
    }
    uint32_t n = dev.info.dims[0] * dev.info.dims[1] * dev.info.dims[2];
    if (d.node >= n) {
        fprintf(stderr, CMD ": node %lu does not exist: the device has %u nodes\n", d.node, n);
        tn_dev_close(&dev);
        return TN_EXIT_USAGE;
    }
    if (d.mcount > 0 && (uint64_t)d.mfirst + d.mcount > dev.info.mem_depth) {
        fprintf(stderr, CMD ": --mem beyond the %u words of flit memory\n", dev.info.mem_depth);
        tn_dev_close(&dev);
        return TN_EXIT_USAGE;
    }
    ex = tn_dump_node(&dev, (uint32_t)d.node, d.mfirst, d.mcount, &d.json);
    tn_dev_close(&dev);
    return ex;
}
