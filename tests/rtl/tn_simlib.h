/* SPDX-License-Identifier: MIT */
/* Test helpers shared by the RTL network tests (plain C): load a simulator
 * model with dlopen(), the bus and the address map of docs/hardware.md
 * (round settings, inject descriptor lists, eject descriptor tables, eject
 * records, durations, runs and epochs, node status), torus geometry, the
 * reference CRC-32 and a deterministic random generator. */
#ifndef TN_SIMLIB_H
#define TN_SIMLIB_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tn_sim;

struct simlib {
    void *dl;
    struct tn_sim *(*create)(void);
    void (*destroy)(struct tn_sim *);
    void (*reset)(struct tn_sim *);
    void (*step)(struct tn_sim *, uint64_t);
    uint64_t (*cycles)(const struct tn_sim *);
    uint64_t (*net_cycles)(const struct tn_sim *);
    uint64_t (*plane_cycles)(const struct tn_sim *, unsigned);
    void (*free_run)(struct tn_sim *, int);
    void (*eval_all)(struct tn_sim *, int);
    int (*bus_write)(struct tn_sim *, uint32_t, uint32_t);
    int (*bus_read)(struct tn_sim *, uint32_t, uint32_t *);
    int (*byte_write)(struct tn_sim *, const uint8_t *, size_t);
    size_t (*byte_read)(struct tn_sim *, uint8_t *, size_t);
    int (*trace_open)(struct tn_sim *, const char *, uint64_t, uint64_t);
    void (*trace_close)(struct tn_sim *);
    const char *(*build_info)(void);
    struct tn_sim *s;
    /* device INFO */
    unsigned dim[3], w, lanes, mem_depth, rounds, alpha, n;
    uint32_t version, params;
    /* derived: flit memory banks, bits of round-relative cycles, relay
     * hardware, log2(ROUNDS) (RW of the address map) */
    unsigned banks, dw, relay, rw;
    int bus_errors;
};

/* ---- address map (docs/hardware.md, "Address map") ---- */
#define A_NODE(n, reg, off) ((((uint32_t)(n)) << 20) | ((uint32_t)(reg) << 16) | (uint32_t)(off))
#define A_BCAST(reg, off) A_NODE(0xFFEu, reg, off)
#define A_GLOB(off) ((0xFFFu << 20) | (uint32_t)(off))
#define SL_ALL 0xFFEu /* node "every node" (write only) */

/* node regions */
enum { RG_MEM = 0, RG_CFG = 1, RG_INJ = 2, RG_EJ = 3, RG_REC = 4, RG_ST = 5, RG_RT = 6 };

/* global registers */
#define G_VERSION 0x000
#define G_DIMS 0x001
#define G_W 0x002
#define G_LANES 0x003
#define G_MEM_DEPTH 0x004
#define G_ROUNDS 0x005
#define G_ALPHA 0x006
#define G_PARAMS 0x007
#define G_CTRL 0x010
#define G_NROUNDS 0x011
#define G_STATUS 0x012
#define G_ROUND 0x013
#define G_CYCLE 0x014
#define G_START 0x016
#define G_END 0x018
#define G_RUNS 0x01A
#define G_ERRMAP 0x800
#define G_DURATION 0x8000

#define CTRL_START 1u
#define CTRL_ABORT 2u
#define CTRL_CLEAR 4u
#define STATUS_RUNNING 1u
#define STATUS_DONE 2u
#define STATUS_ERROR 4u
#define STATUS_ABORTED 8u

/* node status registers (region 5) and FLAGS bits */
enum {
    ST_FLAGS = 0, ST_OVERRUN = 1, ST_SHORT = 2, ST_BOUNDS = 3, ST_COLL = 4, ST_LATCH = 5,
    ST_UNRT = 6, ST_DROP = 7, ST_AROUND = 8, ST_CONFLICT = 9
};
#define FL_OVERRUN 0x01u
#define FL_SHORT 0x02u
#define FL_EBOUNDS 0x04u
#define FL_IBOUNDS 0x08u
#define FL_COLL 0x10u
#define FL_UNRT 0x20u
#define FL_DROP 0x40u
#define FL_CONFLICT 0x80u

