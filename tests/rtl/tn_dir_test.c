/* SPDX-License-Identifier: MIT */
/* Directed router and NI test (needs dims >= 3 in every dimension), one run:
 * - select rounds 0..NS-1: every output of a centre node selects, over the
 *   rounds, every source (each inject lane, each input port), one stream per
 *   output, all at offset 0 with tight durations, so that each round's last
 *   flit is ejected in its last cycle T_r + D_r - 1 and the next round's
 *   first flit leaves in T_{r+1} + 1;
 * - a chain round: a lane with three descriptors in one round sends one
 *   gap-free stream from three places of its memory, and a descriptor cut
 *   by its successor on another node;
 * - a round whose stream is cut by the round switch (the flit that reaches
 *   its receiver in the switch cycle is an overrun with timestamp D_r), and
 *   a lane whose next entry is never reached;
 * - the last round: overrun, short stream, eject and inject memory bounds,
 *   a flit after the run's end, the cut lane's next stream, the stopped
 *   lane's next entry, injected flits no output takes; then node status
 *   (FLAGS, DROP, ERRMAP), write-1-to-clear, counter clear, CTRL clear,
 *   and the FST trace window (or its refusal by a model without the trace).
 * Usage: tn_dir_test model.so */
#include <inttypes.h>
#include <stdbool.h>
#include <unistd.h>

#include "../tap.h"
#include "tn_simlib.h"

#define MAXN 4096
#define MAXC 256

static struct simlib L;
static uint64_t rng = 0xD1EC7ULL;
static unsigned memtop[MAXN], nidx[MAXN][6];
static uint32_t marker;

/* An expected record and the words stored from addr. */
struct chk {
    unsigned round, node, lane, addr, nstore;
    struct sl_rec want;
    uint32_t data[32];
    const char *what;
};
static struct chk C[MAXC];
static unsigned nc;

static unsigned alloc_mem(unsigned node, unsigned len, unsigned phase)
{
    unsigned a = memtop[node];
    a += (phase + L.banks - a % L.banks) % L.banks;
    memtop[node] = a + len;
    return a;
}

/* n random words at node (bank phase s + lane), and the lane's next inject
 * entry (round, s): the address. */
static unsigned stream(unsigned r, unsigned node, unsigned lane, unsigned s, unsigned n,
                       uint32_t *data)
{
    unsigned a = alloc_mem(node, n, s + lane);
    for (unsigned k = 0; k < n; k++) {
        data[k] = sl_rand(&rng) & sl_wmask(&L);
        sl_wr(&L, A_NODE(node, RG_MEM, a + k), data[k]);
    }
    sl_inj(&L, node, lane, nidx[node][lane]++, r, s, n, a);
    return a;
}

/* Eject lane of node listens to port in round r expecting n flits at addr
 * (marker words in n + 2 words from there); the check to fill in. */
static struct chk *eject(unsigned r, unsigned node, unsigned lane, unsigned port, unsigned n,
                         unsigned addr, const char *what)
{
    sl_ej(&L, node, lane, r, port, 0, n, addr);
    for (unsigned k = 0; k < n + 2 && addr + k < L.mem_depth; k++)
        sl_wr(&L, A_NODE(node, RG_MEM, addr + k), marker);
    struct chk *c = &C[nc++];
    memset(c, 0, sizeof(*c));
    c->round = r;
    c->node = node;
    c->lane = lane;
    c->addr = addr;
    c->what = what;
    return c;
}

/* The record of a stream of n flits (data) whose first flit arrives in
 * round-relative cycle first, all stored. */
static void expect(struct chk *c, unsigned first, unsigned n, unsigned err, unsigned nstore)
{
    c->want.err = err;
    c->want.count = n;
    c->want.first = n ? first : 0;
    c->want.last = n ? first + n - 1 : 0;
    c->want.crc = sl_crc(c->data, n, L.w);
    c->nstore = nstore;
}

static int check(struct chk *c, unsigned epoch, int quiet)
{
    struct sl_rec got;
    c->want.epoch = epoch;
    sl_rec_read(&L, c->node, c->lane, c->round, &got);
    int good = sl_rec_eq(&got, &c->want);
    unsigned badw = 0;
    for (unsigned k = 0; k < c->nstore; k++)
        badw += sl_rd(&L, A_NODE(c->node, RG_MEM, c->addr + k)) != c->data[k];
    if (!good || badw) {
        char g[128], w[128];
        if (!quiet || nc < 1000)
            diag("%s, round %u node %u lane %u: %s, want %s; %u stored words differ", c->what,
                 c->round, c->node, c->lane, sl_rec_str(&got, g, sizeof(g)),
                 sl_rec_str(&c->want, w, sizeof(w)), badw);
    }
    return good && !badw;
}

