/* SPDX-License-Identifier: MIT */
/* Flit memory bank test (docs/hardware.md, "Flit memory banks"), on a model
 * with every dimension >= 3:
 * - LANES > 1: two inject lanes of a node read one bank in the same cycles:
 *   the lower-numbered lane gets every contested word even though it
 *   started later, the other sends gaps; two eject lanes write one bank in
 *   the same cycles: the lower lane stores, the other counts and CRCs but
 *   does not store; CONFLICT counts every lost access and FLAGS bit 7 is
 *   set. The same streams one bank apart do not conflict.
 * - BANKS = 1 (LANES 1): bus reads of a node's memory during its lane's
 *   stream and bus writes during another node's ejection win the port: the
 *   lane loses exactly one word per access, and the bus data is right.
 * Usage: tn_bank_test model.so */
#include <inttypes.h>

#include "../tap.h"
#include "tn_simlib.h"

#define MARK (MEM_HEAD | MEM_TAIL | 0xA5)

static struct simlib L;
static uint64_t rng = 0xBA4C5ULL;

/* n random words from a at node (no flags, so never MARK). */
static void put(unsigned node, unsigned a, unsigned n, uint32_t *data)
{
    for (unsigned k = 0; k < n; k++) {
        data[k] = sl_rand(&rng) & sl_wmask(&L);
        sl_wr(&L, A_NODE(node, RG_MEM, a + k), data[k]);
    }
}

static void mark(unsigned node, unsigned a, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        sl_wr(&L, A_NODE(node, RG_MEM, a + k), MARK);
}

static int rec_is(unsigned node, unsigned lane, unsigned round, struct sl_rec want, const char *what)
{
    struct sl_rec got;
    char g[128], w[128];
    sl_rec_read(&L, node, lane, round, &got);
    return ok(sl_rec_eq(&got, &want), "%s: record %s (want %s)", what, sl_rec_str(&got, g, sizeof(g)),
              sl_rec_str(&want, w, sizeof(w)));
}

