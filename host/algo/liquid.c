/* SPDX-License-Identifier: MIT */
/* Liquid schedule search: exhaustive team search of the paper with its
 * reductions, then a min-conflicts repair search (see liquid.h and
 * docs/collectives.md). */
#include "liquid.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "splitmix.h"
#include "tn_error.h"

void tn_liquid_defaults(struct tn_liquid_opts *o)
{
    o->seconds = 10;
    o->exact_share = 0.5;
    o->exact_max = 20000;
    o->seed = 1;
    o->start = NULL;
    o->start_steps = 0;
}

/* ---- exhaustive search ------------------------------------------------ */

/* Extensions are enumerated in every maximal way only up to this many
 * candidates; above it one greedy extension is taken and the search no
 * longer counts as exhaustive. */
#define EXT_MAX 48

#ifndef RP_TENURE
#define RP_TENURE 5
#endif
#ifndef RP_SAMPLE
#define RP_SAMPLE 8
#endif

struct ex {
    const struct tn_traffic *t;
    int L, X;
    int *lx_off, *lx;      /* transfers using each link */
    unsigned char *alive, *used;
    int *load, nalive;
    uint64_t *zob, hash;
    int *team, nteam;      /* stack of the teams of all depths */
    int *bn;               /* bottleneck lists, L per depth */
    int *step_of;
    uint64_t *memo;        /* sub-traffics without a liquid schedule */
    size_t mcap, mcount;
    long nodes, ticks;
    double deadline;
    int aborted, incomplete;
};

static int ex_valid(const struct ex *e, int x)
{
    if (!e->alive[x])
        return 0;
    for (int j = e->t->off[x]; j < e->t->off[x + 1]; j++)
        if (e->used[e->t->link[j]])
            return 0;
    return 1;
}

static void ex_push(struct ex *e, int x)
{
    e->team[e->nteam++] = x;
    for (int j = e->t->off[x]; j < e->t->off[x + 1]; j++)
        e->used[e->t->link[j]] = 1;
}

static void ex_pop(struct ex *e)
{
    int x = e->team[--e->nteam];
    for (int j = e->t->off[x]; j < e->t->off[x + 1]; j++)
        e->used[e->t->link[j]] = 0;
}

static int memo_has(const struct ex *e, uint64_t h)
{
    if (!e->mcap)
        return 0;
    h |= 1;
    for (size_t i = h & (e->mcap - 1);; i = (i + 1) & (e->mcap - 1)) {
        if (e->memo[i] == h)
            return 1;
        if (!e->memo[i])
            return 0;
    }
}

static void memo_add(struct ex *e, uint64_t h)
{
    if (2 * (e->mcount + 1) > e->mcap) {
        size_t cap = e->mcap ? 2 * e->mcap : 1024;
        if (cap > ((size_t)1 << 23))
            return; /* table full: forget, which is only slower */
        uint64_t *m = calloc(cap, sizeof(uint64_t));
        if (!m)
            return;
        for (size_t i = 0; i < e->mcap; i++)
            if (e->memo[i]) {
                size_t k = e->memo[i] & (cap - 1);
                while (m[k])
                    k = (k + 1) & (cap - 1);
                m[k] = e->memo[i];
            }
        free(e->memo);
        e->memo = m;
        e->mcap = cap;
    }
    h |= 1;
    size_t i = h & (e->mcap - 1);
    while (e->memo[i] && e->memo[i] != h)
        i = (i + 1) & (e->mcap - 1);
    if (!e->memo[i]) {
        e->memo[i] = h;
        e->mcount++;
    }
}

static int ex_search(struct ex *e, int depth);

