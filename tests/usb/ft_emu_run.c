/* SPDX-License-Identifier: MIT */
/* Run a command against emulated FT2232H boards (ft2232h_emu.h) whose
 * channel B echoes, stays silent, or is the Verilated torus (through the
 * sim transport), e.g.
 *   build/usb/ft_emu_run -s TN0001 -s TN0002 -- torusctl list
 *   build/usb/ft_emu_run -m sim:3x3x3 -- torusctl run gossip --dims 3x3x3 --backend usb
 * Each -s adds a board with that serial (bus 1, devices 2, 3, ...); with no
 * -s one board without a serial is added. -f makes the torus board fail
 * on purpose (docs/usb.md, "Device failures"):
 *   build/usb/ft_emu_run -m sim:3x3x3 -f unplug@load:20 -- torusctl run ...
 * Exit status: the command's. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ft2232h_emu.h"
#include "proto.h"
#include "transport.h"

extern const struct tn_transport_ops tn_transport_sim_ops;

#define MAX_BOARDS 8

/* An echo: what the host writes comes back, in order. */
struct echo {
    pthread_mutex_t lock;
    uint8_t buf[1 << 16];
    size_t head, tail;      /* ring indices, free-running */
    int silent;
};

static void echo_rx(void *user, const uint8_t *b, size_t n)
{
    struct echo *e = user;
    pthread_mutex_lock(&e->lock);
    for (size_t i = 0; i < n && !e->silent; i++) {
        if (e->tail - e->head == sizeof e->buf)
            break;                          /* overrun: bytes are lost */
        e->buf[e->tail++ % sizeof e->buf] = b[i];
    }
    pthread_mutex_unlock(&e->lock);
}

static size_t echo_tx(void *user, uint8_t *b, size_t cap)
{
    struct echo *e = user;
    size_t n = 0;
    pthread_mutex_lock(&e->lock);
    while (n < cap && e->head != e->tail)
        b[n++] = e->buf[e->head++ % sizeof e->buf];
    pthread_mutex_unlock(&e->lock);
    return n;
}

/* A torus board that fails on purpose (-f MODE@EVENT): the sim model
 * behind the chip until EVENT, a request frame the host sends (the n-th
 * WRITE of the load, the START of the run, the first READ after it: the
 * readback); from then on (the frame itself reaches the board) it stays
 * silent, sends noise, is unplugged (every ioctl fails with ENODEV), or
 * delays its answers by slow_ms (every one, or the next slow_left). */
enum fail_mode { FAIL_QUIET, FAIL_GARBAGE, FAIL_UNPLUG, FAIL_SLOW };

struct failing {
    const struct tn_transport_ops *ops;
    struct tn_transport *t;
    enum fail_mode mode;
    int slow_ms;
    unsigned slow_left;       /* slow: deliveries still to delay (0: all) */
    uint8_t type;             /* the frame type of EVENT */
    unsigned nth;             /* ... its n-th occurrence */
    bool after_start;         /* count only frames after the first START */
    bool started;
    unsigned seen;
    int pos;                  /* byte of the current frame (0: its version) */
    volatile bool tripped;
    uint64_t rng;
    uint8_t held[4096];       /* slow: an answer waiting since held_us */
    size_t nheld;
    int64_t held_us;
};

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The request frame types the host sends, from the second byte of each
 * SLIP frame (version and type are never escaped). */
static void watch_frames(struct failing *f, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (b[i] == TN_SLIP_END) {
            f->pos = 0;
            continue;
        }
        if (f->pos++ != 1)
            continue;
        if (b[i] == f->type && (!f->after_start || f->started) && ++f->seen == f->nth)
            f->tripped = true;
        if (b[i] == TN_T_START)
            f->started = true;
    }
}

static void fail_rx(void *user, const uint8_t *b, size_t n)
{
    struct failing *f = user;
    bool dead = f->tripped && f->mode != FAIL_SLOW;
    watch_frames(f, b, n);
    if (!dead && f->ops->write(f->t, b, n) != 0)
        fprintf(stderr, "ft_emu_run: the model's transport failed: bytes lost\n");
}

