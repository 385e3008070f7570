/* SPDX-License-Identifier: MIT */
/* Traffic model, torus all-to-all, file format and round-robin (see
 * traffic.h, docs/traffic-format.md). */
#include "traffic.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

void tn_traffic_init(struct tn_traffic *t, int nlinks)
{
    memset(t, 0, sizeof(*t));
    t->nlinks = nlinks;
}

void tn_traffic_free(struct tn_traffic *t)
{
    if (t->lname)
        for (int l = 0; l < t->nlinks; l++)
            free(t->lname[l]);
    free(t->lname);
    for (int v = 0; t->nname && v < t->nnodes; v++)
        free(t->nname[v]);
    free(t->nname);
    free(t->lfrom);
    free(t->lto);
    free(t->off);
    free(t->link);
    free(t->snd);
    free(t->rcv);
    memset(t, 0, sizeof(*t));
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int tn_traffic_add(struct tn_traffic *t, const int *links, int k, int snd,
                   int rcv)
{
    if (k < 1)
        return TN_EINVAL;
    for (int i = 0; i < k; i++)
        if (links[i] < 0 || links[i] >= t->nlinks)
            return TN_EINVAL;
    if (t->nx + 1 >= t->capx) {
        int cap = t->capx ? 2 * t->capx : 64;
        int *off = realloc(t->off, sizeof(int) * (cap + 1));
        if (!off)
            return TN_ENOMEM;
        t->off = off;
        int *s = realloc(t->snd, sizeof(int) * cap);
        if (!s)
            return TN_ENOMEM;
        t->snd = s;
        int *r = realloc(t->rcv, sizeof(int) * cap);
        if (!r)
            return TN_ENOMEM;
        t->rcv = r;
        t->capx = cap;
        if (t->nx == 0)
            t->off[0] = 0;
    }
    int base = t->off[t->nx];
    if (base + k > t->capl) {
        int cap = t->capl ? 2 * t->capl : 256;
        while (cap < base + k)
            cap *= 2;
        int *l = realloc(t->link, sizeof(int) * cap);
        if (!l)
            return TN_ENOMEM;
        t->link = l;
        t->capl = cap;
    }
    memcpy(&t->link[base], links, sizeof(int) * k);
    qsort(&t->link[base], k, sizeof(int), cmp_int);
    int m = 1;
    for (int i = 1; i < k; i++)
        if (t->link[base + i] != t->link[base + m - 1])
            t->link[base + m++] = t->link[base + i];
    t->snd[t->nx] = snd;
    t->rcv[t->nx] = rcv;
    if (snd >= t->nsnd)
        t->nsnd = snd + 1;
    if (rcv >= t->nrcv)
        t->nrcv = rcv + 1;
    t->nx++;
    t->off[t->nx] = base + m;
    return 0;
}

int tn_traffic_load(const struct tn_traffic *t, const unsigned char *alive,
                    int *load)
{
    int lam = 0;
    memset(load, 0, sizeof(int) * t->nlinks);
    for (int i = 0; i < t->nx; i++)
        if (!alive || alive[i])
            for (int j = t->off[i]; j < t->off[i + 1]; j++)
                if (++load[t->link[j]] > lam)
                    lam = load[t->link[j]];
    return lam;
}

int tn_traffic_check(const struct tn_traffic *t, const int *step_of,
                     int nsteps, int why)
{
    int rc = 0;
    int *count = calloc((size_t)(nsteps > 0 ? nsteps : 1), sizeof(int));
    int *stamp = malloc(sizeof(int) * (t->nlinks ? t->nlinks : 1));
    int *order = malloc(sizeof(int) * (t->nx ? t->nx : 1));
    int *start = calloc((size_t)nsteps + 1, sizeof(int));
    if (!count || !stamp || !order || !start) {
        rc = TN_ENOMEM;
        goto out_free;
    }
    for (int i = 0; i < t->nx; i++) {
        if (step_of[i] < 0 || step_of[i] >= nsteps) {
            if (why)
                fprintf(stderr, "schedule: transfer %d has no valid step\n", i);
            rc = TN_EVERIFY;
            goto out_free;
        }
        count[step_of[i]]++;
    }
    for (int s = 0; s < nsteps; s++) {
        if (!count[s]) {
            if (why)
                fprintf(stderr, "schedule: step %d is empty\n", s);
            rc = TN_EVERIFY;
            goto out_free;
        }
        start[s + 1] = start[s] + count[s];
    }
    memset(count, 0, sizeof(int) * nsteps);
    for (int i = 0; i < t->nx; i++)
        order[start[step_of[i]] + count[step_of[i]]++] = i;
    for (int l = 0; l < t->nlinks; l++)
        stamp[l] = -1;
    for (int s = 0; s < nsteps; s++)
        for (int k = start[s]; k < start[s + 1]; k++) {
            int i = order[k];
            for (int j = t->off[i]; j < t->off[i + 1]; j++) {
                int l = t->link[j];
                if (stamp[l] == s) {
                    if (why)
                        fprintf(stderr, "schedule: step %d uses link %d "
                                        "twice\n", s, l);
                    rc = TN_EVERIFY;
                    goto out_free;
                }
                stamp[l] = s;
            }
        }
out_free:
    free(count);
    free(stamp);
    free(order);
    free(start);
    return rc;
}

int tn_traffic_torus_a2a(struct tn_traffic *t, const struct tn_topo *c,
                         enum tn_port_model pm, enum tn_tie tie)
{
    int n = (int)c->n, rc = 0;
    tn_traffic_init(t, pm == TN_PORT_SINGLE ? 8 * n : 6 * n);
    unsigned diam = tn_diameter(c);
    struct tn_arc *arcs = malloc(sizeof *arcs * (diam + 1));
    int *path = malloc(sizeof(int) * (diam + 2));
    if (!arcs || !path)
        rc = TN_ENOMEM;
    /* grouped by displacement (all s -> s + v together, v in id order
     * of the displaced node of 0), so that greedy first-fit packs whole
     * translation families */
    for (uint32_t v = 1; v < c->n && !rc; v++) {
        unsigned cv[3];
        tn_coords(c, v, cv);
        for (uint32_t s = 0; s < c->n && !rc; s++) {
            unsigned cs[3];
            tn_coords(c, s, cs);
            uint32_t d = tn_node_id(c, (cs[0] + cv[0]) % c->dim[0], (cs[1] + cv[1]) % c->dim[1],
                                    (cs[2] + cv[2]) % c->dim[2]);
            int k = (int)tn_dor_path_tie(c, s, d, tie, arcs, diam);
            for (int h = 0; h < k; h++)
                path[h] = (int)tn_arc_id(arcs[h].node, arcs[h].dir);
            if (pm == TN_PORT_SINGLE) {
                path[k++] = 6 * n + (int)s;
                path[k++] = 7 * n + (int)d;
            }
            rc = tn_traffic_add(t, path, k, (int)s, (int)d);
        }
    }
    if (rc)
        tn_traffic_free(t);
    free(arcs);
    free(path);
    return rc;
}

/* ---- product schedule ------------------------------------------------ */

struct rsq {
    int k;
    enum tn_tie tie;
    int *perms, np;  /* arc-disjoint derangements, k entries each */
    int pick[8];
    int used[8][8];  /* used[i][offset] */
};

static void rsq_perms(struct rsq *q, int i, int *p, int *taken, int *plus,
                      int *minus)
{
    int k = q->k;
    if (i == k) {
        memcpy(&q->perms[q->np * k], p, sizeof(int) * k);
        q->np++;
        return;
    }
    for (int j = 0; j < k; j++) {
        if (j == i || taken[j])
            continue;
        int m = ((j - i) % k + k) % k;
        int up = tn_ring_plus((unsigned)k, (unsigned)i, (unsigned)m, q->tie);
        int len = up ? m : k - m, *arcs = up ? plus : minus, clash = 0;
        for (int h = 0; h < len && !clash; h++)
            clash = arcs[((up ? i + h : i - h) % k + k) % k];
        if (clash)
            continue;
        for (int h = 0; h < len; h++)
            arcs[((up ? i + h : i - h) % k + k) % k] = 1;
        taken[j] = 1;
        p[i] = j;
        rsq_perms(q, i + 1, p, taken, plus, minus);
        taken[j] = 0;
        for (int h = 0; h < len; h++)
            arcs[((up ? i + h : i - h) % k + k) % k] = 0;
    }
}

static int rsq_pick(struct rsq *q, int depth, int from)
{
    int k = q->k;
    if (depth == k - 1)
        return 1;
    for (int j = from; j < q->np; j++) {
        const int *p = &q->perms[j * k];
        int okk = 1;
        for (int i = 0; i < k && okk; i++)
            okk = !q->used[i][((p[i] - i) % k + k) % k];
        if (!okk)
            continue;
        for (int i = 0; i < k; i++)
            q->used[i][((p[i] - i) % k + k) % k] = 1;
        q->pick[depth] = j;
        if (rsq_pick(q, depth + 1, j + 1))
            return 1;
        for (int i = 0; i < k; i++)
            q->used[i][((p[i] - i) % k + k) % k] = 0;
    }
    return 0;
}

/* idx[i * k + j] = a with sigma_a(i) = j. Returns 0 or TN_ENOTSUP. */
static int ring_square(int k, enum tn_tie tie, int *idx)
{
    if (k == 1) {
        idx[0] = 0;
        return 0;
    }
    if (k > 7)
        return TN_ENOTSUP;
    struct rsq q;
    memset(&q, 0, sizeof(q));
    q.k = k;
    q.tie = tie;
    q.perms = malloc(sizeof(int) * k * 5040);
    if (!q.perms)
        return TN_ENOMEM;
    int p[8], taken[8] = {0}, plus[8] = {0}, minus[8] = {0};
    rsq_perms(&q, 0, p, taken, plus, minus);
    int rc = rsq_pick(&q, 0, 0) ? 0 : TN_ENOTSUP;
    if (!rc)
        for (int i = 0; i < k; i++) {
            idx[i * k + i] = 0;
            for (int a = 1; a < k; a++)
                idx[i * k + q.perms[q.pick[a - 1] * k + i]] = a;
        }
    free(q.perms);
    return rc;
}

int tn_traffic_torus_product(const struct tn_traffic *t, const struct tn_topo *c,
                             enum tn_tie tie, int *step_of)
{
    int idx[3][64], n = (int)c->n, dim[3] = {(int)c->dim[0], (int)c->dim[1], (int)c->dim[2]};
    for (int d = 0; d < 3; d++) {
        int rc = ring_square(dim[d], tie, idx[d]);
        if (rc)
            return rc;
    }
    for (int x = 0; x < t->nx; x++) {
        unsigned cs[3], cd[3];
        int a[3];
        if (t->snd[x] < 0 || t->snd[x] >= n || t->rcv[x] < 0 ||
            t->rcv[x] >= n || t->snd[x] == t->rcv[x])
            return TN_EINVAL;
        tn_coords(c, (uint32_t)t->snd[x], cs);
        tn_coords(c, (uint32_t)t->rcv[x], cd);
        for (int d = 0; d < 3; d++)
            a[d] = idx[d][(int)cs[d] * dim[d] + (int)cd[d]];
        step_of[x] = a[0] + dim[0] * (a[1] + dim[1] * a[2]) - 1;
    }
    return n - 1;
}

/* ---- quotient by translations (a, b, a+b) ----------------------------- */

static int coset(const struct tn_topo *c, uint32_t v)
{
    unsigned x[3];
    int k = (int)c->dim[0];
    tn_coords(c, v, x);
    return (((int)x[2] - (int)x[0] - (int)x[1]) % k + 2 * k) % k;
}

int tn_traffic_torus_quotient(struct tn_traffic *q, const struct tn_topo *c,
                              enum tn_port_model pm, enum tn_tie tie)
{
    unsigned k = c->dim[0];
    if (c->dim[1] != k || c->dim[2] != k || k < 2 ||
        (k % 2 == 0 && tie != TN_TIE_PLUS))
        return TN_ENOTSUP;
    int K = (int)k, rc = 0;
    tn_traffic_init(q, pm == TN_PORT_SINGLE ? 8 * K : 6 * K);
    struct tn_arc *arcs = malloc(sizeof *arcs * (3 * k + 1));
    int *path = malloc(sizeof(int) * (3 * k + 4));
    if (!arcs || !path)
        rc = TN_ENOMEM;
    for (unsigned cz = 0; cz < k && !rc; cz++) {
        uint32_t s = tn_node_id(c, 0, 0, cz);
        for (uint32_t v = 1; v < c->n && !rc; v++) {
            unsigned cv[3];
            tn_coords(c, v, cv);
            uint32_t d = tn_node_id(c, cv[0], cv[1], (cz + cv[2]) % k);
            int m = (int)tn_dor_path_tie(c, s, d, tie, arcs, 3 * k);
            for (int j = 0; j < m; j++)
                path[j] = arcs[j].dir * K + coset(c, arcs[j].node);
            if (pm == TN_PORT_SINGLE) {
                path[m++] = 6 * K + coset(c, s);
                path[m++] = 7 * K + coset(c, d);
            }
            rc = tn_traffic_add(q, path, m, (int)s, (int)d);
        }
    }
    if (rc)
        tn_traffic_free(q);
    free(arcs);
    free(path);
    return rc;
}

int tn_traffic_torus_lift(const struct tn_traffic *t, const struct tn_topo *c,
                          const int *qstep, int *step_of)
{
    unsigned k = c->dim[0];
    int n = (int)c->n;
    for (int x = 0; x < t->nx; x++) {
        unsigned cs[3], cd[3];
        if (t->snd[x] < 0 || t->rcv[x] < 0 || t->snd[x] >= n ||
            t->rcv[x] >= n || t->snd[x] == t->rcv[x])
            return TN_EINVAL;
        tn_coords(c, (uint32_t)t->snd[x], cs);
        tn_coords(c, (uint32_t)t->rcv[x], cd);
        uint32_t v = tn_node_id(c, (cd[0] + k - cs[0]) % k, (cd[1] + k - cs[1]) % k,
                                (cd[2] + k - cs[2]) % k);
        step_of[x] = qstep[coset(c, (uint32_t)t->snd[x]) * (n - 1) + (int)v - 1];
    }
    return 0;
}

/* ---- round-robin ----------------------------------------------------- */

/* First-fit of order[0..m) into sub-steps base, base+1, ...; 'use' holds
 * one byte per (sub-step, link), grown on demand. Returns the number of
 * sub-steps used or TN_ENOMEM. */
static int first_fit(const struct tn_traffic *t, const int *order, int m,
                     int base, int *step_of, unsigned char **use, int *cap)
{
    int nsub = 0;
    for (int a = 0; a < m; a++) {
        int i = order[a], s = 0;
        for (;; s++) {
            if (s == nsub) {
                if (nsub == *cap) {
                    int nc = *cap ? 2 * *cap : 4;
                    unsigned char *u = realloc(*use, (size_t)nc * t->nlinks);
                    if (!u)
                        return TN_ENOMEM;
                    *use = u;
                    *cap = nc;
                }
                memset(*use + (size_t)s * t->nlinks, 0, t->nlinks);
                nsub++;
            }
            unsigned char *row = *use + (size_t)s * t->nlinks;
            int free_ = 1;
            for (int j = t->off[i]; j < t->off[i + 1] && free_; j++)
                free_ = !row[t->link[j]];
            if (free_) {
                for (int j = t->off[i]; j < t->off[i + 1]; j++)
                    row[t->link[j]] = 1;
                step_of[i] = base + s;
                break;
            }
        }
    }
    return nsub;
}

int tn_roundrobin(const struct tn_traffic *t, int *step_of)
{
    int ns = t->nsnd, nr = t->nrcv, rc = 0, steps = 0, cap = 0;
    unsigned char *use = NULL;
    size_t np = (size_t)ns * nr;
    int *pair = malloc(sizeof(int) * (np ? np : 1));
    int *order = malloc(sizeof(int) * (t->nx ? t->nx : 1));
    unsigned char *placed = calloc((size_t)(t->nx ? t->nx : 1), 1);
    if (!pair || !order || !placed) {
        rc = TN_ENOMEM;
        goto out_free;
    }
    for (size_t i = 0; i < np; i++)
        pair[i] = -1;
    for (int i = 0; i < t->nx; i++)
        if (t->snd[i] >= 0 && t->rcv[i] >= 0 &&
            pair[(size_t)t->snd[i] * nr + t->rcv[i]] < 0)
            pair[(size_t)t->snd[i] * nr + t->rcv[i]] = i;
    /* step k: sender s to receiver (s + k) mod nr; then the leftovers */
    for (int k = 0; k <= nr; k++) {
        int m = 0;
        if (k < nr) {
            for (int s = 0; s < ns; s++) {
                int i = pair[(size_t)s * nr + (s + k) % nr];
                if (i >= 0) {
                    order[m++] = i;
                    placed[i] = 1;
                }
            }
        } else {
            for (int i = 0; i < t->nx; i++)
                if (!placed[i])
                    order[m++] = i;
        }
        if (!m)
            continue;
        int sub = first_fit(t, order, m, steps, step_of, &use, &cap);
        if (sub < 0) {
            rc = sub;
            goto out_free;
        }
        steps += sub;
    }
    rc = steps;
out_free:
    free(pair);
    free(order);
    free(placed);
    free(use);
    return rc;
}

/* ---- file format (docs/traffic-format.md) ---------------------------- */

struct names {
    int n, cap;
    char **s;
};

static int names_find(const struct names *nm, const char *s)
{
    for (int i = 0; i < nm->n; i++)
        if (!strcmp(nm->s[i], s))
            return i;
    return -1;
}

static int names_add(struct names *nm, const char *s)
{
    int i = names_find(nm, s);
    if (i >= 0)
        return i;
    if (nm->n == nm->cap) {
        int cap = nm->cap ? 2 * nm->cap : 16;
        char **p = realloc(nm->s, sizeof(char *) * cap);
        if (!p)
            return TN_ENOMEM;
        nm->s = p;
        nm->cap = cap;
    }
    nm->s[nm->n] = strdup(s);
    if (!nm->s[nm->n])
        return TN_ENOMEM;
    return nm->n++;
}

static void names_free(struct names *nm)
{
    for (int i = 0; i < nm->n; i++)
        free(nm->s[i]);
    free(nm->s);
}

struct net {
    struct names nodes, links;
    int *from, *to; /* per link */
    int capl;
    /* per node its outgoing and incoming links in declaration order
     * (link out_link[out_first[v] .. out_first[v+1]) leaves v), and the
     * routing's BFS queue: built by net_index once the links are read */
    int *out_first, *out_link, *in_first, *in_link, *queue;
};

/* first[v+1] - first[v] = links whose end key[l] is v, listed in list[]
 * in declaration order; cursor: nn scratch entries. */
static void net_csr(int nn, int nl, const int *key, int *first, int *list,
                    int *cursor)
{
    for (int l = 0; l < nl; l++)
        first[key[l] + 1]++;
    for (int v = 0; v < nn; v++) {
        first[v + 1] += first[v];
        cursor[v] = first[v];
    }
    for (int l = 0; l < nl; l++)
        list[cursor[key[l]]++] = l;
}

static int net_index(struct net *nt)
{
    int nn = nt->nodes.n, nl = nt->links.n;
    nt->out_first = calloc(nn + 1, sizeof(int));
    nt->in_first = calloc(nn + 1, sizeof(int));
    nt->out_link = malloc(sizeof(int) * (nl + 1));
    nt->in_link = malloc(sizeof(int) * (nl + 1));
    nt->queue = malloc(sizeof(int) * (nn + 1));
    if (!nt->out_first || !nt->in_first || !nt->out_link || !nt->in_link ||
        !nt->queue)
        return TN_ENOMEM;
    net_csr(nn, nl, nt->from, nt->out_first, nt->out_link, nt->queue);
    net_csr(nn, nl, nt->to, nt->in_first, nt->in_link, nt->queue);
    return 0;
}

/* Static route: shortest path in links; at each hop the first declared
 * link that stays on a shortest path. Distances to dst by breadth-first
 * search over the incoming links, stopped once src has one (every node
 * nearer than src has its distance then). Returns the length or -1. */
static int net_route(const struct net *nt, int src, int dst, int *path,
                     int *dist)
{
    int *q = nt->queue, head = 0, tail = 0;
    for (int v = 0; v < nt->nodes.n; v++)
        dist[v] = -1;
    dist[dst] = 0;
    q[tail++] = dst;
    while (head < tail && dist[src] < 0) {
        int u = q[head++];
        for (int i = nt->in_first[u]; i < nt->in_first[u + 1]; i++) {
            int v = nt->from[nt->in_link[i]];
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                q[tail++] = v;
            }
        }
    }
    if (dist[src] < 0)
        return -1;
    int k = 0;
    for (int u = src; u != dst; u = nt->to[path[k++]]) {
        int i = nt->out_first[u];
        while (dist[nt->to[nt->out_link[i]]] != dist[u] - 1)
            i++;
        path[k] = nt->out_link[i];
    }
    return k;
}

