/* SPDX-License-Identifier: MIT */
/* Network test: rounds of random arc-disjoint circuits (paths and multicast
 * trees, eject-and-forward, wraparound in every dimension) on a model loaded
 * with dlopen(). The expected record of every ejection (first and last flit
 * cycle, count, CRC-32, epoch, no error) and the stored words come from the
 * test's own model of docs/timing.md and docs/hardware.md: flit k of a
 * stream injected at offset s crosses d links and is ejected in the
 * round-relative cycle alpha + s + d + k. Streams are laid out in the flit
 * memory so that no two lanes of a node use one bank in one cycle: their
 * words in the lower half, the eject areas in the upper half, filled with
 * a marker by broadcast so that stores (and no stores past n) are visible.
 * Usage: tn_net_test model.so [rounds] [seed] [stream attempts per round]
 *        [stride: every stride-th ejection's words all read back, of the
 *        others the first and the last; default 1] */
#include <inttypes.h>

#include "../tap.h"
#include "tn_simlib.h"

#define MAXSTREAMS 4096
#define MAXEJ 16384
#define MAXROUNDS 64
#define MAXTREE 64
#define MAXLEN 24
#define MARKER (MEM_HEAD | MEM_TAIL | 0x5A5A)   /* no stream word has both flags */

struct stream {
    unsigned round, src, lane, idx, s, n, addr;
    uint32_t data[MAXLEN];
};

struct ej {
    unsigned st, node, lane, port, depth, addr;
};

static struct simlib L;
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static struct stream st[MAXSTREAMS];
static struct ej ejs[MAXEJ];
static unsigned nst, nej;
static uint32_t *cfg;          /* [round][node] CFG word */
static unsigned *memtop;       /* bump allocators per node: stream words */
static unsigned *ejtop;        /* ... and eject areas (upper half) */
static unsigned *nidx;         /* [node][lane] inject list length */
static unsigned wraps[3];      /* wraparound arcs used per dimension */
static unsigned nmcast, nfwdej;

/* Per-round resources. */
static unsigned char *arc;           /* [node*6+dir] used in this round */
static unsigned char *ilane, *elane; /* lanes used per node in this round */
static int *depth;                   /* node -> depth in the current tree, -1 */
static int *inport;                  /* node -> input port it is reached on */
static int *parent;                  /* node -> parent in the current tree */

static unsigned rnd(unsigned k)
{
    return k ? sl_rand(&rng) % k : 0;
}

/* len words at a node from top[node] (limit: the first word beyond its
 * area), the first in bank `phase` mod BANKS. */
static unsigned alloc_mem(unsigned *top, unsigned limit, unsigned node, unsigned len, unsigned phase)
{
    unsigned a = top[node];
    a += (phase + L.banks - a % L.banks) % L.banks;
    if (a + len + 1 > limit) {
        fprintf(stderr, "test memory exhausted at node %u\n", node);
        exit(2);
    }
    top[node] = a + len + 1;   /* a word of marker after each area */
    return a;
}

