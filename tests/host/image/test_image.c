/* SPDX-License-Identifier: MIT */
/* The image compiler loads a plan exactly as docs/hardware.md lays the
 * device out. The image is played into a model of the configuration bus
 * written here from the document (its own shifts, not the compiler's
 * macros), including the two-word entries (a write of word 1 commits the
 * entry with word 0 from the previous write), broadcasts and tables full
 * of stale entries; then every round setting, descriptor list, terminator,
 * record position, memory word (with head and tail flags), duration and
 * NROUNDS is compared with the plan. Devices that cannot run a plan are
 * refused with a message that says what to do. */
#include <stdlib.h>
#include <string.h>

#include "a2a.h"
#include "algo.h"
#include "image.h"
#include "plan.h"
#include "sched.h"
#include "sg.h"
#include "tap.h"
#include "tn_error.h"

/* A fake device's INFO and PARAMS: the 3x3x3 simulator model with a
 * shallower round table (rw = 4 keeps the list offsets readable). */
static struct tn_info fake_info(unsigned x, unsigned y, unsigned z, unsigned lanes, uint32_t rounds)
{
    struct tn_info d = {.version = 0x00040000u, .dims = {x, y, z}, .w = 16, .lanes = lanes,
                        .mem_depth = 4096, .rounds = rounds, .alpha = 1, .max_payload = 1024,
                        .proto_version = 1};
    /* PARAMS: log2 BANKS in bits 3:0, DW in 12:8, RELAY in 16 */
    tn_info_set_params(&d, (lanes > 1 ? 3u : 0u) | 14u << 8 | 1u << 16);
    return d;
}

/* ---- the device's bus, from docs/hardware.md ---- */

struct bus {
    uint32_t n, lanes, rounds, rw, mem;
    uint32_t *cfg;            /* [node][round] */
    uint32_t *inj, *ej;       /* [node][lane][index][word] */
    uint32_t *memw;           /* [node][word] */
    uint32_t *dur, nrounds;
    uint32_t kept;            /* data of the last write */
    unsigned stray;           /* writes the map does not have */
};

static uint32_t *entry(const struct bus *b, uint32_t *tab, uint32_t v, uint32_t l, uint32_t i)
{
    return tab + (((size_t)v * b->lanes + l) * b->rounds + i) * 2;
}

static void bus_init(struct bus *b, const struct tn_info *d, uint32_t n)
{
    unsigned rw = 0;
    while ((1u << rw) < d->rounds)
        rw++;
    *b = (struct bus){n, d->lanes, d->rounds, rw, d->mem_depth, NULL, NULL, NULL, NULL, NULL,
                      0, 0, 0};
    size_t lists = (size_t)n * d->lanes * d->rounds * 2;
    b->cfg = malloc((size_t)n * d->rounds * sizeof *b->cfg);
    b->inj = malloc(lists * sizeof *b->inj);
    b->ej = malloc(lists * sizeof *b->ej);
    b->memw = calloc((size_t)n * d->mem_depth, sizeof *b->memw);
    b->dur = calloc(d->rounds, sizeof *b->dur);
    /* stale state of an earlier load: every entry valid, every select set */
    for (size_t k = 0; k < (size_t)n * d->rounds; k++)
        b->cfg[k] = 0x00999999u;
    for (size_t k = 0; k < lists; k += 2) {
        b->inj[k] = b->ej[k] = 0x80000000u | (uint32_t)(k / 2 % d->rounds) << 16;
        b->inj[k + 1] = b->ej[k + 1] = 1u << 16;
    }
}

static void bus_free(struct bus *b)
{
    free(b->cfg);
    free(b->inj);
    free(b->ej);
    free(b->memw);
    free(b->dur);
}

static void node_write(struct bus *b, uint32_t v, uint32_t addr, uint32_t data)
{
    uint32_t region = addr >> 16 & 0xF, off = addr & 0xFFFF;
    uint32_t lane = off >> (b->rw + 1), index = off >> 1 & (b->rounds - 1);
    if (region == 0 && off < b->mem)
        b->memw[(size_t)v * b->mem + off] = data;
    else if (region == 1 && off < b->rounds)
        b->cfg[(size_t)v * b->rounds + off] = data;
    else if ((region == 2 || region == 3) && lane < b->lanes) {
        if (off & 1) { /* word 1 commits the entry, word 0 = the kept data */
            uint32_t *e = entry(b, region == 2 ? b->inj : b->ej, v, lane, index);
            e[0] = b->kept;
            e[1] = data;
        }
    } else
        b->stray++;
}

