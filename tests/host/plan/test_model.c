/* SPDX-License-Identifier: MIT */
/* Plan lowering and the reference model: the two engines agree bit for
 * bit; totals equal the closed forms; every eject statistic equals an
 * independent prediction from the schedule (first = t0 + alpha + start +
 * depth, count = flits, CRC-32 of the payloads computed here with zlib);
 * crossbar encodings follow docs/hardware.md; capacity limits refuse.
 * Banked memory: every plan of the end-to-end tests, at 6 lanes and 8
 * banks and at 1 lane and 1 bank, has no bank conflict by an oracle
 * written here (reads from the descriptors as docs/hardware.md words them,
 * writes from the model's arrival cycles, bank by bank and cycle by
 * cycle), tn_plan_bank_check agrees with that oracle on perturbed plans,
 * placements that cannot avoid a conflict are refused naming node, round
 * and lanes, and chains (cut by the lane's next descriptor) are modelled.
 * The model's memory probe (make bench's bench_banks) sees every word the
 * circuit rounds read and write. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "a2a.h"
#include "algo.h"
#include "model.h"
#include "plan.h"
#include "rope.h"
#include "sg.h"
#include "tap.h"
#include "tn_error.h"
#include "verify.h"

static struct tn_sched *build(const char *dims, enum tn_coll coll, const char *algo, uint32_t L,
                              unsigned ports, unsigned alpha)
{
    struct tn_topo t;
    struct tn_algo_opts o = {algo, L, ports, alpha, 0};
    struct tn_sched *s = NULL;
    if (tn_topo_parse(&t, dims) || tn_build(&s, coll, &t, &o))
        return NULL;
    return s;
}

/* CRC-32 of the payload of the messages circuit c carries (from the
 * schedule's stream, not from the plan). */
static uint32_t stream_crc(const struct tn_sched *s, const struct tn_circuit *c, uint64_t seed,
                           unsigned width)
{
    unsigned nb = (width + 7) / 8;
    uint32_t n = c->stream->n, *ids = malloc((n + 1) * sizeof *ids);
    tn_blk_read(c->stream, 0, n, ids);
    uint32_t crc = (uint32_t)crc32(0, NULL, 0);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t f = 0; f < s->msg_flits; f++) {
            uint32_t d = tn_payload(seed, ids[i], f, width);
            unsigned char b[4] = {(unsigned char)d, (unsigned char)(d >> 8),
                                  (unsigned char)(d >> 16), (unsigned char)(d >> 24)};
            crc = (uint32_t)crc32(crc, b, nb);
        }
    free(ids);
    return crc;
}

/* Expected statistics straight from the schedule, not from the plan. */
static bool predict_ok(struct tn_sched *s, const struct tn_plan *p, const struct tn_model_out *m,
                       uint64_t seed, unsigned width)
{
    const struct tn_topo *t = &s->topo;
    uint32_t k = 0;
    uint64_t t0 = 0;
    for (uint32_t r = 0; r < s->nrounds; r++) {
        const struct tn_round *rd = &s->rounds[r];
        uint64_t need = 0;
        /* gather the expected stats of the round, then compare as a set
         * keyed by (node, first) since lanes are the plan's business */
        for (uint32_t ci = 0; ci < rd->ncirc; ci++) {
            const struct tn_circuit *c = &rd->circ[ci];
            uint32_t *head = malloc(4 * (c->narcs + c->nej + 1) * sizeof *head);
            uint32_t *depth = head + c->narcs + c->nej + 1, *ejarc = depth + c->narcs + c->nej + 1;
            tn_circuit_walk(s, c, head, depth, NULL, ejarc);
            uint32_t n = c->stream->n, crc = stream_crc(s, c, seed, width);
            uint64_t flits = (uint64_t)n * s->msg_flits;
            for (uint32_t e = 0; e < c->nej; e++) {
                uint64_t first = t0 + p->par.alpha + c->start + depth[ejarc[e]];
                bool found = false;
                for (uint32_t j = k; j < k + p->rounds[r].nej && !found; j++) {
                    const struct tn_stat *st = &m->stats[j];
                    found = st->node == c->eject[e] && st->first == first &&
                            st->last == first + flits - 1 && st->count == flits &&
                            st->crc == crc && st->err == 0;
                }
                if (!found) {
                    diag("round %u circuit %u eject %u: no stat with first %llu count %llu crc %08x",
                         r, ci, c->eject[e], (unsigned long long)first, (unsigned long long)flits,
                         crc);
                    free(head);
                    return false;
                }
                if (c->start + depth[ejarc[e]] + flits > need)
                    need = c->start + depth[ejarc[e]] + flits;
            }
            free(head);
        }
        t0 += p->par.alpha + need;
        k += p->rounds[r].nej;
    }
    (void)t;
    return k == m->nstats && t0 == m->total;
}

/* ---- the bank oracle ---- */

/* The first bank conflict of a circuit plan, found cycle by cycle: per
 * round, every node's inject lane reads (word addr + k in round cycle
 * alpha - 1 + start + k, k below the length cut by the lane's next
 * descriptor and the round's end), then every node's eject lane writes
 * (word addr + j in the cycle the model says flit j arrives: first + j,
 * the streams being gap-free). Returns whether there is one. */
struct hit {
    uint32_t round, node;
    int write;
    uint64_t cycle;
};

static uint64_t sent_of(const struct tn_plan *p, const struct tn_plan_round *pr, uint32_t i)
{
    const struct tn_inject *in = &pr->inj[i];
    uint64_t n = in->len, room = pr->duration - p->par.alpha - in->start;
    if (i + 1 < pr->ninj && in[1].node == in->node && in[1].lane == in->lane &&
        in[1].start < in->start + n)
        n = in[1].start - in->start;
    return n < room ? n : room;
}

/* Mark (cycle, bank) of node's table for lane; a clash with another lane
 * lowers *first. */
static void mark(uint8_t *tab, unsigned banks, uint64_t cycle, uint64_t word, unsigned lane,
                 uint64_t *first)
{
    uint8_t *c = &tab[cycle * banks + (word & (banks - 1))];
    if (*c && *c != lane + 1 && cycle < *first)
        *first = cycle;
    *c = (uint8_t)(lane + 1);
}

