/* SPDX-License-Identifier: MIT */
/* Liquid schedules: the Fig. 7 traffic has a 6-step liquid schedule whose
 * steps are all teams (Theorem 1), removing a step leaves a liquid
 * schedule (Theorem 2); on random small traffics the search's verdict
 * (liquid / proved none) agrees with a brute-force optimal partition
 * (Theorem 3 and the reductions are sound and complete); torus
 * all-to-all on 3x3x3 is liquid; the repair search always returns a
 * valid schedule. */
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "topo.h"
#include "liquid.h"
#include "tn_error.h"
#include "traffic.h"

static unsigned long long rng = 0x853c49e6748fea9bULL;
static int rnd(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (unsigned long long)n);
}

static const char *data_dir(void)
{
    const char *d = getenv("TN_DATA");
    return d ? d : "data";
}

/* Every step uses every bottleneck of the traffic (is a team). */
static int all_teams(const struct tn_traffic *t, const int *step, int n)
{
    int *load = malloc(sizeof(int) * t->nlinks);
    int lam = tn_traffic_load(t, NULL, load), good = 1;
    unsigned char *use = calloc((size_t)n * t->nlinks, 1);
    for (int x = 0; x < t->nx; x++)
        for (int j = t->off[x]; j < t->off[x + 1]; j++)
            use[(size_t)step[x] * t->nlinks + t->link[j]] = 1;
    for (int s = 0; s < n; s++)
        for (int l = 0; l < t->nlinks; l++)
            if (load[l] == lam && !use[(size_t)s * t->nlinks + l])
                good = 0;
    free(use);
    free(load);
    return good;
}

/* Theorem 2: without step s the rest has duration lambda - 1, and the
 * remaining n - 1 steps are a liquid schedule of it. */
static int theorem2(const struct tn_traffic *t, const int *step, int n)
{
    int *load = malloc(sizeof(int) * t->nlinks), good = 1;
    unsigned char *alive = malloc(t->nx);
    for (int s = 0; s < n && good; s++) {
        for (int x = 0; x < t->nx; x++)
            alive[x] = step[x] != s;
        good = tn_traffic_load(t, alive, load) == n - 1;
    }
    free(alive);
    free(load);
    return good;
}

static void test_fig7(void)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/fig1-fig7.net", data_dir());
    struct tn_traffic t;
    if (tn_traffic_read(&t, path)) {
        ok(0, "fig1-fig7.net readable");
        return;
    }
    int step[25];
    struct tn_liquid_opts o;
    struct tn_liquid_stats st;
    tn_liquid_defaults(&o);
    o.seconds = 5;
    int n = tn_liquid_search(&t, &o, step, &st);
    ok(n == 6 && st.lambda == 6 && st.exhausted &&
           tn_traffic_check(&t, step, n, 1) == 0,
       "Fig. 7: liquid search finds a valid 6-step schedule = Lambda "
       "(%ld teams tried)", st.nodes);
    ok(all_teams(&t, step, n), "Fig. 7: every step uses both bottlenecks "
                               "l11 and l12 (Theorem 1)");
    ok(theorem2(&t, step, n), "Fig. 7: removing any step leaves a "
                              "sub-traffic of duration 5 (Theorem 2)");
    int rr[25], m = tn_roundrobin(&t, rr);
    ok(m == 7 && !all_teams(&t, rr, m), "Fig. 7: round-robin (7 steps) has "
                                        "a step that is not a team, so it "
                                        "cannot be liquid (Theorem 1)");
    tn_traffic_free(&t);
}

/* Brute force: the shortest partition into simultaneous steps (graph
 * colouring of the conflict graph by exhaustive assignment). */
static int bf_conf[16][16];
static int bf_best;
static void bf_color(int nx, int x, int *col, int used)
{
    if (used >= bf_best)
        return;
    if (x == nx) {
        bf_best = used;
        return;
    }
    for (int c = 0; c <= used && c < bf_best; c++) {
        int okc = 1;
        for (int y = 0; y < x && okc; y++)
            okc = !(col[y] == c && bf_conf[x][y]);
        if (!okc)
            continue;
        col[x] = c;
        bf_color(nx, x + 1, col, c == used ? used + 1 : used);
    }
}

