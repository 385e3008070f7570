/* SPDX-License-Identifier: MIT */
/* Plan -> configuration-bus writes (docs/hardware.md), and the device's
 * word formats the host reads back. */
#include "image.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tn_error.h"

/* ---- device formats ---- */

int tn_info_read(struct tn_proto *p, struct tn_info *info)
{
    /* PARAMS (banks, DW, relay) is a global register beside INFO's */
    uint32_t params = 0;
    int rc = tn_proto_info(p, info);
    if (rc == 0)
        rc = tn_proto_read(p, TN_G_PARAMS, &params, 1);
    tn_info_set_params(info, params);
    return rc;
}

struct tn_plan_params tn_info_plan_params(const struct tn_info *dev)
{
    return (struct tn_plan_params){.lanes = dev->lanes, .mem_depth = dev->mem_depth,
                                   .width = dev->w, .alpha = dev->alpha, .banks = dev->banks};
}

void tn_info_set_params(struct tn_info *i, uint32_t params)
{
    i->banks = 1u << (params & 0xFu);
    i->dw = params >> 8 & 0x1Fu;
    i->relay = params >> 16 & 1u;
    i->fault = params >> 17 & 1u;
}

unsigned tn_info_rw(const struct tn_info *dev)
{
    unsigned rw = 0;
    while (rw < 31 && (1u << (rw + 1)) <= dev->rounds)
        rw++;
    return rw;
}

void tn_desc_inject(const struct tn_inject *in, uint32_t round, uint32_t w[TN_DESC_WORDS])
{
    w[0] = TN_DESC_VALID | (in->relay ? TN_DESC_RELAY | TN_DESC_HOP(in->hop) : 0) |
           TN_DESC_ROUND(round) | (in->start & 0xFFFFu);
    w[1] = in->len << 16 | (in->addr & 0xFFFFu);
}

void tn_desc_eject(const struct tn_eject *e, uint32_t round, uint32_t w[TN_DESC_WORDS])
{
    bool relay = e->port == TN_PORT_RELAY;
    (void)round;   /* the descriptor's index is its round */
    w[0] = TN_DESC_VALID | (relay ? TN_DESC_RELAY : 0) | (relay ? 0 : e->port & 7u);
    w[1] = e->len << 16 | (e->addr & 0xFFFFu);
}

void tn_record_decode(const uint32_t w[TN_REC_WORDS], struct tn_record *rec)
{
    rec->epoch = w[0] >> 28;
    rec->err = w[0] >> 16 & 7u;
    rec->count = w[0] & 0xFFFFu;
    rec->first = w[1] & 0xFFFFu;
    rec->last = w[1] >> 16;
    rec->crc = w[2];
}

uint32_t tn_record_count_mask(const struct tn_info *dev)
{
    return dev->mem_depth ? 2 * dev->mem_depth - 1 : 0xFFFFu;
}

const char *tn_status_describe(const uint32_t st[TN_ST_WORDS], char *buf, size_t len)
{
    /* FLAGS bit b, the counter of its events (-1: none; the eject records
     * say where) and their name */
    static const struct {
        const char *name, *one, *many;
        int counter;
    } flag[] = {
        {"overrun", "", "", -1},
        {"short stream", "", "", -1},
        {"eject bounds", "", "", -1},
        {"inject bounds", "", "", -1},
        {"collision", "head", "heads", TN_ST_COLL},
        {"unroutable head", "head", "heads", TN_ST_UNRT},
        {"dropped flit", "flit", "flits", TN_ST_DROP},
        {"bank conflict", "flit lost", "flits lost", TN_ST_CONFLICT},
    };
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned b = 0; b < sizeof flag / sizeof flag[0] && at < len; b++) {
        if (!(st[TN_ST_FLAGS] >> b & 1))
            continue;
        int k;
        if (flag[b].counter < 0) {
            k = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", flag[b].name);
        } else {
            uint32_t n = st[flag[b].counter];
            k = snprintf(buf + at, len - at, "%s%s (%u %s)", at ? ", " : "", flag[b].name, n,
                         n == 1 ? flag[b].one : flag[b].many);
        }
        at += k > 0 ? (size_t)k : 0;
    }
    return buf;
}