static bool oracle(const struct tn_plan *p, const struct tn_model_out *m, struct hit *h)
{
    unsigned B = p->par.banks;
    uint32_t k0 = 0;
    for (uint32_t r = 0; r < p->nrounds; k0 += p->rounds[r].nej, r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        uint8_t *tab = malloc(pr->duration * B);
        for (int write = 0; write < 2; write++) {
            uint32_t n = write ? pr->nej : pr->ninj;
            for (uint32_t a = 0, b; a < n; a = b) {
                uint32_t v = write ? pr->ej[a].node : pr->inj[a].node;
                uint64_t first = UINT64_MAX;
                memset(tab, 0, pr->duration * B);
                for (b = a; b < n && (write ? pr->ej[b].node : pr->inj[b].node) == v; b++) {
                    if (!write) {
                        const struct tn_inject *in = &pr->inj[b];
                        for (uint64_t k = 0; k < sent_of(p, pr, b); k++)
                            mark(tab, B, p->par.alpha - 1 + in->start + k, in->addr + k, in->lane,
                                 &first);
                        continue;
                    }
                    const struct tn_stat *st = &m->stats[k0 + b];
                    if (st->count && st->last - st->first + 1 != st->count)
                        diag("round %u node %u lane %u: a stream with gaps, the oracle assumes "
                             "none", r, v, pr->ej[b].lane);
                    for (uint64_t j = 0; j < st->count && j < pr->ej[b].len; j++)
                        mark(tab, B, st->first - pr->t0 + j, pr->ej[b].addr + j, pr->ej[b].lane,
                             &first);
                }
                if (first != UINT64_MAX) {
                    *h = (struct hit){r, v, write, first};
                    free(tab);
                    return true;
                }
            }
        }
        free(tab);
    }
    return false;
}

/* tn_plan_bank_check and the oracle agree on p: both clean, or the same
 * first conflict (round, node, reads or writes, cycle). */
static bool check_agrees(const struct tn_plan *p, const struct tn_model_out *m, bool *conflict)
{
    struct hit h;
    struct tn_bank_conflict c;
    char err[300];
    bool o = oracle(p, m, &h);
    int rc = tn_plan_bank_check(p, &c, err, sizeof err);
    *conflict = o;
    if (!o)
        return rc == 0;
    return rc == TN_ECAPACITY && c.round == h.round && c.node == h.node &&
           c.write == h.write && c.cycle == h.cycle;
}

/* The model's memory probe: words read and written in circuit rounds;
 * the store-to-send oracle: a word sent (read, as the model times it) in
 * the cycle of its latest store or the one after. */
struct mem_count {
    uint64_t reads, writes, late;  /* late: a write outside its record's first..last */
    const struct tn_plan *p;
    const struct tn_model_out *m;
    uint64_t *stored;              /* per node and word: the latest store's cycle + 1 */
    uint64_t soon;                 /* sends 0 or 1 cycles after the word's store */
    uint8_t *soon_at;              /* ... per round and node */
};

static void count_mem(void *ctx, uint32_t round, uint64_t t, uint32_t node, unsigned lane,
                      int write, uint64_t addr)
{
    struct mem_count *mc = ctx;
    uint64_t *w = &mc->stored[(uint64_t)node * mc->p->mem_max + addr];
    if (!write) {
        mc->reads++;
        if (*w && t + 1 - *w <= 1) {
            mc->soon++;
            mc->soon_at[(size_t)round * mc->p->topo.n + node] = 1;
        }
        return;
    }
    *w = t + 1;
    mc->writes++;
    const struct tn_plan_round *pr = &mc->p->rounds[round];
    uint32_t k = 0;
    for (uint32_t r = 0; r < round; r++)
        k += mc->p->rounds[r].nej;
    for (uint32_t i = 0; i < pr->nej; i++)
        if (pr->ej[i].node == node && pr->ej[i].lane == lane &&
            (t < mc->m->stats[k + i].first || t > mc->m->stats[k + i].last))
            mc->late++;
}

/* Runs the probe over p's circuit rounds into mc (zeroed but for p, m). */
static int probe_mem(const struct tn_plan *p, const struct tn_model_out *m, struct mem_count *mc)
{
    *mc = (struct mem_count){.p = p, .m = m};
    mc->stored = calloc((size_t)p->topo.n * (p->mem_max ? p->mem_max : 1), sizeof *mc->stored);
    mc->soon_at = calloc((size_t)p->nrounds * p->topo.n + 1, 1);
    struct tn_model_probe probe = {.ctx = mc, .on_mem = count_mem};
    int rc = mc->stored && mc->soon_at ? tn_model_probe_links(p, 1, &probe) : TN_ENOMEM;
    free(mc->stored);
    mc->stored = NULL;
    return rc;
}

/* The probe sees every word the circuit rounds' lanes read (the flits
 * their descriptors send) and write (the flits their records count), each
 * written within its record's first..last cycles, none sent in the cycle
 * of its store or the next. */
static void probe_mem_agrees(const struct tn_plan *p, const struct tn_model_out *m,
                             const char *what)
{
    uint64_t reads = 0, writes = 0;
    for (uint32_t r = 0, k = 0; r < p->nrounds; k += p->rounds[r].nej, r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        for (uint32_t i = 0; i < pr->ninj; i++)
            reads += pr->inj[i].relay ? 0 : sent_of(p, pr, i);
        for (uint32_t i = 0; i < pr->nej; i++)
            writes += pr->ej[i].port == TN_PORT_RELAY ? 0 : m->stats[k + i].count;
    }
    struct mem_count mc;
    int rc = probe_mem(p, m, &mc);
    free(mc.soon_at);
    ok(rc == 0 && mc.reads == reads && mc.writes == writes && mc.late == 0 && mc.soon == 0,
       "%s: the memory probe sees %llu reads and %llu writes (descriptors: %llu, records: %llu), "
       "%llu outside their records' cycles, %llu sent within a cycle of their store", what,
       (unsigned long long)mc.reads, (unsigned long long)mc.writes, (unsigned long long)reads,
       (unsigned long long)writes, (unsigned long long)mc.late, (unsigned long long)mc.soon);
}

/* Lower s at (lanes, banks) and prove the plan: plan check clean, no bank
 * conflict by the oracle, both engines agree, the total is want; every
 * statistic as predicted from the schedule when predict. */
