/* SPDX-License-Identifier: MIT */
/* The `torusctl run` option values read from text (host/run/runopt.c): a
 * --lengths file takes exactly one length per node and refuses what it
 * cannot read whole (a word longer than it keeps was once read as two
 * lengths); --fault specs parse to kind and argument; a payload fault on a
 * node past the torus names nothing (its address once wrapped onto node
 * 0's memory) and a valid one flips exactly one bit. */
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "image.h"
#include "plan.h"
#include "runopt.h"
#include "sched.h"
#include "tap.h"
#include "tn_error.h"

static int lengths(const char *text, uint32_t *len, uint32_t n, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc = tn_lengths_parse(f, len, n, err, errlen);
    fclose(f);
    return rc;
}

static void test_lengths(void)
{
    uint32_t len[4];
    char err[160];
    ok(lengths("# one per node\n0 16777216\t5 # the root's\r\n\n7", len, 4, err, sizeof err) == 0 &&
       len[0] == 0 && len[1] == 16777216 && len[2] == 5 && len[3] == 7,
       "lengths: blanks, tabs, CRLF and comments between 4 values");
    ok(lengths("1 2 3", len, 4, err, sizeof err) == TN_EPARSE &&
       strstr(err, "3 lengths, the torus has 4 nodes"), "lengths: too few refused: %s", err);
    ok(lengths("1 2\n3 4 5", len, 4, err, sizeof err) == TN_EPARSE &&
       strstr(err, "line 2: more than 4 lengths"), "lengths: too many refused: %s", err);
    ok(lengths("1 16777217 3 4", len, 4, err, sizeof err) == TN_EPARSE &&
       strstr(err, "bad length '16777217'"), "lengths: 2^24 + 1 refused: %s", err);
    ok(lengths("1 -2 3 4", len, 4, err, sizeof err) == TN_EPARSE, "lengths: a sign refused");
    ok(lengths("1 2#x\n3 4", len, 4, err, sizeof err) == 0 && len[1] == 2 && len[2] == 3,
       "lengths: a comment right after a value");
    ok(lengths("000000000000000000000000000000000000001 2 3", len, 4, err, sizeof err) ==
           TN_EPARSE && strstr(err, "more than 24 characters"),
       "lengths: a 39-character word is refused, not read as two lengths: %s", err);
}

static void test_fault_parse(void)
{
    struct tn_fault f;
    ok(tn_fault_parse("payload:3", &f) == 0 && f.kind == TN_FAULT_PAYLOAD && f.arg == 3,
       "fault: payload:3");
    ok(tn_fault_parse("duration:0", &f) == 0 && f.kind == TN_FAULT_DURATION && f.arg == 0,
       "fault: duration:0");
    ok(tn_fault_parse("rounds:4294967295", &f) == 0 && f.kind == TN_FAULT_ROUNDS &&
       f.arg == 4294967295u, "fault: rounds:2^32-1");
    ok(tn_fault_parse("link:13:Z-:10:3", &f) == 0 && f.kind == TN_FAULT_LINK &&
       f.link.node == 13 && f.link.dir == TN_ZM && f.link.cycle == 10 && f.link.bit == 3,
       "fault: link:13:Z-:10:3 (node 13, Z-, run cycle 10, bit 3)");
    ok(tn_fault_parse("link:0:X+:281474976710656:drop", &f) == 0 && f.kind == TN_FAULT_LINK &&
       f.link.dir == TN_XP && f.link.cycle == 1ull << 48 && f.link.bit == TN_FAULT_DROP,
       "fault: link:0:X+:2^48:drop");
    static const char *const bad[] = {"rounds:4294967296", "payload", "payload:", "payload:x",
                                      "payload:-1", "pay:1", "payloads:1", ":1", "",
                                      "link:13:Q+:10:3", "link:13:Z-:10", "link:13:Z-:10:3:4",
                                      "link::Z-:10:3", "link:13:Z-: 10:3", "link:13:Z-:+10:3",
                                      "link:4294967296:X+:1:1", "link:1:X+:281474976710657:1",
                                      "link:1:X+:1:64", "link:1:X+:1:dro", "link:1:X+x:1:1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ok(tn_fault_parse(bad[i], &f) == TN_EINVAL && f.kind == TN_FAULT_NONE,
           "fault: '%s' refused", bad[i]);
}