static void lanes_test(void)
{
    /* Round r: v's lane 3 (s = 0, 6 words from bank 0 phase) to X+ and
     * lane 1 (s = 2, 3 words) to Y+; w's eject lane 2 takes 6 flits on
     * input 0 (arriving in 2..7) and lane 0 3 flits on input 2 (in 4..6).
     * Round 0: lane 1's words and lane 0's eject area sit in the bank the
     * other lane uses in the same cycle; round 1: one bank further. */
    unsigned hi = L.lanes > 3 ? 3 : L.lanes - 1, lo = 1 % hi;
    if (hi == 1)
        lo = 0;
    unsigned v = sl_id(&L, 1, 1, 1), vx = sl_nbr(&L, v, 0), vy = sl_nbr(&L, v, 2);
    unsigned w = sl_id(&L, 0, 0, 0), u1 = sl_nbr(&L, w, 1), u2 = sl_nbr(&L, w, 3);
    unsigned elo = 0, ehi = L.lanes > 2 ? 2 : 1;
    unsigned B = L.banks;
    uint32_t dh[2][6], dl[2][3], eh[2][6], el[2][3];
    sl_clear_tables(&L, 2);
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);
    for (unsigned r = 0; r < 2; r++) {
        unsigned base = 64 + 32 * B * r;
        /* inject: hi reads bank (ah + c) in cycle c, lo bank (al - 2 + c) */
        unsigned ah = base, al = base + 16 * B + 2 + r;
        put(v, ah, 6, dh[r]);
        put(v, al, 3, dl[r]);
        sl_inj(&L, v, hi, r, r, 0, 6, ah);
        sl_inj(&L, v, lo, r, r, 2, 3, al);
        sl_cfg(&L, v, r, CFG_SEL(0, SEL_LANE(hi)) | CFG_SEL(2, SEL_LANE(lo)));
        sl_ej(&L, vx, 0, r, 0, 0, 6, base);
        sl_ej(&L, vy, 0, r, 2, 0, 3, base);
        mark(vx, base, 7);
        mark(vy, base, 4);
        /* eject: ehi writes bank (bh - 2 + c) in cycle c, elo (bl - 4 + c) */
        unsigned bh = base, bl = base + 16 * B + 2 + r;
        put(u1, base, 6, eh[r]);
        put(u2, base, 3, el[r]);
        sl_inj(&L, u1, 0, r, r, 0, 6, base);
        sl_inj(&L, u2, 0, r, r, 2, 3, base);
        sl_cfg(&L, u1, r, CFG_SEL(0, SEL_LANE(0)));
        sl_cfg(&L, u2, r, CFG_SEL(2, SEL_LANE(0)));
        sl_ej(&L, w, ehi, r, 0, 0, 6, bh);
        sl_ej(&L, w, elo, r, 2, 0, 3, bl);
        mark(w, bh, 7);
        mark(w, bl, 4);
        sl_dur(&L, r, L.alpha + 1 + 6 + 2);
    }
    for (unsigned x = 0; x < 4; x++) {
        unsigned node = x == 0 ? v : x == 1 ? u1 : u2;
        for (unsigned l = 0; l < L.lanes; l++)
            if ((x == 0 && (l == hi || l == lo)) || (x > 0 && l == 0))
                sl_inj_end(&L, node, l, 2);
    }
    uint32_t st = sl_run(&L, 2, 2 * (L.alpha + 9), 16);
    ok((st & 0xB) == STATUS_DONE, "run done (STATUS 0x%x)", st);
    unsigned ep = sl_epoch(&L);

    /* round 0: hi loses words 2, 3, 4 to lo */
    uint32_t got3[3] = {dh[0][0], dh[0][1], dh[0][5]};
    rec_is(vx, 0, 0, (struct sl_rec){ep, REC_SHORT, 3, 2, 7, sl_crc(got3, 3, L.w)},
           "inject conflict: the higher lane sends words 0, 1, 5 (gaps for 2..4)");
    unsigned bad = 0;
    for (unsigned k = 0; k < 3; k++)
        bad += sl_rd(&L, A_NODE(vx, RG_MEM, 64 + k)) != got3[k];
    is(bad, 0, "inject conflict: the receiver stores what arrived, in order");
    rec_is(vy, 0, 0, (struct sl_rec){ep, 0, 3, 4, 6, sl_crc(dl[0], 3, L.w)},
           "inject conflict: the lower lane (started later) gets every word");
    is(sl_rd(&L, A_NODE(v, RG_ST, ST_CONFLICT)), 3, "inject conflict: 3 lost reads counted");
    rec_is(w, ehi, 0, (struct sl_rec){ep, 0, 6, 2, 7, sl_crc(eh[0], 6, L.w)},
           "eject conflict: the higher lane counts and CRCs all 6 flits");
    bad = 0;
    for (unsigned k = 0; k < 6; k++)
        bad += sl_rd(&L, A_NODE(w, RG_MEM, 64 + k)) != ((k >= 2 && k <= 4) ? MARK : eh[0][k]);
    is(bad, 0, "eject conflict: the higher lane stores flits 0, 1, 5 only");
    rec_is(w, elo, 0, (struct sl_rec){ep, 0, 3, 4, 6, sl_crc(el[0], 3, L.w)}, "eject conflict: the lower lane");
    bad = 0;
    for (unsigned k = 0; k < 3; k++)
        bad += sl_rd(&L, A_NODE(w, RG_MEM, 64 + 16 * B + 2 + k)) != el[0][k];
    is(bad, 0, "eject conflict: the lower lane stores all 3");
    is(sl_rd(&L, A_NODE(w, RG_ST, ST_CONFLICT)), 3, "eject conflict: 3 lost writes counted");
    is(sl_rd(&L, A_NODE(w, RG_ST, ST_FLAGS)), FL_CONFLICT, "FLAGS bit 7 (bank conflict) alone at the ejecting node");
    is(sl_rd(&L, A_NODE(v, RG_ST, ST_FLAGS)), FL_CONFLICT, "FLAGS bit 7 alone at the injecting node");
    uint32_t map = sl_rd(&L, A_GLOB(G_ERRMAP + v / 32));
    ok(map >> (v % 32) & 1, "ERRMAP names a node with a bank conflict");

    /* round 1: one bank apart, no loss */
    rec_is(vx, 0, 1, (struct sl_rec){ep, 0, 6, 2, 7, sl_crc(dh[1], 6, L.w)}, "one bank apart: higher inject lane whole");
    rec_is(vy, 0, 1, (struct sl_rec){ep, 0, 3, 4, 6, sl_crc(dl[1], 3, L.w)}, "one bank apart: lower inject lane whole");
    rec_is(w, ehi, 1, (struct sl_rec){ep, 0, 6, 2, 7, sl_crc(eh[1], 6, L.w)}, "one bank apart: higher eject lane");
    bad = 0;
    unsigned base = 64 + 32 * B;
    for (unsigned k = 0; k < 6; k++)
        bad += sl_rd(&L, A_NODE(w, RG_MEM, base + k)) != eh[1][k];
    for (unsigned k = 0; k < 3; k++)
        bad += sl_rd(&L, A_NODE(w, RG_MEM, base + 16 * B + 3 + k)) != el[1][k];
    is(bad, 0, "one bank apart: both eject lanes store everything");
}

