/* SPDX-License-Identifier: MIT */
/* Round-table test: a schedule that uses every round of the table
 * (ROUNDS = NROUNDS), with durations 0, 1, 2 (each runs as 3, the
 * shortest round) and 3 mixed in (shortest rounds back to back: every
 * table's read-ahead across a round switch at alpha = 1), random durations
 * up to 14 carrying straight streams, and one round of the longest duration 2^DW - 1 whose stream
 * ends in its last cycle. Every round has an eject descriptor (a zero-length
 * one where nothing arrives), so every round's record is checked. Then the
 * epochs: a shorter run leaves the records of the rounds it does not run
 * with the previous epoch; an abort in the long round ends the run at once
 * and files that round's records; the epoch wraps with RUNS mod 16; a start
 * while running is ignored; aborts in a round's first cycles leave its
 * records unfiled on lanes still writing the previous round's.
 * Usage: tn_rounds_test model.so [seed] [stream attempts per round] */
#include <inttypes.h>

#include "../tap.h"
#include "tn_simlib.h"

#define MAXR 2048
#define MAXS 16384
#define MAXLEN 14

struct stream {
    unsigned round, src, lane, idx, s, n, hops, addr;
    unsigned dst, elane, eaddr, port;
    uint32_t *data;
};

/* a zero-length eject descriptor */
struct zej {
    unsigned node, lane, port;
};

static struct simlib L;
static uint64_t rng = 0x12345ULL;
static struct stream st[MAXS];
static unsigned nst;
static uint32_t pool[MAXS * MAXLEN + 4096];
static unsigned npool;
/* the abort probe: a long stream running when the abort lands */
enum { PROBE_LEN = 400 };
static unsigned probe = MAXS, probe_end;
static unsigned dur[MAXR];

/* The cycles a round of written duration d lasts: at least 3 (tn_seq). */
static unsigned run_dur(unsigned d)
{
    return d < 3 ? 3 : d;
}
static struct zej zero[MAXR];
static unsigned *memtop, *nidx;
static unsigned char *arc, *ilane, *elane;
static uint32_t *cfg;

static unsigned rnd(unsigned k)
{
    return k ? sl_rand(&rng) % k : 0;
}

static unsigned alloc_mem(unsigned node, unsigned len, unsigned phase)
{
    unsigned a = memtop[node];
    a += (phase + L.banks - a % L.banks) % L.banks;
    if (a + len > L.mem_depth) {
        fprintf(stderr, "test memory exhausted at node %u\n", node);
        exit(2);
    }
    memtop[node] = a + len;
    return a;
}

/* A straight stream in round r: hops h in direction d from src, flits in
 * the round's cycles (tight when s is the largest offset). */
static int add_stream(unsigned r, unsigned src, int d, unsigned h, unsigned n, unsigned s)
{
    if (!sl_dir_ok(&L, d) || h >= L.dim[d / 2] || h == 0 || nst >= MAXS)
        return -1;
    if (ilane[src] >= L.lanes)
        return -1;
    unsigned v = src, path[16];
    for (unsigned i = 0; i < h; i++) {
        if (arc[v * 6 + (unsigned)d])
            return -1;
        path[i] = v;
        v = sl_nbr(&L, v, d);
    }
    if (elane[v] >= L.lanes)
        return -1;
    struct stream *S = &st[nst++];
    S->round = r;
    S->src = src;
    S->dst = v;
    S->hops = h;
    S->n = n;
    S->s = s;
    S->port = (unsigned)d;
    S->lane = ilane[src]++;
    S->idx = nidx[src * 6 + S->lane]++;
    S->elane = elane[v]++;
    S->addr = alloc_mem(src, n, s + S->lane);
    S->eaddr = alloc_mem(v, n, L.alpha + s + h + S->elane);
    S->data = &pool[npool];
    npool += n;
    for (unsigned k = 0; k < n; k++)
        S->data[k] = sl_rand(&rng) & sl_wmask(&L);
    for (unsigned i = 0; i < h; i++) {
        arc[path[i] * 6 + (unsigned)d] = 1;
        cfg[(size_t)r * L.n + path[i]] |=
            CFG_SEL(d, i == 0 ? SEL_LANE(S->lane) : SEL_PORT(d));
    }
    return 0;
}