static void prove(struct tn_sched *s, const char *what, unsigned lanes, unsigned banks,
                  unsigned alpha, unsigned width, uint64_t want, bool predict)
{
    struct tn_plan_params par = {.lanes = lanes, .width = width, .alpha = alpha, .banks = banks};
    struct tn_plan *p;
    char err[300] = "";
    unsigned shown = banks;
    while (shown < lanes)  /* the default: 2^ceil(log2 lanes) */
        shown = shown ? 2 * shown : 1;
    if (!ok(s && tn_plan_lower(&p, s, &par, err, sizeof err) == 0,
            "%s lanes=%u banks=%u lowers to a plan %s", what, lanes, shown, err))
        return;
    struct tn_report prep;
    is(tn_plan_check(p, &prep), 0, "%s: the plan passes the independent plan check", what);
    tn_report_free(&prep);
    struct tn_model_out a, b;
    uint64_t seed = 0x1234 + s->msg_flits;
    int ra = tn_model_run(p, seed, TN_ENGINE_CYCLE, &a);
    int rb = tn_model_run(p, seed, TN_ENGINE_STREAM, &b);
    ok(ra == 0 && rb == 0 && a.nstats == b.nstats && a.total == b.total &&
           memcmp(a.stats, b.stats, a.nstats * sizeof *a.stats) == 0,
       "%s W=%u alpha=%u: cycle and stream engines agree on %u eject statistics", what, width,
       alpha, a.nstats);
    struct hit h = {0, 0, 0, 0};
    bool clash = ra == 0 && oracle(p, &a, &h);
    ok(ra == 0 && !clash, "%s lanes=%u banks=%u: no two lanes of a node use one bank in one "
       "cycle (oracle; %u gaps placed)%s", what, lanes, p->par.banks, p->gap_first[p->topo.n],
       clash ? " CONFLICT" : "");
    if (clash)
        diag("round %u node %u %s cycle %llu", h.round, h.node, h.write ? "writes" : "reads",
             (unsigned long long)h.cycle);
    is(a.total, want, "%s alpha=%u: model total equals the closed form", what, alpha);
    if (ra == 0)
        probe_mem_agrees(p, &a, what);
    if (predict)
        ok(a.errors == 0 && predict_ok(s, p, &a, seed, width),
           "%s: every statistic equals the prediction from the schedule", what);
    tn_model_free(&a);
    tn_model_free(&b);
    tn_plan_free(p);
}

static void run_banks(const char *dims, enum tn_coll coll, const char *algo, uint32_t L,
                      unsigned ports, unsigned lanes, unsigned banks, unsigned alpha,
                      unsigned width)
{
    struct tn_sched *s = build(dims, coll, algo, L, ports, alpha);
    struct tn_cost c = {0};
    struct tn_algo_opts o = {algo, L, ports, alpha, 0};
    if (s)
        tn_algo_cost(coll, s->algo, &s->topo, &o, &c);
    char what[120];
    snprintf(what, sizeof what, "%s %s %s L=%u", tn_coll_name(coll), s ? s->algo : "?", dims, L);
    prove(s, what, lanes, banks, alpha, width, c.cycles, true);
    tn_sched_free(s);
}

static void run(const char *dims, enum tn_coll coll, const char *algo, uint32_t L,
                unsigned ports, unsigned lanes, unsigned alpha, unsigned width)
{
    run_banks(dims, coll, algo, L, ports, lanes, 0, alpha, width);
}

/* The all-to-all of tests/e2e/alltoall.sh and 4x4x4: every plan clean,
 * measured (modelled) = the closed form from the traffic. */
static void run_a2a(const char *dims, enum tn_a2a_kind kind, unsigned ports, uint32_t L,
                    unsigned lanes)
{
    struct tn_topo t;
    tn_topo_parse(&t, dims);
    struct tn_a2a_opts o = {kind, L, ports, 1, 10, 1};
    struct tn_a2a_info info;
    struct tn_sched *s = NULL;
    if (tn_a2a_build(&s, &t, &o, &info) != 0)
        s = NULL;
    char what[120];
    snprintf(what, sizeof what, "alltoall %s %s ports=%u L=%u", dims,
             kind == TN_A2A_LIQUID ? "liquid" : "round-robin", ports, L);
    prove(s, what, lanes, lanes == 1 ? 1 : 8, 1, 16, s ? info.formula : 0, true);
    tn_sched_free(s);
}

static void test_payloads(void)
{
    /* CRC convention: "123456789" as eight-bit flits gives the IEEE check
     * value 0xCBF43926 */
    uint32_t crc = (uint32_t)crc32(0, NULL, 0);
    crc = (uint32_t)crc32(crc, (const unsigned char *)"123456789", 9);
    is(crc, 0xCBF43926u, "zlib crc32 is CRC-32/IEEE (check value)");
    bool masked = true;
    for (unsigned w = 1; w <= 32; w++)
        for (uint32_t m = 0; m < 50; m++)
            masked &= w == 32 || tn_payload(7, m, m * 3, w) < (1ull << w);
    ok(masked, "payloads fit in W bits for W = 1..32");
    ok(tn_payload(1, 2, 3, 32) != tn_payload(1, 3, 2, 32) &&
           tn_payload(1, 2, 3, 32) != tn_payload(2, 2, 3, 32),
       "payload depends on message, flit and seed");
}

/* Every circuit collective of tests/e2e/gossip.sh and alltoall.sh (and
 * the 4x4x4 all-to-all), at 6 lanes and 8 banks, the single-port ones
 * also at 1 lane and 1 bank. */
static void test_e2e_plans(void)
{
    for (uint32_t L = 1; L <= 8; L += 7) {
        run_banks("7x7x7", TN_GOSSIP, "dp", L, 6, 6, 8, 1, 16);
        run_banks("3x3x3", TN_GOSSIP, NULL, L, 6, 6, 8, 1, 16);
    }
    run_banks("7x7x7", TN_GOSSIP, "dp-long", 1, 6, 6, 8, 1, 16);
    run_banks("7x7x7", TN_GOSSIP, "dp-long", 3, 6, 6, 8, 1, 16);
    run_banks("3x3x3", TN_GOSSIP, NULL, 2, 1, 1, 1, 1, 16);
    run_banks("3x3x3", TN_GOSSIP, NULL, 2, 1, 6, 8, 1, 16);
    run_banks("3x3x3", TN_BROADCAST, NULL, 4, 6, 6, 8, 1, 16);
    run_banks("7x7x7", TN_BROADCAST, NULL, 4, 6, 6, 8, 1, 16);
    run_banks("3x3x3", TN_BROADCAST, NULL, 4, 1, 1, 1, 1, 16);
    for (uint32_t L = 1; L <= 4; L++) {
        run_a2a("3x3x3", TN_A2A_LIQUID, 6, L, 6);
        run_a2a("3x3x3", TN_A2A_RR, 6, L, 6);
        run_a2a("3x3x3", TN_A2A_LIQUID, 1, L, 6);
        run_a2a("3x3x3", TN_A2A_LIQUID, 1, L, 1);
        run_a2a("3x3x3", TN_A2A_RR, 1, L, 1);
    }
    run_a2a("4x4x4", TN_A2A_LIQUID, 6, 1, 6);
    run_a2a("4x4x4", TN_A2A_LIQUID, 6, 4, 6);
    run_a2a("4x4x4", TN_A2A_RR, 1, 2, 1);
}

