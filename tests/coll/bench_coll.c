/* SPDX-License-Identifier: MIT */
/* Benchmark of the collective algorithms: liquid schedule search (time
 * and gap to Lambda) on the paper's Fig. 7 traffic and torus all-to-all,
 * next to round-robin; scatter/gather schedule times on 7x7x7 against
 * their optimum or bounds. Each search row has its own time bound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topo.h"
#include "gather.h"
#include "liquid.h"
#include "scatter.h"
#include "traffic.h"
#include "tree.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One search and its table row. With q (a quotient of t on the torus c)
 * the search runs on q and the schedule is lifted to t and checked there.
 * Returns the length found. */
static int liquid_row(const char *name, const char *port, const char *via,
                      const struct tn_traffic *t, const struct tn_traffic *q,
                      const struct tn_topo *c, double bound, const int *start,
                      int start_steps, int nrr)
{
    const struct tn_traffic *s = q ? q : t;
    int *step = malloc(sizeof(int) * t->nx);
    int *sq = malloc(sizeof(int) * s->nx);
    struct tn_liquid_opts o;
    struct tn_liquid_stats st;
    tn_liquid_defaults(&o);
    o.seconds = bound;
    o.start = start;
    o.start_steps = start_steps;
    int n = tn_liquid_search(s, &o, sq, &st);
    if (q)
        tn_traffic_torus_lift(t, c, sq, step);
    else
        memcpy(step, sq, sizeof(int) * t->nx);
    int valid = n > 0 && tn_traffic_check(t, step, n, 1) == 0;
    const char *how = st.exhausted ? (n == st.lambda ? "exhaustive"
                                                     : "proof-none")
                      : st.started ? (n == start_steps ? "start"
                                                       : "start+repair")
                      : n == st.sequence ? "team-sequence"
                      : st.moves ? "repair" : "search";
    printf("%-8s %-6s %-8s %8d %6d %6d %6d %7.2f%% %-14s %7.2f %6.0f %s\n",
           name, port, via, s->nx, st.lambda, nrr, n,
           100.0 * (n - st.lambda) / st.lambda, how, st.seconds, bound,
           valid ? "ok" : "INVALID");
    fflush(stdout);
    free(step);
    free(sq);
    return n;
}

/* The step classes on the all-port quotient q of the cube c, lifted
 * to t and checked there; a row in the search table's columns. */
static void classes_row(const char *name, const struct tn_traffic *t,
                        const struct tn_traffic *q, const struct tn_topo *c,
                        double bound, int nrr)
{
    int *step = malloc(sizeof(int) * t->nx), *sq = malloc(sizeof(int) * q->nx);
    int *load = malloc(sizeof(int) * t->nlinks), lam = tn_traffic_load(t, NULL, load);
    double t0 = now();
    int n = tn_traffic_torus_classes(q, c, 1, bound, sq);
    double secs = now() - t0;
    int valid = n > 0 && tn_traffic_torus_lift(t, c, sq, step) == 0 &&
                tn_traffic_check(t, step, n, 1) == 0;
    printf("%-8s %-6s %-8s %8d %6d %6d %6d %7.2f%% %-14s %7.2f %6.0f %s\n",
           name, "all", "classes", q->nx, lam, nrr, n, 100.0 * (n - lam) / lam,
           n == lam ? "construction" : "classes+search", secs, bound,
           valid ? "ok" : "INVALID");
    fflush(stdout);
    free(step);
    free(sq);
    free(load);
}

/* The rows of the k x k x k torus; bound_single 0: the all-port quotient
 * rows only (a full traffic too large for the search). */
static void torus_rows(int k, double bound_single, double bound_all)
{
    struct tn_topo c;
    char name[32];
    tn_topo_init(&c, (unsigned)k, (unsigned)k, (unsigned)k);
    snprintf(name, sizeof(name), "%dx%dx%d", k, k, k);
    for (int pm = bound_single > 0 ? 0 : 1; pm < 2; pm++) {
        const char *port = pm ? "all" : "single";
        double b = pm ? bound_all : bound_single;
        struct tn_traffic t, q;
        tn_traffic_torus_a2a(&t, &c, pm, TN_TIE_PLUS);
        int *rr = malloc(sizeof(int) * t.nx), nrr = tn_roundrobin(&t, rr);
        int *seed = malloc(sizeof(int) * t.nx);
        int ns = tn_traffic_torus_product(&t, &c, TN_TIE_PLUS, seed);
        if (ns > 0 && pm == TN_PORT_SINGLE) /* a single-port construction */
            liquid_row(name, port, "product", &t, NULL, &c, b, seed, ns, nrr);
        if (bound_single > 0)
            liquid_row(name, port, "full", &t, NULL, &c, b, NULL, 0, nrr);
        if (!tn_traffic_torus_quotient(&q, &c, pm, TN_TIE_PLUS)) {
            if (pm == TN_PORT_ALL)
                classes_row(name, &t, &q, &c, b, nrr);
            liquid_row(name, port, "quotient", &t, &q, &c,
                       pm && k == 7 ? 2 * b : b, NULL, 0, nrr);
            tn_traffic_free(&q);
        }
        free(seed);
        free(rr);
        tn_traffic_free(&t);
    }
}

