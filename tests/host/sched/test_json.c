/* SPDX-License-Identifier: MIT */
/* JSON schedules: export -> import -> export is identical and verifies;
 * each kind of malformed input is refused with its own reason and the
 * line and column of the offending value, and nothing is returned. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "model.h"
#include "plan.h"
#include "sched.h"
#include "sg.h"
#include "tap.h"
#include "tn_error.h"
#include "verify.h"

static char *dump(struct tn_sched *s, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    int rc = tn_sched_write_json(s, f);
    fclose(f);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void roundtrip(const char *dims, enum tn_coll coll, const char *algo, uint32_t L)
{
    struct tn_topo t;
    struct tn_algo_opts o = {algo, L, 6, 2, 0};
    struct tn_sched *s, *s2 = NULL;
    char err[300] = "";
    const char *what = tn_coll_name(coll);
    tn_topo_parse(&t, dims);
    o.root = coll == TN_BROADCAST ? t.n - 1 : 0;
    if (!ok(tn_build(&s, coll, &t, &o) == 0, "%s %s %s builds", what, algo, dims))
        return;
    size_t l1, l2;
    char *j1 = dump(s, &l1);
    int rc = tn_sched_parse_json(&s2, j1, l1, err, sizeof err);
    ok(rc == 0, "%s %s %s: exported JSON imports (%s)", what, algo, dims, err);
    if (rc) {
        free(j1);
        tn_sched_free(s);
        return;
    }
    char *j2 = dump(s2, &l2);
    ok(j2 && l1 == l2 && memcmp(j1, j2, l1) == 0, "%s %s %s: export -> import -> export identical",
       what, algo, dims);
    struct tn_report r1, r2;
    tn_verify(s, NULL, &r1);
    int v2 = tn_verify(s2, NULL, &r2);
    ok(v2 == 0 && r2.cost.cycles == r1.cost.cycles && r2.complete_nodes == t.n,
       "%s %s %s: the imported schedule verifies with the same cost", what, algo,
       dims);
    tn_report_free(&r1);
    tn_report_free(&r2);
    /* dp-long: 49 code vertices, seven pieces of 49 one-message runs each;
     * split-ring 4x4x4: per node 3 parts x (2 + 4) runs after the first
     * (own part, one run per earlier round); more where gaps split a run */
    uint32_t min_chained = strcmp(algo, "dp-long") == 0      ? 49 * 7 * 48
                           : strcmp(algo, "split-ring") == 0 ? 64 * 3 * 6
                                                             : 0;
    if (min_chained) {
        /* explicit message lists become the same device plan: the layout
         * locates the pieces as gathers or runs, which the plan sends as
         * chains of one inject descriptor per run */
        struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 2};
        struct tn_plan *p1 = NULL, *p2 = NULL;
        bool same = tn_plan_lower(&p1, s, &par, err, sizeof err) == 0 &&
                    tn_plan_lower(&p2, s2, &par, err, sizeof err) == 0;
        uint32_t nchained = 0;
        for (uint32_t r = 0; same && r < p1->nrounds; r++) {
            same = p1->rounds[r].ninj == p2->rounds[r].ninj;
            for (uint32_t i = 0; same && i < p1->rounds[r].ninj; i++) {
                const struct tn_inject *a = &p1->rounds[r].inj[i], *b = &p2->rounds[r].inj[i];
                same = a->node == b->node && a->lane == b->lane && a->start == b->start &&
                       a->addr == b->addr && a->len == b->len;
                nchained += i && a->node == a[-1].node && a->lane == a[-1].lane;
            }
        }
        ok(same && nchained >= min_chained, "%s %s: the imported schedule lowers to the same "
           "inject descriptors, %u of them continuing a chain (%s)", algo, dims, nchained, err);
        tn_plan_free(p1);
        tn_plan_free(p2);
    }
    free(j1);
    free(j2);
    tn_sched_free(s);
    tn_sched_free(s2);
}

struct bad {
    const char *what, *text, *expect;
};