#define MAXTOK 4096

static int split(char *line, char **tok)
{
    int n = 0;
    char *h = strchr(line, '#'), *save = NULL;
    if (h)
        *h = 0;
    for (char *p = strtok_r(line, " \t\r\n", &save); p;
         p = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == MAXTOK)
            return -1;
        tok[n++] = p;
    }
    return n;
}

static int parse_err(const char *name, int line, const char *what,
                     const char *arg)
{
    fprintf(stderr, "%s:%d: %s%s%s%s: see docs/traffic-format.md\n", name,
            line, what, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    return TN_EPARSE;
}

/* Link uses (the sum of the transfers' route lengths) a file may ask for:
 * 64 MB of routes; a few lines of alltoall over a long chain of links
 * would otherwise ask for gigabytes. */
#define LINK_USES_MAX (1 << 24)

static int add_routed(struct tn_traffic *t, struct net *nt, int s, int d,
                      int snd, int rcv, int *path, int *dist)
{
    int k = net_route(nt, s, d, path, dist);
    if (k <= 0)
        return TN_EPARSE;
    if (t->nx && t->off[t->nx] + (long long)k > LINK_USES_MAX)
        return TN_ECAPACITY;
    return tn_traffic_add(t, path, k, snd, rcv);
}

/* The message for add_routed's refusals (rc otherwise). */
static int routed_err(int rc, const char *name, int line, const char *dst)
{
    if (rc == TN_EPARSE)
        return parse_err(name, line, "no route to", dst);
    if (rc == TN_ECAPACITY) {
        fprintf(stderr, "%s:%d: the routes pass more than %d links in all: "
                "see docs/traffic-format.md\n", name, line, LINK_USES_MAX);
        return TN_EPARSE;
    }
    return rc;
}

/* A network + traffic file being read: its name (for messages), the
 * network, the words of the current line and the scratch of the
 * transfers' pass. */
struct tparse {
    const char *name;
    struct net nt;
    char **tok;                             /* MAXTOK words */
    int *path, *lmark, *dist, *sidx, *didx; /* pass 2 */
    bool a2a;                               /* an alltoall line was read */
};

static void tparse_free(struct tparse *x)
{
    free(x->tok);
    free(x->path);
    free(x->lmark);
    free(x->dist);
    free(x->sidx);
    free(x->didx);
    free(x->nt.from);
    free(x->nt.to);
    free(x->nt.out_first);
    free(x->nt.out_link);
    free(x->nt.in_first);
    free(x->nt.in_link);
    free(x->nt.queue);
    names_free(&x->nt.nodes);
    names_free(&x->nt.links);
}

/* Every line of f, copied: *n of them in *out (freed by the caller
 * even on error). */
static int read_lines(FILE *f, const char *name, char ***out, int *n)
{
    char buf[65536];
    int cap = 0;
    while (fgets(buf, sizeof(buf), f)) {
        size_t blen = strlen(buf);
        if (blen == sizeof(buf) - 1 && buf[blen - 1] != '\n')
            return parse_err(name, *n + 1, "line longer than 65534 bytes", NULL);
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            char **p = realloc(*out, sizeof(char *) * cap);
            if (!p)
                return TN_ENOMEM;
            *out = p;
        }
        if (!((*out)[(*n)++] = strdup(buf)))
            return TN_ENOMEM;
    }
    return 0;
}