/* ---- descriptor lists ---- */

/* One entry of an inject descriptor list: its round and index in that
 * round's inj[]. */
struct list_entry {
    uint32_t round, i;
};

/* The inject descriptor lists: list k = node * TN_MAX_LANES + lane holds
 * e[first[k] .. first[k + 1]) in increasing (round, start) order. */
struct lists {
    uint32_t *first;
    struct list_entry *e;
    uint32_t nkeys;
};

/* The list (node * TN_MAX_LANES + lane) inject descriptor i of round r
 * belongs to. */
static uint32_t desc_key(const struct tn_plan *p, uint32_t r, uint32_t i)
{
    return p->rounds[r].inj[i].node * TN_MAX_LANES + p->rounds[r].inj[i].lane;
}

/* Entries of one round are taken in plan order, so a list is in round
 * order; within a round (inject chains) it is put in start order. */
static void sort_by_start(const struct tn_plan *p, struct list_entry *e, uint32_t n)
{
    for (uint32_t a = 1; a < n; a++) {
        struct list_entry x = e[a];
        uint32_t sx = p->rounds[x.round].inj[x.i].start, b = a;
        for (; b > 0 && e[b - 1].round == x.round &&
               p->rounds[x.round].inj[e[b - 1].i].start > sx; b--)
            e[b] = e[b - 1];
        e[b] = x;
    }
}

static void lists_free(struct lists *ls)
{
    free(ls->first);
    free(ls->e);
    memset(ls, 0, sizeof *ls);
}

static int lists_build(struct lists *ls, const struct tn_plan *p)
{
    uint32_t total = 0;
    ls->nkeys = p->topo.n * TN_MAX_LANES;
    for (uint32_t r = 0; r < p->nrounds; r++)
        total += p->rounds[r].ninj;
    ls->first = calloc((size_t)ls->nkeys + 1, sizeof *ls->first);
    ls->e = malloc((total ? total : 1) * sizeof *ls->e);
    uint32_t *fill = calloc(ls->nkeys, sizeof *fill);
    if (ls->first == NULL || ls->e == NULL || fill == NULL) {
        free(fill);
        lists_free(ls);
        return TN_ENOMEM;
    }
    for (uint32_t r = 0; r < p->nrounds; r++)
        for (uint32_t i = 0; i < p->rounds[r].ninj; i++)
            ls->first[desc_key(p, r, i) + 1]++;
    for (uint32_t k = 0; k < ls->nkeys; k++)
        ls->first[k + 1] += ls->first[k];
    for (uint32_t r = 0; r < p->nrounds; r++)
        for (uint32_t i = 0; i < p->rounds[r].ninj; i++) {
            uint32_t key = desc_key(p, r, i);
            ls->e[ls->first[key] + fill[key]++] = (struct list_entry){r, i};
        }
    free(fill);
    for (uint32_t k = 0; k < ls->nkeys; k++)
        sort_by_start(p, ls->e + ls->first[k], ls->first[k + 1] - ls->first[k]);
    return 0;
}

/* A descriptor's record: its list (node * TN_MAX_LANES + lane), round,
 * and place in plan order. */
struct rec_at {
    uint32_t key, round;
    size_t desc;
};

static int cmp_rec_at(const void *a, const void *b)
{
    const struct rec_at *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->round < y->round ? -1 : x->round > y->round;
}