/* The team team[from..nteam) is full: take it as step 'depth'. */
static int ex_take(struct ex *e, int depth, int from)
{
    for (int k = from; k < e->nteam; k++) {
        int x = e->team[k];
        e->alive[x] = 0;
        e->nalive--;
        e->hash ^= e->zob[x];
        e->step_of[x] = depth;
        for (int j = e->t->off[x]; j < e->t->off[x + 1]; j++)
            e->load[e->t->link[j]]--;
    }
    /* the next depth builds its team on clean link marks */
    for (int k = from; k < e->nteam; k++)
        for (int j = e->t->off[e->team[k]]; j < e->t->off[e->team[k] + 1]; j++)
            e->used[e->t->link[j]] = 0;
    int r = ex_search(e, depth + 1);
    for (int k = from; k < e->nteam; k++)
        for (int j = e->t->off[e->team[k]]; j < e->t->off[e->team[k] + 1]; j++)
            e->used[e->t->link[j]] = 1;
    if (r != 1)
        for (int k = from; k < e->nteam; k++) {
            int x = e->team[k];
            e->alive[x] = 1;
            e->nalive++;
            e->hash ^= e->zob[x];
            for (int j = e->t->off[x]; j < e->t->off[x + 1]; j++)
                e->load[e->t->link[j]]++;
        }
    return r;
}

/* Every maximal extension of the skeleton by the candidates E[i..]. */
static int ex_extend(struct ex *e, int depth, int from, const int *E, int nE,
                     int i)
{
    if ((++e->ticks & 1023) == 0 && tn_now_s() > e->deadline)
        e->aborted = 1;
    if (e->aborted)
        return -1;
    if (i == nE) {
        for (int k = 0; k < nE; k++)
            if (ex_valid(e, E[k]))
                return 0; /* not maximal: produced by another branch */
        return ex_take(e, depth, from);
    }
    if (!ex_valid(e, E[i]))
        return ex_extend(e, depth, from, E, nE, i + 1);
    ex_push(e, E[i]);
    int r = ex_extend(e, depth, from, E, nE, i + 1);
    ex_pop(e);
    if (r)
        return r;
    return ex_extend(e, depth, from, E, nE, i + 1);
}

/* Skeletons: cover the uncovered bottleneck with the fewest candidates,
 * each candidate in turn; then the extensions. */
static int ex_build(struct ex *e, int depth, int from, const int *bn, int nb)
{
    if ((++e->ticks & 1023) == 0 && tn_now_s() > e->deadline)
        e->aborted = 1;
    if (e->aborted)
        return -1;
    int bb = -1, bc = INT_MAX;
    for (int i = 0; i < nb && bc > 0; i++) {
        int b = bn[i], c = 0;
        if (e->used[b])
            continue;
        for (int k = e->lx_off[b]; k < e->lx_off[b + 1] && c < bc; k++)
            c += ex_valid(e, e->lx[k]);
        if (c < bc) {
            bc = c;
            bb = b;
        }
    }
    if (bb >= 0) {
        if (bc == 0)
            return 0;
        for (int k = e->lx_off[bb]; k < e->lx_off[bb + 1]; k++) {
            int x = e->lx[k];
            if (!ex_valid(e, x))
                continue;
            ex_push(e, x);
            int r = ex_build(e, depth, from, bn, nb);
            ex_pop(e);
            if (r)
                return r;
        }
        return 0;
    }
    /* skeleton complete: non-congesting transfers (none touches a
     * bottleneck any more, all bottleneck links are in use) */
    int nE = 0, *E = NULL;
    for (int x = 0; x < e->X; x++)
        if (ex_valid(e, x))
            nE++;
    if (nE == 0)
        return ex_take(e, depth, from);
    E = malloc(sizeof(int) * nE);
    if (!E) {
        e->aborted = 1;
        return -1;
    }
    nE = 0;
    for (int x = 0; x < e->X; x++)
        if (ex_valid(e, x))
            E[nE++] = x;
    int r;
    if (nE <= EXT_MAX) {
        r = ex_extend(e, depth, from, E, nE, 0);
    } else {
        e->incomplete = 1;
        int top = e->nteam;
        for (int k = 0; k < nE; k++)
            if (ex_valid(e, E[k]))
                ex_push(e, E[k]);
        r = ex_take(e, depth, from);
        while (e->nteam > top)
            ex_pop(e);
    }
    free(E);
    return r;
}