static unsigned total_of(unsigned nrounds)
{
    unsigned t = 0;
    for (unsigned r = 0; r < nrounds; r++)
        t += run_dur(dur[r]);
    return t;
}

/* The records of every round of the schedule against the model: epoch
 * per round (ep[r]), streams complete unless cut short by an abort. */
static struct sl_rec got_probe;
static int probe_ok;
/* the record of stream S received whole, filed by a run of epoch e */
static struct sl_rec stream_rec(const struct stream *S, unsigned e)
{
    return (struct sl_rec){e, 0, S->n, L.alpha + S->s + S->hops, L.alpha + S->s + S->hops + S->n - 1,
                           sl_crc(S->data, S->n, L.w)};
}

static unsigned check_all(unsigned nrounds, const unsigned *ep, unsigned abort_round, unsigned *nchecked)
{
    unsigned bad = 0;
    *nchecked = 0;
    for (unsigned i = 0; i < nst; i++) {
        struct stream *S = &st[i];
        if (S->round >= nrounds)
            continue;
        struct sl_rec want = stream_rec(S, ep[S->round]);
        if (S->round == abort_round)
            want = (struct sl_rec){ep[S->round], REC_SHORT, 0, 0, 0, 0};
        if (S->round == abort_round && i == probe) {
            sl_rec_read(&L, S->dst, S->elane, S->round, &got_probe);
            /* flits on the lane before the end (probe_end, round-relative),
             * the last of them arriving in the end cycle: an overrun */
            unsigned n = probe_end - L.alpha;
            want = (struct sl_rec){ep[S->round], REC_SHORT | REC_OVERRUN, n, L.alpha + 1, L.alpha + n,
                                   sl_crc(S->data, n, L.w)};
            if (!sl_rec_eq(&got_probe, &want)) {
                char g[128], w[128];
                diag("abort probe node %u lane %u: %s, want %s", S->dst, S->elane,
                     sl_rec_str(&got_probe, g, sizeof(g)), sl_rec_str(&want, w, sizeof(w)));
            }
            probe_ok = sl_rec_eq(&got_probe, &want);
            continue;
        }
        struct sl_rec got;
        sl_rec_read(&L, S->dst, S->elane, S->round, &got);
        (*nchecked)++;
        if (!sl_rec_eq(&got, &want) && bad++ < 8) {
            char g[128], w[128];
            diag("round %u (D %u) node %u lane %u: %s, want %s", S->round, dur[S->round], S->dst,
                 S->elane, sl_rec_str(&got, g, sizeof(g)), sl_rec_str(&want, w, sizeof(w)));
        }
    }
    for (unsigned r = 0; r < nrounds; r++) {
        struct sl_rec want = {ep[r], 0, 0, 0, 0, 0}, got;
        sl_rec_read(&L, zero[r].node, zero[r].lane, r, &got);
        (*nchecked)++;
        if (!sl_rec_eq(&got, &want) && bad++ < 8) {
            char g[128], w[128];
            diag("round %u (D %u) zero-length descriptor node %u lane %u: %s, want %s", r, dur[r],
                 zero[r].node, zero[r].lane, sl_rec_str(&got, g, sizeof(g)), sl_rec_str(&want, w, sizeof(w)));
        }
    }
    return bad;
}

/* The eject descriptors (node, lane) of round r: its streams' and its
 * zero-length one; 1 when (node, lane) has one. */
static int has_desc(unsigned r, unsigned node, unsigned lane)
{
    if (zero[r].node == node && zero[r].lane == lane)
        return 1;
    for (unsigned i = 0; i < nst; i++)
        if (st[i].round == r && st[i].dst == node && st[i].elane == lane)
            return 1;
    return 0;
}

/* a descriptor of round r (a stream's, or the zero-length one: i = nst) */
struct desc {
    unsigned node, lane, i;
};
static unsigned descs_of(unsigned r, struct desc *d, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nst && n < max; i++)
        if (st[i].round == r)
            d[n++] = (struct desc){st[i].dst, st[i].elane, i};
    if (n < max)
        d[n++] = (struct desc){zero[r].node, zero[r].lane, nst};
    return n;
}