int tn_image_record_spans(const struct tn_plan *p, const struct tn_info *dev, uint32_t gap,
                          struct tn_rec_spans *rs)
{
    size_t n = 0;
    for (uint32_t r = 0; r < p->nrounds; r++)
        n += p->rounds[r].nej;
    memset(rs, 0, sizeof *rs);
    struct rec_at *by = malloc((n ? n : 1) * sizeof *by);
    rs->pos = malloc((n ? n : 1) * sizeof *rs->pos);
    rs->sp = malloc((n ? n : 1) * sizeof *rs->sp);
    if (by == NULL || rs->pos == NULL || rs->sp == NULL) {
        free(by);
        tn_rec_spans_free(rs);
        return TN_ENOMEM;
    }
    for (uint32_t r = 0, k = 0; r < p->nrounds; r++)
        for (uint32_t i = 0; i < p->rounds[r].nej; i++, k++) {
            const struct tn_eject *e = &p->rounds[r].ej[i];
            by[k] = (struct rec_at){e->node * TN_MAX_LANES + e->lane, r, k};
        }
    qsort(by, n, sizeof *by, cmp_rec_at);
    uint32_t first = 0;
    for (size_t k = 0; k < n; k++) {
        const struct rec_at *a = &by[k];
        if (k == 0 || a->key != by[k - 1].key ||
            a->round - by[k - 1].round > (uint64_t)gap + 1) {
            rs->sp[rs->nsp++] = (struct tn_proto_rspan){
                TN_ADDR_NODE(a->key / TN_MAX_LANES, TN_REGION_REC,
                             tn_rec_off(dev, a->key % TN_MAX_LANES, a->round)), NULL, 0};
            first = a->round;
        }
        struct tn_proto_rspan *sp = &rs->sp[rs->nsp - 1];
        size_t words = (size_t)(a->round - first + 1) * TN_REC_WORDS;
        rs->nwords += words - sp->n;
        sp->n = words;
        rs->pos[a->desc] = rs->nwords - words + (size_t)(a->round - first) * TN_REC_WORDS;
    }
    free(by);
    return 0;
}

void tn_rec_spans_free(struct tn_rec_spans *rs)
{
    free(rs->pos);
    free(rs->sp);
    memset(rs, 0, sizeof *rs);
}

/* ---- checks ---- */

int tn_info_check(const struct tn_info *dev, char *err, size_t errlen)
{
    if (dev->version >> 16 != TN_DESIGN_VERSION >> 16)
        return tn_errf(err, errlen, TN_ENOTSUP,
                       "the device reports design version 0x%08x; this host loads design "
                       "version %u (0x%04xxxxx, docs/hardware.md): rebuild the simulator models "
                       "or the bitstream from this tree", dev->version, TN_DESIGN_VERSION >> 16,
                       TN_DESIGN_VERSION >> 16);
    return 0;
}

static int check_device(const struct tn_plan *p, const struct tn_info *dev, char *err,
                        size_t errlen)
{
    const struct tn_topo *t = &p->topo;
    int rc = tn_info_check(dev, err, errlen);
    if (rc != 0)
        return rc;
    if (dev->dims[0] != t->dim[0] || dev->dims[1] != t->dim[1] || dev->dims[2] != t->dim[2])
        return tn_errf(err, errlen, TN_ENOTSUP,
                       "the schedule is for a %ux%ux%u torus but the device is %ux%ux%u: "
                       "use --dims %ux%ux%u or a device of that geometry",
                       t->dim[0], t->dim[1], t->dim[2], dev->dims[0], dev->dims[1],
                       dev->dims[2], dev->dims[0], dev->dims[1], dev->dims[2]);
    if (p->par.lanes > dev->lanes)
        return tn_errf(err, errlen, TN_ECAPACITY,
                       "the schedule needs %u lanes per node, the device has %u: "
                       "use the single-port schedule (--ports 1) or a LANES=6 build",
                       p->par.lanes, dev->lanes);
    if (p->par.width != dev->w || p->par.banks != dev->banks)
        return tn_errf(err, errlen, TN_EINVAL,
                       "the plan was lowered for W=%u with %u memory banks but the device has "
                       "W=%u and %u banks: lower it with the device's INFO and PARAMS",
                       p->par.width, p->par.banks, dev->w, dev->banks);
    if (p->nrounds > dev->rounds)
        return tn_errf(err, errlen, TN_ECAPACITY,
                       "the schedule has %u rounds, the device's round table holds %u: "
                       "use a schedule with fewer rounds or a device built with ROUNDS >= %u",
                       p->nrounds, dev->rounds, p->nrounds);
    if (p->nrounds > TN_DESC_ROUNDS)
        return tn_errf(err, errlen, TN_ECAPACITY,
                       "the schedule has %u rounds, an inject descriptor names at most %u: "
                       "use a schedule with fewer rounds", p->nrounds, TN_DESC_ROUNDS);
    if (p->mem_max > dev->mem_depth)
        return tn_errf(err, errlen, TN_ECAPACITY,
                       "a node needs %llu words of flit memory, the device has %u: "
                       "use a shorter --msg-flits or a device with MEM_DEPTH >= %llu",
                       (unsigned long long)p->mem_max, dev->mem_depth,
                       (unsigned long long)p->mem_max);
    return 0;
}

