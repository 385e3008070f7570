/* SPDX-License-Identifier: MIT */
/* Schedule -> plan: crossbar settings, lanes, descriptors, memory layout,
 * round durations (docs/hardware.md, docs/timing.md). The circuits are
 * lowered here with logical addresses (the schedule's message layout),
 * then placed in the banked flit memory (plan_place.c), the relay streams
 * lowered (plan_relay.c), and the whole plan checked cycle by cycle for
 * bank conflicts (plan_bank.c) before anyone loads it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plani.h"
#include "rope.h"
#include "tn_error.h"

void tn_plan_free(struct tn_plan *p)
{
    if (!p)
        return;
    for (uint32_t r = 0; r < p->nrounds; r++) {
        free(p->rounds[r].xbar);
        free(p->rounds[r].inj);
        free(p->rounds[r].ej);
    }
    free(p->rounds);
    free(p->stage);
    free(p->gap_first);
    free(p->gaps);
    free(p);
}

int tn_plan_cmp_inj(const void *a, const void *b)
{
    const struct tn_inject *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    if (x->lane != y->lane)
        return (int)x->lane - (int)y->lane;
    return x->start < y->start ? -1 : x->start > y->start;
}

int tn_plan_cmp_ej(const void *a, const void *b)
{
    const struct tn_eject *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return (int)x->lane - (int)y->lane;
}

/* ---- lanes: circuits with the same source, start and data share one ---- */

/* What decides a circuit's inject lane: circuits equal up to port carry
 * the same flits at the same cycles, so one lane feeds all their root
 * arcs (the crossbar multicasts a lane); reading them on several lanes
 * would make those lanes read one bank in every cycle. */
struct circ_key {
    uint32_t src, start, moff, mcnt, run, skip;
    uint32_t port, ci;        /* first arc's direction, circuit index */
};

static int cmp_key(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    for (unsigned i = 0; i < sizeof(struct circ_key) / sizeof(uint32_t); i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* Circuits of several runs (tn_circuit.runs) have run = RUNS_KEY and skip
 * = a hash of their runs in their keys; same_data compares the runs. */
#define RUNS_KEY UINT32_MAX

static uint32_t runs_hash(const struct tn_circuit *c)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < 2 * c->nruns; i++)
        h = (h ^ c->runs[i]) * 16777619u;
    return h;
}

static bool same_data(const struct tn_round *rd, const struct circ_key *a,
                      const struct circ_key *b)
{
    if (a->src != b->src || a->start != b->start || a->moff != b->moff ||
        a->mcnt != b->mcnt || a->run != b->run || a->skip != b->skip)
        return false;
    const struct tn_circuit *x = &rd->circ[a->ci], *y = &rd->circ[b->ci];
    return a->run != RUNS_KEY ||
           (x->nruns == y->nruns && memcmp(x->runs, y->runs, 2 * x->nruns * sizeof *x->runs) == 0);
}

/* The lowering state of one plan (per round scratch, sized for the round). */
struct lower {
    struct tn_plan *p;
    struct tn_sched *s;
    char *err;
    size_t errlen;
    uint8_t *ejmask;          /* per node: input ports it ejects from this round */
    uint32_t *ejlen;          /* per node and port: flits of that stream */
    struct circ_key *key;     /* per circuit of the round */
    uint8_t *lane, *lead;     /* per circuit: its inject lane; it writes the lane's descriptors */
    uint32_t ccap;
    uint32_t *walk, wcap;     /* head, depth, parent, ejarc of one circuit */
    uint32_t **ejt;           /* per round, per eject: arrival cycle of its first flit */
    void *tmp;                /* sort scratch, grown as needed */
    size_t tmpsize;
    uint32_t icap;            /* capacity of the round's inj[] */
    uint64_t ninj;            /* inject descriptors of the plan so far */
};

static int grow_round(struct lower *lw, uint32_t ncirc)
{
    if (ncirc <= lw->ccap)
        return 0;
    free(lw->key);
    free(lw->lane);
    lw->key = malloc(ncirc * sizeof *lw->key);
    lw->lane = malloc(2 * (size_t)ncirc);
    lw->lead = lw->lane + ncirc;
    lw->ccap = lw->key && lw->lane ? ncirc : 0;
    return lw->ccap ? 0 : TN_ENOMEM;
}

