/* SPDX-License-Identifier: MIT */
/* Traffic model: the Fig. 1 network file yields exactly the paper's
 * Fig. 7 traffic (the 25 link sets printed in the paper), loads 5/6,
 * Lambda 6, liquid throughput 25/6; round-robin takes 7 steps (steps 3
 * and 4 split in two); the schedule checker rejects bad schedules; the
 * parser rejects malformed files; torus DOR traffic has the loads of the
 * ring-crossing formula. */
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "topo.h"
#include "tn_error.h"
#include "traffic.h"

static const char *data_dir(void)
{
    const char *d = getenv("TN_DATA");
    return d ? d : "data";
}

static int link_id(const struct tn_traffic *t, const char *name)
{
    for (int l = 0; l < t->nlinks; l++)
        if (t->lname && !strcmp(t->lname[l], name))
            return l;
    return -1;
}

/* Fig. 7 of the paper, as printed: sender link l_i (i = 1..5), receiver
 * link l_j (j = 6..10), plus l12 for i <= 3 and j >= 9, l11 for i >= 4
 * and j <= 8. */
static void test_fig7(void)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/fig1-fig7.net", data_dir());
    struct tn_traffic t;
    int rc = tn_traffic_read(&t, path);
    ok(rc == 0 && t.nx == 25 && t.nlinks == 12 && t.nsnd == 5 && t.nrcv == 5,
       "fig1-fig7.net parses: 25 transfers, 12 links, 5 senders, 5 "
       "receivers");
    if (rc)
        return;
    int match = 0;
    for (int x = 0; x < t.nx; x++) {
        int i = t.snd[x] + 1, j = t.rcv[x] + 6, want[3], k = 0;
        char nm[16];
        snprintf(nm, sizeof(nm), "l%d", i);
        want[k++] = link_id(&t, nm);
        snprintf(nm, sizeof(nm), "l%d", j);
        want[k++] = link_id(&t, nm);
        if (i <= 3 && j >= 9)
            want[k++] = link_id(&t, "l12");
        if (i >= 4 && j <= 8)
            want[k++] = link_id(&t, "l11");
        int n = t.off[x + 1] - t.off[x], same = n == k;
        for (int a = 0; a < k && same; a++) {
            int found = 0;
            for (int b = t.off[x]; b < t.off[x + 1]; b++)
                found |= t.link[b] == want[a];
            same = found;
        }
        match += same;
    }
    is(match, 25, "every routed transfer is exactly the paper's Fig. 7 link "
                  "set");
    int load[12], lam = tn_traffic_load(&t, NULL, load), loads_ok = 1;
    for (int l = 0; l < 12; l++) {
        int want = (!strcmp(t.lname[l], "l11") || !strcmp(t.lname[l], "l12"))
                       ? 6 : 5;
        loads_ok &= load[l] == want;
    }
    ok(loads_ok && lam == 6, "links 1-10 carry 5, links 11-12 carry 6: "
                             "Lambda = 6, liquid throughput 25/6 = %.4f "
                             "links", 25.0 / lam);
    int step[25];
    int n = tn_roundrobin(&t, step);
    is(n, 7, "round-robin takes 7 steps (paper: 7 timeframes)");
    ok(tn_traffic_check(&t, step, n, 1) == 0, "round-robin schedule is a "
                                              "partition into simultaneous "
                                              "steps");
    /* steps 1, 2, 5 single; 3 and 4 split into two sub-steps each */
    int sub[5] = {0};
    for (int k = 0; k < 5; k++) {
        int lo = 1 << 30, hi = -1;
        for (int x = 0; x < 25; x++)
            if ((t.rcv[x] - t.snd[x] + 5) % 5 == k) {
                lo = step[x] < lo ? step[x] : lo;
                hi = step[x] > hi ? step[x] : hi;
            }
        sub[k] = hi - lo + 1;
    }
    ok(sub[0] == 1 && sub[1] == 1 && sub[2] == 2 && sub[3] == 2 && sub[4] == 1,
       "round-robin steps 1, 2, 5 take one timeframe, steps 3 and 4 two "
       "(%d %d %d %d %d)", sub[0], sub[1], sub[2], sub[3], sub[4]);
    /* the checker must reject broken schedules */
    int bad[25];
    memcpy(bad, step, sizeof(bad));
    for (int x = 0; x < 25; x++)
        if (t.snd[x] == 0)
            bad[x] = 0; /* all of s1's transfers share l1 */
    int r1 = tn_traffic_check(&t, bad, n, 0);
    memcpy(bad, step, sizeof(bad));
    bad[3] = -1;
    int r2 = tn_traffic_check(&t, bad, n, 0);
    int r3 = tn_traffic_check(&t, step, n + 1, 0); /* empty last step */
    ok(r1 == TN_EVERIFY && r2 == TN_EVERIFY && r3 == TN_EVERIFY,
       "schedule checker rejects congestion, unscheduled transfers and "
       "empty steps");
    tn_traffic_free(&t);
}