/* The words of line into x->tok (a copy is split): their number, or -1
 * for more than MAXTOK. */
static int line_words(struct tparse *x, const char *line, char *tmp, size_t cap)
{
    snprintf(tmp, cap, "%s", line);
    return split(tmp, x->tok);
}

/* "link NAME FROM TO" (tok[0..n)) of line ln. */
static int parse_link(struct tparse *x, int ln, char **tok, int n)
{
    struct net *nt = &x->nt;
    if (n != 4)
        return parse_err(x->name, ln, "expected: link NAME FROM TO", NULL);
    if (names_find(&nt->links, tok[1]) >= 0)
        return parse_err(x->name, ln, "duplicate link", tok[1]);
    int a = names_add(&nt->nodes, tok[2]), b = names_add(&nt->nodes, tok[3]);
    int l = names_add(&nt->links, tok[1]);
    if (a < 0 || b < 0 || l < 0)
        return TN_ENOMEM;
    if (a == b)
        return parse_err(x->name, ln, "link from a node to itself", tok[1]);
    if (l >= nt->capl) {
        nt->capl = nt->capl ? 2 * nt->capl : 64;
        int *fr = realloc(nt->from, sizeof(int) * nt->capl);
        if (fr)
            nt->from = fr;
        int *to = realloc(nt->to, sizeof(int) * nt->capl);
        if (to)
            nt->to = to;
        if (!fr || !to)
            return TN_ENOMEM;
    }
    nt->from[l] = a;
    nt->to[l] = b;
    return 0;
}