static int ex_search(struct ex *e, int depth)
{
    if (e->nalive == 0)
        return 1;
    if ((++e->nodes & 63) == 0 && tn_now_s() > e->deadline)
        e->aborted = 1;
    if (e->aborted)
        return -1;
    if (memo_has(e, e->hash))
        return 0;
    int lam = 0, nb = 0, *bn = e->bn + (size_t)depth * e->L;
    for (int l = 0; l < e->L; l++)
        if (e->load[l] > lam)
            lam = e->load[l];
    for (int l = 0; l < e->L; l++)
        if (e->load[l] == lam)
            bn[nb++] = l;
    /* Reduction: some step of any liquid schedule holds t0 (the first
     * remaining transfer on the first bottleneck) and can be made full
     * without losing t0, so only full teams holding t0 are tried. */
    int t0 = -1;
    for (int k = e->lx_off[bn[0]]; k < e->lx_off[bn[0] + 1] && t0 < 0; k++)
        if (e->alive[e->lx[k]])
            t0 = e->lx[k];
    int from = e->nteam;
    ex_push(e, t0);
    int r = ex_build(e, depth, from, bn, nb);
    if (r != 1)
        ex_pop(e);
    if (r == 0 && !e->incomplete)
        memo_add(e, e->hash);
    return r;
}

/* (length, transfer) keys: longest first, then by index */
struct lkey {
    int len, x;
    uint64_t tie;
};

static int cmp_lkey(const void *a, const void *b)
{
    const struct lkey *p = a, *q = b;
    if (p->len != q->len)
        return p->len > q->len ? -1 : 1;
    if (p->tie != q->tie)
        return p->tie < q->tie ? -1 : 1;
    return (p->x > q->x) - (p->x < q->x);
}

/* Sorts ids[0..m) longest transfer first (scratch: m keys); equal lengths
 * by index, or in a random order drawn from *rng when rng is set. */
static void sort_longest(const struct tn_traffic *t, int *ids, int m,
                         struct lkey *k, uint64_t *rng)
{
    for (int i = 0; i < m; i++) {
        k[i].x = ids[i];
        k[i].len = t->off[ids[i] + 1] - t->off[ids[i]];
        k[i].tie = rng ? tn_splitmix(rng) : 0;
    }
    qsort(k, m, sizeof(*k), cmp_lkey);
    for (int i = 0; i < m; i++)
        ids[i] = k[i].x;
}

static void ex_teardown(struct ex *e)
{
    free(e->lx_off);
    free(e->lx);
    free(e->alive);
    free(e->used);
    free(e->load);
    free(e->zob);
    free(e->team);
    free(e->bn);
    free(e->memo);
}

/* Link -> transfers lists (longest transfers first: they are the hardest
 * to place late), all transfers alive. */
static int ex_setup(struct ex *e, const struct tn_traffic *t, int slices,
                    double deadline, int *step_of, uint64_t *rng)
{
    memset(e, 0, sizeof(*e));
    e->t = t;
    e->L = t->nlinks;
    e->X = t->nx;
    e->deadline = deadline;
    e->step_of = step_of;
    e->lx_off = calloc(e->L + 1, sizeof(int));
    e->lx = malloc(sizeof(int) * (t->off[t->nx] + 1));
    e->alive = malloc(e->X);
    e->used = calloc(e->L, 1);
    e->load = malloc(sizeof(int) * e->L);
    e->zob = malloc(sizeof(uint64_t) * e->X);
    e->team = malloc(sizeof(int) * (e->X + 1));
    e->bn = malloc(sizeof(int) * (size_t)e->L * (slices + 1));
    if (!e->lx_off || !e->lx || !e->alive || !e->used || !e->load ||
        !e->zob || !e->team || !e->bn) {
        ex_teardown(e);
        return TN_ENOMEM;
    }
    for (int j = 0; j < t->off[t->nx]; j++)
        e->lx_off[t->link[j] + 1]++;
    for (int l = 0; l < e->L; l++)
        e->lx_off[l + 1] += e->lx_off[l];
    memcpy(e->load, e->lx_off, sizeof(int) * e->L); /* fill cursor */
    for (int x = 0; x < e->X; x++)
        for (int j = t->off[x]; j < t->off[x + 1]; j++)
            e->lx[e->load[t->link[j]]++] = x;
    struct lkey *k = malloc(sizeof(*k) * (e->X ? e->X : 1));
    if (!k) {
        ex_teardown(e);
        return TN_ENOMEM;
    }
    for (int l = 0; l < e->L; l++)
        sort_longest(t, &e->lx[e->lx_off[l]], e->lx_off[l + 1] - e->lx_off[l],
                     k, rng);
    free(k);
    tn_traffic_load(t, NULL, e->load);
    uint64_t seed = 0x5eedULL;
    for (int x = 0; x < e->X; x++) {
        e->alive[x] = 1;
        e->zob[x] = tn_splitmix(&seed);
        e->hash ^= e->zob[x];
    }
    e->nalive = e->X;
    return 0;
}

