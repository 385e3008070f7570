/* SPDX-License-Identifier: MIT */
/* Table test: every table of docs/hardware.md written and read back through
 * the bus (INFO, CFG, INJ, EJ, DURATION, MEM with head and tail flags,
 * ROUTE, NROUNDS), with the field widths the build reports; broadcast
 * writes; the two-word entry rule (word 1 commits the entry with the data
 * of the bus's last write as word 0, a lone word 0 changes nothing);
 * unmapped offsets read 0 and writes to them change nothing; the bus's
 * wait cycles (a table write completes in the cycle it reaches the torus,
 * an INFO or record read after 3 wait cycles, a flit memory write at once
 * (posted) with the next request waiting 4 cycles for it to be registered,
 * a flit memory read after 11; through the host bridge, a
 * READ of record words answers a byte a bus cycle, each further word
 * costing just its bytes); and a run
 * after all those reads (which move every table's read port) still starts
 * from round 0 and entry 0; a bus read of a table (CFG, DURATION, INJ,
 * EJ) during a run returns 0 and does not disturb the run (the tables'
 * read ports belong to the read-ahead then, docs/hardware.md).
 * Usage: tn_table_test model.so [seed] */
#include <inttypes.h>

#include "../tap.h"
#include "proto.h"
#include "tn_simlib.h"

static struct simlib L;
static uint64_t rng = 0x7AB1E5ULL;

static uint32_t rnd(uint32_t k)
{
    return k ? sl_rand(&rng) % k : 0;
}

/* Send a READ frame of count words from addr to the bridge (SLIP,
 * docs/protocol.md, built by the host's tn_frame_encode) and step the
 * model a bus cycle at a time until its answer's closing END: the bus
 * cycles from the send to that byte, and in *bytes the answer's bytes on
 * the wire (0 cycles if none came). */
static uint64_t bridge_read(uint32_t addr, uint32_t count, size_t *bytes)
{
    uint8_t payload[8], wire[40];
    for (int k = 0; k < 4; k++) {
        payload[k] = (uint8_t)(addr >> (8 * k));
        payload[4 + k] = (uint8_t)(count >> (8 * k));
    }
    size_t n = tn_frame_encode(wire, sizeof wire, TN_T_READ, 7, payload, sizeof payload);
    uint64_t c0 = L.cycles(L.s);
    L.byte_write(L.s, wire, n);
    unsigned ends = 0;
    *bytes = 0;
    for (unsigned t = 0; t < 20u * count + 1000u && ends < 2; t++) {
        uint8_t b[64];
        L.step(L.s, 1);
        size_t got = L.byte_read(L.s, b, sizeof b);
        for (size_t i = 0; i < got && ends < 2; i++) {
            ends += b[i] == 0xC0 && (ends > 0 || *bytes == 0);
            ++*bytes;
        }
    }
    return ends == 2 ? L.cycles(L.s) - c0 : 0;
}