/* Pass 1: the nodes and links of every line; other keywords are checked
 * to be known. */
static int parse_network(struct tparse *x, char **lines, int nlines)
{
    int rc = 0;
    for (int ln = 0; ln < nlines && !rc; ln++) {
        char tmp[65536];
        int n = line_words(x, lines[ln], tmp, sizeof tmp);
        char **tok = x->tok;
        if (n == 0)
            continue;
        if (n < 0)
            return parse_err(x->name, ln + 1, "more than 4096 words on one line", NULL);
        if (!strcmp(tok[0], "node")) {
            for (int i = 1; i < n && !rc; i++)
                if (names_add(&x->nt.nodes, tok[i]) < 0)
                    rc = TN_ENOMEM;
        } else if (!strcmp(tok[0], "link")) {
            rc = parse_link(x, ln + 1, tok, n);
        } else if (strcmp(tok[0], "transfer") && strcmp(tok[0], "alltoall")) {
            rc = parse_err(x->name, ln + 1, "unknown keyword", tok[0]);
        }
    }
    return rc;
}

/* The route of "transfer SRC DST via LINK..." from s to d: contiguous,
 * each link once, ending at d; into x->path, its length returned in *k. */
static int parse_via(struct tparse *x, int ln, char **tok, int n, int s, int d, int *k)
{
    const struct net *nt = &x->nt;
    int at = s;
    *k = 0;
    for (int i = 4; i < n; i++) {
        int l = names_find(&nt->links, tok[i]);
        if (l < 0 || nt->from[l] != at)
            return parse_err(x->name, ln, l < 0 ? "unknown link" : "route not contiguous at link",
                             tok[i]);
        /* a path uses each link once (path[] holds every link) */
        if (x->lmark[l] == ln)
            return parse_err(x->name, ln, "route uses a link twice", tok[i]);
        x->lmark[l] = ln;
        x->path[(*k)++] = l;
        at = nt->to[l];
    }
    if (at != d)
        return parse_err(x->name, ln, "route does not end at", tok[2]);
    return 0;
}

