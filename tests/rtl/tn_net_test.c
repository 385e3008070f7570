/* SPDX-License-Identifier: MIT */
/* Network test: rounds of random arc-disjoint circuits (paths and multicast
 * trees, eject-and-forward, wraparound in every dimension) on a model loaded
 * with dlopen(). The expected cycle of every stream's first and last flit,
 * its count, CRC-32 and stored data come from an independent model of
 * docs/timing.md: flit k of a stream injected at offset s crosses d links
 * and is ejected in cycle T_r + alpha + s + d + k.
 * Usage: tn_net_test model.so [rounds] [seed] [stream attempts per round] */
#include <inttypes.h>

#include "../tap.h"
#include "tn_simlib.h"

#define MAXSTREAMS 4096
#define MAXEJ 16384
#define POOL (1u << 22)

struct stream {
    unsigned round, src, lane, s, n, addr;
    uint32_t *data;
};

struct ej {
    unsigned st, node, lane, depth, addr;
};

static struct simlib L;
static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static struct stream st[MAXSTREAMS];
static struct ej ejs[MAXEJ];
static unsigned nst, nej;
static uint32_t pool[POOL];
static unsigned npool;
static uint32_t *cfg;          /* [round][node][64] */
static unsigned *memtop;       /* bump allocator per node */
static unsigned wraps[3];      /* wraparound arcs used per dimension */
static unsigned nmcast, nfwdej;

static uint32_t *cf(unsigned r, unsigned n, unsigned f)
{
    return &cfg[((size_t)r * L.n + n) * 64 + f];
}

static unsigned rnd(unsigned k)
{
    return k ? sl_rand(&rng) % k : 0;
}

static int alloc_mem(unsigned node, unsigned len, unsigned *addr)
{
    if (memtop[node] + len > L.mem_depth)
        return -1;
    *addr = memtop[node];
    memtop[node] += len;
    return 0;
}

/* Per-round resources. */
static unsigned char *arc;     /* [node*6+dir] used */
static unsigned char *ilane, *elane; /* lanes used per node */
static int *intree;            /* node -> depth in the current tree, -1 */
static int *inport;            /* node -> input port (or -1: source) */

static int dir_ok(unsigned d)
{
    return L.dim[d / 2] > 1;
}

