/* SPDX-License-Identifier: MIT */
/* Lowering of a schedule to the device level (the "plan": per node and
 * round the crossbar settings, eject lane sources, inject and eject
 * descriptors, the memory layout and the round durations, encoded as in
 * docs/hardware.md and timed as in docs/timing.md), the deterministic
 * payloads, and the cycle-level reference model that executes a plan and
 * predicts what the hardware reports. See docs/host.md. */
#ifndef TN_PLAN_H
#define TN_PLAN_H

#include <stdint.h>

#include "sched.h"

struct tn_plan_params {
    unsigned lanes;           /* LANES: 1..6 */
    uint32_t mem_depth;       /* MEM_DEPTH in words; 0: unlimited (model only) */
    unsigned width;           /* W: flit data bits, 1..32 */
    unsigned alpha;           /* ALPHA: round switch cost */
    unsigned banks;           /* BANKS: flit memory banks, a power of two (word
                               * a is in bank a mod banks; the device reports
                               * it); 0: 2^ceil(log2 lanes). tn_plan_lower
                               * stores the value it used in p->par */
};

/* Crossbar field encodings (round config fields 0..5 and 8..13). */
#define TN_SEL_OFF 0
#define TN_SEL_LANE(l) (1 + (l))
#define TN_SEL_PORT(p) (8 + (p))
#define TN_SEL_RELAY 15           /* allocated by head flits (relay mode) */
#define TN_PORT_RELAY 0xFF        /* tn_eject.port of a relay eject lane */
#define TN_MODE_RELAY 1u          /* a relay round (heads routed by DOR or a six tree) */
/* tn_inject.hop of a relay descriptor beside the directions 0..5. */
#define TN_HOP_HERE 6             /* a relay eject lane of the sending node */
#define TN_HOP_NONE 7             /* no output: every head is unroutable */

/* One inject descriptor: flit k (k < len) reads word addr + k in
 * round-relative cycle alpha - 1 + start + k and is on the lane in
 * alpha + start + k. A lane may have several descriptors in a round (a
 * chain: each starts the cycle after the previous one's last flit, so
 * they send one gap-free stream from several places of the memory); the
 * next descriptor's start cuts a stream still injecting. */
struct tn_inject {
    uint32_t node;
    uint8_t lane;
    uint32_t start;           /* offset after the switch, cycles */
    uint32_t addr, len;       /* first memory word (physical), flits */
    uint32_t circuit;         /* index in the schedule's round of the first
                               * circuit the lane carries (circuits with the
                               * same source, start and data share a lane;
                               * relay: the lane's first packet in the
                               * round's relays) */
    uint8_t relay;            /* a relay stream: its head flits allocate outputs */
    uint8_t hop;              /* relay: the output every head flit of the
                               * stream takes at this node (the device does
                               * not route them): 0..5 a direction (TN_XP ..
                               * TN_ZM), TN_HOP_HERE a relay eject lane here,
                               * TN_HOP_NONE none (unroutable); 0 for
                               * circuits */
};

/* qsort orders of a round's descriptors: inject by node, lane, start;
 * eject by node, lane. */
int tn_plan_cmp_inj(const void *a, const void *b);
int tn_plan_cmp_ej(const void *a, const void *b);

/* One eject descriptor (at most one per node, lane and round): flit j
 * of what the lane receives is written to word addr + j (j < len) in the
 * cycle it arrives. */
struct tn_eject {
    uint32_t node;
    uint8_t lane, port;       /* lane and the input port it listens to */
    uint32_t addr, len;       /* first memory word written (physical), expected flits */
    uint32_t circuit;
};

struct tn_plan_round {
    uint64_t t0;              /* first cycle of the round, relative to T0 */
    uint64_t duration;        /* D_r: alpha + the streams' cycles, >= 3 */
    uint8_t *xbar;            /* per node 12 bytes: out_sel[0..5] (field
                               * 0..5), ej_src[0..5] (field 8..13) */
    uint8_t mode;             /* TN_MODE_RELAY in relay rounds, else 0 */
    uint32_t ninj, nej;
    struct tn_inject *inj;    /* sorted by node, lane, start */
    struct tn_eject *ej;      /* sorted by node, lane */
};

