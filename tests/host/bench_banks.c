/* SPDX-License-Identifier: MIT */
/* make bench: could the flit memory's banks be owned by lanes in turn
 * instead of arbitrated (docs/NOTES.md, "What to do next", item 1)?
 *
 * Today word a is in bank a mod B and every bank's port takes the lane
 * whose address falls in it (the arbitration, about 2,600 LUT6 of the
 * 6-lane node). In a rotating scheme, lane x (an inject or an eject lane)
 * owns bank (sigma(x) + t) mod B in cycle t, so an access of word a in
 * cycle t must have phase (a + s - t) mod B = sigma(x), where s is the
 * shift the host gives the word's segment. Two accesses of one word (its
 * writer and a reader, or two readers of an initial word) then fix the
 * difference of their lanes' sigmas, whatever s is: sigma(reader) -
 * sigma(writer) = t_write - t_read (mod B). This program runs the
 * reference model's cycle engine on the tests' schedules, collects every
 * flit memory access of the circuit rounds (relay rounds are not
 * counted), and checks whether some sigma satisfies all these equations:
 * with one sigma per node and lane, and with one per node, lane and round
 * (a round setting). "conflicts" counts equations that contradict the
 * earlier ones (union-find with offsets mod B); "shared" counts pairs of
 * lanes of one kind that the equations force onto one residue while both
 * work in one round (they would own the same bank in every cycle of it). A
 * schedule the scheme can run needs both 0. The host's other freedom,
 * which lane carries a stream, is not used here: the figures are what the
 * lane assignment of today's plans allows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "model.h"
#include "plan.h"
#include "tn_error.h"

#define BANKS 8u
#define LANES 6u

struct access {
    uint32_t round, node;
    uint64_t t, addr;
    uint8_t lane, write;
};

struct probe_log {
    struct access *a;
    size_t n, cap;
    int oom;
};

static void on_mem(void *ctx, uint32_t round, uint64_t t, uint32_t node, unsigned lane, int write,
                   uint64_t addr)
{
    struct probe_log *g = ctx;
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 4096;
        struct access *a = realloc(g->a, cap * sizeof *a);
        if (!a) {
            g->oom = 1;
            return;
        }
        g->a = a;
        g->cap = cap;
    }
    g->a[g->n++] = (struct access){round, node, t, addr, (uint8_t)lane, (uint8_t)(write != 0)};
}

/* Union-find over the sigmas, with each variable's offset to its root. */
struct uf {
    uint32_t *up;
    uint8_t *off;             /* sigma(x) - sigma(up[x]) mod BANKS */
};

static uint32_t find(struct uf *u, uint32_t x, unsigned *off)
{
    unsigned o = 0;
    uint32_t r = x;
    while (u->up[r] != r) {
        o += u->off[r];
        r = u->up[r];
    }
    /* path compression: point x straight at the root */
    u->off[x] = (uint8_t)(o % BANKS);
    u->up[x] = r;
    *off = o % BANKS;
    return r;
}

/* sigma(x) - sigma(y) = d (mod BANKS): 1 if that contradicts what is known */
static int relate(struct uf *u, uint32_t x, uint32_t y, unsigned d)
{
    unsigned ox, oy;
    uint32_t rx = find(u, x, &ox), ry = find(u, y, &oy);
    if (rx == ry)
        return (ox + BANKS * 2 - oy - d % BANKS) % BANKS != 0;
    u->up[rx] = ry;
    u->off[rx] = (uint8_t)((oy + d + BANKS * 2 - ox) % BANKS);
    return 0;
}

struct tally {
    uint64_t equations, conflicts, shared, nodes_bad;
    uint64_t rename_bad, rename_open;  /* per round only: see rename_node */
    uint64_t min_gap;         /* fewest cycles from a word's store to its send (UINT64_MAX: none) */
};

/* A used sigma of one node: its index there ((round * 2 + kind) * LANES
 * + lane), its component and its offset to the component's root. */