static void bus_write(struct bus *b, uint32_t addr, uint32_t data)
{
    uint32_t node = addr >> 20, off = addr & 0xFFFFF;
    if (node == 0xFFF && off == 0x011)
        b->nrounds = data;
    else if (node == 0xFFF && off >= 0x8000 && off < 0x8000 + b->rounds)
        b->dur[off - 0x8000] = data;
    else if (node == 0xFFE)
        for (uint32_t v = 0; v < b->n; v++)
            node_write(b, v, addr, data);
    else if (node < b->n)
        node_write(b, node, addr, data);
    else
        b->stray++;
    b->kept = data;
}

/* Play the image as the bridge executes it: bursts in order, each cut into
 * WRITE frames of max_payload / 4 - 1 words. Returns false if a frame would
 * split a descriptor entry (word 0 and word 1 in different frames). */
static bool play(struct bus *b, const struct tn_image *img, const struct tn_info *d)
{
    uint32_t frame = d->max_payload / 4 - 1;
    bool whole = true;
    for (size_t i = 0; i < img->nbursts; i++) {
        const struct tn_image_burst *bu = &img->bursts[i];
        uint32_t region = bu->addr >> 16 & 0xF;
        if ((bu->addr >> 20) < 0xFFF && (region == 2 || region == 3))
            whole &= (bu->addr & 1) == 0 && bu->n % 2 == 0 && bu->n <= frame;
        for (uint32_t k = 0; k < bu->n; k++)
            bus_write(b, bu->addr + k, img->words[bu->off + k]);
    }
    return whole;
}

/* The broadcast burst (node 0xFFE) at index 0 of lane's list in region
 * (RW 4), or NULL. */
static const struct tn_image_burst *broadcast_ends(const struct tn_image *img, uint32_t region,
                                                   uint32_t lane)
{
    for (size_t i = 0; i < img->nbursts; i++)
        if (img->bursts[i].addr == (0xFFEu << 20 | region << 16 | lane << 5))
            return &img->bursts[i];
    return NULL;
}

/* ---- the plan's lists, as the document orders them ---- */

/* Expected words of lane l's inject list of node v: the plan's
 * descriptors in increasing (round, start) order, encoded per the tables of
 * docs/hardware.md (a relay descriptor's hop in bits 29:27, the round in
 * 26:16). Returns the count. */
static uint32_t expect_list(const struct tn_plan *p, uint32_t v, uint32_t l, uint32_t *w,
                            uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        uint32_t first = n;
        for (uint32_t i = 0; i < pr->ninj && n < cap; i++) {
            const struct tn_inject *in = &pr->inj[i];
            if (in->node != v || in->lane != l)
                continue;
            uint32_t start = in->start;
            uint32_t hop = in->relay ? in->hop : 0;  /* bits 29:27, relay only */
            uint32_t w0 = 1u << 31 | (uint32_t)in->relay << 30 | hop << 27 | r << 16 | in->start;
            uint32_t w1 = in->len << 16 | in->addr;
            /* insert in start order within the round (chains) */
            uint32_t k = n;
            while (k > first && (w[2 * (k - 1)] & 0xFFFF) > start) {
                w[2 * k] = w[2 * (k - 1)];
                w[2 * k + 1] = w[2 * (k - 1) + 1];
                k--;
            }
            w[2 * k] = w0;
            w[2 * k + 1] = w1;
            n++;
        }
    }
    return n;
}

/* Every lane's inject list on the bus equals the plan's, ended by an
 * invalid entry (or full). */
static bool lists_match(const struct bus *b, const struct tn_plan *p)
{
    uint32_t *want = malloc((size_t)b->rounds * 2 * sizeof *want);
    bool same = true;
    for (uint32_t v = 0; v < b->n; v++)
        for (uint32_t l = 0; l < b->lanes; l++) {
            uint32_t n = expect_list(p, v, l, want, b->rounds);
            const uint32_t *e = entry(b, b->inj, v, l, 0);
            same &= n == 0 || memcmp(e, want, (size_t)n * 2 * sizeof *e) == 0;
            same &= n == b->rounds || !(e[2 * n] >> 31);
        }
    free(want);
    return same;
}

/* Every lane's eject table on the bus: the plan's descriptor of each round
 * of the run at index round (valid | relay << 30 | port, len << 16 |
 * addr), and invalid where the plan has none. */