/* A valid 2x1x1 gossip to mutate. */
#define HEAD "{\"format\": \"torus-schedule\", \"version\": 1,\n \"dims\": [2, 1, 1], " \
             "\"collective\": \"gossip\", \"algorithm\": \"ring\",\n \"msg_flits\": 1, " \
             "\"ports\": 6, \"alpha\": 1, \"root\": 0,\n \"rounds\": [\n"
#define ROUND(c0, c1) "  {\"duration\": 3, \"circuits\": [\n    " c0 ",\n    " c1 "\n  ]}\n ]}\n"
#define C0 "{\"src\":0,\"start\":0,\"arcs\":[[0,\"X+\"]],\"eject\":[1],\"messages\":[0]}"
#define C1 "{\"src\":1,\"start\":0,\"arcs\":[[1,\"X+\"]],\"eject\":[0],\"messages\":[1]}"

static const struct bad bads[] = {
    {"valid", HEAD ROUND(C0, C1), NULL},
    {"truncated", HEAD "  {\"duration\": 3, \"circuits\": [\n    " C0, "line 6"},
    {"not JSON", "gossip please", "line 1, column"},
    {"wrong format", "{\"format\": \"other\", \"version\": 1}", "format must be"},
    {"wrong version", "{\"format\": \"torus-schedule\", \"version\": 2}", "version 2 out of range"},
    {"dims of wrong type", "{\"format\": \"torus-schedule\", \"version\": 1, \"dims\": \"7x7x7\"}",
     "line 1, column 52: dims: dims must be an array"},
    {"src of wrong type", HEAD ROUND("{\"src\":\"0\",\"arcs\":[[0,\"X+\"]],\"eject\":[1],\"messages\":[0]}", C1),
     "line 6, column 12: rounds[0].circuits[0].src: node must be an integer"},
    {"unknown direction", HEAD ROUND("{\"src\":0,\"arcs\":[[0,\"Q+\"]],\"eject\":[1],\"messages\":[0]}", C1),
     "line 6, column 25: rounds[0].circuits[0].arcs[0][1]: unknown direction \"Q+\""},
    {"arc node out of range", HEAD ROUND(C0, "{\"src\":1,\"arcs\":[[2,\"X+\"]],\"eject\":[0],\"messages\":[1]}"),
     "line 7, column 23: rounds[0].circuits[1].arcs[0][0]: node 2 out of range (0..1)"},
    {"eject out of range", HEAD ROUND(C0, "{\"src\":1,\"arcs\":[[1,\"X+\"]],\"eject\":[7],\"messages\":[1]}"),
     "rounds[0].circuits[1].eject[0]: node 7 out of range"},
    {"message out of range", HEAD ROUND(C0, "{\"src\":1,\"arcs\":[[1,\"X+\"]],\"eject\":[0],\"messages\":[-1]}"),
     "rounds[0].circuits[1].messages[0]: message id -1 out of range"},
    {"missing key", HEAD ROUND(C0, "{\"src\":1,\"arcs\":[[1,\"X+\"]],\"messages\":[1]}"),
     "rounds[0].circuits[1]: missing \"eject\""},
    {"unknown key", HEAD ROUND(C0, "{\"src\":1,\"arcs\":[[1,\"X+\"]],\"eject\":[0],\"messages\":[1],\"prio\":1}"),
     "rounds[0].circuits[1].prio: unknown key \"prio\""},
    {"arc not a pair", HEAD ROUND(C0, "{\"src\":1,\"arcs\":[[1]],\"eject\":[0],\"messages\":[1]}"),
     "rounds[0].circuits[1].arcs[0]: an arc must be [node, direction]"},
    {"duplicate key", HEAD ROUND(C0, "{\"src\":1,\"src\":1,\"arcs\":[[1,\"X+\"]],\"eject\":[0],\"messages\":[1]}"),
     "duplicate object key"},
    {"bad ports", "{\"format\": \"torus-schedule\", \"version\": 1, \"dims\": [2], "
                  "\"collective\": \"gossip\", \"msg_flits\": 1, \"ports\": 3, \"rounds\": []}",
     "ports must be 6 (all-port) or 1 (single-port)"},
    {"bad collective", "{\"format\": \"torus-schedule\", \"version\": 1, \"dims\": [2], "
                       "\"collective\": \"reduce\"}",
     "collective must be \"gossip\", \"broadcast\", \"alltoall\", \"scatter\" or \"gather\""},
    {"p2p collective (its destination is not in the format)",
     "{\"format\": \"torus-schedule\", \"version\": 1, \"dims\": [2], \"collective\": \"p2p\", "
     "\"msg_flits\": 1, \"rounds\": []}",
     "collective: p2p schedules are not read from files"},
    /* a few bytes may not ask for minutes or gigabytes (issue 17) */
    {"too many nodes", "{\"format\": \"torus-schedule\", \"version\": 1, \"dims\": [4096, 4096], "
                       "\"collective\": \"gossip\", \"msg_flits\": 1, \"ports\": 6, \"rounds\": []}",
     "dims: a 4096x4096x1 torus has 16777216 nodes, a schedule file may ask for at most 262144"},
    {"too many message ids", "{\"format\": \"torus-schedule\", \"version\": 1, \"dims\": [4095, 16], "
                             "\"collective\": \"alltoall\", \"msg_flits\": 1, \"ports\": 6, "
                             "\"rounds\": []}",
     "collective: alltoall on 65520 nodes has 4292870400 messages, a schedule file may ask for "
     "at most 16777216"},
    {"most nodes", "{\"format\": \"torus-schedule\", \"version\": 1, \"dims\": [64, 64, 64], "
                   "\"collective\": \"gossip\", \"msg_flits\": 1, \"ports\": 6, \"rounds\": []}",
     NULL},
};