/* Returns 1 (liquid schedule in step_of), 0 (none exists, if
 * !*incomplete), -1 (time out) or TN_ENOMEM. */
static int exhaustive(const struct tn_traffic *t, int lam, double deadline,
                      int *step_of, long *nodes, int *incomplete)
{
    struct ex e;
    int r = ex_setup(&e, t, lam, deadline, step_of, NULL);
    if (r)
        return r;
    r = ex_search(&e, 0);
    if (e.aborted)
        r = -1;
    *nodes = e.nodes;
    *incomplete = e.incomplete;
    ex_teardown(&e);
    return r;
}

/* ---- team sequence: the search without backtracking across steps ---- */

struct tgb {
    long budget;
    int best_cov, nbest, *best;
};

static int tg_build(struct ex *e, const int *bn, int nb, struct tgb *b)
{
    if (b->budget-- <= 0)
        return -1;
    int bb = -1, bc = INT_MAX, cov = 0;
    for (int i = 0; i < nb; i++) {
        int bl = bn[i], c = 0;
        if (e->used[bl]) {
            cov++;
            continue;
        }
        if (bc == 0)
            continue;
        for (int k = e->lx_off[bl]; k < e->lx_off[bl + 1] && c < bc; k++)
            c += ex_valid(e, e->lx[k]);
        b->budget -= e->lx_off[bl + 1] - e->lx_off[bl];
        if (c < bc) {
            bc = c;
            bb = bl;
        }
    }
    if (cov > b->best_cov) {
        b->best_cov = cov;
        b->nbest = e->nteam;
        memcpy(b->best, e->team, sizeof(int) * e->nteam);
    }
    if (bb < 0)
        return 1;
    if (bc == 0)
        return 0;
    for (int k = e->lx_off[bb]; k < e->lx_off[bb + 1]; k++) {
        int x = e->lx[k];
        if (!ex_valid(e, x))
            continue;
        ex_push(e, x);
        int r = tg_build(e, bn, nb, b);
        if (r == 1)
            return 1;
        ex_pop(e);
        if (r < 0)
            return -1;
    }
    return 0;
}

#ifndef TG_BUDGET
#define TG_BUDGET 4000000L /* candidate checks per step */
#endif

/* One step after the other: a team of the current sub-traffic found by a
 * budgeted skeleton search (else the skeleton covering most
 * bottlenecks), extended greedily by the longest non-congesting
 * transfers. Returns the number of steps (step_of filled). */
static int team_sequence(const struct tn_traffic *t, double deadline,
                         int *step_of, uint64_t *rng)
{
    struct ex e;
    struct tgb b = {0, 0, 0, NULL};
    int *order = malloc(sizeof(int) * (t->nx ? t->nx : 1));
    struct lkey *k = malloc(sizeof(*k) * (t->nx ? t->nx : 1));
    b.best = malloc(sizeof(int) * (t->nx + 1));
    int rc = ex_setup(&e, t, 0, deadline, step_of, rng);
    if (rc || !order || !b.best || !k) {
        if (!rc)
            ex_teardown(&e);
        free(order);
        free(k);
        free(b.best);
        return TN_ENOMEM;
    }
    for (int x = 0; x < t->nx; x++)
        order[x] = x;
    sort_longest(t, order, t->nx, k, rng);
    free(k);
    int steps = 0;
    while (e.nalive > 0) {
        int lam = 0, nb = 0;
        for (int l = 0; l < e.L; l++)
            if (e.load[l] > lam)
                lam = e.load[l];
        for (int l = 0; l < e.L; l++)
            if (e.load[l] == lam)
                e.bn[nb++] = l;
        b.budget = tn_now_s() < deadline ? TG_BUDGET : 1;
        b.best_cov = -1;
        b.nbest = 0;
        if (tg_build(&e, e.bn, nb, &b) != 1) {
            while (e.nteam)
                ex_pop(&e);
            for (int i = 0; i < b.nbest; i++)
                ex_push(&e, b.best[i]);
        }
        for (int i = 0; i < t->nx; i++)
            if (ex_valid(&e, order[i]))
                ex_push(&e, order[i]);
        for (int i = 0; i < e.nteam; i++) {
            int x = e.team[i];
            e.alive[x] = 0;
            e.nalive--;
            step_of[x] = steps;
            for (int j = t->off[x]; j < t->off[x + 1]; j++)
                e.load[t->link[j]]--;
        }
        while (e.nteam)
            ex_pop(&e);
        steps++;
    }
    ex_teardown(&e);
    free(order);
    free(b.best);
    return steps;
}