static void test_random_exact(void)
{
    int trials = 400, agree = 0, valid = 0, liquid = 0, none = 0;
    for (int tr = 0; tr < trials; tr++) {
        int nl = 4 + rnd(3), nx = 4 + rnd(9);
        struct tn_traffic t;
        tn_traffic_init(&t, nl);
        for (int x = 0; x < nx; x++) {
            int links[8], k = 1 + rnd(3) + (x % 2);
            for (int j = 0; j < k; j++)
                links[j] = rnd(nl);
            tn_traffic_add(&t, links, k, -1, -1);
        }
        for (int a = 0; a < nx; a++)
            for (int b = 0; b < nx; b++) {
                int c = 0;
                for (int i = t.off[a]; i < t.off[a + 1]; i++)
                    for (int j = t.off[b]; j < t.off[b + 1]; j++)
                        c |= t.link[i] == t.link[j];
                bf_conf[a][b] = a != b && c;
            }
        int col[16];
        bf_best = nx + 1;
        bf_color(nx, 0, col, 0);
        int *step = malloc(sizeof(int) * nx);
        struct tn_liquid_opts o;
        struct tn_liquid_stats st;
        tn_liquid_defaults(&o);
        o.seconds = 0.2;
        o.exact_share = 0.9;
        int n = tn_liquid_search(&t, &o, step, &st);
        valid += n > 0 && tn_traffic_check(&t, step, n, 1) == 0;
        /* exhaustive verdict must match the brute-force optimum */
        if (st.exhausted && n == st.lambda) {
            agree += bf_best == st.lambda;
            liquid++;
        } else if (st.exhausted) {
            agree += bf_best > st.lambda && n >= bf_best;
            none++;
        }
        free(step);
        tn_traffic_free(&t);
    }
    is(valid, trials, "random traffics: every returned schedule is valid");
    is(agree, trials, "random traffics: exhaustive verdict agrees with the "
                      "brute-force optimum (%d liquid, %d proved none)",
       liquid, none);
    ok(liquid > 20 && none > 20, "both verdicts occur (%d liquid, %d none)",
       liquid, none);
}

static void test_triangle(void)
{
    /* three transfers pairwise congesting on three links: duration 2, no
     * liquid schedule, optimum 3 */
    struct tn_traffic t;
    tn_traffic_init(&t, 3);
    int ab[2] = {0, 1}, bc[2] = {1, 2}, ac[2] = {0, 2}, step[3];
    tn_traffic_add(&t, ab, 2, -1, -1);
    tn_traffic_add(&t, bc, 2, -1, -1);
    tn_traffic_add(&t, ac, 2, -1, -1);
    struct tn_liquid_stats st;
    int n = tn_liquid_search(&t, NULL, step, &st);
    ok(n == 3 && st.lambda == 2 && st.exhausted,
       "triangle traffic: proof that no liquid schedule exists (Lambda 2), "
       "3 steps returned");
    tn_traffic_free(&t);
}

static void test_torus(void)
{
    struct tn_topo c;
    tn_topo_init(&c, 3, 3, 3);
    for (int pm = 0; pm < 2; pm++) {
        struct tn_traffic t;
        tn_traffic_torus_a2a(&t, &c, pm, TN_TIE_PLUS);
        int *step = malloc(sizeof(int) * t.nx);
        struct tn_liquid_opts o;
        struct tn_liquid_stats st;
        tn_liquid_defaults(&o);
        o.seconds = 4;
        int n = tn_liquid_search(&t, &o, step, &st);
        ok(n == st.lambda && tn_traffic_check(&t, step, n, 1) == 0 &&
               all_teams(&t, step, n),
           "3x3x3 %s-port DOR all-to-all: liquid schedule of %d steps = "
           "Lambda %d, all steps teams (%s, %.2f s)",
           pm ? "all" : "single", n, st.lambda,
           st.exhausted ? "exhaustive search" : "repair search", st.seconds);
        /* without the exhaustive search the result is still valid */
        o.exact_share = 0;
        o.seconds = 0.5;
        n = tn_liquid_search(&t, &o, step, &st);
        ok(n >= st.lambda && tn_traffic_check(&t, step, n, 1) == 0,
           "3x3x3 %s-port without the exhaustive search (team sequence + repair): valid, %d steps (Lambda %d)",
           pm ? "all" : "single", n, st.lambda);
        free(step);
        tn_traffic_free(&t);
    }
}