static int parse_str(const char *s, struct tn_traffic *t)
{
    FILE *f = fmemopen((void *)s, strlen(s), "r");
    int rc = tn_traffic_parse(t, f, "test");
    fclose(f);
    if (!rc)
        tn_traffic_free(t);
    return rc;
}

/* What the parser once got wrong (issue 17): a via list that revisits
 * links wrote past the path array (links + 1 entries); a line of more
 * than 4096 words lost the rest, a line longer than the buffer was read
 * as two. Each is refused. */
static void test_parse_limits(void)
{
    struct tn_traffic t;
    ok(parse_str("link a x y\nlink b y x\ntransfer x y via a b a b a b a\n",
                 &t) == TN_EPARSE,
       "a via list that revisits links is refused");
    ok(parse_str("link a x y\nlink b y z\nlink c z x\n"
                 "transfer x z via a b c a b\n", &t) == TN_EPARSE,
       "a via list through a cycle back to its source is refused");
    size_t cap = 5000 * 8 + 64;
    char *big = malloc(cap);
    int n = snprintf(big, cap, "link a x y\nalltoall x ->");
    for (int i = 0; i < 4096 - 3; i++)
        n += snprintf(big + n, cap - (size_t)n, " y");
    snprintf(big + n, cap - (size_t)n, "\n");
    ok(parse_str(big, &t) == 0, "4096 words on one line are read");
    snprintf(big + n, cap - (size_t)n, " y\n");
    ok(parse_str(big, &t) == TN_EPARSE, "4097 words on one line are refused");
    free(big);
    big = malloc(70000 + 64);
    n = snprintf(big, 64, "link a x y\ntransfer x y # ");
    memset(big + n, 'c', 70000);
    strcpy(big + n + 70000, "\ntransfer y x\n");
    ok(parse_str(big, &t) == TN_EPARSE,
       "a line longer than 65,534 bytes is refused, not read as two");
    free(big);
    /* an all-to-all over a 600-node ring: 359,400 routes of 300 links on
     * average, 1e8 link uses from a 25 kB file */
    cap = 600 * 40 + 64;
    big = malloc(cap);
    n = 0;
    for (int i = 0; i < 600; i++)
        n += snprintf(big + n, cap - (size_t)n, "link l%d n%d n%d\n", i, i,
                      (i + 1) % 600);
    n += snprintf(big + n, cap - (size_t)n, "alltoall");
    for (int i = 0; i < 600; i++)
        n += snprintf(big + n, cap - (size_t)n, " n%d", i);
    n += snprintf(big + n, cap - (size_t)n, " ->");
    for (int i = 0; i < 600; i++)
        n += snprintf(big + n, cap - (size_t)n, " n%d", i);
    snprintf(big + n, cap - (size_t)n, "\n");
    ok(parse_str(big, &t) == TN_EPARSE,
       "routes passing more than 2^24 links in all are refused");
    free(big);
}

static void test_parse_errors(void)
{
    struct tn_traffic t;
    const char *good = "link a x y\nlink b y z\ntransfer x z\n"
                       "transfer x y via a\n";
    ok(parse_str(good, &t) == 0, "a minimal file with a routed and an "
                                 "explicit transfer parses");
    FILE *f = fmemopen((void *)good, strlen(good), "r");
    int rc = tn_traffic_parse(&t, f, "test");
    fclose(f);
    ok(rc == 0 && t.nx == 2 && t.off[1] - t.off[0] == 2 &&
           t.off[2] - t.off[1] == 1,
       "routed transfer x->z uses both links, explicit one its via list");
    if (!rc)
        tn_traffic_free(&t);
    static const char *badv[] = {
        "link a x\n",                           /* too few fields */
        "link a x x\ntransfer x x\n",           /* self link */
        "link a x y\nlink a y x\ntransfer x y\n", /* duplicate link */
        "link a x y\ntransfer y x\n",           /* no route */
        "link a x y\ntransfer x y via b\n",     /* unknown link */
        "link a x y\nlink b x y\ntransfer x y via a b\n", /* not contiguous */
        "link a x y\nfrobnicate\n",             /* unknown keyword */
        "link a x y\n",                         /* no transfers */
        "link a x y\nalltoall x y\n",           /* no arrow */
        "link a x y\nalltoall x -> y\nalltoall x -> y\n", /* two */
    };
    int all = 1;
    for (unsigned i = 0; i < sizeof(badv) / sizeof(badv[0]); i++)
        if (parse_str(badv[i], &t) != TN_EPARSE) {
            all = 0;
            diag("accepted bad input %u", i);
        }
    ok(all, "parser rejects %zu kinds of malformed input with TN_EPARSE",
       sizeof(badv) / sizeof(badv[0]));
    ok(tn_traffic_read(&t, "/nonexistent/x.net") == TN_EIO,
       "missing file gives TN_EIO");
    test_parse_limits();
}

