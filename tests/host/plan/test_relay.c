/* SPDX-License-Identifier: MIT */
/* Relay mode: lowering (staged packets, inject chains, relay eject lanes,
 * DOR crossbar selects) and the reference model of relay rounds, against
 * the theory. Every relay inject descriptor's hop (design version 4) is
 * the first hop of each packet it sends, and back-to-back packets with
 * different first hops get descriptors of their own on one lane; the
 * model sends an inject lane's heads where the descriptor's hop says
 * (another output, this node, or unroutable), not by their data. FDF
 * scatter arrivals first = alpha + start + Lee distance,
 * total = alpha + max_k (S_k + d_k) and equal to the brute-force optimum
 * over every dispatch order on small rings (Theorem 1); certificate gather
 * arrives gap-free at the root with total M flits, between its bounds; a
 * colliding relay schedule is caught by the verifier and, in the model,
 * the later head is dropped as the hardware does (its destination short,
 * the holder intact); JSON with msg_lengths round-trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gather.h"
#include "model.h"
#include "plan.h"
#include "sched.h"
#include "sg.h"
#include "tap.h"
#include "tn_error.h"
#include "verify.h"

static uint64_t rng = 0x1234567ull;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33) % n;
}

static const struct tn_stat *stat_of(const struct tn_model_out *m, uint32_t node)
{
    for (uint32_t i = 0; i < m->nstats; i++)
        if (m->stats[i].node == node)
            return &m->stats[i];
    return NULL;
}

/* After an edit of round 0's streams: the schedule's derived state and
 * the round's duration (0: computed again) follow them. */
static void edited(struct tn_sched *s)
{
    s->rounds[0].duration = 0;
    tn_sched_changed(s);
}

/* CRC the destination computes: head word (coordinates) + payload. */
/* The CRC of a relay packet: its head (the destination's coordinates;
 * for a packet along six tree k, also 1 + k << 12 and the detour flag <<
 * 15) and len payload words of message m. */
static uint32_t packet_crc(const struct tn_topo *t, const struct tn_relay *x, uint32_t m,
                           uint32_t len, uint64_t seed)
{
    unsigned c[3];
    tn_coords(t, x->dst, c);
    uint32_t w = c[0] | c[1] << 4 | c[2] << 8;
    if (x->tree)
        w |= (uint32_t)x->tree << 12 |
             (uint32_t)tn_tree_detour(t, x->src, x->dst, x->tree - 1) << 15;
    uint32_t crc = (uint32_t)crc32(0, NULL, 0);
    for (uint32_t k = 0; k <= len; k++) {
        if (k > 0)
            w = tn_payload(seed, m, k - 1, 16);
        unsigned char b[2] = {(unsigned char)w, (unsigned char)(w >> 8)};
        crc = (uint32_t)crc32(crc, b, 2);
    }
    return crc;
}

/* Packets of round r whose inject descriptor's hop is not the first hop
 * of their route (recomputed with tn_relay_path), and packets sent by no
 * relay descriptor or by several (found by their staged words). */
static unsigned hop_mismatches(const struct tn_plan *p, uint32_t r)
{
    const struct tn_plan_round *pr = &p->rounds[r];
    unsigned bad = 0;
    for (uint32_t k = 0; k < p->nstage; k++) {
        const struct tn_plan_stage *st = &p->stage[k];
        if (st->round != r)
            continue;
        struct tn_arc first;
        unsigned d = tn_relay_path(&p->topo, &p->sched->rounds[r].relay[st->relay], &first, 1);
        unsigned senders = 0;
        for (uint32_t i = 0; i < pr->ninj; i++) {
            const struct tn_inject *in = &pr->inj[i];
            if (!in->relay || in->node != st->node || st->addr < in->addr ||
                st->addr >= (uint64_t)in->addr + in->len)
                continue;
            senders++;
            bad += d == 0 || in->hop != first.dir;
        }
        bad += senders != 1;
    }
    return bad;
}

/* A packet's start and first hop, to order a source's packets by start. */
struct start_hop {
    uint32_t start;
    unsigned hop;
};

