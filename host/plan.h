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
};

/* Crossbar field encodings (round config fields 0..5 and 8..13). */
#define TN_SEL_OFF 0
#define TN_SEL_LANE(l) (1 + (l))
#define TN_SEL_PORT(p) (8 + (p))
#define TN_SEL_RELAY 15           /* allocated by head flits (relay mode) */
#define TN_PORT_RELAY 0xFF        /* tn_eject.port of a relay eject lane */
#define TN_MODE_DOR 1u            /* round config field 6: relay routing by DOR */

struct tn_inject {
    uint32_t node;
    uint8_t lane;
    uint32_t start;           /* offset after the switch, cycles */
    uint32_t addr, len;       /* first memory word, flits */
    uint32_t run, skip;       /* gather: flit k reads addr + k + (k / run) *
                               * skip; run 0: contiguous (both < 2^16) */
    uint32_t circuit;         /* index in the schedule's round (relay: of
                               * the lane's first packet in the round's relays) */
    uint8_t relay;            /* field 16+3l bit 30: head flits are routed */
};

/* qsort orders of a round's descriptors: by node, then lane. */
int tn_plan_cmp_inj(const void *a, const void *b);
int tn_plan_cmp_ej(const void *a, const void *b);

/* Memory word flit k of inject descriptor in reads. */
static inline uint64_t tn_inject_word(const struct tn_inject *in, uint64_t k)
{
    return in->addr + k + (in->run ? k / in->run * in->skip : 0);
}

struct tn_eject {
    uint32_t node;
    uint8_t lane, port;       /* lane and the input port it listens to */
    uint32_t addr, len;       /* first memory word written, expected flits */
    uint32_t circuit;
};

struct tn_plan_round {
    uint64_t t0;              /* first cycle of the round, relative to T0 */
    uint64_t duration;        /* D_r */
    uint8_t *xbar;            /* per node 12 bytes: out_sel[0..5] (field
                               * 0..5), ej_src[0..5] (field 8..13) */
    uint8_t mode;             /* field 6 (TN_MODE_DOR in relay rounds) */
    uint32_t ninj, nej;
    struct tn_inject *inj;    /* sorted by node, lane */
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
    /* Relay packets (host/plan_relay.c): every packet is staged at its
     * source, head word and the words of its messages, from word mem_base
     * on (above the message layout), and received into an area above the
     * layout at its destination; stage[] lists them for the image. */
    uint64_t mem_base;        /* words of the message layout (relay areas above);
                               * 0 with relay packets: no circuit round, the
                               * layout is not loaded */
    uint32_t nstage;
    struct tn_plan_stage *stage;
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
 * lengths with circuits, W < 12 or a dimension > 15 for DOR heads),
 * TN_ECAPACITY, TN_ENOMEM. */
int tn_plan_lower_relay(struct tn_plan *p, char *err, size_t errlen);
/* Words and MEM flags (bit 0 head, bit 1 tail) of staged packet i for
 * seed; returns the word count (writes at most cap). */
uint32_t tn_plan_stage_words(const struct tn_plan *p, uint32_t i, uint64_t seed, uint32_t *data,
                             uint8_t *flags, uint32_t cap);
/* The reference model of the relay rounds (host/model_relay.c): fills the
 * statistics of the relay eject lanes cycle by cycle (head routing by DOR,
 * hold until the tail, collisions dropped as the hardware does). Called by
 * tn_model_run. */
struct tn_model_out;
int tn_model_relay(const struct tn_plan *p, uint64_t seed, struct tn_model_out *out);

/* Lower a (verified) schedule. TN_ECAPACITY when it needs more lanes or
 * memory than par gives, TN_EVERIFY when it is structurally broken (run
 * tn_verify for the details), TN_EINVAL for bad parameters; a message goes
 * to err. */
int tn_plan_lower(struct tn_plan **out, struct tn_sched *s, const struct tn_plan_params *par,
                  char *err, size_t errlen);
void tn_plan_free(struct tn_plan *p);

/* Independent check of a plan against the device rules (docs/hardware.md):
 * selects name existing ports and lanes that carry a descriptor, each
 * inject/eject lane has one descriptor, eject lanes listen to ports whose
 * link is driven, injects read held words, ejects write disjoint words after
 * the held ones, everything within MEM_DEPTH. Violations go to rep (kinds
 * of sched.h); 0, TN_EVERIFY or TN_ENOMEM. tn_report_free() releases rep. */
struct tn_report;
int tn_plan_check(const struct tn_plan *p, struct tn_report *rep);

/* Memory layout: message ids held by node after round r (r = 0: before
 * the first round; message i occupies words [i*L, (i+1)*L)). Returns the
 * number of messages; writes at most cap ids. */
uint32_t tn_plan_mem_msgs(const struct tn_plan *p, uint32_t r, uint32_t node, uint32_t *ids,
                          uint32_t cap);

/* Payload: data of flit k of message m for seed S, masked to width bits:
 * z = S ^ (m << 32 | k), then the splitmix64 finalizer (docs/host.md). */
uint32_t tn_payload(uint64_t seed, uint32_t m, uint32_t k, unsigned width);
/* Expected initial memory of node (payload words of the messages it holds
 * before round 0, in layout order). Returns the number of words (writes at
 * most cap). */
uint32_t tn_plan_init_mem(const struct tn_plan *p, uint64_t seed, uint32_t node,
                          uint32_t *words, uint32_t cap);

/* ---- reference model ---- */

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
};

int tn_model_run(const struct tn_plan *p, uint64_t seed, enum tn_engine engine,
                 struct tn_model_out *out);
void tn_model_free(struct tn_model_out *out);

#endif