/* "transfer SRC DST [via LINK...]" of line ln. */
static int parse_transfer(struct tparse *x, struct tn_traffic *t, int ln, char **tok, int n)
{
    if (n < 3 || (n > 3 && (strcmp(tok[3], "via") || n == 4)))
        return parse_err(x->name, ln, "expected: transfer SRC DST [via LINK...]", NULL);
    int s = names_find(&x->nt.nodes, tok[1]), d = names_find(&x->nt.nodes, tok[2]);
    if (s < 0 || d < 0 || s == d)
        return parse_err(x->name, ln, "unknown or equal end nodes", s < 0 ? tok[1] : tok[2]);
    if (n == 3)
        return routed_err(add_routed(t, &x->nt, s, d, -1, -1, x->path, x->dist), x->name, ln,
                          tok[2]);
    int k, rc = parse_via(x, ln, tok, n, s, d, &k);
    return rc ? rc : tn_traffic_add(t, x->path, k, -1, -1);
}

/* "alltoall SRC... -> DST..." of line ln: a routed transfer from every
 * source to every other destination (the only such line). */
static int parse_alltoall(struct tparse *x, struct tn_traffic *t, int ln, char **tok, int n)
{
    int arrow = -1, rc = 0;
    for (int i = 1; i < n; i++)
        if (!strcmp(tok[i], "->"))
            arrow = i;
    if (arrow < 2 || arrow == n - 1 || x->a2a)
        return parse_err(x->name, ln, x->a2a ? "only one alltoall line is allowed"
                                             : "expected: alltoall SRC... -> DST...", NULL);
    x->a2a = true;
    for (int i = 1; i < n && !rc; i++) {
        if (i == arrow)
            continue;
        int v = names_find(&x->nt.nodes, tok[i]);
        if (v < 0)
            rc = parse_err(x->name, ln, "unknown node", tok[i]);
        if (i < arrow)
            x->sidx[i - 1] = v;
        else
            x->didx[i - arrow - 1] = v;
    }
    for (int i = 0; i + 1 < arrow && !rc; i++)
        for (int j = 0; j < n - arrow - 1 && !rc; j++) {
            if (x->sidx[i] == x->didx[j])
                continue;
            rc = add_routed(t, &x->nt, x->sidx[i], x->didx[j], i, j, x->path, x->dist);
            rc = routed_err(rc, x->name, ln, tok[arrow + 1 + j]);
        }
    if (!rc) {
        t->nsnd = arrow - 1;
        t->nrcv = n - arrow - 1;
    }
    return rc;
}