/* ---- repair search ---------------------------------------------------- */

struct rp {
    const struct tn_traffic *t;
    int L, X, S, cap;
    int *occ;          /* occ[l * cap + s]: transfer on link l in step s */
    int *step_of;
    int *queue, qn;
    int *tabu_step;
    long *tabu_until;
    long moves;
    uint64_t rng;
};

static int rp_grow(struct rp *r, int cap)
{
    int *o = malloc(sizeof(int) * (size_t)r->L * cap);
    if (!o)
        return TN_ENOMEM;
    for (int l = 0; l < r->L; l++)
        for (int s = 0; s < cap; s++)
            o[(size_t)l * cap + s] = s < r->cap ? r->occ[(size_t)l * r->cap + s]
                                                : -1;
    free(r->occ);
    r->occ = o;
    r->cap = cap;
    return 0;
}

static void rp_place(struct rp *r, int x, int s)
{
    for (int j = r->t->off[x]; j < r->t->off[x + 1]; j++)
        r->occ[(size_t)r->t->link[j] * r->cap + s] = x;
    r->step_of[x] = s;
}

static void rp_unplace(struct rp *r, int x)
{
    int s = r->step_of[x];
    for (int j = r->t->off[x]; j < r->t->off[x + 1]; j++)
        r->occ[(size_t)r->t->link[j] * r->cap + s] = -1;
    r->step_of[x] = -1;
}

/* Conflicting transfers of x in step s (distinct), up to 'limit'. */
static int rp_cost(const struct rp *r, int x, int s, int limit)
{
    int c = 0, seen[64];
    for (int j = r->t->off[x]; j < r->t->off[x + 1] && c < limit; j++) {
        int y = r->occ[(size_t)r->t->link[j] * r->cap + s];
        if (y < 0)
            continue;
        int dup = 0;
        for (int k = 0; k < c && k < 64 && !dup; k++)
            dup = seen[k] == y;
        if (!dup) {
            if (c < 64)
                seen[c] = y;
            c++;
        }
    }
    return c;
}

/* Tabu test: x may not re-enter step s before its expiry (two slots per
 * transfer remember the latest evictions). */
static int rp_tabu(const struct rp *r, int x, int s)
{
    for (int k = 0; k < 2; k++)
        if (r->tabu_step[2 * x + k] == s && r->tabu_until[2 * x + k] > r->moves)
            return 1;
    return 0;
}

/* Places every queued transfer into steps 0..S-1, evicting conflicts
 * (partial-colouring tabu search: among a sample of queued transfers and
 * all steps, the move evicting the fewest transfers, ties at random;
 * evicted transfers may not return to that step for a while). Returns 1
 * when the queue empties, 0 at the deadline. */