static bool ejects_match(const struct bus *b, const struct tn_plan *p)
{
    bool same = true;
    for (uint32_t v = 0; v < b->n; v++)
        for (uint32_t l = 0; l < b->lanes; l++)
            for (uint32_t r = 0; r < p->nrounds; r++) {
                uint32_t w0 = 0, w1 = 0;
                for (uint32_t i = 0; i < p->rounds[r].nej; i++) {
                    const struct tn_eject *e = &p->rounds[r].ej[i];
                    if (e->node != v || e->lane != l)
                        continue;
                    bool relay = e->port == TN_PORT_RELAY;
                    w0 = 1u << 31 | (uint32_t)relay << 30 | (relay ? 0 : e->port);
                    w1 = e->len << 16 | e->addr;
                }
                const uint32_t *e = entry(b, b->ej, v, l, r);
                same &= e[0] == w0 && (!(w0 >> 31) || e[1] == w1);
            }
    return same;
}

static bool cfg_match(const struct bus *b, const struct tn_plan *p)
{
    bool same = true;
    for (uint32_t r = 0; r < p->nrounds; r++)
        for (uint32_t v = 0; v < b->n; v++) {
            uint32_t w = 0;
            for (uint32_t o = 0; o < 6; o++)
                w |= (uint32_t)p->rounds[r].xbar[(size_t)v * 12 + o] << (4 * o);
            same &= b->cfg[(size_t)v * b->rounds + r] == w;
        }
    return same;
}

/* Each eject descriptor's record is read from its round's record in its
 * lane's region (tn_rec_off: 3 words from lane << (RW + 2) | 3 round): the
 * span holding pos[k] starts at a record of the same list and round. The
 * spans follow each other in the words, start and end with a record of a
 * descriptor, and read through at most TN_REC_GAP rounds without one. */
static bool records_match(const struct bus *b, const struct tn_plan *p, const struct tn_info *d)
{
    struct tn_rec_spans rs;
    if (tn_image_record_spans(p, d, TN_REC_GAP, &rs) != 0)
        return false;
    size_t *start = malloc((rs.nsp + 1) * sizeof *start);  /* each span's first word */
    uint8_t *used = calloc(rs.nwords / 3 + 1, 1);           /* records of a descriptor */
    bool same = start != NULL && used != NULL;
    for (size_t j = 0, at = 0; same && j <= rs.nsp; at += j < rs.nsp ? rs.sp[j].n : 0, j++)
        start[j] = at;
    same &= same && start[rs.nsp] == rs.nwords;
    for (uint32_t r = 0, k = 0; same && r < p->nrounds; r++)
        for (uint32_t i = 0; i < p->rounds[r].nej; i++, k++) {
            const struct tn_eject *e = &p->rounds[r].ej[i];
            const uint32_t *en = entry(b, b->ej, e->node, e->lane, r);
            same &= (en[0] >> 31) && (en[1] & 0xFFFF) == e->addr;
            size_t j = 0;
            while (j + 1 < rs.nsp && start[j + 1] <= rs.pos[k])
                j++;
            size_t off = rs.pos[k] - start[j];
            same &= rs.pos[k] < rs.nwords && off % 3 == 0 && off < rs.sp[j].n;
            same &= rs.sp[j].addr + off ==
                    ((uint32_t)e->node << 20 | 4u << 16 | (uint32_t)e->lane << (b->rw + 2) | r * 3);
            used[rs.pos[k] / 3] = 1;
        }
    for (size_t j = 0; same && j < rs.nsp; j++) {
        size_t gap = 0;
        same &= rs.sp[j].words == NULL && used[start[j] / 3] && used[(start[j + 1] - 3) / 3];
        for (size_t w = start[j]; w < start[j + 1]; w += 3) {
            gap = used[w / 3] ? 0 : gap + 1;
            same &= gap <= TN_REC_GAP;
        }
    }
    free(start);
    free(used);
    tn_rec_spans_free(&rs);
    return same;
}

static bool durations_match(const struct bus *b, const struct tn_plan *p)
{
    bool same = b->nrounds == p->nrounds;
    for (uint32_t r = 0; r < p->nrounds; r++)
        same &= b->dur[r] == p->rounds[r].duration;
    return same;
}

static struct tn_plan *lower(struct tn_sched *s, const struct tn_info *d)
{
    struct tn_plan_params par = {.lanes = d->lanes, .mem_depth = d->mem_depth, .width = d->w,
                                 .alpha = d->alpha, .banks = d->banks};
    struct tn_plan *p = NULL;
    char err[256];
    if (tn_plan_lower(&p, s, &par, err, sizeof err) != 0)
        diag("lowering failed: %s", err);
    return p;
}

