/* SPDX-License-Identifier: MIT */
/* Gossip and broadcast: every schedule verifies (complete, conflict-free,
 * within lanes), its cost equals the closed form of its paper/algorithm
 * and respects the lower bounds; the Delmas-Perennes step-2 dipaths found
 * by search have length <= 5 and hit M0 B1 / M0^2 B1. */
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "sched.h"
#include "tap.h"
#include "tn_error.h"
#include "verify.h"

static void check(const char *dims, enum tn_coll coll, const char *algo, uint32_t L,
                  unsigned ports, unsigned alpha)
{
    const char *cn = coll == TN_GOSSIP ? "gossip" : "broadcast";
    struct tn_topo t;
    struct tn_algo_opts o = {algo, L, ports, alpha, 0};
    struct tn_sched *s;
    tn_topo_parse(&t, dims);
    o.root = t.n / 3;  /* any node */
    if (coll == TN_GOSSIP)
        o.root = 0;
    int rc = tn_build(&s, coll, &t, &o);
    if (!ok(rc == 0, "%s %s %s L=%u ports=%u builds", cn, algo, dims, L, ports)) {
        diag("%s", tn_strerror(rc));
        return;
    }
    struct tn_report rep;
    rc = tn_verify(s, NULL, &rep);
    ok(rc == 0 && rep.complete_nodes == t.n, "%s %s %s: verified, %u/%u nodes complete", cn,
       algo, dims, rep.complete_nodes, t.n);
    for (uint32_t i = 0; i < rep.nkept && i < 3; i++)
        diag("%s: %s", tn_viol_name(rep.viol[i].kind), rep.viol[i].text);
    struct tn_cost cf;
    tn_algo_cost(coll, algo, &t, &o, &cf);
    ok(rep.cost.rounds == cf.rounds && rep.cost.dsum == cf.dsum && rep.cost.tsum == cf.tsum &&
           rep.cost.cycles == cf.cycles,
       "%s %s %s: rounds %u, delta %llu, tau %llu, cycles %llu match the closed form", cn, algo,
       dims, rep.cost.rounds, (unsigned long long)rep.cost.dsum,
       (unsigned long long)rep.cost.tsum, (unsigned long long)rep.cost.cycles);
    ok(rep.cost.rounds >= rep.bounds.rounds && rep.cost.dsum >= rep.bounds.dsum &&
           rep.cost.tsum >= rep.bounds.tsum,
       "%s %s %s: above the lower bounds (rounds %u >= %u, delta %llu >= %llu, tau %llu >= %llu)",
       cn, algo, dims, rep.cost.rounds, rep.bounds.rounds, (unsigned long long)rep.cost.dsum,
       (unsigned long long)rep.bounds.dsum, (unsigned long long)rep.cost.tsum,
       (unsigned long long)rep.bounds.tsum);
    tn_report_free(&rep);
    tn_sched_free(s);
}

