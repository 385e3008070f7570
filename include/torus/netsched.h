/* SPDX-License-Identifier: MIT */
/* The traffic of a network file (docs/traffic-format.md) scheduled in
 * steps: a liquid schedule (liquid.h) or the round-robin baseline, with
 * Lambda, the bottleneck links and every transfer's end nodes, written as
 * text, JSON or an SVG step-by-link chart (torusctl schedule alltoall
 * --network FILE: the paper's Fig. 7 in one command). */
#ifndef TN_NETSCHED_H
#define TN_NETSCHED_H

#include <stdbool.h>
#include <stdio.h>

#include "liquid.h"
#include "traffic.h"

struct tn_netsched {
    const char *path;
    struct tn_traffic t;
    int lambda;               /* the traffic's duration */
    int *load;                /* per link */
    bool liquid;              /* the liquid search (else round-robin) */
    int *step_of, steps;      /* the schedule: step of every transfer */
    int rr_steps;             /* the round-robin baseline's length */
    struct tn_liquid_stats st;  /* liquid only */
    int *src, *dst;           /* per transfer: its end nodes */
};

/* Read path and schedule its traffic (liquid: within seconds, from seed).
 * 0, or TN_EIO / TN_EPARSE (a message with file:line on stderr), TN_EINVAL
 * (a file without transfers or node names) or TN_ENOMEM. */
int tn_netsched_build(struct tn_netsched *ns, const char *path, bool liquid, double seconds,
                      unsigned seed);
void tn_netsched_free(struct tn_netsched *ns);

/* The summary and every step's transfers ("s1>r4"), as torusctl prints it. */
void tn_netsched_print(const struct tn_netsched *ns, FILE *f);
/* JSON: network, counts, Lambda, bottlenecks, steps (each a list of
 * {src, dst, links}); 0, TN_ENOMEM or TN_EIO. */
int tn_netsched_write_json(const struct tn_netsched *ns, FILE *f);
/* SVG: a row per link, a column per step, every transfer a cell on each
 * of its links, coloured by its sender and labelled with its receiver;
 * bottleneck links in bold. 0 or TN_EIO. */
int tn_netsched_write_svg(const struct tn_netsched *ns, FILE *f);

#endif
