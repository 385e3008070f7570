/* SPDX-License-Identifier: MIT */
/* Loading, running and reading back a plan on a device (run.h). */
#include "run.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "model.h"
#include "tn_error.h"

const char *tn_mis_kind_name(enum tn_mis_kind k)
{
    static const char *const names[] = {"not-filed", "data", "timing", "node-latch",
                                        "node-counter", "total-cycles", "closed-form"};
    return (unsigned)k < sizeof names / sizeof *names ? names[k] : "?";
}

int tn_run_result_init(struct tn_run_result *res, const struct tn_plan *p,
                       const struct tn_model_out *mo)
{
    memset(res, 0, sizeof *res);
    res->round_meas = calloc(p->nrounds ? p->nrounds : 1, sizeof *res->round_meas);
    res->round_model = calloc(p->nrounds ? p->nrounds : 1, sizeof *res->round_model);
    res->bad = calloc(mo->nstats ? mo->nstats : 1, 1);
    res->rec = calloc(mo->nstats ? mo->nstats : 1, sizeof *res->rec);
    if (!res->round_meas || !res->round_model || !res->bad || !res->rec) {
        tn_run_result_free(res);
        return TN_ENOMEM;
    }
    return 0;
}

void tn_run_result_free(struct tn_run_result *res)
{
    free(res->round_meas);
    free(res->round_model);
    free(res->bad);
    free(res->rec);
    res->round_meas = res->round_model = NULL;
    res->bad = NULL;
    res->rec = NULL;
}


void tn_progress(struct tn_progress *p, uint64_t done, uint64_t total)
{
    double t = tn_now_s();
    bool tty = isatty(STDERR_FILENO);
    /* A terminal gets one updating line, a log a line every 10 s. */
    if (p->quiet || t - p->t0 < 1.0 || t - p->last < (tty ? 0.5 : 10.0))
        return;
    p->last = t;
    p->shown = tty;
    fprintf(stderr, "%s%s: %" PRIu64, tty ? "\r" : "", p->what, done);
    if (total)
        fprintf(stderr, "/%" PRIu64 " (%.0f%%)", total, 100.0 * (double)done / (double)total);
    fprintf(stderr, tty ? "  " : "\n");
}

void tn_progress_end(struct tn_progress *p)
{
    if (p->shown)
        fprintf(stderr, "\n");
}

void tn_run_add_mismatch(struct tn_run_result *res, enum tn_mis_kind k, uint32_t r, uint32_t v,
                         uint32_t l, const char *fmt, ...)
{
    if (res->nmis < TN_RUN_MAX_LISTED) {
        struct tn_mismatch *m = &res->listed[res->nmis];
        m->kind = k;
        m->round = r;
        m->node = v;
        m->lane = l;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(m->what, sizeof m->what, fmt, ap);
        va_end(ap);
    }
    res->nmis++;
}

/* Bursts per pipelined call: the window drains at each call's end, so this
 * only bounds how often progress is shown. */
#define LOAD_CHUNK 256

int tn_run_load(struct tn_proto *dev, const struct tn_image *img, bool quiet)
{
    struct tn_progress pr = {"loading words", tn_now_s(), 0, false, quiet};
    struct tn_proto_wspan sp[LOAD_CHUNK];
    size_t done = 0;
    for (size_t i = 0; i < img->nbursts; i += LOAD_CHUNK) {
        size_t ns = img->nbursts - i < LOAD_CHUNK ? img->nbursts - i : LOAD_CHUNK;
        for (size_t j = 0; j < ns; j++) {
            const struct tn_image_burst *b = &img->bursts[i + j];
            sp[j] = (struct tn_proto_wspan){b->addr, img->words + b->off, b->n};
            done += b->n;
        }
        int rc = tn_proto_writev(dev, sp, ns);
        if (rc != 0)
            return rc;
        tn_progress(&pr, done, img->nwords);
    }
    tn_progress_end(&pr);
    return 0;
}