struct member {
    uint32_t idx, root;
    uint8_t off;
};

static int by_root(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    return x->root != y->root ? (x->root < y->root ? -1 : 1) : (x->idx > y->idx) - (x->idx < y->idx);
}

#define RENAME_STEPS 1000000L

/* With a fixed rotator (physical lane l owns bank (l + t) mod BANKS, no
 * setting) and the host free to rename lanes in every round: the sigmas
 * of a component may all be turned by one c, and then every round's used
 * lanes of a kind need distinct residues below LANES (each one is a
 * physical lane). A depth-first search over the node's components of
 * two or more used sigmas (a lone one takes any free lane): 0 if some
 * turning works, 1 if none does, 2 if RENAME_STEPS ran out. */
static int rename_node(struct uf *u, const uint8_t *used, uint32_t v, uint32_t R)
{
    uint32_t n = R * 2 * LANES, base = v * n, m = 0;
    struct member *mb = malloc(n * sizeof *mb);
    uint32_t *cs = malloc((n + 1) * sizeof *cs);    /* component starts in mb */
    uint8_t *occ = calloc(R * 2, 1), *turn = calloc(n + 1, 1);
    if (!mb || !cs || !occ || !turn) {
        free(mb), free(cs), free(occ), free(turn);
        return 2;
    }
    for (uint32_t i = 0; i < n; i++)
        if (used[base + i]) {
            unsigned o;
            uint32_t r = find(u, base + i, &o);
            mb[m++] = (struct member){i, r, (uint8_t)o};
        }
    qsort(mb, m, sizeof *mb, by_root);
    uint32_t nc = 0;
    for (uint32_t i = 0, j; i < m; i = j) {
        for (j = i; j < m && mb[j].root == mb[i].root; j++)
            ;
        if (j - i >= 2)
            cs[nc++] = i;
        cs[nc] = j;  /* the end of the last one kept, overwritten by the next start */
        if (j - i < 2)
            continue;
    }
    /* component k: mb[cs[k] .. end(k)), end(k) = the first index after
     * cs[k] with another root */
    long steps = RENAME_STEPS;
    int k = 0, res = 0;
    while (k >= 0 && k < (int)nc) {
        if (--steps < 0) {
            res = 2;
            break;
        }
        uint32_t a = cs[k], e = a;
        while (e < m && mb[e].root == mb[a].root)
            e++;
        if (turn[k] > 0) {  /* undo the previous turning of k */
            for (uint32_t i = a; i < e; i++)
                occ[mb[i].idx / LANES] &= (uint8_t)~(1u << ((mb[i].off + turn[k] - 1) % BANKS));
        }
        bool placed = false;
        while (!placed && turn[k] < BANKS) {
            unsigned c = turn[k]++;
            uint32_t i = a;
            for (; i < e; i++) {
                unsigned rsd = (mb[i].off + c) % BANKS;
                uint8_t *o = &occ[mb[i].idx / LANES];
                if (rsd >= LANES || (*o >> rsd & 1))
                    break;
                *o |= (uint8_t)(1u << rsd);
            }
            if (i == e) {
                placed = true;
                break;
            }
            for (uint32_t q = a; q < i; q++)
                occ[mb[q].idx / LANES] &= (uint8_t)~(1u << ((mb[q].off + c) % BANKS));
        }
        if (placed) {
            k++;
        } else {
            turn[k] = 0;
            k--;
        }
    }
    if (res == 0 && k < 0)
        res = 1;
    free(mb), free(cs), free(occ), free(turn);
    return res;
}

/* A word's last writer, or its first reader while nobody wrote it. */
struct word_owner {
    uint64_t t;
    uint32_t var;
    uint8_t seen, written;
};

static uint32_t var_of(const struct access *a, uint32_t rounds_per_var, uint32_t nrounds)
{
    uint32_t r = rounds_per_var ? a->round : 0;
    return ((a->node * (rounds_per_var ? nrounds : 1) + r) * 2 + a->write) * LANES + a->lane;
}

