/* SPDX-License-Identifier: MIT */
/* Schedules: rounds of circuits (a source, a unicast path or multicast tree
 * of arcs, the nodes that eject, the messages carried, a start offset), the
 * memory layout they imply, the verifier, JSON import/export and the
 * collective algorithms (gossip, broadcast). See docs/host.md. */
#ifndef TN_SCHED_H
#define TN_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "topo.h"

/* TN_ALLTOALL: personalised exchange; message id s * N + d is the one
 * node s holds for node d (include/torus/a2a.h). TN_SCATTER: the root holds message
 * d for every node d != root, node d must end with it; TN_GATHER: node s
 * holds message s, the root must end with every s != root (include/torus/sg.h).
 * For scatter and gather a message of length 0 (msg_len) is null: nobody
 * needs to receive it. TN_P2P: the root holds messages 0..p2p_msgs-1 (the
 * packets of one message), node dst must end with all of them (p2p.h).
 * TN_PERM: permutation traffic, node v holds message v * N + perm[v] (the
 * all-to-all's id) and node perm[v] must end with it; a fixed point sends
 * nothing (perm.h). */
enum tn_coll { TN_GOSSIP, TN_BROADCAST, TN_ALLTOALL, TN_SCATTER, TN_GATHER, TN_P2P, TN_PERM };

/* What a schedule file may ask for (tn_sched_parse_json), so that a few
 * bytes cannot demand minutes or gigabytes of the loader and verifier:
 * nodes (49x49x49 and 64x64x64 fit) and message ids, which the layout
 * builds up front (an all-to-all on N nodes has N^2: N <= 4096). */
#define TN_FILE_NODES_MAX (1u << 18)
#define TN_FILE_IDS_MAX (1u << 24)

/* Largest torus an all-to-all schedule takes (ids s * N + d fit 32 bits). */
#define TN_A2A_NODES_MAX 65535u

/* "gossip", "broadcast", "alltoall". */
const char *tn_coll_name(enum tn_coll c);
/* Number of message ids of a collective on n nodes (ids are 0..that-1):
 * n, or n * n for the all-to-all. */
static inline uint32_t tn_coll_nids(enum tn_coll c, uint32_t n)
{
    return c == TN_ALLTOALL || c == TN_PERM ? n * n : n;
}
/* "gossip", ... for every collective, in enum order. */
#define TN_COLL_COUNT 7
/* Parse a collective name: 0 or TN_EINVAL. */
int tn_coll_parse(const char *name, enum tn_coll *c);

/* Symbolic message slices (circuit mcnt), resolved by tn_sched_layout():
 * TN_WHOLE: all of the source's memory at the start of the round;
 * TN_SINCE: what the source received from the start of round moff on. */
#define TN_WHOLE UINT32_MAX
#define TN_SINCE (UINT32_MAX - 1)

/* An immutable sequence of message ids (a rope): the memory contents of a
 * node, message-granular; its representation is private (rope.h). */
struct tn_blk;

struct tn_circuit {
    uint32_t src;
    uint32_t start;           /* inject offset in cycles after the switch */
    uint32_t narcs, nej;
    struct tn_arc *arcs;      /* path in order, or tree: the tail of each arc
                               * is src or the head of an earlier arc */
    uint32_t *eject;          /* nodes that eject (store) the stream */
    /* Messages: the slice [moff, moff+mcnt) of src's memory at the start of
     * the round (mcnt = TN_WHOLE: all of it, resolved by tn_sched_layout),
     * or, when msgs != NULL, the explicit list (imported), which the layout
     * locates in src's memory. */
    uint32_t moff, mcnt;
    uint32_t *msgs, nmsgs;
    /* Gather (mrun > 0): from the slice, skip mphase messages, then carry
     * runs of mrun messages with mskip messages between runs (the inject
     * descriptor's run/skip, docs/hardware.md). The layout folds mphase
     * into moff and sets mcnt to the span from the first to the last
     * message carried; explicit lists that form such a pattern get it too. */
    uint32_t mphase, mrun, mskip;
    /* Derived by tn_sched_layout(): */
    struct tn_blk *stream;    /* the messages carried, in order */
    int32_t msg_bad;          /* -1 ok, else a message id src does not hold */
    bool msg_noncontig;       /* held, but the runs could not be built (no memory) */
    /* An explicit list held neither in one run nor as a gather: the runs
     * of src's memory it reads, in order, as (first message, count) pairs
     * (one inject descriptor each, back to back); nruns 0 otherwise. */
    uint32_t nruns;
    uint32_t *runs;
};