/* Pass 2: the transfers, on the network of pass 1 (indexed). */
static int parse_transfers(struct tparse *x, struct tn_traffic *t, char **lines, int nlines)
{
    const struct net *nt = &x->nt;
    int rc = 0;
    x->path = malloc(sizeof(int) * (nt->links.n + 1));
    x->lmark = calloc(nt->links.n + 1, sizeof(int));
    x->dist = malloc(sizeof(int) * (nt->nodes.n + 1));
    x->sidx = malloc(sizeof(int) * MAXTOK);
    x->didx = malloc(sizeof(int) * MAXTOK);
    if (!x->path || !x->lmark || !x->dist || !x->sidx || !x->didx)
        return TN_ENOMEM;
    for (int ln = 0; ln < nlines && !rc; ln++) {
        char tmp[65536];
        int n = line_words(x, lines[ln], tmp, sizeof tmp);
        char **tok = x->tok;
        if (n == 0 || !strcmp(tok[0], "node") || !strcmp(tok[0], "link"))
            continue;
        if (!strcmp(tok[0], "transfer"))
            rc = parse_transfer(x, t, ln + 1, tok, n);
        else
            rc = parse_alltoall(x, t, ln + 1, tok, n);
    }
    return rc;
}

/* The network's names and links handed over to t, for other users of
 * the file. */
