/* SPDX-License-Identifier: MIT */
/* Scatter (FDF) and gather (transmission certificates) as relay schedules
 * on the DOR tree, the all-port scatter also on the six arc-disjoint
 * trees (include/torus/sg.h). */
#include "sg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gather.h"
#include "scatter.h"
#include "tn_error.h"
#include "tree.h"

/* Words of a gather control packet's value on the device (after its
 * head): the certificate's lag, the order's start; a token is a head
 * alone. */
#define GATHER_VALUE_WORDS 1

static int setup(struct tn_sched **s, const struct tn_topo *t, const struct tn_sg_opts *o,
                 enum tn_coll coll, const char *algo, int **len)
{
    if (o->root >= t->n || (o->ports != 1 && o->ports != 6))
        return TN_EINVAL;
    uint32_t lmax = 1;
    *len = malloc(t->n * sizeof **len);
    if (!*len)
        return TN_ENOMEM;
    for (uint32_t v = 0; v < t->n; v++) {
        if (o->len[v] > (1u << 24)) {
            free(*len);
            return TN_EINVAL;
        }
        (*len)[v] = v == o->root ? 0 : (int)o->len[v];
        if (o->len[v] > lmax)
            lmax = o->len[v];
    }
    int rc = tn_sched_new(s, t, coll, algo, lmax, o->ports, o->alpha, o->root);
    if (rc == 0)
        rc = tn_sched_set_lengths(*s, o->len, t->n);
    if (rc == 0 && tn_sched_add_round(*s) < 0)
        rc = TN_ENOMEM;
    if (rc != 0) {
        tn_sched_free(*s);
        *s = NULL;
        free(*len);
    }
    return rc;
}

/* FDF on the DOR tree: one scatter for a single-port root, else one per
 * root port subtree (sc[g] for port g; *ng of them). */
static int dor_scatter(const struct tn_topo *t, const struct tn_sg_opts *o, const int *len,
                       struct tn_scatter sc[TN_NDIRS], int *ng)
{
    int N = (int)t->n, rc = TN_ENOMEM;
    uint32_t *parent = malloc(sizeof *parent * (size_t)N);
    uint8_t *pdir = malloc((size_t)N);
    int *glen = malloc(sizeof(int) * (size_t)N), *port = malloc(sizeof(int) * (size_t)N);
    struct tn_ctree tr;
    memset(&tr, 0, sizeof tr);
    *ng = 0;
    if (!parent || !pdir || !glen || !port)
        goto out_free;
    tn_dor_tree(t, o->root, parent, pdir);
    if ((rc = tn_ctree_from_topo(&tr, t->n, parent)))
        goto out_free;
    /* root port of every node: direction of the first arc of its route */
    for (uint32_t v = 0; v < t->n; v++) {
        uint32_t u = v;
        port[v] = -1;
        while (u != o->root && parent[u] != o->root)
            u = parent[u];
        if (u != o->root)
            port[v] = pdir[u];
    }
    for (int g = 0; g < (o->ports == 1 ? 1 : TN_NDIRS) && rc == 0; g++) {
        for (int v = 0; v < N; v++)
            glen[v] = o->ports == 1 || port[v] == g ? len[v] : 0;
        if ((rc = tn_scatter_fdf(&tr, glen, 1, &sc[g])) == 0)
            (*ng)++;
    }
out_free:
    tn_ctree_free(&tr);
    free(parent);
    free(pdir);
    free(glen);
    free(port);
    return rc;
}

/* sc's streams as relay packets from root into round 0 of s, along the
 * six trees (tree = the stream's port) or by DOR. */
static int add_streams(struct tn_sched *s, uint32_t root, const struct tn_scatter *sc, bool six,
                       struct tn_sg_info *info)
{
    for (int i = 0; i < sc->nstreams; i++) {
        const struct tn_sc_stream *q = &sc->s[i];
        uint32_t m = (uint32_t)q->dest;
        struct tn_relay *x = tn_sched_add_relay(s, 0, root, m, 0, 1, &m, 1, (uint32_t)q->start);
        if (!x)
            return TN_ENOMEM;
        x->tree = six ? (uint8_t)(q->port + 1) : 0;
        info->messages++;
        info->total_flits += (uint64_t)q->flits;
        if ((unsigned)q->dist > info->height)
            info->height = (unsigned)q->dist;
    }
    if ((uint64_t)sc->time > info->time)
        info->time = (uint64_t)sc->time;
    return 0;
}

