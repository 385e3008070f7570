/* SPDX-License-Identifier: MIT */
/* Inside the schedule stage (and its verifier, plan and model): the ropes
 * of message ids that hold a node's memory contents, and folds over a
 * selection of a rope. Not for users of the library (sched.h declares
 * struct tn_blk opaque). */
#ifndef TN_ROPE_H
#define TN_ROPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A rope: message i of a node's memory occupies words [i*L, (i+1)*L). */
struct tn_blk {
    uint32_t n;               /* messages */
    uint8_t kind;             /* TN_BLK_LEAF, _CAT, _SLICE, _STRIDE */
    int8_t complete;          /* memo for the verifier: -1 unknown */
    uint32_t nk;              /* CAT: kids */
    union {
        uint32_t *ids;        /* LEAF: n ids */
        struct tn_blk **kids; /* CAT */
        struct tn_blk *base;  /* SLICE: n messages of base from off;
                               * STRIDE: message i of the block is
                               * base[off + i + (i / run) * skip] */
    } u;
    uint32_t off;
    uint32_t run, skip;       /* STRIDE only (run >= 1) */
    uint32_t memo_crc;        /* model memo, valid when memo_tag matches */
    uint32_t memo_tag;
};
enum { TN_BLK_LEAF, TN_BLK_CAT, TN_BLK_SLICE, TN_BLK_STRIDE };

/* Folding a selection of a rope: elements i in [i0, i1) at
 * b[start + i + (i / run) * skip] (start may be negative when i0 > 0 and
 * element 0 would lie before b), as an ordered sequence of contiguous
 * ranges. range() gives the value of a contiguous range, cat() appends a
 * value of nb elements to another; over CATs the selection splits into one
 * per kid, memoised by (kid, start, n, run, skip), so selections from
 * memories that share kids (the long-message gossip's colour pieces) cost
 * the distinct kids, not the elements. */
struct tn_sel_memo {
    const struct tn_blk *b;
    uint32_t start, n, run, skip;
    uint64_t v;
};
struct tn_sel {
    uint64_t (*range)(void *ctx, struct tn_blk *b, uint32_t off, uint32_t n);
    uint64_t (*cat)(void *ctx, uint64_t a, uint64_t v, uint32_t nb);
    void *ctx;
    struct tn_sel_memo *tab;  /* grows; tn_sel_free() releases it */
    size_t cap, used;
};
uint64_t tn_sel_fold(struct tn_sel *sel, struct tn_blk *b, int64_t start, uint32_t run,
                     uint32_t skip, uint32_t i0, uint32_t i1);
/* Messages [off, off + n) of stride rope b. */
uint64_t tn_sel_stride(struct tn_sel *sel, struct tn_blk *b, uint32_t off, uint32_t n);
void tn_sel_free(struct tn_sel *sel);

/* Message id at index i of b (i < b->n). */
uint32_t tn_blk_get(const struct tn_blk *b, uint32_t i);
/* Copy n ids from index off of b into out. */
void tn_blk_read(const struct tn_blk *b, uint32_t off, uint32_t n, uint32_t *out);
/* fn(ctx, ids, k) on the ids [off, off + n) of b, as contiguous stretches
 * in order, until it returns false; false if it did. It costs the rope's
 * structure once, not once per id as tn_blk_get in a loop does. */
typedef bool tn_blk_fn(void *ctx, const uint32_t *ids, uint32_t k);
bool tn_blk_each(const struct tn_blk *b, uint32_t off, uint32_t n, tn_blk_fn *fn, void *ctx);

/* A schedule's private state (sched.h: tn_sched.st). */
struct tn_arena;
struct tn_sched_state {
    struct tn_arena *arena;   /* tn_sched_alloc's chunks */
    /* Layout (tn_sched_layout): mem[r * N + v] = contents of node v after
     * round r - 1 (r = 0: initial), r = 0..nrounds. */
    struct tn_blk **mem;
    bool laid_out;
    int32_t *scratch;         /* N entries, -1 between uses (circuit walks) */
};

#endif