/* A stream's words [addr, addr + len) and its length within the memory
 * (and so within the descriptor's 16-bit fields). */
static int check_words(const struct tn_info *dev, uint32_t r, uint32_t node, unsigned lane,
                       const char *what, uint32_t addr, uint32_t len, char *err, size_t errlen)
{
    if ((uint64_t)addr + len <= dev->mem_depth && addr < dev->mem_depth)
        return 0;
    return tn_errf(err, errlen, TN_ECAPACITY,
                   "round %u: node %u %s lane %u covers words %u..%llu, beyond the device's "
                   "%u words of flit memory: use a shorter --msg-flits", r + 1, node, what, lane,
                   addr, (unsigned long long)addr + len - 1, dev->mem_depth);
}

static int check_relay(const struct tn_info *dev, uint32_t r, char *err, size_t errlen)
{
    if (dev->relay)
        return 0;
    return tn_errf(err, errlen, TN_ENOTSUP,
                   "round %u routes head flits (relay streams) but the device has no relay "
                   "hardware (PARAMS bit 16): run it on the simulator or a RELAY=1 build", r + 1);
}

/* Durations and start offsets within DW bits (start offsets also within
 * the descriptor's 16-bit field), lengths and words within the memory,
 * relay streams only with relay hardware. */
static int check_round(const struct tn_plan *p, const struct tn_info *dev, uint32_t r, char *err,
                       size_t errlen)
{
    const struct tn_plan_round *pr = &p->rounds[r];
    uint64_t dlim = (1ull << dev->dw) - 1, slim = dlim < 0xFFFF ? dlim : 0xFFFF;
    const char *fix = "use a shorter --msg-flits or a device with a larger MEM_DEPTH";
    int rc = 0;
    if (pr->duration > dlim)
        return tn_errf(err, errlen, TN_ECAPACITY,
                       "round %u lasts %llu cycles; the device's %u-bit round table holds at "
                       "most %llu: %s", r + 1, (unsigned long long)pr->duration, dev->dw,
                       (unsigned long long)dlim, fix);
    if ((pr->mode & TN_MODE_RELAY) && (rc = check_relay(dev, r, err, errlen)) != 0)
        return rc;
    for (uint32_t i = 0; i < pr->ninj && rc == 0; i++) {
        const struct tn_inject *in = &pr->inj[i];
        if (in->start > slim)
            return tn_errf(err, errlen, TN_ECAPACITY,
                           "round %u: node %u lane %u starts a stream at offset %u; the "
                           "device's start offsets reach %llu: %s", r + 1, in->node, in->lane,
                           in->start, (unsigned long long)slim, fix);
        rc = check_words(dev, r, in->node, in->lane, "inject", in->addr, in->len, err, errlen);
        if (rc == 0 && in->relay)
            rc = check_relay(dev, r, err, errlen);
    }
    for (uint32_t i = 0; i < pr->nej && rc == 0; i++) {
        const struct tn_eject *e = &pr->ej[i];
        rc = check_words(dev, r, e->node, e->lane, "eject", e->addr, e->len, err, errlen);
        if (rc == 0 && e->port == TN_PORT_RELAY)
            rc = check_relay(dev, r, err, errlen);
    }
    return rc;
}