/* Walk circuit ci of round r into lw->walk (head, depth, parent, ejarc);
 * its first arc's direction into *port. 0 or TN_EVERIFY. */
static int walk_circuit(struct lower *lw, uint32_t r, uint32_t ci, unsigned *port)
{
    const struct tn_circuit *c = &lw->s->rounds[r].circ[ci];
    uint32_t need = c->narcs > c->nej ? c->narcs : c->nej;
    if (need > lw->wcap) {
        free(lw->walk);
        lw->walk = malloc(4 * (size_t)need * sizeof *lw->walk);
        lw->wcap = lw->walk ? need : 0;
        if (!lw->walk)
            return TN_ENOMEM;
    }
    uint32_t *head = lw->walk, *depth = head + lw->wcap, *parent = depth + lw->wcap;
    if (c->src >= lw->p->topo.n || !c->stream || c->msg_bad != -1 || c->msg_noncontig ||
        !tn_circuit_walk(lw->s, c, head, depth, parent, parent + lw->wcap))
        return tn_errf(lw->err, lw->errlen, TN_EVERIFY,
                       "round %u circuit %u is broken: run torusctl verify", r + 1, ci);
    *port = TN_NDIRS;
    for (uint32_t i = 0; i < c->narcs; i++)
        if (c->arcs[i].node == c->src && c->arcs[i].dir < *port)
            *port = c->arcs[i].dir;
    if (*port == TN_NDIRS)
        return tn_errf(lw->err, lw->errlen, TN_EVERIFY, "round %u circuit %u has no arcs", r + 1,
                       ci);
    return 0;
}

static int too_many_lanes(struct lower *lw, uint32_t r, uint32_t v, unsigned n, const char *what)
{
    unsigned lanes = lw->p->par.lanes;
    return tn_errf(lw->err, lw->errlen, TN_ECAPACITY,
                   "round %u: node %u %s %u streams, the device has %u lane%s", r + 1, v, what, n,
                   lanes, lanes == 1 ? "" : "s");
}

/* Give the inject lanes of the sources in keys [a, b) (one source, sorted
 * by data then port): lane = rank of the group's lowest port. */
static int lanes_of_source(struct lower *lw, uint32_t r, uint32_t a, uint32_t b)
{
    const struct tn_round *rd = &lw->s->rounds[r];
    uint32_t first[TN_NDIRS + 1];
    unsigned ng = 0;
    for (uint32_t i = a; i < b; i++)
        ng += i == a || !same_data(rd, &lw->key[i], &lw->key[i - 1]);
    if (ng > lw->p->par.lanes || ng > TN_NDIRS)
        return too_many_lanes(lw, r, lw->key[a].src, ng, "injects");
    ng = 0;
    for (uint32_t i = a; i < b; i++)
        if (i == a || !same_data(rd, &lw->key[i], &lw->key[i - 1]))
            first[ng++] = i;
    first[ng] = b;
    for (unsigned g = 0; g < ng; g++) {
        unsigned rank = 0;
        for (unsigned h = 0; h < ng; h++)
            rank += lw->key[first[h]].port < lw->key[first[g]].port;
        for (uint32_t i = first[g]; i < first[g + 1]; i++) {
            lw->lane[lw->key[i].ci] = (uint8_t)rank;
            lw->lead[lw->key[i].ci] = i == first[g];
        }
    }
    return 0;
}

/* Scratch of at least size bytes (kept for the next round). */
static void *scratch(struct lower *lw, size_t size)
{
    if (size > lw->tmpsize) {
        free(lw->tmp);
        lw->tmp = malloc(size);
        lw->tmpsize = lw->tmp ? size : 0;
    }
    return lw->tmp;
}

/* The n entries of list (of size bytes each, the node their first member)
 * in node order, stable (a counting sort): their indices, in scratch
 * followed by extra bytes for the caller (NULL: out of memory). */
