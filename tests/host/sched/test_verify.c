/* SPDX-License-Identifier: MIT */
/* The verifier rejects seeded faults, each reported with its kind, round,
 * circuit, arc and node, and accepts the unmodified schedules. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a2a.h"
#include "algo.h"
#include "rope.h"
#include "sched.h"
#include "tap.h"
#include "tn_error.h"
#include "verify.h"

static struct tn_sched *build(const char *dims, enum tn_coll coll, const char *algo)
{
    struct tn_topo t;
    struct tn_algo_opts o = {algo, 1, 6, 1, 0};
    struct tn_sched *s = NULL;
    if (tn_topo_parse(&t, dims) || tn_build(&s, coll, &t, &o))
        return NULL;
    return s;
}

/* Is there a violation of this kind (and round/circuit/arc/node when >= 0)? */
static bool has(const struct tn_report *rep, int kind, int32_t round, int32_t circ, int32_t arc,
                int64_t node)
{
    for (uint32_t i = 0; i < rep->nkept; i++) {
        const struct tn_violation *v = &rep->viol[i];
        if (v->kind == kind && (round < 0 || v->round == round) &&
            (circ < 0 || v->circuit == circ) && (arc < 0 || v->arc == arc) &&
            (node < 0 || v->node == node))
            return true;
    }
    return false;
}

static int verify(struct tn_sched *s, unsigned lanes, uint64_t mem, struct tn_report *rep)
{
    struct tn_verify_opts o = {lanes, mem, 1000, false};
    tn_sched_changed(s);
    return tn_verify(s, &o, rep);
}

/* Whether the violation about node v names message id m. */
static bool names_msg(const struct tn_report *rep, uint32_t v, uint32_t m)
{
    char want[80];
    snprintf(want, sizeof want, "node %u never receives message %u", v, m);
    for (uint32_t i = 0; i < rep->nkept; i++)
        if (rep->viol[i].kind == TN_V_MISSING && strcmp(rep->viol[i].text, want) == 0)
            return true;
    return false;
}

/* A schedule without rounds on dims. */
static struct tn_sched *empty(const char *dims, enum tn_coll coll, uint32_t root)
{
    struct tn_topo t;
    struct tn_sched *s = NULL;
    tn_topo_parse(&t, dims);
    tn_sched_new(&s, &t, coll, "none", 1, 6, 1, root);
    return s;
}

/* Completeness of schedules without rounds on a 2x2 torus (root 1): who is
 * complete, which message each incomplete node lacks, null messages
 * excused; all violations counted when fewer are kept. */
static void test_complete_without_rounds(void)
{
    struct tn_report rep;
    struct tn_sched *s = empty("2x2", TN_SCATTER, 1);
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "scatter without rounds rejected");
    ok(rep.complete_nodes == 1 && names_msg(&rep, 0, 0) && names_msg(&rep, 3, 3),
       "scatter: only the root complete, node v lacks message v");
    tn_report_free(&rep);
    uint32_t len[4] = {0, 1, 1, 1};
    tn_sched_set_lengths(s, len, 4);
    verify(s, 0, 0, &rep);
    is(rep.complete_nodes, 2, "scatter: a null message needs no delivery");
    tn_report_free(&rep);
    tn_sched_free(s);
    s = empty("2x2", TN_GATHER, 1);
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "gather without rounds rejected");
    ok(rep.complete_nodes == 3 && rep.nviol == 1 && names_msg(&rep, 1, 0),
       "gather: only the root incomplete, lacking message 0");
    tn_report_free(&rep);
    tn_sched_free(s);
    s = empty("2x2", TN_ALLTOALL, 0);
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "all-to-all without rounds rejected");
    ok(rep.complete_nodes == 0 && names_msg(&rep, 0, 4) && names_msg(&rep, 2, 2),
       "all-to-all: node 0 lacks 1 * 4 + 0, node 2 lacks 0 * 4 + 2");
    tn_report_free(&rep);
    struct tn_verify_opts few = {0, 0, 1, false};
    tn_sched_changed(s);
    tn_verify(s, &few, &rep);
    ok(rep.nviol == 4 && rep.nkept == 1 && names_msg(&rep, 0, 4),
       "all-to-all: 4 violations counted, the first kept with its message");
    tn_report_free(&rep);
    tn_sched_free(s);
}

/* 65,537 circuits of one round from node 0 to node 1: the per-node
 * stream counters once wrapped at 16 bits and listed the nodes twice
 * (a heap overflow, and no lane violation); now each node is reported
 * once. */