static void bus_test(void)
{
    /* v streams N words to X+ from its lane 0; three bus reads of v's
     * memory land during it. v2 streams N words to w2; two bus writes to
     * w2's memory land during w2's ejection. One bank: each access takes
     * the bank's port from the lane in its cycle. */
    enum { N = 400 };
    static uint32_t dv[N], dv2[N];
    unsigned v = sl_id(&L, 1, 1, 1), w = sl_nbr(&L, v, 0);
    unsigned v2 = sl_id(&L, 0, 0, 0), w2 = sl_nbr(&L, v2, 0);
    sl_clear_tables(&L, 1);
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);
    put(v, 0, N, dv);
    put(v2, 0, N, dv2);
    uint32_t probe = 0x3C5A & sl_wmask(&L);
    sl_wr(&L, A_NODE(v, RG_MEM, 3000), probe);
    mark(w, 1000, N + 1);
    mark(w2, 1000, N + 1);
    sl_inj(&L, v, 0, 0, 0, 0, N, 0);
    sl_inj(&L, v2, 0, 0, 0, 0, N, 0);
    sl_inj_end(&L, v, 0, 1);
    sl_inj_end(&L, v2, 0, 1);
    sl_cfg(&L, v, 0, CFG_SEL(0, SEL_LANE(0)));
    sl_cfg(&L, v2, 0, CFG_SEL(0, SEL_LANE(0)));
    sl_ej(&L, w, 0, 0, 0, 0, N, 1000);
    sl_ej(&L, w2, 0, 0, 0, 0, N, 1000);
    sl_dur(&L, 0, L.alpha + 1 + N);
    sl_wr(&L, A_GLOB(G_NROUNDS), 1);
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_START);
    unsigned rd_ok = 0;
    for (unsigned i = 0; i < 3; i++) {
        L.step(L.s, 40);
        rd_ok += sl_rd(&L, A_NODE(v, RG_MEM, 3000)) == probe;
        L.step(L.s, 10);
        sl_wr(&L, A_NODE(w2, RG_MEM, 3000 + i), 0x100 + i);
    }
    uint32_t st0 = sl_rd(&L, A_GLOB(G_STATUS));
    L.step(L.s, N + 16);
    ok(st0 & STATUS_RUNNING, "the bus accesses were made while the run was on");
    is(rd_ok, 3, "bus reads during a lane's stream return the right word");
    unsigned wr_ok = 0;
    for (unsigned i = 0; i < 3; i++)
        wr_ok += sl_rd(&L, A_NODE(w2, RG_MEM, 3000 + i)) == 0x100 + i;
    is(wr_ok, 3, "bus writes during an ejection take effect");
    is(sl_rd(&L, A_NODE(v, RG_ST, ST_CONFLICT)), 3, "each bus read took the bank from the inject lane once");
    is(sl_rd(&L, A_NODE(w2, RG_ST, ST_CONFLICT)), 3, "each bus write took the bank from the eject lane once");
    unsigned ep = sl_epoch(&L);

    /* w received v's stream with 3 gaps: stored in arrival order */
    static uint32_t rx[N];
    for (unsigned k = 0; k < N; k++)
        rx[k] = sl_rd(&L, A_NODE(w, RG_MEM, 1000 + k));
    struct sl_rec got;
    sl_rec_read(&L, w, 0, 0, &got);
    unsigned j = 0, skips = 0, mism = 0;
    for (unsigned k = 0; k < N - 3; k++) {
        while (j < N && dv[j] != rx[k] && skips <= 3) {
            j++;
            skips++;
        }
        mism += j >= N || dv[j] != rx[k];
        j++;
    }
    skips += N - j;
    ok(got.count == N - 3 && got.err == REC_SHORT && got.epoch == ep, "inject side: %u of %u flits counted, short",
       got.count, N);
    ok(!mism && skips == 3, "inject side: what arrived is the stream with exactly 3 words missing");
    is(got.crc, sl_crc(rx, N - 3, L.w), "inject side: the CRC is that of what arrived");
    is(rx[N - 3], MARK, "inject side: nothing stored beyond the flits that arrived");

    /* w2 counted all of v2's stream, stored all but 3 */
    sl_rec_read(&L, w2, 0, 0, &got);
    char g[128];
    ok(got.count == N && got.err == 0 && got.crc == sl_crc(dv2, N, L.w) && got.first == L.alpha + 1 &&
       got.last == L.alpha + N, "eject side: all %u flits counted and CRC'd (%s)", N,
       sl_rec_str(&got, g, sizeof(g)));
    unsigned holes = 0, wrong = 0;
    for (unsigned k = 0; k < N; k++) {
        uint32_t m = sl_rd(&L, A_NODE(w2, RG_MEM, 1000 + k));
        holes += m == MARK;
        wrong += m != MARK && m != dv2[k];
    }
    ok(holes == 3 && wrong == 0, "eject side: every flit stored in place but 3 (%u holes, %u wrong)", holes, wrong);
}

int main(int argc, char **argv)
{
    int start = sl_start(&L, argc, argv, "model.so", 0, &rng);
    if (start)
        return start;
    diag("model %s: %s, %u banks", argv[1], L.build_info(), L.banks);
    if (L.dim[0] < 3 || L.dim[1] < 3 || L.dim[2] < 3) {
        diag("skipped: needs every dimension >= 3");
        return tap_done();
    }
    if (L.lanes > 1)
        lanes_test();
    if (L.banks == 1)
        bus_test();
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    return tap_done();
}
