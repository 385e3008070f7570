/* SPDX-License-Identifier: MIT */
/* Channel-dependency graphs (docs/deadlock.md). A deterministic routing
 * function R(u, c_in, d) on a network is turned into its CDG: one vertex
 * per channel, an edge c1 -> c2 when R can route a packet from c1 onto c2
 * (Definition 2 of the routing/switching/deadlock lecture); R is
 * deadlock-free under wormhole switching iff the CDG is acyclic (Theorem
 * 3). Channels are virtual: (link, class); a network without virtual
 * channels has one class.
 *
 * Networks: a torus or mesh (struct tn_topo; link id = node * 6 + dir,
 * channel id = link * classes + class) or any directed network (struct
 * tn_net, e.g. the network of a traffic file, docs/traffic-format.md).
 *
 * Routing functions:
 * - dor: dimension order (X, Y, Z), minimal in each ring, a tie on an even
 *   ring goes + (the relay hardware's DOR, docs/hardware.md);
 * - dor-dateline: the lecture's R'_d (Definition 7), dor with two classes
 *   per link: going -, class 1 while the wrap link 0 -> k-1 is still
 *   ahead (the wrap included), class 0 after it or without a wrap; going +,
 *   class 0 while the wrap link k-1 -> 0 is ahead, class 1 otherwise (decr
 *   channels in decreasing, incr channels in increasing order);
 * - interval: 1-interval routing on the DFS labelling of a spanning tree
 *   rooted at node 0 (a child link holds its subtree's labels, the parent
 *   link the cyclic complement; an analysis: the router has no interval
 *   mode, docs/hardware.md "Relay mode");
 * - updown: up* / down* on the orientation of CorrectOrient (BFS tree
 *   from node 0; an edge points to the smaller depth, on equal depths to
 *   the smaller node id); per destination the shortest legal route, ties
 *   to the first declared link.
 * dor and dor-dateline are computed ring by ring (the dependencies of a
 * ring path and the turns between dimensions), so a 49x49x49 torus takes
 * well under a second; interval and updown are destination-based and
 * computed one hop per (node, destination) (tn_cdg_from_next, at most
 * TN_CDG_ROUTED_MAX nodes). */
#ifndef TN_CDG_H
#define TN_CDG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "topo.h"

/* Nodes, for the routings built per destination (interval, updown): the
 * time grows as n^2 (one step per node, or (node, phase), and destination,
 * plus a search per destination): 16x16x16 (4,096 nodes) takes 0.3 s
 * (interval) and 0.6 s (updown), 16x16x32 (8,192) 1.3 s and 2.5 s; twice
 * the nodes would take four times that (make bench, docs/deadlock.md). */
#define TN_CDG_ROUTED_MAX 8192u

enum tn_routing { TN_ROUTE_DOR, TN_ROUTE_DATELINE, TN_ROUTE_INTERVAL, TN_ROUTE_UPDOWN };

/* "dor", "dor-dateline", "interval", "updown": 0 or TN_EINVAL. */
int tn_routing_parse(const char *s, enum tn_routing *r);
const char *tn_routing_name(enum tn_routing r);

/* A directed network: link l goes from[l] -> to[l]; from[l] < 0 marks an
 * id that is not a link (the torus's missing directions). Names may be
 * NULL. */
struct tn_net {
    uint32_t nnodes, nlinks;
    int32_t *from, *to;
    char **node_name, **link_name;
};

struct tn_cdg {
    uint32_t nch;       /* channel ids 0..nch-1 */
    uint32_t channels;  /* channels that exist */
    uint64_t deps;      /* dependencies (edges) */
    uint32_t *off;      /* successors of c: succ[off[c] .. off[c+1]) */
    uint32_t *succ;
    uint32_t *cycle;    /* a cycle in order (first channel not repeated) */
    uint32_t ncycle;    /* 0 when acyclic */
    uint64_t pairs;     /* ordered pairs of distinct nodes */
    uint64_t reachable; /* pairs the network connects */
    uint64_t routable;  /* pairs the routing function delivers */
    unsigned classes;   /* virtual channels per link */
    /* naming */
    const struct tn_net *net; /* or the torus: */
    struct tn_topo topo;
    bool mesh;
};