static void test_product(void)
{
    static const int dims[][3] = {{3, 3, 3}, {5, 5, 5}, {7, 7, 7}, {3, 5, 7},
                                  {2, 3, 5}};
    for (unsigned i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
        struct tn_topo c;
        struct tn_traffic t;
        tn_topo_init(&c, (unsigned)dims[i][0], (unsigned)dims[i][1], (unsigned)dims[i][2]);
        tn_traffic_torus_a2a(&t, &c, TN_PORT_SINGLE, TN_TIE_PLUS);
        int *step = malloc(sizeof(int) * t.nx), *out = malloc(sizeof(int) * t.nx);
        int n = tn_traffic_torus_product(&t, &c, TN_TIE_PLUS, step);
        int *load = malloc(sizeof(int) * t.nlinks);
        int lam = tn_traffic_load(&t, NULL, load);
        ok(n == lam && tn_traffic_check(&t, step, n, 1) == 0 &&
               all_teams(&t, step, n) && theorem2(&t, step, n),
           "%dx%dx%d single-port: ring Latin-square product schedule is "
           "liquid (%d steps = Lambda %d, every step a team, Theorem 2 "
           "holds)", dims[i][0], dims[i][1], dims[i][2], n, lam);
        struct tn_liquid_opts o;
        struct tn_liquid_stats st;
        tn_liquid_defaults(&o);
        o.start = step;
        o.start_steps = n;
        int m = tn_liquid_search(&t, &o, out, &st);
        ok(m == lam && st.started && tn_traffic_check(&t, out, m, 0) == 0,
           "%dx%dx%d: liquid search accepts the verified start schedule",
           dims[i][0], dims[i][1], dims[i][2]);
        free(load);
        free(step);
        free(out);
        tn_traffic_free(&t);
    }
    struct tn_topo c;
    struct tn_traffic t;
    tn_topo_init(&c, 4, 4, 4);
    tn_traffic_torus_a2a(&t, &c, TN_PORT_SINGLE, TN_TIE_PLUS);
    int *step = malloc(sizeof(int) * t.nx);
    ok(tn_traffic_torus_product(&t, &c, TN_TIE_PLUS, step) == TN_ENOTSUP,
       "4-ring with + ties has no ring Latin square: TN_ENOTSUP");
    for (int x = 0; x < t.nx; x++)
        step[x] = x % 10; /* congesting */
    struct tn_liquid_opts o;
    struct tn_liquid_stats st;
    tn_liquid_defaults(&o);
    o.start = step;
    o.start_steps = 10;
    ok(tn_liquid_search(&t, &o, step, &st) == TN_EINVAL,
       "an invalid start schedule is refused (TN_EINVAL)");
    free(step);
    tn_traffic_free(&t);
}

static void test_quotient(void)
{
    for (int k = 2; k <= 5; k++)
        for (int pm = 0; pm < 2; pm++) {
            struct tn_topo c;
            struct tn_traffic t, q;
            tn_topo_init(&c, (unsigned)k, (unsigned)k, (unsigned)k);
            tn_traffic_torus_a2a(&t, &c, pm, TN_TIE_PLUS);
            if (tn_traffic_torus_quotient(&q, &c, pm, TN_TIE_PLUS)) {
                ok(0, "%d^3 quotient built", k);
                continue;
            }
            int *lt = malloc(sizeof(int) * t.nlinks);
            int *lq = malloc(sizeof(int) * q.nlinks);
            int lamt = tn_traffic_load(&t, NULL, lt);
            int lamq = tn_traffic_load(&q, NULL, lq);
            int *qs = malloc(sizeof(int) * q.nx), *fs = malloc(sizeof(int) * t.nx);
            /* each orbit alone in a step: the lift must be valid, i.e. the
             * k^2 translates of a transfer never share an arc */
            for (int i = 0; i < q.nx; i++)
                qs[i] = i;
            tn_traffic_torus_lift(&t, &c, qs, fs);
            int orbits_ok = tn_traffic_check(&t, fs, q.nx, 1) == 0;
            struct tn_liquid_opts o;
            struct tn_liquid_stats st;
            tn_liquid_defaults(&o);
            o.seconds = 0.25;
            int n = tn_liquid_search(&q, &o, qs, &st);
            tn_traffic_torus_lift(&t, &c, qs, fs);
            ok(q.nx * k * k == t.nx && lamq == lamt && orbits_ok && n >= lamt &&
                   tn_traffic_check(&t, fs, n, 1) == 0,
               "%d^3 %s-port quotient by (a,b,a+b): %d orbits of %d, same "
               "Lambda %d, every orbit simultaneous, lifted %d-step "
               "schedule valid", k, pm ? "all" : "single", q.nx, k * k, lamt,
               n);
            free(lt);
            free(lq);
            free(qs);
            free(fs);
            tn_traffic_free(&t);
            tn_traffic_free(&q);
        }
    struct tn_topo c;
    struct tn_traffic q;
    tn_topo_init(&c, 4, 4, 4);
    int r1 = tn_traffic_torus_quotient(&q, &c, TN_PORT_ALL, TN_TIE_SPLIT);
    tn_topo_init(&c, 3, 4, 5);
    int r2 = tn_traffic_torus_quotient(&q, &c, TN_PORT_ALL, TN_TIE_PLUS);
    ok(r1 == TN_ENOTSUP && r2 == TN_ENOTSUP, "quotient refuses split ties on "
                                             "even rings and unequal dims");
}

