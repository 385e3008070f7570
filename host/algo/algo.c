/* SPDX-License-Identifier: MIT */
/* Collective algorithms: gossip (Delmas-Perennes on 7^i cubes, short and
 * long-message variants; dimension-wise ring all-gather for any geometry)
 * and broadcast (perfect code on 7^i cubes; dimension-wise multicast). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algo.h"
#include "sched.h"
#include "tn_error.h"


static const int dvec[TN_NDIRS][3] = {
    {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};

static int colour(const int p[3])
{
    return (((p[0] + 2 * p[1] + 3 * p[2]) % 7) + 7) % 7;
}

/* ---- step-2 dipaths, found by search ----
 * Round 2-a sends x -> x + M0 b, 2-b x -> x + M0^2 b (b in B1). For u1..u3
 * (the images of e1..e3) we look for simple walks of length <= 5 ending at
 * u (mod 7); -u uses the opposite walk. Translated to every code vertex x,
 * arc (x + p, d) of one walk and (x' + p', d) of another coincide iff
 * c(p) = c(p') (x - x' is in the code), so the six walks are arc-disjoint
 * over the whole round iff their (c(position), direction) pairs are all
 * distinct. The verifier proves the result on the built schedules. */

static const int m0[3][3] = {{-2, 0, 1}, {1, 2, 3}, {0, 1, 0}};

struct walkset {
    unsigned n;
    uint8_t dirs[512][5];
    uint8_t len[512];
};

static void walk_rec(struct walkset *w, const int target[3], int pos[3], uint8_t *path,
                     unsigned len, unsigned maxlen, int (*visited)[3], unsigned nvis)
{
    if (len > 0 && (pos[0] - target[0]) % 7 == 0 && (pos[1] - target[1]) % 7 == 0 &&
        (pos[2] - target[2]) % 7 == 0) {
        if (len == maxlen && w->n < 512) {
            memcpy(w->dirs[w->n], path, len);
            w->len[w->n++] = (uint8_t)len;
        }
    }
    if (len == maxlen)
        return;
    for (int d = 0; d < TN_NDIRS; d++) {
        int q[3] = {pos[0] + dvec[d][0], pos[1] + dvec[d][1], pos[2] + dvec[d][2]};
        bool seen = false;
        for (unsigned i = 0; i < nvis && !seen; i++)
            seen = visited[i][0] == q[0] && visited[i][1] == q[1] && visited[i][2] == q[2];
        if (seen)
            continue;
        memcpy(visited[nvis], q, sizeof q);
        path[len] = (uint8_t)d;
        walk_rec(w, target, q, path, len + 1, maxlen, visited, nvis + 1);
    }
}

/* Add the (colour, dir) keys of walk w (negated if neg) to used; false on
 * a clash (used is left partly updated: callers copy). */
static bool walk_keys(const uint8_t *dirs, unsigned len, bool neg, uint8_t used[7 * 6])
{
    int pos[3] = {0, 0, 0};
    for (unsigned i = 0; i < len; i++) {
        int d = neg ? dirs[i] ^ 1 : dirs[i];
        int k = colour(pos) * 6 + d;
        if (used[k])
            return false;
        used[k] = 1;
        for (int j = 0; j < 3; j++)
            pos[j] += dvec[d][j];
    }
    return true;
}

static struct {
    bool done;
    int ok;
    uint8_t dirs[2][6][8];
    unsigned len[2][6];
    int vec[2][6][3];
} dp_cache;

static int dp_search(int k)
{
    int mat[3][3];
    /* M = M0 (k = 0) or M0^2 (k = 1); columns are u1, u2, u3 */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int v = m0[i][j];
            if (k == 1) {
                v = 0;
                for (int l = 0; l < 3; l++)
                    v += m0[i][l] * m0[l][j];
            }
            mat[i][j] = ((v % 7) + 7 + 3) % 7 - 3;
        }
    static struct walkset ws[3];
    for (unsigned maxlen = 1; maxlen <= 5; maxlen++) {
        for (int j = 0; j < 3; j++) {
            int target[3] = {mat[0][j], mat[1][j], mat[2][j]};
            int visited[8][3] = {{0, 0, 0}};
            int pos[3] = {0, 0, 0};
            uint8_t path[5];
            ws[j].n = 0;
            for (unsigned l = 1; l <= maxlen; l++)
                walk_rec(&ws[j], target, pos, path, 0, l, visited, 1);
        }
        for (unsigned a = 0; a < ws[0].n; a++)
            for (unsigned b = 0; b < ws[1].n; b++)
                for (unsigned c = 0; c < ws[2].n; c++) {
                    uint8_t used[42] = {0};
                    unsigned pick[3] = {a, b, c};
                    bool ok = true;
                    for (int j = 0; j < 3 && ok; j++) {
                        const struct walkset *w = &ws[j];
                        ok = walk_keys(w->dirs[pick[j]], w->len[pick[j]], false, used) &&
                             walk_keys(w->dirs[pick[j]], w->len[pick[j]], true, used);
                    }
                    if (!ok)
                        continue;
                    for (int j = 0; j < 3; j++) {
                        const struct walkset *w = &ws[j];
                        for (int s = 0; s < 2; s++) {
                            unsigned idx = 2 * j + s, len = w->len[pick[j]];
                            int v[3] = {0, 0, 0};
                            for (unsigned i = 0; i < len; i++) {
                                int d = w->dirs[pick[j]][i] ^ s;
                                dp_cache.dirs[k][idx][i] = (uint8_t)d;
                                for (int l = 0; l < 3; l++)
                                    v[l] += dvec[d][l];
                            }
                            dp_cache.len[k][idx] = len;
                            memcpy(dp_cache.vec[k][idx], v, sizeof v);
                        }
                    }
                    return 0;
                }
    }
    return TN_ENOTSUP;
}