static uint32_t *by_node(struct lower *lw, const void *list, size_t size, uint32_t n,
                         size_t extra)
{
    uint32_t N = lw->p->topo.n;
    uint32_t *count = scratch(lw, ((size_t)N + 1 + n) * sizeof *count + extra);
    if (!count)
        return NULL;
    uint32_t *ord = count + N + 1;
    const char *x = list;
    memset(count, 0, ((size_t)N + 1) * sizeof *count);
    for (uint32_t i = 0; i < n; i++)
        count[*(const uint32_t *)(x + i * size) + 1]++;
    for (uint32_t v = 0; v < N; v++)
        count[v + 1] += count[v];
    for (uint32_t i = 0; i < n; i++)
        ord[count[*(const uint32_t *)(x + i * size)]++] = i;
    return ord;
}

/* Sort the round's n circuit keys: by source, then each source's few by
 * data and port (insertion sort). */
static int sort_keys(struct lower *lw, uint32_t n)
{
    if (n == 0)
        return 0;
    uint32_t *ord = by_node(lw, lw->key, sizeof *lw->key, n, (size_t)n * sizeof *lw->key);
    if (!ord)
        return TN_ENOMEM;
    struct circ_key *k = (struct circ_key *)(ord + n);
    for (uint32_t i = 0; i < n; i++) {
        struct circ_key x = lw->key[ord[i]];
        uint32_t q = i;
        for (; q > 0 && k[q - 1].src == x.src && cmp_key(&x, &k[q - 1]) < 0; q--)
            k[q] = k[q - 1];
        k[q] = x;
    }
    memcpy(lw->key, k, n * sizeof *k);
    return 0;
}

/* Pass 1 of round r: validate and walk every circuit, note the ports
 * every node ejects from, and give every circuit its inject lane. */
static int assign_lanes(struct lower *lw, uint32_t r)
{
    const struct tn_round *rd = &lw->s->rounds[r];
    uint32_t L = lw->s->msg_flits;
    int rc = grow_round(lw, rd->ncirc);
    for (uint32_t ci = 0; rc == 0 && ci < rd->ncirc; ci++) {
        const struct tn_circuit *c = &rd->circ[ci];
        unsigned port;
        if ((rc = walk_circuit(lw, r, ci, &port)) != 0)
            break;
        const uint32_t *head = lw->walk, *ejarc = lw->walk + 3 * (size_t)lw->wcap;
        lw->key[ci] = c->nruns ? (struct circ_key){c->src, c->start, c->moff, c->mcnt, RUNS_KEY,
                                                   runs_hash(c), port, ci}
                               : (struct circ_key){c->src, c->start, c->moff, c->mcnt, c->mrun,
                                                   c->mrun ? c->mskip : 0, port, ci};
        for (uint32_t e = 0; e < c->nej; e++) {
            uint32_t i = ejarc[e];
            if (i == UINT32_MAX)
                continue;
            lw->ejmask[head[i]] |= (uint8_t)(1u << c->arcs[i].dir);
            lw->ejlen[(size_t)head[i] * TN_NDIRS + c->arcs[i].dir] = c->stream->n * L;
        }
    }
    if (rc == 0)
        rc = sort_keys(lw, rd->ncirc);
    for (uint32_t a = 0, b; a < rd->ncirc && rc == 0; a = b) {
        for (b = a; b < rd->ncirc && lw->key[b].src == lw->key[a].src; b++)
            ;
        rc = lanes_of_source(lw, r, a, b);
    }
    return rc;
}

static int push_inject(struct lower *lw, struct tn_plan_round *pr, const struct tn_inject *in)
{
    if (++lw->ninj > TN_PLAN_MAX_INJ)
        return tn_errf(lw->err, lw->errlen, TN_ECAPACITY,
                       "the plan needs more than %u inject descriptors (a gather takes one "
                       "per run): lower a smaller torus or another algorithm", TN_PLAN_MAX_INJ);
    if (pr->ninj == lw->icap) {
        uint32_t cap = lw->icap ? 2 * lw->icap : 64;
        struct tn_inject *n = realloc(pr->inj, cap * sizeof *n);
        if (!n)
            return TN_ENOMEM;
        pr->inj = n;
        lw->icap = cap;
    }
    pr->inj[pr->ninj++] = *in;
    return 0;
}