/* Scatter and gather (one relay round) as tests/e2e/scatter_gather.sh and
 * tests/e2e/bench_sg.sh run them: lengths L, random 0..L (seed) or from
 * the e2e lengths file (seed 0, L 0). */
static void run_sg(const char *dims, enum tn_coll coll, unsigned ports, uint32_t root, uint32_t L,
                   uint64_t seed, unsigned lanes)
{
    struct tn_topo t;
    tn_topo_parse(&t, dims);
    uint32_t *len = calloc(t.n, sizeof *len);
    for (uint32_t u = 0; u < t.n; u++)
        len[u] = L == 0  ? (u * 7 + 3) % 6
                 : seed ? tn_payload(seed, 0xFFFFFFFFu, u, 32) % (L + 1)
                        : L;
    struct tn_sg_opts o = {root, ports, TN_SG_DOR, len, 1, 0, false};
    struct tn_sg_info info;
    struct tn_sched *s = NULL;
    int rc = coll == TN_SCATTER ? tn_scatter_build(&s, &t, &o, &info)
                                : tn_gather_build(&s, &t, &o, &info);
    char what[120];
    snprintf(what, sizeof what, "%s %s ports=%u root %u L=%s%u%s", tn_coll_name(coll), dims,
             ports, root, seed ? "0.." : "", L, L ? "" : " (the e2e lengths file)");
    prove(rc == 0 ? s : NULL, what, lanes, lanes == 1 ? 1 : 8, 1, 16, info.formula, false);
    tn_sched_free(s);
    free(len);
}

static void test_e2e_relay_plans(void)
{
    for (uint32_t root = 0; root < 27; root += 13)
        run_sg("3x3x3", TN_SCATTER, 1, root, 0, 0, 6);
    run_sg("3x3x3", TN_SCATTER, 1, 0, 3, 0, 1);
    run_sg("3x3x3", TN_SCATTER, 6, 0, 4, 3, 6);
    run_sg("3x3x3", TN_GATHER, 1, 0, 5, 11, 6);
    run_sg("3x3x3", TN_GATHER, 1, 22, 5, 11, 6);
    run_sg("3x3x3", TN_GATHER, 1, 0, 3, 2, 1);
    run_sg("3x3x3", TN_GATHER, 1, 0, 2, 0, 6);
    run_sg("7x7x7", TN_SCATTER, 1, 0, 1, 0, 6);
    run_sg("7x7x7", TN_SCATTER, 1, 0, 8, 5, 6);
    run_sg("7x7x7", TN_SCATTER, 6, 0, 8, 5, 6);
    run_sg("7x7x7", TN_GATHER, 1, 0, 1, 0, 6);
    run_sg("7x7x7", TN_GATHER, 1, 0, 8, 5, 6);
}

static void test_49(void)
{
    /* the 49x49x49 gossip through the stream engine */
    struct tn_sched *s = build("49x49x49", TN_GOSSIP, "dp", 1, 6, 1);
    struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
    struct tn_plan *p;
    struct tn_model_out m;
    char err[300];
    if (ok(s && tn_plan_lower(&p, s, &par, err, sizeof err) == 0, "49x49x49 dp lowers")) {
        int rc = tn_model_run(p, 5, TN_ENGINE_STREAM, &m);
        ok(rc == 0 && m.errors == 0 && m.total == 8 + 96 + 139658,
           "49x49x49 dp: stream model runs without errors, %llu = 8 alpha + 96 + 139658 L cycles",
           (unsigned long long)m.total);
        tn_model_free(&m);
        tn_plan_free(p);
    }
    tn_sched_free(s);

    /* the long-message variant at 49x49x49: its colour pieces are gathers
     * of 2401 runs, one inject descriptor each on the device: 2.8e8 in
     * all, refused (the schedule itself is verified in test_algo) */
    s = build("49x49x49", TN_GOSSIP, "dp-long", 1, 6, 1);
    is(s ? tn_plan_lower(&p, s, &par, err, sizeof err) : 0, TN_ECAPACITY,
       "49x49x49 dp-long is refused: its gathers need more inject descriptors than the host's "
       "limit");
    ok(strstr(err, "inject descriptors") != NULL, "the refusal says why: %s", err);
    tn_sched_free(s);
}

/* Crossbar encoding of a 2-a dipath; eject addresses; the plan check on
 * corrupted plans; lane and memory limits. */
