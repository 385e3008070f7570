/* SPDX-License-Identifier: MIT */
/* The device side of a run: load a compiled image (image.h), start the
 * collective, wait for its end and read every eject record back, comparing
 * each with the reference model's prediction (plan.h: tn_model_run) and,
 * where the model predicts relay collisions, every router's counters.
 * torusctl run builds, verifies, lowers and reports around these calls;
 * examples/gossip_sim.c uses them as a program of its own would. */
#ifndef TN_RUN_H
#define TN_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "coll.h"
#include "fault.h"
#include "image.h"
#include "model.h"
#include "plan.h"
#include "proto.h"
#include "runopt.h"
#include "verify.h"

/* Mismatches kept with their text (all are counted). */
#define TN_RUN_MAX_LISTED 20

/* What differs from the model. */
enum tn_mis_kind { TN_MIS_NOT_FILED, TN_MIS_DATA, TN_MIS_TIMING, TN_MIS_NODE_LATCH,
                   TN_MIS_NODE_COUNTER, TN_MIS_TOTAL, TN_MIS_CLOSED_FORM };
/* "not-filed", "data", "timing", "node-latch", "node-counter",
 * "total-cycles", "closed-form". */
const char *tn_mis_kind_name(enum tn_mis_kind k);

struct tn_mismatch {
    enum tn_mis_kind kind;
    uint32_t round, node, lane; /* from 0; UINT32_MAX: none (a node's, or the whole run's) */
    char what[160];
};

struct tn_run_result {
    uint64_t measured, model;           /* END_CYCLE - START_CYCLE; the model's total */
    uint64_t *round_meas, *round_model; /* per round: last flit + 1 - round start */
    uint64_t flit_hops;                 /* the caller's (report only) */
    uint32_t nmis;
    struct tn_mismatch listed[TN_RUN_MAX_LISTED];
    uint32_t hw_err_desc;               /* descriptors with error bits */
    uint32_t err_nodes;                 /* nodes in ERRMAP */
    uint32_t status;
    uint64_t net_cycles;                /* network clocks simulated (0: not known) */
    bool data_ok, cycles_ok;
    /* relay rounds where the model predicts collisions, unroutable heads or
     * dropped flits (run perm --switching relay): every node's status
     * counters are compared with the model's (TN_RELAY_*) instead of
     * failing on the error bit */
    bool relay_events;
    uint64_t relay_dev[3], relay_model[3];
    uint8_t *bad;                       /* per eject descriptor (model order): its record
                                         * differs from the model (NULL: not kept) */
    struct tn_record *rec;              /* per eject descriptor: the device's record, its
                                         * count masked (NULL: not kept) */
};

/* res for a plan p of nrounds rounds and mo's nstats predictions: zeroed,
 * its arrays allocated. 0 or TN_ENOMEM; tn_run_result_free() releases. */
int tn_run_result_init(struct tn_run_result *res, const struct tn_plan *p,
                       const struct tn_model_out *mo);
void tn_run_result_free(struct tn_run_result *res);
void tn_run_add_mismatch(struct tn_run_result *res, enum tn_mis_kind k, uint32_t r, uint32_t v,
                         uint32_t l, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Write img to the device (after CTRL clear: the caller's), its progress on
 * stderr unless quiet. 0 or a TN_E* of the protocol. */
int tn_run_load(struct tn_proto *dev, const struct tn_image *img, bool quiet);
/* Start the loaded schedule, wait for the end and compare every record
 * and the total with the model into res (its arrays kept, the rest
 * cleared): 0 or a TN_E* code (a transport error, TN_ENOMEM). The run's
 * and the readback's seconds go to tm[0], tm[1]. An aborted run (status
 * bit 3) is not read back. */
int tn_run_execute(struct tn_proto *dev, const struct tn_info *info, const struct tn_plan *p,
                   const struct tn_model_out *mo, struct tn_run_result *res, bool quiet,
                   double tm[2]);

/* ---- the whole pipeline ---- */

/* The stages of tn_run, as each one ends. */
enum tn_run_stage { TN_STAGE_PREPARED, TN_STAGE_COMPILED, TN_STAGE_LOADED, TN_STAGE_RAN };
struct tn_run_report;

/* How tn_run runs. */
struct tn_run_opts {
    uint64_t seed;               /* the payload data (and the model's) */
    const struct tn_fault *fault;/* a deliberate fault (runopt.h), or NULL */
    bool quiet;                  /* no progress lines on stderr */
    bool load_only;              /* stop after loading (repeated runs of one image) */
    /* Called as each stage ends well (NULL: not), e.g. to say so: the
     * schedule built, verified, lowered and predicted; the image compiled;
     * loaded; run and read back. */
    void (*on_stage)(void *ctx, enum tn_run_stage stage, const struct tn_run_report *r);
    void *ctx;
};

/* Everything a run gives, for the report. */
struct tn_run_report {
    struct tn_coll_built b;      /* the schedule (b.s) and its closed form */
    struct tn_report verify;     /* the verifier's figures: rounds, bounds, memory */
    struct tn_plan *plan;
    struct tn_model_out model;
    struct tn_image image;
    struct tn_run_result res;    /* measured against the model */
    uint64_t lower;              /* lower bound: rounds alpha + delta + tau */
    uint32_t fault_round, fault_rcyc; /* a link fault's placement */
    double tm[5];                /* seconds: schedule (build, verify, lower, model),
                                  * compile, load, run, readback */
    bool device_failed;          /* the error came from the device (load, run,
                                  * readback, an aborted run) */
};

/* Build req (or take s, a schedule read from a file: rep owns it then),
 * verify it, lower it to the device info describes, predict it with the
 * reference model, compile and load it into dev, run it and read every
 * record back against the model and the closed form. 0 when all of it
 * happened (the verdict is rep->res.data_ok and cycles_ok), else a TN_E*
 * code with one line in err: TN_EINVAL / TN_ENOTSUP (the request),
 * TN_EVERIFY (the schedule; rep->verify lists the violations),
 * TN_ECAPACITY (the device or the host cannot hold it;
 * rep->verify.mem_max_words against info->mem_depth for the memory),
 * TN_ENOMEM, TN_EINTR (interrupted), or a device error. Free rep with
 * tn_run_report_free whatever it returns. */
int tn_run(struct tn_proto *dev, const struct tn_info *info, const struct tn_coll_req *req,
           struct tn_sched *s, const struct tn_run_opts *o, struct tn_run_report *rep,
           char *err, size_t errlen);
void tn_run_report_free(struct tn_run_report *rep);
/* Arm a link fault (f placed in round and rcyc; NULL disarms): 0 or a
 * TN_E* of the protocol. */
int tn_run_set_link_fault(struct tn_proto *dev, const struct tn_link_fault *f, uint32_t round,
                          uint32_t rcyc);

/* Progress on stderr for work that takes more than a second: a terminal
 * gets one updating line, a log a line every 10 s; nothing when quiet. */
struct tn_progress {
    const char *what;
    double t0, last;
    bool shown;
    bool quiet;
};
void tn_progress(struct tn_progress *p, uint64_t done, uint64_t total);
void tn_progress_end(struct tn_progress *p);

#endif