/* The inject descriptor of circuit c on lane for messages [first, first +
 * take) of its source's memory, the sent-th onwards of its stream. */
static int emit_run(struct lower *lw, struct tn_plan_round *pr, const struct tn_circuit *c,
                    uint8_t lane, uint32_t ci, uint64_t first, uint32_t take, uint32_t sent)
{
    uint32_t L = lw->s->msg_flits;
    uint64_t addr = first * L;
    if (addr + (uint64_t)take * L > UINT32_MAX)
        return tn_errf(lw->err, lw->errlen, TN_ECAPACITY, "node %u needs more than 2^32 words",
                       c->src);
    struct tn_inject in = {c->src, lane, c->start + sent * L, (uint32_t)addr, take * L, ci, 0, 0};
    return push_inject(lw, pr, &in);
}

/* The logical inject descriptors of circuit c on lane: one for a
 * contiguous slice; a chain of one per run for a gather (mrun messages,
 * mskip between runs) or for a list held in several runs, each starting
 * the cycle after the previous one. */
static int emit_stream(struct lower *lw, struct tn_plan_round *pr, const struct tn_circuit *c,
                       uint8_t lane, uint32_t ci)
{
    uint32_t n = c->stream->n, sent = 0;
    int rc = 0;
    for (uint32_t k = 0; k < c->nruns && rc == 0; sent += c->runs[2 * k + 1], k++)
        rc = emit_run(lw, pr, c, lane, ci, c->runs[2 * k], c->runs[2 * k + 1], sent);
    if (c->nruns)
        return rc;
    uint32_t run = c->mrun && c->mskip ? c->mrun : n, step = c->mrun ? c->mrun + c->mskip : n;
    for (uint32_t k = 0; sent < n && rc == 0; k++, sent += run)
        rc = emit_run(lw, pr, c, lane, ci, (uint64_t)c->moff + (uint64_t)k * step,
                      n - sent < run ? n - sent : run, sent);
    return rc;
}

/* Pass 2 for circuit ci of round r: crossbar selects, eject descriptors
 * (logical addresses: after what the node holds, in port order) and, from
 * the lane's lead circuit, the inject descriptors; *need grows to start +
 * depth + flits. */
static int lower_circuit(struct lower *lw, uint32_t r, uint32_t ci, uint64_t *need)
{
    const struct tn_circuit *c = &lw->s->rounds[r].circ[ci];
    struct tn_plan_round *pr = &lw->p->rounds[r];
    uint32_t N = lw->p->topo.n, L = lw->s->msg_flits;
    unsigned port;
    int rc = walk_circuit(lw, r, ci, &port);
    if (rc)
        return rc;
    const uint32_t *head = lw->walk, *depth = head + lw->wcap, *parent = depth + lw->wcap,
                   *ejarc = parent + lw->wcap;
    uint8_t lane = lw->lane[ci];
    if (lw->lead[ci] && (rc = emit_stream(lw, pr, c, lane, ci)) != 0)
        return rc;
    for (uint32_t i = 0; i < c->narcs; i++) {
        const struct tn_arc *a = &c->arcs[i];
        uint8_t *sel = &pr->xbar[(size_t)a->node * 12 + a->dir];
        if (*sel != TN_SEL_OFF)
            return tn_errf(lw->err, lw->errlen, TN_EVERIFY,
                           "round %u: output %s of node %u driven twice", r + 1,
                           tn_dir_name(a->dir), a->node);
        *sel = a->node == c->src ? (uint8_t)TN_SEL_LANE(lane)
                                 : (uint8_t)TN_SEL_PORT(c->arcs[parent[i]].dir);
    }
    const struct tn_blk *const *mem = (const struct tn_blk *const *)lw->s->st->mem + (size_t)r * N;
    uint64_t flits = (uint64_t)c->stream->n * L;
    for (uint32_t e = 0; e < c->nej; e++) {
        uint32_t v = c->eject[e], i = ejarc[e];
        if (i == UINT32_MAX)
            return tn_errf(lw->err, lw->errlen, TN_EVERIFY,
                           "round %u circuit %u: node %u ejects off the circuit", r + 1, ci,
                           v);
        unsigned ip = c->arcs[i].dir, below = lw->ejmask[v] & ((1u << ip) - 1);
        unsigned el = (unsigned)__builtin_popcount(below);
        if (el >= lw->p->par.lanes)
            return too_many_lanes(lw, r, v, (unsigned)__builtin_popcount(lw->ejmask[v]),
                                  "ejects");
        uint64_t addr = (uint64_t)mem[v]->n * L;
        for (unsigned q = 0; q < ip; q++)
            if (below >> q & 1)
                addr += lw->ejlen[(size_t)v * TN_NDIRS + q];
        if (addr + flits > UINT32_MAX)
            return tn_errf(lw->err, lw->errlen, TN_ECAPACITY,
                           "node %u needs more than 2^32 words", v);
        lw->ejt[r][pr->nej] = lw->p->par.alpha + c->start + depth[i];
        pr->ej[pr->nej++] = (struct tn_eject){v, (uint8_t)el, (uint8_t)ip, (uint32_t)addr,
                                              (uint32_t)flits, ci};
        pr->xbar[(size_t)v * 12 + 6 + el] = (uint8_t)TN_SEL_PORT(ip);
        if (c->start + depth[i] + flits > *need)
            *need = c->start + depth[i] + flits;
    }
    return 0;
}