/* Aborts in a round's first cycles (docs/hardware.md, "Eject records"). An
 * eject lane writes a record over 3 cycles: the CRC word when it files,
 * the other two in the next two cycles. An abort in cycle o of round RA
 * files RA's records in the cycle after it; for o = 0 or 1 a lane that
 * filed round RA - 1 at RA's switch is still writing that record then, so
 * it leaves RA's record as it was (its epoch then says "not filed"), and
 * RA - 1's record is still written whole. For o >= 2, and on a lane with
 * nothing pending, RA's record is filed with the run's epoch. Each run
 * aborts a few cycles apart around RA's start (the abort's latency,
 * k_abort, comes from run 3), and its expectations follow the cycle the
 * abort really landed in (END_CYCLE - 1). */
static void aborts_early(int k_abort)
{
    enum { MAXD = 64 };
    unsigned RA = 0;
    struct desc d[MAXD], dp[MAXD];
    unsigned nd = 0, ndp = 0, npend = 0;
    /* the first round (starting after the abort's latency, before the
     * long one) where some lane has a descriptor in the round before too */
    for (unsigned r = 2; r < L.rounds / 2 && !RA; r++) {
        if ((int)total_of(r) < k_abort + 2)
            continue;
        nd = descs_of(r, d, MAXD);
        npend = 0;
        for (unsigned j = 0; j < nd; j++)
            npend += has_desc(r - 1, d[j].node, d[j].lane);
        if (npend)
            RA = r;
    }
    if (!RA) {
        ok(0, "early aborts: no round whose lanes had a descriptor in the round before");
        return;
    }
    ndp = descs_of(RA - 1, dp, MAXD);
    unsigned seen[3] = {0, 0, 0}, bad = 0, nchk = 0;
    unsigned start_at = total_of(RA);
    for (int o_try = -1; o_try <= 3; o_try++) {
        struct sl_rec before[MAXD], got;
        /* the run's epoch must differ from the records it should leave
         * alone: if not, a run of round 0 alone first */
        unsigned same = 0, runs = sl_rd(&L, A_GLOB(G_RUNS));
        for (unsigned j = 0; j < nd; j++) {
            sl_rec_read(&L, d[j].node, d[j].lane, RA, &before[j]);
            same += before[j].epoch == (runs + 1) % 16;
        }
        if (same)
            sl_run(&L, 1, run_dur(dur[0]), 8);
        long s = (long)start_at + o_try + 1 - k_abort;
        if (s < 1)
            continue;
        sl_wr(&L, A_GLOB(G_NROUNDS), L.rounds);
        sl_wr(&L, A_GLOB(G_CTRL), CTRL_START);
        L.step(L.s, (unsigned)s);
        sl_wr(&L, A_GLOB(G_CTRL), CTRL_ABORT);
        L.step(L.s, 32);
        unsigned e = sl_rd(&L, A_GLOB(G_RUNS)) % 16;
        long o = (long)(sl_rd48(&L, A_GLOB(G_END)) - sl_rd48(&L, A_GLOB(G_START))) - 1 - (long)start_at;
        sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);
        if (o < 0 || o > 2)
            continue;
        seen[o]++;
        /* RA - 1 ran whole: its records, written over 3 cycles, are complete */
        for (unsigned j = 0; j < ndp; j++) {
            struct sl_rec want = dp[j].i < nst ? stream_rec(&st[dp[j].i], e) : (struct sl_rec){e, 0, 0, 0, 0, 0};
            sl_rec_read(&L, dp[j].node, dp[j].lane, RA - 1, &got);
            nchk++;
            if (!sl_rec_eq(&got, &want) && bad++ < 8) {
                char g[128], w[128];
                diag("abort at cycle %ld of round %u: round %u node %u lane %u: %s, want %s", o, RA, RA - 1,
                     dp[j].node, dp[j].lane, sl_rec_str(&got, g, sizeof(g)), sl_rec_str(&want, w, sizeof(w)));
            }
        }
        /* RA: not filed where a record was still being written, else filed */
        for (unsigned j = 0; j < nd; j++) {
            int pend = o <= 1 && has_desc(RA - 1, d[j].node, d[j].lane);
            sl_rec_read(&L, d[j].node, d[j].lane, RA, &got);
            nchk++;
            int good = pend ? sl_rec_eq(&got, &before[j]) && got.epoch != e : got.epoch == e;
            if (!good && bad++ < 8) {
                char g[128], w[128];
                diag("abort at cycle %ld of round %u: node %u lane %u: %s, want %s", o, RA, d[j].node, d[j].lane,
                     sl_rec_str(&got, g, sizeof(g)),
                     pend ? sl_rec_str(&before[j], w, sizeof(w)) : "epoch of the run");
            }
        }
    }
    diag("early aborts: round %u, %u of its %u eject descriptors on lanes with one in round %u", RA, npend,
         nd, RA - 1);
    ok(seen[0] && seen[1] && seen[2], "aborts landed in cycles 0, 1 and 2 of round %u (%u, %u, %u runs)", RA,
       seen[0], seen[1], seen[2]);
    is(bad, 0, "an abort in cycle 0 or 1 of a round leaves its records unfiled on lanes still writing the "
       "previous round's, which is written whole; in cycle 2, and elsewhere, filed (%u records)", nchk);
}

