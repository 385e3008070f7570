/* SPDX-License-Identifier: MIT */
/* Diagrams as SVG, in the style of the papers' space-time figures.
 *
 * The schedule: time across (cycles from T0, an axis with ticks, every
 * round's boundary a line and its number above), one row per link (arc
 * "node dir", a label on every row), and every stream a band on each of
 * its links during the cycles it holds it (docs/timing.md: the arc at
 * depth h from cycle T_r + alpha + start + h), cut into its messages,
 * each message in its own colour (a relay packet's head flit grey), with
 * a legend of the messages drawn. Large tori: draw a selection of the
 * links (struct tn_svg_opts).
 *
 * The rounds: a bar chart of measured against model cycles per round
 * (torusctl run --svg-rounds). */
#ifndef TN_SVG_H
#define TN_SVG_H

#include <stdio.h>

#include "sched.h"

struct tn_svg_opts {
    unsigned alpha;           /* round switch cost the timing uses */
    int node;                 /* >= 0: only the links out of and into this node */
    int dim;                  /* >= 0: only the links of this dimension (0 X, 1 Y, 2 Z) */
};

/* "all", "node:N" or "dim:X|Y|Z" (--svg-rows) into o's selection: 0 or
 * TN_EINVAL (also for a node not in t or a dimension of size 1). */
int tn_svg_rows_parse(const char *s, const struct tn_topo *t, struct tn_svg_opts *o);

/* 0, TN_ENOMEM or TN_EIO. The schedule is laid out on demand. tn_svg_save
 * writes path as outfile.h says ("-": standard output). */
int tn_svg_write(struct tn_sched *s, const struct tn_svg_opts *o, FILE *f);
int tn_svg_save(struct tn_sched *s, const struct tn_svg_opts *o, const char *path);

/* Bar chart of nrounds rounds: measured[r] beside model[r] cycles, titled
 * title; written as outfile.h says. 0, TN_ENOMEM or TN_EIO. */
int tn_svg_rounds_save(const char *path, const char *title, uint32_t nrounds,
                       const uint64_t *measured, const uint64_t *model);

/* Text as XML character data and attribute values (& < > " ' escaped). */
void tn_svg_text(FILE *f, const char *s);

#endif
