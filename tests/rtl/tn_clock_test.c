/* SPDX-License-Identifier: MIT */
/* Clock test: the simulator clocks the network only while it has work,
 * of its planes only the ones with work, and of a clocked plane runs the
 * code of the nodes with work only; a board's network clock runs always
 * (tn_sim_free_run) and clocks every plane and node (tn_sim_eval_all). All
 * must give the same cycles between START_CYCLE and any timestamp
 * (docs/hardware.md, "Clocks and reset"). The same schedule (streams in
 * several rounds, one flit arriving after the run's end) runs on demand, as
 * a board (free running, everything evaluated, idle network cycles before
 * the start), on demand again, and free running with only what has work
 * evaluated: every record
 * (count, round-relative first/last, CRC, error bits) and END_CYCLE -
 * START_CYCLE are identical, the epoch counts the runs. Also: the cycle
 * counter counts network clocks only, an idle network is not clocked
 * unless free running, START_CYCLE is absolute, a flit memory word clocks
 * only its node's plane (two network cycles to write, four to read) and
 * words of nodes in every plane read back whatever plane was read before.
 * Usage: tn_clock_test model.so [seed] */
#include <inttypes.h>

#include "../tap.h"
#include "tn_simlib.h"

#define NR 4
#define MAXS 256

struct stream {
    unsigned round, src, lane, idx, s, n, hops, dst, elane, port;
};

static struct simlib L;
static uint64_t rng = 0xC10CCULL;
static struct stream st[MAXS];
static unsigned nst;

static unsigned rnd(unsigned k)
{
    return k ? sl_rand(&rng) % k : 0;
}

/* every record of the schedule */
static void read_all(struct sl_rec *out)
{
    for (unsigned i = 0; i < nst; i++)
        sl_rec_read(&L, st[i].dst, st[i].elane, st[i].round, &out[i]);
}

static uint64_t cycle_now(void)
{
    return sl_rd48(&L, A_GLOB(G_CYCLE));
}

/* Network clocks of all planes since create. */
static uint64_t planes_clocked(void)
{
    uint64_t n = 0;
    for (unsigned z = 0; z < L.dim[2]; z++)
        n += L.plane_cycles(L.s, z);
    return n;
}

/* One run of the schedule (total cycles): its STATUS, START_CYCLE and
 * END_CYCLE - START_CYCLE, and every record. */
static uint32_t run_once(uint32_t total, struct sl_rec *rec, uint64_t *start, uint64_t *len)
{
    uint32_t status = sl_run(&L, NR, total, 32);
    *start = sl_rd48(&L, A_GLOB(G_START));
    *len = sl_rd48(&L, A_GLOB(G_END)) - *start;
    read_all(rec);
    return status;
}

/* The records of a run that came `later` runs after the reference run:
 * the number of streams whose epoch is not `later` more or whose record
 * differs otherwise (the first few are printed). */
static unsigned records_differ(const struct sl_rec *rec, const struct sl_rec *ref, unsigned later,
                               const char *what)
{
    unsigned bad = 0;
    for (unsigned i = 0; i < nst; i++) {
        struct sl_rec r = rec[i];
        bad += r.epoch != ((ref[i].epoch + later) & 15);
        r.epoch = ref[i].epoch;
        if (!sl_rec_eq(&r, &ref[i]) && bad++ < 4) {
            char x[128], y[128];
            diag("stream %u: %s %s, on demand %s", i, what, sl_rec_str(&r, x, sizeof(x)),
                 sl_rec_str(&ref[i], y, sizeof(y)));
        }
    }
    return bad;
}

/* Network clocks of node v's plane and of all the other planes during a
 * read or write of word a of v's flit memory. */
static void plane_clocks(unsigned v, unsigned a, int write, uint64_t *own, uint64_t *others)
{
    uint64_t before[16];
    unsigned nz = L.dim[2], zv = v / (L.dim[0] * L.dim[1]);
    for (unsigned z = 0; z < nz; z++)
        before[z] = L.plane_cycles(L.s, z);
    if (write)
        sl_wr(&L, A_NODE(v, RG_MEM, a), v & sl_wmask(&L));
    else
        (void)sl_rd(&L, A_NODE(v, RG_MEM, a));
    L.step(L.s, 16); /* (a write is posted: its clocks come after it completes) */
    *own = *others = 0;
    for (unsigned z = 0; z < nz; z++)
        *(z == zv ? own : others) += L.plane_cycles(L.s, z) - before[z];
}

/* One word in the last row of every node's memory, written node by node
 * and read back in the opposite order: the number of words that differ. */
