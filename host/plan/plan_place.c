/* SPDX-License-Identifier: MIT */
/* Placement of the message layout in the banked flit memory
 * (docs/hardware.md "Flit memory banks", docs/host.md "Banks").
 *
 * A node's logical memory is the schedule's append log: its initial
 * messages, then the streams it ejects, round by round in port order. The
 * placement keeps that order and puts a gap of 0..banks-1 words before an
 * initial message or a received stream where needed, so that no two lanes
 * of the node use one bank in one cycle. A contiguous access (a stream
 * written, a run of words read) that touches word a in cycle t uses bank
 * (a + shift - t) + t mod banks: its *phase* a + shift - t is constant, and
 * two accesses of one kind on different lanes conflict exactly when they
 * overlap in time with equal phases. Greedily, segment by segment, the
 * smallest gap whose phases differ from those of every access already
 * placed in the same round is taken: eject streams of a round are at most
 * LANES <= banks at once (an interval graph), so one always exists for
 * writes; reads are constrained only at nodes that read on two lanes in
 * one round (after plan.c merged circuits carrying the same data). What
 * no gap can fix (two reads of one segment in lockstep) is left to
 * tn_plan_bank_check to refuse. */
#include <stdlib.h>
#include <string.h>

#include "plani.h"
#include "rope.h"
#include "tn_error.h"

struct seg {
    uint64_t word, len;       /* logical words */
    uint64_t shift;           /* physical - logical, once placed */
};

/* A contiguous access of one segment: n words from cycle t0 on, word
 * (lphase + t) mod 2^64 in cycle t (lphase = logical word - cycle). */
struct acc {
    uint32_t round, seg;
    uint8_t lane, write;
    uint64_t t0, n, lphase;
};

struct place {
    struct tn_plan *p;
    uint32_t *const *ejt;
    uint32_t *ecur, *icur;    /* per round: first eject / inject of the node being placed */
    struct seg *seg;
    struct acc *acc;
    uint32_t *order;          /* acc indices by round, then segment */
    uint32_t *rfirst;         /* per acc: position in order of its round's first */
    uint32_t *byseg;          /* acc indices by segment */
    uint32_t nseg, segcap, nacc, acccap;
    struct tn_plan_gap *gaps;
    uint32_t ngaps, gapcap;
};

static int grow(void **a, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    uint32_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *x = realloc(*a, (size_t)n * size);
    if (!x)
        return TN_ENOMEM;
    *a = x;
    *cap = n;
    return 0;
}

static int add_seg(struct place *pl, uint64_t word, uint64_t len)
{
    if (grow((void **)&pl->seg, &pl->segcap, pl->nseg + 1, sizeof *pl->seg))
        return TN_ENOMEM;
    pl->seg[pl->nseg++] = (struct seg){word, len, 0};
    return 0;
}

static int add_acc(struct place *pl, const struct acc *a)
{
    if (grow((void **)&pl->acc, &pl->acccap, pl->nacc + 1, sizeof *pl->acc))
        return TN_ENOMEM;
    pl->acc[pl->nacc++] = *a;
    return 0;
}

/* Per node: 1 if it injects on two lanes, or ejects on two, in some
 * round (only those can have bank conflicts). */
static uint8_t *shared_nodes(const struct tn_plan *p)
{
    uint8_t *f = calloc(p->topo.n, 1);
    for (uint32_t r = 0; f && r < p->nrounds; r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        for (uint32_t i = 1; i < pr->nej; i++)
            f[pr->ej[i].node] |= pr->ej[i].node == pr->ej[i - 1].node;
        for (uint32_t i = 1; i < pr->ninj; i++)
            f[pr->inj[i].node] |= pr->inj[i].node == pr->inj[i - 1].node &&
                                  pr->inj[i].lane != pr->inj[i - 1].lane;
    }
    return f;
}

/* Segment holding logical word w (nseg if none). */
static uint32_t seg_of(const struct place *pl, uint64_t w)
{
    uint32_t lo = 0, hi = pl->nseg;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (pl->seg[mid].word <= w)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && w < pl->seg[lo - 1].word + pl->seg[lo - 1].len ? lo - 1 : pl->nseg;
}

/* The reads pr->inj[i0, i1) of node v in round r, split at segment
 * boundaries, if it reads on two lanes then. */