/* jansson accepts a NUL right after a number; locating an error behind
 * one inside an array once spun forever (the scanner stopped on the NUL). */
static void test_nul_after_number(void)
{
    static const char text[] = HEAD "  {\"circuits\": [{\"src\":0,\"arcs\":[[0\0,\"X+\"]],"
                               "\"eject\":[1],\"messages\":[0]}]},\n"
                               "  {\"circuits\": [{\"src\":0,\"arcs\":[],\"eject\":[],"
                               "\"messages\":[9]}]}\n ]}\n";
    struct tn_sched *s = NULL;
    char err[300] = "";
    int rc = tn_sched_parse_json(&s, text, sizeof text - 1, err, sizeof err);
    ok(rc == TN_EPARSE && strstr(err, "line 6, column 59: rounds[1].circuits[0].messages[0]: "
                                      "message id 9 out of range"),
       "an error after a NUL behind a number is located: %s", err);
}

/* Control packets (relay streams of words, the gather's tokens,
 * certificates and orders): the JSON carries their words, a packet with
 * both messages and words is refused. */
static void test_control_packets(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "3x3x3");
    uint32_t len[27];
    for (uint32_t v = 0; v < 27; v++)
        len[v] = v % 5;
    struct tn_sg_opts o = {0, 1, TN_SG_DOR, len, 1, 0, false};
    struct tn_sg_info gi;
    struct tn_sched *s = NULL, *s2 = NULL;
    char err[300] = "";
    if (!ok(tn_gather_build(&s, &t, &o, &gi) == 0, "gather 3x3x3 builds"))
        return;
    size_t l1, l2;
    char *j1 = dump(s, &l1), *j2 = NULL;
    int rc = j1 ? tn_sched_parse_json(&s2, j1, l1, err, sizeof err) : TN_ENOMEM;
    ok(rc == 0 && strstr(j1, "\"words\":["), "the gather's control packets export as words "
                                              "and import (%s)", err);
    if (rc == 0) {
        j2 = dump(s2, &l2);
        const struct tn_relay *x = &s2->rounds[0].relay[0], *y = &s2->rounds[1].relay[0];
        ok(j2 && l1 == l2 && memcmp(j1, j2, l1) == 0 && x->words && x->nwords == 0 &&
               tn_relay_flits(s2, x) == 1 && y->words && y->nwords == 1 &&
               tn_relay_flits(s2, y) == 2,
           "control packets: export -> import -> export identical; the first token a head "
           "alone, the first order a head and its word");
        struct tn_report r1, r2;
        tn_verify(s, NULL, &r1);
        int v2 = tn_verify(s2, NULL, &r2);   /* before r2 is read for the message */
        ok(v2 == 0 && r2.cost.cycles == r1.cost.cycles && r1.cost.cycles > 0,
           "the imported gather verifies with the same cost (%llu cycles)",
           (unsigned long long)r2.cost.cycles);
        tn_report_free(&r1);
        tn_report_free(&r2);
        tn_sched_free(s2);
    }
    free(j1);
    free(j2);
    tn_sched_free(s);
    static const char both[] = HEAD "  {\"circuits\": [], \"relays\": [{\"src\":0,\"dst\":1,"
                               "\"messages\":[0],\"words\":[7]}]}\n ]}\n";
    is(tn_sched_parse_json(&s, both, strlen(both), err, sizeof err), TN_EPARSE,
       "a relay stream with both messages and words refused");
    ok(strstr(err, "either messages or words") != NULL, "%s", err);
}

