/* SPDX-License-Identifier: MIT */
/* Device options and opening (see cmd_dev.h). */
#include "cmd_dev.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "image.h"
#include "tn_error.h"
#include "usb.h"

const char tn_dev_help[] =
    "device (default: the simulated torus of --dims):\n"
    "  --dims XxYxZ      torus size; with sim, the model to load (default 7x7x7)\n"
    "  --backend B       sim, usb or serial (default sim; usb when --device or\n"
    "                    --busdev is given, serial when --port is)\n"
    "  --device V:P[:S]  usb board by vid:pid and optional serial (default 0403:6010)\n"
    "  --busdev BUS:DEV  usb board by position, as lsusb prints it\n"
    "  -I, --interface A|B  FT2232H channel (default B, as wired on the boards)\n"
    "  --baud N          line rate for usb and serial (default 12000000)\n"
    "  --port PATH       serial tty, e.g. /dev/ttyUSB1\n"
    "  --lanes N         sim: the LANES=1 or LANES=6 model (default 6)\n"
    "  --sim-dir DIR     sim: where the models are (default: build/sim next to torusctl)\n"
    "  --trace FILE.fst  sim: write a waveform of the whole session (the 3x3x3\n"
    "                    model of 6 lanes; any other needs 'make sim-model\n"
    "                    DIMS=XxYxZ[_l1] SIM_TRACE=1' first)\n"
    "  --timeout MS      longest silence of the device per request (default 500,\n"
    "                    sim 20000)\n";

void tn_dev_args_init(struct tn_dev_args *a)
{
    memset(a, 0, sizeof *a);
    tn_topo_parse(&a->dims, "7x7x7");
}

int tn_cmd_bad_option(const char *cmd, char **argv)
{
    fprintf(stderr, "%s: unknown or incomplete option '%s': see %s --help\n", cmd,
            argv[optind - 1], cmd);
    return TN_EXIT_USAGE;
}

int tn_dev_getopt(int argc, char **argv, const struct option *opts, struct tn_dev_args *a,
                  const char *cmd, int (*each)(void *ctx, int c, char **argv, bool *done),
                  void *ctx, bool *done)
{
    tn_dev_args_init(a);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "hI:", opts, NULL)) != -1) {
        int h = tn_dev_arg(a, c, optarg, cmd);
        if (h < 0)
            return TN_EXIT_USAGE;
        int ex = h > 0 ? 0 : each(ctx, c, argv, done);
        if (ex != 0 || *done)
            return ex;
    }
    return 0;
}

int tn_dev_arg(struct tn_dev_args *a, int c, const char *arg, const char *cmd)
{
    unsigned long v;
    switch (c) {
    case TN_OPT_DIMS:
        if (tn_topo_parse(&a->dims, arg)) {
            fprintf(stderr, "%s: bad --dims '%s': use e.g. 7x7x7, 8x8 or 16\n", cmd, arg);
            return -1;
        }
        a->dims_given = true;
        return 1;
    case TN_OPT_BACKEND:
        if (tn_transport_find(arg) == NULL) {
            fprintf(stderr, "%s: unknown --backend '%s': use sim, usb or serial\n", cmd, arg);
            return -1;
        }
        a->t.backend = arg;
        return 1;
    case TN_OPT_DEVICE:
        if (tn_usb_parse_device(arg, &a->t.vid, &a->t.pid, a->serial, sizeof a->serial) != 0) {
            fprintf(stderr, "%s: bad --device '%s': use vid:pid or vid:pid:serial in hex, "
                    "e.g. 0403:6010\n", cmd, arg);
            return -1;
        }
        a->t.serial = a->serial[0] ? a->serial : NULL;
        a->board_named = true;
        return 1;
    case TN_OPT_BUSDEV:
        if (tn_usb_parse_busdev(arg, &a->t.bus, &a->t.dev) != 0) {
            fprintf(stderr, "%s: bad --busdev '%s': use bus:dev as lsusb prints it, "
                    "e.g. 001:004\n", cmd, arg);
            return -1;
        }
        a->board_named = true;
        return 1;
    case 'I':
        if (tn_usb_parse_interface(arg, &a->t.interface) != 0) {
            fprintf(stderr, "%s: bad --interface '%s': use A or B\n", cmd, arg);
            return -1;
        }
        return 1;
    case TN_OPT_BAUD:
        if (!tn_cmd_uint(arg, 300, 100000000, &v)) {
            fprintf(stderr, "%s: bad --baud '%s': use a rate in bits/s\n", cmd, arg);
            return -1;
        }
        a->t.baud = (int)v;
        return 1;
    case TN_OPT_PORT:
        a->t.port = arg;
        a->board_named = true;
        return 1;
    case TN_OPT_LANES:
        if (!tn_cmd_uint(arg, 1, 6, &v) || (v != 1 && v != 6)) {
            fprintf(stderr, "%s: bad --lanes '%s': use 6 or 1\n", cmd, arg);
            return -1;
        }
        a->t.lanes = (unsigned)v;
        return 1;
    case TN_OPT_ROUNDS:
        fprintf(stderr, "%s: --rounds is gone: every simulator model has a 1024-round table "
                "(docs/hardware.md); drop the option\n", cmd);
        return -1;
    case TN_OPT_TIMEOUT:
        if (!tn_cmd_uint(arg, 1, 3600000, &v)) {
            fprintf(stderr, "%s: bad --timeout '%s': use milliseconds\n", cmd, arg);
            return -1;
        }
        a->timeout_ms = (int)v;
        return 1;
    case TN_OPT_SIM_DIR:
        a->t.sim_dir = arg;
        return 1;
    case TN_OPT_TRACE:
        a->t.trace = arg;
        return 1;
    default:
        return 0;
    }
}

