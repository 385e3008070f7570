/* SPDX-License-Identifier: MIT */
/* Reading ropes of message ids: tn_blk_read and tn_blk_each give, for
 * every range of every kind of block (leaf, slice, stride, concatenation,
 * nested, with an empty kid), the ids tn_blk_get gives one by one, and
 * tn_blk_each stops where its function says. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "rope.h"
#include "tap.h"

/* What a tn_blk_each call saw: the ids, the stretches, and where to stop
 * (after `stop` ids, within the stretch that reaches it). */
struct seen {
    uint32_t ids[256];
    uint32_t n, calls, empty_calls, stop;
};

static bool record(void *ctx, const uint32_t *ids, uint32_t k)
{
    struct seen *x = ctx;
    x->calls++;
    x->empty_calls += k == 0;
    for (uint32_t i = 0; i < k && x->n < x->stop; i++)
        x->ids[x->n++] = ids[i];
    return x->n < x->stop;
}

/* Every range [off, off + n) of b: read and folded whole, and folded with
 * a stop after each possible count. Returns the number of mismatches. */
static unsigned check_block(const struct tn_blk *b)
{
    unsigned bad = 0;
    uint32_t want[256], got[257];
    for (uint32_t i = 0; i < b->n; i++)
        want[i] = tn_blk_get(b, i);
    for (uint32_t off = 0; off <= b->n; off++)
        for (uint32_t n = 0; off + n <= b->n; n++) {
            got[n] = 0xDEADBEEF;  /* must stay: nothing written past n */
            tn_blk_read(b, off, n, got);
            bad += memcmp(got, want + off, n * sizeof *got) != 0 || got[n] != 0xDEADBEEF;
            for (uint32_t stop = 1; stop <= n + 1; stop++) {
                struct seen x = {.stop = stop};
                bool whole = tn_blk_each(b, off, n, record, &x);
                uint32_t expect = stop < n ? stop : n;
                bad += x.n != expect || memcmp(x.ids, want + off, expect * sizeof *x.ids) != 0;
                bad += whole != (stop > n);  /* false exactly when it was stopped */
                bad += x.empty_calls != 0;
            }
        }
    return bad;
}

int main(void)
{
    uint32_t a_ids[40], b_ids[10];
    for (uint32_t i = 0; i < 40; i++)
        a_ids[i] = 100 + i;
    for (uint32_t i = 0; i < 10; i++)
        b_ids[i] = 200 + i;
    struct tn_blk a = {.n = 40, .kind = TN_BLK_LEAF, .u.ids = a_ids};
    struct tn_blk b = {.n = 10, .kind = TN_BLK_LEAF, .u.ids = b_ids};
    struct tn_blk none = {.n = 0, .kind = TN_BLK_LEAF, .u.ids = NULL};
    struct tn_blk slice = {.n = 20, .kind = TN_BLK_SLICE, .u.base = &a, .off = 5};
    /* element i is a[1 + i + (i / 3) * 2]: runs of 3, 2 skipped */
    struct tn_blk stride = {.n = 12, .kind = TN_BLK_STRIDE, .u.base = &a, .off = 1, .run = 3,
                            .skip = 2};
    struct tn_blk *kids[] = {&slice, &none, &b, &stride};
    struct tn_blk cat = {.n = 42, .kind = TN_BLK_CAT, .nk = 4, .u.kids = kids};
    struct tn_blk *kids2[] = {&cat, &b};
    struct tn_blk nested = {.n = 52, .kind = TN_BLK_CAT, .nk = 2, .u.kids = kids2};
    struct tn_blk stride_of_cat = {.n = 14, .kind = TN_BLK_STRIDE, .u.base = &nested, .off = 3,
                                   .run = 2, .skip = 1};

    is(tn_blk_get(&stride, 3), 106u, "stride: element 3 is a[1 + 3 + 2]");
    is(tn_blk_get(&nested, 25), 205u,
       "nested: element 25 is b[5] (after the slice's 20 and the empty kid)");
    is(check_block(&a), 0u, "leaf: every range read and folded as tn_blk_get gives it");
    is(check_block(&slice), 0u, "slice: every range");
    is(check_block(&stride), 0u, "stride: every range, across runs");
    is(check_block(&cat), 0u, "concatenation with an empty kid: every range");
    is(check_block(&nested), 0u, "nested concatenation: every range");
    is(check_block(&stride_of_cat), 0u, "stride over a concatenation: every range");
    return tap_done();
}
