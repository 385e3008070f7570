/* SPDX-License-Identifier: MIT */
/* Verilator speed with traffic on every link: every node streams on every
 * output from an inject lane and ejects every input, in all ROUNDS rounds.
 * Prints: cycles cycles_per_s router_cycles_per_s flits_delivered_ok
 * Usage: tn_bench_speed model.so [cycles] */
#include <time.h>

#include "tn_simlib.h"

int main(int argc, char **argv)
{
    struct simlib L;
    if (argc < 2) {
        fprintf(stderr, "usage: tn_bench_speed model.so [cycles]\n");
        return 1;
    }
    unsigned want = argc > 2 ? (unsigned)atoi(argv[2]) : 5000;
    if (sl_open(&L, argv[1]))
        return 2;
    unsigned len = L.mem_depth / 2 / 6;
    if (len > 600)
        len = 600;
    for (unsigned k = 0; k < 6 * len; k++)
        sl_wr(&L, A_BCAST(0, k), k * 2654435761u);
    for (unsigned r = 0; r < L.rounds; r++) {
        for (unsigned o = 0; o < 6; o++) {
            unsigned l = o % L.lanes;
            sl_wr(&L, A_BCAST(2, r * 64 + o), L.dim[o / 2] > 1 ? 1 + l : 0);
        }
        for (unsigned l = 0; l < L.lanes; l++) {
            sl_wr(&L, A_BCAST(2, r * 64 + 8 + l), 8 + l);
            sl_wr(&L, A_BCAST(2, r * 64 + 16 + 3 * l), 0x80000000u);
            sl_wr(&L, A_BCAST(2, r * 64 + 17 + 3 * l), l * len);
            sl_wr(&L, A_BCAST(2, r * 64 + 18 + 3 * l), len);
            sl_wr(&L, A_BCAST(2, r * 64 + 40 + 3 * l), 0x80000000u);
            sl_wr(&L, A_BCAST(2, r * 64 + 41 + 3 * l), L.mem_depth / 2 + l * len);
            sl_wr(&L, A_BCAST(2, r * 64 + 42 + 3 * l), len);
        }
        sl_wr(&L, A_GLOB(0x100 + r), 2 + len);
    }
    unsigned per_run = L.rounds * (2 + len), runs = (want + per_run - 1) / per_run;
    sl_wr(&L, A_GLOB(0x011), L.rounds);
    struct timespec a, b;
    double t = 0;
    for (unsigned i = 0; i < runs; i++) {
        sl_wr(&L, A_GLOB(0x010), 1);
        clock_gettime(CLOCK_MONOTONIC, &a);
        L.step(L.s, per_run + 2);
        clock_gettime(CLOCK_MONOTONIC, &b);
        t += (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    }
    uint32_t st = sl_rd(&L, A_GLOB(0x012));
    uint32_t cnt = sl_rd(&L, A_NODE(0, 3, 4));
    double cyc = (double)runs * (per_run + 2);
    printf("%.0f %.0f %.0f %s\n", cyc, cyc / t, cyc / t * L.n,
           (st & 0xF) == 2 && cnt == len ? "ok" : "FAILED");
    sl_close(&L);
    return 0;
}