int tn_dp_paths(int k, uint8_t dirs[6][8], unsigned len[6], int vec[6][3])
{
    if (k < 0 || k > 1)
        return TN_EINVAL;
    if (!dp_cache.done) {
        dp_cache.ok = dp_search(0);
        if (dp_cache.ok == 0)
            dp_cache.ok = dp_search(1);
        dp_cache.done = true;
    }
    if (dp_cache.ok)
        return dp_cache.ok;
    if (dirs)
        memcpy(dirs, dp_cache.dirs[k], sizeof dp_cache.dirs[k]);
    if (len)
        memcpy(len, dp_cache.len[k], sizeof dp_cache.len[k]);
    if (vec)
        memcpy(vec, dp_cache.vec[k], sizeof dp_cache.vec[k]);
    return 0;
}

/* ---- building helpers ---- */

struct bld {
    struct tn_sched *s;
    unsigned M;                /* full size per dimension (7^i) */
    bool lng;                  /* dp gossip: long-message variant */
    struct tn_arc *arcs;
    uint32_t acap;
    uint32_t *ej;
    uint32_t ecap;
};

static uint32_t at(const struct bld *b, const int p[3])
{
    unsigned c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (unsigned)(((p[k] % (int)b->M) + (int)b->M) % (int)b->M);
    return tn_node_id(&b->s->topo, c[0], c[1], c[2]);
}

static int grow(struct bld *b, uint32_t na, uint32_t ne)
{
    if (na > b->acap) {
        struct tn_arc *a = realloc(b->arcs, na * sizeof *a);
        if (!a)
            return TN_ENOMEM;
        b->arcs = a;
        b->acap = na;
    }
    if (ne > b->ecap) {
        uint32_t *e = realloc(b->ej, ne * sizeof *e);
        if (!e)
            return TN_ENOMEM;
        b->ej = e;
        b->ecap = ne;
    }
    return 0;
}

/* Make the circuit just added to round r carry a gather (messages). */
static void gather_last(struct bld *b, uint32_t r, uint32_t phase, uint32_t run, uint32_t skip)
{
    struct tn_round *rd = &b->s->rounds[r];
    struct tn_circuit *c = &rd->circ[rd->ncirc - 1];
    c->mphase = phase;
    c->mrun = run;
    c->mskip = skip;
}

/* Unicast circuit from node p along dirs (each step stride hops). */
static int emit_path(struct bld *b, uint32_t r, const int p[3], const uint8_t *dirs,
                     unsigned len, unsigned stride, uint32_t moff, uint32_t mcnt)
{
    if (grow(b, len * stride, 1))
        return TN_ENOMEM;
    int q[3] = {p[0], p[1], p[2]};
    uint32_t n = 0, node = at(b, q);
    for (unsigned i = 0; i < len; i++)
        for (unsigned h = 0; h < stride; h++) {
            b->arcs[n].node = node;
            b->arcs[n++].dir = dirs[i];
            node = tn_neighbor(&b->s->topo, node, dirs[i]);
        }
    b->ej[0] = node;
    return tn_sched_add_circuit(b->s, r, at(b, p), b->arcs, n, b->ej, 1, moff, mcnt, NULL, 0,
                                0) ? 0 : TN_ENOMEM;
}

/* Multicast from p along each direction d with mask bit d set, hops[d]
 * hops (each step stride arcs), ejecting at every stride-th node. */
static int emit_star(struct bld *b, uint32_t r, uint32_t src, unsigned mask,
                     const unsigned hops[TN_NDIRS], unsigned stride, uint32_t moff,
                     uint32_t mcnt)
{
    uint32_t na = 0, ne = 0;
    for (int d = 0; d < TN_NDIRS; d++)
        if (mask >> d & 1) {
            na += hops[d] * stride;
            ne += hops[d];
        }
    if (na == 0)
        return 0;
    if (grow(b, na, ne))
        return TN_ENOMEM;
    na = ne = 0;
    for (int d = 0; d < TN_NDIRS; d++) {
        if (!(mask >> d & 1))
            continue;
        uint32_t node = src;
        for (unsigned h = 0; h < hops[d] * stride; h++) {
            b->arcs[na].node = node;
            b->arcs[na++].dir = (uint8_t)d;
            node = tn_neighbor(&b->s->topo, node, d);
            if ((h + 1) % stride == 0)
                b->ej[ne++] = node;
        }
    }
    return tn_sched_add_circuit(b->s, r, src, b->arcs, na, b->ej, ne, moff, mcnt, NULL, 0, 0)
               ? 0 : TN_ENOMEM;
}

static bool is_pow7(unsigned m, unsigned *i)
{
    unsigned k = 0;
    while (m > 1 && m % 7 == 0) {
        m /= 7;
        k++;
    }
    if (m != 1 || k == 0)
        return false;
    *i = k;
    return true;
}

static bool cube7(const struct tn_topo *t, unsigned *i)
{
    return t->dim[0] == t->dim[1] && t->dim[1] == t->dim[2] && is_pow7(t->dim[0], i);
}

