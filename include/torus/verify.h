/* SPDX-License-Identifier: MIT */
/* The verifier (docs/host.md "Verifier"): checks any schedule, ours or
 * imported, for structure, arc conflicts, lanes, message possession,
 * completeness, memory and round durations, and reports every violation
 * with its round, circuit, arc and node. */
#ifndef TN_VERIFY_H
#define TN_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sched.h"

enum tn_viol_kind {
    TN_V_ARC,        /* arc does not exist (node out of range, no such link) */
    TN_V_PATH,       /* arc not connected to the circuit (broken path/tree) */
    TN_V_EJECT,      /* ejecting node not on the circuit or listed twice */
    TN_V_LEAF,       /* a branch ends in a node that does not eject */
    TN_V_CONFLICT,   /* arc used twice in one round */
    TN_V_LANE,       /* more streams injected/ejected at a node than lanes */
    TN_V_MSG,        /* source does not hold a message it sends */
    TN_V_CONTIG,     /* messages not contiguous in the source's memory */
    TN_V_EMPTY,      /* circuit without messages or without arcs */
    TN_V_MISSING,    /* at the end a node lacks a message it must hold */
    TN_V_MEM,        /* memory exceeds MEM_DEPTH */
    TN_V_DURATION,   /* round duration too short for its streams */
    TN_V_SRC,        /* source node out of range */
    TN_V_COLLISION,  /* relay stream meets another stream on an arc */
    TN_V_BANK,       /* plan: two lanes of a node use one memory bank in one cycle */
    TN_V_DUPLICATE,  /* personalised: a node receives its message more than once */
    TN_V_EXTRA,      /* personalised: a node receives a message for another node
                      * and never sends it on */
    TN_V_STORE,      /* plan: a word sent less than 2 cycles after its store */
};

struct tn_violation {
    int kind;
    int32_t round, circuit, arc; /* -1 when not applicable */
    int64_t node;                /* -1 when not applicable */
    char text[160];
};

struct tn_verify_opts {
    unsigned lanes;          /* 0: the schedule's port model */
    uint64_t mem_depth;      /* 0: no memory check */
    unsigned max_report;     /* violations kept (0: 100) */
    /* Relay streams that meet are the experiment, not a fault (run perm
     * --switching relay: the routers drop what collides and the model
     * predicts it): counted in relay_meets instead of reported. */
    bool relay_meets_ok;
};

struct tn_report {
    uint32_t nviol;          /* total found */
    uint32_t nkept;
    struct tn_violation *viol;
    struct tn_cost cost;     /* at the schedule's alpha */
    struct tn_bounds bounds;
    uint32_t relay_meets;    /* with relay_meets_ok: relay-collision findings */
    uint32_t *round_dmax;    /* per round longest path */
    uint64_t *round_lmax;    /* per round longest start + stream */
    uint64_t *round_need;    /* per round max(start + depth + flits) */
    uint64_t mem_max_words;  /* largest memory used by any node */
    uint32_t complete_nodes; /* nodes holding what the collective requires */
};

/* Verify s (laid out on demand). Returns 0 if no violation, TN_EVERIFY if
 * any (listed in rep), TN_ENOMEM. tn_report_free() releases rep. */
int tn_verify(struct tn_sched *s, const struct tn_verify_opts *o, struct tn_report *rep);
void tn_report_free(struct tn_report *rep);
/* Print the per-round table, cost at alpha against the bounds, and up to
 * max_viol violations (what torusctl schedule/verify show). */
void tn_report_print(FILE *f, const struct tn_sched *s, const struct tn_report *rep,
                     unsigned alpha, unsigned max_viol);
const char *tn_viol_name(int kind);

#endif