/* Every (node, lane) inject list fits the device's ROUNDS entries. */
static int check_lists(const struct tn_plan *p, const struct tn_info *dev, char *err,
                       size_t errlen)
{
    struct lists ls;
    if (lists_build(&ls, p) != 0)
        return tn_errf(err, errlen, TN_ENOMEM, "out of memory checking the image");
    int rc = 0;
    for (uint32_t k = 0; k < ls.nkeys && rc == 0; k++) {
        uint32_t n = ls.first[k + 1] - ls.first[k];
        if (n > dev->rounds)
            rc = tn_errf(err, errlen, TN_ECAPACITY,
                         "node %u inject lane %u needs %u descriptors, the device's lists hold %u "
                         "(ROUNDS): use a schedule with fewer streams per lane",
                         k / TN_MAX_LANES, k % TN_MAX_LANES, n,
                         dev->rounds);
    }
    lists_free(&ls);
    return rc;
}

int tn_image_check(const struct tn_plan *p, const struct tn_info *dev, char *err,
                   size_t errlen)
{
    int rc = check_device(p, dev, err, errlen);
    for (uint32_t r = 0; r < p->nrounds && rc == 0; r++)
        rc = check_round(p, dev, r, err, errlen);
    if (rc == 0)
        rc = check_lists(p, dev, err, errlen);
    return rc;
}

/* ---- image ---- */

static int reserve(struct tn_image *img, size_t words)
{
    if (img->nbursts == img->bcap) {
        size_t cap = img->bcap ? 2 * img->bcap : 256;
        struct tn_image_burst *b = realloc(img->bursts, cap * sizeof *b);
        if (b == NULL)
            return TN_ENOMEM;
        img->bursts = b;
        img->bcap = cap;
    }
    if (img->nwords + words > img->wcap) {
        size_t cap = img->wcap ? img->wcap : 4096;
        while (cap < img->nwords + words)
            cap *= 2;
        uint32_t *w = realloc(img->words, cap * sizeof *w);
        if (w == NULL)
            return TN_ENOMEM;
        img->words = w;
        img->wcap = cap;
    }
    return 0;
}

/* Append a burst of n zeroed words at addr; returns them, or NULL. */
static uint32_t *burst(struct tn_image *img, uint32_t addr, uint32_t n)
{
    if (reserve(img, n) != 0)
        return NULL;
    struct tn_image_burst *b = &img->bursts[img->nbursts++];
    b->addr = addr;
    b->n = n;
    b->off = img->nwords;
    uint32_t *w = img->words + img->nwords;
    memset(w, 0, n * sizeof *w);
    img->nwords += n;
    return w;
}

/* Append words[0..n) at addr as one burst. */
static int burst_copy(struct tn_image *img, uint32_t addr, const uint32_t *words, uint32_t n)
{
    uint32_t *w = burst(img, addr, n);
    if (w == NULL)
        return TN_ENOMEM;
    memcpy(w, words, n * sizeof *w);
    return 0;
}

/* The CFG word of node v in round pr: its output selects. */
static uint32_t cfg_word(const struct tn_plan_round *pr, uint32_t v)
{
    uint32_t w = 0;
    for (unsigned o = 0; o < 6; o++)
        w |= TN_CFG_SEL(o, pr->xbar[(size_t)v * 12 + o] & 0xFu);
    return w;
}

/* Bursts from addr of the runs of row[0..n) that differ from base[0..n);
 * runs apart by up to TN_IMAGE_GAP equal words are joined (a burst costs
 * more than those words). */