static int add_reads(struct place *pl, uint32_t r, uint32_t i0, uint32_t i1)
{
    const struct tn_plan_round *pr = &pl->p->rounds[r];
    bool shared = false;
    for (uint32_t i = i0; i < i1; i++)
        shared |= pr->inj[i].lane != pr->inj[i0].lane;
    for (uint32_t i = i0; shared && i < i1; i++) {
        const struct tn_inject *in = &pr->inj[i];
        uint64_t w = in->addr, end = w + in->len;
        for (uint32_t j = seg_of(pl, w); w < end && j < pl->nseg; j++) {
            uint64_t stop = pl->seg[j].word + pl->seg[j].len;
            if (stop > end)
                stop = end;
            /* read the cycle before alpha + start + k: counted from one
             * later, as only reads are compared with reads */
            uint64_t t0 = pl->p->par.alpha + in->start + (w - in->addr);
            struct acc a = {r, j, in->lane, 0, t0, stop - w, w - t0};
            if (add_acc(pl, &a))
                return TN_ENOMEM;
            w = stop;
        }
    }
    return 0;
}

/* End of node v's entries in a round's list of descriptors (sorted by
 * node, their first member), moving the cursor *a to their start (nodes
 * are placed in increasing order). */
static uint32_t node_range(const void *list, size_t size, uint32_t n, uint32_t v, uint32_t *a)
{
    const char *x = list;
    while (*a < n && *(const uint32_t *)(x + *a * size) < v)
        (*a)++;
    uint32_t b = *a;
    while (b < n && *(const uint32_t *)(x + b * size) == v)
        b++;
    return b;
}

/* Segments and accesses of node v, round by round: the reads of the
 * round (if it reads on two lanes then), then the streams it ejects, each
 * a new segment (a write access where it ejects two in the round). So the
 * accesses come by round, and within a round the writes by segment after
 * the reads. */
static int collect(struct place *pl, uint32_t v)
{
    const struct tn_plan *p = pl->p;
    uint32_t L = p->msg_flits, n0 = p->sched->st->mem[v]->n;
    pl->nseg = pl->nacc = 0;
    for (uint32_t i = 0; i < n0; i++)
        if (add_seg(pl, (uint64_t)i * L, L))
            return TN_ENOMEM;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        const struct tn_plan_round *pr = &p->rounds[r];
        uint32_t i1 = node_range(pr->inj, sizeof *pr->inj, pr->ninj, v, &pl->icur[r]);
        if (add_reads(pl, r, pl->icur[r], i1))
            return TN_ENOMEM;
        uint32_t *e0 = &pl->ecur[r], e1 = node_range(pr->ej, sizeof *pr->ej, pr->nej, v, e0);
        for (uint32_t e = *e0; e < e1; e++) {
            const struct tn_eject *ej = &pr->ej[e];
            uint64_t t0 = pl->ejt[r][e];
            struct acc a = {r, pl->nseg, ej->lane, 1, t0, ej->len, ej->addr - t0};
            if (add_seg(pl, ej->addr, ej->len) || (e1 - *e0 > 1 && add_acc(pl, &a)))
                return TN_ENOMEM;
        }
    }
    return 0;
}

static bool before(const struct acc *x, uint32_t i, const struct acc *y, uint32_t j)
{
    if (x->round != y->round)
        return x->round < y->round;
    return x->seg != y->seg ? x->seg < y->seg : i < j;
}

/* Index the accesses by (round, segment) (collect made them nearly so:
 * insertion sort) and by segment (counting sort). */
static int index_accs(struct place *pl)
{
    uint32_t n = pl->nacc;
    free(pl->order);
    pl->order = malloc((3 * (size_t)n + pl->nseg + 4) * sizeof *pl->order);
    if (!pl->order)
        return TN_ENOMEM;
    pl->rfirst = pl->order + n + 1;
    pl->byseg = pl->rfirst + n + 1;
    uint32_t *count = pl->byseg + n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t x = k, q = k;
        for (; q > 0 && before(&pl->acc[x], x, &pl->acc[pl->order[q - 1]], pl->order[q - 1]); q--)
            pl->order[q] = pl->order[q - 1];
        pl->order[q] = x;
    }
    memset(count, 0, ((size_t)pl->nseg + 1) * sizeof *count);
    for (uint32_t k = 0; k < n; k++)
        count[pl->acc[k].seg + 1]++;
    for (uint32_t j = 0; j < pl->nseg; j++)
        count[j + 1] += count[j];
    for (uint32_t k = 0; k < n; k++)
        pl->byseg[count[pl->acc[k].seg]++] = k;
    for (uint32_t k = 0, f = 0; k < n; k++) {
        if (pl->acc[pl->order[k]].round != pl->acc[pl->order[f]].round)
            f = k;
        pl->rfirst[pl->order[k]] = f;
    }
    return 0;
}