static void test_many_streams_one_node(void)
{
    struct tn_report rep;
    struct tn_sched *s = empty("2", TN_GOSSIP, 0);
    tn_sched_add_round(s);
    struct tn_arc a = {0, TN_XP};
    uint32_t one = 1, zero = 0;
    for (uint32_t i = 0; i < 65537; i++)
        tn_sched_add_circuit(s, 0, 0, &a, 1, &one, 1, 0, 0, &zero, 1, 0);
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "65,537 streams from one node rejected");
    /* 65,536 reuses of arc 0 X+, node 0 injecting and node 1 ejecting
     * 65,537 streams on 6 lanes (wrapped, the counters said 1), node 0
     * never receiving message 1 */
    is(rep.nviol, 65536 + 2 + 1, "arc conflicts, one lane violation per node, one missing");
    tn_report_free(&rep);
    tn_sched_free(s);
}

/* Whether rep holds a violation of kind at node naming round r. */
static bool has_at(const struct tn_report *rep, int kind, uint32_t node, int32_t r)
{
    for (uint32_t i = 0; i < rep->nkept; i++)
        if (rep->viol[i].kind == kind && rep->viol[i].node == node && rep->viol[i].round == r)
            return true;
    return false;
}

/* Deliveries of a personalised collective: the liquid all-to-all on 3x3x3
 * is clean; an intermediate node that also ejects a transfer (and never
 * sends it on) is an extra delivery, a transfer sent again a duplicate
 * one, each named by node and round. */
static void test_deliveries(void)
{
    struct tn_report rep;
    struct tn_topo t;
    struct tn_a2a_info info;
    struct tn_sched *s;
    struct tn_a2a_opts o = {TN_A2A_LIQUID, 1, 6, 1, 2, 1};
    tn_topo_parse(&t, "3x3x3");
    if (!ok(tn_a2a_build(&s, &t, &o, &info) == 0, "liquid all-to-all 3x3x3 builds"))
        return;
    is(verify(s, 0, 0, &rep), 0, "... and verifies: every transfer delivered once, to its node");
    tn_report_free(&rep);
    /* a circuit of round 1 with two arcs: its first hop's node ejects too */
    struct tn_circuit *c = NULL;
    for (uint32_t i = 0; i < s->rounds[0].ncirc && !c; i++)
        if (s->rounds[0].circ[i].narcs >= 2)
            c = &s->rounds[0].circ[i];
    if (!ok(c != NULL, "round 1 has a circuit of two hops"))
        return;
    uint32_t mid = tn_neighbor(&t, c->arcs[0].node, c->arcs[0].dir), dst = c->eject[0];
    uint32_t *ej = tn_sched_alloc(s, 2 * sizeof *ej);
    ej[0] = mid;
    ej[1] = dst;
    c->eject = ej;
    c->nej = 2;
    tn_sched_changed(s);
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "an intermediate node that also ejects: rejected");
    ok(has_at(&rep, TN_V_EXTRA, mid, 0) && rep.nviol == 1,
       "... one extra-delivery violation naming node %u and round 1", mid);
    tn_report_free(&rep);
    c->nej = 1;
    c->eject = ej + 1;
    /* the same transfer again in a round of its own */
    uint32_t m = c->msgs ? c->msgs[0] : tn_blk_get(c->stream, 0);
    int r = tn_sched_add_round(s);
    tn_sched_add_circuit(s, (uint32_t)r, c->src, c->arcs, c->narcs, &dst, 1, 0, 1, &m, 1, 0);
    tn_sched_changed(s);
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "a transfer sent twice: rejected");
    ok(has_at(&rep, TN_V_DUPLICATE, dst, r) && rep.nviol == 1,
       "... one duplicate-delivery violation naming node %u and the later round", dst);
    tn_report_free(&rep);
    tn_sched_free(s);
}