static int burst_differences(struct tn_image *img, uint32_t addr, const uint32_t *row,
                             const uint32_t *base, uint32_t n)
{
    for (uint32_t f = 0; f < n;) {
        if (row[f] == base[f]) {
            f++;
            continue;
        }
        uint32_t e = f + 1, same = 0;
        for (uint32_t k = f + 1; k < n && same <= TN_IMAGE_GAP; k++) {
            same = row[k] == base[k] ? same + 1 : 0;
            if (same == 0)
                e = k + 1;
        }
        int rc = burst_copy(img, addr + f, row + f, e - f);
        if (rc != 0)
            return rc;
        f = e;
    }
    return 0;
}

/* Round settings: one broadcast burst gives every node each round with
 * no selects (so no setting of an earlier load survives); then each node
 * gets the words that differ. */
static int compile_cfg(struct tn_image *img, const struct tn_plan *p)
{
    uint32_t nr = p->nrounds;
    uint32_t *base = calloc(nr ? nr : 1, sizeof *base);
    uint32_t *row = malloc((nr ? nr : 1) * sizeof *row);
    int rc = base == NULL || row == NULL ? TN_ENOMEM : 0;
    if (rc == 0 && nr > 0)
        rc = burst_copy(img, TN_ADDR_NODE(TN_NODE_ALL, TN_REGION_CFG, 0), base, nr);
    for (uint32_t v = 0; v < p->topo.n && rc == 0 && nr > 0; v++) {
        for (uint32_t r = 0; r < nr; r++)
            row[r] = cfg_word(&p->rounds[r], v);
        rc = burst_differences(img, TN_ADDR_NODE(v, TN_REGION_CFG, 0), row, base, nr);
    }
    free(base);
    free(row);
    return rc;
}

/* Words per burst of descriptor entries: even, and within one WRITE frame
 * of the device (MAX_WORDS - 1 words), so the proto client never splits
 * an entry's word 0 and word 1 into two frames. */
static uint32_t entry_burst_words(const struct tn_info *dev)
{
    uint32_t frame = dev->max_payload >= 16 ? dev->max_payload / 4 - 1 : 255;
    return frame & ~1u;
}

/* Entries words[0..n) (n even) from list offset off of region at node,
 * in bursts of whole entries. */
