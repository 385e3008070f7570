/* SPDX-License-Identifier: MIT */
/* Traffic model of Gabrielyan & Hersch for any network with static
 * routing: a transfer is the set of links it uses (with the sender's
 * injection and the receiver's ejection links, so that the port model is
 * explicit); a traffic is a set of transfers. Load of a link = number of
 * transfers using it; bottlenecks = maximally loaded links; duration
 * Lambda(X) = the bottleneck load; liquid throughput = #(X)/Lambda(X)
 * link throughputs. A schedule is a partition of the traffic into
 * simultaneous steps (no two transfers of a step share a link). */
#ifndef TN_TRAFFIC_H
#define TN_TRAFFIC_H

#include <stdio.h>

#include "topo.h"

struct tn_traffic {
    int nlinks;
    int nx;      /* number of transfers */
    int *off;    /* links of transfer i: link[off[i] .. off[i+1]) */
    int *link;   /* sorted, no duplicates within a transfer */
    int *snd;    /* round-robin sender index of transfer i, -1 if none */
    int *rcv;    /* round-robin receiver index, -1 if none */
    int nsnd, nrcv;
    char **lname;  /* link names (NULL when not named) */
    int nnodes;    /* read from a file: its nodes, their names and */
    char **nname;  /* every link's end nodes (NULL otherwise) */
    int *lfrom, *lto;
    int capx, capl;
};

enum tn_port_model {
    TN_PORT_SINGLE = 0, /* one injection and one ejection link per node */
    TN_PORT_ALL = 1,    /* a port per direction: only the network arcs */
};

void tn_traffic_init(struct tn_traffic *t, int nlinks);
void tn_traffic_free(struct tn_traffic *t);
/* Adds a transfer using links[0..k) (any order, duplicates merged). */
int tn_traffic_add(struct tn_traffic *t, const int *links, int k, int snd,
                   int rcv);
/* Load of every link over the transfers with alive[i] != 0 (alive NULL:
 * all); returns Lambda = the maximum load. */
int tn_traffic_load(const struct tn_traffic *t, const unsigned char *alive,
                    int *load);
/* 0 when step_of[] (values 0..nsteps-1) partitions the traffic into
 * non-empty simultaneous steps, else TN_EVERIFY (message to stderr when
 * 'why' is set). */
int tn_traffic_check(const struct tn_traffic *t, const int *step_of,
                     int nsteps, int why);

/* Personalised all-to-all on a torus under dimension-order routing: one
 * transfer per ordered pair (s, d), s != d. Links 0..6n-1 are the arcs
 * (tn_arc_id); the single-port model adds injection link 6n+s and
 * ejection link 7n+d to each transfer. */
int tn_traffic_torus_a2a(struct tn_traffic *t, const struct tn_topo *c,
                         enum tn_port_model pm, enum tn_tie tie);

/* Reads a network + traffic file (docs/traffic-format.md). Returns 0,
 * TN_EIO, TN_EPARSE (message with file:line on stderr) or TN_ENOMEM. */
int tn_traffic_read(struct tn_traffic *t, const char *path);
int tn_traffic_parse(struct tn_traffic *t, FILE *f, const char *name);
/* The same for a file read for its network only (torusctl cdg): transfers
 * are optional. */
int tn_traffic_read_network(struct tn_traffic *t, const char *path);

/* Round-robin baseline: step k sends from sender i to receiver
 * (i + k) mod nrcv; a step whose transfers congest is split into
 * first-fit simultaneous sub-steps. Transfers outside the all-to-all
 * pattern follow in first-fit steps. Returns the number of (sub-)steps
 * or a negative TN_E*. */
int tn_roundrobin(const struct tn_traffic *t, int *step_of);

/* Product schedule of a torus all-to-all (built by
 * tn_traffic_torus_a2a with the same tie rule): for every dimension a
 * "ring Latin square" of k arc-disjoint ring permutations sigma_0 = id,
 * sigma_1..sigma_{k-1} (each node sends every offset in exactly one) is
 * searched; step (a,b,c) != (0,0,0) sends s to
 * (sigma_a(x), sigma_b(y), sigma_c(z)). Every step is a permutation with
 * arc-disjoint DOR paths, so the n - 1 steps are a liquid schedule of the
 * single-port traffic. Returns n - 1, or TN_ENOTSUP when a dimension has
 * no such square (it exists for k = 1, 2, 3, 5, 7; not for 4 with
 * + ties; k >= 8 is not searched). */
int tn_traffic_torus_product(const struct tn_traffic *t, const struct tn_topo *c,
                             enum tn_tie tie, int *step_of);

/* Quotient of the torus all-to-all (k x k x k) by the translations
 * H = {(a, b, a+b)}: every nonzero element of H moves at least two
 * coordinates, so the k^2 translates of a transfer use pairwise
 * distinct rows, columns and pillars, hence distinct arcs. Quotient
 * transfer (c, v) = the orbit of (0, 0, c) -> (0, 0, c) + v; quotient
 * link = an orbit of arcs (direction, (z - x - y) mod k), or of
 * injection/ejection links. A schedule of the quotient lifts (each orbit
 * in its quotient transfer's step) to a schedule of the full traffic of
 * the same length, with the same Lambda. Needs equal dimensions and, on
 * even rings, + ties. Returns 0, TN_ENOTSUP or TN_ENOMEM. */
int tn_traffic_torus_quotient(struct tn_traffic *q, const struct tn_topo *c,
                              enum tn_port_model pm, enum tn_tie tie);
/* Step classes of the all-port quotient q (tn_traffic_torus_quotient,
 * TN_PORT_ALL, + ties on even rings) of a k x k x k torus, k <= 10 (6k
 * quotient links in a 64-bit mask). Lambda = k^2 h (h + 1) / 2 with
 * h = floor(k / 2) (294 on 7x7x7, 640 on 8x8x8); the bottlenecks (load
 * Lambda) are every link when k is odd and the 3k + links when k is even
 * (the - links carry less), so each step of a schedule of Lambda steps
 * uses every bottleneck once.
 * Shifting a step by +1 in z moves every coset by one, so a "class" (a
 * set of offsets v with a start coset c_v whose quotient transfers
 * (c_v, v) cover every bottleneck once and the other links at most once)
 * gives k steps, its k shifts; Lambda / k classes holding every offset
 * once are a schedule of Lambda steps. For odd k each class is also
 * closed under the inversion x -> -x (then a shift t of the cosets): it
 * is built from pairs (c, v), (t - c, -v); for even k there is no such
 * symmetry and the offsets on no bottleneck (those with no + part) go
 * into the links the classes leave free, longest first. Classes are
 * exact covers of the bottlenecks (depth-first, the link with the fewest
 * options first), built greedily and improved by dropping a few random
 * classes and building again (large-neighbourhood search, seeded, for
 * half of 'seconds'); offsets left in no class are scheduled by the
 * liquid search after the classes. Writes qstep[] and returns its number
 * of steps (Lambda when every offset is in a class), TN_ENOTSUP (not a
 * cube, k > 10, single-port) or TN_ENOMEM. */
int tn_traffic_torus_classes(const struct tn_traffic *q, const struct tn_topo *c, unsigned seed,
                             double seconds, int *qstep);
/* Lifts a quotient schedule to the full traffic t (from
 * tn_traffic_torus_a2a on the same torus). */
int tn_traffic_torus_lift(const struct tn_traffic *t, const struct tn_topo *c,
                          const int *qstep, int *step_of);

#endif