static int rp_repair(struct rp *r, double deadline)
{
    while (r->qn > 0) {
        if ((r->moves & 255) == 0 && tn_now_s() > deadline)
            return 0;
        int sample = r->qn < RP_SAMPLE ? r->qn : RP_SAMPLE;
        int bq = -1, bs = -1, bc = 1 << 20, ties = 0;
        for (int c = 0; c < sample; c++) {
            int qi = r->qn <= RP_SAMPLE
                         ? c
                         : (int)(tn_splitmix(&r->rng) % (uint64_t)r->qn);
            int x = r->queue[qi];
            int s0 = (int)(tn_splitmix(&r->rng) % (uint64_t)r->S);
            for (int k = 0; k < r->S && bc > 0; k++) {
                int s = (s0 + k) % r->S;
                int cost = rp_cost(r, x, s, bc + 1);
                if (cost > bc || (cost > 0 && rp_tabu(r, x, s)))
                    continue;
                if (cost < bc) {
                    bc = cost;
                    bq = qi;
                    bs = s;
                    ties = 1;
                } else if (tn_splitmix(&r->rng) % (uint64_t)++ties == 0) {
                    bq = qi;
                    bs = s;
                }
            }
        }
        if (bq < 0) { /* everything tabu: a random move */
            bq = (int)(tn_splitmix(&r->rng) % (uint64_t)r->qn);
            bs = (int)(tn_splitmix(&r->rng) % (uint64_t)r->S);
        }
        int x = r->queue[bq];
        r->queue[bq] = r->queue[--r->qn];
        long tenure = RP_TENURE + (long)(tn_splitmix(&r->rng) % RP_TENURE);
        for (int j = r->t->off[x]; j < r->t->off[x + 1]; j++) {
            int y = r->occ[(size_t)r->t->link[j] * r->cap + bs];
            if (y < 0)
                continue;
            rp_unplace(r, y);
            int slot = r->tabu_until[2 * y] <= r->tabu_until[2 * y + 1] ? 0 : 1;
            r->tabu_step[2 * y + slot] = bs;
            r->tabu_until[2 * y + slot] = r->moves + tenure;
            r->queue[r->qn++] = y;
        }
        rp_place(r, x, bs);
        r->moves++;
    }
    return 1;
}

/* Merges whole steps into earlier steps when no link clashes (first
 * fit), then renumbers the steps densely. */
static void rp_merge(struct rp *r)
{
    int *members = malloc(sizeof(int) * r->X), *start = calloc(r->S + 1,
                                                              sizeof(int));
    int *fill = calloc(r->S + 1, sizeof(int));
    if (!members || !start || !fill)
        goto out_free;
    for (int x = 0; x < r->X; x++)
        start[r->step_of[x] + 1]++;
    for (int s = 0; s < r->S; s++)
        start[s + 1] += start[s];
    for (int x = 0; x < r->X; x++)
        members[start[r->step_of[x]] + fill[r->step_of[x]]++] = x;
    for (int j = 1; j < r->S; j++)
        for (int i = 0; i < j; i++) {
            int okk = start[j] < start[j + 1];
            for (int m = start[j]; m < start[j + 1] && okk; m++)
                okk = rp_cost(r, members[m], i, 1) == 0;
            if (!okk)
                continue;
            for (int m = start[j]; m < start[j + 1]; m++) {
                rp_unplace(r, members[m]);
                rp_place(r, members[m], i);
            }
            break; /* step j is now empty */
        }
    /* renumber: step of each transfer by rank among non-empty steps */
    int *rank = fill, k = 0;
    for (int s = 0; s < r->S; s++)
        rank[s] = -1;
    for (int x = 0; x < r->X; x++)
        rank[r->step_of[x]] = 0;
    for (int s = 0; s < r->S; s++)
        if (rank[s] == 0)
            rank[s] = ++k;
    for (int x = 0; x < r->X; x++) {
        int s = r->step_of[x];
        rp_unplace(r, x);
        members[x] = rank[s] - 1;
    }
    for (int x = 0; x < r->X; x++)
        rp_place(r, x, members[x]);
    r->S = k;
out_free:
    free(members);
    free(start);
    free(fill);
}

struct wkey {
    long w;
    uint64_t tie;
    int x;
};

static int cmp_wkey(const void *a, const void *b)
{
    const struct wkey *p = a, *q = b;
    if (p->w != q->w)
        return p->w > q->w ? -1 : 1;
    return (p->tie > q->tie) - (p->tie < q->tie);
}

/* Greedy first-fit (heaviest transfers first), then: empty the smallest
 * step, repair into one step fewer, keep the best, until Lambda (or
 * 'floor') or the deadline. Returns the best length, best in step_of. */
