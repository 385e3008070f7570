/* SPDX-License-Identifier: MIT */
/* Relay-mode test: head-routed packets through a BFS spanning tree's
 * 1-interval routing tables (DFS labels), then by dimension-order routing,
 * then a deliberate collision. The test computes paths itself (tree paths
 * from parent pointers, DOR paths from docs/hardware.md's rule), schedules
 * packets so that no two hold one link at once (back-to-back reuse allowed:
 * a link is released by the tail), and predicts every arrival cycle with
 * docs/timing.md's per-hop rule.
 * Usage: tn_relay_test model.so [seed] [packet attempts per round] */
#include <inttypes.h>

#include "../tap.h"
#include "tn_simlib.h"

#define MAXN 4096
#define MAXP 512
#define MAXH 64

static struct simlib L;
static uint64_t rng = 0xC0FFEE1234ULL;
static int parent[MAXN], pdir[MAXN], depth[MAXN], label[MAXN], size_[MAXN];
static unsigned order[MAXN];
static uint32_t hi_of[MAXN][6], lo_of[MAXN][6], en_of[MAXN];

struct pkt {
    unsigned round, src, dst, s, n, hops, addr, eaddr;
    unsigned node[MAXH + 1];
    int dir[MAXH];
    uint32_t data[32];
};
static struct pkt P[MAXP];
static unsigned np;
static uint64_t *busy_until; /* [node*6+dir] last cycle (relative) held, per round */
static unsigned *memtop;
static unsigned b2b;         /* links reused the cycle after a tail */

static unsigned rnd(unsigned k)
{
    return k ? sl_rand(&rng) % k : 0;
}

static void bfs_tree(void)
{
    unsigned q[MAXN], qh = 0, qt = 0;
    for (unsigned i = 0; i < L.n; i++)
        parent[i] = -2;
    parent[0] = -1;
    depth[0] = 0;
    q[qt++] = 0;
    while (qh < qt) {
        unsigned v = q[qh++];
        for (int d = 0; d < 6; d++) {
            if (L.dim[d / 2] < 2)
                continue;
            unsigned w = sl_nbr(&L, v, d);
            if (parent[w] != -2)
                continue;
            parent[w] = (int)v;
            pdir[w] = d ^ 1; /* w reaches its parent in the opposite direction */
            depth[w] = depth[v] + 1;
            q[qt++] = w;
        }
    }
    /* DFS preorder labels (children in direction order of their arcs) */
    unsigned st[MAXN], sp = 0, next = 0;
    st[sp++] = 0;
    while (sp) {
        unsigned v = st[--sp];
        label[v] = (int)next;
        order[next++] = v;
        for (int d = 5; d >= 0; d--) {
            if (L.dim[d / 2] < 2)
                continue;
            unsigned w = sl_nbr(&L, v, d);
            if (parent[w] == (int)v && pdir[w] == (d ^ 1))
                st[sp++] = w;
        }
    }
    for (unsigned i = 0; i < L.n; i++)
        size_[i] = 1;
    for (int k = (int)L.n - 1; k > 0; k--) {
        unsigned v = order[k];
        size_[parent[v]] += size_[v];
    }
    /* intervals: child arcs get the child's subtree, the parent arc the rest (cyclic) */
    for (unsigned v = 0; v < L.n; v++) {
        en_of[v] = 0;
        for (int d = 0; d < 6; d++) {
            if (L.dim[d / 2] < 2)
                continue;
            unsigned w = sl_nbr(&L, v, d);
            if (parent[w] == (int)v && pdir[w] == (d ^ 1)) {
                lo_of[v][d] = (uint32_t)label[w];
                hi_of[v][d] = (uint32_t)(label[w] + size_[w] - 1);
                en_of[v] |= 1u << d;
            }
        }
        if (parent[v] >= 0) {
            lo_of[v][pdir[v]] = (uint32_t)((label[v] + size_[v]) % (int)L.n);
            hi_of[v][pdir[v]] = (uint32_t)((label[v] + (int)L.n - 1) % (int)L.n);
            en_of[v] |= 1u << pdir[v];
        }
    }
}