static void test_encoding(void)
{
    struct tn_sched *s = build("7x7x7", TN_GOSSIP, "dp", 2, 6, 1);
    struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
    struct tn_plan *p;
    char err[300];
    if (ok(tn_plan_lower(&p, s, &par, err, sizeof err) == 0, "7x7x7 dp lowers on 6 lanes")) {
        const struct tn_circuit *c = &s->rounds[1].circ[0];
        const struct tn_plan_round *pr1 = &p->rounds[1];
        const uint8_t *x = pr1->xbar;
        bool enc = true;
        for (uint32_t i = 1; i < c->narcs; i++)
            enc &= x[c->arcs[i].node * 12 + c->arcs[i].dir] == 8 + c->arcs[i - 1].dir;
        /* the source's lane sends its whole memory (7 messages) from word 0,
         * as one chain, to all six dipaths of the round */
        unsigned lane = x[c->src * 12 + c->arcs[0].dir] - 1, outs = 0;
        uint64_t len = 0, addr = UINT64_MAX;
        for (uint32_t i = 0; i < pr1->ninj; i++)
            if (pr1->inj[i].node == c->src && pr1->inj[i].lane == lane) {
                len += pr1->inj[i].len;
                addr = addr == UINT64_MAX ? pr1->inj[i].addr : addr;
            }
        for (int o = 0; o < 6; o++)
            outs += x[c->src * 12 + o] == 1 + lane;
        enc &= lane < 6 && len == 7 * 2 && addr == 0;
        uint32_t dst = c->eject[0];
        const uint8_t last_dir = c->arcs[c->narcs - 1].dir;
        bool ejok = false;
        for (int l = 0; l < 6; l++)
            ejok |= x[dst * 12 + 6 + l] == 8 + last_dir;
        ok(enc && ejok, "dipath: inject lane 1+l at the source, input port 8+p along the path, "
                        "eject lane source 8+p at the end");
        is(outs, 6, "the six dipaths of a code vertex carry the same data: one lane feeds all six "
                    "outputs (one bank read per cycle)");
        /* eject addresses append in input-port order after what is held,
         * at the placed (physical) addresses of those logical words */
        bool order = true;
        const struct tn_plan_round *pr = &p->rounds[0];
        for (uint32_t i = 0; i < pr->nej; i++) {
            const struct tn_eject *e = &pr->ej[i];
            uint32_t before = 0;
            uint64_t w = UINT64_MAX;
            for (uint32_t j = 0; j < pr->nej; j++)
                if (pr->ej[j].node == e->node && pr->ej[j].port < e->port)
                    before++;
            order &= tn_plan_word(p, e->node, e->addr, &w) && w == 2 * (1 + before) &&
                     e->addr == tn_plan_addr(p, e->node, w) && e->len == 2 && e->lane == before;
        }
        ok(order, "concentration: code nodes store the six streams after their own, in port "
                  "order, at the placed addresses of those words");
        tn_plan_free(p);
    }
    /* the independent plan check: clean plans pass, corrupted ones fail */
    if (tn_plan_lower(&p, s, &par, err, sizeof err) == 0) {
        struct tn_report rep;
        is(tn_plan_check(p, &rep), 0, "plan check accepts the lowered dp plan");
        tn_report_free(&rep);
        struct tn_plan_round *pr = &p->rounds[0];
        uint32_t code = pr->ej[0].node;
        uint8_t saved = pr->xbar[code * 12 + 0];
        pr->xbar[code * 12 + 0] = TN_SEL_LANE(5);  /* a code node injects nothing in round 0 */
        is(tn_plan_check(p, &rep), TN_EVERIFY, "output selecting a lane without descriptor found");
        ok(rep.nkept && rep.viol[0].kind == TN_V_LANE && rep.viol[0].node == code, "%s",
           rep.nkept ? rep.viol[0].text : "");
        tn_report_free(&rep);
        pr->xbar[code * 12 + 0] = saved;
        /* the X+ neighbour y of a code node hears nothing on port X+ in the
         * concentration (code nodes do not send): make y forward it */
        uint32_t y = tn_neighbor(&s->topo, code, TN_XP);
        saved = pr->xbar[y * 12 + TN_YP];
        pr->xbar[y * 12 + TN_YP] = TN_SEL_PORT(TN_XP);
        is(tn_plan_check(p, &rep), TN_EVERIFY, "output listening to an idle link found");
        ok(rep.nkept && rep.viol[0].kind == TN_V_PATH && rep.viol[0].node == y, "%s",
           rep.nkept ? rep.viol[0].text : "");
        tn_report_free(&rep);
        pr->xbar[y * 12 + TN_YP] = saved;
        uint32_t a1 = pr->ej[1].addr;
        pr->ej[1].addr = pr->ej[0].addr;
        is(tn_plan_check(p, &rep), TN_EVERIFY, "overlapping eject regions found");
        ok(rep.nkept && rep.viol[0].kind == TN_V_MEM, "%s", rep.nkept ? rep.viol[0].text : "");
        bool bank = false;
        for (uint32_t i = 0; i < rep.nkept; i++)
            bank |= rep.viol[i].kind == TN_V_BANK && rep.viol[i].node == code &&
                    rep.viol[i].round == 0;
        ok(bank, "and the two eject lanes writing one bank in the same cycles: a bank-conflict "
                 "violation at node %u round 0", code);
        tn_report_free(&rep);
        pr->ej[1].addr = a1;
        p->par.mem_depth = 600;
        is(tn_plan_check(p, &rep), TN_EVERIFY, "ejects beyond MEM_DEPTH found");
        tn_report_free(&rep);
        tn_plan_free(p);
    }
    par.lanes = 1;
    is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_ECAPACITY,
       "all-port gossip refused on a single-lane device");
    diag("%s", err);
    par.lanes = 6;
    par.mem_depth = 512;
    is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_ECAPACITY,
       "688-word gossip refused with MEM_DEPTH 512");
    diag("%s", err);
    par.mem_depth = 1024;
    is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "and accepted with MEM_DEPTH 1024");
    ok(p->mem_max >= 688 && p->mem_max <= 1024, "placed in %llu words (688 + gaps)",
       (unsigned long long)p->mem_max);
    uint32_t words[8];
    is(tn_plan_init_mem(p, 9, 5, words, 8), 2, "node 5 starts with its own 2-flit message");
    ok(words[0] == tn_payload(9, 5, 0, 16) && words[1] == tn_payload(9, 5, 1, 16),
       "initial memory holds payload(seed, node, k)");
    uint32_t ids[400];
    is(tn_plan_mem_msgs(p, 4, 0, ids, 400), 343, "node 0 holds 343 messages at the end");
    tn_plan_free(p);
    par.banks = 3;
    is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_EINVAL,
       "a bank count that is not a power of two is refused: %s", err);
    tn_sched_free(s);
}

/* 7x7x7 dp at L = 8: the concentration's six streams arrive together at
 * words 8, 16, ..., 48 of a code node, all in bank 0: the placement must
 * insert gaps, and without them the oracle finds the conflict. */
static void test_gaps_needed(void)
{
    struct tn_sched *s = build("7x7x7", TN_GOSSIP, "dp", 8, 6, 1);
    struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
    struct tn_plan *p;
    char err[300];
    if (!ok(s && tn_plan_lower(&p, s, &par, err, sizeof err) == 0, "7x7x7 dp L=8 lowers")) {
        tn_sched_free(s);
        return;
    }
    struct tn_model_out m;
    tn_model_run(p, 1, TN_ENGINE_STREAM, &m);
    ok(p->gap_first[p->topo.n] > 0 && p->mem_max > 343 * 8,
       "the placement inserted %u gaps (%llu words for 2744 of messages)", p->gap_first[p->topo.n],
       (unsigned long long)p->mem_max);
    for (uint32_t r = 0; r < p->nrounds; r++)
        for (uint32_t i = 0; i < p->rounds[r].nej; i++) {
            uint64_t w;
            tn_plan_word(p, p->rounds[r].ej[i].node, p->rounds[r].ej[i].addr, &w);
            p->rounds[r].ej[i].addr = (uint32_t)w;  /* back to the gap-free layout */
        }
    struct hit h;
    bool clash = oracle(p, &m, &h);
    ok(clash && h.write && h.round == 0,
       "without the gaps the eject lanes of a code node write one bank in the same cycle "
       "(oracle: round %u node %u cycle %llu)", h.round, h.node, (unsigned long long)h.cycle);
    bool same;
    ok(check_agrees(p, &m, &same) && same, "and tn_plan_bank_check finds the same conflict");
    tn_model_free(&m);
    tn_plan_free(p);
    tn_sched_free(s);
}