/* ---- tests ---- */

static void test_formats(void)
{
    struct tn_info d = fake_info(3, 3, 3, 6, 16);
    is(d.banks, 8, "PARAMS bits 3:0 = 3: 8 banks");
    is(d.dw, 14, "PARAMS bits 12:8: DW 14");
    is(d.relay, 1, "PARAMS bit 16: relay hardware");
    is(tn_list_off(&d, 5, 3), 5 << 5 | 3 << 1, "list offset lane << (RW+1) | index << 1 (RW 4)");
    is(tn_rec_off(&d, 5, 3), 5 << 6 | 3 * 3, "record offset lane << (RW+2) | 3 index");
    is(tn_rec_off(&d, 0, 15) + TN_REC_WORDS, 3 * 16, "lane 0's records end at row 3 ROUNDS (RW 4), ...");
    is(tn_rec_off(&d, 1, 0), 1 << 6, "... lane 1's begin at 1 << (RW + 2)");
    uint32_t w[TN_REC_WORDS] = {0x3u << 28 | 0x5u << 16 | 0x1FFF, 0x0123u << 16 | 0x0045, 0xDEADBEEF};
    struct tn_record rec;
    tn_record_decode(w, &rec);
    ok(rec.epoch == 3 && rec.err == 5 && rec.count == 0x1FFF && rec.last == 0x123 &&
       rec.first == 0x45 && rec.crc == 0xDEADBEEF,
       "a record decodes as epoch 31:28, errors 18:16, count 15:0, last/first, CRC");
    is(tn_record_count_mask(&d), 0x1FFF, "MEM_DEPTH 4096: 13-bit record counts");
    uint32_t st[TN_ST_WORDS] = {0};
    char buf[256];
    st[0] = 1u << 7 | 1u;
    st[1] = 2;
    st[9] = 3;
    tn_status_describe(st, buf, sizeof buf);
    ok(strcmp(buf, "overrun, bank conflict (3 flits lost)") == 0,
       "status FLAGS bit 7 is a bank conflict, shown with its counter: %s", buf);
}

/* Inject descriptor word 0 (design version 4): valid 31, relay 30, a relay
 * descriptor's hop 29:27, round 26:16, start 15:0, side by side without
 * overlap at their extremes; a circuit descriptor's hop bits are 0. */
static void test_inject_words(void)
{
    is(TN_DESIGN_VERSION, 0x00040000u, "the host loads design version 4 (0x00040000)");
    struct tn_inject in = {.node = 0, .lane = 0, .start = 0xFFFF, .addr = 0x1234, .len = 7,
                           .relay = 1, .hop = 5};
    uint32_t w[TN_DESC_WORDS];
    tn_desc_inject(&in, 2047, w);
    is(w[0], 1u << 31 | 1u << 30 | 5u << 27 | 2047u << 16 | 0xFFFFu,
       "relay, hop 5 (Z+), round 2047, start 0xFFFF: word 0 = 1 << 31 | 1 << 30 | 5 << 27 | "
       "2047 << 16 | 0xFFFF");
    is(w[1], 7u << 16 | 0x1234u, "word 1: length 7 << 16 | first word 0x1234");
    ok(TN_DESC_HOP_OF(w[0]) == 5 && TN_DESC_ROUND_OF(w[0]) == 2047 && (w[0] & 0xFFFFu) == 0xFFFF,
       "TN_DESC_HOP_OF and TN_DESC_ROUND_OF read back hop 5 and round 2047");
    bool apart = true;
    for (unsigned h = 0; h < 8; h++) {
        in.hop = (uint8_t)h;
        tn_desc_inject(&in, 2047, w);
        apart &= w[0] >> 27 == (0x18u | h) && (w[0] >> 16 & 0x7FFu) == 2047;
        tn_desc_inject(&in, 0, w);
        apart &= w[0] >> 27 == (0x18u | h) && (w[0] >> 16 & 0x7FFu) == 0;
    }
    ok(apart, "every hop 0..7 beside rounds 0 and 2047: bits 29:27 hold the hop, 26:16 the "
       "round, neither touches the other");
    in.relay = 0;
    in.hop = 7;
    tn_desc_inject(&in, 3, w);
    is(w[0], 1u << 31 | 3u << 16 | 0xFFFFu, "a circuit descriptor: bits 30:27 are 0 whatever "
       "its hop field holds");
}