static int cmp_start(const void *a, const void *b)
{
    const struct start_hop *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The runs of one first hop among the non-null packets of round r in
 * start order (1 + the changes of first hop from one packet to the next). */
static unsigned hop_runs(const struct tn_sched *s, uint32_t r)
{
    const struct tn_round *rd = &s->rounds[r];
    struct start_hop *sh = malloc((rd->nrelay + 1) * sizeof *sh);
    unsigned n = 0, runs = 0;
    for (uint32_t i = 0; sh && i < rd->nrelay; i++) {
        struct tn_arc first;
        if (tn_relay_flits(s, &rd->relay[i]) && tn_relay_path(&s->topo, &rd->relay[i], &first, 1))
            sh[n++] = (struct start_hop){rd->relay[i].start, first.dir};
    }
    if (n)
        qsort(sh, n, sizeof *sh, cmp_start);
    for (unsigned i = 0; i < n; i++)
        runs += i == 0 || sh[i].hop != sh[i - 1].hop;
    free(sh);
    return runs;
}

/* Best completion over every order of the k messages (brute force). */
static uint64_t best_order(const uint32_t *len, const unsigned *dist, int k)
{
    int perm[8];
    for (int i = 0; i < k; i++)
        perm[i] = i;
    uint64_t best = UINT64_MAX;
    for (;;) {
        uint64_t S = 0, T = 0;
        for (int i = 0; i < k; i++) {
            S += len[perm[i]] + 1;
            if (S + dist[perm[i]] > T)
                T = S + dist[perm[i]];
        }
        if (T < best)
            best = T;
        /* next permutation */
        int i = k - 2;
        while (i >= 0 && perm[i] > perm[i + 1])
            i--;
        if (i < 0)
            break;
        int j = k - 1;
        while (perm[j] < perm[i])
            j--;
        int x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
        for (int a = i + 1, b = k - 1; a < b; a++, b--) {
            x = perm[a];
            perm[a] = perm[b];
            perm[b] = x;
        }
    }
    return best;
}

static void scatter_checks(const char *dims, unsigned ports, enum tn_sg_tree tree, uint32_t lmax,
                           unsigned alpha)
{
    struct tn_topo t;
    tn_topo_parse(&t, dims);
    uint32_t N = t.n, root = rnd(N);
    uint32_t *len = calloc(N, sizeof *len);
    for (uint32_t v = 0; v < N; v++)
        len[v] = rnd(lmax + 1);
    struct tn_sg_opts o = {root, ports, tree, len, alpha, 0, false};
    struct tn_sg_info gi;
    struct tn_sched *s = NULL;
    is(tn_scatter_build(&s, &t, &o, &gi), 0, "scatter %s ports %u built", dims, ports);
    if (tree != TN_SG_AUTO) {
        bool along = gi.six == (tree == TN_SG_SIX);
        for (uint32_t i = 0; s && i < s->rounds[0].nrelay; i++)
            along &= (s->rounds[0].relay[i].tree != 0) == (tree == TN_SG_SIX);
        ok(along, "scatter %s ports %u: every packet follows the %s", dims, ports,
           tree == TN_SG_SIX ? "six trees" : "DOR tree");
    }
    struct tn_verify_opts vo = {ports, 4096, 5, false};
    struct tn_report rep;
    is(tn_verify(s, &vo, &rep), 0, "scatter %s ports %u: verifier finds no collision", dims, ports);
    tn_report_free(&rep);
    struct tn_plan_params par = {.lanes = ports, .mem_depth = 4096, .width = 16, .alpha = alpha};
    struct tn_plan *p = NULL;
    char err[256] = "";
    is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "scatter %s lowered %s", dims, err);
    if (!p) {
        tn_sched_free(s);
        free(len);
        return;
    }
    /* the plan: inject chains at the root only, relay bit, DOR mode */
    const struct tn_plan_round *pr = &p->rounds[0];
    uint64_t flits = 0;
    unsigned nonnull = 0;
    for (uint32_t v = 0; v < N; v++)
        if (v != root && len[v]) {
            flits += len[v] + 1;
            nonnull++;
        }
    uint64_t injected = 0;
    bool inj_ok = pr->mode == TN_MODE_RELAY, gapless = true;
    for (uint32_t i = 0; i < pr->ninj; i++) {
        inj_ok &= pr->inj[i].node == root && pr->inj[i].relay && pr->inj[i].lane < ports;
        injected += pr->inj[i].len;
        if (i > 0)
            gapless &= pr->inj[i].start == pr->inj[i - 1].start + pr->inj[i - 1].len;
    }
    ok(inj_ok && injected == flits,
       "scatter %s: %u relay inject descriptor(s) at the root carry all %llu flits", dims,
       pr->ninj, (unsigned long long)flits);
    is(hop_mismatches(p, 0), 0, "scatter %s ports %u: every relay descriptor's hop is the first "
       "hop of each packet it sends (tn_relay_path), every packet sent once", dims, ports);
    if (ports == 1) {
        unsigned runs = hop_runs(s, 0);
        ok(gapless && pr->ninj == runs,
           "scatter %s: the single-port root's packets go back to back on lane 0, one "
           "descriptor per run of one first hop (%u descriptors, %u runs)", dims, pr->ninj,
           runs);
    }
    struct tn_model_out m, m2;
    is(tn_model_run(p, 5, TN_ENGINE_CYCLE, &m), 0, "model runs");
    is(tn_model_run(p, 5, TN_ENGINE_STREAM, &m2), 0, "stream engine runs");
    ok(m.nstats == m2.nstats && !memcmp(m.stats, m2.stats, m.nstats * sizeof *m.stats),
       "both engines agree on relay rounds");
    /* every destination: first = alpha + start + the route's hops, CRC, count */
    const struct tn_round *rd = &s->rounds[0];
    unsigned good = 0;
    for (uint32_t i = 0; i < rd->nrelay; i++) {
        const struct tn_relay *x = &rd->relay[i];
        const struct tn_stat *e = stat_of(&m, x->dst);
        uint64_t first = alpha + x->start + tn_relay_path(&t, x, NULL, 0);
        good += e && e->first == first && e->last == first + len[x->dst] &&
                e->count == len[x->dst] + 1 && e->err == 0 &&
                e->crc == packet_crc(&t, x, x->dst, len[x->dst], 5);
    }
    is(good, nonnull, "scatter %s ports %u: every packet arrives when and as predicted", dims,
       ports);
    is(m.errors, 0, "no descriptor with errors");
    is(m.total, gi.formula, "scatter %s ports %u: model total = alpha + T of the algorithm", dims,
       ports);
    if (ports == 1) {
        /* FDF time from the definition: decreasing distance, back to back */
        uint64_t S = 0, T = 0;
        for (unsigned d = 64; d-- > 0;)
            for (uint32_t v = 0; v < N; v++)
                if (v != root && len[v] && tn_distance(&t, root, v) == d) {
                    S += len[v] + 1;
                    if (S + d > T)
                        T = S + d;
                }
        is(m.total, alpha + T, "scatter %s: total = alpha + max_k (S_k + d_k) of FDF", dims);
    } else {
        ok(m.total >= alpha + gi.lower, "scatter %s all-port: total %llu >= alpha + lower %llu",
           dims, (unsigned long long)m.total, (unsigned long long)(alpha + gi.lower));
    }
    tn_model_free(&m);
    tn_model_free(&m2);
    tn_plan_free(p);
    tn_sched_free(s);
    free(len);
}

/* The six-tree scatter's edges: a tree outside 1..6 is refused by the
 * verifier and by the lowering, heads along a tree need W >= 16, a torus
 * with a dimension of 1 node has no six trees (auto falls back to the DOR
 * tree, six is refused), and the trees survive a JSON round trip. */
