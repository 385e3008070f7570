/* traffic on every link: every node streams len flits on each output from
 * inject lane o % LANES and ejects every input; R rounds per run.
 * usage: speed model.so CYCLES [idle] */
#include "tn_simlib.h"
#define INJ(n,l,i,w) A_NODE(n,2,((l)<<11)|((i)<<1)|(w))
#define EJ(n,l,r,w) A_NODE(n,3,((l)<<11)|((r)<<1)|(w))
#define REC(n,l,r,w) A_NODE(n,4,((l)<<12)|((r)<<2)|(w))
int main(int argc, char **argv) {
    struct simlib L; if (sl_open(&L, argv[1])) return 2;
    unsigned want = atoi(argv[2]); int idle = argc > 3;
    void (*free_run)(struct tn_sim *, int); *(void **)&free_run = dlsym(L.dl, "tn_sim_free_run");
    uint64_t (*ncyc)(const struct tn_sim *); *(void **)&ncyc = dlsym(L.dl, "tn_sim_net_cycles");
    unsigned len = 255, R = 16, lanes = L.lanes;
    for (unsigned k = 0; k < 6 * len; k++) sl_wr(&L, A_BCAST(0, k), k * 2654435761u & 0xFFFF);
    for (unsigned r = 0; r < R; r++) {
        uint32_t cfg = 0;
        for (unsigned o = 0; o < 6; o++) if (L.dim[o/2] > 1) cfg |= (1 + o % lanes) << (4*o);
        sl_wr(&L, A_BCAST(1, r), cfg);
        for (unsigned l = 0; l < lanes; l++) {
            sl_wr(&L, A_BCAST(2, (l<<11)|(r<<1)), 0x80000000u | (r << 16));
            sl_wr(&L, A_BCAST(2, (l<<11)|(r<<1)|1), (len << 16) | (l * len));
            sl_wr(&L, A_BCAST(3, (l<<11)|(r<<1)), 0x80000000u | l);
            sl_wr(&L, A_BCAST(3, (l<<11)|(r<<1)|1), (len << 16) | (2048 + l * len));
        }
        sl_wr(&L, A_GLOB(0x8000 + r), 2 + len);
    }
    for (unsigned l = 0; l < lanes; l++) { sl_wr(&L, A_BCAST(2, (l<<11)|(R<<1)), 0); sl_wr(&L, A_BCAST(2, (l<<11)|(R<<1)|1), 0); }
    sl_wr(&L, A_GLOB(0x011), R);
    unsigned per_run = R * (2 + len), runs = (want + per_run - 1) / per_run;
    uint64_t n0 = ncyc(L.s);
    if (idle) { free_run(L.s, 1); L.step(L.s, want); free_run(L.s, 0); }
    else for (unsigned i = 0; i < runs; i++) { sl_wr(&L, A_GLOB(0x010), 1); L.step(L.s, per_run + 2); }
    uint64_t n1 = ncyc(L.s);
    uint32_t st = sl_rd(&L, A_GLOB(0x012));
    uint32_t c = sl_rd(&L, REC(0, 0, R-1, 0));
    printf("net cycles %llu status %x rec0 count %u (want %u) errors %x\n", (unsigned long long)(n1 - n0), st, c & 0xFFFF, len, sl_rd(&L, A_NODE(0,5,0)));
    sl_close(&L); return 0;
}