/* Tree path src -> dst via the lowest common ancestor. */
static unsigned tree_path(unsigned src, unsigned dst, unsigned *node, int *dir)
{
    unsigned up[MAXH], nu = 0, down[MAXH], nd = 0;
    unsigned a = src, b = dst;
    while (depth[a] > depth[b]) { up[nu++] = a; a = (unsigned)parent[a]; }
    while (depth[b] > depth[a]) { down[nd++] = b; b = (unsigned)parent[b]; }
    while (a != b) {
        up[nu++] = a; a = (unsigned)parent[a];
        down[nd++] = b; b = (unsigned)parent[b];
    }
    unsigned h = 0;
    node[0] = src;
    for (unsigned i = 0; i < nu; i++) {
        dir[h] = pdir[up[i]];
        node[++h] = (unsigned)parent[up[i]];
    }
    for (unsigned i = nd; i-- > 0;) {
        dir[h] = pdir[down[i]] ^ 1;
        node[++h] = down[i];
    }
    return h;
}

/* DOR: X, then Y, then Z; + if the forward distance is at most k/2. */
static unsigned dor_path(unsigned src, unsigned dst, unsigned *node, int *dir)
{
    unsigned h = 0, cur = src;
    node[0] = src;
    for (int dim = 0; dim < 3; dim++) {
        unsigned k = L.dim[dim];
        unsigned fwd = (sl_coord(&L, dst, dim) + k - sl_coord(&L, cur, dim)) % k;
        if (!fwd)
            continue;
        int d = 2 * dim + (2 * fwd <= k ? 0 : 1);
        unsigned steps = (d & 1) ? k - fwd : fwd;
        for (unsigned i = 0; i < steps; i++) {
            dir[h] = d;
            cur = sl_nbr(&L, cur, d);
            node[++h] = cur;
        }
    }
    return h;
}

/* Schedule a packet: earliest offset at which every link is free. */
static int add_pkt(unsigned r, unsigned src, unsigned dst, int dor, unsigned *used_src,
                   unsigned *used_dst)
{
    if (np >= MAXP || used_src[src] || used_dst[dst] || src == dst)
        return -1;
    struct pkt *p = &P[np];
    p->round = r;
    p->src = src;
    p->dst = dst;
    p->n = 2 + rnd(10);
    p->hops = dor ? dor_path(src, dst, p->node, p->dir) : tree_path(src, dst, p->node, p->dir);
    if (p->hops > MAXH - 1)
        return -1;
    for (unsigned s = 0; s < 40; s++) {
        int okk = 1;
        for (unsigned i = 0; i < p->hops && okk; i++)
            if (busy_until[p->node[i] * 6 + p->dir[i]] + 1 > s + i + 1)
                okk = 0;
        if (!okk)
            continue;
        for (unsigned i = 0; i < p->hops; i++) {
            uint64_t *b = &busy_until[p->node[i] * 6 + p->dir[i]];
            if (*b && *b + 1 == s + i + 1)
                b2b++;
            *b = s + i + p->n; /* head at s+i+1 .. tail at s+i+n */
        }
        p->s = s;
        used_src[src] = used_dst[dst] = 1;
        uint32_t mask = L.w >= 32 ? 0xFFFFFFFFu : (1u << L.w) - 1;
        uint32_t c = sl_coord(&L, dst, 0) | sl_coord(&L, dst, 1) << 4 | sl_coord(&L, dst, 2) << 8;
        p->data[0] = dor ? c : (uint32_t)label[dst];
        for (unsigned k = 1; k < p->n; k++)
            p->data[k] = sl_rand(&rng) & mask;
        p->addr = memtop[src];
        memtop[src] += p->n;
        p->eaddr = memtop[dst];
        memtop[dst] += p->n;
        np++;
        return 0;
    }
    return -1;
}