static void scatter_gather(void)
{
    struct tn_topo c;
    tn_topo_init(&c, 7, 7, 7);
    int n = (int)c.n;
    uint32_t *par = malloc(sizeof *par * c.n);
    uint8_t *pd = malloc(c.n);
    int *len = malloc(sizeof(int) * n);
    tn_dor_tree(&c, 0, par, pd);
    struct tn_ctree t;
    tn_ctree_from_topo(&t, c.n, par);
    printf("\nscatter/gather on 7x7x7, root 0, DOR (BFS) tree, 1 head flit, "
           "cycles\n");
    printf("%-22s %-9s %8s %8s %8s %7s %8s\n", "operation", "lengths",
           "time", "optimum", "lower", "ratio", "sec");
    for (int var = 0; var < 3; var++) {
        unsigned long long r = 12345;
        const char *lname = var == 0 ? "1" : var == 1 ? "16" : "rnd0-32";
        for (int v = 0; v < n; v++) {
            r = r * 6364136223846793005ULL + 1442695040888963407ULL;
            len[v] = var == 0 ? 1 : var == 1 ? 16 : (int)((r >> 33) % 33);
        }
        struct tn_scatter s;
        double t0 = now();
        tn_scatter_fdf(&t, len, 1, &s);
        double t1 = now();
        /* FDF is optimal (Theorem 1): the optimum is its own time */
        printf("%-22s %-9s %8ld %8ld %8ld %7.3f %8.4f\n",
               "scatter 1-port FDF", lname, s.time, s.time, s.lower,
               (double)s.time / s.lower, t1 - t0);
        tn_scatter_free(&s);
        t0 = now();
        tn_scatter_allport(&c, 0, len, 1, &s);
        t1 = now();
        printf("%-22s %-9s %8ld %8s %8ld %7.3f %8.4f\n",
               "scatter 6-port trees", lname, s.time, "-", s.lower,
               (double)s.time / s.lower, t1 - t0);
        tn_scatter_free(&s);
        struct tn_gather g;
        struct tn_ga_opts o = {1, 0, 0};
        t0 = now();
        tn_gather_certificates(&t, len, &o, &g);
        t1 = now();
        printf("%-22s %-9s %8ld %8s %8ld %7.3f %8.4f  sync %ld + lag %ld + "
               "data %ld; Thm-3 bound %ld\n",
               "gather certificates", lname, g.time, "-", g.lower,
               (double)g.time / g.lower, t1 - t0, g.t_sync, g.first - g.t_sync,
               g.total, g.bound);
        tn_gather_free(&g);
        /* the data phase alone against its own bound M + 2 dmin */
    }
    tn_ctree_free(&t);
    free(par);
    free(pd);
    free(len);
}

int main(int argc, char **argv)
{
    const char *data = getenv("TN_DATA") ? getenv("TN_DATA") : "data";
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    char path[512];
    snprintf(path, sizeof(path), "%s/fig1-fig7.net", data);
    printf("liquid schedules (steps), DOR with + ties, time bound per row;"
           " via: full traffic, its\nquotient by the translations (a,b,a+b)"
           " (lifted and checked on the full traffic),\nor the ring-Latin-"
           "square product schedule as the start; classes: the step classes\n"
           "on the quotient (cubes, all-port, seed 1); rr = round-robin\n"
           "goal (issue 18): the all-port cubes' gap <= 1.00 %% (Lambda), in < 60 s on one "
           "core\n");
    printf("%-8s %-6s %-8s %8s %6s %6s %6s %8s %-14s %7s %6s %s\n", "traffic",
           "port", "via", "xfers", "Lambda", "rr", "steps", "gap", "how",
           "sec", "bound", "check");
    struct tn_traffic t;
    if (tn_traffic_read(&t, path) == 0) {
        int *rr = malloc(sizeof(int) * t.nx), nrr = tn_roundrobin(&t, rr);
        liquid_row("fig7", "file", "full", &t, NULL, NULL, 5 * scale, NULL, 0,
                   nrr);
        free(rr);
        tn_traffic_free(&t);
    }
    torus_rows(3, 5 * scale, 5 * scale);
    torus_rows(4, 10 * scale, 10 * scale);
    torus_rows(5, 10 * scale, 10 * scale);
    torus_rows(7, 20 * scale, 25 * scale);
    torus_rows(8, 0, 10 * scale);
    scatter_gather();
    return 0;
}