/* ---- Delmas-Perennes gossip ---- */

/* Long-message variant (paper section 6): the level's final broadcast is
 * split in two. Round 3-a: code node x sends to neighbour y = x + s e_d
 * only the piece of colour c(y) of what it holds; round 3-b: every
 * non-code node multicasts its piece to its other five neighbours and
 * every code node sends its colour-0 piece to all six. A level's data is
 * made of elements (what one node of the level holds after its
 * concentration: s messages) grouped by seven in concentration order, own
 * element first then input ports X+ .. Z-; the element that came in on
 * port a was sent from x - s e_a, of colour c(-e_a). So the colour-c piece
 * is every seventh element from phase q(c) on: the inject gather. */
static uint32_t piece_phase(int c)
{
    if (c == 0)
        return 0;
    for (int a = 0; a < TN_NDIRS; a++) {
        int v[3] = {-dvec[a][0], -dvec[a][1], -dvec[a][2]};
        if (colour(v) == c)
            return 1 + (uint32_t)a;
    }
    return 0;
}

/* One level on the sub-torus {o + s u : u in Z_(7^k)^3}: rounds r0 ..
 * r0 + (4 or 5) k - 1. */
static int dp_level(struct bld *b, unsigned k, unsigned s, const int o[3], uint32_t r0)
{
    unsigned m = 1;
    for (unsigned j = 0; j < k; j++)
        m *= 7;
    const unsigned per = b->lng ? 5 : 4;
    uint32_t ra = r0 + 1 + per * (k - 1);
    uint8_t dirs[2][6][8];
    unsigned len[2][6];
    int rc = tn_dp_paths(0, dirs[0], len[0], NULL);
    if (rc == 0)
        rc = tn_dp_paths(1, dirs[1], len[1], NULL);
    if (rc)
        return rc;
    int u[3];
    for (u[2] = 0; u[2] < (int)m; u[2]++)
        for (u[1] = 0; u[1] < (int)m; u[1]++)
            for (u[0] = 0; u[0] < (int)m; u[0]++) {
                int p[3] = {o[0] + (int)s * u[0], o[1] + (int)s * u[1], o[2] + (int)s * u[2]};
                int cu = colour(u);
                if (cu != 0) {
                    /* concentration: u = x + e_d (colour of e_d = cu) -> x */
                    static const uint8_t toward[7] = {0, TN_XM, TN_YM, TN_ZM, TN_ZP, TN_YP, TN_XP};
                    uint8_t d = toward[cu];
                    if ((rc = emit_path(b, r0, p, &d, 1, s, 0, TN_WHOLE)))
                        return rc;
                    if (b->lng) {
                        /* 3-b: the piece got in 3-a, to the five neighbours
                         * other than the code node (in direction d) */
                        unsigned hops[TN_NDIRS] = {1, 1, 1, 1, 1, 1};
                        if ((rc = emit_star(b, ra + 3, at(b, p), 0x3f & ~(1u << d), hops, s,
                                            ra + 2, TN_SINCE)))
                            return rc;
                    }
                    continue;
                }
                /* What u forwards from 2-a on: all it holds, unless it was
                 * outside the code of a sub-level, where it got the whole
                 * family in that level's last round after holding its own
                 * part (sent from that round on). */
                uint32_t mcnt = TN_WHOLE, since = 0;
                {
                    int v[3] = {u[0], u[1], u[2]};
                    uint32_t base = r0;
                    for (unsigned j = k; j > 1; j--) {
                        for (int l = 0; l < 3; l++)
                            v[l] = (v[l] - (((v[l] % 7) + 7) % 7)) / 7;
                        base += 1;
                        if (colour(v) != 0) {
                            /* from that level's last round (short) or 3-a */
                            mcnt = TN_SINCE;
                            since = base + per * (j - 1) - (b->lng ? 2 : 1);
                            break;
                        }
                    }
                }
                for (int kk = 0; kk < 2; kk++)
                    for (int j = 0; j < 6; j++)
                        if ((rc = emit_path(b, ra + (uint32_t)kk, p, dirs[kk][j], len[kk][j], s,
                                            since, mcnt)))
                            return rc;
                unsigned hops[TN_NDIRS] = {1, 1, 1, 1, 1, 1};
                if (!b->lng) {
                    if ((rc = emit_star(b, ra + 2, at(b, p), 0x3f, hops, s, since, mcnt)))
                        return rc;
                    continue;
                }
                for (int d = 0; d < TN_NDIRS; d++) {
                    /* 3-a: piece c(e_d) to the neighbour in direction d */
                    uint8_t dd = (uint8_t)d;
                    if ((rc = emit_path(b, ra + 2, p, &dd, 1, s, since, mcnt)))
                        return rc;
                    gather_last(b, ra + 2, piece_phase(colour(dvec[d])) * s, s, 6 * s);
                }
                if ((rc = emit_star(b, ra + 3, at(b, p), 0x3f, hops, s, since, mcnt)))
                    return rc;
                gather_last(b, ra + 3, 0, s, 6 * s);  /* the colour-0 piece */
            }
    if (k > 1) {
        int f[3];
        for (f[2] = 0; f[2] < 7; f[2]++)
            for (f[1] = 0; f[1] < 7; f[1]++)
                for (f[0] = 0; f[0] < 7; f[0]++) {
                    if (colour(f) != 0)
                        continue;
                    int o2[3] = {o[0] + (int)s * f[0], o[1] + (int)s * f[1], o[2] + (int)s * f[2]};
                    if ((rc = dp_level(b, k - 1, 7 * s, o2, r0 + 1)))
                        return rc;
                }
    }
    return 0;
}

