/* SPDX-License-Identifier: MIT */
/* Values of `torusctl run` options read from text: the --lengths file and
 * the --fault specification, and applying that fault to a compiled image.
 * In the library so that the fuzz targets (tests/fuzz/) reach the same
 * parsers as the CLI. */
#ifndef TN_RUNOPT_H
#define TN_RUNOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fault.h"
#include "image.h"
#include "plan.h"

/* Largest --lengths value (flits of one message). */
#define TN_LENGTH_MAX (1u << 24)

/* Parse n whitespace-separated lengths in 0..TN_LENGTH_MAX from f ('#'
 * starts a comment to the end of the line) into len[0..n). 0, or
 * TN_EPARSE with "line L: ..." in err (a bad or over-long word, more or
 * fewer than n values); len is then partly written. */
int tn_lengths_parse(FILE *f, uint32_t *len, uint32_t n, char *err, size_t errlen);
/* --msg-flits L for n nodes: every length L, or (random) uniform in 0..L
 * from seed (0: a null message). */
void tn_lengths_fill(uint32_t *len, uint32_t n, uint32_t L, bool random, uint64_t seed);

/* A deliberate fault (--fault KIND:ARG): in the compiled image, or on a
 * link while the schedule runs (TN_FAULT_LINK, fault.h). */
struct tn_fault {
    enum { TN_FAULT_NONE, TN_FAULT_PAYLOAD, TN_FAULT_DURATION, TN_FAULT_ROUNDS,
           TN_FAULT_LINK } kind;
    uint32_t arg;
    struct tn_link_fault link;  /* TN_FAULT_LINK */
};
/* Parse "payload:NODE", "duration:ROUND" (from 1) or "rounds:N" (ARG decimal,
 * 0..2^32-1), or "link:NODE:DIR:CYCLE:BIT|drop" (tn_link_fault_parse): 0
 * or TN_EINVAL (f->kind TN_FAULT_NONE). */
int tn_fault_parse(const char *s, struct tn_fault *f);
/* Apply f to img (after the model ran on the correct plan p): 0, or
 * TN_EINVAL when it names nothing in the image (a link fault never does),
 * TN_ENOTSUP for duration:ROUND on a round of TN_ROUND_MIN cycles (one
 * cycle short runs as long: nothing would change). img is unchanged on
 * an error. */
int tn_fault_apply(struct tn_image *img, const struct tn_fault *f, const struct tn_plan *p);

#endif