/* Build one stream in round r from src along a random tree; 0 if built. */
static int make_stream(unsigned r, unsigned src, int forced_dir, unsigned forced_len)
{
    if (ilane[src] >= L.lanes || nst >= MAXSTREAMS)
        return -1;
    unsigned tree[MAXTREE], ntree = 1;
    tree[0] = src;
    depth[src] = 0;
    inport[src] = -1;
    parent[src] = -1;
    unsigned branches = forced_dir >= 0 ? 1 : 1 + rnd(3);
    for (unsigned b = 0; b < branches; b++) {
        unsigned cur = tree[rnd(ntree)];
        unsigned len = forced_dir >= 0 ? forced_len
                                       : 1 + rnd(2 * (L.dim[0] + L.dim[1] + L.dim[2]) / 3 + 1);
        for (unsigned h = 0; h < len && ntree < MAXTREE; h++) {
            int cand[6], nc = 0;
            for (int d = 0; d < 6; d++) {
                if (!sl_dir_ok(&L, d) || arc[cur * 6 + d] || (forced_dir >= 0 && d != forced_dir))
                    continue;
                unsigned nb = sl_nbr(&L, cur, d);
                if (depth[nb] >= 0 || elane[nb] >= L.lanes)
                    continue;
                cand[nc++] = d;
            }
            if (!nc)
                break;
            int d = cand[rnd(nc)];
            unsigned nb = sl_nbr(&L, cur, d);
            arc[cur * 6 + d] = 1;
            if (sl_wraps(&L, cur, d))
                wraps[d / 2]++;
            depth[nb] = depth[cur] + 1;
            inport[nb] = d;
            parent[nb] = (int)cur;
            tree[ntree++] = nb;
            cur = nb;
        }
    }
    if (ntree == 1) {
        depth[src] = -1;
        return -1;
    }
    struct stream *S = &st[nst];
    S->round = r;
    S->src = src;
    S->lane = ilane[src]++;
    S->idx = nidx[src * 6 + S->lane]++;
    S->s = rnd(6);
    S->n = 1 + rnd(MAXLEN);
    /* lane l reads word a + k in cycle s + k: bank (a - s + cycle) is
     * (l + cycle) mod BANKS, distinct per lane */
    S->addr = alloc_mem(memtop, L.mem_depth / 2, src, S->n, S->s + S->lane);
    for (unsigned k = 0; k < S->n; k++)
        S->data[k] = (sl_rand(&rng) & sl_wmask(&L)) | (k == 0 ? MEM_HEAD : 0) |
                     (k == S->n - 1 ? MEM_TAIL : 0);
    /* crossbar: every tree node's outputs toward its children take its source */
    for (unsigned t = 1; t < ntree; t++) {
        unsigned v = tree[t], u = (unsigned)parent[v];
        cfg[r * L.n + u] |= CFG_SEL(inport[v], u == src ? SEL_LANE(S->lane) : SEL_PORT(inport[u]));
    }
    for (unsigned t = 0; t < ntree; t++) {
        unsigned v = tree[t], kids = 0;
        for (unsigned u = 1; u < ntree; u++)
            kids += parent[tree[u]] == (int)v;
        if (kids > 1)
            nmcast++;
        if (t > 0 && (kids == 0 || rnd(3) == 0) && elane[v] < L.lanes && nej < MAXEJ) {
            nfwdej += kids > 0;
            struct ej *E = &ejs[nej++];
            E->st = nst;
            E->node = v;
            E->lane = elane[v]++;
            E->port = (unsigned)inport[v];
            E->depth = (unsigned)depth[v];
            /* eject lane e writes word b + k in cycle first + k: bank
             * (b - first + cycle), (e + cycle) mod BANKS */
            E->addr = alloc_mem(ejtop, L.mem_depth, v, S->n, L.alpha + S->s + E->depth + E->lane);
        }
    }
    for (unsigned t = 0; t < ntree; t++)
        depth[tree[t]] = inport[tree[t]] = parent[tree[t]] = -1;
    nst++;
    return 0;
}