/* Compile p for d, play it into a stale device, check every table. */
static void check_load(const char *what, const struct tn_plan *p, const struct tn_info *d,
                       uint64_t seed)
{
    struct tn_image img;
    char err[256] = "";
    struct bus b;
    is(tn_image_compile(&img, p, d, seed, err, sizeof err), 0, "%s: compiles (%s)", what, err);
    bus_init(&b, d, p->topo.n);
    ok(play(&b, &img, d), "%s: descriptor bursts hold whole entries within one WRITE frame",
       what);
    is(b.stray, 0, "%s: every write lands on a mapped address", what);
    ok(cfg_match(&b, p), "%s: CFG word of every node and round = selects << 4o",
       what);
    ok(lists_match(&b, p), "%s: inject lists = the plan's in (round, start) order, "
       "valid | relay << 30 | hop << 27 (relay) | round << 16 | start, len << 16 | addr, then "
       "a terminator", what);
    ok(ejects_match(&b, p), "%s: eject tables = the plan's at index round, valid | relay << "
       "30 | port, len << 16 | addr; invalid in the run's other rounds", what);
    ok(records_match(&b, p, d), "%s: each eject descriptor's record read from its round's "
       "record, in spans that skip runs of more than TN_REC_GAP rounds without one", what);
    ok(durations_match(&b, p), "%s: DURATION[r] at 0xFFF08000 + r and NROUNDS", what);
    bus_free(&b);
    tn_image_free(&img);
}

static void test_gossip(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "3x3x3");
    struct tn_algo_opts ao = {"ring", 2, 6, 1, 0};
    struct tn_sched *s;
    if (tn_build(&s, TN_GOSSIP, &t, &ao) != 0) {
        ok(0, "build the 3x3x3 ring gossip");
        return;
    }
    struct tn_info d = fake_info(3, 3, 3, 6, 16);
    struct tn_plan *p = lower(s, &d);
    if (p == NULL) {
        ok(0, "lower the 3x3x3 gossip");
        tn_sched_free(s);
        return;
    }
    check_load("3x3x3 ring gossip L=2", p, &d, 7);

    struct tn_image img;
    char err[256] = "";
    tn_image_compile(&img, p, &d, 7, err, sizeof err);
    const struct tn_image_burst *b0 = &img.bursts[0];
    ok(b0->addr == (0xFFEu << 20 | 1u << 16) && b0->n == p->nrounds,
       "first burst: one broadcast (node 0xFFE) of the used rounds' CFG words");
    const struct tn_image_burst *bt = broadcast_ends(&img, 2, 0);
    bool term = true;
    for (uint32_t k = 0; k < 2 * d.lanes; k++) {
        const struct tn_image_burst *b = broadcast_ends(&img, 2 + k / d.lanes, k % d.lanes);
        term &= b != NULL && b->n >= 2 && b->n % 2 == 0;
        for (uint32_t i = 0; b != NULL && i < b->n; i++)
            term &= img.words[b->off + i] == 0;
    }
    ok(term, "a broadcast of zero entries from index 0 of every lane's INJ list (terminators) "
       "and EJ table (no descriptor)");
    ok(bt != NULL && bt->n == 2 * 4, "lists of at most 3 entries: the broadcast ends them all "
       "(indices 0..3)");
    struct bus bus;
    bus_init(&bus, &d, t.n);
    play(&bus, &img, &d);
    bool mok = true;
    uint32_t words[16];
    for (uint32_t v = 0; v < t.n; v++) {
        uint32_t k = tn_plan_init_mem(p, 7, v, words, 16);
        mok &= k == 2;
        for (uint32_t i = 0; i < k; i++)
            mok &= bus.memw[(size_t)v * 4096 + i] == tn_payload(7, v, i, 16);
    }
    ok(mok, "each node's memory starts with its own message's payload (seed 7), no flags");
    bus_free(&bus);
    size_t words_cfg = 0;
    for (size_t i = 0; i < img.nbursts; i++)
        if ((img.bursts[i].addr >> 16 & 0xF) == 1 && img.bursts[i].addr >> 20 < 0xFFE)
            words_cfg += img.bursts[i].n;
    ok(words_cfg <= (size_t)t.n * p->nrounds, "per node at most one CFG word per round (%zu)",
       words_cfg);
    is(tn_image_bytes(&img), img.nwords * 4, "image size is 4 bytes per word");
    tn_image_free(&img);

    /* Devices that cannot run it. */
    struct {
        const char *what;
        struct tn_info d;
        int rc;
        const char *says;
    } bad[] = {
        {"an older design", d, TN_ENOTSUP, "rebuild the simulator models"},
        {"too few ROUNDS", d, TN_ECAPACITY, "ROUNDS >= 3"},
        {"too little memory", d, TN_ECAPACITY, "MEM_DEPTH >= 54"},
        {"other dims", d, TN_ENOTSUP, "3x3x4"},
        {"LANES=1", d, TN_ECAPACITY, "--ports 1"},
        {"other banks", d, TN_EINVAL, "4 banks"},
        {"other W", d, TN_EINVAL, "W=8"},
        {"DW 2 (rounds of at most 3 cycles)", d, TN_ECAPACITY, "2-bit round table"},
    };
    bad[0].d.version = 0x00010000u;
    bad[1].d.rounds = 2;
    bad[2].d.mem_depth = 32;
    bad[3].d.dims[2] = 4;
    bad[4].d.lanes = 1;
    bad[5].d.banks = 4;
    bad[6].d.w = 8;
    bad[7].d.dw = 2;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        err[0] = '\0';
        is(tn_image_check(p, &bad[k].d, err, sizeof err), bad[k].rc, "%s: refused", bad[k].what);
        ok(strstr(err, bad[k].says) != NULL, "%s: the message says '%s': %s", bad[k].what,
           bad[k].says, err);
    }
    /* start offsets beyond DW bits (durations kept within) */
    struct tn_info d2 = d;
    d2.dw = 8;
    uint32_t s0 = p->rounds[0].inj[0].start;
    p->rounds[0].inj[0].start = 256;
    is(tn_image_check(p, &d2, err, sizeof err), TN_ECAPACITY, "a start offset of 2^DW "
       "beyond DW bits: refused");
    ok(strstr(err, "offset 256") != NULL, "the message names the offset: %s", err);
    p->rounds[0].inj[0].start = s0;
    /* a lane with more descriptors than the lists hold (a chain of every
     * stream of round 0 on node 0 lane 0) */
    d2 = d;
    d2.rounds = 4;
    for (uint32_t i = 0; i < p->rounds[0].ninj; i++) {
        p->rounds[0].inj[i].node = 0;
        p->rounds[0].inj[i].lane = 0;
        p->rounds[0].inj[i].start = i;
    }
    is(tn_image_check(p, &d2, err, sizeof err), TN_ECAPACITY,
       "an inject list longer than ROUNDS: refused");
    ok(strstr(err, "node 0 inject lane 0 needs") != NULL, "the message names node and lane: %s",
       err);
    /* the same chain in lists of 64: one long list among short ones ends
     * each list on its own */
    d2.rounds = 64;
    check_load("one long chain", p, &d2, 7);
    tn_image_compile(&img, p, &d2, 7, err, sizeof err);
    const struct tn_image_burst *b1 = broadcast_ends(&img, 2, 0);
    ok(b1 != NULL && b1->n == 2, "a list far longer than the others: lane 0's broadcast ends "
       "only index 0, each list gets its own terminator");
    tn_image_free(&img);
    tn_plan_free(p);
    tn_sched_free(s);
}