static void six_tree_checks(void)
{
    struct tn_topo t;
    uint32_t len[27];
    for (int v = 0; v < 27; v++)
        len[v] = 2;
    tn_topo_parse(&t, "3x3x3");
    struct tn_sg_opts o = {0, 6, TN_SG_SIX, len, 1, 0, false};
    struct tn_sg_info gi;
    struct tn_sched *s = NULL, *s2 = NULL;
    if (!ok(tn_scatter_build(&s, &t, &o, &gi) == 0 && gi.six, "3x3x3 six-tree scatter built"))
        return;
    char *buf = NULL, err[256] = "";
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    int wrc = f ? tn_sched_write_json(s, f) : TN_ENOMEM;
    if (f)
        fclose(f);
    bool same = wrc == 0 && tn_sched_parse_json(&s2, buf, blen, err, sizeof err) == 0 &&
                s2->rounds[0].nrelay == s->rounds[0].nrelay;
    for (uint32_t i = 0; same && i < s->rounds[0].nrelay; i++)
        same = s2->rounds[0].relay[i].tree == s->rounds[0].relay[i].tree &&
               s->rounds[0].relay[i].tree >= 1 && s->rounds[0].relay[i].tree <= 6;
    ok(same, "the trees survive a JSON round trip %s", err);
    free(buf);
    tn_sched_free(s2);
    struct tn_plan_params par = {.lanes = 6, .mem_depth = 4096, .width = 12, .alpha = 1};
    struct tn_plan *p = NULL;
    is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_ENOTSUP,
       "heads along a six tree at W = 12 are refused by the lowering");
    ok(strstr(err, "W >= 16") != NULL, "... saying they need W >= 16: %s", err);
    tn_plan_free(p);
    p = NULL;
    s->rounds[0].relay[0].tree = 7;
    struct tn_report rep;
    struct tn_verify_opts vo = {6, 4096, 5, false};
    is(tn_verify(s, &vo, &rep), TN_EVERIFY, "a relay stream with tree 7 fails verification");
    tn_report_free(&rep);
    par.width = 16;
    is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_EVERIFY,
       "... and the lowering refuses it (no head word for it)");
    tn_plan_free(p);
    tn_sched_free(s);
    tn_topo_parse(&t, "3x3x1");
    o.tree = TN_SG_SIX;
    s = NULL;
    is(tn_scatter_build(&s, &t, &o, &gi), TN_EINVAL, "3x3x1: no six trees, --tree six refused");
    tn_sched_free(s);
    s = NULL;
    o.tree = TN_SG_AUTO;
    bool dor = tn_scatter_build(&s, &t, &o, &gi) == 0 && !gi.six && gi.sixtree == 0;
    for (uint32_t i = 0; dor && i < s->rounds[0].nrelay; i++)
        dor = s->rounds[0].relay[i].tree == 0;
    ok(dor, "3x3x1: --tree auto takes the DOR tree");
    tn_sched_free(s);
}

/* The model's eject records of a certificate gather against the algorithm's
 * own control cycles (gather.c, value_flits 1, on the DOR in-tree as
 * sched_sg.c builds it): every non-root node's round-1 record starts with
 * its token (alpha + cycle + 1 hop), its round-2 record is its order
 * (t1 + alpha + cycle - t_sync + 1, t1 the round's first cycle: records
 * count from T0); returns the nodes that differ. */
static int gather_control_mismatches(const struct tn_topo *t, uint32_t root, const uint32_t *len,
                                     const struct tn_model_out *m, unsigned alpha, uint64_t t1)
{
    int n = (int)t->n, bad = 0, *parent = malloc(sizeof(int) * t->n), *ilen = malloc(sizeof(int) * t->n);
    for (uint32_t v = 0; v < t->n; v++) {
        struct tn_arc first;
        parent[v] = tn_dor_path(t, v, root, &first, 1) ? (int)tn_neighbor(t, v, first.dir) : -1;
        ilen[v] = v == root ? 0 : (int)len[v];
    }
    struct tn_ctree tr;
    struct tn_gather g;
    struct tn_ga_opts go = {1, 0, 1};
    if (tn_ctree_from_parent(&tr, n, parent) || tn_gather_certificates(&tr, ilen, &go, &g)) {
        free(parent);
        free(ilen);
        return n;
    }
    for (int i = 0; i < g.nctl; i++) {
        const struct tn_ga_ctl *c = &g.ctl[i];
        if (c->kind != TN_GA_TOKEN && c->kind != TN_GA_ORDER)
            continue;
        uint32_t r = c->kind == TN_GA_ORDER;
        uint64_t want = (r ? t1 : 0) + alpha + (uint64_t)(c->cycle - (r ? g.t_sync : 0)) + 1;
        const struct tn_stat *e = NULL;
        for (uint32_t k = 0; k < m->nstats && !e; k++)
            if (m->stats[k].round == r && m->stats[k].node == (uint32_t)c->to)
                e = &m->stats[k];
        bad += !e || e->first != want;
    }
    tn_gather_free(&g);
    tn_ctree_free(&tr);
    free(parent);
    free(ilen);
    return bad;
}

/* A control packet (relay stream of words): staged as the head and its
 * words, delivered with their CRC, nothing joins the destination's memory. */
static void control_packet_checks(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "5");
    struct tn_sched *s = NULL;
    uint32_t len[5] = {0, 0, 0, 0, 0}, words[2] = {0xABCD, 0x12345};
    tn_sched_new(&s, &t, TN_GATHER, "control", 1, 1, 1, 0);
    tn_sched_set_lengths(s, len, 5);
    tn_sched_add_round(s);
    struct tn_relay *x = tn_sched_add_relay_words(s, 0, 1, 3, words, 2, 2);
    struct tn_report rep;
    ok(x && tn_verify(s, NULL, &rep) == 0 && tn_relay_flits(s, x) == 3,
       "a control packet of two words verifies: 3 flits, nothing to deliver");
    tn_report_free(&rep);
    struct tn_plan_params par = {.lanes = 1, .mem_depth = 4096, .width = 16, .alpha = 1};
    struct tn_plan *p = NULL;
    char err[128] = "";
    uint32_t data[4] = {0};
    uint8_t fl[4] = {0};
    is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "it lowers %s", err);
    ok(p && p->nstage == 1 && tn_plan_stage_words(p, 0, 1, data, fl, 4) == 3 &&
           data[0] == 3 && data[1] == 0xABCD && data[2] == (0x12345 & 0xFFFF) && fl[0] == 1 &&
           fl[1] == 0 && fl[2] == 2,
       "staged as head (x = 3), then the words cut to W = 16 bits, the last flagged tail");
    struct tn_model_out m;
    if (p && tn_model_run(p, 1, TN_ENGINE_CYCLE, &m) == 0) {
        uint32_t crc = (uint32_t)crc32(0, NULL, 0);
        for (int k = 0; k < 3; k++) {
            unsigned char b[2] = {(unsigned char)data[k], (unsigned char)(data[k] >> 8)};
            crc = (uint32_t)crc32(crc, b, 2);
        }
        const struct tn_stat *e = stat_of(&m, 3);
        ok(m.errors == 0 && e && e->count == 3 && e->crc == crc && e->first == 1 + 2 + 2,
           "model: node 3 receives the 3 flits from cycle alpha + 2 + 2 hops, CRC of head "
           "and words");
        tn_model_free(&m);
    }
    tn_plan_free(p);
    tn_sched_free(s);
}

