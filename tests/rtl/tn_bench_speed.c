/* SPDX-License-Identifier: MIT */
/* The simulator's cost probe (make bench, tests/rtl/tn_bench.sh): runs one
 * kind of work on a model and prints the cycles it really simulated, so a
 * caller can divide an instruction count (callgrind) or a wall time by them.
 *
 *   tn_bench_speed MODEL.so CYCLES MODE
 *
 * MODE traffic: every node streams LEN flits on each of its outputs (output
 *   o from inject lane o mod LANES, circuits) and ejects every input, in
 *   ROUNDS rounds per run, runs back to back until CYCLES network cycles;
 * MODE idle: the network clocked (free run) with nothing to do: the model
 *   clocks no plane and runs no node's code (only what has work);
 * MODE idle_all: the same with every plane and node evaluated
 *   (tn_sim_eval_all, a board's way), as the nodes with nothing to do in
 *   a run are;
 * MODE load: bus writes to the flit memory (the bridge's work while the
 *   host loads an image): the network is not clocked.
 * The set-up (tables) is the same in every mode and costs the same for
 * every CYCLES, so the difference of two runs (CYCLES and 0) is the cost of
 * the work alone.
 * Prints: "MODE net_cycles N bus_cycles B words K check ok|FAILED (why)"
 * (K: the flit memory words a load wrote, 0 in the other modes); exit 0
 * when the check holds (traffic: every run done without an error and the
 * last round's record has LEN flits; idle: no network error; load: the last
 * word written reads back). */
#include "tn_simlib.h"

#define LEN 255u   /* flits per stream */
#define ROUNDS 16u /* rounds per run */

/* Every node: output o sends inject lane o mod LANES's stream of LEN flits
 * in every round; eject lane l stores input port l's flits. */
static void setup_traffic(struct simlib *L)
{
    for (unsigned k = 0; k < 6 * LEN; k++)
        sl_wr(L, A_BCAST(RG_MEM, k), (k * 2654435761u) & sl_wmask(L));
    for (unsigned r = 0; r < ROUNDS; r++) {
        uint32_t cfg = 0;
        for (unsigned o = 0; o < 6; o++)
            if (L->dim[o / 2] > 1)
                cfg |= CFG_SEL(o, SEL_LANE(o % L->lanes));
        sl_cfg(L, SL_ALL, r, cfg);
        for (unsigned l = 0; l < L->lanes; l++) {
            /* lane l's words start at l * LEN: distinct banks in every cycle */
            sl_inj(L, SL_ALL, l, r, r, 0, LEN, l * LEN);
            sl_ej(L, SL_ALL, l, r, l, 0, LEN, L->mem_depth / 2 + l * LEN);
        }
        sl_dur(L, r, 2 + LEN);
    }
    for (unsigned l = 0; l < L->lanes; l++)
        sl_inj_end(L, SL_ALL, l, ROUNDS);
    sl_wr(L, A_GLOB(G_NROUNDS), ROUNDS);
}

static uint32_t words; /* flit memory words written by run_load */

static int run_traffic(struct simlib *L, unsigned cycles, char *why, size_t n)
{
    unsigned per_run = ROUNDS * (2 + LEN);
    unsigned runs = (cycles + per_run - 1) / per_run;
    for (unsigned i = 0; i < runs; i++) {
        sl_wr(L, A_GLOB(G_CTRL), CTRL_START);
        L->step(L->s, per_run + 2);
        uint32_t st = sl_rd(L, A_GLOB(G_STATUS));
        if (st != STATUS_DONE) {
            snprintf(why, n, "run %u status %x", i, st);
            return -1;
        }
    }
    if (runs > 0) {
        struct sl_rec rec;
        sl_rec_read(L, 0, 0, ROUNDS - 1, &rec);
        if (rec.count != LEN || rec.err != 0) {
            snprintf(why, n, "last record count %u err %u", rec.count, rec.err);
            return -1;
        }
    }
    return 0;
}

static int idle_run(struct simlib *L, unsigned cycles, int all, char *why, size_t n)
{
    L->free_run(L->s, 1);
    L->eval_all(L->s, all);
    L->step(L->s, cycles);
    L->free_run(L->s, 0);
    L->eval_all(L->s, 0);
    uint32_t st = sl_rd(L, A_GLOB(G_STATUS));
    if (st & STATUS_ERROR) {
        snprintf(why, n, "status %x", st);
        return -1;
    }
    return 0;
}

static int run_idle(struct simlib *L, unsigned cycles, char *why, size_t n)
{
    return idle_run(L, cycles, 0, why, n);
}

static int run_idle_all(struct simlib *L, unsigned cycles, char *why, size_t n)
{
    return idle_run(L, cycles, 1, why, n);
}

/* Bus writes of flit memory words, until the bus has run cycles cycles. */
static int run_load(struct simlib *L, unsigned cycles, char *why, size_t n)
{
    uint64_t c0 = L->cycles(L->s);
    uint32_t k = 0, last = 0;
    while (L->cycles(L->s) - c0 < cycles) {
        last = (k * 40503u + 7u) & sl_wmask(L);
        sl_wr(L, A_NODE(0, RG_MEM, k % L->mem_depth), last);
        k++;
    }
    words = k;
    if (k > 0 && sl_rd(L, A_NODE(0, RG_MEM, (k - 1) % L->mem_depth)) != last) {
        snprintf(why, n, "word %u does not read back", (k - 1) % L->mem_depth);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s MODEL.so CYCLES traffic|idle|idle_all|load\n", argv[0]);
        return 2;
    }
    const char *mode = argv[3];
    int (*work)(struct simlib *, unsigned, char *, size_t) =
        !strcmp(mode, "traffic") ? run_traffic : !strcmp(mode, "idle") ? run_idle
        : !strcmp(mode, "idle_all") ? run_idle_all : !strcmp(mode, "load") ? run_load : NULL;
    if (!work) {
        fprintf(stderr, "%s: unknown mode '%s' (traffic, idle, idle_all, load)\n", argv[0], mode);
        return 2;
    }
    struct simlib L;
    if (sl_open(&L, argv[1]))
        return 2;
    setup_traffic(&L);
    uint64_t n0 = L.net_cycles(L.s), b0 = L.cycles(L.s);
    char why[128] = "";
    int rc = work(&L, (unsigned)strtoul(argv[2], NULL, 10), why, sizeof why);
    uint64_t n1 = L.net_cycles(L.s), b1 = L.cycles(L.s);
    printf("%s net_cycles %llu bus_cycles %llu words %u check %s%s%s\n", mode,
           (unsigned long long)(n1 - n0), (unsigned long long)(b1 - b0), words,
           rc ? "FAILED (" : "ok", why, rc ? ")" : "");
    sl_close(&L);
    return rc ? 1 : 0;
}