/* A 5-ring: node 0 receives messages 1, 2, 3 in one stream (one segment),
 * then sends message 1 on X+ and message 3 on X- at the same start: at L =
 * 4 the two lanes read words 8 apart in lockstep, one bank, and no gap can
 * separate words of one segment. */
static struct tn_sched *lockstep_ring(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "5");
    struct tn_sched *s;
    if (tn_sched_new(&s, &t, TN_GOSSIP, "lockstep", 4, 6, 1, 0))
        return NULL;
    struct tn_arc a32 = {3, TN_XM}, a21 = {2, TN_XM}, a10 = {1, TN_XM};
    struct tn_arc a01 = {0, TN_XP}, a04 = {0, TN_XM};
    uint32_t e2 = 2, e1 = 1, e0 = 0, e4 = 4;
    for (int r = 0; r < 4; r++)
        tn_sched_add_round(s);
    tn_sched_add_circuit(s, 0, 3, &a32, 1, &e2, 1, 0, TN_WHOLE, NULL, 0, 0);
    tn_sched_add_circuit(s, 1, 2, &a21, 1, &e1, 1, 0, TN_WHOLE, NULL, 0, 0);
    tn_sched_add_circuit(s, 2, 1, &a10, 1, &e0, 1, 0, TN_WHOLE, NULL, 0, 0);
    tn_sched_add_circuit(s, 3, 0, &a01, 1, &e1, 1, 1, 1, NULL, 0, 0);
    tn_sched_add_circuit(s, 3, 0, &a04, 1, &e4, 1, 3, 1, NULL, 0, 0);
    return s;
}

static void test_refusals(void)
{
    struct tn_sched *s = lockstep_ring();
    struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
    struct tn_plan *p = NULL;
    char err[300] = "";
    is(s ? tn_plan_lower(&p, s, &par, err, sizeof err) : 0, TN_ECAPACITY,
       "two lanes reading one segment 8 words apart in lockstep: refused");
    ok(strstr(err, "node 0") && strstr(err, "round 4") && strstr(err, "lanes 0 and 1") &&
           strstr(err, "read"), "the refusal names node, round and lanes: %s", err);
    par.lanes = par.banks = 2;
    is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_ECAPACITY,
       "also with 2 banks (8 words apart: the same bank)");
    tn_sched_free(s);
    s = build("7x7x7", TN_GOSSIP, "dp-long", 2, 6, 1);
    par = (struct tn_plan_params){.lanes = 6, .width = 16, .alpha = 1};
    is(s ? tn_plan_lower(&p, s, &par, err, sizeof err) : 0, TN_ECAPACITY,
       "dp-long at even L refused: colour pieces 4 messages apart read one bank in lockstep");
    ok(strstr(err, "bank conflict at node") && strstr(err, "inject lanes"), "%s", err);
    par.lanes = 6;
    par.banks = 1;
    is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_ECAPACITY,
       "six lanes on one bank: refused");
    par = (struct tn_plan_params){.lanes = 6, .width = 16, .alpha = 0};
    is(tn_plan_lower(&p, s, &par, err, sizeof err), TN_EINVAL,
       "alpha 0 refused (a lane reads its first word the cycle before it sends it)");
    ok(strstr(err, "alpha must be at least 1") != NULL, "%s", err);
    tn_sched_free(s);
}

/* The exact check against the oracle on perturbed plans: one eject or one
 * inject descriptor moved by 1..7 words, the rest as placed. */
static void test_check_exact(void)
{
    static const struct { const char *algo; uint32_t L; } cases[] = {{"dp", 8}, {"dp-long", 3}};
    unsigned agree = 0, tried = 0, clashes = 0;
    uint64_t rng = 7;
    for (unsigned c = 0; c < 2; c++) {
        struct tn_sched *s = build("7x7x7", TN_GOSSIP, cases[c].algo, cases[c].L, 6, 1);
        struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
        struct tn_plan *p;
        char err[300];
        struct tn_model_out m;
        if (!s || tn_plan_lower(&p, s, &par, err, sizeof err) != 0) {
            tn_sched_free(s);
            continue;
        }
        tn_model_run(p, 3, TN_ENGINE_STREAM, &m);
        for (unsigned k = 0; k < 120; k++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            struct tn_plan_round *pr = &p->rounds[(rng >> 33) % p->nrounds];
            bool ej = k % 2 == 0 && pr->nej;
            uint32_t i = (uint32_t)((rng >> 17) % (ej ? pr->nej : pr->ninj));
            uint32_t *addr = ej ? &pr->ej[i].addr : &pr->inj[i].addr, saved = *addr;
            *addr += 1 + (uint32_t)(rng >> 50) % 7;
            bool clash;
            agree += check_agrees(p, &m, &clash);
            clashes += clash;
            tried++;
            *addr = saved;
        }
        tn_model_free(&m);
        tn_plan_free(p);
        tn_sched_free(s);
    }
    ok(tried == 240 && agree == tried && clashes > 10,
       "tn_plan_bank_check finds exactly the oracle's first conflict (round, node, reads or "
       "writes, cycle) on %u of %u perturbed plans (%u with a conflict)", agree, tried, clashes);
}

/* The store-to-send check against the probe's oracle: on a 4x4x4 class-ring
 * gossip, one inject descriptor (the first of its node in the round) moved to
 * send the words an eject descriptor of its node stores, shift cycles
 * after their store (shift -2..3): refused exactly at shifts 0 and 1,
 * naming the round and node the oracle flags, the lanes, word, cycle and
 * gap; tn_plan_check reports it. And at the stream's end: a descriptor
 * that sends only the last stored word 1 cycle after its store is refused
 * (the overlap of one word), one that starts a word later is not, by
 * the check and the oracle alike. */