static int repair_search(const struct tn_traffic *t, int lam, int floor_,
                         double deadline, unsigned seed, const int *start,
                         int start_steps, int *step_of, long *moves,
                         int *used_start)
{
    struct rp r;
    memset(&r, 0, sizeof(r));
    r.t = t;
    r.L = t->nlinks;
    r.X = t->nx;
    r.rng = seed * 0x9e3779b97f4a7c15ULL + 7;
    r.step_of = malloc(sizeof(int) * r.X);
    r.queue = malloc(sizeof(int) * r.X);
    r.tabu_step = malloc(sizeof(int) * 2 * r.X);
    r.tabu_until = calloc(2 * (size_t)r.X, sizeof(long));
    int *load = malloc(sizeof(int) * (r.L ? r.L : 1));
    int *cnt = NULL;
    struct wkey *key = malloc(sizeof(*key) * r.X);
    int rc = TN_ENOMEM, best = 0;
    if (!r.step_of || !r.queue || !r.tabu_step || !r.tabu_until || !load ||
        !key || rp_grow(&r, lam + lam / 4 + 8))
        goto out_free;
    tn_traffic_load(t, NULL, load);
    for (int x = 0; x < r.X; x++) {
        key[x].w = 0;
        for (int j = t->off[x]; j < t->off[x + 1]; j++)
            key[x].w += load[t->link[j]];
        key[x].tie = (uint64_t)x; /* keeps families of the input together */
        key[x].x = x;
        r.tabu_step[2 * x] = r.tabu_step[2 * x + 1] = -1;
    }
    qsort(key, r.X, sizeof(*key), cmp_wkey);
    for (int i = 0; i < r.X; i++) {
        int x = key[i].x, s = 0;
        while (s < r.S && rp_cost(&r, x, s, 1))
            s++;
        if (s == r.S) {
            if (r.S == r.cap && rp_grow(&r, 2 * r.cap))
                goto out_free;
            r.S++;
        }
        rp_place(&r, x, s);
    }
    if (start && start_steps < r.S) {
        for (int x = 0; x < r.X; x++)
            rp_unplace(&r, x);
        if (start_steps > r.cap && rp_grow(&r, start_steps))
            goto out_free;
        r.S = start_steps;
        for (int x = 0; x < r.X; x++)
            rp_place(&r, x, start[x]);
        *used_start = 1;
    }
    rp_merge(&r);
    best = r.S;
    memcpy(step_of, r.step_of, sizeof(int) * r.X);
    cnt = malloc(sizeof(int) * r.cap);
    if (!cnt)
        goto out_free;
    while (r.S > floor_ && tn_now_s() < deadline) {
        /* empty the step with the fewest transfers into the queue and
         * renumber the last step into its place */
        memset(cnt, 0, sizeof(int) * r.S);
        for (int x = 0; x < r.X; x++)
            cnt[r.step_of[x]]++;
        int sm = 0;
        for (int s = 1; s < r.S; s++)
            if (cnt[s] < cnt[sm])
                sm = s;
        int last = r.S - 1;
        for (int x = 0; x < r.X; x++) {
            if (r.step_of[x] == sm) {
                rp_unplace(&r, x);
                r.queue[r.qn++] = x;
            }
        }
        for (int x = 0; x < r.X; x++)
            if (r.step_of[x] == last) {
                rp_unplace(&r, x);
                rp_place(&r, x, sm);
            }
        r.S--;
        if (!rp_repair(&r, deadline))
            break;
        best = r.S;
        memcpy(step_of, r.step_of, sizeof(int) * r.X);
    }
    rc = best;
out_free:
    *moves = r.moves;
    free(r.occ);
    free(r.step_of);
    free(r.queue);
    free(r.tabu_step);
    free(r.tabu_until);
    free(load);
    free(cnt);
    free(key);
    return rc;
}

/* The search's end with a schedule of `steps` steps: recorded in st with
 * the time it took, and returned. */
static int search_done(struct tn_liquid_stats *st, double t0, int steps)
{
    st->steps = steps;
    st->seconds = tn_now_s() - t0;
    return steps;
}

/* The exhaustive team search in its share of the time: 1 with a liquid
 * schedule in step_of, 0 without one (*floor_ past Lambda when the search
 * proved there is none), or a negative TN_E*. */