static void load_pkt(struct pkt *p, unsigned lane_relay_eject)
{
    unsigned r = p->round;
    for (unsigned k = 0; k < p->n; k++) {
        sl_wr(&L, A_NODE(p->src, 0, p->addr + k), p->data[k]);
        sl_wr(&L, A_NODE(p->src, 1, p->addr + k), (k == 0 ? 1u : 0u) | (k == p->n - 1 ? 2u : 0u));
    }
    sl_wr(&L, A_NODE(p->src, 2, r * 64 + 16), 0xC0000000u | p->s);
    sl_wr(&L, A_NODE(p->src, 2, r * 64 + 17), p->addr);
    sl_wr(&L, A_NODE(p->src, 2, r * 64 + 18), p->n);
    sl_wr(&L, A_NODE(p->dst, 2, r * 64 + 40 + 3 * lane_relay_eject), 0x80000000u);
    sl_wr(&L, A_NODE(p->dst, 2, r * 64 + 41 + 3 * lane_relay_eject), p->eaddr);
    sl_wr(&L, A_NODE(p->dst, 2, r * 64 + 42 + 3 * lane_relay_eject), p->n);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tn_relay_test model.so [seed]\n");
        return 1;
    }
    if (argc > 2)
        rng = strtoull(argv[2], NULL, 0);
    unsigned attempts = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
    if (sl_open(&L, argv[1]))
        return 2;
    diag("model %s: %s", argv[1], L.build_info());
    if (L.n > MAXN)
        return 2;
    busy_until = calloc((size_t)L.n * 6, sizeof(uint64_t));
    memtop = calloc(L.n, sizeof(unsigned));
    unsigned *us = calloc(L.n, sizeof(unsigned)), *ud = calloc(L.n, sizeof(unsigned));
    if (!busy_until || !memtop || !us || !ud)
        return 2;
    bfs_tree();
    const unsigned EL = 0; /* the relay eject lane used at every node */

    /* Round 0: interval routing; round 1: DOR; round 2: collision. */
    unsigned dur[3], first_of_round[4];
    for (unsigned r = 0; r < 2; r++) {
        memset(busy_until, 0, (size_t)L.n * 6 * sizeof(uint64_t));
        memset(us, 0, L.n * sizeof(unsigned));
        memset(ud, 0, L.n * sizeof(unsigned));
        first_of_round[r] = np;
        for (unsigned t = 0; t < (attempts ? attempts : 3 * L.n); t++)
            add_pkt(r, rnd(L.n), rnd(L.n), r == 1, us, ud);
        unsigned need = 0;
        for (unsigned i = first_of_round[r]; i < np; i++)
            if (P[i].s + P[i].hops + P[i].n > need)
                need = P[i].s + P[i].hops + P[i].n;
        dur[r] = L.alpha + need;
        diag("round %u (%s): %u packets, duration %u", r, r ? "DOR" : "interval",
             np - first_of_round[r], dur[r]);
    }
    ok(b2b > 0, "schedule reuses %u links the cycle after a tail (release on tail tested)", b2b);

    /* Round 2: two packets to one destination; the second meets the first's held link. */
    first_of_round[2] = np;
    unsigned coll_node = 0, coll_port = 0, coll_tgt = 0, p1 = 0, p2 = 0;
    int have_coll = 0;
    for (unsigned tries = 0; tries < 1000 && !have_coll; tries++) {
        unsigned c = rnd(L.n), a = rnd(L.n), b = rnd(L.n);
        if (a == b || a == c || b == c)
            continue;
        struct pkt *A = &P[np], *B = &P[np + 1];
        unsigned ha = tree_path(a, c, A->node, A->dir), hb = tree_path(b, c, B->node, B->dir);
        /* first link of B's path that A also uses */
        int ia = -1, ib = -1;
        for (unsigned j = 0; j < hb && ib < 0; j++)
            for (unsigned i = 0; i < ha; i++)
                if (A->node[i] == B->node[j] && A->dir[i] == B->dir[j]) {
                    ia = (int)i;
                    ib = (int)j;
                    break;
                }
        if (ib < 0)
            continue;
        A->round = B->round = 2;
        A->src = a; B->src = b; A->dst = B->dst = c;
        A->hops = ha; B->hops = hb;
        A->n = 8; B->n = 5;
        A->s = ib > ia ? 0 : (unsigned)(ia - ib);
        /* B's head reaches the shared link 3 cycles after A's head took it */
        B->s = A->s + (unsigned)ia + 3 - (unsigned)ib;
        A->data[0] = B->data[0] = (uint32_t)label[c];
        for (unsigned k = 1; k < 8; k++)
            A->data[k] = sl_rand(&rng) & 0xFF;
        for (unsigned k = 1; k < 5; k++)
            B->data[k] = sl_rand(&rng) & 0xFF;
        A->addr = memtop[a]; memtop[a] += A->n;
        B->addr = memtop[b]; memtop[b] += B->n;
        A->eaddr = memtop[c]; memtop[c] += A->n;
        B->eaddr = A->eaddr;
        coll_node = B->node[ib];
        coll_port = ib == 0 ? 8 : (unsigned)B->dir[ib - 1];
        coll_tgt = (unsigned)B->dir[ib];
        p1 = np; p2 = np + 1;
        np += 2;
        dur[2] = L.alpha + A->s + A->hops + A->n + 2;
        have_coll = 1;
    }
    ok(have_coll, "found two tree paths that share a link for the collision round");
    first_of_round[3] = np;

    /* Load. */
    sl_wr(&L, A_GLOB(0x010), 4);
    for (unsigned r = 0; r < 3; r++)
        for (unsigned f = 0; f < 64; f++)
            sl_wr(&L, A_BCAST(2, r * 64 + f), 0);
    for (unsigned v = 0; v < L.n; v++) {
        for (int d = 0; d < 6; d++) {
            sl_wr(&L, A_NODE(v, 5, d), lo_of[v][d]);
            sl_wr(&L, A_NODE(v, 5, 8 + d), hi_of[v][d]);
        }
        sl_wr(&L, A_NODE(v, 5, 16), en_of[v]);
        sl_wr(&L, A_NODE(v, 5, 17), (uint32_t)label[v]);
    }
    for (unsigned r = 0; r < 3; r++) {
        /* every output of a dimension that exists is relay-allocated; eject lane EL is relay */
        for (int d = 0; d < 6; d++)
            if (L.dim[d / 2] > 1)
                sl_wr(&L, A_BCAST(2, r * 64 + d), 15);
        sl_wr(&L, A_BCAST(2, r * 64 + 6), r == 1);
        sl_wr(&L, A_BCAST(2, r * 64 + 8 + EL), 15);
    }
    for (unsigned i = 0; i < np; i++)
        if (i != p2)
            load_pkt(&P[i], EL);
    if (have_coll) { /* B: inject only (its destination's descriptor is A's) */
        struct pkt *B = &P[p2];
        for (unsigned k = 0; k < B->n; k++) {
            sl_wr(&L, A_NODE(B->src, 0, B->addr + k), B->data[k]);
            sl_wr(&L, A_NODE(B->src, 1, B->addr + k), (k == 0) | (k == B->n - 1) << 1);
        }
        sl_wr(&L, A_NODE(B->src, 2, 2 * 64 + 16), 0xC0000000u | B->s);
        sl_wr(&L, A_NODE(B->src, 2, 2 * 64 + 17), B->addr);
        sl_wr(&L, A_NODE(B->src, 2, 2 * 64 + 18), B->n);
    }
    uint64_t total = 0;
    for (unsigned r = 0; r < 3; r++) {
        sl_wr(&L, A_GLOB(0x100 + r), dur[r]);
        total += dur[r];
    }
    sl_wr(&L, A_GLOB(0x011), 3);
    sl_wr(&L, A_GLOB(0x010), 1);
    L.step(L.s, total + 8);
    uint32_t status = sl_rd(&L, A_GLOB(0x012));
    ok((status & 3) == 2, "run done (STATUS 0x%x)", status);
    uint64_t t0 = sl_rd48(&L, A_GLOB(0x016));

    /* Every delivered packet: cycles, count, CRC, stored flits (head included). */
    unsigned bad[2] = {0, 0}, badmem = 0, cnt[2] = {0, 0};
    for (unsigned i = 0; i < first_of_round[2]; i++) {
        struct pkt *p = &P[i];
        uint64_t tr = t0 + (p->round ? dur[0] : 0);
        uint64_t first = tr + L.alpha + p->s + p->hops, last = first + p->n - 1;
        uint32_t crc = 0xFFFFFFFFu;
        for (unsigned k = 0; k < p->n; k++)
            crc = sl_crc_flit(crc, p->data[k], L.w);
        crc ^= 0xFFFFFFFFu;
        uint32_t base = p->round * 64 + EL * 8;
        uint64_t gf = sl_rd48(&L, A_NODE(p->dst, 3, base));
        uint64_t gl = sl_rd48(&L, A_NODE(p->dst, 3, base + 2));
        uint32_t gc = sl_rd(&L, A_NODE(p->dst, 3, base + 4));
        uint32_t gcrc = sl_rd(&L, A_NODE(p->dst, 3, base + 5));
        uint32_t ge = sl_rd(&L, A_NODE(p->dst, 3, base + 6));
        cnt[p->round]++;
        if (gf != first || gl != last || gc != p->n || gcrc != crc || ge) {
            if (bad[p->round]++ < 8)
                diag("round %u %u->%u hops %u: first %" PRIu64 "/%" PRIu64 " last %" PRIu64
                     "/%" PRIu64 " count %u/%u crc %08x/%08x err %u", p->round, p->src, p->dst,
                     p->hops, gf, first, gl, last, gc, p->n, gcrc, crc, ge);
        }
        for (unsigned k = 0; k < p->n; k++) {
            uint32_t g = sl_rd(&L, A_NODE(p->dst, 0, p->eaddr + k));
            uint32_t gflag = sl_rd(&L, A_NODE(p->dst, 1, p->eaddr + k));
            uint32_t wflag = (k == 0 ? 1u : 0u) | (k == p->n - 1 ? 2u : 0u);
            if ((g != p->data[k] || gflag != wflag) && badmem++ < 8)
                diag("node %u word %u: %x/%x flags %u/%u", p->dst, p->eaddr + k, g, p->data[k],
                     gflag, wflag);
        }
    }
    is(bad[0], 0, "interval routing: %u packets arrive at the predicted cycles, count and CRC", cnt[0]);
    is(bad[1], 0, "DOR: %u packets arrive at the predicted cycles, count and CRC", cnt[1]);
    is(badmem, 0, "relayed packets stored whole (head and tail flags included)");

    if (have_coll) {
        struct pkt *A = &P[p1], *B = &P[p2];
        uint64_t first = t0 + dur[0] + dur[1] + L.alpha + A->s + A->hops;
        uint32_t base = 2 * 64 + EL * 8;
        is(sl_rd48(&L, A_NODE(A->dst, 3, base)), first, "collision round: the holder arrives on time");
        is(sl_rd(&L, A_NODE(A->dst, 3, base + 4)), A->n, "collision round: only the holder's flits arrive");
        is(sl_rd(&L, A_NODE(coll_node, 4, 4)), 1, "collision counted once at node %u", coll_node);
        uint32_t latch = sl_rd(&L, A_NODE(coll_node, 4, 5));
        is(latch, 0x80000000u | 2u << 16 | coll_port << 8 | coll_tgt,
           "collision latched with round 2, input port %u, output %u", coll_port, coll_tgt);
        is(sl_rd(&L, A_NODE(coll_node, 4, 7)), B->n - 1, "the loser's body flits are counted as dropped");
        ok(sl_rd(&L, A_NODE(coll_node, 4, 0)) & (1u << 4), "collision flag set in node status");
        uint32_t m = sl_rd(&L, A_GLOB(0x800 + coll_node / 32));
        ok(m & (1u << (coll_node % 32)), "error map names the colliding node");
    }
    unsigned others = 0;
    for (unsigned v = 0; v < L.n; v++)
        if (v != coll_node && sl_rd(&L, A_NODE(v, 4, 0)) && others++ < 4)
            diag("node %u flags 0x%x coll %u unrt %u drop %u", v, sl_rd(&L, A_NODE(v, 4, 0)),
                 sl_rd(&L, A_NODE(v, 4, 4)), sl_rd(&L, A_NODE(v, 4, 6)), sl_rd(&L, A_NODE(v, 4, 7)));
    is(others, 0, "no other node reports a collision, unroutable head or dropped flit");
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    free(us);
    free(ud);
    free(busy_until);
    free(memtop);
    return tap_done();
}