int main(void)
{
    roundtrip("7x7x7", TN_GOSSIP, "dp", 1);
    roundtrip("7x7x7", TN_GOSSIP, "dp-long", 3);  /* odd L: even L has bank conflicts */
    roundtrip("7x7x7", TN_GOSSIP, "ring", 3);
    roundtrip("3x5x2", TN_GOSSIP, "ring", 1);
    roundtrip("4x4x4", TN_GOSSIP, "split-ring", 5);  /* parts, padding, lists in runs */
    roundtrip("7x7x7", TN_BROADCAST, "dp", 2);
    roundtrip("4x4x4", TN_BROADCAST, "tree", 1);
    roundtrip("1x1x1", TN_GOSSIP, "ring", 1);
    test_nul_after_number();

    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        struct tn_sched *s = (struct tn_sched *)&bads;  /* must stay untouched */
        char err[300] = "";
        int rc = tn_sched_parse_json(&s, bads[i].text, strlen(bads[i].text), err, sizeof err);
        if (!bads[i].expect) {
            ok(rc == 0 && s != (struct tn_sched *)&bads, "%s input loads", bads[i].what);
            if (rc == 0)
                tn_sched_free(s);
            continue;
        }
        ok(rc == TN_EPARSE && strstr(err, bads[i].expect) && s == (struct tn_sched *)&bads,
           "%s refused: %s", bads[i].what, err);
        if (!strstr(err, bads[i].expect))
            diag("expected '%s'", bads[i].expect);
    }

    /* an imported list that is not a contiguous run of the source's memory
     * loads, verifies, and is read as its runs (one inject descriptor each) */
    const char *noncontig = HEAD
        "  {\"circuits\": [\n    " C0 ",\n    " C1 "\n  ]},\n"
        "  {\"circuits\": [\n    {\"src\":0,\"arcs\":[[0,\"X-\"]],\"eject\":[1],\"messages\":[1,0]}\n  ]}\n ]}\n";
    struct tn_sched *s;
    char err[300];
    if (ok(tn_sched_parse_json(&s, noncontig, strlen(noncontig), err, sizeof err) == 0,
           "schedule with a reordered message list loads")) {
        struct tn_report rep;
        is(tn_verify(s, NULL, &rep), 0, "and verifies");
        const struct tn_circuit *c = &s->rounds[1].circ[0];
        ok(c->nruns == 2 && c->runs[0] == 1 && c->runs[1] == 1 && c->runs[2] == 0 &&
               c->runs[3] == 1,
           "read as two runs of node 0's memory: message 1 (word 1), then 0 (word 0)");
        tn_report_free(&rep);
        tn_sched_free(s);
    }
    /* relay streams round-trip too */
    struct tn_topo t4;
    tn_topo_parse(&t4, "4x2");
    tn_sched_new(&s, &t4, TN_GOSSIP, "relay", 1, 6, 1, 0);
    tn_sched_add_round(s);
    for (uint32_t v = 0; v < 8; v++)
        tn_sched_add_relay(s, 0, v, (v + 5) % 8, 0, TN_WHOLE, NULL, 0, v);
    size_t l1, l2;
    char *j1 = dump(s, &l1), *j2 = NULL;
    struct tn_sched *s2;
    if (ok(j1 && strstr(j1, "\"relays\": [") && tn_sched_parse_json(&s2, j1, l1, err, sizeof err) == 0,
           "a schedule with relay streams exports and imports")) {
        j2 = dump(s2, &l2);
        ok(j2 && l1 == l2 && memcmp(j1, j2, l1) == 0 && s2->rounds[0].nrelay == 8 &&
               s2->rounds[0].relay[3].start == 3 && s2->rounds[0].relay[3].dst == 0,
           "relay streams: export -> import -> export identical");
        tn_sched_free(s2);
    }
    free(j1);
    free(j2);
    tn_sched_free(s);
    const char *badrel = HEAD "  {\"circuits\": [], \"relays\": [{\"src\":0,\"dst\":\"1\",\"messages\":[0]}]}\n ]}\n";
    is(tn_sched_parse_json(&s, badrel, strlen(badrel), err, sizeof err), TN_EPARSE,
       "relay with a string destination refused");
    ok(strstr(err, "rounds[0].relays[0].dst: node must be an integer") != NULL, "%s", err);
    test_control_packets();

    /* mutation robustness: a valid schedule with characters replaced or
     * dropped either fails to parse with a position, or loads and then
     * verifies, lowers and models without crashing (run under ASan) */
    {
        struct tn_topo t3;
        struct tn_algo_opts o3 = {"ring", 1, 6, 1, 0};
        struct tn_sched *base;
        tn_topo_parse(&t3, "3x2x1");
        tn_build(&base, TN_GOSSIP, &t3, &o3);
        size_t blen;
        char *btext = dump(base, &blen);
        tn_sched_free(base);
        static const char alphabet[] = "0123456789[]{},:\"-XYZ+ 7";
        unsigned seed = 12345, parsed = 0, refused = 0, sane = 1;
        for (int k = 0; k < 6000; k++) {
            char *m = malloc(blen + 1);
            memcpy(m, btext, blen);
            size_t mlen = blen;
            for (int e = 0; e < 1 + k % 3; e++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = (seed >> 8) % mlen;
                if (k >= 3000) {
                    /* numbers only: node ids, directions' targets, ids */
                    while (at < mlen && (m[at] < '0' || m[at] > '9'))
                        at++;
                    if (at < mlen)
                        m[at] = (char)('0' + (seed >> 20) % 6);
                } else if (seed & 1) {
                    m[at] = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
                } else if (mlen > 1) {
                    memmove(m + at, m + at + 1, mlen - at - 1);
                    mlen--;
                }
            }
            struct tn_sched *ms = NULL;
            char e2[300] = "";
            int rc = tn_sched_parse_json(&ms, m, mlen, e2, sizeof e2);
            if (rc == 0) {
                parsed++;
                struct tn_report rep;
                int v = tn_verify(ms, NULL, &rep);
                sane &= v == 0 || v == TN_EVERIFY;
                tn_report_free(&rep);
                struct tn_plan_params par = {.lanes = 6, .width = 16, .alpha = 1};
                struct tn_plan *p;
                if (v == 0 && tn_plan_lower(&p, ms, &par, e2, sizeof e2) == 0) {
                    struct tn_model_out mo;
                    if (tn_model_run(p, 1, TN_ENGINE_CYCLE, &mo) == 0)
                        tn_model_free(&mo);
                    tn_plan_free(p);
                }
                tn_sched_free(ms);
            } else {
                refused++;
                sane &= rc == TN_EPARSE && strncmp(e2, "line ", 5) == 0;
            }
            free(m);
        }
        free(btext);
        ok(sane && parsed > 0 && refused > 0,
           "6000 mutated files: %u refused with a position, %u loaded and checked", refused,
           parsed);
    }

    is(tn_sched_load_json(&s, "/nonexistent/x.json", err, sizeof err), TN_EIO,
       "missing file is an i/o error: %s", err);
    return tap_done();
}
