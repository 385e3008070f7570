/* SPDX-License-Identifier: MIT */
/* The cycle-level reference model (docs/timing.md, docs/host.md
 * "Reference model"): executes a plan as the hardware does and gives every
 * eject descriptor's statistics, the relay routers' counters, each link's
 * flits, and the effect of a link fault. */
#ifndef TN_MODEL_H
#define TN_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

/* Statistics of one eject descriptor, as the hardware reports them, with
 * first/last relative to T0 (the start cycle): absolute = T0 + first. */
struct tn_stat {
    uint32_t round, node;
    uint8_t lane, err;        /* err: bit 0 overrun, 1 short, 2 memory bounds */
    uint64_t first, last;     /* cycle of first/last flit; 0 if none */
    uint32_t count, crc;      /* flits, CRC-32 of their data */
};

enum tn_engine {
    TN_ENGINE_AUTO,           /* cycle if small enough, else stream */
    TN_ENGINE_CYCLE,          /* every link, every cycle */
    TN_ENGINE_STREAM,         /* trace each stream through the crossbars,
                               * timing per stream, CRCs with crc32_combine */
};

struct tn_model_out {
    uint64_t total;           /* T_end - T0 */
    uint32_t nstats;
    struct tn_stat *stats;    /* per round, node, lane (plan eject order) */
    uint32_t errors;          /* stats with err != 0 */
    /* Relay rounds: per node v, relay_ev[3v + TN_RELAY_*] counts what its
     * status counters count (docs/hardware.md "Status"); NULL when the
     * plan has no relay round. */
    uint32_t *relay_ev;
    uint64_t relay_total[3];  /* the same summed over the nodes */
};
enum { TN_RELAY_COLL, TN_RELAY_UNRT, TN_RELAY_DROP };

int tn_model_run(const struct tn_plan *p, uint64_t seed, enum tn_engine engine,
                 struct tn_model_out *out);
void tn_model_free(struct tn_model_out *out);

/* Every flit that a router output sends, in circuit and relay rounds:
 * on_flit(ctx, round, c, node, dir) for the flit that output dir of node
 * sends in round-relative cycle c (it is on the link, in the receiver's
 * input, in cycle c + 1). Every flit memory word that a circuit round's
 * lanes use: on_mem(ctx, round, t, node, lane, write, addr), a word read
 * for inject lane `lane` whose flit is on the lane in cycle t (relative
 * to T0; the read is a cycle earlier), or written by eject lane `lane`
 * from its input in cycle t; addr is physical. Either may be NULL. Runs
 * the cycle engine: 0, TN_ENOMEM or TN_ECAPACITY. */
struct tn_model_probe {
    void (*on_flit)(void *ctx, uint32_t round, uint64_t c, uint32_t node, int dir);
    void *ctx;
    void (*on_mem)(void *ctx, uint32_t round, uint64_t t, uint32_t node, unsigned lane, int write,
                   uint64_t addr);
};
int tn_model_probe_links(const struct tn_plan *p, uint64_t seed, const struct tn_model_probe *probe);

/* A link fault as the hardware makes it (docs/hardware.md "Link faults"):
 * the flit that output dir of node sends in round-relative cycle c of
 * round has data ^= data, its tail and head flags flipped where set, or is
 * dropped. Circuit rounds carry no flags: a flag flip there changes
 * nothing. */
struct tn_model_fault {
    uint32_t round, node;
    uint64_t c;
    int dir;
    uint32_t data;
    bool tail, head, drop;
};
/* tn_model_run on the cycle engine with fault applied. */
int tn_model_run_fault(const struct tn_plan *p, uint64_t seed, const struct tn_model_fault *fault,
                       struct tn_model_out *out);

/* The reference model of the relay rounds (host/plan/model_relay.c): fills the
 * statistics of the relay eject lanes cycle by cycle (an inject lane's
 * heads sent to its descriptor's hop, a link's routed by DOR or their
 * tree, hold until the tail, collisions dropped as the hardware does).
 * Called by tn_model_run. */
int tn_model_relay(const struct tn_plan *p, uint64_t seed, struct tn_model_out *out,
                   const struct tn_model_probe *probe, const struct tn_model_fault *fault);

#endif
