/* SPDX-License-Identifier: MIT */
/* make bench: schedule construction + verification time (goals: 7x7x7 <
 * 10 ms, 49x49x49 < 2 s), reference model time for the 7x7x7 gossip at
 * L = 1 and 64, and the channel-dependency graphs and interval stretch
 * (docs/deadlock.md), printed as one table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo.h"
#include "cdg.h"
#include "model.h"
#include "plan.h"
#include "tn_error.h"
#include "verify.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct tn_sched *build(const char *dims, enum tn_coll coll, const char *algo, uint32_t L)
{
    struct tn_topo t;
    struct tn_algo_opts o = {algo, L, 6, 1, 0};
    struct tn_sched *s = NULL;
    if (tn_topo_parse(&t, dims) || tn_build(&s, coll, &t, &o))
        return NULL;
    return s;
}

static void row(const char *what, double secs, int reps, const char *goal, const char *note)
{
    double ms = secs / reps * 1e3;
    printf("| %-48s | %10.3f | %-9s | %-22s |\n", what, ms, goal, note);
}

static void bench_sched(const char *dims, enum tn_coll coll, const char *algo, int reps,
                        const char *goal)
{
    double t0 = now();
    unsigned viol = 0;
    for (int i = 0; i < reps; i++) {
        struct tn_sched *s = build(dims, coll, algo, 1);
        struct tn_report rep;
        if (!s || tn_verify(s, NULL, &rep) != 0)
            viol++;
        else
            tn_report_free(&rep);
        tn_sched_free(s);
    }
    char what[80], note[40];
    snprintf(what, sizeof what, "%s %s %s: build + verify",
             coll == TN_GOSSIP ? "gossip" : "broadcast", algo, dims);
    snprintf(note, sizeof note, "%s, %d runs", viol ? "FAILED" : "verified", reps);
    row(what, now() - t0, reps, goal, note);
}

static void bench_model(const char *dims, const char *algo, uint32_t L, enum tn_engine e,
                        int reps)
{
    struct tn_sched *s = build(dims, TN_GOSSIP, algo, L);
    struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
    struct tn_plan *p;
    char err[200];
    if (!s || tn_plan_lower(&p, s, &par, err, sizeof err)) {
        printf("| model %s %s: cannot build or lower |\n", algo, dims);
        tn_sched_free(s);
        return;
    }
    double t0 = now();
    uint64_t total = 0;
    for (int i = 0; i < reps; i++) {
        struct tn_model_out m;
        if (tn_model_run(p, (uint64_t)i, e, &m) == 0) {
            total = m.total;
            tn_model_free(&m);
        }
    }
    char what[80], note[40];
    snprintf(what, sizeof what, "model gossip %s %s L=%u (%s engine)", algo, dims, L,
             e == TN_ENGINE_CYCLE ? "cycle" : "stream");
    snprintf(note, sizeof note, "%llu cycles", (unsigned long long)total);
    row(what, now() - t0, reps, "-", note);
    tn_plan_free(p);
    tn_sched_free(s);
}

/* One run of a routing analysis on t: false if it failed, else a note. */
typedef bool (*routing_run_fn)(const struct tn_topo *t, enum tn_routing r, char *note,
                               size_t len);

/* Times reps runs on dims and prints the row. */
static void bench_routing(const char *what, const char *dims, enum tn_routing r,
                          routing_run_fn run, int reps, const char *goal)
{
    struct tn_topo t;
    char note[40] = "FAILED";
    bool failed = tn_topo_parse(&t, dims) != 0;
    double t0 = now();
    for (int i = 0; i < reps && !failed; i++)
        failed = !run(&t, r, note, sizeof note);
    row(what, now() - t0, reps, goal, failed ? "FAILED" : note);
}

/* Channel-dependency graph and its cycle search (docs/deadlock.md). */
static bool cdg_run(const struct tn_topo *t, enum tn_routing r, char *note, size_t len)
{
    struct tn_cdg g;
    if (tn_cdg_topo(&g, t, false, r))
        return false;
    snprintf(note, len, "%u ch, %s", g.channels, tn_cdg_acyclic(&g) ? "acyclic" : "cyclic");
    tn_cdg_free(&g);
    return true;
}

