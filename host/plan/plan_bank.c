/* SPDX-License-Identifier: MIT */
/* The exact flit memory bank check of a plan (docs/hardware.md "Flit
 * memory banks"): per node and network cycle each bank serves one inject
 * lane read and one eject lane write. Everything is derived from the plan
 * as the hardware executes it, not from the schedule:
 *
 * - an inject descriptor (start s, n flits, cut by its lane's next
 *   descriptor and by the round's end) reads word a + k in round cycle
 *   alpha - 1 + s + k;
 * - a circuit eject lane hears the lane its port's crossbar selects lead
 *   back to (d links away) and writes its j-th flit to e.addr + j in the
 *   cycle it arrives, alpha + s + d + k, while j < e.len and the round
 *   lasts;
 * - a relay eject lane writes the packets the router gives it: every
 *   staged packet leaves when its descriptor reaches it, arrives after its
 *   route's hops (tn_relay_path), and takes the lowest relay eject lane
 *   whose holder's tail has passed (heads of one cycle in input-port
 *   order).
 *
 * A run of words accessed one per cycle has a constant phase (word -
 * cycle) and uses bank (phase + cycle) mod banks, so two runs of one kind
 * on different lanes clash exactly when they overlap in time with equal
 * phases mod banks: a sweep over each node's runs sorted by first cycle
 * finds the first clash.
 *
 * The same runs give the store-to-send check (tn_plan_store_check): a word
 * an eject lane stores in cycle t and an inject lane sends in t + g is read
 * in t + g - 1; g = 1 reads it in the cycle of its write (old or new word
 * as the block RAM's mode has it) and g = 0 the cycle before (the old word,
 * where the model, which stores before it sends in a cycle, has the new).
 * For a pair of runs g is the difference of their phases. Rounds do not
 * mix: a send comes alpha >= 1 cycles after its round's switch (plan
 * parameters refuse alpha 0), and every store of the round before is
 * earlier. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plani.h"
#include "tn_error.h"

uint32_t tn_plan_inj_find(const struct tn_plan_round *pr, uint32_t node, unsigned lane)
{
    uint32_t lo = 0, hi = pr->ninj;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const struct tn_inject *x = &pr->inj[mid];
        if (x->node < node || (x->node == node && x->lane < lane))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint64_t tn_plan_inj_sent(const struct tn_plan *p, uint32_t r, uint32_t i)
{
    const struct tn_plan_round *pr = &p->rounds[r];
    const struct tn_inject *in = &pr->inj[i], *next = i + 1 < pr->ninj ? in + 1 : NULL;
    uint64_t n = in->len, on = (uint64_t)p->par.alpha + in->start;
    uint64_t dur = pr->duration;   /* >= 3 (tn_round_duration) */
    if (next && next->node == in->node && next->lane == in->lane && next->start < in->start + n)
        n = next->start > in->start ? next->start - in->start : 0;
    return on >= dur ? 0 : n < dur - on ? n : dur - on;
}

/* A run of accesses of one lane: words phase + t in cycles [t0, t0 + n). */
struct run {
    uint64_t t0, n, phase;
    uint8_t lane;
};

struct check {
    const struct tn_plan *p;
    uint32_t *nb;             /* per node and direction: the neighbour */
    struct run *run;
    uint32_t nrun, cap;
    uint32_t *active;
    struct tn_bank_conflict hit;
    struct tn_store_hazard haz;
    bool found;
};

static int add_run(struct check *ck, uint8_t lane, uint64_t t0, uint64_t n, uint64_t word)
{
    if (n == 0)
        return 0;
    if (ck->nrun == ck->cap) {
        uint32_t cap = ck->cap ? 2 * ck->cap : 64;
        struct run *x = realloc(ck->run, cap * sizeof *x);
        uint32_t *a = realloc(ck->active, cap * sizeof *a);
        if (x)
            ck->run = x;
        if (a)
            ck->active = a;
        if (!x || !a)
            return TN_ENOMEM;
        ck->cap = cap;
    }
    ck->run[ck->nrun++] = (struct run){t0, n, word - t0, lane};
    return 0;
}

static int cmp_t0(const void *a, const void *b)
{
    const struct run *x = a, *y = b;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    return (int)x->lane - (int)y->lane;
}

/* The first clash among the runs collected for node (one kind), if any;
 * clears the runs. */
