/* SPDX-License-Identifier: MIT */
/* Directed router and NI test (needs dims >= 3 in every dimension):
 * rounds 0..NS-1: every output of a centre node selects, over the rounds,
 * every source (each inject lane, each input port), one stream per output,
 * all starting at offset 0 so that flit 0 leaves in T_r + alpha exactly and
 * round durations are tight (the previous round's last flit is ejected in
 * T_r - 1); then a gather round (an inject descriptor with run/skip reads
 * equally spaced runs of words); then, last, an error round: overrun, short
 * stream, eject and inject memory bounds, and a flit after the run's end.
 * Usage: tn_dir_test model.so */
#include <inttypes.h>
#include <unistd.h>

#include "../tap.h"
#include "tn_simlib.h"

static struct simlib L;
static uint64_t rng = 0xD1EC7ULL;
static unsigned memtop[4096];

struct chk {
    unsigned round, node, lane, hops, n, s, addr;
    uint32_t crc;
    uint32_t data[16];
    const char *what;
};
static struct chk C[256];
static unsigned nc;

static unsigned stream(unsigned r, unsigned src, unsigned lane, unsigned s, unsigned n,
                       uint32_t *data)
{
    unsigned a = memtop[src];
    memtop[src] += n;
    uint32_t mask = L.w >= 32 ? 0xFFFFFFFFu : (1u << L.w) - 1;
    for (unsigned k = 0; k < n; k++) {
        data[k] = sl_rand(&rng) & mask;
        sl_wr(&L, A_NODE(src, 0, a + k), data[k]);
        sl_wr(&L, A_NODE(src, 1, a + k), 0);
    }
    sl_wr(&L, A_NODE(src, 2, r * 64 + 16 + 3 * lane), 0x80000000u | s);
    sl_wr(&L, A_NODE(src, 2, r * 64 + 17 + 3 * lane), a);
    sl_wr(&L, A_NODE(src, 2, r * 64 + 18 + 3 * lane), n);
    return a;
}