static int wait_done(struct tn_proto *dev, struct tn_status *st, uint64_t expect, bool quiet)
{
    struct tn_progress pr = {"running, cycle", tn_now_s(), 0, false, quiet};
    for (;;) {
        int rc = tn_proto_status(dev, st);
        if (rc != 0)
            return rc;
        if (!(st->status & 1) && (st->status & (2 | 8)))
            break;
        tn_progress(&pr, st->cycle - st->start_cycle, expect);
        /* A board runs on its own: do not flood it. The simulator only
         * advances while we wait for its answers. */
        if (tn_now_s() - pr.t0 > 0.2)
            usleep(2000);
    }
    tn_progress_end(&pr);
    /* The error bit (and ERRMAP) follows the nodes' status, which sees the
     * last round's end (its records filed, short streams counted) in the
     * cycle after the sequencer's: read STATUS once more, a whole bus round
     * trip later, for the settled value. */
    return tn_proto_status(dev, st);
}

/* READs per pipelined call in the readback (bounds how often progress is
 * shown). */
#define READ_CHUNK 64

/* Compare one eject record with the model's prediction e. t0 is the
 * round's start relative to T0 (the record's cycles are round-relative),
 * runs the device's RUNS after the run (a record of another epoch was not
 * filed by it). */
static void compare_stat(const struct tn_plan *p, const struct tn_info *info,
                         const struct tn_stat *e, const uint32_t *w, uint32_t runs,
                         struct tn_run_result *res, uint32_t i)
{
    uint32_t nmis = res->nmis;
    const struct tn_plan_round *pr = &p->rounds[e->round];
    struct tn_record rec;
    tn_record_decode(w, &rec);
    if (res->rec != NULL)
        res->rec[i] = rec;
    uint32_t want_count = e->count & tn_record_count_mask(info);
    uint64_t first = rec.count ? pr->t0 + rec.first : 0, last = rec.count ? pr->t0 + rec.last : 0;
    if (rec.epoch != runs % 16) {
        res->data_ok = false;
        tn_run_add_mismatch(res, TN_MIS_NOT_FILED, e->round, e->node, e->lane,
                     "not filed: the record's epoch is %u, the run's %u (RUNS %u): its round "
                     "did not run", rec.epoch, runs % 16, runs);
        if (res->bad != NULL)
            res->bad[i] = 1;
        return;
    }
    if (rec.err)
        res->hw_err_desc++;
    if (rec.count != want_count || rec.crc != e->crc || rec.err != e->err) {
        res->data_ok = false;
        tn_run_add_mismatch(res, TN_MIS_DATA, e->round, e->node, e->lane,
                     "data: %u flits crc %08x err %x, expected %u flits crc %08x err %x",
                     rec.count, rec.crc, rec.err, want_count, e->crc, e->err);
    } else if (rec.count > 0 && (first != e->first || last != e->last)) {
        res->cycles_ok = false;
        tn_run_add_mismatch(res, TN_MIS_TIMING, e->round, e->node, e->lane,
                     "timing: flits in cycles %" PRIu64 "..%" PRIu64
                     ", expected %" PRIu64 "..%" PRIu64, first, last, e->first, e->last);
    }
    if (rec.count > 0 && (uint64_t)rec.last + 1 > res->round_meas[e->round])
        res->round_meas[e->round] = (uint64_t)rec.last + 1;
    if (e->count > 0 && e->last + 1 - pr->t0 > res->round_model[e->round])
        res->round_model[e->round] = e->last + 1 - pr->t0;
    if (res->bad != NULL)
        res->bad[i] = res->nmis != nmis;
}

/* The nodes in ERRMAP, each with what it latched (its status flags). */
static int read_error_nodes(struct tn_proto *dev, const struct tn_plan *p, struct tn_run_result *res)
{
    uint32_t n = p->topo.n;
    int rc = 0;
    for (uint32_t k = 0; k < (n + 31) / 32 && rc == 0; k++) {
        uint32_t m;
        rc = tn_proto_read(dev, TN_G_ERRMAP(k), &m, 1);
        for (int j = 0; j < 32 && rc == 0; j++) {
            if (!(m >> j & 1))
                continue;
            uint32_t v = 32 * k + (uint32_t)j, st[TN_ST_WORDS] = {0};
            char why[200] = "";
            res->err_nodes++;
            if (res->nmis < TN_RUN_MAX_LISTED) {
                rc = tn_proto_read(dev, TN_ADDR_NODE(v, TN_REGION_STATUS, 0), st, TN_ST_WORDS);
                tn_status_describe(st, why, sizeof why);
            }
            tn_run_add_mismatch(res, TN_MIS_NODE_LATCH, UINT32_MAX, v, UINT32_MAX,
                         "the node latched %s (torusctl dump "
                         "--node %u)", why[0] ? why : "an error", v);
        }
    }
    return rc;
}