/* Sort the round's ejects (with their arrival cycles) by node, then each
 * node's few by lane (insertion sort). */
static int sort_ejects(struct lower *lw, struct tn_plan_round *pr, uint32_t r)
{
    uint32_t n = pr->nej;
    if (n == 0)
        return 0;
    uint32_t *ord = by_node(lw, pr->ej, sizeof *pr->ej, n, (size_t)n * (sizeof *pr->ej + 4));
    if (!ord)
        return TN_ENOMEM;
    struct tn_eject *ej = (struct tn_eject *)(ord + n);
    uint32_t *t = (uint32_t *)(ej + n);
    for (uint32_t i = 0; i < n; i++) {
        struct tn_eject x = pr->ej[ord[i]];
        uint32_t q = i, xt = lw->ejt[r][ord[i]];
        for (; q > 0 && ej[q - 1].node == x.node && ej[q - 1].lane > x.lane; q--) {
            ej[q] = ej[q - 1];
            t[q] = t[q - 1];
        }
        ej[q] = x;
        t[q] = xt;
    }
    memcpy(pr->ej, ej, n * sizeof *ej);
    memcpy(lw->ejt[r], t, n * sizeof *t);
    return 0;
}

static int lower_round(struct lower *lw, uint32_t r)
{
    const struct tn_round *rd = &lw->s->rounds[r];
    struct tn_plan_round *pr = &lw->p->rounds[r];
    uint32_t N = lw->p->topo.n, totej = 0;
    uint64_t need = 0;
    if (lw->s->msg_len && rd->ncirc)
        return tn_errf(lw->err, lw->errlen, TN_ENOTSUP,
                       "round %u: circuits need equal message lengths (relay streams take any)",
                       r + 1);
    for (uint32_t ci = 0; ci < rd->ncirc; ci++)
        totej += rd->circ[ci].nej;
    pr->xbar = calloc((size_t)N, 12);
    pr->inj = NULL;
    lw->icap = 0;
    pr->ej = calloc(totej ? totej : 1, sizeof *pr->ej);
    lw->ejt[r] = calloc(totej ? totej : 1, sizeof **lw->ejt);
    if (!pr->xbar || !pr->ej || !lw->ejt[r])
        return TN_ENOMEM;
    int rc = assign_lanes(lw, r);
    for (uint32_t ci = 0; ci < rd->ncirc && rc == 0; ci++)
        rc = lower_circuit(lw, r, ci, &need);
    for (uint32_t ci = 0; ci < rd->ncirc; ci++)
        for (uint32_t e = 0; e < rd->circ[ci].nej; e++) {
            uint32_t v = rd->circ[ci].eject[e];
            if (v < N) {
                lw->ejmask[v] = 0;
                memset(&lw->ejlen[(size_t)v * TN_NDIRS], 0, TN_NDIRS * sizeof *lw->ejlen);
            }
        }
    if (rc == 0)
        rc = sort_ejects(lw, pr, r);
    if (rc)
        return rc;
    if (pr->ninj)
        qsort(pr->inj, pr->ninj, sizeof *pr->inj, tn_plan_cmp_inj);
    pr->t0 = lw->p->total;
    pr->duration = tn_round_duration(lw->p->par.alpha, need);
    lw->p->total += pr->duration;
    return 0;
}