/* Lists exactly ROUNDS long get no terminator (it would be the next
 * lane's entry 0): ring gossip on 3x3x1 uses lanes 0 and 1 in both rounds
 * of a 2-round table. */
static void test_full_lists(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "3x3x1");
    struct tn_algo_opts ao = {"ring", 1, 6, 1, 0};
    struct tn_sched *s;
    if (tn_build(&s, TN_GOSSIP, &t, &ao) != 0) {
        ok(0, "build the 3x3x1 ring gossip");
        return;
    }
    struct tn_info d = fake_info(3, 3, 1, 6, 2);
    struct tn_plan *p = lower(s, &d);
    if (p != NULL) {
        is(p->nrounds, 2, "3x3x1 ring gossip: 2 rounds");
        check_load("3x3x1 ring gossip, full 2-entry lists", p, &d, 3);
    }
    tn_plan_free(p);
    tn_sched_free(s);
}

/* A relay plan: staged packets carry head and tail in bits 30 and 31, the
 * DOR mode bit is set, relay descriptors have bit 30 and their heads'
 * first hop in bits 29:27. A device without relay hardware refuses it. */
static void test_relay(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "3x3x3");
    uint32_t len[27];
    for (uint32_t v = 0; v < 27; v++)
        len[v] = v % 3 + 1;
    struct tn_sg_opts so = {0, 1, TN_SG_DOR, len, 1, 0, false};
    struct tn_sg_info si;
    struct tn_sched *s;
    if (tn_scatter_build(&s, &t, &so, &si) != 0) {
        ok(0, "build the 3x3x3 scatter");
        return;
    }
    /* the single-port root sends its 26 packets back to back, one inject
     * descriptor per run of packets with one first hop (FDF keeps the
     * packets of one distance and one first hop together): at most 3
     * distances x 6 hops, and a 16-entry list holds them */
    struct tn_info d = fake_info(3, 3, 3, 6, 16);
    struct tn_plan *p = lower(s, &d);
    if (p == NULL) {
        ok(0, "lower the scatter");
        tn_sched_free(s);
        return;
    }
    struct tn_image img;
    char err[256] = "";
    ok(p->rounds[0].ninj < 16, "3x3x3 single-port scatter: %u inject descriptors at the root, "
       "fewer than a 16-entry list holds", p->rounds[0].ninj);
    check_load("3x3x3 scatter (relay)", p, &d, 5);
    struct bus b;
    tn_image_compile(&img, p, &d, 5, err, sizeof err);
    bus_init(&b, &d, t.n);
    play(&b, &img, &d);
    unsigned hops = 0;  /* the first hops of the root's relay entries on the bus */
    const uint32_t *e = entry(&b, b.inj, 0, 0, 0);
    for (uint32_t i = 0; i < b.rounds && e[2 * i] >> 31; i++)
        hops |= (e[2 * i] >> 30 & 1) << (e[2 * i] >> 27 & 7);
    is(hops, 0x3F, "the root's relay entries name all six first hops X+..Z- in bits 29:27 "
       "(mask of the hops seen)");
    bool fok = p->nstage > 0;
    for (uint32_t i = 0; i < p->nstage; i++) {
        uint32_t data[64];
        uint8_t fl[64];
        uint32_t n = tn_plan_stage_words(p, i, 5, data, fl, 64);
        const uint32_t *m = &b.memw[(size_t)p->stage[i].node * 4096 + p->stage[i].addr];
        for (uint32_t k = 0; k < n && k < 64; k++)
            fok &= m[k] == (data[k] | (uint32_t)(k == 0) << 30 | (uint32_t)(k == n - 1) << 31);
    }
    ok(fok, "staged packets: data, head at bit 30 of the first word, tail at bit 31 of the last");
    bool sel_only = true;
    for (uint32_t r = 0; r < p->nrounds; r++)
        sel_only &= b.cfg[r] >> 24 == 0;
    ok(sel_only, "CFG words of every round hold the six selects only (bits 24-31 are 0, node 0)");
    bus_free(&b);
    tn_image_free(&img);
    d.relay = 0;
    is(tn_image_check(p, &d, err, sizeof err), TN_ENOTSUP, "no relay hardware: refused");
    ok(strstr(err, "RELAY=1") != NULL, "the message says what to use: %s", err);
    tn_plan_free(p);
    tn_sched_free(s);
}