static bool overlap(const struct acc *a, const struct acc *b)
{
    return a->t0 < b->t0 + b->n && b->t0 < a->t0 + a->n;
}

/* Would segment j at shift s put one of its accesses on the bank of an
 * access of an earlier segment (same round and kind, another lane, same
 * cycle)? Accesses of j itself keep their relative phases whatever s is. */
static bool clashes(const struct place *pl, uint32_t j, uint64_t s, uint32_t a0, uint32_t a1)
{
    uint64_t mask = pl->p->par.banks - 1;
    for (uint32_t k = a0; k < a1; k++) {
        const struct acc *a = &pl->acc[pl->byseg[k]];
        for (uint32_t q = pl->rfirst[pl->byseg[k]]; q < pl->nacc; q++) {
            const struct acc *b = &pl->acc[pl->order[q]];
            if (b->round != a->round || b->seg >= j)
                break;
            if (b->write == a->write && b->lane != a->lane && overlap(a, b) &&
                ((a->lphase + s - b->lphase - pl->seg[b->seg].shift) & mask) == 0)
                return true;
        }
    }
    return false;
}

static int add_gap(struct place *pl, uint64_t word, uint64_t shift)
{
    if (word > UINT32_MAX || shift > UINT32_MAX)
        return TN_ECAPACITY;
    if (grow((void **)&pl->gaps, &pl->gapcap, pl->ngaps + 1, sizeof *pl->gaps))
        return TN_ENOMEM;
    pl->gaps[pl->ngaps++] = (struct tn_plan_gap){(uint32_t)word, (uint32_t)shift};
    return 0;
}

/* Clash checks one node's placement may spend before it settles for the
 * greedy placement (then tn_plan_bank_check says where it clashes). */
#ifndef PLACE_BUDGET
#define PLACE_BUDGET 200000
#endif

/* Placement of node v's segments, in memory order, each after the
 * smallest gap (0..banks-1) that keeps its accesses off the banks of the
 * earlier segments' (same round and kind, other lane, same cycle); where
 * no gap does, back to the previous constrained segment's next gap (a
 * depth-first search, within PLACE_BUDGET checks, else the greedy
 * placement). Appends v's gap entries. */
static int place_node(struct place *pl, uint32_t v)
{
    int rc = collect(pl, v);
    if (rc == 0)
        rc = index_accs(pl);
    uint32_t n = pl->nseg, *first = rc ? NULL : malloc(((size_t)n + 1) * sizeof *first);
    unsigned *gap = rc ? NULL : calloc((size_t)n + 1, sizeof *gap);
    if (rc == 0 && (!first || !gap))
        rc = TN_ENOMEM;
    for (uint32_t j = 0, a = 0; rc == 0 && j <= n; j++) {   /* accesses of j: [first[j], first[j+1]) */
        first[j] = a;
        while (j < n && a < pl->nacc && pl->acc[pl->byseg[a]].seg == j)
            a++;
    }
    unsigned banks = pl->p->par.banks;
    long budget = PLACE_BUDGET;
    bool greedy = false;
    for (uint32_t j = 0; rc == 0 && j < n;) {
        if (!greedy && budget <= 0) {
            greedy = true;  /* the search ran out: start over greedily */
            memset(gap, 0, ((size_t)n + 1) * sizeof *gap);
            j = 0;
            continue;
        }
        uint64_t base = j ? pl->seg[j - 1].shift : 0;
        unsigned g = gap[j];
        while (g < banks && first[j + 1] > first[j] &&
               clashes(pl, j, base + g, first[j], first[j + 1])) {
            g++;
            budget -= !greedy;
        }
        if (g < banks || greedy || first[j + 1] == first[j]) {
            if (g >= banks)
                g = 0;  /* nothing avoids it: tn_plan_bank_check will say where */
            gap[j] = g;
            pl->seg[j].shift = base + g;
            j++;
            continue;
        }
        /* back to the previous segment that has accesses, its next gap */
        int64_t b = (int64_t)j - 1;
        while (b >= 0 && first[b + 1] == first[b])
            b--;
        if (b < 0) {
            greedy = true;  /* no placement of the earlier segments helps */
            memset(gap, 0, ((size_t)n + 1) * sizeof *gap);
            j = 0;
            continue;
        }
        for (uint32_t q = (uint32_t)b + 1; q <= j; q++)
            gap[q] = 0;
        j = (uint32_t)b;
        gap[j]++;
    }
    for (uint32_t j = 0; rc == 0 && j < n; j++)
        if (gap[j])
            rc = add_gap(pl, pl->seg[j].word, pl->seg[j].shift);
    free(first);
    free(gap);
    return rc;
}