static void test_fault_apply(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "2x2x1");
    struct tn_algo_opts ao = {NULL, 1, 6, 1, 0};
    struct tn_sched *s = NULL;
    struct tn_plan *p = NULL;
    struct tn_info d = {.version = 0x00040000u, .dims = {2, 2, 1}, .w = 16, .lanes = 6,
                        .mem_depth = 4096, .rounds = 16, .alpha = 1, .max_payload = 1024,
                        .proto_version = 1};
    tn_info_set_params(&d, 3u | 14u << 8);
    struct tn_plan_params par = {.lanes = 6, .mem_depth = 4096, .width = 16, .alpha = 1};
    struct tn_image img;
    char err[256];
    if (!ok(tn_build(&s, TN_GOSSIP, &t, &ao) == 0 &&
            tn_plan_lower(&p, s, &par, err, sizeof err) == 0 &&
            tn_image_compile(&img, p, &d, 1, err, sizeof err) == 0,
            "fault: a 2x2 gossip image to corrupt"))
        return;
    uint32_t *before = malloc(img.nwords * sizeof *before);
    memcpy(before, img.words, img.nwords * sizeof *before);
    struct tn_fault f = {.kind = TN_FAULT_PAYLOAD, .arg = 4096};
    ok(tn_fault_apply(&img, &f, p) == TN_EINVAL &&
       memcmp(before, img.words, img.nwords * sizeof *before) == 0,
       "fault: payload:4096 on 4 nodes names nothing and changes nothing (was node 0)");
    f.arg = 4;
    ok(tn_fault_apply(&img, &f, p) == TN_EINVAL, "fault: payload:4 on 4 nodes names nothing");
    f.arg = 3;
    size_t diff = 0;
    ok(tn_fault_apply(&img, &f, p) == 0, "fault: payload:3 applies");
    for (size_t i = 0; i < img.nwords; i++)
        diff += (size_t)__builtin_popcount(before[i] ^ img.words[i]);
    is(diff, 1, "fault: payload:3 flips exactly one bit");
    /* durations: one cycle short of a round longer than the device's
     * shortest, refused (image unchanged) on a round of TN_ROUND_MIN */
    uint32_t *dur = NULL;
    for (size_t i = 0; i < img.nbursts; i++)
        if (img.bursts[i].addr == TN_G_DURATION(0))
            dur = &img.words[img.bursts[i].off];
    if (ok(dur != NULL && p->nrounds >= 2, "fault: the image has %u round durations", p->nrounds)) {
        dur[0] = TN_ROUND_MIN;
        dur[1] = TN_ROUND_MIN + 2;
        f = (struct tn_fault){.kind = TN_FAULT_DURATION, .arg = 1};
        ok(tn_fault_apply(&img, &f, p) == TN_ENOTSUP && dur[0] == TN_ROUND_MIN,
           "fault: duration:1 on a %u-cycle round is refused and changes nothing", TN_ROUND_MIN);
        f.arg = 2;
        ok(tn_fault_apply(&img, &f, p) == 0 && dur[1] == TN_ROUND_MIN + 1 && dur[0] == TN_ROUND_MIN,
           "fault: duration:2 shortens round 2 alone by one cycle");
    }
    f = (struct tn_fault){.kind = TN_FAULT_ROUNDS, .arg = p->nrounds};
    ok(tn_fault_apply(&img, &f, p) == TN_EINVAL, "fault: rounds:%u (all of them) names nothing",
       p->nrounds);
    free(before);
    tn_image_free(&img);
    tn_plan_free(p);
    tn_sched_free(s);
}

int main(void)
{
    test_lengths();
    test_fault_parse();
    test_fault_apply();
    return tap_done();
}