/* The shortest round: a round with nothing to send lasts 3 cycles, not
 * alpha (tn_seq runs a shorter duration as 3: an eject lane writes its
 * record over 3 cycles); the next round starts after it. */
static void short_round_checks(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "5");
    struct tn_sched *s = NULL;
    uint32_t len[5] = {0, 0, 0, 0, 0};
    tn_sched_new(&s, &t, TN_GATHER, "short", 1, 1, 1, 0);
    tn_sched_set_lengths(s, len, 5);
    for (uint32_t r = 0; r < 3; r++)
        tn_sched_add_round(s);
    tn_sched_add_relay_words(s, 0, 1, 2, NULL, 0, 0);
    tn_sched_add_relay_words(s, 2, 1, 2, NULL, 0, 0);
    struct tn_plan_params par = {.lanes = 1, .mem_depth = 4096, .width = 16, .alpha = 1};
    struct tn_plan *p = NULL;
    char err[128] = "";
    is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "heads in rounds 0 and 2, round 1 empty: "
       "lowered %s", err);
    ok(p && p->nrounds == 3 && p->rounds[0].duration == 3 && p->rounds[1].duration == 3 &&
           p->rounds[2].t0 == 6 && p->total == 9,
       "round 0 lasts alpha + 1 hop + 1 flit = 3, the empty round 1 the shortest, 3 (not alpha "
       "= 1); round 2 starts in cycle 6 (%llu), the run lasts 9 (%llu)",
       p ? (unsigned long long)p->rounds[2].t0 : 0ull, p ? (unsigned long long)p->total : 0ull);
    struct tn_model_out m;
    if (p && tn_model_run(p, 1, TN_ENGINE_CYCLE, &m) == 0) {
        ok(m.nstats == 2 && m.errors == 0 && m.stats[1].round == 2 && m.stats[1].first == 6 + 2,
           "model: round 2's head reaches node 2 in cycle t0 + alpha + 1 hop = 8 (%llu)",
           m.nstats == 2 ? (unsigned long long)m.stats[1].first : 0ull);
        tn_model_free(&m);
    } else {
        ok(0, "model runs");
    }
    tn_plan_free(p);
    tn_sched_free(s);
}

/* Flits node 0 sends on X+ and X- in round-relative cycles 1..3 (when
 * hop_checks' packet A leaves it). */
struct out_count {
    unsigned xp, xm;
};

static void count_out(void *ctx, uint32_t round, uint64_t c, uint32_t node, int dir)
{
    struct out_count *oc = ctx;
    if (round == 0 && node == 0 && c >= 1 && c <= 3) {
        oc->xp += dir == TN_XP;
        oc->xm += dir == TN_XM;
    }
}

/* The heads of an inject lane go where the lane's descriptor says, not
 * where their data would route them (design version 4): on a 4-ring, A
 * (0 -> 2, 3 flits from cycle 0) leaves node 0 by X+ as lowered; B (0 ->
 * 3), C (3 -> 2) and D (1 -> 0), all from cycle 10, make node 0's X-,
 * node 3's X- and a relay eject lane at node 0 relay in the round. A's
 * descriptor set to hop X- sends A the other way round (node 3 routes it
 * by DOR on to 2, which records the same flits at the same cycles); hop 7
 * drops it at node 0 as unroutable; hop 6 ejects it at node 0 itself. The
 * plan check accepts X- and 6 (relay outputs of node 0) and names 7. */
