/* SPDX-License-Identifier: MIT */
/* Inside the CDG construction (cdg.c, cdg_route.c): not for users of
 * libtorus (cdg.h is). */
#ifndef TN_CDGI_H
#define TN_CDGI_H

#include <stddef.h>
#include <stdint.h>

#include "cdg.h"

/* Lists by key (compressed rows) of n pairs key << 32 | value, keys below
 * nkeys, each key's values in the pairs' order: the values of key k are
 * list[off[k] .. off[k + 1]). 0 or TN_ENOMEM (then *off and *list may hold
 * memory for the caller to free). */
int tn_csr_build(uint32_t nkeys, const uint64_t *pairs, size_t n, uint32_t **off,
                 uint32_t **list);

/* Follows the next pointers of a destination-based routing (cdg.h,
 * tn_cdg_from_next) from every node's phase-0 state towards d and writes
 * hops[st], the hops from state st to d: 0 at d's states, TN_HOPS_DEAD
 * where the route stops short of d (no channel), TN_HOPS_UNUSED for the
 * states no route visits. Each state is followed once. stack: nnodes *
 * phases entries of scratch. 0, TN_EVERIFY (a route loops) or TN_EINVAL
 * (a next state out of range). */
#define TN_HOPS_UNUSED UINT32_MAX
#define TN_HOPS_DEAD (UINT32_MAX - 1)
int tn_next_hops(uint32_t nnodes, unsigned phases, uint32_t d, const uint32_t *ch,
                 const uint32_t *to, uint32_t *hops, uint32_t *stack);

/* The oracles of tn_cdg_net and tn_interval_stretch (for the tests): the
 * same results from every pair's route walked hop by hop
 * (tn_cdg_from_routes), about n^3 / 3 hops for interval routing; no node
 * limit. */
int tn_cdg_net_walk(struct tn_cdg *g, const struct tn_net *n, enum tn_routing routing);
int tn_interval_stretch_walk(const struct tn_topo *t, struct tn_stretch *st);

#endif