/* Build one stream in round r from src along a random tree; 0 if built. */
static int make_stream(unsigned r, unsigned src, int forced_dir, unsigned forced_len)
{
    if (ilane[src] >= L.lanes || nst >= MAXSTREAMS)
        return -1;
    unsigned tree[64], ntree = 1, leaf[64];
    tree[0] = src;
    intree[src] = 0;
    inport[src] = -1;
    unsigned branches = forced_dir >= 0 ? 1 : 1 + rnd(3);
    for (unsigned b = 0; b < branches; b++) {
        unsigned cur = tree[rnd(ntree)];
        unsigned len = forced_dir >= 0 ? forced_len : 1 + rnd(2 * (L.dim[0] + L.dim[1] + L.dim[2]) / 3 + 1);
        for (unsigned h = 0; h < len && ntree < 64; h++) {
            int cand[6], nc = 0;
            for (int d = 0; d < 6; d++) {
                if (!dir_ok(d) || arc[cur * 6 + d])
                    continue;
                if (forced_dir >= 0 && d != forced_dir)
                    continue;
                unsigned nb = sl_nbr(&L, cur, d);
                if (intree[nb] >= 0 || elane[nb] >= L.lanes)
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
            intree[nb] = intree[cur] + 1;
            inport[nb] = d;
            tree[ntree++] = nb;
            cur = nb;
        }
    }
    if (ntree == 1) {
        intree[src] = -1;
        return -1;
    }
    /* Stream parameters and data. */
    struct stream *S = &st[nst];
    S->round = r;
    S->src = src;
    S->lane = ilane[src]++;
    S->s = rnd(6);
    S->n = 1 + rnd(24);
    if (alloc_mem(src, S->n, &S->addr) || npool + S->n > POOL) {
        fprintf(stderr, "test memory exhausted\n");
        exit(2);
    }
    S->data = &pool[npool];
    npool += S->n;
    uint32_t mask = L.w >= 32 ? 0xFFFFFFFFu : (1u << L.w) - 1;
    for (unsigned k = 0; k < S->n; k++)
        S->data[k] = sl_rand(&rng) & mask;
    *cf(r, src, 16 + 3 * S->lane) = 0x80000000u | S->s;
    *cf(r, src, 17 + 3 * S->lane) = S->addr;
    *cf(r, src, 18 + 3 * S->lane) = S->n;
    /* Crossbar: every tree node's outputs toward its children select its source. */
    unsigned nleaf = 0;
    for (unsigned t = 0; t < ntree; t++) {
        unsigned v = tree[t], kids = 0;
        for (int d = 0; d < 6; d++) {
            if (!dir_ok(d))
                continue;
            unsigned nb = sl_nbr(&L, v, d);
            if (intree[nb] == intree[v] + 1 && inport[nb] == d && arc[v * 6 + d] == 1) {
                /* child reached through this arc in this tree */
                int is_child = 0;
                for (unsigned u = 0; u < ntree; u++)
                    if (tree[u] == nb)
                        is_child = 1;
                if (!is_child)
                    continue;
                *cf(r, v, d) = v == src ? 1 + S->lane : 8 + (unsigned)inport[v];
                arc[v * 6 + d] = 2; /* claimed by this tree */
                kids++;
            }
        }
        if (kids > 1)
            nmcast++;
        if (t > 0 && (kids == 0 || rnd(3) == 0) && elane[v] < L.lanes) {
            if (kids)
                nfwdej++;
            leaf[nleaf++] = v;
        }
    }
    for (unsigned k = 0; k < nleaf; k++) {
        unsigned v = leaf[k];
        struct ej *E = &ejs[nej++];
        E->st = nst;
        E->node = v;
        E->lane = elane[v]++;
        E->depth = (unsigned)intree[v];
        if (alloc_mem(v, S->n, &E->addr)) {
            fprintf(stderr, "test memory exhausted\n");
            exit(2);
        }
        *cf(r, v, 8 + E->lane) = 8 + (unsigned)inport[v];
        *cf(r, v, 40 + 3 * E->lane) = 0x80000000u;
        *cf(r, v, 41 + 3 * E->lane) = E->addr;
        *cf(r, v, 42 + 3 * E->lane) = S->n;
    }
    for (unsigned t = 0; t < ntree; t++) {
        intree[tree[t]] = -1;
        inport[tree[t]] = -1;
    }
    /* arcs of this tree stay used (value 2 or 1 for walked-but-unused: keep both) */
    nst++;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tn_net_test model.so [rounds] [seed]\n");
        return 1;
    }
    unsigned nrounds = argc > 2 ? (unsigned)atoi(argv[2]) : 3;
    if (argc > 3)
        rng = strtoull(argv[3], NULL, 0);
    unsigned attempts = argc > 4 ? (unsigned)atoi(argv[4]) : 0;
    if (sl_open(&L, argv[1]))
        return 2;
    diag("model %s: %s, alpha %u", argv[1], L.build_info(), L.alpha);
    ok(L.alpha >= 1 && L.alpha <= 2, "INFO reports alpha %u in 1..2", L.alpha);
    if (nrounds > L.rounds)
        nrounds = L.rounds;
    cfg = calloc((size_t)nrounds * L.n * 64, sizeof(uint32_t));
    memtop = calloc(L.n, sizeof(unsigned));
    arc = calloc((size_t)L.n * 6, 1);
    ilane = calloc(L.n, 1);
    elane = calloc(L.n, 1);
    intree = malloc(L.n * sizeof(int));
    inport = malloc(L.n * sizeof(int));
    if (!cfg || !memtop || !arc || !ilane || !elane || !intree || !inport)
        return 2;
    for (unsigned i = 0; i < L.n; i++)
        intree[i] = inport[i] = -1;

    /* Generate rounds. Round 0 starts with straight lines that wrap in every dimension. */
    unsigned dur[16];
    for (unsigned r = 0; r < nrounds; r++) {
        memset(arc, 0, (size_t)L.n * 6);
        memset(ilane, 0, L.n);
        memset(elane, 0, L.n);
        unsigned first = nst;
        if (r == 0)
            for (int d = 0; d < 6; d++) {
                if (!dir_ok(d))
                    continue;
                unsigned k = L.dim[d / 2];
                /* start at the last (X+) or first (X-) coordinate so the first hop wraps */
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
        dur[r] = L.alpha + need + rnd(3);
        diag("round %u: %u streams, duration %u", r, nst - first, dur[r]);
    }
    diag("%u streams, %u ejections, %u multicast branch points, %u eject+forward, wraps X %u Y %u Z %u",
         nst, nej, nmcast, nfwdej, wraps[0], wraps[1], wraps[2]);
    for (int d = 0; d < 3; d++)
        if (L.dim[d] > 1)
            ok(wraps[d] > 0, "test uses wraparound links in dimension %d", d);
    ok(nmcast > 0, "test uses multicast trees");
    ok(nfwdej > 0 || L.lanes == 0, "test uses eject-and-forward");

    /* Load: clear the round tables by broadcast, then write what is set. */
    uint64_t c0 = L.cycles(L.s);
    sl_wr(&L, A_GLOB(0x010), 4); /* clear statistics and errors */
    for (unsigned r = 0; r < nrounds; r++)
        for (unsigned f = 0; f < 64; f++)
            sl_wr(&L, A_BCAST(2, r * 64 + f), 0);
    for (unsigned r = 0; r < nrounds; r++)
        for (unsigned n = 0; n < L.n; n++)
            for (unsigned f = 0; f < 64; f++)
                if (*cf(r, n, f))
                    sl_wr(&L, A_NODE(n, 2, r * 64 + f), *cf(r, n, f));
    for (unsigned i = 0; i < nst; i++)
        for (unsigned k = 0; k < st[i].n; k++) {
            sl_wr(&L, A_NODE(st[i].src, 0, st[i].addr + k), st[i].data[k]);
            sl_wr(&L, A_NODE(st[i].src, 1, st[i].addr + k), k == 0 ? 1 : k == st[i].n - 1 ? 2 : 0);
        }
    /* Fill eject areas with a marker so stores are visible. */
    for (unsigned e = 0; e < nej; e++)
        for (unsigned k = 0; k < st[ejs[e].st].n; k++)
            sl_wr(&L, A_NODE(ejs[e].node, 0, ejs[e].addr + k), 0x5A5A5A5Au);
    uint64_t total = 0;
    for (unsigned r = 0; r < nrounds; r++) {
        sl_wr(&L, A_GLOB(0x100 + r), dur[r]);
        total += dur[r];
    }
    sl_wr(&L, A_GLOB(0x011), nrounds);
    diag("loaded in %" PRIu64 " cycles", L.cycles(L.s) - c0);

    /* Run. */
    sl_wr(&L, A_GLOB(0x010), 1);
    L.step(L.s, total + 8);
    uint32_t status = sl_rd(&L, A_GLOB(0x012));
    ok((status & 0xF) == 0x2, "collective done without error (STATUS 0x%x)", status);
    uint64_t t0 = sl_rd48(&L, A_GLOB(0x016));
    uint64_t tend = sl_rd48(&L, A_GLOB(0x018));
    is(tend - t0, total, "run lasts the sum of the round durations");

    /* Check every ejection against the model. */
    unsigned bad = 0, badmem = 0;
    for (unsigned e = 0; e < nej; e++) {
        struct ej *E = &ejs[e];
        struct stream *S = &st[E->st];
        uint64_t tr = t0;
        for (unsigned r = 0; r < S->round; r++)
            tr += dur[r];
        uint64_t first = tr + L.alpha + S->s + E->depth;
        uint64_t last = first + S->n - 1;
        uint32_t crc = 0xFFFFFFFFu;
        for (unsigned k = 0; k < S->n; k++)
            crc = sl_crc_flit(crc, S->data[k], L.w);
        crc ^= 0xFFFFFFFFu;
        uint32_t base = S->round * 64 + E->lane * 8;
        uint64_t gf = sl_rd48(&L, A_NODE(E->node, 3, base + 0));
        uint64_t gl = sl_rd48(&L, A_NODE(E->node, 3, base + 2));
        uint32_t gc = sl_rd(&L, A_NODE(E->node, 3, base + 4));
        uint32_t gcrc = sl_rd(&L, A_NODE(E->node, 3, base + 5));
        uint32_t gerr = sl_rd(&L, A_NODE(E->node, 3, base + 6));
        if (gf != first || gl != last || gc != S->n || gcrc != crc || gerr) {
            if (bad++ < 10)
                diag("node %u lane %u round %u: first %" PRIu64 "/%" PRIu64 " last %" PRIu64
                     "/%" PRIu64 " count %u/%u crc %08x/%08x err %u (depth %u)",
                     E->node, E->lane, S->round, gf, first, gl, last, gc, S->n, gcrc, crc,
                     gerr, E->depth);
        }
        for (unsigned k = 0; k < S->n; k++) {
            uint32_t got = sl_rd(&L, A_NODE(E->node, 0, E->addr + k));
            if (got != S->data[k] && badmem++ < 10)
                diag("node %u word %u: %08x, want %08x", E->node, E->addr + k, got, S->data[k]);
        }
    }
    is(bad, 0, "all %u ejections: first/last cycle, count, CRC-32 as modelled, no error", nej);
    is(badmem, 0, "all ejected data stored at the descriptor addresses");
    unsigned errnodes = 0;
    for (unsigned n = 0; n < L.n; n++)
        if (sl_rd(&L, A_NODE(n, 4, 0)) != 0 && errnodes++ < 5)
            diag("node %u: status flags 0x%x drop %u", n, sl_rd(&L, A_NODE(n, 4, 0)),
                 sl_rd(&L, A_NODE(n, 4, 7)));
    is(errnodes, 0, "no node reports an error, drop or collision");
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    return tap_done();
}