/* Check par and fill in the default bank count. */
static int plan_params(struct tn_plan_params *par, char *err, size_t errlen)
{
    if (par->lanes < 1 || par->lanes > 6 || par->width < 1 || par->width > 32)
        return tn_errf(err, errlen, TN_EINVAL, "lanes must be 1..6 and width 1..32");
    if (par->alpha < 1)
        return tn_errf(err, errlen, TN_EINVAL,
                       "alpha must be at least 1: an inject lane reads its first word the "
                       "cycle before it sends it, within the round");
    if (par->banks == 0)
        while (par->banks < par->lanes)
            par->banks = par->banks ? 2 * par->banks : 1;
    if (par->banks == 0 || (par->banks & (par->banks - 1)) || par->banks > 64)
        return tn_errf(err, errlen, TN_EINVAL,
                       "banks must be a power of two up to 64 (the device's PARAMS), not %u",
                       par->banks);
    return 0;
}

static int lower_circuits(struct lower *lw)
{
    uint32_t N = lw->p->topo.n;
    lw->ejmask = calloc(N, 1);
    lw->ejlen = calloc((size_t)N * TN_NDIRS, sizeof *lw->ejlen);
    lw->ejt = calloc(lw->s->nrounds + 1, sizeof *lw->ejt);
    int rc = lw->ejmask && lw->ejlen && lw->ejt ? 0 : TN_ENOMEM;
    for (uint32_t r = 0; r < lw->s->nrounds && rc == 0; r++)
        rc = lower_round(lw, r);
    if (rc == 0)
        rc = tn_plan_place(lw->p, lw->ejt, lw->err, lw->errlen);
    for (uint32_t r = 0; lw->ejt && r < lw->s->nrounds; r++)
        free(lw->ejt[r]);
    free(lw->ejt);
    free(lw->ejmask);
    free(lw->ejlen);
    free(lw->key);
    free(lw->lane);
    free(lw->walk);
    free(lw->tmp);
    return rc;
}

int tn_plan_lower(struct tn_plan **out, struct tn_sched *s, const struct tn_plan_params *par,
                  char *err, size_t errlen)
{
    struct tn_plan_params pp = *par;
    int rc = plan_params(&pp, err, errlen);
    if (rc)
        return rc;
    if (!s->st->laid_out && tn_sched_layout(s) != 0)
        return tn_errf(err, errlen, TN_ENOMEM, "out of memory");
    struct tn_plan *p = calloc(1, sizeof *p);
    if (!p || !(p->rounds = calloc(s->nrounds ? s->nrounds : 1, sizeof *p->rounds))) {
        free(p);
        return tn_errf(err, errlen, TN_ENOMEM, "out of memory");
    }
    p->par = pp;
    p->sched = s;
    p->topo = s->topo;
    p->msg_flits = s->msg_flits;
    p->nrounds = s->nrounds;
    struct lower lw = {.p = p, .s = s, .err = err, .errlen = errlen};
    rc = lower_circuits(&lw);
    if (rc == 0) {
        p->mem_base = p->mem_max;
        rc = tn_plan_lower_relay(p, err, errlen);
    }
    if (rc == 0 && pp.mem_depth && p->mem_max > pp.mem_depth)
        rc = tn_errf(err, errlen, TN_ECAPACITY,
                     "the schedule needs %llu memory words per node, MEM_DEPTH is %u",
                     (unsigned long long)p->mem_max, pp.mem_depth);
    if (rc == 0)
        rc = tn_plan_bank_check(p, NULL, err, errlen);
    if (rc == 0)
        rc = tn_plan_store_check(p, NULL, err, errlen);
    if (rc) {
        if (rc == TN_ENOMEM)
            tn_errf(err, errlen, rc, "out of memory");
        tn_plan_free(p);
        return rc;
    }
    *out = p;
    return 0;
}