static int keep_network(struct tn_traffic *t, struct net *nt)
{
    if (nt->links.n) {
        t->lname = calloc(nt->links.n, sizeof(char *));
        if (!t->lname)
            return TN_ENOMEM;
        for (int l = 0; l < nt->links.n; l++) {
            t->lname[l] = nt->links.s[l];
            nt->links.s[l] = NULL;
        }
    }
    t->nnodes = nt->nodes.n;
    t->nname = nt->nodes.s, nt->nodes.s = NULL, nt->nodes.n = 0;
    t->lfrom = nt->from, nt->from = NULL;
    t->lto = nt->to, nt->to = NULL;
    return 0;
}

/* With network_only, a file without transfers is accepted. */
static int traffic_parse(struct tn_traffic *t, FILE *f, const char *name, bool network_only)
{
    struct tparse x = {.name = name, .tok = malloc(sizeof(char *) * MAXTOK)};
    char **lines = NULL;
    int nlines = 0, rc;
    tn_traffic_init(t, 0);
    if (!x.tok)
        return TN_ENOMEM;
    if (!(rc = read_lines(f, name, &lines, &nlines)) && !(rc = parse_network(&x, lines, nlines))) {
        tn_traffic_init(t, x.nt.links.n);
        if (!(rc = net_index(&x.nt)))
            rc = parse_transfers(&x, t, lines, nlines);
    }
    if (!rc && t->nx == 0 && !network_only)
        rc = parse_err(name, nlines, "no transfers", NULL);
    if (!rc)
        rc = keep_network(t, &x.nt);
    if (rc)
        tn_traffic_free(t);
    for (int i = 0; i < nlines; i++)
        free(lines[i]);
    free(lines);
    tparse_free(&x);
    return rc;
}

int tn_traffic_parse(struct tn_traffic *t, FILE *f, const char *name)
{
    return traffic_parse(t, f, name, false);
}

static int traffic_read(struct tn_traffic *t, const char *path, bool network_only)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
        return TN_EIO;
    }
    int rc = traffic_parse(t, f, path, network_only);
    fclose(f);
    return rc;
}

int tn_traffic_read(struct tn_traffic *t, const char *path)
{
    return traffic_read(t, path, false);
}

int tn_traffic_read_network(struct tn_traffic *t, const char *path)
{
    return traffic_read(t, path, true);
}