/* The all-to-all of kind on dims (L 1, alpha 1) lowered for d; *s its
 * schedule (free both). NULL, after a failed test line, if it cannot be. */
static struct tn_plan *a2a_plan(const char *dims, enum tn_a2a_kind kind, unsigned ports,
                                const struct tn_info *d, struct tn_sched **s)
{
    struct tn_topo t;
    tn_topo_parse(&t, dims);
    struct tn_a2a_opts o = {kind, 1, ports, 1, 1.0, 1};
    struct tn_a2a_info ai;
    if (tn_a2a_build(s, &t, &o, &ai) != 0) {
        ok(0, "build the %s all-to-all", dims);
        *s = NULL;
        return NULL;
    }
    return lower(*s, d);
}

/* Long lists in small frames: the 26-step round-robin all-to-all fills
 * lists of up to 26 entries; a bridge with 64-byte frames (15 words per
 * WRITE) gets them in bursts of at most 7 whole entries. */
static void test_small_frames(void)
{
    struct tn_info d = fake_info(3, 3, 3, 6, 32);
    d.max_payload = 64;
    struct tn_sched *s;
    struct tn_plan *p = a2a_plan("3x3x3", TN_A2A_RR, 1, &d, &s);
    if (p != NULL)
        check_load("3x3x3 round-robin all-to-all, 64-byte frames", p, &d, 9);
    tn_plan_free(p);
    tn_sched_free(s);
}

/* Sparse records: in the 4x4x4 liquid all-to-all a lane ejects in few of
 * the rounds, so the readback's spans (records_match: no run of more than
 * TN_REC_GAP rounds without a record read) read a fraction of what each
 * list from its round 0 to its last record would. */