/* ---- memory layout ---- */

uint32_t tn_plan_mem_msgs(const struct tn_plan *p, uint32_t r, uint32_t node, uint32_t *ids,
                          uint32_t cap)
{
    const struct tn_blk *b = p->sched->st->mem[(size_t)r * p->topo.n + node];
    tn_blk_read(b, 0, b->n < cap ? b->n : cap, ids);
    return b->n;
}

/* The node's gap entry that applies to logical word w (NULL: none). */
static const struct tn_plan_gap *gap_at(const struct tn_plan *p, uint32_t node, uint64_t w)
{
    if (!p->gap_first)
        return NULL;
    uint32_t lo = p->gap_first[node], hi = p->gap_first[node + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->gaps[mid].word <= w)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > p->gap_first[node] ? &p->gaps[lo - 1] : NULL;
}

uint64_t tn_plan_addr(const struct tn_plan *p, uint32_t node, uint64_t w)
{
    const struct tn_plan_gap *g = gap_at(p, node, w);
    return w + (g ? g->shift : 0);
}

bool tn_plan_span(const struct tn_plan *p, uint32_t node, uint64_t a, uint64_t *w, uint64_t *n)
{
    /* the entries' physical starts (word + shift) increase too: find the
     * last one at or below a; a is data of it unless it lies in the gap
     * before the next one */
    uint32_t first = p->gap_first ? p->gap_first[node] : 0;
    uint32_t end = p->gap_first ? p->gap_first[node + 1] : 0, lo = first, hi = end;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((uint64_t)p->gaps[mid].word + p->gaps[mid].shift <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint64_t shift = lo > first ? p->gaps[lo - 1].shift : 0;
    *w = a - shift;
    *n = UINT64_MAX;
    if (lo == end)
        return true;
    uint64_t next = p->gaps[lo].word, next_phys = next + p->gaps[lo].shift;
    if (*w >= next) {
        *n = next_phys - a;
        return false;
    }
    *n = next - *w;
    return true;
}

bool tn_plan_word(const struct tn_plan *p, uint32_t node, uint64_t a, uint64_t *w)
{
    uint64_t n;
    return tn_plan_span(p, node, a, w, &n);
}

uint64_t tn_plan_held(const struct tn_plan *p, uint32_t r, uint32_t node)
{
    uint64_t words = (uint64_t)p->sched->st->mem[(size_t)r * p->topo.n + node]->n * p->msg_flits;
    return words ? tn_plan_addr(p, node, words - 1) + 1 : 0;
}

uint32_t tn_payload(uint64_t seed, uint32_t m, uint32_t k, unsigned width)
{
    uint64_t z = seed ^ ((uint64_t)m << 32 | k);
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (uint32_t)(width >= 32 ? z : z & ((1ull << width) - 1));
}

uint32_t tn_plan_init_mem(const struct tn_plan *p, uint64_t seed, uint32_t node,
                          uint32_t *words, uint32_t cap)
{
    const struct tn_blk *b = p->sched->st->mem[node];
    uint32_t L = p->msg_flits, n = (uint32_t)tn_plan_held(p, 0, node);
    memset(words, 0, (n < cap ? n : cap) * sizeof *words);
    for (uint32_t i = 0; i < b->n; i++) {
        uint32_t m = tn_blk_get(b, i);
        uint64_t a = tn_plan_addr(p, node, (uint64_t)i * L);
        for (uint32_t k = 0; k < L && a + k < cap; k++)
            words[a + k] = tn_payload(seed, m, k, p->par.width);
    }
    return n;
}
