/* SPDX-License-Identifier: MIT */
/* Plan lowering and the reference model: the two engines agree bit for
 * bit; totals equal the closed forms; every eject statistic equals an
 * independent prediction from the schedule (first = t0 + alpha + start +
 * depth, count = flits, CRC-32 of the payloads computed here with zlib);
 * crossbar encodings follow docs/hardware.md; capacity limits refuse. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "plan.h"
#include "tap.h"
#include "tn_error.h"

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

static void run(const char *dims, enum tn_coll coll, const char *algo, uint32_t L,
                unsigned ports, unsigned lanes, unsigned alpha, unsigned width)
{
    struct tn_sched *s = build(dims, coll, algo, L, ports, alpha);
    struct tn_plan_params par = {lanes, 0, width, alpha};
    struct tn_plan *p;
    char err[200];
    if (!ok(s && tn_plan_lower(&p, s, &par, err, sizeof err) == 0,
            "%s %s L=%u lanes=%u lowers to a plan", algo, dims, L, lanes)) {
        tn_sched_free(s);
        return;
    }
    struct tn_report prep;
    is(tn_plan_check(p, &prep), 0, "%s %s: the plan passes the independent plan check", algo, dims);
    tn_report_free(&prep);
    struct tn_model_out a, b;
    uint64_t seed = 0x1234 + L;
    int ra = tn_model_run(p, seed, TN_ENGINE_CYCLE, &a);
    int rb = tn_model_run(p, seed, TN_ENGINE_STREAM, &b);
    ok(ra == 0 && rb == 0 && a.nstats == b.nstats && a.total == b.total &&
           memcmp(a.stats, b.stats, a.nstats * sizeof *a.stats) == 0,
       "%s %s L=%u W=%u alpha=%u: cycle and stream engines agree on %u eject statistics", algo,
       dims, L, width, alpha, a.nstats);
    struct tn_cost c;
    struct tn_algo_opts o = {algo, L, ports, alpha, 0};
    tn_algo_cost(coll, algo, &s->topo, &o, &c);
    is(a.total, c.cycles, "%s %s L=%u alpha=%u: model total equals the closed form", algo, dims,
       L, alpha);
    ok(a.errors == 0 && predict_ok(s, p, &a, seed, width),
       "%s %s: every statistic equals the prediction from the schedule", algo, dims);
    tn_model_free(&a);
    tn_model_free(&b);
    tn_plan_free(p);
    tn_sched_free(s);
}

int main(void)
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

    run("7x7x7", TN_GOSSIP, "dp", 1, 6, 6, 1, 16);
    run("7x7x7", TN_GOSSIP, "dp", 4, 6, 6, 2, 32);
    run("7x7x7", TN_GOSSIP, "ring", 3, 6, 6, 1, 8);
    run("7x7x7", TN_GOSSIP, "dp-long", 1, 6, 6, 1, 16);
    run("7x7x7", TN_GOSSIP, "dp-long", 3, 6, 6, 2, 12);
    run("4x4x4", TN_GOSSIP, "ring", 2, 1, 1, 1, 12);
    run("3x3x3", TN_GOSSIP, "ring", 5, 6, 2, 3, 16);
    run("2x2x2", TN_GOSSIP, "ring", 1, 6, 6, 1, 16);
    run("16x1x1", TN_GOSSIP, "ring", 2, 6, 2, 1, 9);
    run("7x7x7", TN_BROADCAST, "dp", 3, 6, 6, 1, 16);
    run("5x5x5", TN_BROADCAST, "dim", 2, 1, 1, 2, 16);
    run("6x6x6", TN_BROADCAST, "tree", 2, 1, 1, 1, 16);
    run("8x8x1", TN_BROADCAST, "tree", 1, 1, 1, 1, 16);

    /* the 49x49x49 gossip through the stream engine */
    struct tn_sched *s = build("49x49x49", TN_GOSSIP, "dp", 1, 6, 1);
    struct tn_plan_params par = {6, 0, 16, 1};
    struct tn_plan *p;
    struct tn_model_out m;
    char err[200];
    if (ok(s && tn_plan_lower(&p, s, &par, err, sizeof err) == 0, "49x49x49 dp lowers")) {
        int rc = tn_model_run(p, 5, TN_ENGINE_STREAM, &m);
        ok(rc == 0 && m.errors == 0 && m.total == 8 + 96 + 139658,
           "49x49x49 dp: stream model runs without errors, %llu = 8 alpha + 96 + 139658 L cycles",
           (unsigned long long)m.total);
        tn_model_free(&m);
        tn_plan_free(p);
    }
    tn_sched_free(s);

    /* the long-message variant at 49x49x49: cycles by the closed form, and
     * the colour pieces' CRCs (memoised selection folds over the ropes)
     * equal the CRCs of the messages the schedule says they carry */
    s = build("49x49x49", TN_GOSSIP, "dp-long", 1, 6, 1);
    if (ok(s && tn_plan_lower(&p, s, &par, err, sizeof err) == 0, "49x49x49 dp-long lowers")) {
        int rc = tn_model_run(p, 7, TN_ENGINE_STREAM, &m);
        ok(rc == 0 && m.errors == 0 && m.total == 10 + 104 + 53908,
           "49x49x49 dp-long: stream model runs without errors, %llu = 10 alpha + 104 + 53908 L "
           "cycles", (unsigned long long)m.total);
        unsigned checked = 0, good = 0;
        uint32_t k0 = 0;
        for (uint32_t r = 0; rc == 0 && r < p->nrounds; r++) {
            const struct tn_plan_round *pr = &p->rounds[r];
            /* rounds 3-a and 3-b of both levels: spot-check a spread of ejects */
            bool split = r == 4 || r == 5 || r == 8 || r == 9;
            for (uint32_t j = 0; split && j < pr->nej; j += pr->nej / 5 + 1) {
                const struct tn_circuit *c = &s->rounds[r].circ[pr->ej[j].circuit];
                checked++;
                good += m.stats[k0 + j].crc == stream_crc(s, c, 7, 16) &&
                        m.stats[k0 + j].count == c->stream->n;
            }
            k0 += pr->nej;
        }
        ok(checked >= 20 && good == checked,
           "49x49x49 dp-long: %u of %u sampled piece CRCs equal the schedule's messages", good,
           checked);
        tn_model_free(&m);
        tn_plan_free(p);
    }
    tn_sched_free(s);

    /* crossbar encoding of a 2-a dipath; lane and memory limits */
    s = build("7x7x7", TN_GOSSIP, "dp", 2, 6, 1);
    if (ok(tn_plan_lower(&p, s, &par, err, sizeof err) == 0, "7x7x7 dp lowers on 6 lanes")) {
        const struct tn_circuit *c = &s->rounds[1].circ[0];
        const uint8_t *x = p->rounds[1].xbar;
        bool enc = true;
        for (uint32_t i = 1; i < c->narcs; i++)
            enc &= x[c->arcs[i].node * 12 + c->arcs[i].dir] == 8 + c->arcs[i - 1].dir;
        const struct tn_inject *in = NULL;
        for (uint32_t i = 0; i < p->rounds[1].ninj; i++)
            if (p->rounds[1].inj[i].node == c->src && p->rounds[1].inj[i].circuit == 0)
                in = &p->rounds[1].inj[i];
        enc &= in && x[c->src * 12 + c->arcs[0].dir] == 1 + in->lane && in->len == 7 * 2 &&
               in->addr == 0;
        uint32_t dst = c->eject[0];
        const uint8_t last_dir = c->arcs[c->narcs - 1].dir;
        bool ejok = false;
        for (int l = 0; l < 6; l++)
            ejok |= x[dst * 12 + 6 + l] == 8 + last_dir;
        ok(enc && ejok, "dipath: inject lane 1+l at the source, input port 8+p along the path, "
                        "eject lane source 8+p at the end");
        /* eject addresses append in input-port order after what is held */
        bool addr = true;
        const struct tn_plan_round *pr = &p->rounds[0];
        for (uint32_t i = 0; i < pr->nej; i++) {
            const struct tn_eject *e = &pr->ej[i];
            uint32_t before = 0;
            for (uint32_t j = 0; j < pr->nej; j++)
                if (pr->ej[j].node == e->node && pr->ej[j].port < e->port)
                    before++;
            addr &= e->addr == 2 * (1 + before) && e->len == 2 && e->lane == before;
        }
        ok(addr, "concentration: code nodes store the six streams after their own, in port order");
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
    uint32_t words[8];
    is(tn_plan_init_mem(p, 9, 5, words, 8), 2, "node 5 starts with its own 2-flit message");
    ok(words[0] == tn_payload(9, 5, 0, 16) && words[1] == tn_payload(9, 5, 1, 16),
       "initial memory holds payload(seed, node, k)");
    uint32_t ids[400];
    is(tn_plan_mem_msgs(p, 4, 0, ids, 400), 343, "node 0 holds 343 messages at the end");
    tn_plan_free(p);
    tn_sched_free(s);

    /* relay streams are lowered (one packet each: head + payload) and the
     * model times them like circuits: the 2-ring exchange by relay */
    struct tn_topo t2;
    tn_topo_parse(&t2, "2");
    tn_sched_new(&s, &t2, TN_GOSSIP, "relay", 1, 6, 1, 0);
    tn_sched_add_round(s);
    tn_sched_add_relay(s, 0, 0, 1, 0, TN_WHOLE, NULL, 0, 0);
    tn_sched_add_relay(s, 0, 1, 0, 0, TN_WHOLE, NULL, 0, 0);
    par.mem_depth = 0;
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
    return tap_done();
}
