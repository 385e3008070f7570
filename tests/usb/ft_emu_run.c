/* SPDX-License-Identifier: MIT */
/* Run a command against emulated FT2232H boards (ft2232h_emu.h) whose
 * channel B echoes, stays silent, or is the Verilated torus (through the
 * sim transport), e.g.
 *   build/usb/ft_emu_run -s TN0001 -s TN0002 -- torusctl list
 *   build/usb/ft_emu_run -m sim:3x3x3 -- torusctl run gossip --dims 3x3x3 --backend usb
 * Each -s adds a board with that serial (bus 1, devices 2, 3, ...); with no
 * -s one board without a serial is added. Exit status: the command's. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ft2232h_emu.h"
#include "../../host/transport.h"

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

static int usage(void)
{
    fprintf(stderr, "usage: ft_emu_run [-s SERIAL]... [-m echo|silent|sim:XxYxZ[:LANES]] [-p] "
            "-- command [args...]\n"
            "  -s SERIAL  add a board with this serial (repeatable)\n"
            "  -m MODEL   what channel B does: echo (default), silent, or the\n"
            "             Verilated torus of that geometry (sim backend's model;\n"
            "             one board only)\n"
            "  -p         pace the emulated UART at the configured baud rate\n");
    return 1;
}

int main(int argc, char **argv)
{
    const char *serials[MAX_BOARDS];
    int nserial = 0, silent = 0, paced = 0, i;
    const char *sim = NULL;
    struct tn_transport *simt = NULL;
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
        else
            return usage();
    }
    if (i + 1 >= argc || (sim != NULL && nserial > 1))
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
        if (simt != NULL)
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