static int analyse(const struct probe_log *g, const struct tn_plan *p, int per_round,
                   struct tally *out)
{
    uint32_t N = p->topo.n, R = per_round ? p->nrounds : 1;
    size_t nv = (size_t)N * R * 2 * LANES;
    uint64_t cap = p->mem_max ? p->mem_max : 1;
    struct uf u = {malloc(nv * sizeof *u.up), malloc(nv)};
    struct word_owner *w = calloc((size_t)(N * cap), sizeof *w);
    uint8_t *bad = calloc(N, 1), *used = calloc(nv, 1);
    /* per node and kind: the round each lane last worked in, plus one */
    uint32_t *last = calloc((size_t)N * 2 * LANES, sizeof *last);
    uint8_t *co = calloc((size_t)N * R * 2 * LANES * LANES, 1);
    if (!u.up || !u.off || !w || !bad || !used || !last || !co) {
        free(u.up), free(u.off), free(w), free(bad), free(used), free(last), free(co);
        return TN_ENOMEM;
    }
    for (size_t x = 0; x < nv; x++)
        u.up[x] = (uint32_t)x, u.off[x] = 0;
    memset(out, 0, sizeof *out);
    out->min_gap = UINT64_MAX;
    for (size_t i = 0; i < g->n; i++) {
        const struct access *a = &g->a[i];
        uint32_t x = var_of(a, per_round, p->nrounds), *lr = &last[(a->node * 2 + a->write) * LANES];
        uint32_t cr = per_round ? a->round : 0;
        used[x] = 1;
        lr[a->lane] = a->round + 1;
        for (unsigned k = 0; k < LANES; k++)
            if (k != a->lane && lr[k] == a->round + 1)
                co[(((a->node * R + cr) * 2 + a->write) * LANES + a->lane) * LANES + k] = 1;
        struct word_owner *o = &w[a->node * cap + a->addr];
        if (a->write) {
            *o = (struct word_owner){a->t, x, 1, 1};
            continue;
        }
        if (!o->seen) {
            *o = (struct word_owner){a->t, x, 1, 0};
            continue;
        }
        if (o->written && a->t - o->t < out->min_gap)
            out->min_gap = a->t - o->t;
        /* sigma(x) - sigma(owner) = t_owner - t (mod BANKS) */
        out->equations++;
        if (relate(&u, x, o->var, (unsigned)((o->t + BANKS * 1024 - a->t % (BANKS * 1024)) % BANKS))) {
            out->conflicts++;
            bad[a->node] = 1;
        }
    }
    /* lanes of one kind, working in one round, forced onto one residue */
    for (uint32_t v = 0; v < N; v++)
        for (unsigned kind = 0; kind < 2; kind++)
            for (uint32_t r = 0; r < R; r++)
                for (unsigned l = 0; l < LANES; l++)
                    for (unsigned k = l + 1; k < LANES; k++) {
                        uint32_t xl = ((v * R + r) * 2 + kind) * LANES + l;
                        if (!co[xl * LANES + k] && !co[(xl - l + k) * LANES + l])
                            continue;
                        unsigned ol, ok;
                        if (find(&u, xl, &ol) == find(&u, xl - l + k, &ok) && ol == ok) {
                            out->shared++;
                            bad[v] = 1;
                        }
                    }
    for (uint32_t v = 0; v < N; v++) {
        out->nodes_bad += bad[v];
        int rn = per_round ? rename_node(&u, used, v, R) : 0;
        out->rename_bad += rn == 1;
        out->rename_open += rn == 2;
    }
    free(u.up), free(u.off), free(w), free(bad), free(used), free(last), free(co);
    return 0;
}