static void test_store_check(void)
{
    struct tn_sched *s = build("4x4x4", TN_GOSSIP, "class-ring", 4, 6, 1);
    struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
    struct tn_plan *p;
    char err[300];
    struct tn_model_out m;
    if (!ok(s && tn_plan_lower(&p, s, &par, err, sizeof err) == 0 &&
                tn_model_run(p, 3, TN_ENGINE_CYCLE, &m) == 0,
            "4x4x4 class-ring gossip L=4 lowers and models")) {
        tn_sched_free(s);
        return;
    }
    unsigned tried = 0, agree = 0, refused = 0, named = 0, reported = 0, wrong = 0;
    unsigned at_node = 0, exact = 0, ends = 0, ends_ok = 0;
    uint64_t rng = 11;
    for (unsigned k = 0; k < 240; k++) {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)((rng >> 33) % p->nrounds), k0 = 0;
        for (uint32_t q = 0; q < r; q++)
            k0 += p->rounds[q].nej;
        struct tn_plan_round *pr = &p->rounds[r];
        uint32_t e = (uint32_t)((rng >> 17) % pr->nej);
        const struct tn_stat *st = &m.stats[k0 + e];
        uint32_t i = 0;  /* the node's first inject descriptor: its lane's chain's first */
        while (i < pr->ninj && pr->inj[i].node < pr->ej[e].node)
            i++;
        bool end = k % 12 >= 6;  /* (then the chain's last) */
        while (end && i + 1 < pr->ninj && pr->inj[i + 1].node == pr->inj[i].node &&
               pr->inj[i + 1].lane == pr->inj[i].lane)
            i++;
        bool led = end && i > 0 && pr->inj[i - 1].node == pr->inj[i].node &&
                   pr->inj[i - 1].lane == pr->inj[i].lane;
        /* front: word 0 sent shift cycles after its store; end (k % 12 >=
         * 6): word count - 1 + past sent 1 + past cycles after the last
         * store (past 0: the last word, 1: the word after it) */
        unsigned past = k % 2;
        int shift = end ? 1 : (int)(k % 6) - 2;
        uint64_t w0 = end ? st->count - 1 + past : 0;  /* the first word sent */
        int64_t start = (int64_t)(st->first - pr->t0 + w0) + shift - p->par.alpha;
        bool chained = i + 1 < pr->ninj && pr->inj[i + 1].node == pr->inj[i].node &&
                       pr->inj[i + 1].lane == pr->inj[i].lane;
        if (i >= pr->ninj || pr->inj[i].node != pr->ej[e].node || st->count < 4 || start < 0 ||
            st->last - st->first + 1 != st->count || (chained && pr->inj[i + 1].start <= start + 2) ||
            (led && pr->inj[i - 1].start >= start) ||
            (uint64_t)start + p->par.alpha >= pr->duration)  /* (it sends in the round) */
            continue;  /* (the chain stays in order, and the moved descriptor sends 2 or more) */
        struct tn_inject saved = pr->inj[i];
        pr->inj[i].addr = pr->ej[e].addr + (uint32_t)w0;
        pr->inj[i].start = (uint32_t)start;
        struct tn_store_hazard h;
        int rc = tn_plan_store_check(p, &h, err, sizeof err);
        struct mem_count mc;
        int orc = probe_mem(p, &m, &mc);
        bool soon = orc == 0 && mc.soon > 0;
        tried++;
        agree += (rc == TN_ECAPACITY) == soon && (rc == 0 || rc == TN_ECAPACITY);
        bool here = rc == TN_ECAPACITY && h.round == r && h.node == pr->ej[e].node;
        if (end) {
            ends++;
            ends_ok += past ? !here && !(orc == 0 && mc.soon_at[(size_t)r * p->topo.n + h.node])
                            : here && h.word == pr->ej[e].addr + st->count - 1 && h.gap == 1;
            free(mc.soon_at);
            pr->inj[i] = saved;
            continue;
        }
        at_node += here;
        exact += here && h.gap == (unsigned)shift && h.store_lane == pr->ej[e].lane &&
                 h.send_lane == saved.lane && h.word == pr->ej[e].addr &&
                 h.cycle == st->first - pr->t0 + (uint64_t)shift;
        refused += rc == TN_ECAPACITY && (shift == 0 || shift == 1);
        wrong += (here && shift != 0 && shift != 1) || (rc == 0 && (shift == 0 || shift == 1));
        if (rc == TN_ECAPACITY && (shift == 0 || shift == 1)) {
            char want[40];
            snprintf(want, sizeof want, "node %u round %u:", h.node, h.round + 1);
            named += mc.soon_at[(size_t)h.round * p->topo.n + h.node] && strstr(err, want) != NULL;
            struct tn_report rep;
            bool v = tn_plan_check(p, &rep) == TN_EVERIFY;
            for (uint32_t x = 0; v && x < rep.nkept; x++)
                reported += rep.viol[x].kind == TN_V_STORE && rep.viol[x].node == h.node;
            tn_report_free(&rep);
        }
        if (rc == TN_ECAPACITY && refused == 1 && named == 1)
            diag("%s", err);
        free(mc.soon_at);
        pr->inj[i] = saved;
    }
    ok(tried >= 60 && agree == tried,
       "tn_plan_store_check and the probe's oracle agree on %u of %u moved descriptors", agree,
       tried);
    ok(refused >= 15 && named == refused && reported == refused && wrong == 0,
       "%u moved to send 0 or 1 cycles after the store: refused, naming the oracle's node and "
       "round (%u), a sent-too-soon violation in tn_plan_check (%u); %u refusals or passes at "
       "the wrong shift", refused, named, reported, wrong);
    ok(at_node >= 10 && exact == at_node,
       "the %u refusals at the moved descriptor's node name its lane, the eject lane, the word, "
       "the cycle and the gap (%u exact)", at_node, exact);
    ok(ends >= 20 && ends_ok == ends,
       "at the stream's end (%u): the last word sent 1 cycle after its store refused, the word "
       "after it not (%u as expected)", ends, ends_ok);
    tn_model_free(&m);
    tn_plan_free(p);
    tn_sched_free(s);
}

/* Chains in the model: a 2-node stream split into a chain of descriptors
 * sends the same flits; a descriptor that starts before the previous one
 * ends cuts it (both engines, against the CRC computed here). */