static void sweep(struct check *ck, uint32_t r, uint32_t node, uint8_t write)
{
    uint64_t mask = ck->p->par.banks - 1;
    uint32_t nact = 0;
    /* insertion sort: few runs, nearly sorted */
    for (uint32_t k = 1; k < ck->nrun && !ck->found; k++) {
        struct run x = ck->run[k];
        uint32_t q = k;
        for (; q > 0 && cmp_t0(&x, &ck->run[q - 1]) < 0; q--)
            ck->run[q] = ck->run[q - 1];
        ck->run[q] = x;
    }
    for (uint32_t k = 0; k < ck->nrun && ck->nrun > 1 && !ck->found; k++) {
        const struct run *a = &ck->run[k];
        uint32_t keep = 0;
        for (uint32_t j = 0; j < nact; j++) {
            const struct run *b = &ck->run[ck->active[j]];
            if (b->t0 + b->n <= a->t0)
                continue;
            ck->active[keep++] = ck->active[j];
            if (b->lane != a->lane && ((a->phase - b->phase) & mask) == 0 && !ck->found) {
                ck->found = true;
                uint8_t lo = b->lane < a->lane ? b->lane : a->lane;
                ck->hit = (struct tn_bank_conflict){r, node, (uint32_t)((a->phase + a->t0) & mask),
                                                    write, {lo, (uint8_t)(a->lane ^ b->lane ^ lo)},
                                                    a->t0 - !write};
            }
        }
        nact = keep;
        ck->active[nact++] = k;
    }
    ck->nrun = 0;
}

/* Reads of round r: every node that reads on two lanes. */
/* The reads of inject descriptors inj[i0..i1) of round r (one node's),
 * each run counted from the cycle its flit is on the lane, alpha + start
 * (read one cycle before: the bank check reports one less). */
static int node_reads(struct check *ck, uint32_t r, uint32_t i0, uint32_t i1)
{
    const struct tn_plan_round *pr = &ck->p->rounds[r];
    for (uint32_t i = i0; i < i1; i++) {
        const struct tn_inject *in = &pr->inj[i];
        if (add_run(ck, in->lane, (uint64_t)ck->p->par.alpha + in->start,
                    tn_plan_inj_sent(ck->p, r, i), in->addr))
            return TN_ENOMEM;
    }
    return 0;
}

static int check_reads(struct check *ck, uint32_t r)
{
    const struct tn_plan_round *pr = &ck->p->rounds[r];
    for (uint32_t i0 = 0, i1; i0 < pr->ninj && !ck->found; i0 = i1) {
        bool two = false;
        for (i1 = i0; i1 < pr->ninj && pr->inj[i1].node == pr->inj[i0].node; i1++)
            two |= pr->inj[i1].lane != pr->inj[i0].lane;
        if (two && node_reads(ck, r, i0, i1))
            return TN_ENOMEM;
        sweep(ck, r, pr->inj[i0].node, 0);
    }
    return 0;
}

/* The inject lane a circuit eject lane at node w listening to port hears:
 * false if the crossbars lead to no lane. */
static bool trace_back(const struct check *ck, const struct tn_plan_round *pr, uint32_t w,
                       unsigned port, uint32_t *src, unsigned *lane, uint64_t *hops)
{
    const struct tn_topo *t = &ck->p->topo;
    for (uint64_t d = 1; d <= (uint64_t)t->n * TN_NDIRS; d++) {
        if (port >= TN_NDIRS || !tn_dir_exists(t, (int)port))
            return false;
        uint32_t u = ck->nb[(size_t)w * TN_NDIRS + tn_dir_opposite((int)port)];
        uint8_t sel = pr->xbar[(size_t)u * 12 + port];
        if (sel >= TN_SEL_LANE(0) && sel < TN_SEL_LANE(TN_NDIRS)) {
            *src = u;
            *lane = sel - TN_SEL_LANE(0);
            *hops = d;
            return true;
        }
        if (sel < TN_SEL_PORT(0) || sel >= TN_SEL_PORT(TN_NDIRS))
            return false;
        w = u;
        port = sel - TN_SEL_PORT(0);
    }
    return false;  /* a loop in the crossbars */
}

