/* SPDX-License-Identifier: MIT */
/* The usb transport and board discovery end to end through the unmodified
 * libftdi1/libusb code paths, against FT2232H chips emulated on umockdev
 * (ft2232h_emu.h) whose channels are connected to small device models. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../tap.h"
#include "ft2232h_emu.h"
#include "tn_error.h"
#include "transport.h"
#include "usb.h"

extern const struct tn_transport_ops tn_transport_usb_ops;
extern const struct tn_transport_ops tn_transport_serial_ops;
static const struct tn_transport_ops *usb = &tn_transport_usb_ops;

/* ---- device models ----------------------------------------------------- */

/* A byte queue from the host side to the model's output, transformed by
 * xor with key: channel B uses 0x5a, channel A 0xff, so the data itself
 * says which channel answered. With silent set the model swallows input
 * and never answers (an FPGA that stopped). */
struct model {
    pthread_mutex_t lock;
    uint8_t *q;
    size_t head, tail, cap;
    uint8_t key;
    bool silent;
};

static void model_init(struct model *m, uint8_t key)
{
    memset(m, 0, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    m->key = key;
}

static void model_fini(struct model *m)
{
    free(m->q);
    pthread_mutex_destroy(&m->lock);
}

static void model_rx(void *user, const uint8_t *buf, size_t len)
{
    struct model *m = user;
    pthread_mutex_lock(&m->lock);
    if (!m->silent) {
        if (m->tail + len > m->cap) {
            size_t live = m->tail - m->head;
            if (m->head > 0)
                memmove(m->q, m->q + m->head, live);
            m->head = 0;
            m->tail = live;
            if (live + len > m->cap) {
                m->cap = (live + len) * 2;
                m->q = realloc(m->q, m->cap);
            }
        }
        for (size_t i = 0; i < len; i++)
            m->q[m->tail++] = buf[i] ^ m->key;
    }
    pthread_mutex_unlock(&m->lock);
}

static size_t model_tx(void *user, uint8_t *buf, size_t cap)
{
    struct model *m = user;
    size_t n;
    pthread_mutex_lock(&m->lock);
    n = m->tail - m->head;
    if (n > cap)
        n = cap;
    memcpy(buf, m->q + m->head, n);
    m->head += n;
    pthread_mutex_unlock(&m->lock);
    return n;
}

static void connect_model(struct ft_emu_chip *c, int channel, struct model *m)
{
    struct ft_emu_port p = { model_rx, model_tx, m };
    ft_emu_connect(c, channel, &p);
}

/* ---- helpers ----------------------------------------------------------- */

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct tn_transport_opts default_opts(void)
{
    struct tn_transport_opts o;
    memset(&o, 0, sizeof o);
    o.backend = "usb";
    o.interface = 0;  /* default: B */
    return o;
}

/* Write n pseudo-random bytes and read n back; true when every byte came
 * back as sent ^ key. */
static bool roundtrip(struct tn_transport *t, size_t n, uint8_t key, unsigned seed)
{
    uint8_t *out = malloc(n), *in = malloc(n);
    size_t got = 0;
    bool good = out && in;
    srand(seed);
    for (size_t i = 0; good && i < n; i++)
        out[i] = (uint8_t)rand();
    if (good && usb->write(t, out, n) != 0)
        good = false;
    while (good && got < n) {
        int r = usb->read(t, in + got, n - got, 2000);
        if (r <= 0) {
            diag("read returned %d after %zu of %zu bytes", r, got, n);
            good = false;
        }
        got += r > 0 ? (size_t)r : 0;
    }
    for (size_t i = 0; good && i < n; i++)
        if (in[i] != (uint8_t)(out[i] ^ key)) {
            diag("byte %zu: got 0x%02x, want 0x%02x", i, in[i], out[i] ^ key);
            good = false;
        }
    free(out);
    free(in);
    return good;
}

/* Drop (or restore) the capabilities that let root ignore file modes, in
 * this thread only, so that a chmod-0 node is refused even when the suite
 * runs as root. */
static int dac_override(bool on)
{
    struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct d[2];
    if (syscall(SYS_capget, &h, d) != 0)
        return -1;
    uint32_t bits = (1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH);
    if (on)
        d[0].effective |= bits & d[0].permitted;
    else
        d[0].effective &= ~bits;
    return (int)syscall(SYS_capset, &h, d);
}

/* ---- tests ------------------------------------------------------------- */

static void test_parsers(void)
{
    int vid = 0, pid = 0, bus = 0, dev = 0, ifc = -1;
    char serial[32];
    ok(tn_usb_parse_device("0403:6010", &vid, &pid, serial, sizeof serial) == 0 &&
       vid == 0x0403 && pid == 0x6010 && serial[0] == '\0',
       "--device 0403:6010 parses to vid 0x0403, pid 0x6010, no serial");
    ok(tn_usb_parse_device("0403:6010:FT4ABC", &vid, &pid, serial, sizeof serial) == 0 &&
       strcmp(serial, "FT4ABC") == 0, "--device vid:pid:serial keeps the serial");
    ok(tn_usb_parse_device("0403", &vid, &pid, serial, sizeof serial) == TN_EINVAL &&
       tn_usb_parse_device("xyz:6010", &vid, &pid, serial, sizeof serial) == TN_EINVAL &&
       tn_usb_parse_device("0403:6010:", &vid, &pid, serial, sizeof serial) == TN_EINVAL,
       "malformed --device values are TN_EINVAL");
    ok(tn_usb_parse_busdev("001:004", &bus, &dev) == 0 && bus == 1 && dev == 4,
       "--busdev 001:004 parses to bus 1, dev 4");
    ok(tn_usb_parse_busdev("1:0", &bus, &dev) == TN_EINVAL &&
       tn_usb_parse_busdev("1", &bus, &dev) == TN_EINVAL &&
       tn_usb_parse_busdev("1:128", &bus, &dev) == TN_EINVAL,
       "malformed or out-of-range --busdev values are TN_EINVAL");
    ok(tn_usb_parse_interface("a", &ifc) == 0 && ifc == 1 &&
       tn_usb_parse_interface("B", &ifc) == 0 && ifc == 2 &&
       tn_usb_parse_interface("C", &ifc) == TN_EINVAL,
       "-I A|B parses to 1|2 (0 is the default, B), anything else is TN_EINVAL");
}

static void test_default_open(void)
{
    struct ft_emu *e = ft_emu_new();
    struct model ma, mb;
    struct ft_emu_chip *c;
    struct tn_transport *t = NULL;
    struct tn_transport_opts o = default_opts();
    struct ft_emu_chan_state sa, sb;
    char err[1024] = "";
    int rc;

    model_init(&ma, 0xff);
    model_init(&mb, 0x5a);
    c = ft_emu_add(e, 1, 4, 0, 0, "TN000001", NULL);
    connect_model(c, 0, &ma);
    connect_model(c, 1, &mb);

    rc = usb->open(&t, &o, err, sizeof err);
    is(rc, 0, "default selection opens the only FT2232H (0403:6010)");
    if (rc)
        diag("%s", err);
    ft_emu_get_state(c, 1, &sb);
    ft_emu_get_state(c, 0, &sa);
    ok(sb.claimed && !sa.claimed, "interface B is claimed by default, A is left alone");
    is(sb.baud, TN_USB_DEFAULT_BAUD, "the chip runs at the default 12000000 baud");
    ok(sb.latency_ms >= 1 && sb.latency_ms <= 2, "latency timer set to 1-2 ms (got %d)",
       sb.latency_ms);
    ok(sb.bitmode == 0 && sb.flow == 0 && sb.line == 0x0008,
       "UART mode (bitmode reset), no flow control, 8N1");
    ok(sb.purges_rx >= 1 && sb.purges_tx >= 1, "both FIFOs purged on open");
    if (t) {
        struct tn_transport *t2 = NULL;
        rc = usb->open(&t2, &o, err, sizeof err);
        ok(rc == TN_EIO && t2 == NULL && strstr(err, "another program"),
           "a second open of a claimed interface fails, saying another program holds it");
        ok(roundtrip(t, 1000, 0x5a, 1), "1000 bytes round-trip through channel B's model");
        ok(roundtrip(t, 200000, 0x5a, 2),
           "200000 bytes round-trip intact across 512-byte packets (status bytes stripped)");
        ft_emu_get_state(c, 1, &sb);
        ok(sb.bytes_out == 201000 && sb.bytes_in == 201000,
           "the chip saw exactly 201000 bytes each way");
        ok(usb->read(t, (uint8_t[4]){0}, 4, 50) == 0, "read with nothing pending returns 0");
        usb->close(t);
    }
    ft_emu_get_state(c, 1, &sb);
    ok(!sb.claimed, "close releases interface B");
    ft_emu_free(e);
    model_fini(&ma);
    model_fini(&mb);
}

static void test_interface_a_and_baud(void)
{
    struct ft_emu *e = ft_emu_new();
    struct model ma, mb;
    struct ft_emu_chip *c = ft_emu_add(e, 2, 7, 0, 0, "TN000002", NULL);
    struct tn_transport *t = NULL;
    struct tn_transport_opts o = default_opts();
    struct ft_emu_chan_state sa, sb;
    char err[1024] = "";
    int rc;

    model_init(&ma, 0xff);
    model_init(&mb, 0x5a);
    connect_model(c, 0, &ma);
    connect_model(c, 1, &mb);
    o.interface = 1;  /* A */
    o.baud = 3000000;
    rc = usb->open(&t, &o, err, sizeof err);
    is(rc, 0, "-I A opens interface A");
    ft_emu_get_state(c, 0, &sa);
    ft_emu_get_state(c, 1, &sb);
    ok(sa.claimed && !sb.claimed, "interface A is claimed, B is not");
    is(sa.baud, 3000000, "--baud 3000000 reaches the chip as 3000000");
    if (t) {
        ok(roundtrip(t, 5000, 0xff, 3), "data goes through channel A's model (xor 0xff)");
        usb->close(t);
    }
    o.baud = 9600;
    o.interface = 0;  /* default: B */
    t = NULL;
    rc = usb->open(&t, &o, err, sizeof err);
    ft_emu_get_state(c, 1, &sb);
    ok(rc == 0 && sb.baud == 9600, "--baud 9600 is encoded and decoded as 9600 (got %d)", sb.baud);
    if (t)
        usb->close(t);
    o.baud = 50000000;
    t = NULL;
    rc = usb->open(&t, &o, err, sizeof err);
    ok(rc == TN_EINVAL && t == NULL && strstr(err, "baud") != NULL,
       "an impossible --baud 50000000 is TN_EINVAL with a message naming the baud rate");
    ft_emu_get_state(c, 1, &sb);
    ok(!sb.claimed, "the failed open released the interface");
    ft_emu_free(e);
    model_fini(&ma);
    model_fini(&mb);
}

static void test_selection(void)
{
    struct ft_emu *e = ft_emu_new();
    struct model m1, m2;
    struct ft_emu_chip *c1 = ft_emu_add(e, 1, 2, 0, 0, "TNBOARD1", "iCEBreaker V1.0e");
    struct ft_emu_chip *c2 = ft_emu_add(e, 1, 3, 0, 0, "TNBOARD2", NULL);
    struct tn_transport *t = NULL;
    struct tn_transport_opts o = default_opts();
    struct ft_emu_chan_state s1, s2;
    struct tn_usb_board b[4];
    char err[2048] = "";
    int rc, n;

    model_init(&m1, 0x5a);
    model_init(&m2, 0x5a);
    connect_model(c1, 1, &m1);
    connect_model(c2, 1, &m2);

    rc = usb->open(&t, &o, err, sizeof err);
    is(rc, TN_EBUSY, "two matching boards: TN_EBUSY, no guess");
    ok(t == NULL && strstr(err, "TNBOARD1") && strstr(err, "TNBOARD2") &&
       strstr(err, "001:002") && strstr(err, "001:003") && strstr(err, "--busdev"),
       "the message lists both candidates (serial, bus:dev) and the option to choose");
    ft_emu_get_state(c1, 1, &s1);
    ft_emu_get_state(c2, 1, &s2);
    ok(!s1.claimed && !s2.claimed, "neither board was claimed");

    o.serial = "TNBOARD2";
    rc = usb->open(&t, &o, err, sizeof err);
    ft_emu_get_state(c1, 1, &s1);
    ft_emu_get_state(c2, 1, &s2);
    ok(rc == 0 && s2.claimed && !s1.claimed, "--device 0403:6010:TNBOARD2 opens the second board");
    if (t) {
        ok(roundtrip(t, 3000, 0x5a, 4), "data flows through the board chosen by serial");
        ft_emu_get_state(c2, 1, &s2);
        ft_emu_get_state(c1, 1, &s1);
        ok(s2.bytes_out == 3000 && s1.bytes_out == 0, "and only through that board");
        usb->close(t);
        t = NULL;
    }
    o.serial = NULL;
    o.bus = 1;
    o.dev = 2;
    rc = usb->open(&t, &o, err, sizeof err);
    ft_emu_get_state(c1, 1, &s1);
    ok(rc == 0 && s1.claimed, "--busdev 1:2 opens the first board");
    if (t) {
        usb->close(t);
        t = NULL;
    }
    o.dev = 9;
    rc = usb->open(&t, &o, err, sizeof err);
    ok(rc == TN_ENODEV && strstr(err, "001:009") && strstr(err, "TNBOARD1"),
       "--busdev 1:9 is TN_ENODEV naming the selection and what was found");
    o.bus = o.dev = 0;
    o.serial = "NOSUCH";
    rc = usb->open(&t, &o, err, sizeof err);
    ok(rc == TN_ENODEV && strstr(err, "NOSUCH"), "an unknown serial is TN_ENODEV naming it");
    o.serial = NULL;
    o.pid = 0x6014;
    rc = usb->open(&t, &o, err, sizeof err);
    ok(rc == TN_ENODEV && strstr(err, "0403:6014"), "--device 0403:6014 finds no FT2232H: TN_ENODEV");

    n = tn_usb_list(b, 4, 0, 0, err, sizeof err);
    is(n, 2, "tn_usb_list finds both boards");
    ok(n == 2 && b[0].bus == 1 && b[0].dev == 2 && b[1].dev == 3 &&
       strcmp(b[0].serial, "TNBOARD1") == 0 && strcmp(b[1].serial, "TNBOARD2") == 0 &&
       strcmp(b[0].description, "iCEBreaker V1.0e") == 0 &&
       strcmp(b[1].description, "Dual RS232-HS") == 0 &&
       strcmp(b[0].chip, "FT2232H") == 0 && b[0].vid == 0x0403 && b[0].pid == 0x6010,
       "list reports vid:pid, bus:dev, chip, serial and description in bus:dev order");
    {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        rc = tn_usb_list_print(f, 0, 0, true);
        fclose(f);
        ok(rc == 0 && buf && strstr(buf, "\"serial\":\"TNBOARD1\"") &&
           strstr(buf, "\"bus\":1,\"dev\":3"), "list --json prints both boards");
        free(buf);
        buf = NULL;
        f = open_memstream(&buf, &len);
        rc = tn_usb_list_print(f, 0, 0, false);
        fclose(f);
        ok(rc == 0 && buf && strstr(buf, "0403:6010  001:002  FT2232H    TNBOARD1") &&
           strstr(buf, "001:003") && strstr(buf, "iCEBreaker V1.0e"),
           "list prints one line per board: vid:pid, bus:dev, chip, serial, description");
        free(buf);
    }
    ft_emu_free(e);
    model_fini(&m1);
    model_fini(&m2);
}

static void test_no_device(void)
{
    struct ft_emu *e = ft_emu_new();
    struct tn_transport *t = NULL;
    struct tn_transport_opts o = default_opts();
    char err[1024] = "";
    int rc = usb->open(&t, &o, err, sizeof err);
    ok(rc == TN_ENODEV && t == NULL && strstr(err, "no usb board") && strstr(err, "0403:6010"),
       "no device: TN_ENODEV with a message naming what was looked for");
    is(tn_usb_list(NULL, 0, 0, 0, err, sizeof err), 0, "list finds no boards on an empty bus");
    ft_emu_free(e);
}

static void test_no_serial_chip(void)
{
    struct ft_emu *e = ft_emu_new();
    struct tn_usb_board b[2];
    struct tn_transport *t = NULL;
    struct tn_transport_opts o = default_opts();
    char err[1024] = "";
    int n;

    ft_emu_add(e, 3, 1, 0, 0, NULL, "iCE40-HX8K");
    n = tn_usb_list(b, 2, 0, 0, err, sizeof err);
    ok(n == 1 && b[0].serial[0] == '\0' && b[0].strings_rc == 0 &&
       strcmp(b[0].description, "iCE40-HX8K") == 0,
       "a chip without a serial string is listed with its description and no serial");
    is(usb->open(&t, &o, err, sizeof err), 0, "and opens by default selection");
    if (t)
        usb->close(t);
    ft_emu_free(e);
}

static void test_permission(void)
{
    struct ft_emu *e = ft_emu_new();
    struct ft_emu_chip *c = ft_emu_add(e, 1, 5, 0, 0, "TNPERM01", NULL);
    struct tn_transport *t = NULL;
    struct tn_transport_opts o = default_opts();
    struct tn_usb_board b[2];
    char err[1024] = "";
    int rc, n;

    ft_emu_set_node_mode(c, 0);
    if (dac_override(false) != 0)
        diag("cannot drop CAP_DAC_OVERRIDE: %s", strerror(errno));
    rc = usb->open(&t, &o, err, sizeof err);
    ok(rc == TN_EACCES && t == NULL, "a node without access: TN_EACCES (got %d)", rc);
    ok(strstr(err, "permission denied") && strstr(err, "/dev/bus/usb/001/005") &&
       strstr(err, "scripts/60-torus.rules") && strstr(err, "make install-udev"),
       "the message names the node, the udev rule and the install command");
    o.serial = "TNPERM01";
    rc = usb->open(&t, &o, err, sizeof err);
    ok(rc == TN_EACCES && strstr(err, "60-torus.rules"),
       "selecting by serial when the serial cannot be read is TN_EACCES too");
    n = tn_usb_list(b, 2, 0, 0, err, sizeof err);
    ok(n == 1 && b[0].strings_rc == TN_EACCES && b[0].bus == 1 && b[0].dev == 5,
       "list still shows the board, marked unreadable");
    dac_override(true);
    ft_emu_free(e);
}

static void test_silent_and_wedged(void)
{
    struct ft_emu *e = ft_emu_new();
    struct model m;
    struct ft_emu_chip *c = ft_emu_add(e, 1, 6, 0, 0, "TNSTOP01", NULL);
    struct tn_transport *t = NULL;
    struct tn_transport_opts o = default_opts();
    struct ft_emu_chan_state s;
    uint8_t buf[64];
    char err[1024] = "";
    int64_t t0, dt;
    int r;

    model_init(&m, 0x5a);
    connect_model(c, 1, &m);
    if (usb->open(&t, &o, err, sizeof err) != 0) {
        ok(0, "open for the timeout tests: %s", err);
        ft_emu_free(e);
        model_fini(&m);
        return;
    }
    ok(roundtrip(t, 100, 0x5a, 5), "the board answers before it stops");
    pthread_mutex_lock(&m.lock);
    m.silent = true;
    pthread_mutex_unlock(&m.lock);
    usb->write(t, (const uint8_t *)"ping", 4);
    t0 = now_ms();
    r = usb->read(t, buf, sizeof buf, 300);
    dt = now_ms() - t0;
    ok(r == 0 && dt >= 300 && dt < 1300,
       "FPGA silent (chip sends status only): read returns 0 after the 300 ms timeout (%d, %lld ms)",
       r, (long long)dt);
    ft_emu_get_state(c, 1, &s);
    ok(s.status_only > 10, "the chip kept answering with status-only packets (%llu)",
       (unsigned long long)s.status_only);

    ft_emu_set_wedged(c, true);
    t0 = now_ms();
    r = usb->read(t, buf, sizeof buf, 300);
    dt = now_ms() - t0;
    ok(r == 0 && dt >= 300 && dt < 1300,
       "chip wedged (no USB completions): read returns 0 within the timeout (%d, %lld ms)",
       r, (long long)dt);
    t0 = now_ms();
    r = usb->write(t, buf, sizeof buf);
    dt = now_ms() - t0;
    ok(r == TN_ETIMEDOUT && dt < 5000,
       "chip wedged: write fails with TN_ETIMEDOUT (%d after %lld ms)", r, (long long)dt);
    ft_emu_set_wedged(c, false);
    usb->close(t);
    ft_emu_free(e);
    model_fini(&m);
}

/* The far end of a pty: answers every byte ^ 0x33 until stop is set. */
struct pty_echo {
    int master;
    volatile bool stop;
};

static void *pty_echo_run(void *arg)
{
    struct pty_echo *p = arg;
    uint8_t buf[4096];
    while (!p->stop) {
        struct pollfd f = { p->master, POLLIN, 0 };
        if (poll(&f, 1, 20) <= 0)
            continue;
        ssize_t n = read(p->master, buf, sizeof buf);
        for (ssize_t i = 0; i < n; i++)
            buf[i] ^= 0x33;
        for (ssize_t off = 0; n > 0 && off < n && !p->stop;) {
            ssize_t w = write(p->master, buf + off, (size_t)(n - off));
            if (w > 0)
                off += w;
            else
                poll(&(struct pollfd){ p->master, POLLOUT, 0 }, 1, 20);
        }
    }
    return NULL;
}

/* ft_emu_connect_transport: the chip's channel B backed by another
 * transport (here serial on a pty; in the end-to-end run, sim). */
static void test_transport_backed(void)
{
    struct pty_echo pe = { .master = -1 };
    int slave = -1;
    char path[256], err[1024] = "";
    pthread_t th;
    struct tn_transport_opts so, o = default_opts();
    struct tn_transport *st = NULL, *t = NULL;
    struct ft_emu *e;
    struct ft_emu_chip *c;

    if (openpty(&pe.master, &slave, path, NULL, NULL) != 0) {
        ok(0, "openpty: %s", strerror(errno));
        return;
    }
    pthread_create(&th, NULL, pty_echo_run, &pe);
    memset(&so, 0, sizeof so);
    so.backend = "serial";
    so.port = path;
    so.baud = 115200;
    if (tn_transport_serial_ops.open(&st, &so, err, sizeof err) != 0) {
        ok(0, "serial transport on %s: %s", path, err);
    } else {
        e = ft_emu_new();
        c = ft_emu_add(e, 1, 9, 0, 0, "TNVIA001", NULL);
        ft_emu_connect_transport(c, 1, &tn_transport_serial_ops, st);
        if (usb->open(&t, &o, err, sizeof err) == 0) {
            /* Stay under the pty's buffering: 2000 bytes per round trip. */
            bool good = true;
            for (unsigned i = 0; i < 10 && good; i++)
                good = roundtrip(t, 2000, 0x33, 10 + i);
            ok(good, "a chip backed by another transport: 20000 bytes usb -> emulator -> "
               "serial -> pty model and back");
            usb->close(t);
        } else {
            ok(0, "open: %s", err);
        }
        ft_emu_free(e);
        tn_transport_serial_ops.close(st);
    }
    pe.stop = true;
    pthread_join(th, NULL);
    close(pe.master);
    close(slave);
}

/* Another process (as torusctl will be) served by this one's emulator. */
static int child_main(void)
{
    struct tn_transport *t = NULL;
    struct tn_transport_opts o = default_opts();
    char err[1024] = "";
    bool good;
    if (usb->open(&t, &o, err, sizeof err) != 0) {
        fprintf(stderr, "child: %s\n", err);
        return 2;
    }
    good = roundtrip(t, 10000, 0x5a, 6);
    usb->close(t);
    return good ? 0 : 3;
}

static void test_other_process(void)
{
    struct ft_emu *e = ft_emu_new();
    struct model m;
    struct ft_emu_chip *c = ft_emu_add(e, 1, 8, 0, 0, "TNSPAWN1", NULL);
    struct ft_emu_chan_state s;
    char *argv[] = { "/proc/self/exe", "--child", NULL };
    int st;

    model_init(&m, 0x5a);
    connect_model(c, 1, &m);
    st = ft_emu_spawn(e, argv);
    ft_emu_get_state(c, 1, &s);
    ok(st == 0 && s.bytes_out == 10000 && s.bytes_in == 10000 && !s.claimed,
       "a child process opens the emulated board and round-trips 10000 bytes (exit %d)", st);
    ft_emu_free(e);
    model_fini(&m);
}

int main(int argc, char **argv)
{
    if (ft_emu_reexec(argv) != 0)
        return 1;
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child_main();
    test_parsers();
    test_default_open();
    test_interface_a_and_baud();
    test_selection();
    test_no_device();
    test_no_serial_chip();
    test_silent_and_wedged();
    test_other_process();
    test_transport_backed();
    test_permission();
    return tap_done();
}
