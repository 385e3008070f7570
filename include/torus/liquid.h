/* SPDX-License-Identifier: MIT */
/* Liquid schedule search (Gabrielyan & Hersch): a schedule whose length
 * equals the traffic's duration Lambda. Each step of a liquid schedule
 * is a team (a simultaneous subset using every bottleneck, Theorem 1);
 * removing a step leaves a liquid schedule of the rest (Theorem 2); so a
 * depth-first search over the teams of the current sub-traffic is
 * complete (Theorem 3), and may be restricted to full teams. Teams are
 * generated without repetition as skeletons (bottleneck covers) extended
 * by non-congesting transfers in every maximal way. Further sound
 * reductions (docs/collectives.md): the step holding a fixed transfer is
 * taken first, and sub-traffics proved to have no liquid schedule are
 * remembered. When the exhaustive search cannot finish in its share of
 * the time bound (or the traffic is too large for it), the same team
 * construction runs without backtracking across steps (the "team
 * sequence", restarted with random tie orders), and a partial-colouring
 * tabu search shortens the best of it, a greedy schedule and the
 * caller's start schedule step by step until the bound; the best
 * schedule found is returned with its gap to Lambda
 * (docs/collectives.md). */
#ifndef TN_LIQUID_H
#define TN_LIQUID_H

#include "traffic.h"

struct tn_liquid_opts {
    double seconds;     /* time bound for the whole search (<= 0: 10 s) */
    double exact_share; /* part of it for the exhaustive search (0..1) */
    int exact_max;      /* largest traffic (transfers) searched exactly */
    unsigned seed;      /* for the repair search's tie breaks */
    const int *start;   /* optional valid schedule to start from (e.g.
                           tn_traffic_torus_product), NULL: greedy */
    int start_steps;
};

struct tn_liquid_stats {
    int lambda;      /* duration of the traffic */
    int steps;       /* length of the returned schedule */
    int exhausted;   /* the exhaustive search finished: steps == lambda
                        means liquid, steps > lambda means none exists */
    int started;     /* the returned schedule is the start schedule or
                        was improved from it */
    long nodes;      /* teams tried by the exhaustive search */
    int sequence;    /* length of the team sequence (0: not run) */
    double sequence_seconds;
    int restarts;    /* randomised team sequences after the first */
    long moves;      /* repair moves */
    double seconds;  /* wall time of the whole search */
    double exact_seconds;
};

/* Default options: 10 s, half for the exhaustive search, exact up to
 * 20000 transfers. */
void tn_liquid_defaults(struct tn_liquid_opts *o);

/* Writes a schedule to step_of[] (steps 0..steps-1) and returns its
 * length, or a negative TN_E*. */
int tn_liquid_search(const struct tn_traffic *t, const struct tn_liquid_opts *o,
                     int *step_of, struct tn_liquid_stats *st);

#endif