int tn_scatter_build(struct tn_sched **out, const struct tn_topo *t, const struct tn_sg_opts *o,
                     struct tn_sg_info *info)
{
    memset(info, 0, sizeof *info);
    struct tn_sched *s = NULL;
    int *len = NULL, ng = 0;
    int rc = setup(&s, t, o, TN_SCATTER, o->ports == 1 ? "fdf" : "fdf-ports", &len);
    if (rc)
        return rc;
    struct tn_scatter sc[TN_NDIRS], six;
    memset(&six, 0, sizeof six);
    bool all_dims = t->dim[0] >= 2 && t->dim[1] >= 2 && t->dim[2] >= 2;
    if ((rc = dor_scatter(t, o, len, sc, &ng)))
        goto out_free;
    for (int g = 0; g < ng; g++)
        if ((uint64_t)sc[g].time > info->dortree)
            info->dortree = (uint64_t)sc[g].time;
    if (o->ports != 1) {
        if (all_dims && (rc = tn_scatter_allport(t, (int)o->root, len, 1, &six)))
            goto out_free;
        /* the six trees' builder has computed the bound already */
        long lower = all_dims ? six.lower : tn_scatter_allport_lower(t, (int)o->root, len, 1);
        if (lower < 0) {
            rc = TN_ENOMEM;
            goto out_free;
        }
        info->lower = (uint64_t)lower;
        info->sixtree = all_dims ? (uint64_t)six.time : 0;
        info->six = all_dims && (o->tree == TN_SG_SIX ||
                                 (o->tree == TN_SG_AUTO && info->sixtree < info->dortree));
        if (o->tree == TN_SG_SIX && !all_dims) {
            rc = TN_EINVAL; /* the six trees need every dimension >= 2 */
            goto out_free;
        }
    } else {
        info->lower = (uint64_t)sc[0].lower;
    }
    if (info->six) {
        snprintf(s->algo, sizeof s->algo, "six-trees");
        rc = add_streams(s, o->root, &six, true, info);
    } else {
        for (int g = 0; g < ng && rc == 0; g++)
            rc = add_streams(s, o->root, &sc[g], false, info);
    }
    if (rc)
        goto out_free;
    info->optimum = o->ports == 1 ? info->time : 0; /* all-port: lower bound only */
    info->formula = tn_round_duration(o->alpha, info->time);
    if ((rc = tn_sched_layout(s)))
        goto out_free;
    *out = s;
    s = NULL;
out_free:
    for (int g = 0; g < ng; g++)
        tn_scatter_free(&sc[g]);
    tn_scatter_free(&six);
    free(len);
    tn_sched_free(s);
    return rc;
}

/* The gather's control messages of kinds in [k0, k1] as control packets
 * (a head, and the value word but for a token) in round r, started at
 * their model cycle minus t0; *need: the round's cycles (start + hops +
 * flits) so far. The words: a certificate's lag (all ones for an empty
 * subtree, lag -1), an order's cycle for the receiver's stream on its
 * up-arc, counted like the round's starts (minus t0); W bits of them. */
static int add_control(struct tn_sched *s, uint32_t r, const struct tn_gather *g, int k0, int k1,
                       long t0, uint64_t *need)
{
    for (int i = 0; i < g->nctl; i++) {
        const struct tn_ga_ctl *c = &g->ctl[i];
        if (c->kind < k0 || c->kind > k1)
            continue;
        uint32_t nw = c->kind == TN_GA_TOKEN ? 0 : GATHER_VALUE_WORDS;
        uint32_t w = (uint32_t)(c->kind == TN_GA_ORDER ? c->value - t0 : c->value);
        uint64_t at = (uint64_t)(c->cycle - t0);
        if (!tn_sched_add_relay_words(s, r, (uint32_t)c->from, (uint32_t)c->to, &w, nw,
                                      (uint32_t)at))
            return TN_ENOMEM;
        if (at + 1 + 1 + nw > *need)
            *need = at + 1 + 1 + nw;
    }
    return 0;
}