struct tn_plan {
    struct tn_plan_params par;
    struct tn_sched *sched;   /* borrowed: must outlive the plan */
    struct tn_topo topo;
    uint32_t msg_flits;
    uint32_t nrounds;
    struct tn_plan_round *rounds;
    uint64_t total;           /* sum of durations */
    uint64_t mem_max;         /* largest memory (words) any node needs */
    /* Placement of the message layout (schedule-format.md: message i of a
     * node's memory at logical words [i*L, (i+1)*L), received streams
     * appended in port order) in the banked flit memory: gaps before some
     * messages and received streams, so that no two lanes of a node use
     * one bank in one cycle. Per node v, gaps[gap_first[v] ..
     * gap_first[v+1]) in increasing word order: logical words from
     * gaps[i].word on are at physical word + gaps[i].shift (shift 0 before
     * the first entry). Every address in the plan is physical. */
    uint32_t *gap_first;      /* N + 1 entries */
    struct tn_plan_gap *gaps;
    /* Relay packets (host/plan/plan_relay.c): every packet is staged at its
     * source, head word and the words of its messages, from word mem_base
     * on (above the message layout), and received into an area above the
     * layout at its destination; stage[] lists them for the image. */
    uint64_t mem_base;        /* words of the message layout (relay areas above);
                               * 0 with relay packets: no circuit round, the
                               * layout is not loaded */
    uint32_t nstage;
    struct tn_plan_stage *stage;
};

struct tn_plan_gap {
    uint32_t word, shift;
};

/* One staged relay packet: words [addr, addr + 1 + payload) of node. */
struct tn_plan_stage {
    uint32_t node, addr;
    uint32_t round, relay;    /* the schedule's stream it carries */
    uint32_t dst;             /* head word: the destination's coordinates */
};

/* Lower the relay streams of s into p (called by tn_plan_lower once the
 * circuits are lowered): staging, inject chains, relay eject lanes in the
 * order the hardware allocates them, crossbar relay selects, DOR mode,
 * durations. 0, TN_ENOTSUP (circuits and relays in one round, unequal
 * lengths with circuits, W < 12 or a dimension > 15 for DOR heads, W < 16
 * for heads along a six tree),
 * TN_ECAPACITY, TN_ENOMEM. */
int tn_plan_lower_relay(struct tn_plan *p, char *err, size_t errlen);
/* Words and MEM flags (bit 0 head, bit 1 tail) of staged packet i for
 * seed; returns the word count (writes at most cap). */
uint32_t tn_plan_stage_words(const struct tn_plan *p, uint32_t i, uint64_t seed, uint32_t *data,
                             uint8_t *flags, uint32_t cap);
/* Lower a (verified) schedule: lanes (circuits with the same source,
 * start and data share one), descriptors (gathers as chains, one
 * descriptor per run), the placement of every node's memory in the banks
 * (gaps, docs/host.md "Banks"), relay rounds, and last the exact bank
 * check and the store-to-send check. TN_ECAPACITY when it needs more
 * lanes, memory or descriptors than par (or the host) gives, has a bank
 * conflict no placement avoids (the message names node, round, lanes, bank
 * and cycle) or sends a word less than 2 cycles after its store
 * (tn_plan_store_check), TN_EVERIFY when it is
 * structurally broken (run tn_verify for the details), TN_EINVAL for bad
 * parameters; a message goes to err. */
int tn_plan_lower(struct tn_plan **out, struct tn_sched *s, const struct tn_plan_params *par,
                  char *err, size_t errlen);
void tn_plan_free(struct tn_plan *p);

/* Independent check of a plan against the device rules (docs/hardware.md):
 * selects name existing ports and lanes that carry a descriptor, a lane's
 * inject descriptors of a round follow each other without overlap, each
 * eject lane has one descriptor per round, eject lanes listen to ports
 * whose link is driven, injects read held words, ejects write disjoint
 * words after the held ones, everything within MEM_DEPTH, no flit memory
 * bank conflict (tn_plan_bank_check), no word sent less than 2 cycles
 * after its store (tn_plan_store_check). Violations go to rep (kinds of
 * sched.h); 0, TN_EVERIFY or TN_ENOMEM. tn_report_free() releases rep. */