int main(void)
{
    struct tn_report rep;
    struct tn_sched *s;

    test_deliveries();

    /* the unmodified schedules are clean */
    s = build("7x7x7", TN_GOSSIP, "dp");
    is(verify(s, 0, 0, &rep), 0, "dp gossip 7x7x7 verifies");
    is(rep.complete_nodes, 343, "every node ends with all 343 messages");
    tn_report_free(&rep);

    /* a reused arc: a copy of circuit 0 of round 2-a */
    struct tn_circuit c0 = s->rounds[1].circ[0];
    uint32_t dup = s->rounds[1].ncirc;
    tn_sched_add_circuit(s, 1, c0.src, c0.arcs, c0.narcs, c0.eject, c0.nej, 0, TN_WHOLE, NULL,
                         0, 0);
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "reused arc rejected");
    ok(has(&rep, TN_V_CONFLICT, 1, (int32_t)dup, 0, c0.arcs[0].node),
       "reused arc reported with round 1, circuit %u, arc 0, node %u", dup, c0.arcs[0].node);
    tn_report_free(&rep);
    tn_sched_free(s);

    /* a broken path: the second arc of a 2-a dipath starts elsewhere */
    s = build("7x7x7", TN_GOSSIP, "dp");
    struct tn_circuit *c = &s->rounds[1].circ[3];
    c->arcs[1].node = (c->arcs[1].node + 7) % 343;
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "broken path rejected");
    ok(has(&rep, TN_V_PATH, 1, 3, 1, c->arcs[1].node),
       "broken path reported with round 1, circuit 3, arc 1, node %u", c->arcs[1].node);
    tn_report_free(&rep);
    tn_sched_free(s);

    /* a missing delivery: drop one final-round multicast */
    s = build("7x7x7", TN_GOSSIP, "dp");
    struct tn_round *last = &s->rounds[3];
    uint32_t lost = last->circ[5].eject[0];
    last->circ[5] = last->circ[--last->ncirc];
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "missing delivery rejected");
    ok(has(&rep, TN_V_MISSING, -1, -1, -1, lost), "missing delivery names node %u", lost);
    is(rep.complete_nodes, 343 - 6, "exactly the six neighbours of that code node are incomplete");
    tn_report_free(&rep);
    tn_sched_free(s);

    /* oversubscribed lanes: the concentration ejects six streams per code
     * node, a single-port device has one lane */
    s = build("7x7x7", TN_GOSSIP, "dp");
    is(verify(s, 1, 0, &rep), TN_EVERIFY, "all-port gossip rejected on one lane");
    ok(has(&rep, TN_V_LANE, 0, -1, -1, 0), "oversubscribed lane reported at round 0, node 0");
    tn_report_free(&rep);
    tn_sched_free(s);
    s = build("4x4x4", TN_GOSSIP, "ring");
    s->ports = 1;
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "ring with two injects per node rejected as single-port");
    ok(has(&rep, TN_V_LANE, 0, -1, -1, 0), "lane violation at round 0, node 0");
    tn_report_free(&rep);
    tn_sched_free(s);

    /* a message the source does not hold */
    s = build("7x7x7", TN_GOSSIP, "dp");
    s->rounds[1].circ[0].mcnt = 8;  /* holds 7 after the concentration */
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "sending unheld messages rejected");
    ok(has(&rep, TN_V_MSG, 1, 0, -1, s->rounds[1].circ[0].src), "reported at round 1, circuit 0");
    tn_report_free(&rep);
    tn_sched_free(s);

    /* an ejecting node off the circuit, a dangling branch */
    s = build("7x7x7", TN_GOSSIP, "dp");
    s->rounds[2].circ[4].eject[0] = s->rounds[2].circ[4].src;
    struct tn_circuit *m = &s->rounds[3].circ[0];
    struct tn_arc extra[7];
    memcpy(extra, m->arcs, 6 * sizeof *extra);
    extra[6].node = m->eject[0];
    extra[6].dir = (uint8_t)m->arcs[0].dir;  /* onward in the same direction */
    tn_sched_add_circuit(s, 3, m->src, extra, 7, m->eject, m->nej, 0, TN_WHOLE, NULL, 0, 0);
    *m = s->rounds[3].circ[--s->rounds[3].ncirc];
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "eject off circuit and dangling branch rejected");
    ok(has(&rep, TN_V_EJECT, 2, 4, -1, s->rounds[2].circ[4].src), "eject off circuit reported");
    ok(has(&rep, TN_V_LEAF, 3, 0, 6, -1), "dangling branch reported at round 3, circuit 0, arc 6");
    tn_report_free(&rep);
    tn_sched_free(s);

    /* arcs that do not exist */
    s = build("7x7x1", TN_GOSSIP, "ring");
    s->rounds[0].circ[0].arcs[0].dir = TN_ZP;
    s->rounds[0].circ[1].arcs[0].node = 49;
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "arcs outside the torus rejected");
    ok(has(&rep, TN_V_ARC, 0, 0, 0, 0), "Z+ on a 7x7x1 torus reported");
    ok(has(&rep, TN_V_ARC, 0, 1, 0, 49), "node 49 of 49 reported");
    tn_report_free(&rep);
    tn_sched_free(s);

    /* memory and duration limits */
    s = build("7x7x7", TN_GOSSIP, "dp");
    s->rounds[3].duration = 10;
    is(verify(s, 0, 100, &rep), TN_EVERIFY, "memory and duration limits enforced");
    ok(has(&rep, TN_V_MEM, -1, -1, -1, 0), "344 words on a 100-word memory reported");
    ok(has(&rep, TN_V_DURATION, 3, -1, -1, -1), "a 10-cycle final round reported (needs 345)");
    tn_report_free(&rep);
    is(verify(s, 0, 344, &rep) == TN_EVERIFY && !has(&rep, TN_V_MEM, -1, -1, -1, -1), 1,
       "344 words fit a 344-word memory");
    tn_report_free(&rep);
    tn_sched_free(s);

    /* broadcast: a missing delivery */
    s = build("5x5x5", TN_BROADCAST, "dim");
    is(verify(s, 0, 0, &rep), 0, "dimension broadcast 5x5x5 verifies");
    tn_report_free(&rep);
    s->rounds[2].ncirc--;
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "broadcast missing a ring rejected");
    is(rep.complete_nodes, 125 - 4, "the four nodes of that ring miss the message");
    tn_report_free(&rep);
    tn_sched_free(s);
    /* an explicit message list sent from a node whose memory is still
     * empty (the layout's flat copy of an empty memory) */
    s = build("5x5x5", TN_BROADCAST, "dim");
    uint32_t far = 124, far_msg = 0, far_next;
    struct tn_arc far_arc = {far, TN_XP};
    far_next = tn_neighbor(&s->topo, far, TN_XP);
    ok(tn_sched_add_circuit(s, 0, far, &far_arc, 1, &far_next, 1, 0, 0, &far_msg, 1, 0) != NULL,
       "a circuit from node 124 in round 0, with message 0 listed");
    is(verify(s, 0, 0, &rep), TN_EVERIFY,
       "sending from an empty memory rejected (not out of memory)");
    ok(has(&rep, TN_V_MSG, 0, (int)s->rounds[0].ncirc - 1, -1, far),
       "reported at round 0, node 124");
    tn_report_free(&rep);
    tn_sched_free(s);
    /* relay streams (one packet: a head flit + 2 payload flits per
     * message): a 4-node ring gossip in two rounds by DOR relays; then
     * streams that meet on an arc in the same cycles, or take a circuit's
     * arc, collide */
    struct tn_topo t4;
    tn_topo_parse(&t4, "4");
    tn_sched_new(&s, &t4, TN_GOSSIP, "relay", 2, 6, 1, 0);
    tn_sched_add_round(s);
    tn_sched_add_round(s);
    for (uint32_t v = 0; v < 4; v++) {
        tn_sched_add_relay(s, 0, v, (v + 1) % 4, 0, TN_WHOLE, NULL, 0, 0);
        tn_sched_add_relay(s, 0, v, (v + 3) % 4, 0, TN_WHOLE, NULL, 0, 0);
        /* round 1: the antipode, both directions held back by start offsets */
        tn_sched_add_relay(s, 1, v, (v + 2) % 4, 0, 1, NULL, 0, v % 2 ? 4 : 0);
    }
    int rc = verify(s, 0, 0, &rep);
    is(rc, 0, "relay gossip on a 4-ring verifies (same arc, disjoint cycles)");
    for (uint32_t i = 0; i < rep.nkept; i++)
        diag("%s", rep.viol[i].text);
    is(rep.complete_nodes, 4, "relay streams deliver: 4 of 4 nodes complete");
    tn_report_free(&rep);
    s->rounds[1].relay[1].start = 3;  /* overlaps stream 0 on arc 1 X+ in cycle 4 */
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "relay streams overlapping in time rejected");
    ok(has(&rep, TN_V_COLLISION, 1, 1, 0, 1), "collision reported: round 1, relay 1, hop 0, node 1");
    tn_report_free(&rep);
    s->rounds[1].relay[1].start = 4;
    struct tn_arc a01 = {0, TN_XP};
    uint32_t one = 1;
    tn_sched_add_circuit(s, 1, 0, &a01, 1, &one, 1, 0, 1, NULL, 0, 0);
    is(verify(s, 0, 0, &rep), TN_EVERIFY, "relay over a circuit's arc rejected");
    ok(has(&rep, TN_V_COLLISION, 1, 0, 0, 0), "collision with the circuit reported on arc 0 X+");
    tn_report_free(&rep);
    tn_sched_free(s);
    test_complete_without_rounds();
    test_many_streams_one_node();
    return tap_done();
}