/* Node src's message as a relay packet of flits to the root, hops away,
 * in round r from start; counted in info and in *need (the round's
 * cycles so far). */
static int add_data(struct tn_sched *s, uint32_t r, uint32_t src, uint32_t root, uint64_t start,
                    unsigned hops, int flits, uint64_t *need, struct tn_sg_info *info)
{
    uint32_t m = src;
    if (!tn_sched_add_relay(s, r, src, root, 0, 1, &m, 1, (uint32_t)start))
        return TN_ENOMEM;
    if (start + hops + (uint64_t)flits > *need)
        *need = start + hops + (uint64_t)flits;
    info->messages++;
    info->total_flits += (uint64_t)flits;
    if (hops > info->height)
        info->height = hops;
    return 0;
}

/* The certificate gather as two relay rounds: tokens and certificates
 * (phases 1-2, from cycle 0), then orders and data (phases 3-4, from
 * t_sync, overlapping as in the algorithm); info's per-round closed
 * forms from the algorithm's own timing. */
static int gather_rounds(struct tn_sched *s, const struct tn_gather *g, const struct tn_ctree *tr,
                         const struct tn_sg_opts *o, struct tn_sg_info *info)
{
    uint64_t need0 = 0, need1 = 0;
    int rc = add_control(s, 0, g, TN_GA_TOKEN, TN_GA_CERT, 0, &need0);
    if (rc || (rc = tn_sched_add_round(s)) < 0 ||
        (rc = add_control(s, 1, g, TN_GA_ORDER, TN_GA_ORDER, g->t_sync, &need1)))
        return rc;
    for (int v = 0; v < g->n && !rc; v++)
        if (g->start[v] >= 0 && v != (int)o->root)
            rc = add_data(s, 1, (uint32_t)v, o->root, (uint64_t)(g->start[v] - g->t_sync),
                          (unsigned)tr->depth[v], g->flits[v], &need1, info);
    info->sync_round = tn_round_duration(o->alpha, need0);
    info->data_round = tn_round_duration(o->alpha, need1);
    return rc;
}

/* Shoulder-tap's calls and data packets on the path (nodes path[0..np),
 * path[0] the root) as one relay round from cycle 0. */
static int shoulder_tap_round(struct tn_sched *s, const struct tn_gather *g, const int *path,
                              struct tn_sg_info *info)
{
    uint64_t need = 0;
    for (int i = 0; i < g->nctl; i++) {
        const struct tn_ga_ctl *c = &g->ctl[i];
        uint32_t w = (uint32_t)c->value;
        if (!tn_sched_add_relay_words(s, 0, (uint32_t)path[c->from], (uint32_t)path[c->to], &w,
                                      GATHER_VALUE_WORDS, (uint32_t)c->cycle))
            return TN_ENOMEM;
    }
    int rc = 0;
    for (int j = 1; j < g->n && !rc; j++)
        if (g->start[j] >= 0)
            rc = add_data(s, 0, (uint32_t)path[j], (uint32_t)path[0], (uint64_t)g->start[j],
                          (unsigned)j, g->flits[j], &need, info);
    info->data_round = tn_round_duration(s->alpha, need);
    return rc;
}

/* Shoulder-tap on the path of the root and the nodes after it in X+
 * whose DOR routes run X- to it (sg.h): the other messages are null. */