/* routing registers (region 6) */
#define RT_COORD 18
#define RT_ID 19

/* a flit memory word: data, head bit 30, tail bit 31 */
#define MEM_HEAD (1u << 30)
#define MEM_TAIL (1u << 31)

/* CFG word: output o's select at bits 4o+3:4o */
#define SEL_OFF 0u
#define SEL_LANE(l) (1u + (unsigned)(l))
#define SEL_PORT(p) (8u + (unsigned)(p))
#define SEL_RELAY 15u
#define CFG_SEL(o, sel) ((uint32_t)(sel) << (4 * (o)))

/* eject record error bits */
#define REC_OVERRUN 1u
#define REC_SHORT 2u
#define REC_BOUNDS 4u

#define SL_SYM(name, field)                                                  \
    do {                                                                     \
        *(void **)(&L->field) = dlsym(L->dl, name);                          \
        if (!L->field) {                                                     \
            fprintf(stderr, "model %s lacks %s: rebuild it (make sim)\n", path, name); \
            return -1;                                                       \
        }                                                                    \
    } while (0)

static inline void sl_wr(struct simlib *L, uint32_t a, uint32_t d)
{
    if (L->bus_write(L->s, a, d))
        L->bus_errors++;
}

static inline uint32_t sl_rd(struct simlib *L, uint32_t a)
{
    uint32_t d = 0;
    if (L->bus_read(L->s, a, &d))
        L->bus_errors++;
    return d;
}

static inline unsigned sl_log2(unsigned v)
{
    unsigned r = 0;
    while ((1u << r) < v)
        r++;
    return r;
}

/* Read INFO into L (after a reset too). */
static inline void sl_info(struct simlib *L)
{
    uint32_t dims = sl_rd(L, A_GLOB(G_DIMS));
    L->dim[0] = dims & 0xFF;
    L->dim[1] = (dims >> 8) & 0xFF;
    L->dim[2] = (dims >> 16) & 0xFF;
    L->version = sl_rd(L, A_GLOB(G_VERSION));
    L->w = sl_rd(L, A_GLOB(G_W));
    L->lanes = sl_rd(L, A_GLOB(G_LANES));
    L->mem_depth = sl_rd(L, A_GLOB(G_MEM_DEPTH));
    L->rounds = sl_rd(L, A_GLOB(G_ROUNDS));
    L->alpha = sl_rd(L, A_GLOB(G_ALPHA));
    L->params = sl_rd(L, A_GLOB(G_PARAMS));
    L->banks = 1u << (L->params & 0xF);
    L->dw = (L->params >> 8) & 0x1F;
    L->relay = (L->params >> 16) & 1;
    L->rw = sl_log2(L->rounds);
    L->n = L->dim[0] * L->dim[1] * L->dim[2];
}

/* Load the model at path, create and reset it, read INFO: 0 or -1. */
static inline int sl_open(struct simlib *L, const char *path)
{
    memset(L, 0, sizeof(*L));
    L->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!L->dl) {
        fprintf(stderr, "cannot load model %s: %s: run make sim\n", path, dlerror());
        return -1;
    }
    SL_SYM("tn_sim_create", create);
    SL_SYM("tn_sim_destroy", destroy);
    SL_SYM("tn_sim_reset", reset);
    SL_SYM("tn_sim_step", step);
    SL_SYM("tn_sim_cycles", cycles);
    SL_SYM("tn_sim_net_cycles", net_cycles);
    SL_SYM("tn_sim_plane_cycles", plane_cycles);
    SL_SYM("tn_sim_free_run", free_run);
    SL_SYM("tn_sim_eval_all", eval_all);
    SL_SYM("tn_sim_bus_write", bus_write);
    SL_SYM("tn_sim_bus_read", bus_read);
    SL_SYM("tn_sim_byte_write", byte_write);
    SL_SYM("tn_sim_byte_read", byte_read);
    SL_SYM("tn_sim_trace_open", trace_open);
    SL_SYM("tn_sim_trace_close", trace_close);
    SL_SYM("tn_sim_build_info", build_info);
    L->s = L->create();
    if (!L->s)
        return -1;
    L->reset(L->s);
    sl_info(L);
    return 0;
}