static int build_dp_gossip(struct tn_sched *s, unsigned i, bool lng)
{
    struct bld b = {.s = s, .M = s->topo.dim[0], .lng = lng};
    int rc = 0;
    for (unsigned r = 0; r < (lng ? 5 : 4) * i && rc == 0; r++)
        if (tn_sched_add_round(s) < 0)
            rc = TN_ENOMEM;
    int o[3] = {0, 0, 0};
    if (rc == 0)
        rc = dp_level(&b, i, 1, o, 0);
    free(b.arcs);
    free(b.ej);
    return rc;
}

/* ---- ring all-gather, dimension by dimension ---- */

static unsigned ring_rounds(unsigned p, unsigned ports)
{
    if (p <= 1)
        return 0;
    return ports == 1 ? p - 1 : p / 2;  /* ceil((p - 1) / 2) = floor(p / 2) */
}

static int build_ring(struct tn_sched *s)
{
    const struct tn_topo *t = &s->topo;
    struct bld b = {.s = s};
    uint32_t unit = 1;
    int rc = 0;
    for (int k = 0; k < 3 && rc == 0; k++) {
        unsigned p = t->dim[k], R = ring_rounds(p, s->ports);
        for (unsigned j = 1; j <= R && rc == 0; j++) {
            int r = tn_sched_add_round(s);
            if (r < 0) {
                rc = TN_ENOMEM;
                break;
            }
            /* memory at the start of round j of this dimension */
            bool both = s->ports != 1;
            uint32_t held = both ? unit * (1 + 2 * (j - 1)) : unit * j;
            bool minus = both && !(p % 2 == 0 && j == R);
            for (uint32_t v = 0; v < t->n && rc == 0; v++) {
                struct tn_arc a = {v, (uint8_t)(2 * k)};
                uint32_t e = tn_neighbor(t, v, 2 * k);
                uint32_t moff = j == 1 ? 0 : held - (both ? 2 : 1) * unit;
                if (!tn_sched_add_circuit(s, (uint32_t)r, v, &a, 1, &e, 1, moff, unit, NULL, 0, 0))
                    rc = TN_ENOMEM;
                if (minus && rc == 0) {
                    a.dir = (uint8_t)(2 * k + 1);
                    e = tn_neighbor(t, v, 2 * k + 1);
                    moff = j == 1 ? 0 : held - unit;
                    if (!tn_sched_add_circuit(s, (uint32_t)r, v, &a, 1, &e, 1, moff, unit, NULL,
                                              0, 0))
                        rc = TN_ENOMEM;
                }
            }
        }
        unit *= p;
    }
    free(b.arcs);
    free(b.ej);
    return rc;
}

/* ---- rotated rings: split ring and class ring ---- */

/* d dimensions of equal size k > 1; d streams, each running the ring
 * all-gather through the dimensions in the rotated order D[p], D[p + 1],
 * ... (mod d), so in every round the d streams use d different
 * dimensions and all 2d ports carry data: floor(k/2) rounds per phase.
 * Split ring: stream p carries part p of every message (phase q moves
 * blocks of k^q parts); for even k the last round of a phase reaches the
 * antipode from both sides, each bringing half the block, so a part is
 * cut into h = 2 pieces (ids: (node * d + part) * h + piece). Class ring:
 * stream p carries the whole messages of the nodes of class p, class(v)
 * = (x + y + z) mod d (phase q moves the class-p messages of a q-dim
 * sub-torus; no parts, no padding). docs/host.md, "split-ring" and
 * "class-ring". */
struct split {
    const struct tn_topo *t;
    bool classes;              /* class ring (else split ring) */
    unsigned d, k, h, R, dim[3];  /* nontrivial dimensions, their size, pieces
                                   * per part, rounds per phase */
    int *off;                  /* per stream: offsets (dx, dy, dz) of the nodes whose
                                * data it holds at the start of a phase, in memory order */
    uint32_t noff, cap;        /* offsets per stream (k^q), room per stream */
    uint32_t *ids;             /* one circuit's message list */
};

static bool split_dims(const struct tn_topo *t, unsigned *d, unsigned dim[3], unsigned *k)
{
    *d = 0;
    *k = 0;
    for (unsigned i = 0; i < 3; i++)
        if (t->dim[i] > 1) {
            if (*k && t->dim[i] != *k)
                return false;
            *k = t->dim[i];
            dim[(*d)++] = i;
        }
    return *d >= 2;
}

/* Message ids per node of the split ring on t: d parts of h pieces. */
static unsigned split_ids(const struct tn_topo *t)
{
    unsigned d, dim[3], k;
    split_dims(t, &d, dim, &k);
    return d * (k % 2 ? 1 : 2);
}

/* The ids of stream p's collection at node v shifted by shift steps along
 * dimension k, in the order it is held (pieces of one node together);
 * returns their number. */