static int shoulder_tap_build(struct tn_sched **out, const struct tn_topo *t,
                              const struct tn_sg_opts *o, struct tn_sg_info *info)
{
    int np = (int)(t->dim[0] - 1) / 2 + 1, *path = malloc(sizeof(int) * (size_t)np);
    int *plen = malloc(sizeof(int) * (size_t)np), *len = NULL, rc = TN_ENOMEM;
    uint32_t *keep = calloc(t->n, sizeof *keep);
    struct tn_sched *s = NULL;
    struct tn_gather g;
    memset(&g, 0, sizeof g);
    if (!path || !plen || !keep || o->root >= t->n) {
        rc = o->root >= t->n ? TN_EINVAL : TN_ENOMEM;
        goto out_free;
    }
    unsigned c[3];
    tn_coords(t, o->root, c);
    for (int j = 0; j < np; j++) {
        path[j] = (int)tn_node_id(t, (c[0] + (unsigned)j) % t->dim[0], c[1], c[2]);
        keep[path[j]] = j ? o->len[path[j]] : 0;
        plen[j] = (int)keep[path[j]];
    }
    struct tn_sg_opts po = *o;
    po.len = keep;
    struct tn_ga_opts go = {1, o->react, GATHER_VALUE_WORDS};
    rc = np < 2 ? TN_EINVAL : setup(&s, t, &po, TN_GATHER, "shoulder-tap", &len);
    if (rc || (rc = tn_gather_shoulder_tap(np, plen, &go, &g)) ||
        (rc = shoulder_tap_round(s, &g, path, info)) || (rc = tn_sched_layout(s)))
        goto out_free;
    info->time = g.time > 0 ? (uint64_t)g.time : 0;
    info->first = g.first > 0 ? (uint64_t)g.first : 0;
    info->lower = (uint64_t)g.lower;
    info->optimum = info->time; /* Theorem 2 */
    info->formula = info->data_round;
    info->shoulder_tap = true;
    info->path_nodes = (unsigned)np - 1;
    *out = s;
    s = NULL;
out_free:
    tn_gather_free(&g);
    tn_sched_free(s);
    free(path);
    free(plen);
    free(keep);
    free(len);
    return rc;
}

int tn_gather_build(struct tn_sched **out, const struct tn_topo *t, const struct tn_sg_opts *o,
                    struct tn_sg_info *info)
{
    memset(info, 0, sizeof *info);
    if (o->shoulder_tap)
        return shoulder_tap_build(out, t, o, info);
    struct tn_sched *s = NULL;
    int *len = NULL;
    int rc = setup(&s, t, o, TN_GATHER, "certificates", &len);
    if (rc)
        return rc;
    int N = (int)t->n;
    int *parent = malloc(sizeof(int) * (size_t)N);
    struct tn_ctree tr;
    struct tn_gather g;
    memset(&tr, 0, sizeof tr);
    memset(&g, 0, sizeof g);
    rc = TN_ENOMEM;
    if (!parent)
        goto out_free;
    /* the in-tree of DOR routes to the root: a node's parent is the first
     * hop of its own DOR route (suffixes of DOR routes are DOR routes) */
    for (uint32_t v = 0; v < t->n; v++) {
        struct tn_arc first;
        parent[v] = -1;
        if (tn_dor_path(t, v, o->root, &first, 1))
            parent[v] = (int)tn_neighbor(t, v, first.dir);
    }
    if ((rc = tn_ctree_from_parent(&tr, N, parent)))
        goto out_free;
    struct tn_ga_opts go = {1, o->react, GATHER_VALUE_WORDS};
    if ((rc = tn_gather_certificates(&tr, len, &go, &g)) ||
        (rc = gather_rounds(s, &g, &tr, o, info)))
        goto out_free;
    info->time = g.time > 0 ? (uint64_t)g.time : 0;
    info->t_sync = (uint64_t)g.t_sync;
    info->first = (uint64_t)g.first;
    info->lower = (uint64_t)g.lower;
    info->bound = (uint64_t)g.bound;
    info->formula = info->sync_round + info->data_round;
    if ((rc = tn_sched_layout(s)))
        goto out_free;
    *out = s;
    s = NULL;
out_free:
    tn_gather_free(&g);
    tn_ctree_free(&tr);
    free(parent);
    free(len);
    tn_sched_free(s);
    return rc;
}
