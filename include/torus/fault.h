/* SPDX-License-Identifier: MIT */
/* Link faults for the simulated device (docs/hardware.md "Link faults",
 * docs/host.md "Link faults"): a bit of one flit flipped, or the flit
 * dropped, on the link that leaves a node in one direction in one cycle
 * of the run. This module names a fault, places it in a plan (round and
 * round-relative cycle, the XOR mask the model applies), lists the faults
 * a plan can suffer (every flit a link carries) and predicts which eject
 * descriptors must report it. */
#ifndef TN_FAULT_H
#define TN_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "plan.h"

#define TN_FAULT_DROP (-1)     /* tn_link_fault.bit: clear the valid bit */

struct tn_link_fault {
    uint32_t node;             /* the sending node */
    int dir;                   /* the link's direction (enum tn_dir) */
    uint64_t cycle;            /* run cycle: the round's start (tn_plan_round.t0)
                                * plus the round-relative cycle */
    int bit;                   /* 0..W-1 data, W tail, W+1 head; TN_FAULT_DROP */
};

/* "NODE:DIR:CYCLE:BIT" or "NODE:DIR:CYCLE:drop" (DIR X+ .. Z-; decimal
 * digits only, CYCLE at most 2^48, BIT at most 63): 0, or -1. */
int tn_link_fault_parse(const char *s, struct tn_link_fault *f);
/* "node 5 X+ cycle 40 bit 3" (or "drop") into buf. */
void tn_link_fault_format(const struct tn_link_fault *f, char *buf, size_t len);

/* Where f happens in p for flits of width W: its round and the cycle
 * within the round. 0, or TN_EINVAL with a message in err: no such node
 * or link, a cycle after the run, a bit beyond W+1. */
int tn_link_fault_place(const struct tn_plan *p, unsigned width, const struct tn_link_fault *f,
                        uint32_t *round, uint32_t *rcyc, char *err, size_t errlen);

/* f, placed in round and rcyc, as the reference model applies it. */
void tn_link_fault_model(const struct tn_link_fault *f, unsigned width, uint32_t round,
                         uint32_t rcyc, struct tn_model_fault *mf);

/* Every (node, dir, cycle) on which the plan sends a flit (circuit and
 * relay rounds; the circuit rounds' first, then the relay rounds'; bit left 0):
 * *out (malloc'd) and *n. 0, TN_ENOMEM or TN_ECAPACITY (the cycle engine
 * cannot hold the plan). */
int tn_link_fault_targets(const struct tn_plan *p, struct tn_link_fault **out, size_t *n);

/* Circuit rounds: the eject descriptors the faulty flit reaches in its
 * round (a relay flit's reach depends on its head: the model with the
 * fault tells, tn_model_run_fault): reach[i]
 * set to 1 for each (i in the model's statistics order: plan eject order,
 * round after round), following the crossbars from the link on. Returns
 * how many; reach has one entry per eject descriptor of the plan and is
 * cleared first. f must be placed (tn_link_fault_place). */
uint32_t tn_link_fault_reach(const struct tn_plan *p, const struct tn_link_fault *f, uint8_t *reach,
                             uint32_t nstats);

#endif