int main(void)
{
    /* the step-2 dipaths */
    static const int m0[3][3] = {{-2, 0, 1}, {1, 2, 3}, {0, 1, 0}};
    for (int k = 0; k < 2; k++) {
        uint8_t dirs[6][8];
        unsigned len[6];
        int vec[6][3];
        if (!ok(tn_dp_paths(k, dirs, len, vec) == 0, "round 2-%c dipaths found", 'a' + k))
            continue;
        bool good = true;
        unsigned maxlen = 0;
        for (int j = 0; j < 6; j++) {
            int col = j / 2, sign = j % 2 ? -1 : 1;
            for (int r = 0; r < 3; r++) {
                int want = m0[r][col];
                if (k == 1) {
                    want = 0;
                    for (int l = 0; l < 3; l++)
                        want += m0[r][l] * m0[l][col];
                }
                good &= ((vec[j][r] - sign * want) % 7 + 7) % 7 == 0;
            }
            if (len[j] > maxlen)
                maxlen = len[j];
        }
        ok(good, "round 2-%c dipaths end at x +- M0%s e_j (mod 7)", 'a' + k, k ? "^2" : "");
        is(maxlen, 5, "round 2-%c longest dipath has 5 arcs, as in the paper", 'a' + k);
    }

    /* Delmas-Perennes: 4 alpha + 12 delta + 400 L on 7x7x7 (paper, prop. 5.8) */
    struct tn_topo t;
    struct tn_cost c;
    tn_topo_parse(&t, "7x7x7");
    for (uint32_t L = 1; L <= 64; L *= 4)
        for (unsigned a = 1; a <= 3; a++) {
            struct tn_algo_opts o = {"dp", L, 6, a, 0};
            tn_algo_cost(TN_GOSSIP, "dp", &t, &o, &c);
            ok(c.rounds == 4 && c.dsum == 12 && c.tsum == (1 + 7 + 49 + 343) * L &&
                   c.cycles == 4 * a + 12 + 400 * L,
               "dp closed form at alpha %u, L %u is 4 alpha + 12 + 400 L", a, L);
        }
    /* TM(7^2)^3: 4i rounds, g_delta = 7 * 12 + 12, tau by the recursion */
    tn_topo_parse(&t, "49x49x49");
    struct tn_algo_opts o2 = {"dp", 1, 6, 1, 0};
    tn_algo_cost(TN_GOSSIP, "dp", &t, &o2, &c);
    ok(c.rounds == 8 && c.dsum == 96 &&
           c.tsum == 1 + 7 * 400 + 117649 / 49 + 117649 / 7 + 117649,
       "dp closed form on 49x49x49: 8 rounds, delta 96, tau 1 + 7*400 + N/49 + N/7 + N");

    /* long-message variant: 5 alpha + 13 delta + (1 + 7 + 3 * 49) L on
     * 7x7x7 (paper, prop. 6.3); on 7^i every level's final round split */
    tn_topo_parse(&t, "7x7x7");
    for (uint32_t L = 1; L <= 64; L *= 4)
        for (unsigned a = 1; a <= 3; a++) {
            struct tn_algo_opts o = {"dp-long", L, 6, a, 0};
            tn_algo_cost(TN_GOSSIP, "dp-long", &t, &o, &c);
            ok(c.rounds == 5 && c.dsum == 13 && c.tsum == (1 + 7 + 3 * 49) * L &&
                   c.cycles == 5 * a + 13 + 155 * L,
               "dp-long closed form at alpha %u, L %u is 5 alpha + 13 + 155 L", a, L);
        }
    tn_topo_parse(&t, "49x49x49");
    struct tn_algo_opts o3 = {"dp-long", 1, 6, 1, 0};
    tn_algo_cost(TN_GOSSIP, "dp-long", &t, &o3, &c);
    ok(c.rounds == 10 && c.dsum == 7 * 13 + 13 &&
           c.tsum == 1 + 7 * 155 + 117649 / 49 + 117649 / 7 + 2 * (117649 / 7),
       "dp-long closed form on 49x49x49: 10 rounds, delta 104 = 13/9 D, tau 1 + 7*155 + N/49 + "
       "N/7 + 2N/7");
    check("7x7x7", TN_GOSSIP, "dp-long", 1, 6, 1);
    check("7x7x7", TN_GOSSIP, "dp-long", 4, 6, 3);
    check("49x49x49", TN_GOSSIP, "dp-long", 1, 6, 1);
    /* ... and the large-torus completeness check (multiset hashes over the
     * stride ropes) sees a piece go missing: drop the ejections of one
     * 3-b multicast and exactly its receivers become incomplete */
    unsigned scales = tap_full_scale("dp-long 49x49x49 without one multicast") ? 2 : 1;
    for (unsigned i = 1; i <= scales; i++) {
        struct tn_algo_opts o = {"dp-long", 1, 6, 1, 0};
        struct tn_sched *s = NULL;
        tn_topo_init(&t, i == 1 ? 7 : 49, i == 1 ? 7 : 49, i == 1 ? 7 : 49);
        if (tn_build(&s, TN_GOSSIP, &t, &o) != 0)
            continue;
        struct tn_circuit *c = &s->rounds[s->nrounds - 1].circ[0];
        uint32_t lost = c->nej;
        c->nej = 0;
        tn_sched_changed(s);
        struct tn_report rep;
        tn_verify(s, NULL, &rep);
        is(rep.complete_nodes, t.n - lost,
           "dp-long %ux%ux%u without one 3-b multicast: its %u receivers are incomplete", t.dim[0],
           t.dim[1], t.dim[2], lost);
        tn_report_free(&rep);
        tn_sched_free(s);
    }
    check("7x7x7", TN_GOSSIP, "dp", 1, 6, 1);
    check("7x7x7", TN_GOSSIP, "dp", 5, 6, 2);
    if (tap_full_scale("gossip dp 49x49x49"))
        check("49x49x49", TN_GOSSIP, "dp", 1, 6, 1);
    static const char *const geoms[] = {"7x7x7", "3x3x3", "4x4x4", "5x5x5", "2x2x2", "8x8x1",
                                        "16x1x1", "1x1x1", "2x1x1", "3x5x2", "16x16", "6x6x6"};
    for (size_t i = 0; i < sizeof geoms / sizeof geoms[0]; i++) {
        check(geoms[i], TN_GOSSIP, "ring", 3, 6, 1);
        check(geoms[i], TN_GOSSIP, "ring", 2, 1, 1);
        check(geoms[i], TN_BROADCAST, "dim", 4, 6, 1);
        check(geoms[i], TN_BROADCAST, "dim", 1, 1, 1);
        check(geoms[i], TN_BROADCAST, "tree", 3, 1, 1);
    }
    /* split ring: every schedule verifies, matches the closed form and
     * carries exactly the all-port bound's tau, (N - 1) (parts x P) / ports */
    static const char *const split_geoms[] = {"7x7x7", "3x3x3", "4x4x4", "5x5x5", "2x2x2",
                                              "8x8x1", "8x8x8", "16x16", "6x6x6", "2x2x1"};
    for (size_t i = 0; i < sizeof split_geoms / sizeof split_geoms[0]; i++)
        for (uint32_t L = 1; L <= 64; L = L * 8 - 1) {
            check(split_geoms[i], TN_GOSSIP, "split-ring", L, 6, 1);
            struct tn_algo_opts o = {"split-ring", L, 6, 1, 0};
            struct tn_sched *s;
            struct tn_report rep;
            tn_topo_parse(&t, split_geoms[i]);
            if (tn_build(&s, TN_GOSSIP, &t, &o) != 0)
                continue;
            tn_verify(s, NULL, &rep);
            /* the bound for the padded message; the report's leaves the padding out */
            unsigned ports = tn_ports(&t);
            uint64_t sent = (uint64_t)s->parts * s->msg_flits, pad = sent - L;
            uint64_t bound = ((uint64_t)(t.n - 1) * sent + ports - 1) / ports;
            ok(rep.cost.tsum == bound && s->pad == pad &&
                   rep.bounds.tsum == ((uint64_t)(t.n - 1) * L + ports - 1) / ports,
               "split-ring %s L=%u (%u parts of %u, %llu padding): tau %llu = the all-port bound "
               "of the padded message", split_geoms[i], L, s->parts, s->msg_flits,
               (unsigned long long)pad, (unsigned long long)rep.cost.tsum);
            tn_report_free(&rep);
            tn_sched_free(s);
        }
    /* 7x7x7: 3 phases of 3 rounds, tau (N - 1) ceil(L / 3) / 2: within 10 %
     * of (N - 1) L / 6 at L = 64 (3762 against 3648) */
    tn_topo_parse(&t, "7x7x7");
    for (uint32_t L = 1; L <= 64; L *= 4) {
        struct tn_algo_opts o = {"split-ring", L, 6, 1, 0};
        tn_algo_cost(TN_GOSSIP, "split-ring", &t, &o, &c);
        ok(c.rounds == 9 && c.dsum == 9 && c.tsum == 342 * ((L + 2) / 3) / 2 &&
               c.cycles == 18 + 171 * ((L + 2) / 3),
           "split-ring closed form on 7x7x7, L %u: 9 alpha + 9 + 171 ceil(L / 3)", L);
    }
    ok(c.tsum * 10 <= 342 * 64 / 6 * 11, "split-ring tau at L = 64 (%llu) within 10 %% of the "
       "bound 342 L / 6 = %u", (unsigned long long)c.tsum, 342 * 64 / 6);
    {
        /* the first round of the last phase reads each part's collection
         * in 1 + 3 + 3 runs of the source's memory (own part, one run per
         * round of each earlier phase) */
        struct tn_algo_opts o = {"split-ring", 3, 6, 1, 0};
        struct tn_sched *s;
        if (tn_build(&s, TN_GOSSIP, &t, &o) == 0) {
            const struct tn_circuit *x = &s->rounds[6].circ[0];
            ok(x->nruns == 7 && x->nmsgs == 49 && s->rounds[7].circ[0].nruns == 0,
               "split-ring 7x7x7 round 7 sends 49 parts in %u runs, round 8 one block", x->nruns);
            tn_sched_free(s);
        }
    }
    /* class ring: whole messages, stream p carries class p = coordinate
     * sum mod d; 7x7x7: blocks of at most 1, 3 (a line holds 3 of a class)
     * and 17 (a plane 17) messages, 9 alpha + 9 + 63 L */
    for (size_t i = 0; i < sizeof split_geoms / sizeof split_geoms[0]; i++)
        for (uint32_t L = 1; L <= 64; L = L * 8 - 1)
            check(split_geoms[i], TN_GOSSIP, "class-ring", L, 6, 1);
    tn_topo_parse(&t, "7x7x7");
    for (uint32_t L = 1; L <= 64; L *= 4) {
        struct tn_algo_opts o = {"class-ring", L, 6, 1, 0};
        tn_algo_cost(TN_GOSSIP, "class-ring", &t, &o, &c);
        ok(c.rounds == 9 && c.dsum == 9 && c.tsum == 3 * (1 + 3 + 17) * L &&
               c.cycles == 18 + 63 * L,
           "class-ring closed form on 7x7x7, L %u: 9 alpha + 9 + 63 L", L);
    }
    static const char *const no_split[] = {"3x5x2", "16x1x1", "1x1x1", "4x4x2"};
    for (size_t i = 0; i < sizeof no_split / sizeof no_split[0]; i++) {
        struct tn_algo_opts o = {"split-ring", 3, 6, 1, 0};
        struct tn_sched *s;
        tn_topo_parse(&t, no_split[i]);
        is(tn_build(&s, TN_GOSSIP, &t, &o), TN_ENOTSUP,
           "split-ring refused on %s (needs two or more equal dimensions)", no_split[i]);
        o.algo = "class-ring";
        is(tn_build(&s, TN_GOSSIP, &t, &o), TN_ENOTSUP, "class-ring refused on %s", no_split[i]);
    }
    check("7x7x7", TN_BROADCAST, "dp", 2, 6, 1);
    check("49x49x49", TN_BROADCAST, "dp", 1, 6, 1);
    check("49x49x49", TN_BROADCAST, "dim", 1, 6, 1);
    check("49x49x49", TN_BROADCAST, "tree", 1, 1, 1);
    /* the perfect-code broadcast meets the unicast round bound of the
     * paper, ceil(log_7 N): 3 rounds on 7x7x7, 6 on 49x49x49 */
    for (unsigned i = 1; i <= 2; i++) {
        struct tn_algo_opts o = {"dp", 1, 6, 1, 0};
        tn_topo_init(&t, i == 1 ? 7 : 49, i == 1 ? 7 : 49, i == 1 ? 7 : 49);
        tn_algo_cost(TN_BROADCAST, "dp", &t, &o, &c);
        ok(c.rounds == 3 * i && c.dsum == (i == 1 ? 11u : 88u),
           "dp broadcast on 7^%u: %u rounds = ceil(log_7 N), delta %llu = 7 delta(i-1) + 11", i,
           c.rounds, (unsigned long long)c.dsum);
    }

    /* the default is the cheapest applicable algorithm */
    tn_topo_parse(&t, "7x7x7");
    for (unsigned a = 1; a <= 200; a *= 10)
        for (uint32_t L = 1; L <= 64; L *= 8) {
            struct tn_algo_opts o = {NULL, L, 6, a, 0};
            struct tn_sched *s;
            tn_build(&s, TN_GOSSIP, &t, &o);
            const char *want = NULL;
            uint64_t best = 0;
            char costs[200] = "";
            for (const char *const *n = tn_algo_names(TN_GOSSIP); *n; n++) {
                struct tn_cost x;
                tn_algo_cost(TN_GOSSIP, *n, &t, &o, &x);
                snprintf(costs + strlen(costs), sizeof costs - strlen(costs), " %s %llu", *n,
                         (unsigned long long)x.cycles);
                if (!want || x.cycles < best) {
                    want = *n;
                    best = x.cycles;
                }
            }
            ok(strcmp(s->algo, want) == 0, "default at alpha %u, L %u is %s (%s)", a, L,
               s->algo, costs);
            tn_sched_free(s);
        }
    struct tn_algo_opts bad = {"dp", 1, 6, 1, 0};
    struct tn_sched *s;
    tn_topo_parse(&t, "5x5x5");
    is(tn_build(&s, TN_GOSSIP, &t, &bad), TN_ENOTSUP, "dp refused on 5x5x5");
    tn_topo_parse(&t, "7x7x7");
    bad.ports = 1;
    is(tn_build(&s, TN_GOSSIP, &t, &bad), TN_ENOTSUP, "dp refused single-port");
    bad.algo = "nosuch";
    is(tn_build(&s, TN_GOSSIP, &t, &bad), TN_EINVAL, "unknown algorithm refused");
    return tap_done();
}