static void hop_checks(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "4");
    struct tn_sched *s = NULL;
    uint32_t len[4] = {0, 0, 0, 0}, wa[2] = {0xA1, 0xA2}, wb = 0xB1;
    tn_sched_new(&s, &t, TN_GATHER, "hop", 1, 1, 1, 0);
    tn_sched_set_lengths(s, len, 4);
    tn_sched_add_round(s);
    tn_sched_add_relay_words(s, 0, 0, 2, wa, 2, 0);   /* A: X+ X+ (a tie goes +) */
    tn_sched_add_relay_words(s, 0, 0, 3, &wb, 1, 10); /* B: X- */
    tn_sched_add_relay_words(s, 0, 3, 2, &wb, 1, 10); /* C: X- */
    tn_sched_add_relay_words(s, 0, 1, 0, &wb, 1, 10); /* D: X- */
    struct tn_plan_params par = {.lanes = 1, .mem_depth = 4096, .width = 16, .alpha = 1};
    struct tn_plan *p = NULL;
    char err[256] = "";
    if (!ok(tn_plan_lower(&p, s, &par, err, sizeof err) == 0, "hop: 4-ring packets lowered %s",
            err)) {
        tn_sched_free(s);
        return;
    }
    struct tn_plan_round *pr = &p->rounds[0];
    struct tn_inject *a = NULL;
    for (uint32_t i = 0; i < pr->ninj; i++)
        if (pr->inj[i].node == 0 && pr->inj[i].start == 0)
            a = &pr->inj[i];
    struct tn_model_out m0, m;
    struct out_count oc = {0, 0};
    struct tn_model_probe probe = {.on_flit = count_out, .ctx = &oc};
    if (!ok(a && a->hop == TN_XP && a->len == 3 && tn_model_run(p, 1, TN_ENGINE_CYCLE, &m0) == 0 &&
                tn_model_probe_links(p, 1, &probe) == 0,
            "hop: A's descriptor (3 flits) leaves by X+ as lowered, and the model runs")) {
        tn_plan_free(p);
        tn_sched_free(s);
        return;
    }
    const struct tn_stat *a0 = stat_of(&m0, 2), *e0 = stat_of(&m0, 0);
    ok(m0.errors == 0 && a0 && a0->first == 3 && a0->count == 3 + 2 && oc.xp == 3 && oc.xm == 0,
       "hop X+ (lowered): A's 3 flits leave node 0 on X+ in cycles 1..3, node 2 receives A from "
       "cycle 3 and C after it");
    struct tn_report rep;
    a->hop = TN_XM;
    oc = (struct out_count){0, 0};
    is(tn_plan_check(p, &rep), 0, "hop X-: the plan check accepts it (node 0's X- is relay)");
    tn_report_free(&rep);
    if (tn_model_run(p, 1, TN_ENGINE_CYCLE, &m) == 0 && tn_model_probe_links(p, 1, &probe) == 0) {
        const struct tn_stat *a1 = stat_of(&m, 2);
        ok(oc.xp == 0 && oc.xm == 3 && m.errors == 0 && a1 && a1->first == a0->first &&
               a1->count == a0->count && a1->crc == a0->crc,
           "hop X-: the model sends A's 3 flits on node 0's X- (%u) instead of X+ (%u), node 3 "
           "routes the head on by DOR, node 2 records the same flits in the same cycles",
           oc.xm, oc.xp);
        tn_model_free(&m);
    } else {
        ok(0, "hop X-: the model runs");
    }
    a->hop = TN_HOP_NONE;
    if (tn_model_run(p, 1, TN_ENGINE_CYCLE, &m) == 0) {
        const struct tn_stat *a2 = stat_of(&m, 2);
        ok(m.relay_ev[TN_RELAY_UNRT] == 1 && m.relay_ev[TN_RELAY_DROP] == 2 &&
               m.relay_total[TN_RELAY_UNRT] == 1 && m.relay_total[TN_RELAY_COLL] == 0 && a2 &&
               a2->count == 2 && (a2->err & 2),
           "hop 7: node 0 counts A's head unroutable and drops its 2 body flits; node 2 gets "
           "only C, short");
        tn_model_free(&m);
    } else {
        ok(0, "hop 7: the model runs");
    }
    is(tn_plan_check(p, &rep), TN_EVERIFY, "hop 7: the plan check refuses it");
    bool named = false;
    for (uint32_t i = 0; i < rep.nkept; i++)
        named |= rep.viol[i].kind == TN_V_PATH && rep.viol[i].node == 0 &&
                 strstr(rep.viol[i].text, "hop 7") != NULL;
    ok(named, "... naming node 0 and hop 7: %s", rep.nkept ? rep.viol[0].text : "");
    tn_report_free(&rep);
    a->hop = TN_HOP_HERE;
    is(tn_plan_check(p, &rep), 0, "hop 6: the plan check accepts it (node 0 has a relay eject "
       "lane)");
    tn_report_free(&rep);
    if (tn_model_run(p, 1, TN_ENGINE_CYCLE, &m) == 0) {
        const struct tn_stat *h = stat_of(&m, 0), *a3 = stat_of(&m, 2);
        ok(e0 && h && h->first == 1 && h->count == 3 + e0->count && (h->err & 1) && a3 &&
               a3->count == 2,
           "hop 6: node 0 ejects A itself from cycle 1 (its lane's record: A's 3 flits and "
           "D's %u, an overrun); node 2 gets only C", e0 ? e0->count : 0);
        tn_model_free(&m);
    } else {
        ok(0, "hop 6: the model runs");
    }
    tn_model_free(&m0);
    tn_plan_free(p);
    tn_sched_free(s);
}