/* A relay-mode (head-routed) stream: one packet routed by dimension order
 * (tree 0) or along six tree tree - 1 rooted at src (tn_tree_path: the
 * router's tree mode, heads of W >= 16 bits) from src to dst, a head flit
 * (the destination's coordinates, and the tree) followed by
 * the words of its messages (flits = 1 + their lengths, tn_relay_flits),
 * timed like a circuit stream (the head advances one link per cycle, the
 * packet follows without gaps), so it holds arc h of its route during
 * cycles [alpha + start + h, alpha + start + h + flits - 1] of the round
 * (h = 1..d). Messages as for circuits; the stream is appended at dst
 * after the round's circuit streams, in relay order. */
struct tn_relay {
    uint32_t src, dst, start;
    uint8_t tree;             /* 0: DOR; 1..6: six tree 0..5 from src */
    uint32_t moff, mcnt;
    uint32_t *msgs, nmsgs;
    /* A control packet (words != NULL, tn_sched_add_relay_words): the
     * head is followed by these nwords words (their low W bits) instead
     * of messages, and nothing joins dst's memory (the gather's tokens,
     * certificates and orders, include/torus/sg.h). */
    uint32_t *words, nwords;
    struct tn_blk *stream;
    int32_t msg_bad;
    bool msg_noncontig;
};

struct tn_round {
    uint32_t ncirc, cap;
    struct tn_circuit *circ;
    uint32_t nrelay, relcap;
    struct tn_relay *relay;
    uint64_t duration;        /* cycles (alpha + max(start + depth + flits));
                               * 0: not set (computed by tn_sched_layout) */
};

struct tn_arena;

struct tn_sched {
    struct tn_topo topo;
    enum tn_coll coll;
    char algo[32];
    uint32_t msg_flits;       /* L: flits per message */
    /* Per message id payload lengths in flits (tn_coll_nids entries, 0
     * allowed: a null message), or NULL: every message has msg_flits.
     * Only relay streams carry messages of unequal lengths (the plan
     * refuses circuits then). Set with tn_sched_set_lengths(). */
    uint32_t *msg_len;
    unsigned ports;           /* port model: 6 all-port, 1 single-port */
    unsigned alpha;           /* switch cost the durations were made for */
    uint32_t root;            /* broadcast, scatter and gather root */
    /* TN_GOSSIP: each node's message is split into parts messages of
     * msg_flits flits (tn_sched_set_parts): node v holds ids v * parts ..
     * v * parts + parts - 1 and everyone must end with all N * parts. */
    uint32_t parts;
    uint32_t pad;             /* flits of each message that only pad it to
                               * parts x msg_flits (the bounds leave them out) */
    uint32_t dst, p2p_msgs;   /* TN_P2P: destination, messages (<= N) */
    uint32_t *perm, *perm_src; /* TN_PERM: destination of each node and its
                               * inverse (tn_sched_set_perm) */
    uint32_t nrounds, rcap;
    struct tn_round *rounds;
    struct tn_sched_state *st; /* the library's: arena, memory layout, scratch */
};
struct tn_sched_state;

/* Create an empty schedule; 0 or TN_E*. */
int tn_sched_new(struct tn_sched **s, const struct tn_topo *t, enum tn_coll coll,
                 const char *algo, uint32_t msg_flits, unsigned ports,
                 unsigned alpha, uint32_t root);