int main(int argc, char **argv)
{
    int start = sl_start(&L, argc, argv, "model.so [seed]", 2, &rng);
    if (start)
        return start;
    diag("model %s: %s", argv[1], L.build_info());

    /* INFO */
    char want_info[160];
    snprintf(want_info, sizeof(want_info), "dims=%ux%ux%u W=%u LANES=%u MEM_DEPTH=%u ROUNDS=%u RELAY=%u",
             L.dim[0], L.dim[1], L.dim[2], L.w, L.lanes, L.mem_depth, L.rounds, L.relay);
    size_t wl = strlen(want_info);
    ok(!strncmp(want_info, L.build_info(), wl) && !strncmp(L.build_info() + wl, " TRACE=", 7),
       "INFO (%s) agrees with the model's build parameters", want_info);
    is(L.version, 0x00040000, "VERSION 0x00040000");
    is(L.alpha, 1, "ALPHA 1");
    is(L.banks, 1u << sl_log2(L.lanes), "PARAMS: BANKS = 2^ceil(log2 LANES)");
    unsigned aw = sl_log2(L.mem_depth);
    is(L.dw, aw + 2, "PARAMS: DW = log2(MEM_DEPTH) + 2");
    is(L.params >> 17 & 1u, 1, "PARAMS: FAULT (bit 17): a simulator model injects link faults");
    is(L.params & ~0x31F0Fu, 0, "PARAMS: no bits outside its fields");
    is(sl_rd(&L, A_GLOB(G_RUNS)), 0, "RUNS is 0 after reset");
    unsigned N = L.n, R = L.rounds, dmask = (1u << L.dw) - 1, amask = L.mem_depth - 1;

    /* CFG: a random word per node and some rounds; bits above 24 read 0 */
    unsigned bad = 0, nchk = 0;
    static uint32_t cfgw[64][16];
    unsigned rounds_t[16] = {0, 1, 2, R / 2, R - 2, R - 1};
    for (unsigned i = 6; i < 16; i++)
        rounds_t[i] = rnd(R);
    uint32_t cmask = 0x00FFFFFFu;
    unsigned nn = N < 64 ? N : 64;
    for (unsigned v = 0; v < nn; v++)
        for (unsigned i = 0; i < 16; i++)
            sl_cfg(&L, v, rounds_t[i], cfgw[v][i] = sl_rand(&rng));
    for (unsigned v = 0; v < nn; v++)
        for (unsigned i = 0; i < 16; i++) {
            /* a later write of the same round wins */
            unsigned last = i;
            for (unsigned j = i + 1; j < 16; j++)
                if (rounds_t[j] == rounds_t[i])
                    last = j;
            uint32_t got = sl_rd(&L, A_NODE(v, RG_CFG, rounds_t[i]));
            nchk++;
            if (got != (cfgw[v][last] & cmask) && bad++ < 5)
                diag("node %u CFG[%u]: %08x, want %08x", v, rounds_t[i], got, cfgw[v][last] & cmask);
        }
    is(bad, 0, "CFG: %u words (selects, mode) read back from %u nodes", nchk, nn);
    sl_wr(&L, A_BCAST(RG_CFG, 7), 0x0123ABCDu);
    bad = 0;
    for (unsigned v = 0; v < N; v++)
        bad += sl_rd(&L, A_NODE(v, RG_CFG, 7)) != (0x0123ABCDu & cmask);
    is(bad, 0, "CFG: a broadcast write reaches every node");

    /* INJ and EJ: random entries of every lane */
    /* inject word 0: valid; relay and hop (RELAY 1 only); round; start */
    uint32_t w0m = 0x80000000u | (L.relay ? 0x78000000u : 0) | (R - 1) << 16 | dmask;
    uint32_t w1m = (uint32_t)(2 * L.mem_depth - 1) << 16 | amask;
    static uint32_t inj[6][32][2], ej[6][32][2];
    unsigned idxs[32];
    for (unsigned i = 0; i < 32; i++)
        idxs[i] = i < 4 ? (i ? R - i : 0) : 4 + rnd(R - 8);
    unsigned tv = N / 2;
    for (unsigned l = 0; l < L.lanes; l++)
        for (unsigned i = 0; i < 32; i++) {
            uint32_t a = sl_inj_w0(rnd(2), rnd(2), rnd(8), rnd(R), rnd(dmask + 1));
            uint32_t b = sl_desc_w1(rnd(L.mem_depth + 1), rnd(L.mem_depth));
            sl_wr(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, l, idxs[i], 0)), a);
            sl_wr(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, l, idxs[i], 1)), b);
            inj[l][i][0] = a;
            inj[l][i][1] = b;
            a = sl_ej_w0(rnd(2), rnd(2), rnd(6));
            b = sl_desc_w1(rnd(L.mem_depth + 1), rnd(L.mem_depth));
            sl_wr(&L, A_NODE(tv, RG_EJ, sl_ej_off(&L, l, idxs[i], 0)), a);
            sl_wr(&L, A_NODE(tv, RG_EJ, sl_ej_off(&L, l, idxs[i], 1)), b);
            ej[l][i][0] = a;
            ej[l][i][1] = b;
        }
    unsigned badi = 0, bade = 0;
    for (unsigned l = 0; l < L.lanes; l++)
        for (unsigned i = 0; i < 32; i++) {
            unsigned last = i;
            for (unsigned j = i + 1; j < 32; j++)
                if (idxs[j] == idxs[i])
                    last = j;
            for (unsigned w = 0; w < 2; w++) {
                uint32_t gi = sl_rd(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, l, idxs[i], w)));
                uint32_t wi = inj[l][last][w] & (w ? w1m : w0m);
                if (gi != wi && badi++ < 5)
                    diag("INJ lane %u entry %u word %u: %08x, want %08x", l, idxs[i], w, gi, wi);
                uint32_t ge = sl_rd(&L, A_NODE(tv, RG_EJ, sl_ej_off(&L, l, idxs[i], w)));
                uint32_t we = ej[l][last][w] & (w ? w1m : 0xC0000007u);
                if (ge != we && bade++ < 5)
                    diag("EJ lane %u round %u word %u: %08x, want %08x", l, idxs[i], w, ge, we);
            }
        }
    is(badi, 0, "INJ: %u entries of every lane (valid, relay, hop, round, start, length, address) read back", 32);
    is(bade, 0, "EJ: %u rounds of every lane (valid, relay, port, length, address) read back", 32);

    /* the two-word rule */
    unsigned l1 = L.lanes - 1, e = 9;
    sl_inj(&L, tv, l1, e, 5, 6, 7, 8);
    sl_wr(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, l1, e, 0)), sl_inj_w0(1, 1, 5, 100, 200));
    is(sl_rd(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, l1, e, 0))), sl_inj_w0(1, 0, 0, 5, 6),
       "INJ: a write of word 0 alone changes nothing");
    sl_wr(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, 0, e + 1, 0)), sl_inj_w0(1, 1, 3, 11, 12));
    sl_wr(&L, A_NODE(tv, RG_MEM, 3), sl_inj_w0(1, 0, 2, 21, 22));
    sl_wr(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, l1, e, 1)), sl_desc_w1(13, 14));
    is(sl_rd(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, l1, e, 0))), sl_inj_w0(1, 1, 3, 11, 12),
       "INJ: word 1 commits the last word 0 written (of any entry; not a MEM write's data) as word 0");
    is(sl_rd(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, l1, e, 1))), sl_desc_w1(13, 14), "INJ: word 1 as written");
    sl_ej(&L, tv, l1, e, 3, 0, 5, 6);
    sl_wr(&L, A_NODE(tv, RG_EJ, sl_ej_off(&L, l1, e, 0)), sl_ej_w0(0, 1, 1));
    is(sl_rd(&L, A_NODE(tv, RG_EJ, sl_ej_off(&L, l1, e, 0))), sl_ej_w0(1, 0, 3),
       "EJ: a write of word 0 alone changes nothing");
    /* broadcast entries */
    sl_inj_relay(&L, SL_ALL, 0, 1, 2, 3, 4, 5, 6);
    sl_ej(&L, SL_ALL, 0, 1, 4, 1, 6, 7);
    bad = 0;
    for (unsigned v = 0; v < N; v++) {
        bad += sl_rd(&L, A_NODE(v, RG_INJ, sl_inj_off(&L, 0, 1, 0))) != sl_inj_w0(1, 1, 6, 2, 3);
        bad += sl_rd(&L, A_NODE(v, RG_INJ, sl_inj_off(&L, 0, 1, 1))) != sl_desc_w1(4, 5);
        bad += sl_rd(&L, A_NODE(v, RG_EJ, sl_ej_off(&L, 0, 1, 0))) != sl_ej_w0(1, 1, 4);
        bad += sl_rd(&L, A_NODE(v, RG_EJ, sl_ej_off(&L, 0, 1, 1))) != sl_desc_w1(6, 7);
    }
    is(bad, 0, "INJ and EJ: broadcast entries reach every node");

    /* DURATION: every round */
    static uint32_t dur[2048];
    for (unsigned r = 0; r < R; r++)
        sl_dur(&L, r, dur[r] = sl_rand(&rng));
    bad = 0;
    for (unsigned r = 0; r < R; r++) {
        uint32_t g = sl_rd(&L, A_GLOB(G_DURATION + r));
        if (g != (dur[r] & dmask) && bad++ < 5)
            diag("DURATION[%u]: %u, want %u", r, g, dur[r] & dmask);
    }
    is(bad, 0, "DURATION: all %u rounds read back (%u bits)", R, L.dw);

    /* MEM: words in every bank, with flags; bits W..29 read 0 */
    uint32_t mm = sl_wmask(&L) | MEM_HEAD | MEM_TAIL;
    static uint32_t memw[256];
    unsigned addrs[256];
    for (unsigned i = 0; i < 256; i++) {
        addrs[i] = i < 64 ? i : i < 128 ? L.mem_depth - 1 - (i - 64) : 64 + rnd(L.mem_depth - 128);
        memw[i] = sl_rand(&rng);
        sl_wr(&L, A_NODE(tv, RG_MEM, addrs[i]), memw[i]);
    }
    bad = 0;
    for (unsigned i = 0; i < 256; i++) {
        unsigned last = i;
        for (unsigned j = i + 1; j < 256; j++)
            if (addrs[j] == addrs[i])
                last = j;
        uint32_t g = sl_rd(&L, A_NODE(tv, RG_MEM, addrs[i]));
        if (g != (memw[last] & mm) && bad++ < 5)
            diag("MEM[%u]: %08x, want %08x", addrs[i], g, memw[last] & mm);
    }
    is(bad, 0, "MEM: 256 words (data, head bit 30, tail bit 31) in every bank read back");
    sl_wr(&L, A_BCAST(RG_MEM, 5), 0xC0000000u | 0x1357);
    bad = 0;
    for (unsigned v = 0; v < N; v++)
        bad += sl_rd(&L, A_NODE(v, RG_MEM, 5)) != ((0xC0000000u | 0x1357) & mm);
    is(bad, 0, "MEM: a broadcast write reaches every node");

    /* ROUTE */
    bad = 0;
    for (unsigned v = 0; v < N; v++) {
        uint32_t co = sl_coord(&L, v, 0) | sl_coord(&L, v, 1) << 8 | sl_coord(&L, v, 2) << 16;
        bad += sl_rd(&L, A_NODE(v, RG_RT, RT_COORD)) != co;
        bad += sl_rd(&L, A_NODE(v, RG_RT, RT_ID)) != v;
    }
    is(bad, 0, "ROUTE: every node's coordinates and id");

    /* NROUNDS */
    sl_wr(&L, A_GLOB(G_NROUNDS), R);
    is(sl_rd(&L, A_GLOB(G_NROUNDS)), R, "NROUNDS reads back ROUNDS");
    sl_wr(&L, A_GLOB(G_NROUNDS), 3);
    is(sl_rd(&L, A_GLOB(G_NROUNDS)), 3, "NROUNDS reads back 3");

    /* Unmapped offsets: read 0; writes change nothing (no aliasing). */
    uint32_t m0 = sl_rd(&L, A_NODE(tv, RG_MEM, 0));
    sl_wr(&L, A_NODE(tv, RG_MEM, L.mem_depth), ~m0);
    is(sl_rd(&L, A_NODE(tv, RG_MEM, 0)), m0, "MEM: a write at MEM_DEPTH does not alias word 0");
    is(sl_rd(&L, A_NODE(tv, RG_MEM, L.mem_depth)), 0, "MEM: offset MEM_DEPTH reads 0");
    uint32_t c5 = sl_rd(&L, A_NODE(tv, RG_CFG, 5));
    if (R < 0x10000) {
        sl_wr(&L, A_NODE(tv, RG_CFG, R + 5), ~c5);
        is(sl_rd(&L, A_NODE(tv, RG_CFG, 5)), c5, "CFG: a write at round ROUNDS + 5 does not alias round 5");
        is(sl_rd(&L, A_NODE(tv, RG_CFG, R + 5)), 0, "CFG: offset ROUNDS + 5 reads 0");
    }
    if (L.lanes < 8) {
        uint32_t i0 = sl_rd(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, 0, 1, 0)));
        sl_wr(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, L.lanes, 1, 0)), 0x12345678);
        sl_wr(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, L.lanes, 1, 1)), 0x12345678);
        is(sl_rd(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, 0, 1, 0))), i0, "INJ: lane LANES does not alias lane 0");
        is(sl_rd(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, L.lanes, 1, 1))), 0, "INJ: lane LANES reads 0");
        is(sl_rd(&L, A_NODE(tv, RG_EJ, sl_ej_off(&L, L.lanes, 1, 1))), 0, "EJ: lane LANES reads 0");
        is(sl_rd(&L, A_NODE(tv, RG_REC, sl_rec_off(&L, L.lanes, 1, 0))), 0, "REC: lane LANES reads 0");
    }
    is(sl_rd(&L, A_NODE(N, RG_MEM, 5)), 0, "node N (beyond the torus) reads 0");
    is(sl_rd(&L, A_NODE(tv, RG_ST, 12)), 0, "STATUS offset 12 reads 0");
    is(sl_rd(&L, A_GLOB(0x01F)), 0, "global offset 0x01F reads 0");
    is(sl_rd(&L, A_NODE(tv, 7, 0)), 0, "region 7 reads 0");

    /* Bus wait cycles: a request that completes after k wait cycles takes
     * k + 2 bus clocks of tn_sim_bus_* (one of them the model top's
     * register of the direct port, sim/tn_sim_top.v). */
    uint64_t c0 = L.cycles(L.s);
    sl_cfg(&L, tv, 9, 0);
    is(L.cycles(L.s) - c0, 2, "a CFG write completes in the cycle it reaches the torus");
    c0 = L.cycles(L.s);
    sl_wr(&L, A_NODE(tv, RG_INJ, sl_inj_off(&L, 0, 9, 1)), 0);
    is(L.cycles(L.s) - c0, 2, "an INJ word 1 write completes in the cycle it reaches the torus");
    c0 = L.cycles(L.s);
    sl_dur(&L, 9, 0);
    is(L.cycles(L.s) - c0, 2, "a DURATION write completes in the cycle it reaches the torus");
    c0 = L.cycles(L.s);
    (void)sl_rd(&L, A_GLOB(G_W));
    is(L.cycles(L.s) - c0, 5, "an INFO read completes after 3 wait cycles");
    c0 = L.cycles(L.s);
    (void)sl_rd(&L, A_NODE(tv, RG_REC, sl_rec_off(&L, 0, 9, 0)));
    is(L.cycles(L.s) - c0, 5, "a record read completes after 3 wait cycles");
    /* A crossing (network clock with the bus clock): the request toggle
     * synchronised (2), the request issued on the network bus (1), the
     * acknowledgement toggled (1), synchronised back (2) and seen (1); a
     * read is acknowledged when its answer is held, 4 network cycles
     * after it is issued (planes, node, plane, held). A write is posted:
     * it completes at once, and the next request, of any kind, waits until
     * its acknowledgement, toggled at the edge that registers it, is seen:
     * 4 wait cycles after the write's completion cycle and its own. */
    c0 = L.cycles(L.s);
    sl_wr(&L, A_NODE(tv, RG_MEM, 5), 0x2A);
    is(L.cycles(L.s) - c0, 2, "a flit memory write completes in the cycle it reaches the torus (posted)");
    c0 = L.cycles(L.s);
    sl_cfg(&L, tv, 9, 0);
    is(L.cycles(L.s) - c0, 6, "a table write after it waits 4 cycles for the network to register the write");
    c0 = L.cycles(L.s);
    sl_wr(&L, A_NODE(tv, RG_MEM, 6), 0x15);
    is(L.cycles(L.s) - c0, 2, "a flit memory write with none in flight completes at once");
    c0 = L.cycles(L.s);
    is(sl_rd(&L, A_NODE(tv, RG_MEM, 6)) & sl_wmask(&L), 0x15, "the next crossing request sees that write");
    is(L.cycles(L.s) - c0, 17, "... a read: 4 wait cycles for the write, 11 for its answer");
    c0 = L.cycles(L.s);
    is(sl_rd(&L, A_NODE(tv, RG_MEM, 5)) & sl_wmask(&L), 0x2A, "the first write holds");
    is(L.cycles(L.s) - c0, 13, "a flit memory read completes after 11 wait cycles");
    /* The bridge reads the next word while it sends the last one's 4
     * bytes: with 3 wait cycles the answer is byte-bound, so 64 more
     * words cost exactly their bytes on the wire (SLIP escapes included). */
    size_t b64, b128;
    uint64_t t64 = bridge_read(A_NODE(tv, RG_REC, sl_rec_off(&L, 0, 0, 0)), 64, &b64);
    uint64_t t128 = bridge_read(A_NODE(tv, RG_REC, sl_rec_off(&L, 0, 0, 0)), 128, &b128);
    ok(t64 > 0 && t128 > 0 && b128 >= b64 + 256,
       "READ frames of 64 and 128 record words answered (%zu and %zu bytes in %" PRIu64 " and %" PRIu64 " cycles)",
       b64, b128, t64, t128);
    is(t128 - t64, b128 - b64, "a READ of record words streams a byte a bus cycle: 64 more words cost their bytes");

    /* A run after all those reads: round 0, entry 0, from START on. One
     * stream from node 0's lane 0 to its first neighbour, read back before
     * the start from every table, reads that move every read port. */
    int d = 0;
    while (!sl_dir_ok(&L, d))
        d++;
    unsigned src = 0, dst = sl_nbr(&L, 0, d);
    sl_clear_tables(&L, 2);
    uint32_t data[5];
    for (unsigned k = 0; k < 5; k++) {
        data[k] = sl_rand(&rng) & sl_wmask(&L);
        sl_wr(&L, A_NODE(src, RG_MEM, 100 + k), data[k]);
    }
    sl_inj(&L, src, 0, 0, 1, 2, 5, 100);
    sl_inj(&L, src, 0, 1, 1, 40, 1, 100);
    sl_inj_end(&L, src, 0, 2);
    sl_cfg(&L, src, 1, CFG_SEL(d, SEL_LANE(0)));
    sl_ej(&L, dst, 0, 1, (unsigned)d, 0, 5, 300);
    sl_dur(&L, 0, 3);
    sl_dur(&L, 1, 9);
    (void)sl_rd(&L, A_NODE(src, RG_INJ, sl_inj_off(&L, 0, 1, 1)));
    (void)sl_rd(&L, A_NODE(dst, RG_EJ, sl_ej_off(&L, 0, 1, 1)));
    (void)sl_rd(&L, A_NODE(src, RG_CFG, 1));
    (void)sl_rd(&L, A_GLOB(G_DURATION + 1));
    uint32_t st = sl_run(&L, 2, 12, 16);
    is(st & 0xF, STATUS_DONE, "run after table reads: done, no error");
    struct sl_rec want = {1, 0, 5, L.alpha + 2 + 1, L.alpha + 2 + 5, sl_crc(data, 5, L.w)}, got;
    sl_rec_read(&L, dst, 0, 1, &got);
    char g[128], w[128];
    ok(sl_rec_eq(&got, &want), "run after table reads: record %s (want %s)", sl_rec_str(&got, g, sizeof(g)),
       sl_rec_str(&want, w, sizeof(w)));
    is(sl_rd48(&L, A_GLOB(G_END)) - sl_rd48(&L, A_GLOB(G_START)), 12, "run after table reads: 3 + 9 cycles");
    is(sl_rd(&L, A_NODE(dst, RG_REC, sl_rec_off(&L, 0, 1, 2))), want.crc, "record word 2 (row 5) is the CRC");
    is(sl_rd(&L, A_NODE(dst, RG_REC, 3 * L.rounds)), 0, "record row 3 ROUNDS (beyond the records) reads 0");
    is(sl_rd(&L, A_NODE(dst, RG_REC, 4 * L.rounds - 1)), 0, "record row 4 ROUNDS - 1 reads 0");
    /* Table reads during a run: 3 rounds of 40 cycles, a 10-flit stream
     * in each; in round 0 a read of an unused round's (entry's) table word. */
    static const char *const kind[4] = {"a CFG word", "a DURATION word", "an INJ entry", "an EJ entry"};
    for (unsigned t = 0; t < 4; t++) {
        sl_clear_tables(&L, 3);
        uint32_t dd[3][10];
        for (unsigned r = 0; r < 3; r++) {
            for (unsigned k = 0; k < 10; k++) {
                dd[r][k] = sl_rand(&rng) & sl_wmask(&L);
                sl_wr(&L, A_NODE(src, RG_MEM, 10 * r + k), dd[r][k]);
            }
            sl_inj(&L, src, 0, r, r, 0, 10, 10 * r);
            sl_cfg(&L, src, r, CFG_SEL(d, SEL_LANE(0)));
            sl_ej(&L, dst, 0, r, (unsigned)d, 0, 10, 1000 + 16 * r);
            sl_dur(&L, r, 40);
        }
        sl_inj_end(&L, src, 0, 3);
        unsigned u = L.rounds - 1;  /* a round and an entry the run does not use */
        sl_cfg(&L, src, u, CFG_SEL(d, SEL_LANE(0)) ^ 0x123456);
        sl_dur(&L, u, 3);
        sl_wr(&L, A_GLOB(G_NROUNDS), 3);
        sl_wr(&L, A_GLOB(G_CTRL), CTRL_START);
        L.step(L.s, 15);
        uint32_t a = t == 0 ? A_NODE(src, RG_CFG, u) : t == 1 ? A_GLOB(G_DURATION + u)
                   : t == 2 ? A_NODE(src, RG_INJ, sl_inj_off(&L, 0, u, 0))
                            : A_NODE(dst, RG_EJ, sl_ej_off(&L, 0, u, 0));
        uint32_t v = sl_rd(&L, a);
        L.step(L.s, 200);
        unsigned ep = sl_epoch(&L), bad = v != 0;
        if (v != 0)
            diag("%s read in round 0 returned 0x%08" PRIx32 ", not 0", kind[t], v);
        for (unsigned r = 0; r < 3; r++) {
            struct sl_rec want = {ep, 0, 10, L.alpha + 1, L.alpha + 10, sl_crc(dd[r], 10, L.w)}, got;
            sl_rec_read(&L, dst, 0, r, &got);
            if (!sl_rec_eq(&got, &want)) {
                bad++;
                diag("%s read in round 0: round %u record %s (want %s)", kind[t], r, sl_rec_str(&got, g, sizeof(g)),
                     sl_rec_str(&want, w, sizeof(w)));
            }
        }
        bad += (sl_rd48(&L, A_GLOB(G_END)) - sl_rd48(&L, A_GLOB(G_START))) != 120;
        ok(bad == 0, "a bus read of %s during a run reads 0 and leaves the run as scheduled (3 rounds of 40 cycles)",
           kind[t]);
    }
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    return tap_done();
}