/* The opening of an RTL test's main: its usage line when the model path
 * is missing (exit code 1), the seed from argv[seed_arg] when given
 * (seed_arg 0: the test takes none), the model opened (2 if it cannot be).
 * Returns 0 or that exit code. */
static inline int sl_start(struct simlib *L, int argc, char **argv, const char *args, int seed_arg,
                           uint64_t *seed)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s %s\n", argv[0], args);
        return 1;
    }
    if (seed_arg > 0 && argc > seed_arg)
        *seed = strtoull(argv[seed_arg], NULL, 0);
    return sl_open(L, argv[1]) ? 2 : 0;
}

static inline void sl_close(struct simlib *L)
{
    if (L->s)
        L->destroy(L->s);
    if (L->dl)
        dlclose(L->dl);
}

static inline uint32_t sl_wmask(const struct simlib *L)
{
    return L->w >= 32 ? 0xFFFFFFFFu : (1u << L->w) - 1;
}

static inline uint64_t sl_rd48(struct simlib *L, uint32_t lo_addr)
{
    uint64_t lo = sl_rd(L, lo_addr);
    uint64_t hi = sl_rd(L, lo_addr + 1);
    return lo | (hi << 32);
}

/* ---- tables ---- */

/* Offsets of the two-word entries: INJ lane l entry i, EJ lane l round r,
 * REC lane l round r (three words, at 3 r + w). */
static inline uint32_t sl_inj_off(const struct simlib *L, unsigned lane, unsigned idx, unsigned word)
{
    return (uint32_t)lane << (L->rw + 1) | (uint32_t)idx << 1 | word;
}
static inline uint32_t sl_ej_off(const struct simlib *L, unsigned lane, unsigned round, unsigned word)
{
    return (uint32_t)lane << (L->rw + 1) | (uint32_t)round << 1 | word;
}
static inline uint32_t sl_rec_off(const struct simlib *L, unsigned lane, unsigned round, unsigned word)
{
    return ((uint32_t)lane << (L->rw + 2)) + (uint32_t)round * 3 + word;
}

/* Descriptor words (inject word 0, eject word 0, the common word 1); an
 * inject entry's hop is its relay heads' output (0..5, 6 here, 7 none). */
static inline uint32_t sl_inj_w0(int valid, int relay, unsigned hop, unsigned round, unsigned start)
{
    return (valid ? 1u << 31 : 0) | (relay ? 1u << 30 : 0) | (hop & 7u) << 27 | (round & 0x7FFu) << 16 |
           (start & 0xFFFFu);
}
static inline uint32_t sl_ej_w0(int valid, int relay, unsigned port)
{
    return (valid ? 1u << 31 : 0) | (relay ? 1u << 30 : 0) | (port & 7u);
}
static inline uint32_t sl_desc_w1(unsigned len, unsigned addr)
{
    return (len & 0xFFFFu) << 16 | (addr & 0xFFFFu);
}

/* Inject entry idx of node's lane (node SL_ALL: every node): word 0 is
 * written immediately before word 1, which commits the entry. */