/* Physical chain of logical descriptor in: split where node's shift changes. */
static int split_inject(const struct tn_plan *p, const struct tn_inject *in, struct tn_inject *out,
                        uint32_t *n, uint32_t cap)
{
    uint64_t w = in->addr, end = w + in->len;
    while (w < end) {
        uint64_t a = tn_plan_addr(p, in->node, w), stop = end;
        uint32_t lo = p->gap_first[in->node], hi = p->gap_first[in->node + 1];
        for (uint32_t g = lo; g < hi; g++)
            if (p->gaps[g].word > w) {
                stop = p->gaps[g].word < end ? p->gaps[g].word : end;
                break;
            }
        if (a + (stop - w) > UINT32_MAX)
            return TN_ECAPACITY;
        if (*n < cap) {
            out[*n] = *in;
            out[*n].start = in->start + (uint32_t)(w - in->addr);
            out[*n].addr = (uint32_t)a;
            out[*n].len = (uint32_t)(stop - w);
        }
        (*n)++;
        w = stop;
    }
    return 0;
}

/* Rewrite round r's descriptors to physical addresses. */
static int rewrite_round(struct tn_plan *p, uint32_t r)
{
    struct tn_plan_round *pr = &p->rounds[r];
    for (uint32_t i = 0; i < pr->nej; i++) {
        uint64_t a = tn_plan_addr(p, pr->ej[i].node, pr->ej[i].addr);
        if (a + pr->ej[i].len > UINT32_MAX)
            return TN_ECAPACITY;
        pr->ej[i].addr = (uint32_t)a;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < pr->ninj; i++)
        if (split_inject(p, &pr->inj[i], NULL, &n, 0))
            return TN_ECAPACITY;
    if (n == pr->ninj) {
        for (uint32_t i = 0; i < pr->ninj; i++)
            pr->inj[i].addr = (uint32_t)tn_plan_addr(p, pr->inj[i].node, pr->inj[i].addr);
        return 0;
    }
    if (n > TN_PLAN_MAX_INJ)
        return TN_ECAPACITY;
    struct tn_inject *out = malloc((size_t)n * sizeof *out);
    if (!out)
        return TN_ENOMEM;
    uint32_t k = 0;
    for (uint32_t i = 0; i < pr->ninj; i++)
        split_inject(p, &pr->inj[i], out, &k, n);
    free(pr->inj);
    pr->inj = out;
    pr->ninj = n;
    return 0;
}

static int place_all(struct place *pl)
{
    struct tn_plan *p = pl->p;
    uint32_t N = p->topo.n;
    uint8_t *shared = p->par.banks > 1 ? shared_nodes(p) : calloc(N, 1);
    p->gap_first = calloc((size_t)N + 1, sizeof *p->gap_first);
    pl->ecur = calloc(2 * ((size_t)p->nrounds + 1), sizeof *pl->ecur);
    pl->icur = pl->ecur + p->nrounds + 1;
    int rc = shared && p->gap_first && pl->ecur ? 0 : TN_ENOMEM;
    for (uint32_t v = 0; v < N && rc == 0; v++) {
        p->gap_first[v] = pl->ngaps;
        if (shared[v])
            rc = place_node(pl, v);
    }
    free(shared);
    if (rc)
        return rc;
    p->gap_first[N] = pl->ngaps;
    p->gaps = pl->gaps;
    pl->gaps = NULL;
    for (uint32_t r = 0; r < p->nrounds && rc == 0; r++)
        rc = rewrite_round(p, r);
    for (uint32_t v = 0; v < N && rc == 0; v++) {
        uint64_t w = tn_plan_held(p, p->nrounds, v);  /* memories only grow */
        if (w > p->mem_max)
            p->mem_max = w;
    }
    return rc;
}

int tn_plan_place(struct tn_plan *p, uint32_t *const *ejt, char *err, size_t errlen)
{
    struct place pl = {.p = p, .ejt = ejt};
    int rc = place_all(&pl);
    free(pl.seg);
    free(pl.acc);
    free(pl.order);
    free(pl.ecur);
    free(pl.gaps);
    if (rc == TN_ECAPACITY)
        return tn_errf(err, errlen, rc, "the memory placement needs more than 2^32 words "
                       "per node");
    return rc;
}