static uint32_t split_list(struct split *sp, unsigned p, uint32_t v, unsigned k, int shift)
{
    unsigned c[3];
    tn_coords(sp->t, v, c);
    const int *o = sp->off + (size_t)p * sp->cap * 3;
    uint32_t n = 0;
    for (uint32_t i = 0; i < sp->noff; i++) {
        unsigned q[3];
        for (unsigned a = 0; a < 3; a++) {
            int m = (int)sp->t->dim[a];
            int x = (int)c[a] + o[3 * i + a] + (a == k ? shift : 0);
            q[a] = (unsigned)(((x % m) + m) % m);
        }
        uint32_t w = tn_node_id(sp->t, q[0], q[1], q[2]);
        if (sp->classes) {
            if ((q[0] + q[1] + q[2]) % sp->d == p)
                sp->ids[n++] = w;
            continue;
        }
        for (unsigned i2 = 0; i2 < sp->h; i2++)
            sp->ids[n++] = (w * sp->d + p) * sp->h + i2;
    }
    return n;
}

/* After a phase along dimension k: the collection grows by the blocks
 * received in round j from -j (the + arc, held first) and +j (the - arc);
 * in the last round of an even ring both halves come from the antipode,
 * together one whole block. */
static void split_grow(struct split *sp, unsigned p, unsigned k)
{
    int *o = sp->off + (size_t)p * sp->cap * 3;
    uint32_t n = sp->noff, at = n;
    for (unsigned j = 1; j <= sp->R; j++) {
        bool antipode = sp->k % 2 == 0 && j == sp->R;
        for (int sign = -1; sign <= (antipode ? -1 : 1); sign += 2)
            for (uint32_t i = 0; i < n; i++, at++) {
                memcpy(&o[3 * at], &o[3 * i], 3 * sizeof *o);
                o[3 * at + k] += sign * (int)j;
            }
    }
}

static int split_round(struct split *sp, struct tn_sched *s, unsigned q, unsigned j)
{
    int r = tn_sched_add_round(s);
    if (r < 0)
        return TN_ENOMEM;
    bool antipode = sp->k % 2 == 0 && j == sp->R;
    for (unsigned p = 0; p < sp->d; p++) {
        unsigned k = sp->dim[(p + q) % sp->d];
        for (uint32_t v = 0; v < sp->t->n; v++)
            for (int sign = 1; sign >= -1; sign -= 2) {
                /* round 1 sends the collection, later rounds forward the
                 * block that arrived from the other side the round before;
                 * to the antipode, + carries the first half (rounded up),
                 * - the rest */
                struct tn_arc a = {v, (uint8_t)(2 * k + (sign < 0))};
                uint32_t e = tn_neighbor(sp->t, v, a.dir);
                uint32_t n = split_list(sp, p, v, k, -sign * (int)(j - 1)), half = (n + 1) / 2;
                const uint32_t *ids = antipode && sign < 0 ? sp->ids + half : sp->ids;
                uint32_t cnt = !antipode ? n : sign > 0 ? half : n - half;
                if (cnt && !tn_sched_add_circuit(s, (uint32_t)r, v, &a, 1, &e, 1, 0, 0, ids,
                                                 cnt, 0))
                    return TN_ENOMEM;
            }
    }
    return 0;
}

static int build_rotated_ring(struct tn_sched *s, bool classes)
{
    struct split sp = {.t = &s->topo, .classes = classes};
    split_dims(sp.t, &sp.d, sp.dim, &sp.k);
    sp.h = sp.k % 2 || classes ? 1 : 2;
    sp.R = ring_rounds(sp.k, 6);
    sp.cap = 1;
    for (unsigned q = 0; q < sp.d; q++)
        sp.cap *= sp.k;
    sp.off = calloc((size_t)sp.d * sp.cap * 3, sizeof *sp.off);
    sp.ids = malloc((size_t)sp.cap * sp.h * sizeof *sp.ids);
    int rc = !sp.off || !sp.ids ? TN_ENOMEM : classes ? 0 : tn_sched_set_parts(s, sp.d * sp.h);
    sp.noff = 1;
    for (unsigned q = 0; q < sp.d && rc == 0; q++) {
        for (unsigned j = 1; j <= sp.R && rc == 0; j++)
            rc = split_round(&sp, s, q, j);
        for (unsigned p = 0; p < sp.d && q + 1 < sp.d; p++)
            split_grow(&sp, p, sp.dim[(p + q) % sp.d]);
        sp.noff *= sp.k;
    }
    free(sp.off);
    free(sp.ids);
    return rc;
}

/* ---- broadcast ---- */

/* Dimension-wise: one round per dimension, every informed node multicasts
 * along its ring (floor(p/2) hops in +, the rest in -). */
static int build_bcast_dim(struct tn_sched *s)
{
    const struct tn_topo *t = &s->topo;
    struct bld b = {.s = s};
    unsigned rc_[3];
    tn_coords(t, s->root, rc_);
    int rc = 0;
    bool informed_dim[3] = {false, false, false};
    for (int k = 0; k < 3 && rc == 0; k++) {
        unsigned p = t->dim[k];
        if (p == 1)
            continue;
        int r = tn_sched_add_round(s);
        if (r < 0) {
            rc = TN_ENOMEM;
            break;
        }
        unsigned hops[TN_NDIRS] = {0};
        hops[2 * k] = p / 2;
        hops[2 * k + 1] = (p - 1) - p / 2;
        unsigned mask = (1u << (2 * k)) | (hops[2 * k + 1] ? 1u << (2 * k + 1) : 0);
        for (uint32_t v = 0; v < t->n && rc == 0; v++) {
            unsigned c[3];
            tn_coords(t, v, c);
            bool informed = true;
            for (int j = 0; j < 3; j++)
                if (!informed_dim[j] && c[j] != rc_[j])
                    informed = false;
            if (informed)
                rc = emit_star(&b, (uint32_t)r, v, mask, hops, 1, 0, TN_WHOLE);
        }
        informed_dim[k] = true;
    }
    free(b.arcs);
    free(b.ej);
    return rc;
}

