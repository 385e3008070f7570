/* SPDX-License-Identifier: MIT */
/* Inside the plan lowering (plan.c, plan_place.c, plan_relay.c,
 * plan_bank.c, model*.c): what the stages hand each other. Not for users
 * of libtorus (plan.h is). */
#ifndef TN_PLANI_H
#define TN_PLANI_H

#include "plan.h"

/* Host limit on the inject descriptors of one plan: a gather expands to
 * one descriptor per run (the 49x49x49 long-message gossip would need
 * 2.8e8). */
#define TN_PLAN_MAX_INJ (1u << 24)

/* Place the message layout of every node in the banked memory (gaps
 * before received streams and initial messages where two lanes would
 * otherwise use one bank in one cycle) and rewrite the circuit
 * descriptors, lowered with logical addresses, to physical ones: ejects
 * moved, injects split into chains at the gaps. ejt[r][i] is the
 * round-relative cycle the first flit of p->rounds[r].ej[i] arrives.
 * Sets gap_first, gaps, mem_max. 0, TN_ECAPACITY (more than 2^32 words),
 * TN_ENOMEM. */
int tn_plan_place(struct tn_plan *p, uint32_t *const *ejt, char *err, size_t errlen);

/* Index of the first inject descriptor of (node, lane) in round pr (or
 * pr->ninj): they are sorted by node, lane, start. */
uint32_t tn_plan_inj_find(const struct tn_plan_round *pr, uint32_t node, unsigned lane);

/* Flits inject descriptor i of round r really sends: its length, cut by
 * the next descriptor of its lane starting and by the round's end. */
uint64_t tn_plan_inj_sent(const struct tn_plan *p, uint32_t r, uint32_t i);

/* The relay eject lane a head arriving in cycle first takes: the lowest
 * of the nl lanes whose holder's tail passed before first (busy[l] = the
 * cycle of that tail); nl if every lane is held. */
static inline unsigned tn_relay_free_lane(const uint64_t *busy, unsigned nl, uint64_t first)
{
    unsigned l = 0;
    while (l < nl && busy[l] >= first)
        l++;
    return l;
}

/* Physical words of node from a on: true if a holds logical word *w and
 * the *n words from a hold *w, *w + 1, ... (n = UINT64_MAX: up to the end
 * of the layout and beyond); false if a is in a gap that lasts *n words. */
bool tn_plan_span(const struct tn_plan *p, uint32_t node, uint64_t a, uint64_t *w, uint64_t *n);

/* Bank of memory word a: banks is a power of two. */
static inline unsigned tn_bank(uint64_t a, unsigned banks)
{
    return (unsigned)(a & (banks - 1));
}

#endif