int main(void)
{
    control_packet_checks();
    hop_checks();
    short_round_checks();
    scatter_checks("3x3x3", 1, TN_SG_DOR, 4, 1);
    scatter_checks("4x4x4", 1, TN_SG_DOR, 3, 2);
    scatter_checks("5x3x2", 1, TN_SG_DOR, 6, 3);  /* (alpha 0: refused, the device reads ahead) */
    scatter_checks("3x3x3", 6, TN_SG_DOR, 4, 1);
    scatter_checks("7x7x7", 6, TN_SG_DOR, 2, 1);
    scatter_checks("3x3x3", 6, TN_SG_SIX, 4, 1);
    scatter_checks("4x4x4", 6, TN_SG_SIX, 8, 1);
    scatter_checks("5x3x2", 6, TN_SG_SIX, 6, 3);
    scatter_checks("7x7x7", 6, TN_SG_SIX, 8, 1);
    scatter_checks("7x7x7", 6, TN_SG_AUTO, 3, 2);
    six_tree_checks();

    /* Theorem 1 on rings: FDF (model) = brute force over all orders */
    unsigned tested = 0, same = 0;
    for (int trial = 0; trial < 30; trial++) {
        struct tn_topo t;
        tn_topo_init(&t, 2 + rnd(7), 1, 1);
        uint32_t len[8], root = 0, ml[8];
        unsigned dist[8];
        int k = 0;
        for (uint32_t v = 0; v < t.n; v++) {
            len[v] = rnd(5);
            if (v != root && len[v]) {
                ml[k] = len[v];
                dist[k++] = tn_distance(&t, root, v);
            }
        }
        if (k == 0)
            continue;
        struct tn_sg_opts o = {root, 1, TN_SG_DOR, len, 1, 0, false};
        struct tn_sg_info gi;
        struct tn_sched *s = NULL;
        struct tn_plan *p = NULL;
        struct tn_plan_params par = {.lanes = 1, .width = 16, .alpha = 1};
        struct tn_model_out m;
        char err[128];
        if (tn_scatter_build(&s, &t, &o, &gi) || tn_plan_lower(&p, s, &par, err, sizeof err) ||
            tn_model_run(p, 1, TN_ENGINE_CYCLE, &m)) {
            tn_plan_free(p);
            tn_sched_free(s);
            continue;
        }
        tested++;
        same += m.total == 1 + best_order(ml, dist, k) && m.errors == 0;
        tn_model_free(&m);
        tn_plan_free(p);
        tn_sched_free(s);
    }
    ok(tested >= 25 && same == tested,
       "FDF relay scatter on random rings = brute-force optimum over all orders (%u of %u)", same,
       tested);

    /* gather by certificates on 3x3x3 and 5x5x5: gap-free at the root */
    const char *gdims[] = {"3x3x3", "5x5x5", "4x3x2"};
    for (int gi_ = 0; gi_ < 3; gi_++) {
        struct tn_topo t;
        tn_topo_parse(&t, gdims[gi_]);
        uint32_t *len = calloc(t.n, sizeof *len), root = rnd(t.n);
        uint64_t M = 0;
        for (uint32_t v = 0; v < t.n; v++) {
            len[v] = 1 + rnd(4);
            if (v != root)
                M += len[v] + 1;
        }
        struct tn_sg_opts o = {root, 1, TN_SG_DOR, len, 1, 0, false};
        struct tn_sg_info g;
        struct tn_sched *s = NULL;
        struct tn_plan *p = NULL;
        struct tn_plan_params par = {.lanes = 1, .mem_depth = 4096, .width = 16, .alpha = 1};
        struct tn_model_out m;
        struct tn_report rep;
        char err[128] = "";
        is(tn_gather_build(&s, &t, &o, &g), 0, "gather %s built", gdims[gi_]);
        struct tn_verify_opts vo = {1, 4096, 5, false};
        is(tn_verify(s, &vo, &rep), 0, "gather %s: collision-free in the verifier (1 lane)",
           gdims[gi_]);
        tn_report_free(&rep);
        is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "gather %s lowered %s", gdims[gi_], err);
        if (!p) {
            tn_sched_free(s);
            free(len);
            continue;
        }
        is(tn_model_run(p, 3, TN_ENGINE_AUTO, &m), 0, "gather model runs");
        /* round 1: a token (a head alone) and a certificate (a head and
         * the value) per tree edge, round 2: an order (head and value) per
         * edge (no null message here) and the data */
        const struct tn_stat *e = NULL;
        uint64_t ctl[2] = {0, 0}, errs = 0;
        for (uint32_t i = 0; i < m.nstats; i++) {
            const struct tn_stat *x = &m.stats[i];
            errs += x->err != 0;
            if (x->round == 1 && x->node == root)
                e = x;
            else if (x->round < 2)
                ctl[x->round] += x->count;
        }
        ok(e && e->count == M && e->last - e->first + 1 == M && errs == 0,
           "gather %s: in round 2 the root's one relay lane receives all %llu data flits "
           "gap-free", gdims[gi_], (unsigned long long)M);
        ok(ctl[0] == 3 * (t.n - 1) && ctl[1] == 2 * (t.n - 1),
           "gather %s: round 1 carries a token and a certificate per tree edge (%llu flits), "
           "round 2 an order per edge (%llu)", gdims[gi_], (unsigned long long)ctl[0],
           (unsigned long long)ctl[1]);
        is(m.total, g.formula, "gather %s: model total = the certificate algorithm's two "
           "rounds", gdims[gi_]);
        is(gather_control_mismatches(&t, root, len, &m, par.alpha, p->rounds[1].t0), 0,
           "gather %s: every node's token (round 1) and order (round 2) arrive in the model "
           "when the certificate algorithm sends them, + 1 hop", gdims[gi_]);
        ok(g.lower <= g.time && g.time <= g.bound,
           "gather %s: lower %llu <= T %llu <= Theorem 3 bound %llu", gdims[gi_],
           (unsigned long long)g.lower, (unsigned long long)g.time, (unsigned long long)g.bound);
        tn_model_free(&m);
        tn_plan_free(p);
        tn_sched_free(s);
        free(len);
    }

    /* shoulder-tap through the library: a root outside the torus is
     * refused before anything is built (the CLI checks it too) */
    {
        struct tn_topo t;
        tn_topo_parse(&t, "3x3x3");
        uint32_t len[27] = {0};
        struct tn_sg_opts o = {27, 1, TN_SG_DOR, len, 1, 0, true};
        struct tn_sg_info g;
        struct tn_sched *s = NULL;
        is(tn_gather_build(&s, &t, &o, &g), TN_EINVAL,
           "shoulder-tap with root 27 on 3x3x3 refused (TN_EINVAL)");
        ok(s == NULL, "and nothing built");
    }

    /* A collision: A 0 -> 2 and B 1 -> 3 on a 5-ring, both from offset 0.
     * B's head takes node 1's X+ in cycle alpha; A's head reaches node 1
     * one cycle later and finds it held: dropped with its packet. */
    {
        struct tn_topo t;
        tn_topo_parse(&t, "5");
        struct tn_sched *s;
        tn_sched_new(&s, &t, TN_GOSSIP, "collide", 3, 6, 1, 0);
        tn_sched_add_round(s);
        uint32_t a = 0, b = 1;
        tn_sched_add_relay(s, 0, 0, 2, 0, 1, &a, 1, 0);
        tn_sched_add_relay(s, 0, 1, 3, 0, 1, &b, 1, 0);
        struct tn_report rep;
        struct tn_verify_opts vo = {6, 0, 10, false};
        is(tn_verify(s, &vo, &rep), TN_EVERIFY, "colliding relay streams fail verification");
        bool seen = false;
        for (uint32_t i = 0; i < rep.nkept; i++)
            seen |= rep.viol[i].kind == TN_V_COLLISION && rep.viol[i].node == 1;
        ok(seen, "the verifier names the collision on node 1's X+ arc");
        tn_report_free(&rep);
        vo.relay_meets_ok = true;
        is(tn_verify(s, &vo, &rep), TN_EVERIFY, "relay_meets_ok: still fails (the gossip is "
           "incomplete)");
        seen = false;
        for (uint32_t i = 0; i < rep.nkept; i++)
            seen |= rep.viol[i].kind == TN_V_COLLISION;
        ok(!seen && rep.relay_meets > 0, "relay_meets_ok: the meeting is counted (%u), not "
           "reported", rep.relay_meets);
        tn_report_free(&rep);
        vo.relay_meets_ok = false;
        struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
        struct tn_plan *p = NULL;
        char err[128];
        is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "the colliding schedule lowers");
        struct tn_model_out m;
        is(tn_model_run(p, 1, TN_ENGINE_CYCLE, &m), 0, "model runs");
        const struct tn_stat *ea = stat_of(&m, 2), *eb = stat_of(&m, 3);
        ok(ea && ea->count == 0 && (ea->err & 2), "model: A's destination is short (A dropped)");
        ok(eb && eb->count == 4 && eb->err == 0 && eb->first == 1 + 0 + 2 &&
               eb->crc == packet_crc(&t, &s->rounds[0].relay[1], 1, 3, 1),
           "model: B, the holder, is delivered whole and on time");
        is(m.errors, 1, "exactly one descriptor in error");
        /* link faults in the model: B's second flit leaves node 2 on X+ in
         * cycle alpha + 2 = 3 */
        struct tn_model_out mf;
        struct tn_model_fault flip = {0, 2, 3, TN_XP, 1, false, false, false};
        const struct tn_stat *fb;
        is(tn_model_run_fault(p, 1, &flip, &mf), 0, "model runs with a fault");
        fb = stat_of(&mf, 3);
        ok(fb && fb->count == 4 && fb->err == 0 && fb->crc != eb->crc,
           "fault: a data bit of B's second flit flipped on 2 X+: B's CRC differs, its count not");
        tn_model_free(&mf);
        flip.drop = true;
        is(tn_model_run_fault(p, 1, &flip, &mf), 0, "model runs with a drop");
        fb = stat_of(&mf, 3);
        ok(fb && fb->count == 3 && (fb->err & 2), "fault: the flit dropped: B's record one flit "
           "short");
        tn_model_free(&mf);
        flip.c = 2;
        is(tn_model_run_fault(p, 1, &flip, &mf), 0, "model runs with a dropped head");
        fb = stat_of(&mf, 3);
        ok(fb && fb->count == 0 && mf.relay_ev[3 * 3 + TN_RELAY_DROP] == 3,
           "fault: B's head dropped: nothing arrives, node 3 drops its 3 body flits");
        tn_model_free(&mf);
        ok(m.relay_ev && m.relay_ev[3 * 1 + TN_RELAY_COLL] == 1 &&
               m.relay_ev[3 * 1 + TN_RELAY_DROP] == 3 && m.relay_total[TN_RELAY_COLL] == 1 &&
               m.relay_total[TN_RELAY_UNRT] == 0 && m.relay_total[TN_RELAY_DROP] == 3,
           "model counters: one collision and A's 3 body flits dropped, at node 1 only");
        tn_model_free(&m);
        tn_plan_free(p);
        /* shift A by its packet length + 1: B has released the arc */
        s->rounds[0].relay[0].start = 4;
        edited(s);
        tn_verify(s, &vo, &rep);
        seen = false;
        for (uint32_t i = 0; i < rep.nkept; i++)
            seen |= rep.viol[i].kind == TN_V_COLLISION || rep.viol[i].kind == TN_V_DURATION;
        ok(!seen && rep.nviol > 0,
           "A sent after B's tail passed: no collision (only the gossip is incomplete)");
        tn_report_free(&rep);
        is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "lowered");
        is(tn_model_run(p, 1, TN_ENGINE_CYCLE, &m), 0, "model runs");
        is(m.errors, 0, "model: both delivered when the verifier says so");
        ok(m.relay_total[TN_RELAY_COLL] + m.relay_total[TN_RELAY_UNRT] +
               m.relay_total[TN_RELAY_DROP] == 0, "model counters: no collision, nothing dropped");
        tn_model_free(&m);
        tn_plan_free(p);
        /* lanes: A and B from the same source, overlapping: two chains
         * at once, one lane is too few */
        s->rounds[0].relay[1].src = 0;
        s->rounds[0].relay[1].msgs[0] = 0;
        s->rounds[0].relay[1].start = 2;
        edited(s);
        par.lanes = 1;
        is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_ECAPACITY,
           "two chains at once at one source on one lane refused: %s", err);
        /* B after A's tail (A sends in [4, 8)) with a gap: two chains, one
         * after the other on the lane, two inject descriptors */
        s->rounds[0].relay[1].start = 9;
        edited(s);
        is(tn_plan_lower(&p, s, &par, err, sizeof err), 0,
           "two chains one after the other share one lane %s", err);
        ok(p && p->rounds[0].ninj == 2 && p->rounds[0].inj[0].lane == 0 &&
               p->rounds[0].inj[1].lane == 0 && p->rounds[0].inj[1].start == 9,
           "two inject descriptors on lane 0, the second from cycle 9");
        if (p && tn_model_run(p, 1, TN_ENGINE_CYCLE, &m) == 0) {
            const struct tn_stat *a2 = stat_of(&m, 2), *b3 = stat_of(&m, 3);
            ok(m.errors == 0 && a2 && a2->count == 4 && b3 && b3->count == 4 &&
                   b3->first == 1 + 9 + 2,
               "model: both packets sent by the one lane, delivered whole, B (two hops) from "
               "cycle 12");
            tn_model_free(&m);
        }
        tn_plan_free(p);
        /* B back to back with A (A sends in [0, 4), B from 4): A leaves
         * node 0 by X+, B (0 -> 4 -> 3) by X-, and a descriptor names one
         * first hop: two descriptors on the lane, B's from the cycle
         * after A's tail */
        s->rounds[0].relay[1].start = 4;
        s->rounds[0].relay[0].start = 0;
        edited(s);
        is(tn_plan_lower(&p, s, &par, err, sizeof err), 0,
           "back-to-back packets with first hops X+ and X- lowered on one lane %s", err);
        const struct tn_inject *i0 = p && p->rounds[0].ninj == 2 ? &p->rounds[0].inj[0] : NULL;
        ok(i0 && i0[0].lane == 0 && i0[1].lane == 0 && i0[0].start == 0 && i0[0].len == 4 &&
               i0[0].hop == TN_XP && i0[1].start == 4 && i0[1].len == 4 && i0[1].hop == TN_XM,
           "two inject descriptors on lane 0: A's (hop X+) from cycle 0, B's (hop X-) from "
           "cycle 4, the cycle after A's tail");
        if (p && tn_model_run(p, 1, TN_ENGINE_CYCLE, &m) == 0) {
            const struct tn_stat *a2 = stat_of(&m, 2), *b3 = stat_of(&m, 3);
            ok(m.errors == 0 && a2 && a2->count == 4 && a2->first == 1 + 0 + 2 && b3 &&
                   b3->count == 4 && b3->first == 1 + 4 + 2,
               "model: A arrives from cycle 3 and B from 7, both whole (the lane sends them "
               "back to back, each by its descriptor's hop)");
            tn_model_free(&m);
        }
        tn_plan_free(p);
        /* B to node 1 instead: X+ as A, so B continues A's descriptor */
        s->rounds[0].relay[1].dst = 1;
        edited(s);
        is(tn_plan_lower(&p, s, &par, err, sizeof err), 0,
           "back-to-back packets with one first hop lowered %s", err);
        ok(p && p->rounds[0].ninj == 1 && p->rounds[0].inj[0].len == 8 &&
               p->rounds[0].inj[0].hop == TN_XP,
           "back to back, both leaving by X+: one inject descriptor of 2 x 4 flits, hop X+");
        is(p ? hop_mismatches(p, 0) : 1, 0, "... whose hop is both packets' first hop");
        tn_plan_free(p);
        tn_sched_free(s);
    }

    /* Banks: on a 5-ring nodes 1 and 4 send node 0 a packet of 8 flits
     * (head + 7) at once; they arrive together on two relay eject lanes.
     * Areas back to back (8 words apart) would put both lanes' writes in
     * one bank in every cycle: the lowering leaves a gap between them. */
    {
        struct tn_topo t;
        tn_topo_parse(&t, "5");
        struct tn_sched *s;
        tn_sched_new(&s, &t, TN_GOSSIP, "banks", 7, 6, 1, 0);
        tn_sched_add_round(s);
        uint32_t a = 1, b = 4;
        tn_sched_add_relay(s, 0, 1, 0, 0, 1, &a, 1, 0);
        tn_sched_add_relay(s, 0, 4, 0, 0, 1, &b, 1, 0);
        struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
        struct tn_plan *p = NULL;
        char err[300] = "";
        is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "two packets into node 0 at once "
           "lowered %s", err);
        struct tn_plan_round *pr = p ? &p->rounds[0] : NULL;
        struct tn_eject *e0 = pr && pr->nej == 2 ? &pr->ej[0] : NULL, *e1 = e0 ? e0 + 1 : NULL;
        ok(e0 && e0->node == 0 && e1->node == 0 && e1->addr - e0->addr > 8 &&
               (e1->addr - e0->addr) % 8 != 0,
           "their receive areas start %u words apart, not a multiple of 8 banks",
           e0 ? e1->addr - e0->addr : 0);
        struct tn_model_out m;
        is(p ? tn_model_run(p, 2, TN_ENGINE_CYCLE, &m) : -1, 0, "model runs");
        ok(p && m.nstats == 2 && m.errors == 0 && m.stats[0].first == m.stats[1].first &&
               m.stats[0].count == 8 && m.stats[1].count == 8,
           "both arrive whole in the same cycles, on two lanes");
        struct tn_bank_conflict c;
        if (p) {
            uint64_t first = m.stats[0].first;
            tn_model_free(&m);
            e1->addr = e0->addr + 8;
            is(tn_plan_bank_check(p, &c, err, sizeof err), TN_ECAPACITY,
               "areas 8 words apart: the bank check refuses");
            ok(c.write && c.node == 0 && c.round == 0 && c.lane[0] == 0 && c.lane[1] == 1 &&
                   c.cycle == first, "%s", err);
        }
        tn_plan_free(p);
        tn_sched_free(s);
    }

    /* JSON: msg_lengths exports, imports, and is checked */
    {
        struct tn_topo t;
        tn_topo_parse(&t, "3x3x3");
        uint32_t len[27];
        for (int v = 0; v < 27; v++)
            len[v] = (uint32_t)(v % 4);
        struct tn_sg_opts o = {4, 1, TN_SG_DOR, len, 1, 0, false};
        struct tn_sg_info g;
        struct tn_sched *s = NULL, *s2 = NULL;
        tn_scatter_build(&s, &t, &o, &g);
        char *b1 = NULL, *b2 = NULL;
        size_t n1 = 0, n2 = 0;
        FILE *f = open_memstream(&b1, &n1);
        tn_sched_write_json(s, f);
        fclose(f);
        char err[256] = "";
        is(tn_sched_parse_json(&s2, b1, n1, err, sizeof err), 0, "scatter JSON imports %s", err);
        if (s2) {
            f = open_memstream(&b2, &n2);
            tn_sched_write_json(s2, f);
            fclose(f);
            ok(n1 == n2 && !memcmp(b1, b2, n1), "export -> import -> export identical");
            ok(s2->coll == TN_SCATTER && s2->msg_len && s2->msg_len[7] == 3,
               "collective and lengths survive");
            tn_sched_free(s2);
        }
        char *bad = malloc(n1 + 1);
        memcpy(bad, b1, n1);
        bad[n1] = 0;
        char *ml = strstr(bad, "\"msg_lengths\": [0, ");
        if (ml)
            memmove(ml + 16, ml + 19, strlen(ml + 19) + 1);
        is(tn_sched_parse_json(&s2, bad, strlen(bad), err, sizeof err), TN_EPARSE,
           "26 lengths for 27 nodes refused: %s", err);
        free(bad);
        free(b1);
        free(b2);
        tn_sched_free(s);
    }
    return tap_done();
}