static int burst_entries(struct tn_image *img, const struct tn_info *dev, uint32_t node,
                         unsigned region, uint32_t off, const uint32_t *words, uint32_t n)
{
    uint32_t cap = entry_burst_words(dev);
    for (uint32_t k = 0; k < n; k += cap) {
        uint32_t m = n - k < cap ? n - k : cap;
        int rc = burst_copy(img, TN_ADDR_NODE(node, region, off + k), words + k, m);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* How lane's lists are ended: a broadcast of terminators at indices 0 ..
 * the longest list's length (so no list needs one of its own), or, when
 * that takes more words, a broadcast terminator at index 0 and one after
 * each list (*own). Returns the entries to broadcast. */
static uint32_t broadcast_ends(const struct lists *ls, const struct tn_info *dev, unsigned lane,
                               bool *own)
{
    uint32_t longest = 0, ended = 0;
    for (uint32_t k = lane; k < ls->nkeys; k += TN_MAX_LANES) {
        uint32_t n = ls->first[k + 1] - ls->first[k];
        longest = n > longest ? n : longest;
        ended += n > 0 && n < dev->rounds;
    }
    uint32_t all = longest < dev->rounds ? longest + 1 : dev->rounds;
    *own = all > 1 + ended;
    return *own ? 1 : all;
}

/* The entries of list k into w: their words. */
static uint32_t encode_list(const struct tn_plan *p, const struct lists *ls, uint32_t k,
                            uint32_t *w)
{
    uint32_t n = ls->first[k + 1] - ls->first[k];
    for (uint32_t j = 0; j < n; j++) {
        const struct list_entry *le = &ls->e[ls->first[k] + j];
        tn_desc_inject(&p->rounds[le->round].inj[le->i], le->round, w + TN_DESC_WORDS * j);
    }
    return TN_DESC_WORDS * n;
}

/* Inject lists: per lane one broadcast of terminators, then each used
 * list's entries in one burst (more if the frame bound cuts it), with a
 * terminator after them if the broadcast did not put one there (none when
 * the list fills all ROUNDS entries). */
static int compile_lists(struct tn_image *img, const struct tn_plan *p, const struct tn_info *dev)
{
    unsigned region = TN_REGION_INJ;
    struct lists ls;
    if (lists_build(&ls, p) != 0)
        return TN_ENOMEM;
    uint32_t *w = calloc(((size_t)dev->rounds + 1) * TN_DESC_WORDS, sizeof *w);
    bool own[TN_MAX_LANES] = {false};
    int rc = w == NULL ? TN_ENOMEM : 0;
    for (unsigned l = 0; l < dev->lanes && rc == 0; l++) {
        uint32_t ends = broadcast_ends(&ls, dev, l, &own[l]);
        rc = burst_entries(img, dev, TN_NODE_ALL, region, tn_list_off(dev, l, 0), w,
                           TN_DESC_WORDS * ends);
    }
    for (uint32_t k = 0; k < ls.nkeys && rc == 0; k++) {
        uint32_t n = ls.first[k + 1] - ls.first[k];
        if (n == 0)
            continue;
        uint32_t words = encode_list(p, &ls, k, w);
        if (own[k % TN_MAX_LANES] && n < dev->rounds) {
            w[words] = w[words + 1] = 0;
            words += TN_DESC_WORDS;
        }
        uint32_t node = k / TN_MAX_LANES, lane = k % TN_MAX_LANES;
        rc = burst_entries(img, dev, node, region, tn_list_off(dev, lane, 0), w, words);
    }
    free(w);
    lists_free(&ls);
    return rc;
}

/* Eject descriptors, a table per lane indexed by round: one broadcast per
 * lane clears the rounds of the run (no descriptor of an earlier load
 * survives), then each (node, lane) gets its descriptors in bursts of
 * consecutive rounds (empty rounds up to TN_IMAGE_GAP words apart are
 * written as zeros rather than paying for another burst). */
static int compile_ejects(struct tn_image *img, const struct tn_plan *p, const struct tn_info *dev)
{
    uint32_t nr = p->nrounds, nkeys = p->topo.n * TN_MAX_LANES;
    uint32_t *w = calloc(((size_t)nr + 1) * TN_DESC_WORDS, sizeof *w);
    /* at[k * nr + r]: 1 + the index in ej[] of (node, lane) k's descriptor
     * of round r, 0 if none */
    uint32_t *at = calloc((size_t)nkeys * (nr ? nr : 1), sizeof *at);
    int rc = w == NULL || at == NULL ? TN_ENOMEM : 0;
    for (unsigned l = 0; l < dev->lanes && rc == 0 && nr > 0; l++)
        rc = burst_entries(img, dev, TN_NODE_ALL, TN_REGION_EJ, tn_list_off(dev, l, 0), w,
                           TN_DESC_WORDS * nr);
    for (uint32_t r = 0; r < nr && rc == 0; r++)
        for (uint32_t i = 0; i < p->rounds[r].nej; i++)
            at[((size_t)p->rounds[r].ej[i].node * TN_MAX_LANES + p->rounds[r].ej[i].lane) * nr + r] =
                i + 1;
    for (uint32_t k = 0; k < nkeys && rc == 0; k++) {
        const uint32_t *u = at + (size_t)k * nr;
        for (uint32_t r = 0; r < nr && rc == 0;) {
            if (!u[r]) {
                r++;
                continue;
            }
            uint32_t e = r + 1, empty = 0;   /* [r, e): the burst's rounds */
            for (uint32_t q = r + 1; q < nr && empty * TN_DESC_WORDS <= TN_IMAGE_GAP; q++) {
                empty = u[q] ? 0 : empty + 1;
                if (u[q])
                    e = q + 1;
            }
            memset(w, 0, (size_t)(e - r) * TN_DESC_WORDS * sizeof *w);
            for (uint32_t q = r; q < e; q++)
                if (u[q])
                    tn_desc_eject(&p->rounds[q].ej[u[q] - 1], q, w + TN_DESC_WORDS * (q - r));
            rc = burst_entries(img, dev, k / TN_MAX_LANES, TN_REGION_EJ,
                               tn_list_off(dev, k % TN_MAX_LANES, r), w, TN_DESC_WORDS * (e - r));
            r = e;
        }
    }
    free(w);
    free(at);
    return rc;
}

/* Relay packets staged at their sources: data words with the head and
 * tail flags in bits 30 and 31. */
static int compile_stage(struct tn_image *img, const struct tn_plan *p, uint64_t seed)
{
    for (uint32_t i = 0; i < p->nstage; i++) {
        const struct tn_plan_stage *st = &p->stage[i];
        uint32_t n = tn_plan_stage_words(p, i, seed, NULL, NULL, 0);
        uint32_t *d = burst(img, TN_ADDR_NODE(st->node, TN_REGION_MEM, st->addr), n);
        uint8_t *fl = malloc(n ? n : 1);
        if (d == NULL || fl == NULL) {
            free(fl);
            return TN_ENOMEM;
        }
        tn_plan_stage_words(p, i, seed, d, fl, n);
        for (uint32_t k = 0; k < n; k++)
            d[k] |= (fl[k] & 1 ? TN_MEM_HEAD : 0) | (fl[k] & 2 ? TN_MEM_TAIL : 0);
        free(fl);
        img->mem_words += n;
    }
    return 0;
}

/* Each node's messages before round 0 (no flags), then the staged relay
 * packets. */
static int compile_mem(struct tn_image *img, const struct tn_plan *p, const struct tn_info *dev,
                       uint64_t seed)
{
    uint32_t *tmp = malloc((size_t)dev->mem_depth * sizeof *tmp);
    int rc = tmp == NULL ? TN_ENOMEM : 0;
    /* relay-only plans (mem_base 0) stage everything they send */
    bool layout = !(p->nstage && p->mem_base == 0);
    for (uint32_t v = 0; v < p->topo.n && layout && rc == 0; v++) {
        uint32_t n = tn_plan_init_mem(p, seed, v, tmp, dev->mem_depth);
        if (n == 0)
            continue;
        rc = burst_copy(img, TN_ADDR_NODE(v, TN_REGION_MEM, 0), tmp, n);
        img->mem_words += n;
    }
    free(tmp);
    return rc == 0 ? compile_stage(img, p, seed) : rc;
}

static int compile_rounds(struct tn_image *img, const struct tn_plan *p)
{
    uint32_t *w = p->nrounds ? burst(img, TN_G_DURATION(0), p->nrounds) : img->words;
    if (p->nrounds && w == NULL)
        return TN_ENOMEM;
    for (uint32_t r = 0; r < p->nrounds; r++)
        w[r] = (uint32_t)p->rounds[r].duration;
    w = burst(img, TN_G_NROUNDS, 1);
    if (w == NULL)
        return TN_ENOMEM;
    w[0] = p->nrounds;
    return 0;
}

int tn_image_compile(struct tn_image *img, const struct tn_plan *p,
                     const struct tn_info *dev, uint64_t seed, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    int rc = tn_image_check(p, dev, err, errlen);
    if (rc != 0)
        return rc;
    rc = compile_cfg(img, p);
    if (rc == 0)
        rc = compile_lists(img, p, dev);
    if (rc == 0)
        rc = compile_ejects(img, p, dev);
    if (rc == 0)
        rc = compile_mem(img, p, dev, seed);
    if (rc == 0)
        rc = compile_rounds(img, p);
    if (rc != 0) {
        tn_image_free(img);
        return tn_errf(err, errlen, rc, "out of memory compiling the image");
    }
    return 0;
}

void tn_image_free(struct tn_image *img)
{
    free(img->bursts);
    free(img->words);
    memset(img, 0, sizeof *img);
}

size_t tn_image_bytes(const struct tn_image *img)
{
    return img->nwords * 4;
}