static void bench_cdg(const char *dims, enum tn_routing r, int reps, const char *goal)
{
    char what[80];
    snprintf(what, sizeof what, "cdg %s %s: build + cycle search", tn_routing_name(r), dims);
    bench_routing(what, dims, r, cdg_run, reps, goal);
}

/* Interval routing stretch over every ordered pair (torusctl routing). */
static bool stretch_run(const struct tn_topo *t, enum tn_routing r, char *note, size_t len)
{
    struct tn_stretch st;
    (void)r;
    if (tn_interval_stretch(t, &st))
        return false;
    snprintf(note, len, "avg %.2f, max +%u", st.avg_hops, st.max_extra);
    return true;
}

static void bench_stretch(const char *dims, int reps, const char *goal)
{
    char what[80];
    snprintf(what, sizeof what, "routing (interval stretch) %s", dims);
    bench_routing(what, dims, TN_ROUTE_INTERVAL, stretch_run, reps, goal);
}

int main(void)
{
    printf("| %-48s | %10s | %-9s | %-22s |\n", "what", "ms", "goal", "result");
    printf("|%s|%s|%s|%s|\n", "--------------------------------------------------",
           "------------", "-----------", "------------------------");
    bench_sched("7x7x7", TN_GOSSIP, "dp", 50, "< 10 ms");
    bench_sched("7x7x7", TN_GOSSIP, "ring", 50, "-");
    bench_sched("7x7x7", TN_GOSSIP, "dp-long", 50, "-");
    bench_sched("7x7x7", TN_BROADCAST, "dp", 50, "-");
    bench_sched("49x49x49", TN_GOSSIP, "dp", 3, "< 2000 ms");
    bench_sched("49x49x49", TN_GOSSIP, "dp-long", 1, "-");
    bench_sched("49x49x49", TN_BROADCAST, "dp", 3, "-");
    bench_model("7x7x7", "dp", 1, TN_ENGINE_CYCLE, 20);
    bench_model("7x7x7", "dp", 1, TN_ENGINE_STREAM, 20);
    bench_model("7x7x7", "dp", 64, TN_ENGINE_CYCLE, 3);
    bench_model("7x7x7", "dp", 64, TN_ENGINE_STREAM, 20);
    bench_model("49x49x49", "dp", 1, TN_ENGINE_STREAM, 1);
    bench_model("7x7x7", "dp-long", 1, TN_ENGINE_CYCLE, 20);
    /* 49x49x49 dp-long is not lowered: its gathers need 2.8e8 inject
     * descriptors; dp-long needs odd L on 8 banks (docs/host.md, "Banks") */
    bench_model("7x7x7", "dp-long", 63, TN_ENGINE_STREAM, 20);
    bench_cdg("7x7x7", TN_ROUTE_DOR, 50, "-");
    bench_cdg("7x7x7", TN_ROUTE_INTERVAL, 3, "-");
    bench_cdg("49x49x49", TN_ROUTE_DOR, 3, "< 2000 ms");
    bench_cdg("49x49x49", TN_ROUTE_DATELINE, 3, "-");
    /* interval and updown per destination: 16x16x32 is TN_CDG_ROUTED_MAX */
    for (int r = TN_ROUTE_INTERVAL; r <= TN_ROUTE_UPDOWN; r++) {
        bench_cdg("8x8x8", (enum tn_routing)r, 10, "-");
        bench_cdg("16x16x16", (enum tn_routing)r, 3, "< 1000 ms");
        bench_cdg("16x16x32", (enum tn_routing)r, 1, "< 4000 ms");
    }
    bench_stretch("8x8x8", 10, "-");
    bench_stretch("16x16x16", 3, "< 1000 ms");
    bench_stretch("16x16x32", 1, "< 4000 ms");
    return 0;
}
