/* SPDX-License-Identifier: MIT */
/* Test helpers shared by the RTL network tests (plain C): load a simulator
 * model with dlopen(), bus helpers, torus geometry, the reference CRC-32. */
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
    int (*bus_write)(struct tn_sim *, uint32_t, uint32_t);
    int (*bus_read)(struct tn_sim *, uint32_t, uint32_t *);
    int (*trace_open)(struct tn_sim *, const char *, uint64_t, uint64_t);
    void (*trace_close)(struct tn_sim *);
    const char *(*build_info)(void);
    struct tn_sim *s;
    /* device INFO */
    unsigned dim[3], w, lanes, mem_depth, rounds, alpha, n;
    int bus_errors;
};

#define SL_SYM(name, field)                                                  \
    do {                                                                     \
        *(void **)(&L->field) = dlsym(L->dl, name);                          \
        if (!L->field) {                                                     \
            fprintf(stderr, "model %s lacks %s\n", path, name);              \
            return -1;                                                       \
        }                                                                    \
    } while (0)

#define A_NODE(n, reg, off) ((((uint32_t)(n)) << 20) | ((uint32_t)(reg) << 16) | (uint32_t)(off))
#define A_BCAST(reg, off) A_NODE(0xFFEu, reg, off)
#define A_GLOB(off) ((0xFFFu << 20) | (uint32_t)(off))

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
    SL_SYM("tn_sim_bus_write", bus_write);
    SL_SYM("tn_sim_bus_read", bus_read);
    SL_SYM("tn_sim_trace_open", trace_open);
    SL_SYM("tn_sim_trace_close", trace_close);
    SL_SYM("tn_sim_build_info", build_info);
    L->s = L->create();
    if (!L->s)
        return -1;
    L->reset(L->s);
    uint32_t dims = sl_rd(L, A_GLOB(0x001));
    L->dim[0] = dims & 0xFF;
    L->dim[1] = (dims >> 8) & 0xFF;
    L->dim[2] = (dims >> 16) & 0xFF;
    L->w = sl_rd(L, A_GLOB(0x002));
    L->lanes = sl_rd(L, A_GLOB(0x003));
    L->mem_depth = sl_rd(L, A_GLOB(0x004));
    L->rounds = sl_rd(L, A_GLOB(0x005));
    L->alpha = sl_rd(L, A_GLOB(0x006));
    L->n = L->dim[0] * L->dim[1] * L->dim[2];
    return 0;
}

static inline void sl_close(struct simlib *L)
{
    if (L->s)
        L->destroy(L->s);
    if (L->dl)
        dlclose(L->dl);
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

static inline uint64_t sl_rd48(struct simlib *L, uint32_t lo_addr)
{
    uint64_t lo = sl_rd(L, lo_addr);
    uint64_t hi = sl_rd(L, lo_addr + 1);
    return lo | (hi << 32);
}

#endif