/* Ctrl-C or SIGTERM while a device is open: the first stops the exchange
 * with the device at the next reply it waits for (TN_EINTR), so the
 * command closes it as usual (a simulator's waveform complete, no
 * half-written output); a second one ends the process at once. */
static void on_signal(int sig)
{
    (void)sig;
    if (tn_proto_interrupted())
        _exit(TN_EXIT_INTERRUPTED);
    tn_proto_interrupt();
}

/* (a signal ignored when torusctl started, as in a background job of a
 * script, stays ignored) */
static void stop_on_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

int tn_dev_open(struct tn_dev *d, struct tn_dev_args *a, const char *cmd)
{
    char err[512] = "";
    memset(d, 0, sizeof *d);
    if (a->t.backend == NULL)
        a->t.backend = a->t.port ? "serial" : a->board_named ? "usb" : "sim";
    d->ops = tn_transport_find(a->t.backend);
    for (int k = 0; k < 3; k++)
        a->t.dims[k] = a->dims.dim[k];
    if (strcmp(a->t.backend, "serial") == 0 && a->t.port == NULL) {
        fprintf(stderr, "%s: the serial backend needs --port PATH\n", cmd);
        return TN_EXIT_USAGE;
    }
    if (a->t.trace != NULL && strcmp(a->t.backend, "sim") != 0) {
        fprintf(stderr, "%s: --trace needs the sim backend\n", cmd);
        return TN_EXIT_USAGE;
    }
    int rc = d->ops->open(&d->t, &a->t, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", cmd, err[0] ? err : tn_strerror(rc));
        return TN_EXIT_DEVICE;
    }
    stop_on_signals();
    struct tn_proto_opts po = {0};
    po.timeout_ms = a->timeout_ms ? a->timeout_ms
                    : strcmp(a->t.backend, "sim") == 0 ? 20000 : 500;
    /* WRITE bursts in flight: hides the round trip of USB and serial
     * links, and of the simulator (which only runs while we wait). */
    po.window = 16;
    /* READs in flight only where the device's input waits for the bridge
     * (the simulator's byte stream); a UART would overrun the bridge's
     * input FIFO while it answers (proto.h, read_window). */
    po.read_window = strcmp(a->t.backend, "sim") == 0 ? 16 : 1;
    rc = tn_proto_open(&d->p, d->ops, d->t, &po);
    if (rc == 0)
        rc = tn_info_read(d->p, &d->info);
    if (rc != 0) {
        fprintf(stderr, "%s: no answer to INFO on the %s backend: %s\n", cmd, a->t.backend,
                d->p ? tn_proto_errmsg(d->p) : tn_strerror(rc));
        tn_dev_close(d);
        return TN_EXIT_DEVICE;
    }
    const struct tn_info *i = &d->info;
    tn_cmd_note(cmd, "device: %s backend, a %ux%ux%u torus, W %u, LANES %u, MEM_DEPTH %u, "
                "ROUNDS %u, alpha %u", a->t.backend, i->dims[0], i->dims[1], i->dims[2], i->w,
                i->lanes, i->mem_depth, i->rounds, i->alpha);
    return 0;
}

void tn_dev_close(struct tn_dev *d)
{
    if (d->p != NULL)
        tn_proto_close(d->p);
    if (d->t != NULL)
        d->ops->close(d->t);
    memset(d, 0, sizeof *d);
}
