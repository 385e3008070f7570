/* SPDX-License-Identifier: MIT */
/* Relay-mode test: head-routed packets by dimension-order routing in two
 * relay rounds, circuit rounds back to back with them (tight durations on
 * both sides of every switch), then a deliberate collision on a held link, a
 * tie of two heads for the relay eject lanes (lowest input first) and an
 * unroutable head. The test computes paths itself (DOR paths from
 * docs/hardware.md's rule; an inject entry names its packet's first hop,
 * the routers route the rest from the head), schedules packets so
 * that no two hold one link or one relay eject lane at once (back-to-back
 * reuse allowed: a path is released by the tail), lets a destination
 * gather several packets into one relay eject lane, and predicts every
 * record with docs/timing.md's per-hop rule.
 * Usage: tn_relay_test model.so [seed] [packet attempts per round] */
#include <inttypes.h>

#include "../tap.h"
#include "tn_simlib.h"

#define MAXN 4096
#define MAXP 2048
#define MAXH 64
#define MAXLEN 12
#define MAXR 8

static struct simlib L;
static uint64_t rng = 0xC0FFEE1234ULL;

struct pkt {
    unsigned round, src, dst, s, n, hops, addr;
    unsigned node[MAXH + 1];
    int dir[MAXH];
    uint32_t data[MAXLEN];
};
static struct pkt P[MAXP];
static unsigned np;
/* per round: the last receiver cycle a link / relay eject lane is held */
static unsigned *busy_link, *busy_ej, *busy_inj;
static unsigned *memtop, *npk_src, *npk_dst;
static unsigned b2b;             /* links reused the cycle after a tail */
static unsigned ngather;         /* destinations that gather 2+ packets */

static unsigned rnd(unsigned k)
{
    return k ? sl_rand(&rng) % k : 0;
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
        for (unsigned i = 0; i < steps && h < MAXH; i++) {
            dir[h] = d;
            cur = sl_nbr(&L, cur, d);
            node[++h] = cur;
        }
    }
    return h;
}

static uint32_t head_of(unsigned dst)
{
    return sl_coord(&L, dst, 0) | sl_coord(&L, dst, 1) << 4 | sl_coord(&L, dst, 2) << 8;
}

static void fill(struct pkt *p, uint32_t head)
{
    for (unsigned k = 0; k < p->n; k++)
        p->data[k] = (k ? sl_rand(&rng) & sl_wmask(&L) : head) | (k == 0 ? MEM_HEAD : 0) |
                     (k == p->n - 1 ? MEM_TAIL : 0);
}

/* Schedule a relay packet: the earliest offset at which its inject lane,
 * every link and the destination's relay eject lane are free. Times are
 * receiver cycles relative to T_r + alpha: flit k of a packet at offset s
 * is on the lane in s + k and on link i's receiver in s + i + 1 + k. */
static int add_pkt(unsigned r, unsigned src, unsigned dst)
{
    if (np >= MAXP || src == dst || npk_src[src] >= 2 || npk_dst[dst] >= 3)
        return -1;
    struct pkt *p = &P[np];
    p->round = r;
    p->src = src;
    p->dst = dst;
    p->n = 2 + rnd(MAXLEN - 2);
    p->hops = dor_path(src, dst, p->node, p->dir);
    if (p->hops >= MAXH)
        return -1;
    for (unsigned s = 0; s < 40; s++) {
        int fits = s >= busy_inj[src];
        for (unsigned i = 0; i < p->hops && fits; i++) {
            unsigned b = busy_link[p->node[i] * 6 + (unsigned)p->dir[i]];
            if (b && s + i + 1 < b + 1)
                fits = 0;
        }
        if (busy_ej[dst] && s + p->hops < busy_ej[dst] + 1)
            fits = 0;
        if (!fits)
            continue;
        for (unsigned i = 0; i < p->hops; i++) {
            unsigned *b = &busy_link[p->node[i] * 6 + (unsigned)p->dir[i]];
            if (*b && *b + 1 == s + i + 1)
                b2b++;
            *b = s + i + p->n;
        }
        busy_ej[dst] = s + p->hops + p->n - 1;
        busy_inj[src] = s + p->n;  /* the next packet's first flit from s + n on */
        p->s = s;
        npk_src[src]++;
        if (++npk_dst[dst] == 2)
            ngather++;
        fill(p, head_of(dst));
        np++;
        return 0;
    }
    return -1;
}