/* Writes of circuit eject descriptor e of round r. */
static int circuit_writes(struct check *ck, uint32_t r, const struct tn_eject *e)
{
    const struct tn_plan *p = ck->p;
    const struct tn_plan_round *pr = &p->rounds[r];
    uint32_t src;
    unsigned lane;
    uint64_t d, count = 0, dur = pr->duration;
    if (!trace_back(ck, pr, e->node, e->port, &src, &lane, &d))
        return 0;
    for (uint32_t i = tn_plan_inj_find(pr, src, lane);
         i < pr->ninj && pr->inj[i].node == src && pr->inj[i].lane == lane; i++) {
        if (pr->inj[i].relay)
            continue;
        uint64_t t0 = p->par.alpha + pr->inj[i].start + d, n = tn_plan_inj_sent(p, r, i);
        if (t0 >= dur)
            break;
        if (n > dur - t0)
            n = dur - t0;
        uint64_t stored = count < e->len ? e->len - count : 0;
        if (add_run(ck, e->lane, t0, n < stored ? n : stored, e->addr + count))
            return TN_ENOMEM;
        count += n;
    }
    return 0;
}

/* A relay packet as the destination sees it. */
struct pkt {
    uint32_t dst;
    unsigned inport;
    uint64_t first, flits;    /* head arrival (round cycle), flits */
};

static int cmp_pkt(const void *a, const void *b)
{
    const struct pkt *x = a, *y = b;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return (int)x->inport - (int)y->inport;
}

/* Staged packet st of round r as its destination sees it (false: its
 * descriptor does not send it). */
static bool relay_packet(const struct tn_plan *p, uint32_t r, uint32_t si, struct tn_arc *route,
                         unsigned rcap, struct pkt *out)
{
    const struct tn_plan_stage *st = &p->stage[si];
    const struct tn_plan_round *pr = &p->rounds[r];
    uint64_t flits = tn_plan_stage_words(p, si, 0, NULL, NULL, 0);
    uint32_t i = tn_plan_inj_find(pr, st->node, 0);
    for (; i < pr->ninj && pr->inj[i].node == st->node; i++) {
        const struct tn_inject *in = &pr->inj[i];
        uint64_t sent = tn_plan_inj_sent(p, r, i);
        if (!in->relay || st->addr < in->addr || st->addr >= in->addr + sent)
            continue;
        unsigned d = tn_relay_path(&p->topo, &p->sched->rounds[st->round].relay[st->relay],
                                   route, rcap);
        if (d == 0)
            return false;
        uint64_t left = in->addr + sent - st->addr;
        *out = (struct pkt){st->dst, route[d - 1].dir,
                            p->par.alpha + in->start + (st->addr - in->addr) + d,
                            flits < left ? flits : left};
        return true;
    }
    return false;
}

/* Every packet of relay round r, sorted by destination, arrival, port. */
static int relay_packets(const struct check *ck, uint32_t r, struct pkt **out, uint32_t *n)
{
    const struct tn_plan *p = ck->p;
    unsigned rcap = p->topo.dim[0] + p->topo.dim[1] + p->topo.dim[2] + 1;
    struct tn_arc *route = malloc(rcap * sizeof *route);
    struct pkt *pk = malloc(((size_t)p->nstage + 1) * sizeof *pk);
    *n = 0;
    if (!route || !pk) {
        free(route);
        free(pk);
        return TN_ENOMEM;
    }
    for (uint32_t i = 0; i < p->nstage; i++)
        if (p->stage[i].round == r && relay_packet(p, r, i, route, rcap, &pk[*n]))
            (*n)++;
    free(route);
    qsort(pk, *n, sizeof *pk, cmp_pkt);
    *out = pk;
    return 0;
}

/* Writes of the relay eject lanes es[0..ne) of node v (lane order): the
 * packets pk[0..np) for v in arrival order, each to the lowest free lane. */
static int relay_writes(struct check *ck, uint32_t r, const struct tn_eject *const *es,
                        unsigned ne, const struct pkt *pk, uint32_t np)
{
    uint64_t busy[TN_NDIRS] = {0}, count[TN_NDIRS] = {0};
    uint64_t dur = ck->p->rounds[r].duration ? ck->p->rounds[r].duration : 1;
    for (uint32_t k = 0; k < np; k++) {
        unsigned l = tn_relay_free_lane(busy, ne, pk[k].first);
        if (l == ne || pk[k].first >= dur)
            continue;  /* a collision: nothing stored */
        busy[l] = pk[k].first + pk[k].flits - 1;
        uint64_t n = pk[k].flits < dur - pk[k].first ? pk[k].flits : dur - pk[k].first;
        uint64_t stored = count[l] < es[l]->len ? es[l]->len - count[l] : 0;
        if (add_run(ck, es[l]->lane, pk[k].first, n < stored ? n : stored, es[l]->addr + count[l]))
            return TN_ENOMEM;
        count[l] += n;
    }
    return 0;
}