static unsigned words_across_planes(void)
{
    unsigned a = L.mem_depth - 1, bad = 0;
    for (unsigned v = 0; v < L.n; v++)
        sl_wr(&L, A_NODE(v, RG_MEM, a), (v * 40503u + 1u) & sl_wmask(&L));
    for (unsigned v = L.n; v-- > 0;)
        bad += sl_rd(&L, A_NODE(v, RG_MEM, a)) != ((v * 40503u + 1u) & sl_wmask(&L));
    return bad;
}

int main(int argc, char **argv)
{
    int start = sl_start(&L, argc, argv, "model.so [seed]", 2, &rng);
    if (start)
        return start;
    diag("model %s: %s", argv[1], L.build_info());
    unsigned *memtop = calloc(L.n, sizeof(unsigned)), *nidx = calloc((size_t)L.n * 6, sizeof(unsigned));
    unsigned char *arc = calloc((size_t)L.n * 6, 1), *il = calloc(L.n, 1), *el = calloc(L.n, 1);
    uint32_t *cfg = calloc((size_t)NR * L.n, sizeof(uint32_t));
    if (!memtop || !nidx || !arc || !il || !el || !cfg)
        return 2;

    /* Straight streams, random lanes, offsets and lengths; the last round
     * ends when its last flit is injected: flits still on the way arrive
     * after the run's end. */
    unsigned dur[NR];
    for (unsigned r = 0; r < NR; r++) {
        memset(arc, 0, (size_t)L.n * 6);
        memset(il, 0, L.n);
        memset(el, 0, L.n);
        unsigned need = 0, inj = 0;
        for (unsigned t = 0; t < 4 * L.n && nst < MAXS; t++) {
            int d = (int)rnd(6);
            if (!sl_dir_ok(&L, d))
                continue;
            unsigned src = rnd(L.n), h = 1 + rnd(L.dim[d / 2] - 1), v = src, okp = il[src] < L.lanes;
            for (unsigned i = 0; i < h && okp; i++) {
                okp = !arc[v * 6 + (unsigned)d];
                v = sl_nbr(&L, v, d);
            }
            if (!okp || el[v] >= L.lanes)
                continue;
            struct stream *S = &st[nst++];
            S->round = r;
            S->src = src;
            S->dst = v;
            S->hops = h;
            S->port = (unsigned)d;
            S->lane = il[src]++;
            S->idx = nidx[src * 6 + S->lane]++;
            S->elane = el[v]++;
            S->s = rnd(5);
            S->n = 1 + rnd(20);
            v = src;
            for (unsigned i = 0; i < h; i++) {
                arc[v * 6 + (unsigned)d] = 1;
                cfg[r * L.n + v] |= CFG_SEL(d, i ? SEL_PORT(d) : SEL_LANE(S->lane));
                v = sl_nbr(&L, v, d);
            }
            if (S->s + h + S->n > need)
                need = S->s + h + S->n;
            if (S->s + S->n > inj)
                inj = S->s + S->n;
        }
        dur[r] = L.alpha + (r == NR - 1 ? inj : need);
    }
    diag("%u streams in %u rounds", nst, NR);

    sl_clear_tables(&L, NR);
    for (unsigned r = 0; r < NR; r++) {
        for (unsigned v = 0; v < L.n; v++)
            if (cfg[r * L.n + v])
                sl_cfg(&L, v, r, cfg[r * L.n + v]);
        sl_dur(&L, r, dur[r]);
    }
    for (unsigned i = 0; i < nst; i++) {
        struct stream *S = &st[i];
        unsigned a = memtop[S->src];
        a += (S->s + S->lane + L.banks - a % L.banks) % L.banks;
        memtop[S->src] = a + S->n;
        for (unsigned k = 0; k < S->n; k++)
            sl_wr(&L, A_NODE(S->src, RG_MEM, a + k), sl_rand(&rng) & sl_wmask(&L));
        sl_inj(&L, S->src, S->lane, S->idx, S->round, S->s, S->n, a);
        unsigned b = 2048 + memtop[S->dst];
        b += (L.alpha + S->s + S->hops + S->elane + L.banks - b % L.banks) % L.banks;
        memtop[S->dst] = b - 2048 + S->n;
        sl_ej(&L, S->dst, S->elane, S->round, S->port, 0, S->n, b);
    }
    for (unsigned v = 0; v < L.n; v++)
        for (unsigned l = 0; l < L.lanes; l++)
            if (nidx[v * 6 + l])
                sl_inj_end(&L, v, l, nidx[v * 6 + l]);
    unsigned total = 0;
    for (unsigned r = 0; r < NR; r++)
        total += dur[r];

    /* The idle network is not clocked. */
    L.step(L.s, 64);
    uint64_t n0 = L.net_cycles(L.s);
    L.step(L.s, 1000);
    is(L.net_cycles(L.s) - n0, 0, "an idle network is not clocked (1000 bus cycles)");

    /* A flit memory word clocks its node's plane only: in every plane, a
     * write (the request reaches the plane, the node writes) and a read
     * (then the node's answer and the plane's). */
    unsigned pw = 0, pr = 0, px = 0;
    for (unsigned z = 0; z < L.dim[2]; z++) {
        unsigned v = z * L.dim[0] * L.dim[1] + rnd(L.dim[0] * L.dim[1]);
        uint64_t own, others;
        plane_clocks(v, L.mem_depth - 2, 1, &own, &others);
        pw += own != 2;
        px += others != 0;
        plane_clocks(v, L.mem_depth - 2, 0, &own, &others);
        pr += own != 4;
        px += others != 0;
    }
    is(pw, 0, "a flit memory write clocks its node's plane for 2 network cycles (%u planes)", L.dim[2]);
    is(pr, 0, "a flit memory read clocks its node's plane for 4 network cycles");
    is(px, 0, "neither clocks any other plane");
    is(words_across_planes(), 0, "a word in every node, read back in the opposite order, plane after plane");

    /* The cycle counter counts network clocks, free running or not. */
    uint64_t c1 = cycle_now(), m1 = L.net_cycles(L.s);
    L.step(L.s, 500);
    uint64_t c2 = cycle_now(), m2 = L.net_cycles(L.s);
    is(c2 - c1, m2 - m1, "CYCLE advances by the network clocks between two reads (idle: %" PRIu64 ")",
       m2 - m1);

    /* Run A: clocked on demand. */
    static struct sl_rec ra[MAXS], rb[MAXS], rc[MAXS], rd[MAXS];
    uint64_t starta, la, startb, lb, startc, lc, startd, ld;
    uint32_t sa = run_once(total, ra, &starta, &la);
    uint64_t enda = starta + la;
    is(la, total, "on demand: END_CYCLE - START_CYCLE is the sum of the durations");
    ok((sa & 0xB) == STATUS_DONE, "on demand: run done (STATUS 0x%x)", sa);
    unsigned late = 0;
    for (unsigned i = 0; i < nst; i++)
        late += (ra[i].err & REC_OVERRUN) != 0;
    ok(late > 0, "on demand: %u streams end after the run (overrun flits filed after the end)", late);

    /* Run B: as a board: free running, every plane and node evaluated at
     * every edge, idle network cycles before the start. */
    L.free_run(L.s, 1);
    L.eval_all(L.s, 1);
    uint64_t b0 = L.cycles(L.s), nb0 = L.net_cycles(L.s);
    unsigned idle = 777 + rnd(100);
    L.step(L.s, idle);
    is(L.net_cycles(L.s) - nb0, L.cycles(L.s) - b0, "as a board: a network clock on every bus clock");
    c1 = cycle_now();
    m1 = L.net_cycles(L.s);
    L.step(L.s, 300);
    c2 = cycle_now();
    m2 = L.net_cycles(L.s);
    is(c2 - c1, m2 - m1, "as a board: CYCLE advances by the network clocks between two reads (%" PRIu64 ")",
       m2 - m1);
    uint32_t sb = run_once(total, rb, &startb, &lb);
    L.free_run(L.s, 0);
    L.eval_all(L.s, 0);
    is(sb, sa, "as a board: the same STATUS");
    is(lb, la, "as a board: the same END_CYCLE - START_CYCLE");
    ok(startb >= enda + idle + 300, "START_CYCLE is absolute: counts the idle free-running cycles (%" PRIu64
       " after the last end)", startb - enda);

    /* Run C: on demand again. */
    uint32_t sc = run_once(total, rc, &startc, &lc);
    is(sc, sa, "on demand again: the same STATUS");
    is(lc, la, "on demand again: the same END_CYCLE - START_CYCLE");

    /* Run D: free running, only the planes and nodes with work evaluated. */
    L.free_run(L.s, 1);
    uint64_t nd0 = L.net_cycles(L.s), pd0 = planes_clocked();
    L.step(L.s, idle);
    is(L.net_cycles(L.s) - nd0, idle, "free running, what has work only: a network clock on every bus clock");
    is(planes_clocked() - pd0, 0, "free running, what has work only: no plane clocked while the network is idle");
    uint32_t sd = run_once(total, rd, &startd, &ld);
    L.free_run(L.s, 0);
    is(sd, sa, "free running, what has work only: the same STATUS");
    is(ld, la, "free running, what has work only: the same END_CYCLE - START_CYCLE");

    is(records_differ(rb, ra, 1, "as a board"), 0, "as a board: all %u records identical (epoch one more)", nst);
    is(records_differ(rc, ra, 2, "on demand again"), 0,
       "on demand again: all %u records identical (epoch two more)", nst);
    is(records_differ(rd, ra, 3, "free running, what has work only"), 0,
       "free running, what has work only: all %u records identical (epoch three more)", nst);
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    free(memtop);
    free(nidx);
    free(arc);
    free(il);
    free(el);
    free(cfg);
    return tap_done();
}
