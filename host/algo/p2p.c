/* SPDX-License-Identifier: MIT */
/* Point-to-point transfers per switching technique (p2p.h,
 * docs/switching.md). */
#include "p2p.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "tn_error.h"

static const char *const sw_names[] = {"cs", "sf", "relay"};

int tn_switching_parse(const char *s, enum tn_switching *sw)
{
    int i = tn_name_index(s, sw_names, TN_SW_RELAY + 1);
    if (i < 0)
        return TN_EINVAL;
    *sw = (enum tn_switching)i;
    return 0;
}

const char *tn_switching_name(enum tn_switching sw)
{
    return sw <= TN_SW_RELAY ? sw_names[sw] : "?";
}

int tn_p2p_dst(const struct tn_topo *t, uint32_t src, unsigned distance, uint32_t *dst)
{
    if (distance == 0 || distance > tn_diameter(t) || src >= t->n)
        return TN_EINVAL;
    unsigned c[3], left = distance;
    tn_coords(t, src, c);
    for (int k = 0; k < 3; k++) {
        unsigned hops = t->dim[k] / 2 < left ? t->dim[k] / 2 : left;
        c[k] = (c[k] + hops) % t->dim[k];
        left -= hops;
    }
    *dst = tn_node_id(t, c[0], c[1], c[2]);
    return 0;
}

/* cs: one circuit over the DOR route carrying every packet. */
static int build_cs(struct tn_sched *s, const struct tn_arc *path, unsigned d, uint32_t k)
{
    int r = tn_sched_add_round(s);
    if (r < 0)
        return r;
    return tn_sched_add_circuit(s, (uint32_t)r, s->root, path, d, &s->dst, 1, 0, k, NULL, 0, 0)
               ? 0 : TN_ENOMEM;
}

/* sf: round j moves packet j - h over hop h, from the memory of the hop's
 * tail (where it is the (j - h)-th packet received) to its head. */
static int build_sf(struct tn_sched *s, const struct tn_arc *path, unsigned d, uint32_t k)
{
    for (uint32_t j = 0; j < d + k - 1; j++) {
        int r = tn_sched_add_round(s);
        if (r < 0)
            return r;
        for (unsigned h = 0; h < d; h++) {
            if (j < h || j - h >= k)
                continue;
            uint32_t head = h + 1 < d ? path[h + 1].node : s->dst;
            if (!tn_sched_add_circuit(s, (uint32_t)r, path[h].node, &path[h], 1, &head, 1, j - h,
                                      1, NULL, 0, 0))
                return TN_ENOMEM;
        }
    }
    return 0;
}

/* relay: the packets back to back (each a head flit + its payload). */
static int build_relay(struct tn_sched *s, uint32_t k)
{
    int r = tn_sched_add_round(s);
    if (r < 0)
        return r;
    uint32_t start = 0;
    for (uint32_t i = 0; i < k; i++) {
        if (!tn_sched_add_relay(s, (uint32_t)r, s->root, s->dst, i, 1, NULL, 0, start))
            return TN_ENOMEM;
        start += 1 + tn_msg_len(s, i);
    }
    return 0;
}

/* The device's closed form and the lecture's formula (t_s = alpha,
 * t_r = t_w = 0, t_m = 1, probe p = 1 flit). */
static void formulas(const struct tn_p2p_opts *o, unsigned d, uint32_t k, uint32_t P,
                     struct tn_p2p_info *in)
{
    uint64_t a = o->alpha, mu = o->msg_flits;
    switch (o->sw) {
    case TN_SW_CS:
        in->device = a + d + mu;
        in->lecture = a + (uint64_t)d * 2 + mu;
        snprintf(in->formula, sizeof in->formula, "t_CS = t_s + delta(t_r + (p+1)(t_w+t_m)) + mu t_m, p = 1");
        break;
    case TN_SW_SF:
        in->device = (uint64_t)(d + k - 1) * (a + 1 + P);
        in->lecture = a + (uint64_t)(d + k - 1) * P;
        snprintf(in->formula, sizeof in->formula, k > 1 ? "t_SF(P, delta + k - 1) = t_s + (delta+k-1)(t_r + (t_w+t_m)P)"
                                                        : "t_SF = t_s + delta(t_r + (t_w+t_m)mu)");
        break;
    case TN_SW_RELAY:
        in->device = a + d + k + mu;
        in->lecture = a + d + mu; /* the lecture's mu is the payload: the k heads are the difference */
        snprintf(in->formula, sizeof in->formula, "t_WH = t_s + delta(t_r+t_w+t_m) + mu max(t_w,t_m)");
        break;
    }
}

static int check_opts(const struct tn_topo *t, const struct tn_p2p_opts *o, uint32_t *k,
                      uint32_t *P)
{
    if (o->msg_flits == 0)
        return TN_EINVAL;
    *P = o->packet_flits && o->packet_flits < o->msg_flits ? o->packet_flits : o->msg_flits;
    *k = (o->msg_flits + *P - 1) / *P;
    if (*k > t->n || (o->sw == TN_SW_CS && *k > 1) ||
        (o->sw == TN_SW_SF && o->msg_flits % *P != 0))
        return TN_EINVAL;
    return 0;
}

int tn_p2p_build(struct tn_sched **out, const struct tn_topo *t, const struct tn_p2p_opts *o,
                 struct tn_p2p_info *info)
{
    uint32_t k, P, dst;
    memset(info, 0, sizeof *info);
    if (check_opts(t, o, &k, &P) || tn_p2p_dst(t, o->src, o->distance, &dst))
        return TN_EINVAL;
    struct tn_sched *s;
    int rc = tn_sched_new(&s, t, TN_P2P, tn_switching_name(o->sw), P, 1, o->alpha, o->src);
    if (rc)
        return rc;
    s->dst = dst;
    s->p2p_msgs = k;
    struct tn_arc *path = malloc((o->distance + 1) * sizeof *path);
    uint32_t *len = calloc(t->n, sizeof *len);
    rc = TN_ENOMEM;
    if (!path || !len)
        goto out_free;
    unsigned d = tn_dor_path(t, o->src, dst, path, o->distance + 1);
    if (o->msg_flits % P) { /* relay: a shorter last packet */
        for (uint32_t i = 0; i < k; i++)
            len[i] = i + 1 < k ? P : o->msg_flits - (k - 1) * P;
        if ((rc = tn_sched_set_lengths(s, len, t->n)) != 0)
            goto out_free;
    }
    rc = o->sw == TN_SW_CS ? build_cs(s, path, d, k)
       : o->sw == TN_SW_SF ? build_sf(s, path, d, k) : build_relay(s, k);
    if (!rc)
        rc = tn_sched_layout(s);
    if (!rc) {
        info->dst = dst;
        info->packets = k;
        info->rounds = s->nrounds;
        formulas(o, d, k, P, info);
    }
out_free:
    free(path);
    free(len);
    if (rc)
        tn_sched_free(s);
    else
        *out = s;
    return rc;
}

uint32_t tn_p2p_sweep_packet(uint32_t mu, uint32_t n)
{
    uint32_t P = mu / 4 ? mu / 4 : 1;
    while (mu % P)
        P--;
    if (mu / P > n)
        for (P = (mu + n - 1) / n; mu % P; P++)
            ;
    return P;
}
