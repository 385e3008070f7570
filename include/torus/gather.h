/* SPDX-License-Identifier: MIT */
/* Gather on bufferless trees, nearest-received-first: shoulder-tap on a
 * path (optimal) and transmission certificates on any tree (gap-free
 * arrival at the root). Timing model (docs/collectives.md, built on
 * docs/timing.md): a flit presented by a node in cycle c is ejected by a
 * neighbour in cycle c + 1; a data flit presented in cycle c by a node d
 * hops from the root is ejected at the root in cycle c + d. Every control
 * flit (wake-up call, token, certificate, transmit order) is one flit on
 * one arc; a node reacts to a control flit ejected in cycle e from cycle
 * e + react on. Single-port: a node presents at most one flit per cycle
 * (control or own data) and ejects at most one per cycle. A non-null
 * message of l flits is a stream of l + head flits. With value_flits = V
 * > 0 a control message that carries a value (call, certificate, order)
 * is 1 + V flits, a token 1 (on the device: a head and a value word, V =
 * 1, or a head alone): presented from cycle c, its last flit ejected in
 * c + its flits, reacted to from then + react. */
#ifndef TN_GATHER_H
#define TN_GATHER_H

#include "tree.h"

enum tn_ga_kind { TN_GA_CALL, TN_GA_TOKEN, TN_GA_CERT, TN_GA_ORDER };

struct tn_ga_ctl {
    int from, to;   /* neighbours */
    long cycle;     /* presented by 'from'; ejected by 'to' in cycle + 1 */
    int kind;       /* enum tn_ga_kind */
    long value;     /* call/order: data start it commands; cert: lag */
};

struct tn_ga_opts {
    int head;  /* head flits per non-null message (relay mode: 1) */
    int react; /* cycles from ejecting a control flit to reacting (>= 0) */
    int value_flits; /* flits a control message's value adds (0: the paper's one flit) */
};

struct tn_gather {
    int n, root;
    int *parent;      /* the tree (a path for shoulder-tap) */
    int *flits;       /* per node stream length, 0 for a null message */
    long *start;      /* per node first data flit presentation, -1 if null */
    long *lag;        /* certificates: certified lag time c_p (-1: none) */
    long *stream;     /* certificates: certified stream length N_p */
    int nctl;
    struct tn_ga_ctl *ctl;
    long t_sync;      /* phases 1-2: cycle the root starts sending orders */
    long first;       /* first data flit ejected at the root */
    long time;        /* completion: last data ejection + 1 (0 if none) */
    long total;       /* M: total data flits */
    long lower;       /* lower bound max(M + 2 dmin, max_p 2 d_p + n_p) */
    long bound;       /* upper bound: t_sync + phase-3 broadcast + M */
};

/* Shoulder-tap on the path 0 - 1 - ... - (n-1), root 0; len[0] ignored. */
int tn_gather_shoulder_tap(int n, const int *len, const struct tn_ga_opts *o,
                           struct tn_gather *g);

/* Transmission certificates on a tree: phase 1-2 (token to each child in
 * turn, wait for its certificate), certificates (lag, length), children
 * ordered for orders by decreasing lag and combined by increasing release
 * (line segments), phase 3 orders, phase 4 gap-free data. */
int tn_gather_certificates(const struct tn_ctree *t, const int *len,
                           const struct tn_ga_opts *o, struct tn_gather *g);

void tn_gather_free(struct tn_gather *g);

#endif