static void reset_round(void)
{
    memset(busy_link, 0, (size_t)L.n * 6 * sizeof(unsigned));
    memset(busy_ej, 0, L.n * sizeof(unsigned));
    memset(busy_inj, 0, L.n * sizeof(unsigned));
    memset(npk_src, 0, L.n * sizeof(unsigned));
    memset(npk_dst, 0, L.n * sizeof(unsigned));
}

/* An expected ejection: a lane's record and its stored words. */
struct ejx {
    unsigned round, node, lane, addr, n, first, last;
    uint32_t data[3 * MAXLEN];
    const char *what;
};
static struct ejx X[MAXP];
static unsigned nx;

static int cmp_arrival(const void *a, const void *b)
{
    const struct pkt *p = *(const struct pkt *const *)a, *q = *(const struct pkt *const *)b;
    unsigned fa = p->s + p->hops, fb = q->s + q->hops;
    return (fa > fb) - (fa < fb);
}

/* The relay eject lane of every destination of packets [from, to): one
 * descriptor for all its packets, stored in arrival order. */
static void plan_ejections(unsigned from, unsigned to, unsigned lane, const char *what)
{
    static struct pkt *by[MAXP];
    for (unsigned v = 0; v < L.n; v++) {
        unsigned k = 0;
        for (unsigned i = from; i < to; i++)
            if (P[i].dst == v)
                by[k++] = &P[i];
        if (!k)
            continue;
        qsort(by, k, sizeof(by[0]), cmp_arrival);
        struct ejx *e = &X[nx++];
        e->round = by[0]->round;
        e->node = v;
        e->lane = lane;
        e->n = 0;
        e->first = L.alpha + by[0]->s + by[0]->hops;
        e->last = L.alpha + by[k - 1]->s + by[k - 1]->hops + by[k - 1]->n - 1;
        e->what = what;
        for (unsigned j = 0; j < k; j++)
            for (unsigned f = 0; f < by[j]->n; f++)
                e->data[e->n++] = by[j]->data[f];
        e->addr = memtop[v];
        memtop[v] += e->n + 1;
    }
}

/* The inject entries of packets [from, to), per source in start order, from
 * list index *idx[src] on lane 0. */
static void load_injects(unsigned from, unsigned to, unsigned *idx)
{
    static struct pkt *by[MAXP];
    for (unsigned v = 0; v < L.n; v++) {
        unsigned k = 0;
        for (unsigned i = from; i < to; i++)
            if (P[i].src == v)
                by[k++] = &P[i];
        for (unsigned a = 1; a < k; a++)
            for (unsigned b = a; b > 0 && by[b - 1]->s > by[b]->s; b--) {
                struct pkt *t = by[b];
                by[b] = by[b - 1];
                by[b - 1] = t;
            }
        for (unsigned j = 0; j < k; j++) {
            struct pkt *p = by[j];
            p->addr = memtop[v];
            memtop[v] += p->n;
            for (unsigned f = 0; f < p->n; f++)
                sl_wr(&L, A_NODE(v, RG_MEM, p->addr + f), p->data[f]);
            sl_inj_relay(&L, v, 0, idx[v]++, p->round, p->s, p->n, p->addr, (unsigned)p->dir[0]);
        }
    }
}