/* Nodes per pipelined call of the relay event check. */
#define STATUS_CHUNK 64

/* Compare node v's status words st (FLAGS .. DROP) with the model's relay
 * events: the collision, unroutable and drop counters (which stop at
 * 0xFFFF), and none of the errors the model never predicts (memory bounds,
 * bank conflicts). */
static void compare_node_events(const struct tn_model_out *mo, uint32_t v, const uint32_t *st,
                                struct tn_run_result *res)
{
    static const int counter[3] = {TN_ST_COLL, TN_ST_UNRT, TN_ST_DROP};
    static const char *const what[3] = {"collisions", "unroutable heads", "dropped flits"};
    const uint32_t never = 1u << 2 | 1u << 3 | 1u << 7; /* FLAGS: bounds, bank conflict */
    for (int k = 0; k < 3; k++) {
        uint32_t want = mo->relay_ev[3 * (size_t)v + k], got = st ? st[counter[k]] : 0;
        want = want > 0xFFFFu ? 0xFFFFu : want;
        res->relay_dev[k] += got;
        if (got != want) {
            res->data_ok = false;
            tn_run_add_mismatch(res, TN_MIS_NODE_COUNTER, UINT32_MAX, v, UINT32_MAX,
                         "%u %s, the model predicts %u", got,
                         what[k], want);
        }
    }
    if (st && (st[TN_ST_FLAGS] & never)) {
        char why[200];
        uint32_t all[TN_ST_WORDS] = {0};
        memcpy(all, st, (TN_ST_DROP + 1) * sizeof *st);
        res->data_ok = false;
        tn_run_add_mismatch(res, TN_MIS_NODE_LATCH, UINT32_MAX, v, UINT32_MAX, "the node latched %s",
                     tn_status_describe(all, why, sizeof why));
    }
}

/* Relay events, device against model: the status of every node in ERRMAP
 * is read and compared; a node outside it latched nothing, so counts no
 * event. */
static int compare_relay_events(struct tn_proto *dev, const struct tn_plan *p,
                                const struct tn_model_out *mo, struct tn_run_result *res)
{
    uint32_t n = p->topo.n, nsel = 0, map = 0, st[STATUS_CHUNK][TN_ST_DROP + 1];
    uint32_t *sel = malloc(((size_t)n + 1) * sizeof *sel);
    struct tn_proto_rspan sp[STATUS_CHUNK];
    int rc = sel ? 0 : TN_ENOMEM;
    res->relay_events = true;
    for (int k = 0; k < 3; k++) {
        res->relay_model[k] = mo->relay_total[k];
        res->relay_dev[k] = 0;
    }
    for (uint32_t v = 0; v < n && rc == 0; v++) {
        if (v % 32 == 0)
            rc = tn_proto_read(dev, TN_G_ERRMAP(v / 32), &map, 1);
        if (map >> (v % 32) & 1)
            sel[nsel++] = v;
        else
            compare_node_events(mo, v, NULL, res);
    }
    for (uint32_t i0 = 0; i0 < nsel && rc == 0; i0 += STATUS_CHUNK) {
        uint32_t m = nsel - i0 < STATUS_CHUNK ? nsel - i0 : STATUS_CHUNK;
        for (uint32_t j = 0; j < m; j++)
            sp[j] = (struct tn_proto_rspan){TN_ADDR_NODE(sel[i0 + j], TN_REGION_STATUS, 0), st[j],
                                            TN_ST_DROP + 1};
        rc = tn_proto_readv(dev, sp, m);
        for (uint32_t j = 0; j < m && rc == 0; j++)
            compare_node_events(mo, sel[i0 + j], st[j], res);
    }
    free(sel);
    return rc;
}