void tn_sched_free(struct tn_sched *s);
/* TN_PERM: node v sends to dst[v] (n entries, a permutation of 0..n-1;
 * copied). Before any round is laid out: 0, TN_EINVAL (not a
 * permutation, or not a TN_PERM schedule) or TN_ENOMEM. */
int tn_sched_set_perm(struct tn_sched *s, const uint32_t *dst);
/* TN_GOSSIP: split every node's message into n parts (ids, see parts);
 * before any round is laid out. 0 or TN_EINVAL (n = 0, ids beyond 32 bits,
 * not a gossip). */
int tn_sched_set_parts(struct tn_sched *s, uint32_t n);
/* Message ids of s: tn_coll_nids times the gossip's parts. */
static inline uint32_t tn_sched_nids(const struct tn_sched *s)
{
    return tn_coll_nids(s->coll, s->topo.n) * (s->coll == TN_GOSSIP ? s->parts : 1);
}
/* The longest message (flits; parts x part flits for a gossip in parts)
 * for which s, whose fullest node holds words flit words, fits depth words
 * a node: the memory holds messages, each msg_flits long. 0 when none
 * does, UINT32_MAX when messages have their own lengths (msg_len). */
uint32_t tn_sched_max_flits(const struct tn_sched *s, uint64_t words, uint64_t depth);
/* The device's shortest round in cycles (tn_seq: an eject lane writes its
 * record over 3 cycles; a shorter duration runs as this). */
#define TN_ROUND_MIN 3u
/* A round's duration on the device: alpha cycles for the switch, need
 * for its streams, and at least TN_ROUND_MIN. The plan and the closed
 * forms use it. */
static inline uint64_t tn_round_duration(unsigned alpha, uint64_t need)
{
    return alpha + need < TN_ROUND_MIN ? TN_ROUND_MIN : alpha + need;
}
/* Append an empty round: its index or TN_ENOMEM. */
int tn_sched_add_round(struct tn_sched *s);
/* Append a circuit to round r copying arcs/eject (and msgs if non-NULL);
 * returns the circuit or NULL (out of memory). */
struct tn_circuit *tn_sched_add_circuit(struct tn_sched *s, uint32_t r,
    uint32_t src, const struct tn_arc *arcs, uint32_t narcs,
    const uint32_t *eject, uint32_t nej, uint32_t moff, uint32_t mcnt,
    const uint32_t *msgs, uint32_t nmsgs, uint32_t start);
/* Append a relay stream to round r (msgs copied if non-NULL); NULL when
 * out of memory. */
struct tn_relay *tn_sched_add_relay(struct tn_sched *s, uint32_t r, uint32_t src, uint32_t dst,
                                    uint32_t moff, uint32_t mcnt, const uint32_t *msgs,
                                    uint32_t nmsgs, uint32_t start);
/* Append a control packet to round r: a head and the nwords words
 * (copied; 0 words: a head alone), no message. NULL when out of memory. */
struct tn_relay *tn_sched_add_relay_words(struct tn_sched *s, uint32_t r, uint32_t src,
                                          uint32_t dst, const uint32_t *words, uint32_t nwords,
                                          uint32_t start);
/* Per message lengths (copied; n must be tn_coll_nids entries): 0,
 * TN_EINVAL or TN_ENOMEM. */
int tn_sched_set_lengths(struct tn_sched *s, const uint32_t *len, uint32_t n);
/* Payload flits of message m. */
static inline uint32_t tn_msg_len(const struct tn_sched *s, uint32_t m)
{
    return s->msg_len ? s->msg_len[m] : s->msg_flits;
}
/* Flits of a relay packet: 1 head + the lengths of its messages (0 when
 * all of them are null: nothing is sent), or 1 + nwords for a control
 * packet. */