static struct chk *eject(unsigned r, unsigned node, unsigned lane, unsigned port, unsigned expect,
                         unsigned addr)
{
    sl_wr(&L, A_NODE(node, 2, r * 64 + 8 + lane), 8 + port);
    sl_wr(&L, A_NODE(node, 2, r * 64 + 40 + 3 * lane), 0x80000000u);
    sl_wr(&L, A_NODE(node, 2, r * 64 + 41 + 3 * lane), addr);
    sl_wr(&L, A_NODE(node, 2, r * 64 + 42 + 3 * lane), expect);
    for (unsigned k = 0; k < expect + 2 && addr + k < L.mem_depth; k++)
        sl_wr(&L, A_NODE(node, 0, addr + k), 0xABCD);
    struct chk *c = &C[nc++];
    memset(c, 0, sizeof(*c));
    c->round = r;
    c->node = node;
    c->lane = lane;
    c->addr = addr;
    return c;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tn_dir_test model.so\n");
        return 1;
    }
    if (sl_open(&L, argv[1]))
        return 2;
    diag("model %s: %s", argv[1], L.build_info());
    if (L.dim[0] < 3 || L.dim[1] < 3 || L.dim[2] < 3 || L.n > 4096) {
        diag("skipped: needs every dimension >= 3");
        return tap_done();
    }
    unsigned c = sl_id(&L, 1, 1, 1);
    unsigned ns = 6 + L.lanes; /* sources: inject lanes, then input ports */
    unsigned R = ns + 2, dur[16];
    for (unsigned i = 0; i < L.n; i++)
        memtop[i] = 64;
    sl_wr(&L, A_GLOB(0x010), 4);
    for (unsigned r = 0; r < R; r++)
        for (unsigned f = 0; f < 64; f++)
            sl_wr(&L, A_BCAST(2, r * 64 + f), 0);

    /* Rounds 0..ns-1: output o of c selects source (o + r) % ns. */
    unsigned cover[6][12] = {{0}};
    for (unsigned r = 0; r < ns; r++) {
        unsigned need = 0;
        for (unsigned o = 0; o < 6; o++) {
            unsigned src = (o + r) % ns, n = 3 + sl_rand(&rng) % 6;
            unsigned d = sl_nbr(&L, c, (int)o);
            struct chk *k = eject(r, d, 0, o, n, memtop[d]);
            memtop[d] += n + 2;
            k->n = n;
            if (src < L.lanes) {
                stream(r, c, src, 0, n, k->data);
                sl_wr(&L, A_NODE(c, 2, r * 64 + o), 1 + src);
                k->hops = 1;
            } else {
                unsigned p = src - L.lanes, u = sl_nbr(&L, c, (int)(p ^ 1));
                stream(r, u, 0, 0, n, k->data);
                sl_wr(&L, A_NODE(u, 2, r * 64 + p), 1);
                sl_wr(&L, A_NODE(c, 2, r * 64 + o), 8 + p);
                k->hops = 2;
            }
            cover[o][src] = 1;
            k->what = "select";
            if (k->hops + n > need)
                need = k->hops + n;
        }
        dur[r] = L.alpha + need;
    }
    unsigned covered = 0;
    for (unsigned o = 0; o < 6; o++)
        for (unsigned k = 0; k < ns; k++)
            covered += cover[o][k];
    is(covered, 6 * ns, "every output is given every source (%u inject lanes, 6 inputs)", L.lanes);

    /* Error round E: one pair of nodes along X per case. */
    unsigned E = ns + 1, yz[5][2] = {{0, 0}, {0, 2}, {2, 0}, {2, 2}, {2, 1}};
    unsigned a[5], b[5];
    for (unsigned i = 0; i < 5; i++) {
        a[i] = sl_id(&L, 0, yz[i][0], yz[i][1]);
        b[i] = sl_id(&L, 1, yz[i][0], yz[i][1]);
        sl_wr(&L, A_NODE(a[i], 2, E * 64 + 0), 1); /* X+ from inject lane 0 */
    }
    dur[E] = L.alpha + 1 + 6 + 1;
    struct chk *ov = eject(E, b[0], 0, 0, 4, 200);
    stream(E, a[0], 0, 0, 6, ov->data);
    ov->n = 6; ov->hops = 1; ov->what = "overrun";
    struct chk *sh = eject(E, b[1], 0, 0, 5, 200);
    stream(E, a[1], 0, 0, 3, sh->data);
    sh->n = 3; sh->hops = 1; sh->what = "short";
    struct chk *eb = eject(E, b[2], 0, 0, 4, L.mem_depth - 2);
    stream(E, a[2], 0, 0, 4, eb->data);
    eb->n = 4; eb->hops = 1; eb->what = "eject bounds";
    /* inject bounds: 3 flits from the last word: only the first exists */
    uint32_t ib_data = 0x77 & ((1u << (L.w < 32 ? L.w : 31)) - 1);
    sl_wr(&L, A_NODE(a[3], 0, L.mem_depth - 1), ib_data);
    sl_wr(&L, A_NODE(a[3], 1, L.mem_depth - 1), 0);
    sl_wr(&L, A_NODE(a[3], 2, E * 64 + 16), 0x80000000u);
    sl_wr(&L, A_NODE(a[3], 2, E * 64 + 17), L.mem_depth - 1);
    sl_wr(&L, A_NODE(a[3], 2, E * 64 + 18), 3);
    struct chk *ib = eject(E, b[3], 0, 0, 1, 200);
    ib->data[0] = ib_data;
    ib->n = 1; ib->hops = 1; ib->what = "inject bounds (receiver)";
    /* late: 2 hops, flit 0 injected in the round's last cycle -> arrives after the end */
    unsigned c4 = sl_nbr(&L, b[4], 0);
    sl_wr(&L, A_NODE(b[4], 2, E * 64 + 0), 8 + 0);
    struct chk *lt = eject(E, c4, 0, 0, 1, 200);
    lt->s = dur[E] - 1 - L.alpha;
    stream(E, a[4], 0, lt->s, 1, lt->data);
    lt->n = 1; lt->hops = 2; lt->what = "late";

    /* Gather round G: the highest inject lane of c sends 8 flits with run 3,
     * skip 2 to X+: words 0,1,2, 5,6,7, 10,11 of its block. */
    unsigned G = ns, glane = L.lanes - 1, gn = 8, grun = 3, gskip = 2;
    unsigned gd = sl_nbr(&L, c, 0);
    struct chk *gt = eject(G, gd, 0, 0, gn, memtop[gd]);
    memtop[gd] += gn + 2;
    unsigned ga = memtop[c];
    memtop[c] += 16;
    uint32_t gmask = L.w >= 32 ? 0xFFFFFFFFu : (1u << L.w) - 1, gw[16];
    for (unsigned k = 0; k < 16; k++) {
        gw[k] = sl_rand(&rng) & gmask;
        sl_wr(&L, A_NODE(c, 0, ga + k), gw[k]);
        sl_wr(&L, A_NODE(c, 1, ga + k), 0);
    }
    for (unsigned k = 0; k < gn; k++)
        gt->data[k] = gw[k + (k / grun) * gskip];
    sl_wr(&L, A_NODE(c, 2, G * 64 + 16 + 3 * glane), 0x80000000u);
    sl_wr(&L, A_NODE(c, 2, G * 64 + 17 + 3 * glane), ga);
    sl_wr(&L, A_NODE(c, 2, G * 64 + 18 + 3 * glane), gn);
    sl_wr(&L, A_NODE(c, 2, G * 64 + 58 + glane), gskip << 16 | grun);
    sl_wr(&L, A_NODE(c, 2, G * 64 + 0), 1 + glane);
    gt->n = gn;
    gt->hops = 1;
    gt->what = "gather";
    dur[G] = L.alpha + 1 + gn;
    is(sl_rd(&L, A_NODE(c, 2, G * 64 + 58 + glane)), gskip << 16 | grun,
       "gather field (round config field 58+l) reads back");

    uint64_t total = 0;
    for (unsigned r = 0; r < R; r++) {
        sl_wr(&L, A_GLOB(0x100 + r), dur[r]);
        total += dur[r];
    }
    sl_wr(&L, A_GLOB(0x011), R);
    sl_wr(&L, A_GLOB(0x010), 1);
    L.step(L.s, total + 10);
    uint32_t status = sl_rd(&L, A_GLOB(0x012));
    ok((status & 3) == 2, "run done (STATUS 0x%x)", status);
    uint64_t t0 = sl_rd48(&L, A_GLOB(0x016));

    unsigned bad = 0, nsel = 0;
    for (unsigned i = 0; i < nc; i++) {
        struct chk *k = &C[i];
        uint64_t tr = t0;
        for (unsigned r = 0; r < k->round; r++)
            tr += dur[r];
        uint64_t first = tr + L.alpha + k->s + k->hops, last = first + k->n - 1;
        uint32_t crc = 0xFFFFFFFFu;
        for (unsigned j = 0; j < k->n; j++)
            crc = sl_crc_flit(crc, k->data[j], L.w);
        crc ^= 0xFFFFFFFFu;
        uint32_t base = k->round * 64 + k->lane * 8;
        uint64_t gf = sl_rd48(&L, A_NODE(k->node, 3, base));
        uint64_t gl = sl_rd48(&L, A_NODE(k->node, 3, base + 2));
        uint32_t gc = sl_rd(&L, A_NODE(k->node, 3, base + 4));
        uint32_t gcrc = sl_rd(&L, A_NODE(k->node, 3, base + 5));
        uint32_t ge = sl_rd(&L, A_NODE(k->node, 3, base + 6));
        int isgat = !strcmp(k->what, "gather");
        if (!strcmp(k->what, "select") || isgat) {
            nsel += !isgat;
            int good = gf == first && gl == last && gc == k->n && gcrc == crc && !ge;
            for (unsigned j = 0; j < k->n; j++)
                good &= sl_rd(&L, A_NODE(k->node, 0, k->addr + j)) == k->data[j];
            if (!good && bad < 8)
                diag("round %u node %u: first %" PRIu64 "/%" PRIu64 " count %u/%u crc %08x/%08x err %u",
                     k->round, k->node, gf, first, gc, k->n, gcrc, crc, ge);
            if (isgat)
                ok(good, "gather (run %u, skip %u, lane %u): flit k from address + k + "
                   "floor(k/run)*skip, back to back from T_r + alpha", grun, gskip, glane);
            else if (!good)
                bad++;
            continue;
        }
        is(gf, first, "%s: first flit at T_r + alpha + s + d", k->what);
        is(gc, k->n, "%s: every arriving flit counted", k->what);
        is(gcrc, crc, "%s: CRC-32 matches the software CRC", k->what);
        if (k == ov) {
            is(ge, 1, "overrun: error bit 0 only");
            is(sl_rd(&L, A_NODE(k->node, 0, k->addr + 3)), k->data[3], "overrun: expected flits stored");
            is(sl_rd(&L, A_NODE(k->node, 0, k->addr + 4)), 0xABCD & ((1u << L.w) - 1),
               "overrun: no store past the expected length");
            is(sl_rd(&L, A_NODE(k->node, 4, 1)), 2, "overrun: node counts 2 overrun flits");
        } else if (k == sh) {
            is(ge, 2, "short stream: error bit 1 only");
            is(sl_rd(&L, A_NODE(k->node, 4, 2)), 1, "short stream: node counts 1 short stream");
        } else if (k == eb) {
            is(ge, 4, "eject bounds: error bit 2 only");
            is(sl_rd(&L, A_NODE(k->node, 0, L.mem_depth - 1)), k->data[1], "eject bounds: in-range flits stored");
            is(sl_rd(&L, A_NODE(k->node, 4, 3)), 2, "eject bounds: node counts 2 bounds errors");
        } else if (k == ib) {
            is(ge, 0, "inject bounds: the one in-range flit is delivered");
        } else if (k == lt) {
            is(ge, 3, "flit after the round's end: overrun, and short at the round's end");
        }
    }
    is(bad, 0, "all %u streams of the select rounds: exact cycles, count, CRC, data", nsel);
    ok(sl_rd(&L, A_NODE(a[3], 4, 0)) & 8, "inject bounds: node flag bit 3");
    is(sl_rd(&L, A_NODE(a[3], 4, 3)), 2, "inject bounds: 2 words outside the memory counted");
    unsigned errs = 0;
    for (unsigned v = 0; v < L.n; v++) {
        int expect = v == b[0] || v == b[1] || v == b[2] || v == a[3] || v == c4;
        uint32_t f = sl_rd(&L, A_NODE(v, 4, 0));
        if ((f != 0) != expect && errs++ < 4)
            diag("node %u flags 0x%x", v, f);
    }
    is(errs, 0, "exactly the nodes of the error cases report errors");
    sl_wr(&L, A_GLOB(0x010), 4);
    is(sl_rd(&L, A_NODE(b[0], 4, 0)) | sl_rd(&L, A_NODE(b[0], 3, E * 64 + 6)), 0,
       "CTRL clear resets node flags and statistics");
    /* FST trace window */
    char fst[64];
    snprintf(fst, sizeof(fst), "/tmp/tn_dir_test_%d.fst", (int)getpid());
    uint64_t now = L.cycles(L.s);
    int trc = L.trace_open(L.s, fst, now + 10, now + 60);
    L.step(L.s, 100);
    L.trace_close(L.s);
    FILE *f = fopen(fst, "rb");
    long fsz = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        fsz = ftell(f);
        fclose(f);
        remove(fst);
    }
    ok(trc == 0 && fsz > 0, "FST trace window written (%ld bytes)", fsz);
    is(L.bus_errors, 0, "every bus request completed");
    sl_close(&L);
    return tap_done();
}