/* The step classes reach Lambda on the odd cubes (inversion pairs, every
 * arc a bottleneck) and on the even ones (+ ties: only the + arcs are
 * bottlenecks, the offsets with no + part fill free - arcs): the lifted
 * schedule passes the verifier, and moving one transfer into another
 * step (where it meets a transfer on a shared arc) makes the verifier
 * refuse it, so the check is not vacuous. The single-port quotient is
 * refused. */
static void test_classes(void)
{
    static const int cubes[] = {3, 4, 5, 7, 8};
    for (size_t i = 0; i < sizeof cubes / sizeof cubes[0]; i++) {
        int k = cubes[i];
        struct tn_topo c;
        struct tn_traffic t, q;
        tn_topo_init(&c, (unsigned)k, (unsigned)k, (unsigned)k);
        tn_traffic_torus_a2a(&t, &c, TN_PORT_ALL, TN_TIE_PLUS);
        tn_traffic_torus_quotient(&q, &c, TN_PORT_ALL, TN_TIE_PLUS);
        int *load = malloc(sizeof(int) * t.nlinks), lam = tn_traffic_load(&t, NULL, load);
        int *qs = malloc(sizeof(int) * q.nx), *fs = malloc(sizeof(int) * t.nx);
        int n = tn_traffic_torus_classes(&q, &c, 1, 60, qs);
        int lifted = n > 0 && tn_traffic_torus_lift(&t, &c, qs, fs) == 0;
        int valid = lifted && tn_traffic_check(&t, fs, n, 1) == 0, plus = 0, minus = 0;
        for (int l = 0; l < t.nlinks; l++) /* arc (node, dir): node 6 + dir */
            *(l % 2 ? &minus : &plus) += load[l] == lam;
        ok(plus == (int)c.n * 3 && minus == (k % 2 ? plus : 0),
           "%d^3 all-port: the bottlenecks are the %s arcs", k, k % 2 ? "+ and -" : "+");
        ok(n == lam && valid, "%d^3 all-port: step classes give %d steps = Lambda %d, "
           "lifted to %d transfers, every step arc-disjoint", k, n, lam, t.nx);
        /* transfer 0 into the step of the transfer that shares its first arc */
        int clash = -1;
        for (int x = 1; x < t.nx && clash < 0; x++)
            for (int j = t.off[x]; j < t.off[x + 1] && clash < 0; j++)
                if (t.link[j] == t.link[t.off[0]])
                    clash = x;
        if (lifted && clash > 0)
            fs[0] = fs[clash];
        ok(lifted && clash > 0 && tn_traffic_check(&t, fs, n, 0) == TN_EVERIFY,
           "%d^3: a step that reuses an arc is refused by the verifier", k);
        free(load);
        free(qs);
        free(fs);
        tn_traffic_free(&t);
        tn_traffic_free(&q);
    }
    struct tn_topo c;
    struct tn_traffic q;
    int qs[4 * 63];
    tn_topo_init(&c, 4, 4, 4);
    tn_traffic_torus_quotient(&q, &c, TN_PORT_SINGLE, TN_TIE_PLUS);
    ok(tn_traffic_torus_classes(&q, &c, 1, 1, qs) == TN_ENOTSUP,
       "step classes refuse the single-port quotient (injection and ejection links)");
    tn_traffic_free(&q);
}

int main(void)
{
    test_classes();
    test_quotient();
    test_product();
    test_fig7();
    test_triangle();
    test_random_exact();
    test_torus();
    return tap_done();
}