/* Read every eject record the model predicts and compare: the records of
 * one (node, lane) list are consecutive, one span each, pipelined
 * (tn_proto_readv); RUNS tells which were filed by this run. */
static int readback(struct tn_proto *dev, const struct tn_info *info, const struct tn_plan *p, const struct tn_model_out *mo,
                    const struct tn_status *st, struct tn_run_result *res, bool quiet)
{
    struct tn_progress pr = {"reading records", tn_now_s(), 0, false, quiet};
    struct tn_rec_spans rs;
    uint32_t *buf = NULL, runs = 0;
    int rc = tn_image_record_spans(p, info,
                                   tn_proto_read_window(dev) > 1 ? TN_REC_GAP : UINT32_MAX, &rs);
    if (rc == 0 && (buf = malloc((rs.nwords ? rs.nwords : 1) * sizeof *buf)) == NULL)
        rc = TN_ENOMEM;
    if (rc != 0)
        goto out;
    for (size_t k = 0, at = 0; k < rs.nsp; at += rs.sp[k].n, k++)
        rs.sp[k].words = buf + at;
    for (size_t k = 0; k < rs.nsp && rc == 0; k += READ_CHUNK) {
        size_t m = rs.nsp - k < READ_CHUNK ? rs.nsp - k : READ_CHUNK;
        rc = tn_proto_readv(dev, rs.sp + k, m);
        tn_progress(&pr, k + m, rs.nsp);
    }
    tn_progress_end(&pr);
    if (rc == 0)
        rc = tn_proto_read(dev, TN_G_RUNS, &runs, 1);
    if (rc != 0)
        goto out;
    for (uint32_t i = 0; i < mo->nstats; i++)
        compare_stat(p, info, &mo->stats[i], buf + rs.pos[i], runs, res, i);
    if (mo->relay_total[TN_RELAY_COLL] + mo->relay_total[TN_RELAY_UNRT] +
        mo->relay_total[TN_RELAY_DROP] > 0) {
        rc = compare_relay_events(dev, p, mo, res);
    } else if (st->status & 4) {
        rc = read_error_nodes(dev, p, res);
        res->data_ok = false;
    }
out:
    tn_rec_spans_free(&rs);
    free(buf);
    return rc;
}

/* Start the loaded schedule, wait for the end and compare every record
 * and the total with the model into res (its arrays kept, the rest
 * cleared): 0 or a TN_E* code (a transport error, TN_ENOMEM). The run's
 * and the readback's seconds go to tm[0], tm[1]. An aborted run (status
 * bit 3) is not read back. */
int tn_run_execute(struct tn_proto *dev, const struct tn_info *info,
                   const struct tn_plan *p, const struct tn_model_out *mo,
                    struct tn_run_result *res, bool quiet, double tm[2])
{
    struct tn_status st;
    double t = tn_now_s();
    int rc = tn_proto_start(dev);
    if (rc == 0)
        rc = wait_done(dev, &st, p->total, quiet);
    tm[0] = tn_now_s() - t;
    if (rc != 0)
        return rc;
    t = tn_now_s();
    size_t nr = p->nrounds ? p->nrounds : 1;
    memset(res->round_meas, 0, nr * sizeof *res->round_meas);
    memset(res->round_model, 0, nr * sizeof *res->round_model);
    if (res->bad != NULL)
        memset(res->bad, 0, mo->nstats);
    res->nmis = res->hw_err_desc = res->err_nodes = 0;
    res->data_ok = res->cycles_ok = true;
    res->status = st.status;
    res->measured = st.end_cycle - st.start_cycle;
    res->model = mo->total;
    if (st.status & 8)
        return 0;
    rc = readback(dev, info, p, mo, &st, res, quiet);
    tm[1] = tn_now_s() - t;
    if (rc == 0 && res->measured != res->model) {
        res->cycles_ok = false;
        tn_run_add_mismatch(res, TN_MIS_TOTAL, UINT32_MAX, UINT32_MAX, UINT32_MAX,
                     "total: measured %" PRIu64 " cycles, model %" PRIu64, res->measured,
                     res->model);
    }
    return rc;
}