static inline void sl_inj_w(struct simlib *L, unsigned node, unsigned lane, unsigned idx, uint32_t w0,
                            unsigned len, unsigned addr)
{
    sl_wr(L, A_NODE(node, RG_INJ, sl_inj_off(L, lane, idx, 0)), w0);
    sl_wr(L, A_NODE(node, RG_INJ, sl_inj_off(L, lane, idx, 1)), sl_desc_w1(len, addr));
}
/* ... a circuit stream */
static inline void sl_inj(struct simlib *L, unsigned node, unsigned lane, unsigned idx,
                          unsigned round, unsigned start, unsigned len, unsigned addr)
{
    sl_inj_w(L, node, lane, idx, sl_inj_w0(1, 0, 0, round, start), len, addr);
}
/* ... a relay stream whose heads leave by output hop */
static inline void sl_inj_relay(struct simlib *L, unsigned node, unsigned lane, unsigned idx,
                                unsigned round, unsigned start, unsigned len, unsigned addr, unsigned hop)
{
    sl_inj_w(L, node, lane, idx, sl_inj_w0(1, 1, hop, round, start), len, addr);
}
/* The end of a lane's list (valid 0) at entry idx. */
static inline void sl_inj_end(struct simlib *L, unsigned node, unsigned lane, unsigned idx)
{
    sl_wr(L, A_NODE(node, RG_INJ, sl_inj_off(L, lane, idx, 0)), 0);
    sl_wr(L, A_NODE(node, RG_INJ, sl_inj_off(L, lane, idx, 1)), 0);
}
/* Eject descriptor of node's lane in round: circuit from input port, or relay. */
static inline void sl_ej(struct simlib *L, unsigned node, unsigned lane, unsigned round,
                         unsigned port, int relay, unsigned len, unsigned addr)
{
    sl_wr(L, A_NODE(node, RG_EJ, sl_ej_off(L, lane, round, 0)), sl_ej_w0(1, relay, port));
    sl_wr(L, A_NODE(node, RG_EJ, sl_ej_off(L, lane, round, 1)), sl_desc_w1(len, addr));
}
/* The lane is off in the round. */
static inline void sl_ej_off_round(struct simlib *L, unsigned node, unsigned lane, unsigned round)
{
    sl_wr(L, A_NODE(node, RG_EJ, sl_ej_off(L, lane, round, 0)), 0);
    sl_wr(L, A_NODE(node, RG_EJ, sl_ej_off(L, lane, round, 1)), 0);
}

/* A clean slate for a schedule of nrounds rounds on every node: every
 * lane's list ends at entry 0, every eject lane is off in every round,
 * every round's outputs are off. */
static inline void sl_clear_tables(struct simlib *L, unsigned nrounds)
{
    for (unsigned l = 0; l < L->lanes; l++) {
        sl_inj_end(L, SL_ALL, l, 0);
        for (unsigned r = 0; r < nrounds; r++)
            sl_ej_off_round(L, SL_ALL, l, r);
    }
    for (unsigned r = 0; r < nrounds; r++)
        sl_wr(L, A_BCAST(RG_CFG, r), 0);
}

static inline void sl_cfg(struct simlib *L, unsigned node, unsigned round, uint32_t word)
{
    sl_wr(L, A_NODE(node, RG_CFG, round), word);
}

static inline void sl_dur(struct simlib *L, unsigned round, unsigned d)
{
    sl_wr(L, A_GLOB(G_DURATION + round), d);
}

/* ---- records ---- */
struct sl_rec {
    unsigned epoch, err, count, first, last;
    uint32_t crc;
};

static inline void sl_rec_read(struct simlib *L, unsigned node, unsigned lane, unsigned round,
                               struct sl_rec *r)
{
    uint32_t w0 = sl_rd(L, A_NODE(node, RG_REC, sl_rec_off(L, lane, round, 0)));
    uint32_t w1 = sl_rd(L, A_NODE(node, RG_REC, sl_rec_off(L, lane, round, 1)));
    r->crc = sl_rd(L, A_NODE(node, RG_REC, sl_rec_off(L, lane, round, 2)));
    r->epoch = w0 >> 28;
    r->err = (w0 >> 16) & 7;
    r->count = w0 & 0xFFFF;
    r->first = w1 & 0xFFFF;
    r->last = w1 >> 16;
}

