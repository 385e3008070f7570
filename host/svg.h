/* SPDX-License-Identifier: MIT */
/* Space-time diagram of a schedule as SVG: time across (cycles from T0,
 * rounds separated by lines), one row per link the schedule uses (arc
 * "node dir"), and every stream a band on each of its links during the
 * cycles it holds it (docs/timing.md: arc at depth h from cycle T_r +
 * alpha + start + h for flits cycles), coloured by its first message, as
 * the papers' parallelogram figures. */
#ifndef TN_SVG_H
#define TN_SVG_H

#include <stdio.h>

#include "sched.h"

/* 0, TN_ENOMEM or TN_EIO. The schedule is laid out on demand. tn_svg_save
 * writes path as outfile.h says ("-": standard output). */
int tn_svg_write(struct tn_sched *s, unsigned alpha, FILE *f);
int tn_svg_save(struct tn_sched *s, unsigned alpha, const char *path);

/* Text as XML character data and attribute values (& < > " ' escaped). */
void tn_svg_text(FILE *f, const char *s);

#endif
