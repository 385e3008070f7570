/* SPDX-License-Identifier: MIT */
/* Collectives by request: one table of the collectives (gossip,
 * broadcast, alltoall, scatter, gather, p2p, perm) with, for each, the
 * request fields it reads (named as the torusctl options that set them),
 * its builder, its closed form and the lines and JSON object of its
 * report. tn_run (run.h) builds through it; torusctl run and schedule have
 * no per-collective code of their own. Adding a collective: its
 * algorithm (host/algo/) and one entry in host/run/coll.c. */
#ifndef TN_COLL_H
#define TN_COLL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "a2a.h"
#include "algo.h"
#include "p2p.h"
#include "perm.h"
#include "sched.h"
#include "sg.h"

/* What to build. Fields a collective does not read are ignored (its
 * entry's option lists say which it reads). */
struct tn_coll_req {
    enum tn_coll coll;
    const char *algo;          /* gossip, broadcast: NULL or "auto" for the cheapest */
    uint32_t msg_flits;        /* L (p2p: the message, mu), >= 1 */
    unsigned ports;            /* 6 or 1; 0: the device's (6 with 6 lanes, else 1) */
    uint32_t root;             /* broadcast, scatter, gather; p2p: the source */
    const uint32_t *lengths;   /* scatter, gather: one per node, or NULL */
    bool random_lengths;       /* without lengths: uniform in 0..L from seed */
    uint64_t seed;             /* random lengths, permutation, search tie breaks */
    double search_s;           /* alltoall, perm: the liquid search's bound (0: 10 s) */
    enum tn_a2a_kind a2a_kind; /* alltoall: liquid or round-robin */
    enum tn_switching sw;      /* p2p, perm */
    unsigned distance;         /* p2p: hops, 1..diameter */
    uint32_t packet_flits;     /* p2p: payload flits per packet (0: one packet) */
    enum tn_sg_tree sg_tree;   /* scatter, 6 ports: DOR tree, six trees or auto (0) */
    enum tn_perm perm;         /* perm */
};

/* What building gives: the schedule, the closed form, the collective's
 * own figures. */
struct tn_coll_built {
    enum tn_coll coll;
    struct tn_sched *s;        /* the caller's to free (tn_coll_built_free) */
    unsigned ports, alpha;     /* as built */
    uint32_t msg_flits;
    enum tn_switching sw;      /* p2p, perm */
    enum tn_perm perm;
    bool built;                /* false: s came from a file, no figures below */
    bool have_formula;
    struct tn_cost formula;
    union {
        struct tn_sg_info sg;
        struct tn_p2p_info p2p;
        struct tn_a2a_info a2a;
        struct tn_perm_report perm;
    } x;
};

/* Build r on t for a device of lanes lanes and switch cost alpha: 0, or
 * TN_EINVAL / TN_ENOTSUP / TN_ENOMEM / TN_ECAPACITY (the host's memory)
 * with a one-line message in err. */
int tn_coll_build(const struct tn_coll_req *r, const struct tn_topo *t, unsigned lanes,
                  unsigned alpha, struct tn_coll_built *b, char *err, size_t errlen);
/* A built record for a schedule from a file (no closed form). */
void tn_coll_from_sched(struct tn_coll_built *b, struct tn_sched *s);
void tn_coll_built_free(struct tn_coll_built *b);

/* Whether collective c reads the request field set by option (a long
 * option name of torusctl run, or of schedule when sched). */
bool tn_coll_reads(enum tn_coll c, bool sched, const char *option);
/* Whether some collective reads it (else the option is not a collective
 * option). */
bool tn_coll_option(bool sched, const char *option);
/* Whether `torusctl schedule` builds c (p2p and perm run on a device only). */
bool tn_coll_schedulable(enum tn_coll c);

/* The report: the "cycles formula" line(s), then the collective's own
 * lines; res NULL when nothing was measured (a schedule). */
struct tn_run_result;
void tn_coll_formula_text(FILE *f, const struct tn_coll_built *b,
                          const struct tn_run_result *res);
void tn_coll_text(FILE *f, const struct tn_coll_built *b, const struct tn_run_result *res);
/* The collective's own JSON object (jansson; NULL: it has none), named
 * after it: a new reference, the caller's to json_decref or to hand on. */
struct json_t;
struct json_t *tn_coll_json(const struct tn_coll_built *b, const struct tn_run_result *res);

#endif