int main(int argc, char **argv)
{
    int start = sl_start(&L, argc, argv, "model.so [seed] [attempts]", 2, &rng);
    if (start)
        return start;
    unsigned attempts = argc > 3 ? (unsigned)atoi(argv[3]) : 0;
    diag("model %s: %s", argv[1], L.build_info());
    if (L.n > MAXN || L.n < 4)
        return 2;
    if (!L.relay) {
        diag("skipped: the model has no relay hardware");
        return tap_done();
    }
    busy_link = calloc((size_t)L.n * 6, sizeof(unsigned));
    busy_ej = calloc(L.n, sizeof(unsigned));
    busy_inj = calloc(L.n, sizeof(unsigned));
    memtop = calloc(L.n, sizeof(unsigned));
    npk_src = calloc(L.n, sizeof(unsigned));
    npk_dst = calloc(L.n, sizeof(unsigned));
    unsigned *idx = calloc(L.n, sizeof(unsigned));
    if (!busy_link || !busy_ej || !busy_inj || !memtop || !npk_src || !npk_dst || !idx)
        return 2;
    for (unsigned v = 0; v < L.n; v++)
        memtop[v] = 16;

    /* Rounds: 0 circuit, 1 relay, 2 circuit, 3 relay,
     * 4 a collision on a held link, 5 a tie for the relay eject lanes and
     * an unroutable head. */
    enum { C0, R1, C2, R3, COL, TIE, NR };
    unsigned dur[NR], first_of[NR + 1];
    uint32_t relay_cfg = 0;
    for (int d = 0; d < 6; d++)
        if (sl_dir_ok(&L, d))
            relay_cfg |= CFG_SEL(d, SEL_RELAY);

    sl_wr(&L, A_GLOB(G_CTRL), CTRL_CLEAR);
    sl_clear_tables(&L, NR);

    /* Relay rounds: random packets; circuit rounds: every node streams to
     * its neighbour in one direction (the first existing one, then the last). */
    int cdir[2] = {-1, -1};
    for (int d = 0; d < 6; d++)
        if (sl_dir_ok(&L, d)) {
            if (cdir[0] < 0)
                cdir[0] = d;
            cdir[1] = d;
        }
    for (unsigned r = C0; r <= R3; r++) {
        first_of[r] = np;
        reset_round();
        unsigned need = 0;
        if (r == C0 || r == C2) {
            int d = cdir[r == C2];
            sl_wr(&L, A_BCAST(RG_CFG, r), CFG_SEL(d, SEL_LANE(0)));
            for (unsigned v = 0; v < L.n && np < MAXP; v++) {
                struct pkt *p = &P[np++];
                p->round = r;
                p->src = v;
                p->dst = sl_nbr(&L, v, d);
                p->s = 0;
                p->n = 1 + rnd(MAXLEN);
                p->hops = 1;
                fill(p, sl_rand(&rng) & sl_wmask(&L));
                p->addr = memtop[v];
                memtop[v] += p->n;
                for (unsigned f = 0; f < p->n; f++)
                    sl_wr(&L, A_NODE(v, RG_MEM, p->addr + f), p->data[f]);
                sl_inj(&L, v, 0, idx[v]++, r, 0, p->n, p->addr);
                struct ejx *e = &X[nx++];
                e->round = r;
                e->node = p->dst;
                e->lane = 0;
                e->n = p->n;
                e->first = L.alpha + 1;
                e->last = L.alpha + p->n;
                e->what = "circuit round between relay rounds";
                memcpy(e->data, p->data, p->n * sizeof(uint32_t));
                e->addr = memtop[p->dst];
                memtop[p->dst] += p->n + 1;
                sl_ej(&L, p->dst, 0, r, (unsigned)d, 0, e->n, e->addr);
                if (1 + p->n > need)
                    need = 1 + p->n;
            }
        } else {
            for (unsigned t = 0; t < (attempts ? attempts : 3 * L.n); t++)
                add_pkt(r, rnd(L.n), rnd(L.n));
            for (unsigned i = first_of[r]; i < np; i++)
                if (P[i].s + P[i].hops + P[i].n > need)
                    need = P[i].s + P[i].hops + P[i].n;
            sl_wr(&L, A_BCAST(RG_CFG, r), relay_cfg);
            unsigned x0 = nx;
            plan_ejections(first_of[r], np, 0, r == R1 ? "relay round 1" : "relay round 3");
            for (unsigned k = x0; k < nx; k++)
                sl_ej(&L, X[k].node, 0, r, 0, 1, X[k].n, X[k].addr);
            load_injects(first_of[r], np, idx);
        }
        dur[r] = L.alpha + need;
        diag("round %u: %u %s, duration %u", r, np - first_of[r], (r == C0 || r == C2) ? "streams" : "packets", dur[r]);
    }
    ok(b2b > 0, "schedule reuses %u links the cycle after a tail (release on tail tested)", b2b);
    ok(ngather > 0, "%u destinations gather several packets in one relay eject lane", ngather);

    /* Round COL: two packets to one destination c; B's head reaches the
     * first link it shares with A 3 cycles after A's head took it. */
    first_of[COL] = np;
    reset_round();
    unsigned coll_node = 0, coll_port = 0, coll_tgt = 0;
    struct pkt *A = NULL, *B = NULL;
    for (unsigned tries = 0; tries < 1000 && !A; tries++) {
        unsigned c = rnd(L.n), a = rnd(L.n), b = rnd(L.n);
        if (a == b || a == c || b == c)
            continue;
        struct pkt *pa = &P[np], *pb = &P[np + 1];
        unsigned ha = dor_path(a, c, pa->node, pa->dir), hb = dor_path(b, c, pb->node, pb->dir);
        int ia = -1, ib = -1;
        for (unsigned j = 0; j < hb && ib < 0; j++)
            for (unsigned i = 0; i < ha; i++)
                if (pa->node[i] == pb->node[j] && pa->dir[i] == pb->dir[j]) {
                    ia = (int)i;
                    ib = (int)j;
                    break;
                }
        if (ib < 0)
            continue;
        A = pa;
        B = pb;
        A->round = B->round = COL;
        A->src = a; B->src = b; A->dst = B->dst = c;
        A->hops = ha; B->hops = hb;
        A->n = 8; B->n = 5;
        A->s = ib > ia ? 0 : (unsigned)(ia - ib);
        B->s = A->s + (unsigned)ia + 3 - (unsigned)ib;
        fill(A, head_of(c));
        fill(B, head_of(c));
        coll_node = B->node[ib];
        coll_port = ib == 0 ? 8 : (unsigned)B->dir[ib - 1];
        coll_tgt = (unsigned)B->dir[ib];
        np += 2;
        dur[COL] = L.alpha + A->s + A->hops + A->n + 2;
    }
    ok(A != NULL, "found two DOR paths that share a link for the collision round");
    if (!A) {
        free(idx);
        return tap_done();
    }
    sl_wr(&L, A_BCAST(RG_CFG, COL), relay_cfg);
    load_injects(first_of[COL], np, idx);
    struct ejx *xa = &X[nx++];
    xa->round = COL;
    xa->node = A->dst;
    xa->lane = 0;
    xa->n = A->n;
    xa->first = L.alpha + A->s + A->hops;
    xa->last = xa->first + A->n - 1;
    memcpy(xa->data, A->data, A->n * sizeof(uint32_t));
    xa->addr = memtop[A->dst];
    memtop[A->dst] += A->n + 1;
    xa->what = "collision round: only the holder arrives";
    sl_ej(&L, A->dst, 0, COL, 0, 1, A->n, xa->addr);

    /* Round TIE: q's X- and Y- neighbours send one packet each over a
     * circuit, both at s = 0: the heads reach q's inputs 0 and 2 in the same
     * cycle. With two relay eject lanes, input 0's packet takes lane 0 and
     * input 2's lane 1; with one, input 2's head is a collision (wanted
     * output 6). A third node sends a head-routed packet whose entry names
     * no output (hop 7): unroutable at its own router. */
    first_of[TIE] = np;
    unsigned q = 0;
    for (unsigned tries = 0; tries < 1000; tries++) {
        q = rnd(L.n);
        if (q != coll_node && L.dim[0] > 2 && L.dim[1] > 2)
            break;
    }
    int tie = L.dim[0] > 2 && L.dim[1] > 2;
    unsigned ux = tie ? sl_nbr(&L, q, 1) : 0, uy = tie ? sl_nbr(&L, q, 3) : 0, un = 0;
    for (un = 0; un < L.n && (un == q || un == ux || un == uy || un == coll_node); un++)
        ;
    struct pkt *PX = &P[np], *PY = &P[np + 1], *PU = &P[np + 2];
    unsigned tie_lanes = L.lanes > 1 ? 2 : 1;
    if (tie) {
        PX->round = PY->round = TIE;
        PX->src = ux; PY->src = uy; PX->dst = PY->dst = q;
        PX->s = PY->s = 0; PX->hops = PY->hops = 1;
        PX->n = 4; PY->n = 6;
        fill(PX, head_of(q));
        fill(PY, head_of(q));
        sl_cfg(&L, ux, TIE, CFG_SEL(0, SEL_LANE(0)));
        sl_cfg(&L, uy, TIE, CFG_SEL(2, SEL_LANE(0)));
        for (unsigned j = 0; j < 2; j++) {
            struct pkt *p = j ? PY : PX;
            p->addr = memtop[p->src];
            memtop[p->src] += p->n;
            for (unsigned f = 0; f < p->n; f++)
                sl_wr(&L, A_NODE(p->src, RG_MEM, p->addr + f), p->data[f]);
            sl_inj(&L, p->src, 0, idx[p->src]++, TIE, 0, p->n, p->addr);
        }
        sl_cfg(&L, q, TIE, 0);
        for (unsigned l = 0; l < tie_lanes; l++) {
            struct pkt *p = l ? PY : PX;
            struct ejx *e = &X[nx++];
            e->round = TIE;
            e->node = q;
            e->lane = l;
            e->n = p->n;
            e->first = L.alpha + 1;
            e->last = L.alpha + p->n;
            memcpy(e->data, p->data, p->n * sizeof(uint32_t));
            /* the two lanes write in the same cycles: different banks */
            e->addr = memtop[q] + (memtop[q] % L.banks == 0 ? 0 : L.banks - memtop[q] % L.banks) + l;
            memtop[q] = e->addr + p->n + 1;
            e->what = l ? "tie: the higher input's head takes relay eject lane 1"
                        : "tie: the lower input's head takes relay eject lane 0";
            sl_ej(&L, q, l, TIE, 0, 1, p->n, e->addr);
        }
    }
    PU->round = TIE;
    PU->src = un;
    PU->dst = un;
    PU->s = 0;
    PU->n = 3;
    fill(PU, 0xF);
    PU->addr = memtop[un];
    memtop[un] += PU->n;
    for (unsigned f = 0; f < PU->n; f++)
        sl_wr(&L, A_NODE(un, RG_MEM, PU->addr + f), PU->data[f]);
    sl_inj_relay(&L, un, 0, idx[un]++, TIE, 0, PU->n, PU->addr, 7);
    sl_cfg(&L, un, TIE, relay_cfg);
    dur[TIE] = L.alpha + 1 + 6 + 1;
    first_of[NR] = np;

    for (unsigned v = 0; v < L.n; v++)
        if (idx[v])
            sl_inj_end(&L, v, 0, idx[v]);
    for (unsigned k = 0; k < nx; k++)
        for (unsigned f = 0; f < X[k].n + 1; f++)
            sl_wr(&L, A_NODE(X[k].node, RG_MEM, X[k].addr + f), 0x1234);
    uint64_t total = 0;
    for (unsigned r = 0; r < NR; r++) {
        sl_dur(&L, r, dur[r]);
        total += dur[r];
    }
    uint32_t status = sl_run(&L, NR, total, 16);
    ok((status & 0xB) == STATUS_DONE, "run done (STATUS 0x%x)", status);
    unsigned epoch = sl_epoch(&L);

    /* Every ejection: record and stored words (head and tail flags included). */
    unsigned bad[NR] = {0}, cnt[NR] = {0}, badmem = 0;
    for (unsigned k = 0; k < nx; k++) {
        struct ejx *e = &X[k];
        struct sl_rec want = {epoch, 0, e->n, e->first, e->last, sl_crc(e->data, e->n, L.w)}, got;
        sl_rec_read(&L, e->node, e->lane, e->round, &got);
        cnt[e->round]++;
        int good = sl_rec_eq(&got, &want);
        for (unsigned f = 0; f < e->n; f++) {
            uint32_t m = sl_rd(&L, A_NODE(e->node, RG_MEM, e->addr + f));
            if (m != e->data[f]) {
                good = 0;
                if (badmem++ < 8)
                    diag("node %u word %u: %08x, want %08x", e->node, e->addr + f, m, e->data[f]);
            }
        }
        if (sl_rd(&L, A_NODE(e->node, RG_MEM, e->addr + e->n)) != 0x1234) {
            good = 0;
            diag("node %u: a word stored past the expected %u", e->node, e->n);
        }
        if (!good && bad[e->round]++ < 6) {
            char g[128], w[128];
            diag("%s, round %u node %u lane %u: %s, want %s", e->what, e->round, e->node, e->lane,
                 sl_rec_str(&got, g, sizeof(g)), sl_rec_str(&want, w, sizeof(w)));
        }
        if (e->round >= COL)
            ok(good, "%s: record and stored words as modelled", e->what);
    }
    is(bad[C0] + bad[C2], 0, "%u circuit streams before and after relay rounds: exact cycles, count, CRC, data", cnt[C0] + cnt[C2]);
    is(bad[R1], 0, "relay round 1: %u relay eject lanes: predicted cycles, count, CRC, data", cnt[R1]);
    is(bad[R3], 0, "relay round 3: %u relay eject lanes: predicted cycles, count, CRC, data", cnt[R3]);
    is(badmem, 0, "relayed and circuit streams stored whole (head and tail flags included)");

    is(sl_rd(&L, A_NODE(coll_node, RG_ST, ST_COLL)), 1, "collision counted once at node %u", coll_node);
    uint32_t latch = sl_rd(&L, A_NODE(coll_node, RG_ST, ST_LATCH));
    is(latch, 0x80000000u | (uint32_t)COL << 16 | coll_port << 8 | coll_tgt,
       "collision latched with round %u, input %u, output %u", COL, coll_port, coll_tgt);
    is(sl_rd(&L, A_NODE(coll_node, RG_ST, ST_DROP)), B->n - 1, "the loser's body flits are counted as dropped");
    is(sl_rd(&L, A_NODE(coll_node, RG_ST, ST_FLAGS)), FL_COLL | FL_DROP, "collision and drop flags set in node status");
    uint32_t m = sl_rd(&L, A_GLOB(G_ERRMAP + coll_node / 32));
    ok(m & (1u << (coll_node % 32)), "error map names the colliding node");
    if (tie && tie_lanes == 1) {
        is(sl_rd(&L, A_NODE(q, RG_ST, ST_COLL)), 1, "tie with one relay eject lane: one collision");
        is(sl_rd(&L, A_NODE(q, RG_ST, ST_LATCH)), 0x80000000u | (uint32_t)TIE << 16 | 2u << 8 | 6u,
           "tie: latched with round %u, input 2, wanted output 6 (ejection)", TIE);
        is(sl_rd(&L, A_NODE(q, RG_ST, ST_DROP)), PY->n - 1, "tie: the loser's body flits dropped");
    }
    is(sl_rd(&L, A_NODE(un, RG_ST, ST_UNRT)), 1, "an inject entry with hop 7 (no output): its head is unroutable");
    is(sl_rd(&L, A_NODE(un, RG_ST, ST_DROP)), PU->n - 1, "unroutable: its body flits dropped");
    is(sl_rd(&L, A_NODE(un, RG_ST, ST_FLAGS)), FL_UNRT | FL_DROP, "unroutable: flags 5 and 6");
    unsigned others = 0;
    for (unsigned v = 0; v < L.n; v++) {
        if (v == coll_node || v == un || (tie && tie_lanes == 1 && v == q))
            continue;
        uint32_t f = sl_rd(&L, A_NODE(v, RG_ST, ST_FLAGS));
        if (f && others++ < 4)
            diag("node %u flags 0x%x coll %u unrt %u drop %u conflict %u", v, f,
                 sl_rd(&L, A_NODE(v, RG_ST, ST_COLL)), sl_rd(&L, A_NODE(v, RG_ST, ST_UNRT)),
                 sl_rd(&L, A_NODE(v, RG_ST, ST_DROP)), sl_rd(&L, A_NODE(v, RG_ST, ST_CONFLICT)));
    }
    is(others, 0, "no other node reports a collision, unroutable head, dropped flit or error");
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    free(idx);
    return tap_done();
}