/* The torus (mesh: no wrap links) as a network: link node*6+dir. */
int tn_net_from_topo(struct tn_net *n, const struct tn_topo *t, bool mesh);
/* The network of a traffic file (docs/traffic-format.md): 0, TN_EIO,
 * TN_EPARSE (message on stderr) or TN_ENOMEM. */
int tn_net_read(struct tn_net *n, const char *path);
void tn_net_free(struct tn_net *n);

/* The CDG of routing r on the torus/mesh t: 0, TN_EINVAL (dateline on a
 * mesh), TN_ENOTSUP (interval/updown on more than TN_CDG_ROUTED_MAX
 * nodes) or TN_ENOMEM. */
int tn_cdg_topo(struct tn_cdg *g, const struct tn_topo *t, bool mesh, enum tn_routing r);
/* The CDG of routing r (interval or updown) on network n (kept by
 * reference for naming): 0, TN_EINVAL (dor on a network), TN_ENOTSUP or
 * TN_ENOMEM. */
int tn_cdg_net(struct tn_cdg *g, const struct tn_net *n, enum tn_routing r);

/* Any deterministic routing given by its routes: route(ctx, s, d, ch, cap)
 * writes the channels of the route from s to d (at most cap) and returns
 * their number, or -1 when s cannot reach d. Channel ids < nch. */
typedef int (*tn_cdg_route_fn)(void *ctx, uint32_t s, uint32_t d, uint32_t *ch, uint32_t cap);
int tn_cdg_from_routes(struct tn_cdg *g, uint32_t nnodes, uint32_t nch, tn_cdg_route_fn route,
                       void *ctx);

/* A destination-based deterministic routing, given one destination at a
 * time: a packet's state is (node, phase) with id node * phases + phase,
 * where the phase is what R keeps of the input channel (up* / down*: whether
 * a down link was taken; 1 phase when R looks at the node only), and a
 * packet is injected in phase 0. next(ctx, d, ch, to) writes, for every
 * state not at node d, the channel R takes towards d (ch[st], or
 * TN_CDG_NO_ROUTE; channel ids < nch) and the state it enters (to[st]);
 * 0 or a TN_E* code.
 * The CDG is that of tn_cdg_from_routes on the routes the pointers spell
 * (a route from s through state v continues as the route from v), built
 * with one step per state and destination instead of one per hop of every
 * route: O(states) per destination besides next. 0, TN_EVERIFY when a
 * route loops, TN_EINVAL (no phase, 2^32 states, or a channel or state
 * id out of range on a route), TN_ENOMEM or next's error. */
#define TN_CDG_NO_ROUTE UINT32_MAX
typedef int (*tn_cdg_next_fn)(void *ctx, uint32_t d, uint32_t *ch, uint32_t *to);
int tn_cdg_from_next(struct tn_cdg *g, uint32_t nnodes, unsigned phases, uint32_t nch,
                     tn_cdg_next_fn next, void *ctx);

void tn_cdg_free(struct tn_cdg *g);
static inline bool tn_cdg_acyclic(const struct tn_cdg *g) { return g->ncycle == 0; }
/* "(x,y,z) X+", with " vc1" when there are classes, or the link's name. */
void tn_cdg_channel_name(const struct tn_cdg *g, uint32_t c, char *buf, unsigned len);
/* The network drawn with the cycle's channels in red: 0 or TN_EIO. */
int tn_cdg_svg_save(const struct tn_cdg *g, const char *path);

/* Interval routing depth: DFS-tree interval routing on the torus t against minimal routing over every ordered pair: 0,
 * TN_ENOTSUP (more than TN_CDG_ROUTED_MAX nodes) or TN_ENOMEM. */
struct tn_stretch {
    uint64_t pairs, routed, minimal_pairs; /* minimal_pairs: routed in Lee distance hops */
    double avg_hops, avg_minimal;          /* over routed pairs */
    unsigned max_extra;                    /* hops above the Lee distance */
};
int tn_interval_stretch(const struct tn_topo *t, struct tn_stretch *st);
/* Cyclic 1-interval tables on a ring of k nodes labelled by coordinate
 * (output + holds the next floor(k/2) labels, - the rest), routed with the
 * cyclic interval compare (LO > HI wraps): the
 * number of ordered pairs not routed in the ring distance (0: the tables
 * are minimal). */
unsigned tn_ring_interval_check(unsigned k);

#endif