static int try_exhaustive(const struct tn_traffic *t, const struct tn_liquid_opts *o, double t0,
                          double secs, int *step_of, struct tn_liquid_stats *st, int *floor_)
{
    int incomplete = 0;
    double share = o->exact_share > 1 ? 1 : o->exact_share;
    int r = exhaustive(t, st->lambda, t0 + share * secs, step_of, &st->nodes, &incomplete);
    st->exact_seconds = tn_now_s() - t0;
    if (r < -1)
        return r;
    if (r == 1) {
        st->started = 0;
        st->exhausted = !incomplete;
        return 1;
    }
    if (r == 0 && !incomplete) {
        st->exhausted = 1; /* proof: no liquid schedule */
        *floor_ = st->lambda + 1;
    }
    return 0;
}

/* The team sequence (the paper's search without backtracking across
 * steps) into seq: a deterministic run first, then, while longer than
 * floor_, restarts with random tie orders among equally long transfers
 * for a quarter of the time left. Its length or a negative TN_E*. */
static int best_team_sequence(const struct tn_traffic *t, const struct tn_liquid_opts *o,
                              double t0, double secs, int floor_, int *seq,
                              struct tn_liquid_stats *st)
{
    double left = t0 + secs - tn_now_s(), ts = tn_now_s();
    double seq_end = tn_now_s() + 0.25 * (left > 0 ? left : 0);
    int *alt = malloc(sizeof(int) * t->nx);
    if (!alt)
        return TN_ENOMEM;
    int ns = team_sequence(t, seq_end, seq, NULL);
    uint64_t rng = 0x7e57ULL + o->seed;
    while (ns > floor_ && tn_now_s() < seq_end) {
        int na = team_sequence(t, seq_end, alt, &rng);
        if (na < 0) {
            ns = na;
            break;
        }
        if (na < ns) {
            ns = na;
            memcpy(seq, alt, sizeof(int) * t->nx);
        }
        st->restarts++;
    }
    free(alt);
    st->sequence_seconds = tn_now_s() - ts;
    return ns;
}

int tn_liquid_search(const struct tn_traffic *t, const struct tn_liquid_opts *o,
                     int *step_of, struct tn_liquid_stats *st)
{
    struct tn_liquid_opts def;
    if (!o) {
        tn_liquid_defaults(&def);
        o = &def;
    }
    memset(st, 0, sizeof(*st));
    double t0 = tn_now_s(), secs = o->seconds > 0 ? o->seconds : 10;
    int *load = malloc(sizeof(int) * (t->nlinks ? t->nlinks : 1));
    if (!load)
        return TN_ENOMEM;
    st->lambda = tn_traffic_load(t, NULL, load);
    free(load);
    if (t->nx == 0)
        return 0;
    int floor_ = st->lambda;
    if (o->start) {
        if (tn_traffic_check(t, o->start, o->start_steps, 1))
            return TN_EINVAL;
        st->started = 1;
        if (o->start_steps == st->lambda) {
            memcpy(step_of, o->start, sizeof(int) * t->nx);
            return search_done(st, t0, st->lambda);
        }
    }
    if (t->nx <= o->exact_max && o->exact_share > 0) {
        int r = try_exhaustive(t, o, t0, secs, step_of, st, &floor_);
        if (r)
            return r < 0 ? r : search_done(st, t0, st->lambda);
    }
    /* the team sequence as a start when it beats the given one */
    const int *start = o->start;
    int start_steps = o->start_steps;
    int *seq = malloc(sizeof(int) * t->nx);
    if (!seq)
        return TN_ENOMEM;
    int ns = best_team_sequence(t, o, t0, secs, floor_, seq, st);
    if (ns < 0) {
        free(seq);
        return ns;
    }
    st->sequence = ns;
    if (!start || ns < start_steps) {
        start = seq;
        start_steps = ns;
        st->started = 0;
    }
    if (start_steps == st->lambda) {
        memcpy(step_of, start, sizeof(int) * t->nx);
        free(seq);
        return search_done(st, t0, st->lambda);
    }
    int used_start = 0;
    int s = repair_search(t, st->lambda, floor_, t0 + secs, o->seed, start,
                          start_steps, step_of, &st->moves, &used_start);
    if (start == o->start && !used_start)
        st->started = 0;
    free(seq);
    if (s < 0) {
        st->seconds = tn_now_s() - t0;
        return s;
    }
    return search_done(st, t0, s);
}
