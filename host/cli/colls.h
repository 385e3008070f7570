/* SPDX-License-Identifier: MIT */
/* The collectives as torusctl builds and reports them: one entry per
 * collective (colls.c) with the options it accepts in `run` and in
 * `schedule`, its builder, its closed-form line and the lines and JSON
 * object of its report. `run` and `schedule` have no per-collective
 * branch of their own: adding a collective is its library builder
 * (host/algo/) plus one entry here. */
#ifndef TN_COLLS_H
#define TN_COLLS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "a2a.h"
#include "algo.h"
#include "p2p.h"
#include "perm.h"
#include "run.h"
#include "sched.h"
#include "sg.h"

/* What a collective is built from (options, the device or, for
 * `schedule`, its stand-in) and what building it gives. */
struct coll_build {
    const char *cmd;             /* "torusctl run": prefix of messages */
    enum tn_coll coll;
    const struct tn_topo *topo;
    struct tn_algo_opts *ao;     /* algo, L, ports (0: 6 with 6 lanes, else 1),
                                  * alpha (the device's), root */
    unsigned lanes;              /* the device's lanes */
    uint64_t seed;
    double search_s;             /* liquid searches */
    const char *lengths_file;    /* scatter/gather: --lengths, or NULL */
    bool random_lengths;
    struct tn_p2p_opts *po;      /* p2p and perm: switching, distance, packets */
    enum tn_a2a_kind a2a_kind;
    enum tn_perm perm_kind;
    /* built */
    struct tn_sched *s;
    bool built;                  /* the extras below are this collective's */
    struct tn_cost formula;
    bool have_formula;
    union {
        struct tn_sg_info sg;
        struct tn_p2p_info p2p;
        struct tn_a2a_info a2a;
        struct tn_perm_report perm;
    } x;
};

struct coll_entry {
    enum tn_coll coll;
    /* The collective options (long names, space separated) it accepts in
     * `run` and in `schedule` (NULL: `schedule` refuses it, it runs on
     * the device only). Options no entry lists are not collective
     * options: they apply to every collective. */
    const char *run_opts, *sched_opts;
    /* Build b->s (and the closed form, the extras): an exit code, the
     * message printed. */
    int (*build)(struct coll_build *b);
    /* The closed form, after "cycles formula" (NULL: the default, rounds
     * alpha + delta + tau). */
    void (*formula_text)(FILE *f, const struct coll_build *b, const struct tn_run_result *res);
    /* The collective's own report lines and JSON object (NULL: none);
     * res is NULL for `schedule` (nothing measured). */
    void (*text)(FILE *f, const struct coll_build *b, const struct tn_run_result *res);
    json_t *(*json)(const struct coll_build *b, const struct tn_run_result *res);
};

const struct coll_entry *coll_entry(enum tn_coll c);

/* The collective named by argv (cmd: the message prefix; sched: for
 * `schedule`, which refuses the device-only ones): its entry, or NULL
 * with a message listing the collectives. */
const struct coll_entry *coll_parse(const char *cmd, const char *name, bool sched);

/* The first option given (getopt codes in given, long names in opts)
 * that is a collective option not accepted by e in the command (sched:
 * `schedule`); every collective option when file (a schedule file holds
 * the collective). NULL when none. */
struct option;
const char *coll_stray_option(const struct coll_entry *e, bool sched, bool file,
                              const struct option *opts, const char *given);

/* Build b's collective (the root, machine-memory and per-collective
 * checks first): an exit code, the message printed. */
int coll_build(struct coll_build *b);

/* The "cycles formula" line(s) of a report (res NULL: nothing measured). */
void coll_formula_line(FILE *f, const struct coll_build *b, const struct tn_run_result *res);

#endif