static void row(const char *dims, const char *what, const struct tn_coll_req *req)
{
    struct tn_topo t;
    struct tn_coll_built b;
    struct tn_plan *p = NULL;
    char err[400];
    struct tn_plan_params par = {LANES, 0, 16, 1, BANKS};
    struct probe_log g = {0};
    struct tally fixed, perround;
    int rc = tn_topo_parse(&t, dims);
    if (rc == 0)
        rc = tn_coll_build(req, &t, LANES, 1, &b, err, sizeof err);
    if (rc == 0) {
        rc = tn_plan_lower(&p, b.s, &par, err, sizeof err);
        struct tn_model_probe probe = {.ctx = &g, .on_mem = on_mem};
        if (rc == 0)
            rc = tn_model_probe_links(p, 1, &probe);
        if (rc == 0 && g.oom)
            rc = TN_ENOMEM;
        if (rc == 0)
            rc = analyse(&g, p, 0, &fixed);
        if (rc == 0)
            rc = analyse(&g, p, 1, &perround);
        char gap[24] = "none";
        if (rc == 0 && fixed.min_gap != UINT64_MAX)
            snprintf(gap, sizeof gap, "%llu", (unsigned long long)fixed.min_gap);
        if (rc == 0)
            printf("| %-7s | %-26s | %6s | %9zu | %9llu | %5llu / %-5llu %4llu | %5llu / %-5llu %4llu "
                   "| %4llu / %-4llu |\n",
                   dims, what, gap, g.n, (unsigned long long)fixed.equations,
                   (unsigned long long)fixed.conflicts, (unsigned long long)fixed.shared,
                   (unsigned long long)fixed.nodes_bad, (unsigned long long)perround.conflicts,
                   (unsigned long long)perround.shared, (unsigned long long)perround.nodes_bad,
                   (unsigned long long)perround.rename_bad,
                   (unsigned long long)perround.rename_open);
        tn_plan_free(p);
        tn_coll_built_free(&b);
    }
    if (rc != 0)
        printf("| %-7s | %-26s | failed: %s |\n", dims, what, tn_strerror(rc));
    free(g.a);
}

int main(void)
{
    printf("Rotating flit memory banks (lane x owns bank sigma(x) + t mod %u): can the "
           "tests' schedules meet it?\n", BANKS);
    printf("(store to send: the fewest cycles from a word's store by an eject lane to its "
           "send by an inject lane, as the model times them;\n the device reads the word one "
           "cycle before it sends it, so 1 would read it in the cycle it is written)\n");
    printf("| dims    | schedule                   | store to send | accesses  | equations | "
           "sigma per lane: conflicts / shared, nodes | per lane and round | fixed rotator, "
           "lanes renamed per round: nodes without / undecided |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    static const char *gossips[] = {"dp", "dp-long", "class-ring", "split-ring"};
    static const char *dims[] = {"3x3x3", "4x4x4", "7x7x7"};
    for (unsigned d = 0; d < 3; d++) {
        for (unsigned k = 0; k < 4; k++) {
            char what[64];
            uint32_t L = k == 3 ? 3 : 1;
            snprintf(what, sizeof what, "gossip %s L=%u", gossips[k], L);
            struct tn_coll_req r = {.coll = TN_GOSSIP, .algo = gossips[k], .msg_flits = L};
            row(dims[d], what, &r);
        }
        struct tn_coll_req bc = {.coll = TN_BROADCAST, .msg_flits = 8};
        row(dims[d], "broadcast L=8", &bc);
        struct tn_coll_req sc = {.coll = TN_SCATTER, .msg_flits = 8};
        row(dims[d], "scatter L=8", &sc);
        struct tn_coll_req ga = {.coll = TN_GATHER, .msg_flits = 8};
        row(dims[d], "gather L=8", &ga);
        if (d < 2) {
            struct tn_coll_req a2a = {.coll = TN_ALLTOALL, .msg_flits = 1};
            row(dims[d], "alltoall L=1", &a2a);
        }
    }
    return 0;
}