static void test_chains(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "2");
    struct tn_sched *s;
    tn_sched_new(&s, &t, TN_GOSSIP, "chain", 8, 6, 1, 0);
    tn_sched_add_round(s);
    struct tn_arc a = {0, TN_XP};
    uint32_t e = 1;
    tn_sched_add_circuit(s, 0, 0, &a, 1, &e, 1, 0, TN_WHOLE, NULL, 0, 0);
    struct tn_plan_params par = {.lanes = 1, .width = 16, .alpha = 1};
    struct tn_plan *p;
    char err[300];
    if (!ok(tn_plan_lower(&p, s, &par, err, sizeof err) == 0 && p->rounds[0].ninj == 1,
            "2-ring stream lowers to one descriptor")) {
        tn_sched_free(s);
        return;
    }
    struct tn_plan_round *pr = &p->rounds[0];
    struct tn_inject *two = realloc(pr->inj, 2 * sizeof *two);
    pr->inj = two;
    pr->ninj = 2;
    two[1] = two[0];
    two[0].len = 3;
    two[1].start = 3;
    two[1].addr = 3;
    two[1].len = 5;
    for (int cut = 0; cut < 2; cut++) {
        /* cut: the second descriptor starts one cycle early */
        two[1].start = cut ? 2 : 3;
        uint32_t crc = (uint32_t)crc32(0, NULL, 0);
        for (uint32_t k = 0; k < 8; k++) {
            if (cut && k == 2)
                continue;
            uint32_t d = tn_payload(5, 0, k, 16);
            unsigned char b[2] = {(unsigned char)d, (unsigned char)(d >> 8)};
            crc = (uint32_t)crc32(crc, b, 2);
        }
        struct tn_model_out mc, ms;
        int rc = tn_model_run(p, 5, TN_ENGINE_CYCLE, &mc);
        rc |= tn_model_run(p, 5, TN_ENGINE_STREAM, &ms);
        const struct tn_stat *st = &mc.stats[0];
        ok(rc == 0 && mc.nstats == 1 && !memcmp(mc.stats, ms.stats, sizeof *st) &&
               st->first == 2 && st->last == 9 - (uint64_t)cut && st->count == 8u - cut &&
               st->crc == crc && st->err == (cut ? 2 : 0),
           cut ? "a chain whose second descriptor starts early cuts the first: 7 flits, the "
                 "third missing, short (both engines)"
               : "a chain of two descriptors sends one gap-free stream: flits 2..9, the CRC of "
                 "the message (both engines)");
        tn_model_free(&mc);
        tn_model_free(&ms);
    }
    tn_plan_free(p);
    tn_sched_free(s);
}

/* Relay streams are lowered (one packet each: head + payload) and the
 * model times them like circuits: the 2-ring exchange by relay. */
static void test_relay_ring(void)
{
    struct tn_topo t2;
    struct tn_sched *s;
    struct tn_plan *p;
    char err[300] = "";
    struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
    tn_topo_parse(&t2, "2");
    tn_sched_new(&s, &t2, TN_GOSSIP, "relay", 1, 6, 1, 0);
    tn_sched_add_round(s);
    tn_sched_add_relay(s, 0, 0, 1, 0, TN_WHOLE, NULL, 0, 0);
    tn_sched_add_relay(s, 0, 1, 0, 0, TN_WHOLE, NULL, 0, 0);
    is(tn_plan_lower(&p, s, &par, err, sizeof err), 0, "relay streams lowered %s", err);
    struct tn_model_out mr;
    is(tn_model_run(p, 9, TN_ENGINE_CYCLE, &mr), 0, "model runs the relay round");
    is(mr.nstats, 2, "one relay eject lane per destination");
    is(p->total, 1 + 1 + 2, "duration alpha + hops + (head + 1 flit)");
    int good = 0;
    for (uint32_t i = 0; i < mr.nstats; i++) {
        const struct tn_stat *e = &mr.stats[i];
        uint32_t src = e->node == 1 ? 0 : 1, w[2] = {e->node, tn_payload(9, src, 0, 16)};
        uint32_t crc = (uint32_t)crc32(0, NULL, 0);
        for (int k = 0; k < 2; k++) {
            unsigned char b[2] = {(unsigned char)w[k], (unsigned char)(w[k] >> 8)};
            crc = (uint32_t)crc32(crc, b, 2);
        }
        good += e->first == 2 && e->last == 3 && e->count == 2 && e->crc == crc && e->err == 0;
    }
    is(good, 2, "relay packets: head at alpha + 1 hop, 2 flits, CRC over head and payload");
    tn_model_free(&mr);
    tn_plan_free(p);
    tn_sched_free(s);
}

int main(void)
{
    test_payloads();
    run("7x7x7", TN_GOSSIP, "dp", 1, 6, 6, 1, 16);
    run("7x7x7", TN_GOSSIP, "dp", 4, 6, 6, 2, 32);
    run("7x7x7", TN_GOSSIP, "ring", 3, 6, 6, 1, 8);
    run("7x7x7", TN_GOSSIP, "dp-long", 1, 6, 6, 1, 16);
    run("7x7x7", TN_GOSSIP, "dp-long", 3, 6, 6, 2, 12);
    run("4x4x4", TN_GOSSIP, "ring", 2, 1, 1, 1, 12);
    run("3x3x3", TN_GOSSIP, "ring", 5, 6, 2, 3, 16);
    run("2x2x2", TN_GOSSIP, "ring", 1, 6, 6, 1, 16);
    run("16x1x1", TN_GOSSIP, "ring", 2, 6, 2, 1, 9);
    /* split ring: lists in several runs (one inject descriptor each) */
    run("7x7x7", TN_GOSSIP, "split-ring", 8, 6, 6, 1, 16);
    run("5x5x5", TN_GOSSIP, "split-ring", 64, 6, 6, 2, 16);
    run("4x4x4", TN_GOSSIP, "split-ring", 7, 6, 6, 1, 12);
    run("2x2x2", TN_GOSSIP, "split-ring", 64, 6, 6, 1, 16);
    run("8x8x1", TN_GOSSIP, "split-ring", 3, 6, 6, 1, 16);
    /* class ring: blocks of unequal lengths, placed by the backtracking search */
    run("7x7x7", TN_GOSSIP, "class-ring", 1, 6, 6, 1, 16);
    run("7x7x7", TN_GOSSIP, "class-ring", 2, 6, 6, 2, 16);
    run("4x4x4", TN_GOSSIP, "class-ring", 3, 6, 6, 1, 16);
    run("8x8x1", TN_GOSSIP, "class-ring", 1, 6, 6, 1, 16);
    run("7x7x7", TN_BROADCAST, "dp", 3, 6, 6, 1, 16);
    run("5x5x5", TN_BROADCAST, "dim", 2, 1, 1, 2, 16);
    run("6x6x6", TN_BROADCAST, "tree", 2, 1, 1, 1, 16);
    run("8x8x1", TN_BROADCAST, "tree", 1, 1, 1, 1, 16);
    test_e2e_plans();
    test_e2e_relay_plans();
    if (tap_full_scale("the 49x49x49 gossips, dp through the stream engine, dp-long refused"))
        test_49();
    test_encoding();
    test_gaps_needed();
    test_refusals();
    test_check_exact();
    test_store_check();
    test_chains();
    test_relay_ring();
    return tap_done();
}