static uint8_t noise(struct failing *f)
{
    f->rng = f->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint8_t)(f->rng >> 56);
}

static size_t fail_tx(void *user, uint8_t *b, size_t cap)
{
    struct failing *f = user;
    if (f->tripped && (f->mode == FAIL_QUIET || f->mode == FAIL_UNPLUG))
        return 0;
    if (f->tripped && f->mode == FAIL_GARBAGE) {
        size_t n = cap < 64 ? cap : 64;
        for (size_t i = 0; i < n; i++)
            b[i] = noise(f);
        return n;
    }
    if (!f->tripped || f->mode != FAIL_SLOW) {
        int n = f->ops->read(f->t, b, cap, 1);
        return n > 0 ? (size_t)n : 0;
    }
    if (f->nheld < sizeof f->held) {
        int n = f->ops->read(f->t, f->held + f->nheld, sizeof f->held - f->nheld, 1);
        if (n > 0 && f->nheld == 0)
            f->held_us = now_us();
        f->nheld += n > 0 ? (size_t)n : 0;
    }
    if (f->nheld == 0 || now_us() - f->held_us < (int64_t)f->slow_ms * 1000)
        return 0;
    size_t n = f->nheld < cap ? f->nheld : cap;
    memcpy(b, f->held, n);
    memmove(f->held, f->held + n, f->nheld - n);
    f->nheld -= n;
    f->held_us = now_us();
    if (f->slow_left > 0 && --f->slow_left == 0)
        f->slow_ms = 0; /* on time from now on */
    return n;
}

/* "MODE@EVENT": MODE quiet, garbage, unplug or slow:MS[:N]; EVENT load:N
 * (the n-th WRITE), run (START) or readback (the first READ after START). */
static int parse_failure(const char *s, struct failing *f)
{
    char mode[16], event[16];
    unsigned v = 0, n = 0;
    int end = 0;
    if (sscanf(s, "%15[a-z:0-9]@%15[a-z:0-9]", mode, event) != 2)
        return -1;
    if (strcmp(mode, "quiet") == 0)
        f->mode = FAIL_QUIET;
    else if (strcmp(mode, "garbage") == 0)
        f->mode = FAIL_GARBAGE;
    else if (strcmp(mode, "unplug") == 0)
        f->mode = FAIL_UNPLUG;
    else if ((sscanf(mode, "slow:%u%n", &v, &end) == 1 && mode[end] == '\0') ||
             (sscanf(mode, "slow:%u:%u%n", &v, &n, &end) == 2 && mode[end] == '\0' && n > 0)) {
        if (v == 0 || v >= 100000)
            return -1;
        f->mode = FAIL_SLOW;
        f->slow_ms = (int)v;
        f->slow_left = n;
    } else
        return -1;
    f->nth = 1;
    if (sscanf(event, "load:%u", &f->nth) == 1 && f->nth > 0)
        f->type = TN_T_WRITE;
    else if (strcmp(event, "run") == 0)
        f->type = TN_T_START;
    else if (strcmp(event, "readback") == 0) {
        f->type = TN_T_READ;
        f->after_start = true;
    } else
        return -1;
    f->rng = 1;
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: ft_emu_run [-s SERIAL]... [-m echo|silent|sim:XxYxZ[:LANES]] [-p] "
            "-- command [args...]\n"
            "  -s SERIAL  add a board with this serial (repeatable)\n"
            "  -m MODEL   what channel B does: echo (default), silent, or the\n"
            "             Verilated torus of that geometry (sim backend's model;\n"
            "             one board only)\n"
            "  -p         pace the emulated UART at the configured baud rate\n"
            "  -f MODE@EVENT  with -m sim: the board fails from EVENT on (load:N, the\n"
            "             N-th WRITE; run, the START; readback, the first READ after\n"
            "             it): MODE quiet (no answer), garbage (noise), unplug (the\n"
            "             chip disappears) or slow:MS[:N] (every answer, or the next\n"
            "             N deliveries of bytes, MS late)\n");
    return 1;
}