/* The packets of relay round r (none if it has no relay eject lane). */
static int round_packets(const struct check *ck, uint32_t r, struct pkt **pk, uint32_t *np)
{
    const struct tn_plan_round *pr = &ck->p->rounds[r];
    bool relay = false;
    for (uint32_t i = 0; i < pr->nej; i++)
        relay |= pr->ej[i].port == TN_PORT_RELAY;
    *pk = NULL;
    *np = 0;
    return relay ? relay_packets(ck, r, pk, np) : 0;
}

/* Writes of the eject descriptors ej[e0..e1) of round r (one node's), the
 * relay lanes' from the packets pk[0..np) sorted by destination (*k: the
 * first not before this node, advanced). */
static int node_writes(struct check *ck, uint32_t r, uint32_t e0, uint32_t e1,
                       const struct pkt *pk, uint32_t np, uint32_t *k)
{
    const struct tn_plan_round *pr = &ck->p->rounds[r];
    uint32_t v = pr->ej[e0].node;
    const struct tn_eject *rl[TN_NDIRS];
    unsigned nrl = 0;
    int rc = 0;
    for (uint32_t e = e0; e < e1 && rc == 0; e++) {
        if (pr->ej[e].port != TN_PORT_RELAY)
            rc = circuit_writes(ck, r, &pr->ej[e]);
        else if (nrl < TN_NDIRS)
            rl[nrl++] = &pr->ej[e];
    }
    while (*k < np && pk[*k].dst < v)
        (*k)++;
    uint32_t k1 = *k;
    while (k1 < np && pk[k1].dst == v)
        k1++;
    if (rc == 0 && nrl)
        rc = relay_writes(ck, r, rl, nrl, pk + *k, k1 - *k);
    return rc;
}

/* Writes of round r: every node that ejects on two lanes. */
static int check_writes(struct check *ck, uint32_t r)
{
    const struct tn_plan_round *pr = &ck->p->rounds[r];
    struct pkt *pk;
    uint32_t np, k = 0;
    int rc = round_packets(ck, r, &pk, &np);
    for (uint32_t e0 = 0, e1; e0 < pr->nej && rc == 0 && !ck->found; e0 = e1) {
        for (e1 = e0; e1 < pr->nej && pr->ej[e1].node == pr->ej[e0].node; e1++)
            ;
        if (e1 - e0 > 1)
            rc = node_writes(ck, r, e0, e1, pk, np, &k);
        sweep(ck, r, pr->ej[e0].node, 1);
    }
    free(pk);
    return rc;
}

/* The first word that run[0..nr) (sends) send 0 or 1 cycles after
 * run[nr..nrun) (stores) store it, of node in round r. */
static void store_hazard(struct check *ck, uint32_t r, uint32_t node, uint32_t nr)
{
    for (uint32_t i = 0; i < nr && !ck->found; i++)
        for (uint32_t j = nr; j < ck->nrun && !ck->found; j++) {
            const struct run *s = &ck->run[i], *w = &ck->run[j];
            uint64_t g = w->phase - s->phase;  /* a word's send cycle - its store cycle */
            if (g > 1)
                continue;
            uint64_t lo = w->t0 + g > s->t0 ? w->t0 + g : s->t0;
            uint64_t hi = w->t0 + w->n + g < s->t0 + s->n ? w->t0 + w->n + g : s->t0 + s->n;
            if (lo >= hi)
                continue;
            ck->found = true;
            ck->haz = (struct tn_store_hazard){r, node, s->lane, w->lane, s->phase + lo, lo,
                                               (unsigned)g};
        }
}

