/* SPDX-License-Identifier: MIT */
/* sim backend: loads the Verilated torus model for the requested geometry
 * (libtnsim_<X>x<Y>x<Z>[_l1].so, see sim/tn_sim.h) with dlopen() and talks
 * to its host bridge through the byte-stream functions, exactly the bytes a
 * board receives over its UART. The model only advances while the host
 * waits for an answer, and clocks its network only while that has work
 * (tn_sim_net_cycles counts those clocks). */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "tn_error.h"
#include "transport.h"

struct tn_sim;

struct sim_api {
    struct tn_sim *(*create)(void);
    void (*destroy)(struct tn_sim *);
    void (*reset)(struct tn_sim *);
    void (*step)(struct tn_sim *, uint64_t);
    uint64_t (*cycles)(const struct tn_sim *);
    int (*trace_open)(struct tn_sim *, const char *, uint64_t, uint64_t);
    void (*trace_close)(struct tn_sim *);
    const char *(*build_info)(void);
    int (*byte_write)(struct tn_sim *, const uint8_t *, size_t);
    size_t (*byte_read)(struct tn_sim *, uint8_t *, size_t);
    uint64_t (*net_cycles)(const struct tn_sim *);   /* optional */
};

struct tn_transport {
    void *dl;
    struct sim_api api;
    struct tn_sim *sim;
    int tracing;
};

/* Cycles simulated between two looks at the bridge's output. */
#define SIM_CHUNK 64

static int model_dir(const struct tn_transport_opts *o, char *dir, size_t len)
{
    const char *env = getenv("TN_SIM_DIR");
    if (o->sim_dir != NULL)
        return snprintf(dir, len, "%s", o->sim_dir) >= (int)len ? TN_EINVAL : 0;
    if (env != NULL && env[0] != '\0')
        return snprintf(dir, len, "%s", env) >= (int)len ? TN_EINVAL : 0;
    /* Next to the executable: build/torusctl finds build/sim/, an
     * installed PREFIX/bin/torusctl PREFIX/lib/torus/sim/ (make install). */
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return snprintf(dir, len, "build/sim") >= (int)len ? TN_EINVAL : 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash != NULL)
        *slash = '\0';
    if (snprintf(dir, len, "%s/sim", exe) >= (int)len)
        return TN_EINVAL;
    if (access(dir, F_OK) != 0 && snprintf(dir, len, "%s/../lib/torus/sim", exe) >= (int)len)
        return TN_EINVAL;
    return 0;
}

static int sim_open(struct tn_transport **out, const struct tn_transport_opts *o,
                    char *err, size_t errlen)
{
    char dir[PATH_MAX], path[PATH_MAX + 64], lanes[32] = "";
    int rc = model_dir(o, dir, sizeof dir);
    if (rc != 0) {
        snprintf(err, errlen, "simulator model directory name too long");
        return rc;
    }
    if (o->lanes != 0 && o->lanes != 6)
        snprintf(lanes, sizeof lanes, "_l%u", o->lanes);
    snprintf(path, sizeof path, "%s/libtnsim_%ux%ux%u%s.so", dir, o->dims[0],
             o->dims[1], o->dims[2], lanes);
    if (access(path, R_OK) != 0) {
        snprintf(err, errlen,
                 "no simulator model for %ux%ux%u%s at %s: build it with "
                 "'make sim-model DIMS=%ux%ux%u%s'",
                 o->dims[0], o->dims[1], o->dims[2], lanes, path, o->dims[0],
                 o->dims[1], o->dims[2], lanes);
        return TN_ENODEV;
    }
    struct tn_transport *t = calloc(1, sizeof *t);
    if (t == NULL)
        return TN_ENOMEM;
    t->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (t->dl == NULL) {
        snprintf(err, errlen, "cannot load simulator model %s: %s", path, dlerror());
        free(t);
        return TN_ENODEV;
    }
    struct {
        const char *name;
        void **slot;
    } syms[] = {
        { "tn_sim_create", (void **)&t->api.create },
        { "tn_sim_destroy", (void **)&t->api.destroy },
        { "tn_sim_reset", (void **)&t->api.reset },
        { "tn_sim_step", (void **)&t->api.step },
        { "tn_sim_cycles", (void **)&t->api.cycles },
        { "tn_sim_trace_open", (void **)&t->api.trace_open },
        { "tn_sim_trace_close", (void **)&t->api.trace_close },
        { "tn_sim_build_info", (void **)&t->api.build_info },
        { "tn_sim_byte_write", (void **)&t->api.byte_write },
        { "tn_sim_byte_read", (void **)&t->api.byte_read },
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        void *p = dlsym(t->dl, syms[i].name);
        if (p == NULL) {
            snprintf(err, errlen, "simulator model %s lacks %s: rebuild it with 'make sim'",
                     path, syms[i].name);
            dlclose(t->dl);
            free(t);
            return TN_ENODEV;
        }
        memcpy(syms[i].slot, &p, sizeof p);
    }
    /* models from before the network clock's gating lack it */
    void *nc = dlsym(t->dl, "tn_sim_net_cycles");
    memcpy(&t->api.net_cycles, &nc, sizeof nc);
    t->sim = t->api.create();
    if (t->sim == NULL) {
        dlclose(t->dl);
        free(t);
        return TN_ENOMEM;
    }
    if (o->trace != NULL) {
        int trc = t->api.trace_open(t->sim, o->trace, 0, UINT64_MAX);
        if (trc != 0) {
            if (trc == -2)
                snprintf(err, errlen,
                         "simulator model %s has no waveform support (by default only "
                         "the 3x3x3 model is built with it): rebuild it with "
                         "'make sim-model DIMS=%ux%ux%u%s SIM_TRACE=1'",
                         path, o->dims[0], o->dims[1], o->dims[2], lanes);
            else
                snprintf(err, errlen, "cannot open waveform file %s", o->trace);
            t->api.destroy(t->sim);
            dlclose(t->dl);
            free(t);
            return TN_EIO;
        }
        t->tracing = 1;
    }
    t->api.reset(t->sim);
    *out = t;
    return 0;
}

static int sim_write(struct tn_transport *t, const uint8_t *buf, size_t len)
{
    return t->api.byte_write(t->sim, buf, len) == 0 ? 0 : TN_EIO;
}

static int sim_read(struct tn_transport *t, uint8_t *buf, size_t len, int timeout_ms)
{
    double deadline = (double)tn_now_ms() + timeout_ms;
    for (;;) {
        size_t n = t->api.byte_read(t->sim, buf, len);
        if (n > 0)
            return (int)(n > INT_MAX ? INT_MAX : n);
        if ((double)tn_now_ms() >= deadline)
            return 0;
        t->api.step(t->sim, SIM_CHUNK);
    }
}

static void sim_close(struct tn_transport *t)
{
    if (t == NULL)
        return;
    if (t->tracing)
        t->api.trace_close(t->sim);
    t->api.destroy(t->sim);
    dlclose(t->dl);
    free(t);
}

static uint64_t sim_net_cycles(struct tn_transport *t)
{
    return t->api.net_cycles != NULL ? t->api.net_cycles(t->sim) : 0;
}

const struct tn_transport_ops tn_transport_sim_ops = {
    .name = "sim",
    .open = sim_open,
    .write = sim_write,
    .read = sim_read,
    .close = sim_close,
    .net_cycles = sim_net_cycles,
};