int main(int argc, char **argv)
{
    int start = sl_start(&L, argc, argv, "model.so [seed] [attempts]", 2, &rng);
    if (start)
        return start;
    unsigned attempts = argc > 3 ? (unsigned)atoi(argv[3]) : 4;
    diag("model %s: %s", argv[1], L.build_info());
    unsigned R = L.rounds, LONG = R / 2, DMAX = (1u << L.dw) - 1;
    if (R > MAXR)
        return 2;
    memtop = calloc(L.n, sizeof(unsigned));
    nidx = calloc((size_t)L.n * 6, sizeof(unsigned));
    arc = calloc((size_t)L.n * 6, 1);
    ilane = calloc(L.n, 1);
    elane = calloc(L.n, 1);
    cfg = calloc((size_t)R * L.n, sizeof(uint32_t));
    if (!memtop || !nidx || !arc || !ilane || !elane || !cfg)
        return 2;

    /* Durations: segments of one kind (runs of 1, single 0s, 2s, 3s,
     * random 4..14), the long round in the middle. */
    unsigned ones = 0, zeros = 0, twos = 0, threes = 0, b2b1 = 0;
    for (unsigned r = 0; r < R;) {
        unsigned kind = rnd(6), len = 1 + rnd(5);
        for (unsigned k = 0; k < len && r < R; k++, r++) {
            dur[r] = kind == 0 ? 1 : kind == 1 ? 0 : kind == 2 ? 2 : kind == 3 ? 3 : 4 + rnd(11);
            if (r == LONG)
                dur[r] = DMAX;
        }
    }
    for (unsigned r = 0; r < R; r++) {
        ones += dur[r] == 1;
        zeros += dur[r] == 0;
        twos += dur[r] == 2;
        threes += dur[r] == 3;
        b2b1 += r && dur[r] <= 1 && dur[r - 1] <= 1;
    }
    diag("durations: %u of 1, %u of 0, %u of 2, %u of 3, %u pairs of duration-1 rounds back to back",
         ones, zeros, twos, threes, b2b1);
    ok(ones && zeros && twos && threes && b2b1, "the schedule has rounds of duration 0, 1, 2, 3 and 1 after 1");

    /* Streams and the zero-length descriptors. */
    unsigned after1 = 0;
    for (unsigned r = 0; r < R; r++) {
        memset(arc, 0, (size_t)L.n * 6);
        memset(ilane, 0, L.n);
        memset(elane, 0, L.n);
        unsigned D = run_dur(dur[r]);
        unsigned first = nst;
        if (r == LONG) {
            int d = 0;
            while (!sl_dir_ok(&L, d))
                d++;
            add_stream(r, rnd(L.n), d, 1, 3, D - L.alpha - 1 - 3);
            /* the abort probe, from another node */
            unsigned pv = (st[nst - 1].src + 1) % L.n;
            if (add_stream(r, pv, d, 1, PROBE_LEN, 0) == 0)
                probe = nst - 1;
        } else if (D >= L.alpha + 2) {
            for (unsigned t = 0; t < attempts; t++) {
                int d = (int)rnd(6);
                unsigned h = 1 + rnd(L.dim[d / 2] > 1 ? L.dim[d / 2] - 1 : 1);
                if (h + L.alpha + 1 > D)
                    continue;
                unsigned room = D - L.alpha - h, n = 1 + rnd(room), s = room - n;
                if (s && rnd(2))  /* half tight, half anywhere */
                    s = rnd(s + 1);
                if (n > MAXLEN)
                    continue;
                add_stream(r, rnd(L.n), d, h, n, s);
            }
        }
        if (nst > first && r && dur[r - 1] <= 1)
            after1++;
        /* the zero-length eject descriptor: a free lane on an input no stream uses */
        for (unsigned t = 0; t < 1000; t++) {
            unsigned v = rnd(L.n), p = rnd(6);
            if (!sl_dir_ok(&L, (int)p) || elane[v] >= L.lanes || arc[sl_nbr(&L, v, (int)(p ^ 1)) * 6 + p])
                continue;
            zero[r].node = v;
            zero[r].lane = elane[v]++;
            zero[r].port = p;
            break;
        }
    }
    diag("%u streams, %u of them in rounds right after a round of duration 1", nst, after1);
    ok(after1 > 0, "streams start in rounds that follow rounds of duration 1");

    /* Load. */
    uint64_t c0 = L.cycles(L.s);
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);
    sl_clear_tables(&L, R);
    for (unsigned r = 0; r < R; r++) {
        for (unsigned v = 0; v < L.n; v++)
            if (cfg[(size_t)r * L.n + v])
                sl_cfg(&L, v, r, cfg[(size_t)r * L.n + v]);
        sl_ej(&L, zero[r].node, zero[r].lane, r, zero[r].port, 0, 0, 0);
        sl_dur(&L, r, dur[r]);
    }
    for (unsigned i = 0; i < nst; i++) {
        struct stream *S = &st[i];
        sl_inj(&L, S->src, S->lane, S->idx, S->round, S->s, S->n, S->addr);
        sl_ej(&L, S->dst, S->elane, S->round, S->port, 0, S->n, S->eaddr);
        for (unsigned k = 0; k < S->n; k++)
            sl_wr(&L, A_NODE(S->src, RG_MEM, S->addr + k), S->data[k]);
    }
    for (unsigned v = 0; v < L.n; v++)
        for (unsigned l = 0; l < L.lanes; l++)
            if (nidx[v * 6 + l])
                sl_inj_end(&L, v, l, nidx[v * 6 + l]);
    diag("loaded in %" PRIu64 " bus cycles", L.cycles(L.s) - c0);

    /* Run 1: every round. A second start in the middle is ignored. */
    static unsigned ep[MAXR];
    unsigned total = total_of(R);
    sl_wr(&L, A_GLOB(G_NROUNDS), R);
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_START);
    L.step(L.s, total / 4);
    is(sl_rd(&L, A_GLOB(G_STATUS)) & 0xF, STATUS_RUNNING, "STATUS: running");
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_START);
    L.step(L.s, total + 16);
    uint32_t status = sl_rd(&L, A_GLOB(G_STATUS));
    is(status & 0xF, STATUS_DONE, "run 1 of %u rounds done without error", R);
    uint64_t t0 = sl_rd48(&L, A_GLOB(G_START));
    is(sl_rd48(&L, A_GLOB(G_END)) - t0, total, "END_CYCLE - START_CYCLE = sum of the durations (below 3 count as 3)");
    is(sl_rd(&L, A_GLOB(G_RUNS)), 1, "a start while running is ignored (RUNS 1)");
    is(sl_rd(&L, A_GLOB(G_ROUND)), R - 1, "ROUND reads the last round");
    for (unsigned r = 0; r < R; r++)
        ep[r] = 1;
    unsigned nchk, bad = check_all(R, ep, R, &nchk);
    is(bad, 0, "run 1: all %u records of %u rounds (count, first, last, CRC, epoch 1, no error)", nchk, R);
    unsigned badmem = 0;
    for (unsigned i = 0; i < nst; i++)
        for (unsigned k = 0; k < st[i].n; k++)
            if (sl_rd(&L, A_NODE(st[i].dst, RG_MEM, st[i].eaddr + k)) != st[i].data[k] && badmem++ < 5)
                diag("round %u node %u word %u differs", st[i].round, st[i].dst, st[i].eaddr + k);
    is(badmem, 0, "run 1: every stream's words stored");
    unsigned errn = 0;
    for (unsigned v = 0; v < L.n; v++)
        errn += sl_rd(&L, A_NODE(v, RG_ST, ST_FLAGS)) != 0;
    is(errn, 0, "run 1: no node reports an error");

    /* Run 2: a quarter of the rounds; the others keep epoch 1. */
    unsigned R2 = R / 4;
    status = sl_run(&L, R2, total_of(R2), 16);
    is(status & 0xF, STATUS_DONE, "run 2 of %u rounds done", R2);
    is(sl_rd48(&L, A_GLOB(G_END)) - sl_rd48(&L, A_GLOB(G_START)), total_of(R2),
       "run 2 lasts the sum of its %u rounds", R2);
    for (unsigned r = 0; r < R2; r++)
        ep[r] = 2;
    bad = check_all(R, ep, R, &nchk);
    is(bad, 0, "run 2: rounds < %u filed again with epoch 2, the rounds it did not run keep epoch 1", R2);

    /* Run 3: abort in the long round. */
    unsigned before = total_of(LONG);
    sl_wr(&L, A_GLOB(G_NROUNDS), R);
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_START);
    L.step(L.s, before + 100);
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_ABORT);
    L.step(L.s, 32);
    status = sl_rd(&L, A_GLOB(G_STATUS));
    is(status & 0xB, STATUS_ABORTED, "abort: STATUS aborted, not running, not done (0x%x)", status);
    ok(status & STATUS_ERROR, "abort: the cut round's short stream sets STATUS bit 2");
    uint64_t len3 = sl_rd48(&L, A_GLOB(G_END)) - sl_rd48(&L, A_GLOB(G_START));
    /* a run aborted s cycles after its start was written lasts s + k_abort
     * (its T_0 is 3 cycles after the start reaches the network, the abort
     * s cycles after the start: the run cannot end before s - 2) */
    int k_abort = (int)len3 - (int)(before + 100);
    ok(len3 + 3 > before + 100 && len3 < before + 100 + 64, "abort ends the run at once (after %" PRIu64
       " cycles, the long round starts at %u)", len3, before);
    is(sl_rd(&L, A_GLOB(G_ROUND)), LONG, "abort: ROUND reads the round it ended in");
    for (unsigned r = 0; r <= LONG; r++)
        ep[r] = 3;
    probe_end = (unsigned)(len3 - before);
    probe_ok = 0;
    bad = check_all(R, ep, LONG, &nchk);
    is(bad, 0, "abort: rounds before it epoch 3, its round filed (short, epoch 3), later rounds keep theirs");
    ok(probe < MAXS && probe_ok, "abort: a lane sends nothing after the end (a %u-flit stream cut at the abort, "
       "round-relative cycle %u)", PROBE_LEN, probe_end);
    unsigned ln = 0;
    while (ln < nst && st[ln].round != LONG)
        ln++;
    if (ln < nst)
        ok(sl_rd(&L, A_NODE(st[ln].dst, RG_ST, ST_FLAGS)) & FL_SHORT, "abort: the long round's stream is a short stream (FLAGS bit 1)");
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);

    /* Epoch wrap: runs of one round until RUNS = 17. */
    for (unsigned k = 0; k < 14; k++)
        status = sl_run(&L, 1, run_dur(dur[0]), 8);
    is(status & 0xF, STATUS_DONE, "one-round runs done (a start clears aborted)");
    is(sl_rd(&L, A_GLOB(G_RUNS)), 17, "RUNS counts 17 starts");
    struct sl_rec z;
    sl_rec_read(&L, zero[0].node, zero[0].lane, 0, &z);
    is(z.epoch, 17 % 16, "the epoch is RUNS mod 16 (wraps)");
    sl_rec_read(&L, zero[1].node, zero[1].lane, 1, &z);
    is(z.epoch, 3, "round 1 (not run since run 3) keeps epoch 3");

    aborts_early(k_abort);
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    return tap_done();
}
