/* SPDX-License-Identifier: MIT */
/* The collectives on torusctl's command line: naming one, and the
 * collective options each accepts (the library's table, coll.h). */
#ifndef TN_COLLS_H
#define TN_COLLS_H

#include <stdbool.h>
#include <stdint.h>

#include "coll.h"

/* The collective name names (cmd: the message prefix; sched: for
 * `schedule`, which refuses the device-only ones): 0, or -1 with a
 * message listing the collectives. */
int coll_parse(const char *cmd, const char *name, bool sched, enum tn_coll *c);

/* The first option given (getopt codes in given, long names in opts)
 * that is a collective option c does not read in the command (sched:
 * `schedule`); any collective option when file (a schedule file holds the
 * collective). NULL when none. */
struct option;
const char *coll_stray_option(enum tn_coll c, bool sched, bool file, const struct option *opts,
                              const char *given);

/* --tree T: dor, six or auto into *tree; false with a message prefixed
 * by cmd. */
bool coll_parse_tree(const char *cmd, const char *arg, enum tn_sg_tree *tree);

/* --lengths FILE: n lengths (tn_lengths_parse) into len; false with a
 * message prefixed by cmd. */
bool coll_read_lengths(const char *cmd, const char *path, uint32_t *len, uint32_t n);

#endif