int main(int argc, char **argv)
{
    int start = sl_start(&L, argc, argv, "model.so", 0, &rng);
    if (start)
        return start;
    diag("model %s: %s", argv[1], L.build_info());
    if (L.dim[0] < 3 || L.dim[1] < 3 || L.dim[2] < 3 || L.n > MAXN) {
        diag("skipped: needs every dimension >= 3");
        return tap_done();
    }
    marker = 0xABCD & sl_wmask(&L);
    unsigned c = sl_id(&L, 1, 1, 1);
    unsigned ns = 6 + L.lanes;  /* sources: inject lanes, then input ports */
    unsigned G = ns, X = ns + 1, E = ns + 2, R = ns + 3, dur[32];
    for (unsigned i = 0; i < L.n; i++)
        memtop[i] = 64;
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);
    sl_clear_tables(&L, R);

    /* Select rounds: output o of c selects source (o + r) % ns. */
    unsigned cover[6][12] = {{0}}, nsel = 0;
    for (unsigned r = 0; r < ns; r++) {
        unsigned need = 0;
        uint32_t cfg_c = 0;
        for (unsigned o = 0; o < 6; o++) {
            unsigned src = (o + r) % ns, n = 3 + sl_rand(&rng) % 6, hops;
            unsigned d = sl_nbr(&L, c, (int)o);
            struct chk *k = eject(r, d, 0, o, n, alloc_mem(d, n + 2, L.alpha + 2), "select");
            if (src < L.lanes) {
                stream(r, c, src, 0, n, k->data);
                cfg_c |= CFG_SEL(o, SEL_LANE(src));
                hops = 1;
            } else {
                unsigned p = src - L.lanes, u = sl_nbr(&L, c, (int)(p ^ 1));
                stream(r, u, 0, 0, n, k->data);
                sl_cfg(&L, u, r, CFG_SEL(p, SEL_LANE(0)));
                cfg_c |= CFG_SEL(o, SEL_PORT(p));
                hops = 2;
            }
            expect(k, L.alpha + hops, n, 0, n);
            cover[o][src] = 1;
            nsel++;
            if (hops + n > need)
                need = hops + n;
        }
        sl_cfg(&L, c, r, cfg_c);
        dur[r] = L.alpha + need;
    }
    unsigned covered = 0;
    for (unsigned o = 0; o < 6; o++)
        for (unsigned k = 0; k < ns; k++)
            covered += cover[o][k];
    is(covered, 6 * ns, "every output is given every source (%u inject lanes, 6 inputs)", L.lanes);

    /* Chain round G: c's highest lane sends 3 + 2 + 4 flits from three
     * places with entries at s = 0, 3, 5 (one gap-free stream to X+);
     * c2's lane 0 has entries at s = 0 (5 flits) and s = 3 (3 flits): the
     * second cuts the first after 3 flits. */
    unsigned glane = L.lanes - 1, gd = sl_nbr(&L, c, 0);
    struct chk *gc = eject(G, gd, 0, 0, 9, alloc_mem(gd, 11, 0), "chain of three entries");
    unsigned part[3] = {3, 2, 4}, s = 0, m = 0;
    for (unsigned i = 0; i < 3; i++) {
        memtop[c] += 5; /* the parts are apart in memory */
        stream(G, c, glane, s, part[i], gc->data + m);
        s += part[i];
        m += part[i];
    }
    expect(gc, L.alpha + 1, 9, 0, 9);
    sl_cfg(&L, c, G, CFG_SEL(0, SEL_LANE(glane)));
    unsigned c2 = sl_id(&L, 0, 1, 2), c2d = sl_nbr(&L, c2, 0);
    struct chk *cc = eject(G, c2d, 0, 0, 6, alloc_mem(c2d, 8, 0), "entry cut by its successor");
    uint32_t cut5[5];
    stream(G, c2, 0, 0, 5, cut5);
    stream(G, c2, 0, 3, 3, cc->data + 3);
    memcpy(cc->data, cut5, 3 * sizeof(uint32_t));
    expect(cc, L.alpha + 1, 6, 0, 6);
    sl_cfg(&L, c2, G, CFG_SEL(0, SEL_LANE(0)));
    dur[G] = L.alpha + 1 + 9;

    /* Rows (y, z) of x = 0 -> 1 (-> 2) pairs for the last two rounds. */
    enum { OV, SH, EB, IB, LT, CUT, STOP, DRP, NCASE };
    static const unsigned yz[NCASE][2] = {{0, 0}, {0, 2}, {2, 0}, {2, 2}, {2, 1}, {1, 0}, {0, 1}, {1, 2}};
    unsigned a[NCASE], b[NCASE];
    for (unsigned i = 0; i < NCASE; i++) {
        a[i] = sl_id(&L, 0, yz[i][0], yz[i][1]);
        b[i] = sl_id(&L, 1, yz[i][0], yz[i][1]);
        if (i == DRP)
            continue;
        sl_cfg(&L, a[i], X, CFG_SEL(0, SEL_LANE(0)));
        sl_cfg(&L, a[i], E, CFG_SEL(0, SEL_LANE(0)));
    }

    /* Round X (D = 8): a[CUT] starts 10 flits at s = 0: flits 0..6 leave
     * in T+1..T+7, flit 7 would leave in the switch cycle: the stream is
     * cut there. b[CUT] expects 6: flits 0..5 arrive in 2..7, flit 6 in
     * the switch cycle T+8 (an overrun, timestamp 8, not stored).
     * a[STOP]'s entry starts at s = 200, beyond the round: never reached,
     * it stops the lane for the rest of the run. */
    dur[X] = 8;
    struct chk *cx = eject(X, b[CUT], 0, 0, 6, alloc_mem(b[CUT], 8, 0), "stream cut by the round switch");
    uint32_t cutd[10];
    stream(X, a[CUT], 0, 0, 10, cutd);
    memcpy(cx->data, cutd, 7 * sizeof(uint32_t));
    expect(cx, L.alpha + 1, 7, REC_OVERRUN, 6);
    uint32_t stopd[4];
    stream(X, a[STOP], 0, 200, 2, stopd);

    /* Round E, the last (D = alpha + 1 + 6 + 1 = 9). */
    dur[E] = L.alpha + 1 + 6 + 1;
    /* the cut lane's next entry, at s = 3: nothing of the cut stream leaks */
    struct chk *cn = eject(E, b[CUT], 0, 0, 2, alloc_mem(b[CUT], 4, 0), "next stream after a cut one");
    stream(E, a[CUT], 0, 3, 2, cn->data);
    expect(cn, L.alpha + 3 + 1, 2, 0, 2);
    /* the stopped lane's next entry never starts */
    struct chk *cs = eject(E, b[STOP], 0, 0, 3, alloc_mem(b[STOP], 5, 0), "entry after an unreached one");
    stream(E, a[STOP], 0, 0, 3, stopd);
    expect(cs, 0, 0, REC_SHORT, 0);
    /* overrun: 6 flits, 4 expected */
    struct chk *ov = eject(E, b[OV], 0, 0, 4, alloc_mem(b[OV], 4 + 2, 0), "overrun");
    stream(E, a[OV], 0, 0, 6, ov->data);
    expect(ov, L.alpha + 1, 6, REC_OVERRUN, 4);
    /* short: 3 flits, 5 expected */
    struct chk *sh = eject(E, b[SH], 0, 0, 5, alloc_mem(b[SH], 5 + 2, 0), "short stream");
    stream(E, a[SH], 0, 0, 3, sh->data);
    expect(sh, L.alpha + 1, 3, REC_SHORT, 3);
    /* eject bounds: 4 flits from MEM_DEPTH - 2: 2 stored, 2 beyond */
    struct chk *eb = eject(E, b[EB], 0, 0, 4, L.mem_depth - 2, "eject bounds");
    stream(E, a[EB], 0, 0, 4, eb->data);
    expect(eb, L.alpha + 1, 4, REC_BOUNDS, 2);
    /* inject bounds: 3 flits from the last word: only the first exists */
    struct chk *ib = eject(E, b[IB], 0, 0, 1, alloc_mem(b[IB], 1 + 2, 0), "inject bounds (receiver)");
    ib->data[0] = 0x77;
    sl_wr(&L, A_NODE(a[IB], RG_MEM, L.mem_depth - 1), ib->data[0]);
    sl_inj(&L, a[IB], 0, nidx[a[IB]][0]++, E, 0, 3, L.mem_depth - 1);
    expect(ib, L.alpha + 1, 1, 0, 1);
    /* dropped: 3 flits injected that no output takes */
    uint32_t drpd[3];
    stream(E, a[DRP], 0, 0, 3, drpd);
    /* late: 2 hops, flit 0 on the lane in the round's last cycle: on the
     * receiver's input in END_CYCLE + 1, after the run: an overrun
     * (timestamp D + 1, not stored) after the short stream filed at the end */
    unsigned c4 = sl_nbr(&L, b[LT], 0);
    sl_cfg(&L, b[LT], E, CFG_SEL(0, SEL_PORT(0)));
    struct chk *lt = eject(E, c4, 0, 0, 1, alloc_mem(c4, 3, 0), "flit after the run's end");
    stream(E, a[LT], 0, dur[E] - 1 - L.alpha, 1, lt->data);
    expect(lt, dur[E] + 1, 1, REC_OVERRUN | REC_SHORT, 0);

    for (unsigned v = 0; v < L.n; v++)
        for (unsigned l = 0; l < L.lanes; l++)
            if (nidx[v][l])
                sl_inj_end(&L, v, l, nidx[v][l]);
    uint64_t total = 0;
    for (unsigned r = 0; r < R; r++) {
        sl_dur(&L, r, dur[r]);
        total += dur[r];
    }
    uint32_t status = sl_run(&L, R, total, 16);
    ok((status & 0xB) == STATUS_DONE && (status & STATUS_ERROR), "run done with errors (STATUS 0x%x)",
       status);
    unsigned epoch = sl_epoch(&L);
    is(sl_rd48(&L, A_GLOB(G_END)) - sl_rd48(&L, A_GLOB(G_START)), total,
       "END_CYCLE - START_CYCLE is the sum of the durations");

    unsigned bad = 0;
    for (unsigned i = 0; i < nc; i++) {
        struct chk *k = &C[i];
        if (!strcmp(k->what, "select")) {
            bad += !check(k, epoch, bad > 8);
            continue;
        }
        ok(check(k, epoch, 0), "%s: record (count, round-relative first/last, CRC, error bits) "
           "and stored words as modelled", k->what);
    }
    is(bad, 0, "all %u streams of the select rounds: exact cycles, count, CRC, data", nsel);
    is(sl_rd(&L, A_NODE(b[OV], RG_MEM, ov->addr + 4)), marker, "overrun: no store past the expected length");
    is(sl_rd(&L, A_NODE(b[CUT], RG_MEM, cx->addr + 6)), marker, "cut stream: the flit in the switch cycle is not stored");
    is(sl_rd(&L, A_NODE(b[OV], RG_ST, ST_FLAGS)), FL_OVERRUN, "overrun: node flag bit 0 only");
    is(sl_rd(&L, A_NODE(b[SH], RG_ST, ST_FLAGS)), FL_SHORT, "short stream: node flag bit 1 only");
    is(sl_rd(&L, A_NODE(b[EB], RG_ST, ST_FLAGS)), FL_EBOUNDS, "eject bounds: node flag bit 2 only");
    is(sl_rd(&L, A_NODE(a[IB], RG_ST, ST_FLAGS)), FL_IBOUNDS, "inject bounds: node flag bit 3 only");
    is(sl_rd(&L, A_NODE(c4, RG_ST, ST_FLAGS)), FL_OVERRUN | FL_SHORT, "late flit: overrun and short flags");
    is(sl_rd(&L, A_NODE(b[CUT], RG_ST, ST_FLAGS)), FL_OVERRUN, "cut stream: overrun flag only at the receiver");
    is(sl_rd(&L, A_NODE(a[CUT], RG_ST, ST_FLAGS)), 0, "cut stream: no error, drop or bounds at the sender");
    is(sl_rd(&L, A_NODE(b[STOP], RG_ST, ST_FLAGS)), FL_SHORT, "unreached entry: the receiver of the next one is short");
    is(sl_rd(&L, A_NODE(a[DRP], RG_ST, ST_FLAGS)), FL_DROP, "injected flits no output takes: drop flag");
    is(sl_rd(&L, A_NODE(a[DRP], RG_ST, ST_DROP)), 3, "injected flits no output takes: 3 counted in DROP");
    unsigned z13 = 0;
    for (unsigned off = 1; off <= 3; off++)
        z13 |= sl_rd(&L, A_NODE(b[OV], RG_ST, off)) | sl_rd(&L, A_NODE(b[SH], RG_ST, off)) |
               sl_rd(&L, A_NODE(b[EB], RG_ST, off)) | sl_rd(&L, A_NODE(a[IB], RG_ST, off));
    is(z13, 0, "status offsets 1..3 read 0 (the errors are in the records and FLAGS)");
    is(sl_rd(&L, A_NODE(c, RG_ST, ST_AROUND)), E, "AROUND reads the last round after the run");
    is(sl_rd(&L, A_GLOB(G_ROUND)), E, "ROUND reads the last round after the run");

    unsigned errs = 0, mapbad = 0;
    for (unsigned v = 0; v < L.n; v++) {
        int want = v == b[OV] || v == b[SH] || v == b[EB] || v == a[IB] || v == c4 ||
                   v == b[CUT] || v == b[STOP] || v == a[DRP];
        uint32_t f = sl_rd(&L, A_NODE(v, RG_ST, ST_FLAGS));
        if ((f != 0) != want && errs++ < 4)
            diag("node %u flags 0x%x drop %u", v, f, sl_rd(&L, A_NODE(v, RG_ST, ST_DROP)));
        uint32_t map = sl_rd(&L, A_GLOB(G_ERRMAP + v / 32));
        mapbad += ((map >> (v % 32)) & 1) != (unsigned)want;
    }
    is(errs, 0, "exactly the nodes of the error cases report errors");
    is(mapbad, 0, "ERRMAP names exactly those nodes");

    /* Status clears: FLAGS write-1-to-clear, counter writes, CTRL clear. */
    sl_wr(&L, A_NODE(a[DRP], RG_ST, ST_FLAGS), FL_OVERRUN);
    is(sl_rd(&L, A_NODE(a[DRP], RG_ST, ST_FLAGS)), FL_DROP, "FLAGS: writing a 1 to another bit keeps bit 6");
    sl_wr(&L, A_NODE(a[DRP], RG_ST, ST_FLAGS), FL_DROP);
    is(sl_rd(&L, A_NODE(a[DRP], RG_ST, ST_FLAGS)), 0, "FLAGS: writing 1 clears bit 6");
    is(sl_rd(&L, A_NODE(a[DRP], RG_ST, ST_DROP)), 3, "FLAGS clear keeps the counters");
    uint32_t map = sl_rd(&L, A_GLOB(G_ERRMAP + a[DRP] / 32));
    is((map >> (a[DRP] % 32)) & 1, 0, "ERRMAP drops a node whose flags are cleared");
    sl_wr(&L, A_NODE(a[DRP], RG_ST, ST_DROP), 0);
    is(sl_rd(&L, A_NODE(a[DRP], RG_ST, ST_DROP)), 0, "a write to DROP clears it");
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);
    unsigned left = 0;
    for (unsigned w = 0; w < L.n; w++)
        for (unsigned off = 0; off < 10; off++)
            if (off != ST_AROUND)
                left += sl_rd(&L, A_NODE(w, RG_ST, off)) != 0;
    is(left, 0, "CTRL clear resets every node's flags, counters and latch");
    is(sl_rd(&L, A_GLOB(G_STATUS)) & STATUS_ERROR, 0, "CTRL clear resets STATUS bit 2");
    ok(check(ov, epoch, 0), "records survive CTRL clear");

    /* FST trace window: written by a model built with the trace; refused
     * (-2, no file) by one built without it. */
    bool traced = strstr(L.build_info(), " TRACE=1") != NULL;
    char fst[64];
    snprintf(fst, sizeof(fst), "/tmp/tn_dir_test_%d.fst", (int)getpid());
    uint64_t now = L.cycles(L.s);
    int trc = L.trace_open(L.s, fst, now + 10, now + 60);
    L.step(L.s, 100);
    L.trace_close(L.s);
    FILE *f = fopen(fst, "rb");
    long fsz = -1;
    if (f) {
        fseek(f, 0, SEEK_END);
        fsz = ftell(f);
        fclose(f);
        remove(fst);
    }
    if (traced)
        ok(trc == 0 && fsz > 0, "FST trace window written (%ld bytes)", fsz);
    else
        ok(trc == -2 && fsz < 0, "model without the trace refuses the window, writes no file");
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    return tap_done();
}