int main(int argc, char **argv)
{
    const char *serials[MAX_BOARDS];
    int nserial = 0, silent = 0, paced = 0, i;
    const char *sim = NULL;
    struct tn_transport *simt = NULL;
    static struct failing fail;
    bool failing = false;
    static struct echo models[MAX_BOARDS];
    struct ft_emu *e;

    if (ft_emu_reexec(argv) != 0)
        return 1;
    for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc && nserial < MAX_BOARDS)
            serials[nserial++] = argv[++i];
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc && strncmp(argv[i + 1], "sim:", 4) == 0)
            sim = argv[++i] + 4;
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            silent = strcmp(argv[++i], "silent") == 0;
        else if (strcmp(argv[i], "-p") == 0)
            paced = 1;
        else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc) {
            if (parse_failure(argv[++i], &fail) != 0) {
                fprintf(stderr, "ft_emu_run: bad -f '%s'\n", argv[i]);
                return usage();
            }
            failing = true;
        }
        else
            return usage();
    }
    if (i + 1 >= argc || (sim != NULL && nserial > 1) || (failing && sim == NULL))
        return usage();
    if (sim != NULL) {
        struct tn_transport_opts o;
        char err[512];
        char exe[4096], dir[4200];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        memset(&o, 0, sizeof o);
        o.backend = "sim";
        /* Models live in build/sim, one level above build/usb/ft_emu_run,
         * unless $TN_SIM_DIR says otherwise. */
        if (getenv("TN_SIM_DIR") == NULL && n > 0) {
            exe[n] = '\0';
            char *slash = strrchr(exe, '/');
            if (slash != NULL)
                *slash = '\0';
            snprintf(dir, sizeof dir, "%s/../sim", exe);
            o.sim_dir = dir;
        }
        if (sscanf(sim, "%ux%ux%u:%u", &o.dims[0], &o.dims[1], &o.dims[2], &o.lanes) < 3) {
            fprintf(stderr, "ft_emu_run: bad geometry '%s': use sim:XxYxZ[:LANES]\n", sim);
            return 1;
        }
        if (tn_transport_sim_ops.open(&simt, &o, err, sizeof err) != 0) {
            fprintf(stderr, "ft_emu_run: %s\n", err);
            return 1;
        }
    }
    e = ft_emu_new();
    if (e == NULL)
        return 1;
    for (int b = 0; b < (nserial ? nserial : 1); b++) {
        struct ft_emu_chip *c = ft_emu_add(e, 1, 2 + b, 0, 0,
                                           nserial ? serials[b] : NULL, NULL);
        if (c == NULL) {
            fprintf(stderr, "ft_emu_run: cannot add board %d\n", b);
            return 1;
        }
        pthread_mutex_init(&models[b].lock, NULL);
        models[b].silent = silent;
        if (simt != NULL && failing) {
            fail.ops = &tn_transport_sim_ops;
            fail.t = simt;
            ft_emu_connect(c, 1, &(struct ft_emu_port){ fail_rx, fail_tx, &fail });
            if (fail.mode == FAIL_UNPLUG)
                ft_emu_set_unplug_flag(c, &fail.tripped);
        } else if (simt != NULL)
            ft_emu_connect_transport(c, 1, &tn_transport_sim_ops, simt);
        else
            ft_emu_connect(c, 1, &(struct ft_emu_port){ echo_rx, echo_tx, &models[b] });
        ft_emu_set_paced(c, paced);
    }
    int st = ft_emu_spawn(e, argv + i + 1);
    ft_emu_free(e);
    if (simt != NULL)
        tn_transport_sim_ops.close(simt);
    return st < 0 ? 1 : st;
}