/* One round: a multicast down the BFS spanning tree of the root (arcs in
 * BFS order), every node ejects and forwards. */
static int build_bcast_tree(struct tn_sched *s)
{
    const struct tn_topo *t = &s->topo;
    uint32_t N = t->n;
    if (N == 1)
        return 0;
    int rc = TN_ENOMEM;
    uint32_t *parent = malloc(N * sizeof *parent), *depth = malloc(N * sizeof *depth);
    uint32_t *order = malloc(N * sizeof *order), *cnt = calloc(N + 1, sizeof *cnt);
    uint8_t *pdir = malloc(N);
    struct tn_arc *arcs = malloc(N * sizeof *arcs);
    uint32_t *ej = malloc(N * sizeof *ej);
    if (!parent || !depth || !order || !cnt || !pdir || !arcs || !ej)
        goto out_free;
    if ((rc = tn_bfs_tree(t, s->root, parent, pdir, depth)))
        goto out_free;
    for (uint32_t v = 0; v < N; v++)
        cnt[depth[v] + 1]++;
    for (uint32_t d = 1; d <= N; d++)
        cnt[d] += cnt[d - 1];
    for (uint32_t v = 0; v < N; v++)
        order[cnt[depth[v]]++] = v;
    uint32_t n = 0;
    for (uint32_t k = 0; k < N; k++) {
        uint32_t v = order[k];
        if (v == s->root)
            continue;
        arcs[n].node = parent[v];
        arcs[n].dir = pdir[v];
        ej[n++] = v;
    }
    rc = TN_ENOMEM;
    if (tn_sched_add_round(s) >= 0 &&
        tn_sched_add_circuit(s, 0, s->root, arcs, n, ej, n, 0, TN_WHOLE, NULL, 0, 0))
        rc = 0;
out_free:
    free(parent);
    free(depth);
    free(order);
    free(cnt);
    free(pdir);
    free(arcs);
    free(ej);
    return rc;
}

/* Perfect code on 7^i: recursively inform the root's family (stride 7),
 * then from each informed w: w -> w + M0^2 B1, -> + M0 B1, -> + B1. */
static int dp_bcast_level(struct bld *b, unsigned k, unsigned s, const int o[3], uint32_t r0)
{
    int rc;
    if (k > 1 && (rc = dp_bcast_level(b, k - 1, 7 * s, o, r0)))
        return rc;
    uint32_t ra = r0 + 3 * (k - 1);
    uint8_t dirs[2][6][8];
    unsigned len[2][6];
    int vec[2][6][3];
    if ((rc = tn_dp_paths(0, dirs[0], len[0], vec[0])) ||
        (rc = tn_dp_paths(1, dirs[1], len[1], vec[1])))
        return rc;
    /* informed nodes of this level: o + 7 s v (the family of the root) */
    unsigned m = 1;
    for (unsigned j = 1; j < k; j++)
        m *= 7;
    int v[3];
    for (v[2] = 0; v[2] < (int)m; v[2]++)
        for (v[1] = 0; v[1] < (int)m; v[1]++)
            for (v[0] = 0; v[0] < (int)m; v[0]++) {
                int w[3] = {o[0] + 7 * (int)s * v[0], o[1] + 7 * (int)s * v[1],
                            o[2] + 7 * (int)s * v[2]};
                for (int j = 0; j < 6; j++)
                    if ((rc = emit_path(b, ra, w, dirs[1][j], len[1][j], s, 0, TN_WHOLE)))
                        return rc;
                for (int a = -1; a < 6; a++) {
                    int x[3] = {w[0], w[1], w[2]};
                    if (a >= 0)
                        for (int l = 0; l < 3; l++)
                            x[l] += (int)s * vec[1][a][l];
                    for (int j = 0; j < 6; j++)
                        if ((rc = emit_path(b, ra + 1, x, dirs[0][j], len[0][j], s, 0, TN_WHOLE)))
                            return rc;
                }
                for (int a = -1; a < 6; a++)
                    for (int c = -1; c < 6; c++) {
                        int x[3] = {w[0], w[1], w[2]};
                        for (int l = 0; l < 3; l++) {
                            if (a >= 0)
                                x[l] += (int)s * vec[1][a][l];
                            if (c >= 0)
                                x[l] += (int)s * vec[0][c][l];
                        }
                        unsigned hops[TN_NDIRS] = {1, 1, 1, 1, 1, 1};
                        if ((rc = emit_star(b, ra + 2, at(b, x), 0x3f, hops, s, 0, TN_WHOLE)))
                            return rc;
                    }
            }
    return 0;
}

static int build_dp_bcast(struct tn_sched *s, unsigned i)
{
    struct bld b = {.s = s, .M = s->topo.dim[0]};
    int rc = 0;
    for (unsigned r = 0; r < 3 * i && rc == 0; r++)
        if (tn_sched_add_round(s) < 0)
            rc = TN_ENOMEM;
    unsigned c[3];
    tn_coords(&s->topo, s->root, c);
    int o[3] = {(int)c[0], (int)c[1], (int)c[2]};
    if (rc == 0)
        rc = dp_bcast_level(&b, i, 1, o, 0);
    free(b.arcs);
    free(b.ej);
    return rc;
}