static void test_sparse_records(void)
{
    struct tn_info d = fake_info(4, 4, 4, 6, 128);
    struct tn_sched *s;
    struct tn_plan *p = a2a_plan("4x4x4", TN_A2A_LIQUID, 6, &d, &s);
    struct tn_rec_spans rs;
    if (p == NULL || tn_image_record_spans(p, &d, TN_REC_GAP, &rs) != 0) {
        ok(0, "lower the 4x4x4 liquid all-to-all and place its records");
        tn_plan_free(p);
        tn_sched_free(s);
        return;
    }
    check_load("4x4x4 liquid all-to-all", p, &d, 7);
    /* each list from its round 0 to its last record, in words */
    uint32_t last[64 * TN_MAX_LANES] = {0};
    size_t records = 0, whole = 0;
    for (uint32_t r = 0; r < p->nrounds; r++)
        for (uint32_t i = 0; i < p->rounds[r].nej; i++, records++)
            last[p->rounds[r].ej[i].node * TN_MAX_LANES + p->rounds[r].ej[i].lane] = r + 1;
    for (size_t k = 0; k < 64 * TN_MAX_LANES; k++)
        whole += (size_t)last[k] * TN_REC_WORDS;
    ok(rs.nwords < whole / 2 && rs.nwords >= records * TN_REC_WORDS,
       "4x4x4 liquid all-to-all: %zu records read as %zu words, not %zu (each list from round 0)",
       records, rs.nwords, whole);
    size_t sparse = rs.nwords;
    tn_rec_spans_free(&rs);
    /* one READ at a time (a board): each list whole, first to last record */
    size_t lists = 0;
    for (size_t k = 0; k < 64 * TN_MAX_LANES; k++)
        lists += last[k] != 0;
    if (tn_image_record_spans(p, &d, UINT32_MAX, &rs) == 0) {
        ok(rs.nsp == lists && rs.nwords > sparse && rs.nwords <= whole,
           "4x4x4 liquid all-to-all, gap unbounded: a span per list (%zu of %zu), %zu words",
           rs.nsp, lists, rs.nwords);
        tn_rec_spans_free(&rs);
    }
    tn_plan_free(p);
    tn_sched_free(s);
}

/* The 7x7x7 paper gossip: the image stays small. */
static void test_size(void)
{
    struct tn_topo t;
    tn_topo_parse(&t, "7x7x7");
    struct tn_info d = fake_info(7, 7, 7, 6, 1024);
    const char *algo[] = {"dp", "dp-long"};
    for (int a = 0; a < 2; a++) {
        struct tn_algo_opts ao = {algo[a], 1, 6, 1, 0};
        struct tn_sched *s;
        struct tn_plan *p = NULL;
        struct tn_image img;
        char err[256] = "";
        if (tn_build(&s, TN_GOSSIP, &t, &ao) != 0 || (p = lower(s, &d)) == NULL ||
            tn_image_compile(&img, p, &d, 1, err, sizeof err) != 0) {
            ok(0, "7x7x7 %s: build, lower, compile (%s)", algo[a], err);
            tn_plan_free(p);
            continue;
        }
        size_t words[5] = {0}, bursts[5] = {0};
        for (size_t i = 0; i < img.nbursts; i++) {
            uint32_t addr = img.bursts[i].addr, k = addr >> 20 == 0xFFF ? 4 : addr >> 16 & 3;
            words[k] += img.bursts[i].n;
            bursts[k]++;
        }
        diag("7x7x7 %s L=1: %zu words (%zu bytes) in %zu bursts: MEM %zu/%zu, CFG %zu/%zu, "
             "INJ %zu/%zu, EJ %zu/%zu, globals %zu/%zu (words/bursts)", algo[a], img.nwords,
             tn_image_bytes(&img), img.nbursts, words[0], bursts[0], words[1], bursts[1],
             words[2], bursts[2], words[3], bursts[3], words[4], bursts[4]);
        if (a == 0)
            ok(img.nwords <= 12364 / 2, "7x7x7 dp L=1: %zu words, at most half the 12364 of "
               "the old per-round tables", img.nwords);
        tn_image_free(&img);
        tn_plan_free(p);
        tn_sched_free(s);
    }
}

int main(void)
{
    test_formats();
    test_inject_words();
    test_gossip();
    test_full_lists();
    test_relay();
    test_small_frames();
    test_sparse_records();
    test_size();
    return tap_done();
}
