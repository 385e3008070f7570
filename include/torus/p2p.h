/* SPDX-License-Identifier: MIT */
/* Point-to-point transfers in each switching technique the hardware runs
 * (docs/switching.md): mu payload flits from src to the node at distance
 * delta (+ hops in X, then Y, then Z: the DOR route), cut into packets of
 * P flits (messages 0..k-1 of a TN_P2P schedule, k = ceil(mu / P)).
 * - cs: one circuit round over the DOR route (set-up = the round switch);
 * - sf: store-and-forward, a round per hop of one-hop circuits through
 *   each intermediate node's memory; with k packets the hops pipeline:
 *   round j moves packet j - h over hop h (delta + k - 1 rounds);
 * - relay: bufferless head-routed packets (a head flit + P payload flits
 *   each), back to back from the source in one relay round.
 * Each build returns the device's closed form (what the model and the
 * device must measure) and the lecture's formula with the hardware's
 * constants: t_s = alpha, t_r = t_w = 0, t_m = tau = 1 (a hop's routing,
 * switching and link are the one registered cycle delta = 1). */
#ifndef TN_P2P_H
#define TN_P2P_H

#include <stdint.h>

#include "sched.h"

enum tn_switching { TN_SW_CS, TN_SW_SF, TN_SW_RELAY };

/* "cs", "sf", "relay": 0 or TN_EINVAL. */
int tn_switching_parse(const char *s, enum tn_switching *sw);
const char *tn_switching_name(enum tn_switching sw);

struct tn_p2p_opts {
    enum tn_switching sw;
    uint32_t src;
    unsigned distance;     /* delta: 1..diameter */
    uint32_t msg_flits;    /* mu: payload flits */
    uint32_t packet_flits; /* P: payload flits per packet (0: the whole message) */
    unsigned alpha;
};

struct tn_p2p_info {
    uint32_t dst;
    uint32_t packets;      /* k */
    uint32_t rounds;
    uint64_t device;       /* closed form of the device, cycles */
    uint64_t lecture;      /* the lecture's formula at the hardware's constants */
    char formula[96];      /* which formula, instantiated */
};

/* The node delta hops from src, + first in X, then Y, then Z: 0 or
 * TN_EINVAL (delta 0 or above the diameter). */
int tn_p2p_dst(const struct tn_topo *t, uint32_t src, unsigned distance, uint32_t *dst);

/* Builds (and lays out) the transfer: 0, TN_EINVAL (bad distance, more
 * packets than nodes, cs with packets, sf with a short last packet) or
 * TN_ENOMEM. */
int tn_p2p_build(struct tn_sched **out, const struct tn_topo *t, const struct tn_p2p_opts *o,
                 struct tn_p2p_info *info);

/* The sweep's packet size for mu payload flits on n nodes: the largest
 * divisor of mu up to mu / 4 (4 or more packets) when that makes at most n
 * packets, else the smallest divisor that does (mu itself at worst), so
 * both sf and relay in packets can run. */
uint32_t tn_p2p_sweep_packet(uint32_t mu, uint32_t n);

#endif