/* ---- table, closed forms, selection ---- */

static const char *const gossip_names[] = {"dp", "dp-long", "ring", "split-ring", "class-ring",
                                            NULL};
static const char *const bcast_names[] = {"dp", "dim", "tree", NULL};
static const char *const a2a_names[] = {"liquid", "round-robin", NULL};
static const char *const gather_names[] = {"certificates", "shoulder-tap", NULL};
static const char *const no_names[] = {NULL};

const char *const *tn_algo_names(enum tn_coll coll)
{
    return coll == TN_GOSSIP ? gossip_names : coll == TN_BROADCAST ? bcast_names
         : coll == TN_ALLTOALL ? a2a_names : coll == TN_GATHER ? gather_names : no_names;
}

bool tn_algo_applies(enum tn_coll coll, const char *name, const struct tn_topo *t,
                     unsigned ports)
{
    unsigned i;
    if (strcmp(name, "dp") == 0 || (coll == TN_GOSSIP && strcmp(name, "dp-long") == 0))
        return ports == 6 && cube7(t, &i);
    if (coll == TN_GOSSIP && (strcmp(name, "split-ring") == 0 || strcmp(name, "class-ring") == 0)) {
        unsigned d, dim[3], k;
        return ports == 6 && split_dims(t, &d, dim, &k);
    }
    if (coll == TN_GOSSIP)
        return strcmp(name, "ring") == 0;
    return strcmp(name, "dim") == 0 || strcmp(name, "tree") == 0;
}

/* Closed-form cost (the theory each built schedule is tested against). */
/* Delmas-Perennes on 7^i (rounds, delta, tau in messages). */
static void cost_dp(enum tn_coll coll, const char *name, const struct tn_topo *t,
                    struct tn_cost *c)
{
    unsigned i;
    cube7(t, &i);
    uint64_t d = 0, tau = 0, n = 1;
    bool lng = strcmp(name, "dp-long") == 0;
    for (unsigned k = 1; k <= i; k++) {
        n *= 343;
        if (coll == TN_BROADCAST) {
            d = 7 * d + 11;
        } else if (lng) {
            /* the final broadcast split: 3-a and 3-b carry n/7 each */
            d = 7 * d + 13;
            tau = 1 + 7 * tau + n / 49 + n / 7 + 2 * (n / 7);
        } else {
            d = 7 * d + 12;
            tau = 1 + 7 * tau + n / 49 + n / 7 + n;
        }
    }
    c->rounds = (coll == TN_BROADCAST ? 3 : lng ? 5 : 4) * i;
    c->dsum = d;
    c->tsum = coll == TN_BROADCAST ? c->rounds : tau;
}

/* The rotated rings (tau in flits of an L-flit message). Class ring:
 * phase q moves at most M_q messages a stream, the most nodes of one class
 * in a q-dim sub-torus (class = coordinate sum mod d, over every residue);
 * even rings halve the last round's block. Split ring: d phases of R
 * rounds, each round one hop and a block of k^q parts, a part h pieces of
 * P = ceil(L / (d h)) flits (h = 1, or 2 on even rings: the message is
 * padded to d h P flits). */
static void cost_rotated(bool classes, const struct tn_topo *t, uint64_t L, struct tn_cost *c)
{
    unsigned d, dim[3], k, ids = split_ids(t);
    split_dims(t, &d, dim, &k);
    uint64_t R = ring_rounds(k, 6), cnt[3] = {1, 0, 0}, unit = 1;
    uint64_t P = (L + ids - 1) / ids, h = ids / d;
    for (unsigned q = 0; q < d; q++, unit *= k) {
        if (!classes) {
            c->tsum += (k % 2 ? R : R - 1) * unit * h * P + (k % 2 ? 0 : unit * P);
            continue;
        }
        uint64_t M = 0, next[3] = {0, 0, 0};
        for (unsigned r = 0; r < d; r++)
            M = cnt[r] > M ? cnt[r] : M;
        c->tsum += (k % 2 ? R * M : (R - 1) * M + (M + 1) / 2) * L;
        for (unsigned r = 0; r < d; r++)  /* one more dimension: a in [0, k) */
            for (unsigned a = 0; a < k; a++)
                next[(r + a) % d] += cnt[r];
        memcpy(cnt, next, sizeof cnt);
    }
    c->rounds = (uint32_t)(d * R);
    c->dsum = d * R;
}

/* Dimension by dimension: the ring gossip (tau in messages) or the dim
 * broadcast. */
static void cost_dims(enum tn_coll coll, const struct tn_topo *t, unsigned ports,
                      struct tn_cost *c)
{
    uint64_t unit = 1;
    for (int k = 0; k < 3; k++) {
        unsigned p = t->dim[k];
        if (p == 1)
            continue;
        unsigned R = coll == TN_BROADCAST ? 1 : ring_rounds(p, ports);
        c->rounds += R;
        c->dsum += coll == TN_BROADCAST ? p / 2 : R;
        c->tsum += coll == TN_BROADCAST ? 1 : R * unit;
        unit *= p;
    }
}