int main(int argc, char **argv)
{
    int start = sl_start(&L, argc, argv, "model.so [rounds] [seed] [attempts] [stride]", 3, &rng);
    if (start)
        return start;
    unsigned nrounds = argc > 2 ? (unsigned)atoi(argv[2]) : 3;
    unsigned attempts = argc > 4 ? (unsigned)atoi(argv[4]) : 0;
    unsigned stride = argc > 5 ? (unsigned)atoi(argv[5]) : 1;
    if (stride < 1)
        stride = 1;
    diag("model %s: %s, alpha %u, %u banks", argv[1], L.build_info(), L.alpha, L.banks);
    is(L.alpha, 1, "INFO reports alpha 1");
    if (nrounds > L.rounds)
        nrounds = L.rounds;
    if (nrounds > MAXROUNDS)
        nrounds = MAXROUNDS;
    cfg = calloc((size_t)nrounds * L.n, sizeof(uint32_t));
    memtop = calloc(L.n, sizeof(unsigned));
    ejtop = calloc(L.n, sizeof(unsigned));
    nidx = calloc((size_t)L.n * 6, sizeof(unsigned));
    arc = calloc((size_t)L.n * 6, 1);
    ilane = calloc(L.n, 1);
    elane = calloc(L.n, 1);
    depth = malloc(L.n * sizeof(int));
    inport = malloc(L.n * sizeof(int));
    parent = malloc(L.n * sizeof(int));
    if (!cfg || !memtop || !ejtop || !nidx || !arc || !ilane || !elane || !depth || !inport || !parent)
        return 2;
    for (unsigned i = 0; i < L.n; i++) {
        depth[i] = inport[i] = parent[i] = -1;
        ejtop[i] = L.mem_depth / 2;
    }

    /* Generate rounds. Round 0 starts with straight lines that wrap in every dimension. */
    unsigned dur[MAXROUNDS];
    for (unsigned r = 0; r < nrounds; r++) {
        memset(arc, 0, (size_t)L.n * 6);
        memset(ilane, 0, L.n);
        memset(elane, 0, L.n);
        unsigned first = nst;
        if (r == 0)
            for (int d = 0; d < 6; d++) {
                if (!sl_dir_ok(&L, d))
                    continue;
                unsigned k = L.dim[d / 2];
                /* start at the last (+) or first (-) coordinate: the first hop wraps */
                unsigned c[3] = {rnd(L.dim[0]), rnd(L.dim[1]), rnd(L.dim[2])};
                c[d / 2] = (d & 1) ? 0 : k - 1;
                make_stream(r, sl_id(&L, c[0], c[1], c[2]), d, k - 1);
            }
        unsigned tries = attempts ? attempts : L.n * (L.lanes > 1 ? 3 : 1);
        for (unsigned t = 0; t < tries; t++)
            make_stream(r, rnd(L.n), -1, 0);
        unsigned need = 0;
        for (unsigned e = 0; e < nej; e++) {
            struct stream *S = &st[ejs[e].st];
            if (S->round == r && S->s + ejs[e].depth + S->n > need)
                need = S->s + ejs[e].depth + S->n;
        }
        /* tight (the last flit in the round's last cycle) or a little slack */
        dur[r] = L.alpha + need + rnd(3);
        diag("round %u: %u streams, duration %u", r, nst - first, dur[r]);
    }
    diag("%u streams, %u ejections, %u multicast branch points, %u eject+forward, wraps X %u Y %u Z %u",
         nst, nej, nmcast, nfwdej, wraps[0], wraps[1], wraps[2]);
    for (int d = 0; d < 3; d++)
        if (L.dim[d] > 1)
            ok(wraps[d] > 0, "test uses wraparound links in dimension %d", d);
    ok(nmcast > 0, "test uses multicast trees");
    ok(nfwdej > 0, "test uses eject-and-forward");

    /* Load: clear the tables by broadcast, then write what is set. */
    uint64_t c0 = L.cycles(L.s);
    sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);
    sl_clear_tables(&L, nrounds);
    for (unsigned r = 0; r < nrounds; r++)
        for (unsigned n = 0; n < L.n; n++)
            if (cfg[r * L.n + n])
                sl_cfg(&L, n, r, cfg[r * L.n + n]);
    for (unsigned i = 0; i < nst; i++) {
        struct stream *S = &st[i];
        sl_inj(&L, S->src, S->lane, S->idx, S->round, S->s, S->n, S->addr);
        for (unsigned k = 0; k < S->n; k++)
            sl_wr(&L, A_NODE(S->src, RG_MEM, S->addr + k), S->data[k]);
    }
    for (unsigned n = 0; n < L.n; n++)
        for (unsigned l = 0; l < L.lanes; l++)
            if (nidx[n * 6 + l])
                sl_inj_end(&L, n, l, nidx[n * 6 + l]);
    for (unsigned e = 0; e < nej; e++) {
        struct ej *E = &ejs[e];
        struct stream *S = &st[E->st];
        sl_ej(&L, E->node, E->lane, S->round, E->port, 0, S->n, E->addr);
    }
    /* the eject areas hold a marker (by broadcast), so that stores are visible */
    unsigned ejmax = L.mem_depth / 2;
    for (unsigned n = 0; n < L.n; n++)
        if (ejtop[n] > ejmax)
            ejmax = ejtop[n];
    for (unsigned a = L.mem_depth / 2; a < ejmax; a++)
        sl_wr(&L, A_BCAST(RG_MEM, a), MARKER);
    uint64_t total = 0;
    for (unsigned r = 0; r < nrounds; r++) {
        sl_dur(&L, r, dur[r]);
        total += dur[r];
    }
    diag("loaded in %" PRIu64 " bus cycles", L.cycles(L.s) - c0);

    /* Run. */
    uint64_t b0 = L.cycles(L.s);
    uint32_t status = sl_run(&L, nrounds, total, 8);
    ok((status & 0xF) == STATUS_DONE, "collective done without error (STATUS 0x%x)", status);
    uint64_t t0 = sl_rd48(&L, A_GLOB(G_START));
    uint64_t tend = sl_rd48(&L, A_GLOB(G_END));
    is(tend - t0, total, "END_CYCLE - START_CYCLE is the sum of the round durations");
    unsigned epoch = sl_epoch(&L);
    diag("run in %" PRIu64 " bus cycles", L.cycles(L.s) - b0);

    /* Check every ejection against the model. */
    uint64_t c1 = L.cycles(L.s);
    unsigned bad = 0, badmem = 0, nread = 0;
    for (unsigned e = 0; e < nej; e++) {
        struct ej *E = &ejs[e];
        struct stream *S = &st[E->st];
        struct sl_rec want = {epoch, 0, S->n, L.alpha + S->s + E->depth,
                              L.alpha + S->s + E->depth + S->n - 1, sl_crc(S->data, S->n, L.w)};
        struct sl_rec got;
        sl_rec_read(&L, E->node, E->lane, S->round, &got);
        if (!sl_rec_eq(&got, &want) && bad++ < 10) {
            char g[128], w[128];
            diag("node %u lane %u round %u (depth %u): %s, want %s", E->node, E->lane, S->round,
                 E->depth, sl_rec_str(&got, g, sizeof(g)), sl_rec_str(&want, w, sizeof(w)));
        }
        for (unsigned k = 0; k <= S->n; k++) {
            if (e % stride && k != 0 && k < S->n - 1)
                continue;
            uint32_t m = sl_rd(&L, A_NODE(E->node, RG_MEM, E->addr + k)), w = k < S->n ? S->data[k] : MARKER;
            nread++;
            if (m != w && badmem++ < 10)
                diag("node %u word %u: %08x, want %08x", E->node, E->addr + k, m, w);
        }
    }
    is(bad, 0, "all %u ejections: round-relative first/last cycle, count, CRC-32, epoch as modelled, no error", nej);
    is(badmem, 0, "%u words read back: ejected words (data, head, tail) stored at the descriptor addresses, "
       "none past the stream", nread);
    unsigned errnodes = 0;
    for (unsigned n = 0; n < L.n; n++) {
        uint32_t f = sl_rd(&L, A_NODE(n, RG_ST, ST_FLAGS));
        if (f && errnodes++ < 5)
            diag("node %u: status flags 0x%x drop %u conflict %u", n, f,
                 sl_rd(&L, A_NODE(n, RG_ST, ST_DROP)), sl_rd(&L, A_NODE(n, RG_ST, ST_CONFLICT)));
    }
    is(errnodes, 0, "no node reports an error, drop, collision or bank conflict");
    diag("checked in %" PRIu64 " bus cycles", L.cycles(L.s) - c1);
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    return tap_done();
}