struct tn_report;
int tn_plan_check(const struct tn_plan *p, struct tn_report *rep);

/* A flit memory bank conflict: two inject lanes of node read bank in the
 * same cycle (write 0), or two eject lanes write it (write 1); lane[0] <
 * lane[1]; cycle is round-relative (0 = the round's switch cycle). */
struct tn_bank_conflict {
    uint32_t round, node, bank;
    uint8_t write;
    uint8_t lane[2];
    uint64_t cycle;
};
/* Exact check of every node's bank ports, cycle by cycle as the hardware
 * uses them (docs/hardware.md "Flit memory banks"): inject lane reads from
 * the descriptors (chains and cuts included), eject lane writes from the
 * flits' arrival cycles (circuits traced back through the crossbars, relay
 * packets replayed as the routers allocate them). 0 if none; TN_ECAPACITY
 * with the first conflict in *c (if c) and a message naming node, round,
 * lanes, bank and cycle in err; TN_ENOMEM. tn_plan_lower runs it. */
int tn_plan_bank_check(const struct tn_plan *p, struct tn_bank_conflict *c, char *err,
                       size_t errlen);

/* A word of node sent too soon after its store: eject lane store_lane
 * stores it gap (0 or 1) cycles before inject lane send_lane sends it in
 * round-relative cycle (the lane reads it one cycle earlier: in the cycle
 * of the write, gap 1, whose outcome is the block RAM's; before it, gap 0,
 * the old word where the model has the new). */
struct tn_store_hazard {
    uint32_t round, node;
    uint8_t send_lane, store_lane;
    uint64_t word, cycle;
    unsigned gap;
};
/* Every word an inject lane sends is sent 2 or more cycles after any
 * store of it by an eject lane in the round (or before that store), from
 * the same accesses as tn_plan_bank_check. 0 if so; TN_ECAPACITY with the
 * first word sent too soon in *h (if h) and a message naming node, round,
 * lanes, word and cycle in err; TN_ENOMEM. tn_plan_lower runs it. */
int tn_plan_store_check(const struct tn_plan *p, struct tn_store_hazard *h, char *err,
                        size_t errlen);

/* Memory layout: message ids held by node after round r (r = 0: before
 * the first round; message i occupies logical words [i*L, (i+1)*L), at
 * physical words tn_plan_addr()). Returns the number of messages; writes
 * at most cap ids. */
uint32_t tn_plan_mem_msgs(const struct tn_plan *p, uint32_t r, uint32_t node, uint32_t *ids,
                          uint32_t cap);
/* Physical address of logical word w of node's message layout. */
uint64_t tn_plan_addr(const struct tn_plan *p, uint32_t node, uint64_t w);
/* Logical word at physical address a of node (false: a is in a gap). */
bool tn_plan_word(const struct tn_plan *p, uint32_t node, uint64_t a, uint64_t *w);
/* Physical words [0, held) the message layout of node spans after round r
 * (r = 0: before the first round; gaps included). */
uint64_t tn_plan_held(const struct tn_plan *p, uint32_t r, uint32_t node);

/* Payload: data of flit k of message m for seed S, masked to width bits:
 * z = S ^ (m << 32 | k), then the splitmix64 finalizer (docs/host.md). */
uint32_t tn_payload(uint64_t seed, uint32_t m, uint32_t k, unsigned width);
/* Expected initial memory of node: physical words [0, n) with the payload
 * words of the messages it holds before round 0 at their placed addresses
 * and 0 in gaps. Returns n = tn_plan_held(p, 0, node) (writes at most
 * cap). */
uint32_t tn_plan_init_mem(const struct tn_plan *p, uint64_t seed, uint32_t node,
                          uint32_t *words, uint32_t cap);

#endif