int tn_algo_cost(enum tn_coll coll, const char *name, const struct tn_topo *t,
                 const struct tn_algo_opts *o, struct tn_cost *c)
{
    memset(c, 0, sizeof *c);
    if (!tn_algo_applies(coll, name, t, o->ports))
        return TN_ENOTSUP;
    uint64_t L = o->msg_flits;
    if (strcmp(name, "tree") == 0) {
        c->rounds = t->n > 1;
        c->dsum = t->n > 1 ? tn_diameter(t) : 0;
        c->tsum = t->n > 1 ? L : 0;
    } else if (strcmp(name, "class-ring") == 0 || strcmp(name, "split-ring") == 0) {
        cost_rotated(strcmp(name, "class-ring") == 0, t, L, c);
    } else {
        if (strncmp(name, "dp", 2) == 0)
            cost_dp(coll, name, t, c);
        else
            cost_dims(coll, t, o->ports, c);
        c->tsum *= L;
    }
    c->cycles = (uint64_t)c->rounds * o->alpha + c->dsum + c->tsum;
    return 0;
}

/* The algorithm of coll that costs the fewest cycles on t with o (its
 * cost in *c), or NULL when none applies. */
static const char *cheapest_algo(enum tn_coll coll, const struct tn_topo *t,
                                 const struct tn_algo_opts *o, struct tn_cost *c)
{
    const char *name = NULL;
    for (const char *const *n = tn_algo_names(coll); *n; n++) {
        struct tn_cost x;
        if (tn_algo_cost(coll, *n, t, o, &x) == 0 && (!name || x.cycles < c->cycles)) {
            *c = x;
            name = *n;
        }
    }
    return name;
}

unsigned tn_algo_crossovers(enum tn_coll coll, const struct tn_topo *t,
                            const struct tn_algo_opts *o, uint32_t lmax, uint32_t *from,
                            const char **name, unsigned max)
{
    struct tn_algo_opts x = *o;
    unsigned n = 0;
    for (x.msg_flits = 1; x.msg_flits <= lmax; x.msg_flits++) {
        struct tn_cost c;
        const char *best = cheapest_algo(coll, t, &x, &c);
        if (!best)
            return 0;
        if (n && strcmp(name[n - 1], best) == 0)
            continue;
        if (n == max)
            break;
        from[n] = x.msg_flits;
        name[n++] = best;
    }
    return n;
}

uint64_t tn_build_bytes(enum tn_coll coll, const struct tn_topo *t, const struct tn_algo_opts *o)
{
    struct tn_cost c;
    if (coll == TN_ALLTOALL)
        return (uint64_t)t->n * t->n * 450;
    bool ok = o->algo && strcmp(o->algo, "auto") != 0
                  ? tn_algo_cost(coll, o->algo, t, o, &c) == 0
                  : cheapest_algo(coll, t, o, &c) != NULL;
    return ok ? (uint64_t)t->n * (c.rounds + 1) * 700 : 0;
}

uint64_t tn_build_bytes_max(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 4 * 3 : UINT64_MAX;
}

int tn_build(struct tn_sched **out, enum tn_coll coll, const struct tn_topo *t,
             const struct tn_algo_opts *o)
{
    const char *name = o->algo;
    if (coll == TN_ALLTOALL || coll == TN_P2P || coll == TN_PERM)
        return TN_ENOTSUP; /* tn_a2a_build() (a2a.h), tn_p2p_build() (p2p.h), perm.h */
    if (!name || strcmp(name, "auto") == 0) {
        struct tn_cost c;
        name = cheapest_algo(coll, t, o, &c);
        if (!name)
            return TN_ENOTSUP;
    } else {
        bool known = false;
        for (const char *const *n = tn_algo_names(coll); *n; n++)
            known |= strcmp(*n, name) == 0;
        if (!known)
            return TN_EINVAL;
        if (!tn_algo_applies(coll, name, t, o->ports))
            return TN_ENOTSUP;
    }
    /* the split ring sends d h pieces of ceil(L / (d h)) flits (h = 2 on
     * even rings, else 1) */
    bool split = coll == TN_GOSSIP && strcmp(name, "split-ring") == 0;
    unsigned d = split ? split_ids(t) : 1;
    struct tn_sched *s;
    int rc = tn_sched_new(&s, t, coll, name, (o->msg_flits + d - 1) / d, o->ports, o->alpha,
                          coll == TN_BROADCAST ? o->root : 0);
    if (rc)
        return rc;
    unsigned i = 0;
    if (coll == TN_GOSSIP && strncmp(name, "dp", 2) == 0) {
        cube7(t, &i);
        rc = build_dp_gossip(s, i, strcmp(name, "dp-long") == 0);
    } else if (split) {
        s->pad = s->msg_flits * d - o->msg_flits;
        rc = build_rotated_ring(s, false);
    } else if (coll == TN_GOSSIP && strcmp(name, "class-ring") == 0) {
        rc = build_rotated_ring(s, true);
    } else if (coll == TN_GOSSIP) {
        rc = build_ring(s);
    } else if (strcmp(name, "dp") == 0) {
        cube7(t, &i);
        rc = build_dp_bcast(s, i);
    } else if (strcmp(name, "tree") == 0) {
        rc = build_bcast_tree(s);
    } else {
        rc = build_bcast_dim(s);
    }
    if (rc == 0)
        rc = tn_sched_layout(s);
    if (rc) {
        tn_sched_free(s);
        return rc;
    }
    *out = s;
    return 0;
}