uint64_t tn_relay_flits(const struct tn_sched *s, const struct tn_relay *x);
/* A relay stream's route (DOR or its tree; DOR for a tree out of 1..6,
 * which the verifier refuses): writes at most cap arcs (arcs may be NULL
 * when cap is 0) and returns its length in hops. */
unsigned tn_relay_path(const struct tn_topo *t, const struct tn_relay *x, struct tn_arc *arcs,
                       unsigned cap);
/* Arena allocation tied to the schedule's lifetime (NULL on failure). */
void *tn_sched_alloc(struct tn_sched *s, size_t size);

/* After a change made to the rounds' circuits or streams in place (not
 * through tn_sched_add_*): the layout is computed again when next needed. */
void tn_sched_changed(struct tn_sched *s);
/* Compute the memory layout: a node's memory after a round is its memory
 * before followed by the streams it ejects, in increasing order of the
 * input port (direction) they arrive on. Resolves TN_WHOLE, locates
 * explicit message lists, sets circuit->stream and the round durations
 * left at 0. Structural errors (arcs that do not exist, ejecting nodes not
 * on the circuit) are the verifier's business: the layout skips what it
 * cannot place. 0 or TN_ENOMEM. */
int tn_sched_layout(struct tn_sched *s);

/* Walk the arcs of c: head[i] = node arc i enters, depth[i] = hops from
 * src, parent[i] = the arc entering arc i's tail (UINT32_MAX at src), and
 * ejarc[e] = the arc entering eject[e] (UINT32_MAX if none); parent and
 * ejarc may be NULL. False if an arc does not exist, is not connected to
 * the tree or enters a node twice (the verifier says which). */
bool tn_circuit_walk(const struct tn_sched *s, const struct tn_circuit *c,
                     uint32_t *head, uint32_t *depth, uint32_t *parent, uint32_t *ejarc);
/* Per circuit timing: depth of the deepest ejecting node (hops), stream
 * length in flits. */
unsigned tn_circuit_depth(const struct tn_sched *s, const struct tn_circuit *c);
uint64_t tn_circuit_flits(const struct tn_sched *s, const struct tn_circuit *c);
/* Messages a laid-out circuit carries (0 before the layout). */
uint32_t tn_circuit_nmsgs(const struct tn_circuit *c);

/* Cost of a schedule: rounds, sum of per-round longest paths (delta
 * term), sum of per-round longest streams in flits (tau term), predicted
 * cycles sum(alpha + max(start + depth + flits)). */
struct tn_cost {
    uint32_t rounds;
    uint64_t dsum, tsum, cycles;
};
void tn_sched_cost(const struct tn_sched *s, unsigned alpha, struct tn_cost *c);

/* Lower bounds for the collective on this geometry and port model. */
struct tn_bounds {
    uint32_t rounds;          /* gossip: ceil(log_(P+1) N), P = lanes (a node
                               * receives at most P streams per round);
                               * broadcast: 1 (a multicast tree reaches all) */
    uint64_t dsum;            /* diameter (gossip) / eccentricity of root */
    uint64_t tsum;            /* ceil((N-1) L / P) gossip, L broadcast */
};
void tn_sched_bounds(const struct tn_sched *s, struct tn_bounds *b);

/* ---- JSON (docs/schedule-format.md) ---- */

/* Write s as JSON (laid out on demand); 0 or TN_EIO/TN_ENOMEM. */
int tn_sched_write_json(struct tn_sched *s, FILE *f);
int tn_sched_save_json(struct tn_sched *s, const char *path);
/* Read a schedule. On error returns TN_EPARSE (or TN_EIO) and writes
 * "line L, column C: reason" to err; *out is set only on success. */
int tn_sched_load_json(struct tn_sched **out, const char *path, char *err, size_t errlen);
int tn_sched_parse_json(struct tn_sched **out, const char *text, size_t len,
                        char *err, size_t errlen);

#endif