static inline int sl_rec_eq(const struct sl_rec *a, const struct sl_rec *b)
{
    return a->epoch == b->epoch && a->err == b->err && a->count == b->count &&
           a->first == b->first && a->last == b->last && a->crc == b->crc;
}

/* "epoch E err E count C first F last L crc X" into buf. */
static inline const char *sl_rec_str(const struct sl_rec *r, char *buf, size_t len)
{
    snprintf(buf, len, "epoch %u err %u count %u first %u last %u crc %08x", r->epoch, r->err,
             r->count, r->first, r->last, (unsigned)r->crc);
    return buf;
}

/* ---- runs ---- */

/* The epoch the next filed records carry: RUNS mod 16. */
static inline unsigned sl_epoch(struct simlib *L)
{
    return sl_rd(L, A_GLOB(G_RUNS)) & 15;
}

/* Start a run of nrounds rounds lasting total cycles and clock it to its
 * end (and margin more bus cycles): the STATUS word after it. */
static inline uint32_t sl_run(struct simlib *L, unsigned nrounds, uint64_t total, unsigned margin)
{
    sl_wr(L, A_GLOB(G_NROUNDS), nrounds);
    sl_wr(L, A_GLOB(G_CTRL), CTRL_START);
    L->step(L->s, total + margin);
    return sl_rd(L, A_GLOB(G_STATUS));
}

/* ---- geometry: node id = x + X*(y + Y*z); directions 0 X+,1 X-,2 Y+,3 Y-,4 Z+,5 Z- */
static inline unsigned sl_coord(const struct simlib *L, unsigned id, int d)
{
    if (d == 0)
        return id % L->dim[0];
    if (d == 1)
        return (id / L->dim[0]) % L->dim[1];
    return id / (L->dim[0] * L->dim[1]);
}

static inline unsigned sl_id(const struct simlib *L, unsigned x, unsigned y, unsigned z)
{
    return x + L->dim[0] * (y + L->dim[1] * z);
}

static inline int sl_dir_ok(const struct simlib *L, int dir)
{
    return L->dim[dir / 2] > 1;
}

/* Neighbour of id in direction dir (the dimension must have size > 1). */
static inline unsigned sl_nbr(const struct simlib *L, unsigned id, int dir)
{
    unsigned c[3] = {sl_coord(L, id, 0), sl_coord(L, id, 1), sl_coord(L, id, 2)};
    int dim = dir / 2;
    unsigned k = L->dim[dim];
    c[dim] = (dir & 1) ? (c[dim] + k - 1) % k : (c[dim] + 1) % k;
    return sl_id(L, c[0], c[1], c[2]);
}

/* Does the arc (id, dir) cross the wraparound of its dimension? */
static inline int sl_wraps(const struct simlib *L, unsigned id, int dir)
{
    int dim = dir / 2;
    unsigned c = sl_coord(L, id, dim);
    return (dir & 1) ? c == 0 : c == L->dim[dim] - 1;
}

/* ---- reference CRC-32 (IEEE, reflected), each flit as ceil(W/8) bytes LE ---- */
static inline uint32_t sl_crc_flit(uint32_t crc, uint32_t data, unsigned w)
{
    for (unsigned b = 0; b < (w + 7) / 8; b++) {
        crc ^= (data >> (8 * b)) & 0xFF;
        for (int k = 0; k < 8; k++)
            crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return crc;
}

/* The record CRC of n flits (data bits of each word). */
static inline uint32_t sl_crc(const uint32_t *data, unsigned n, unsigned w)
{
    uint32_t crc = 0xFFFFFFFFu, mask = w >= 32 ? 0xFFFFFFFFu : (1u << w) - 1;
    for (unsigned k = 0; k < n; k++)
        crc = sl_crc_flit(crc, data[k] & mask, w);
    return ~crc;
}

/* ---- deterministic random numbers (xorshift64*) ---- */
static inline uint32_t sl_rand(uint64_t *st)
{
    uint64_t x = *st;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *st = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1DULL) >> 32);
}

#endif