/* ring crossings of one arc by pairs at + or - distance, tie to + */
static int ring_cross(int k, int plus)
{
    int c = 0;
    for (int m = 1; m < k; m++) {
        int p = 2 * m < k || 2 * m == k;
        if (p == plus)
            c += plus ? m : k - m;
    }
    return c;
}

static void test_torus(void)
{
    static const int dims[][3] = {{3, 3, 3}, {4, 4, 4}, {5, 4, 3}, {7, 7, 7}};
    for (unsigned i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
        struct tn_topo c;
        tn_topo_init(&c, (unsigned)dims[i][0], (unsigned)dims[i][1], (unsigned)dims[i][2]);
        int n = (int)c.n;
        for (int pm = 0; pm < 2; pm++) {
            struct tn_traffic t;
            int rc = tn_traffic_torus_a2a(&t, &c, pm, TN_TIE_PLUS);
            if (rc) {
                ok(0, "torus traffic built");
                continue;
            }
            int *load = malloc(sizeof(int) * t.nlinks), bad = 0, want_lam = 0;
            int lam = tn_traffic_load(&t, NULL, load);
            for (int v = 0; v < n; v++)
                for (int d = 0; d < 6; d++) {
                    int k = d / 2, other = n / (int)c.dim[k];
                    int w = ring_cross((int)c.dim[k], d % 2 == 0) * other;
                    bad += load[tn_arc_id((uint32_t)v, d)] != w;
                    want_lam = w > want_lam ? w : want_lam;
                }
            if (pm == TN_PORT_SINGLE) {
                for (int v = 0; v < n; v++)
                    bad += load[6 * n + v] != n - 1 ||
                           load[7 * n + v] != n - 1;
                want_lam = want_lam > n - 1 ? want_lam : n - 1;
            }
            /* every transfer's arcs form a path from s to d */
            for (int x = 0; x < t.nx && !bad; x += 97) {
                int s = t.snd[x], dd = t.rcv[x], v = s, steps = 0;
                int arcs = 0;
                for (int j = t.off[x]; j < t.off[x + 1]; j++)
                    arcs += t.link[j] < 6 * n;
                while (v != dd && steps <= arcs) {
                    int moved = 0;
                    for (int j = t.off[x]; j < t.off[x + 1] && !moved; j++)
                        if (t.link[j] < 6 * n && t.link[j] / 6 == v) {
                            v = (int)tn_neighbor(&c, (uint32_t)v, t.link[j] % 6);
                            moved = 1;
                        }
                    steps++;
                    if (!moved)
                        break;
                }
                bad += v != dd || steps != arcs ||
                       arcs != (int)tn_distance(&c, (uint32_t)s, (uint32_t)dd);
            }
            ok(!bad && lam == want_lam && t.nx == n * (n - 1),
               "%dx%dx%d %s-port DOR all-to-all: %d transfers, arc loads = "
               "ring crossings x cross-section, shortest paths, Lambda %d",
               dims[i][0], dims[i][1], dims[i][2], pm ? "all" : "single",
               t.nx, lam);
            int *step = malloc(sizeof(int) * t.nx);
            int n = tn_roundrobin(&t, step);
            ok(n >= lam && tn_traffic_check(&t, step, n, 1) == 0,
               "%dx%dx%d %s-port round-robin: valid, %d steps >= Lambda %d",
               dims[i][0], dims[i][1], dims[i][2], pm ? "all" : "single", n,
               lam);
            free(step);
            free(load);
            tn_traffic_free(&t);
        }
    }
    /* the split tie rule balances an even ring: Lambda 32 on 4x4x4 */
    struct tn_topo c;
    struct tn_traffic t;
    tn_topo_init(&c, 4, 4, 4);
    tn_traffic_torus_a2a(&t, &c, TN_PORT_ALL, TN_TIE_SPLIT);
    int *load = malloc(sizeof(int) * t.nlinks);
    int lam = tn_traffic_load(&t, NULL, load), minl = lam;
    for (int l = 0; l < t.nlinks; l++)
        minl = load[l] < minl ? load[l] : minl;
    ok(lam == 32 && minl == 32, "4x4x4 all-port, split ties: every arc "
                                "carries (1 + 2/2) x 16 = 32: Lambda %d",
       lam);
    free(load);
    tn_traffic_free(&t);
}

int main(void)
{
    test_fig7();
    test_parse_errors();
    test_torus();
    return tap_done();
}