/* Stores and sends of round r: every node that does both. */
static int store_round(struct check *ck, uint32_t r)
{
    const struct tn_plan_round *pr = &ck->p->rounds[r];
    struct pkt *pk;
    uint32_t np, k = 0, i = 0;
    int rc = round_packets(ck, r, &pk, &np);
    for (uint32_t e0 = 0, e1; e0 < pr->nej && rc == 0 && !ck->found; e0 = e1) {
        uint32_t v = pr->ej[e0].node;
        for (e1 = e0; e1 < pr->nej && pr->ej[e1].node == v; e1++)
            ;
        while (i < pr->ninj && pr->inj[i].node < v)
            i++;
        uint32_t i1 = i;
        while (i1 < pr->ninj && pr->inj[i1].node == v)
            i1++;
        rc = node_reads(ck, r, i, i1);
        i = i1;
        uint32_t nr = ck->nrun;
        if (nr && rc == 0)
            rc = node_writes(ck, r, e0, e1, pk, np, &k);
        if (rc == 0)
            store_hazard(ck, r, v, nr);
        ck->nrun = 0;
    }
    free(pk);
    return rc;
}

/* Per node and direction the neighbour (the node itself where the link
 * does not exist): node id = x + X (y + Y z), so a step in dimension k
 * moves the id by its stride, wrapping at the ring's end. */
static uint32_t *neighbours(const struct tn_topo *t)
{
    uint32_t *nb = malloc((size_t)t->n * TN_NDIRS * sizeof *nb);
    uint32_t stride[3] = {1, t->dim[0], t->dim[0] * t->dim[1]};
    for (uint32_t v = 0; nb && v < t->n; v++)
        for (int d = 0; d < TN_NDIRS; d++) {
            uint32_t k = (uint32_t)d >> 1, m = t->dim[k], s = stride[k], c = v / s % m;
            uint32_t up = c + 1 == m ? v - (m - 1) * s : v + s;
            uint32_t down = c == 0 ? v + (m - 1) * s : v - s;
            nb[(size_t)v * TN_NDIRS + d] = !tn_dir_exists(t, d) ? v : d & 1 ? down : up;
        }
    return nb;
}

/* Every round through pass (which sets ck->found on the first finding). */
static int check_rounds(struct check *ck, int (*pass)(struct check *, uint32_t))
{
    ck->nb = neighbours(&ck->p->topo);
    int rc = ck->nb ? 0 : TN_ENOMEM;
    for (uint32_t r = 0; r < ck->p->nrounds && rc == 0 && !ck->found; r++)
        rc = pass(ck, r);
    free(ck->run);
    free(ck->active);
    free(ck->nb);
    return rc;
}

static int bank_round(struct check *ck, uint32_t r)
{
    int rc = check_reads(ck, r);
    return rc == 0 && !ck->found ? check_writes(ck, r) : rc;
}

int tn_plan_bank_check(const struct tn_plan *p, struct tn_bank_conflict *c, char *err,
                       size_t errlen)
{
    struct check ck = {.p = p};
    int rc = check_rounds(&ck, bank_round);
    if (rc)
        return tn_errf(err, errlen, rc, "out of memory");
    if (!ck.found)
        return 0;
    const struct tn_bank_conflict *h = &ck.hit;
    if (c)
        *c = *h;
    return tn_errf(err, errlen, TN_ECAPACITY,
                   "bank conflict at node %u in round %u: %s lanes %u and %u both %s bank %u "
                   "in cycle %llu of the round, so the hardware would lose a flit (no memory "
                   "placement avoids it: try another --msg-flits or --algo)",
                   h->node, h->round + 1, h->write ? "eject" : "inject", h->lane[0], h->lane[1],
                   h->write ? "write" : "read", h->bank, (unsigned long long)h->cycle);
}

int tn_plan_store_check(const struct tn_plan *p, struct tn_store_hazard *h, char *err,
                        size_t errlen)
{
    struct check ck = {.p = p};
    int rc = check_rounds(&ck, store_round);
    if (rc)
        return tn_errf(err, errlen, rc, "out of memory");
    if (!ck.found)
        return 0;
    const struct tn_store_hazard *z = &ck.haz;
    if (h)
        *h = *z;
    return tn_errf(err, errlen, TN_ECAPACITY,
                   "node %u round %u: inject lane %u sends word %llu in cycle %llu, %u "
                   "cycle%s after eject lane %u stores it (the device needs 2: it reads a "
                   "word the cycle before it sends it)",
                   z->node, z->round + 1, z->send_lane, (unsigned long long)z->word,
                   (unsigned long long)z->cycle, z->gap, z->gap == 1 ? "" : "s", z->store_lane);
}
