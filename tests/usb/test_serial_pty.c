/* SPDX-License-Identifier: MIT */
/* The serial transport against a pseudo-terminal: the transport opens the
 * pty's slave path, a device model thread answers on the master side. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <pthread.h>
#include <pty.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <asm/ioctls.h>

#include "../tap.h"
#include "tn_error.h"
#include "transport.h"

extern const struct tn_transport_ops tn_transport_serial_ops;
static const struct tn_transport_ops *ser = &tn_transport_serial_ops;

/* The device model: reads what the host sent and answers byte ^ key,
 * unless silent. Stops when stop is set. */
struct model {
    int master;
    uint8_t key;
    volatile bool silent, stop;
    pthread_t th;
};

static void *model_run(void *arg)
{
    struct model *m = arg;
    uint8_t buf[4096];
    while (!m->stop) {
        struct pollfd p = { m->master, POLLIN, 0 };
        if (poll(&p, 1, 20) <= 0)
            continue;
        ssize_t n = read(m->master, buf, sizeof buf);
        if (n <= 0)
            continue;
        if (m->silent)
            continue;
        for (ssize_t i = 0; i < n; i++)
            buf[i] ^= m->key;
        for (ssize_t off = 0; off < n && !m->stop;) {
            ssize_t w = write(m->master, buf + off, (size_t)(n - off));
            if (w > 0)
                off += w;
            else
                poll(&(struct pollfd){ m->master, POLLOUT, 0 }, 1, 20);
        }
    }
    return NULL;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool roundtrip(struct tn_transport *t, size_t n, uint8_t key)
{
    uint8_t *out = malloc(n), *in = malloc(n);
    size_t got = 0;
    bool good = out && in;
    for (size_t i = 0; good && i < n; i++)
        out[i] = (uint8_t)(i * 131 + 7);
    /* The pty buffers only a few KiB: interleave writes and reads. */
    for (size_t sent = 0; good && sent < n;) {
        size_t chunk = n - sent < 1024 ? n - sent : 1024;
        if (ser->write(t, out + sent, chunk) != 0)
            good = false;
        sent += chunk;
        while (good && got < sent) {
            int r = ser->read(t, in + got, n - got, 2000);
            if (r <= 0)
                good = false;
            got += r > 0 ? (size_t)r : 0;
        }
    }
    for (size_t i = 0; good && i < n; i++)
        if (in[i] != (uint8_t)(out[i] ^ key))
            good = false;
    free(out);
    free(in);
    return good;
}

/* The kernel's struct termios2 (asm-generic/termbits.h layout). */
struct termios2 {
    tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
    cc_t c_line;
    cc_t c_cc[19];
    speed_t c_ispeed, c_ospeed;
};

/* Drop (or restore) root's permission override in this thread. */
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

int main(void)
{
    struct model m = { .key = 0x5a };
    int slave;
    char path[256], err[512];
    struct tn_transport_opts o;
    struct tn_transport *t = NULL;
    struct termios tio;
    int rc;

    if (openpty(&m.master, &slave, path, NULL, NULL) != 0) {
        ok(0, "openpty: %s", strerror(errno));
        return tap_done();
    }
    pthread_create(&m.th, NULL, model_run, &m);
    memset(&o, 0, sizeof o);
    o.backend = "serial";
    o.port = path;

    rc = ser->open(&t, &o, err, sizeof err);
    is(rc, 0, "opens the pty slave %s", path);
    if (rc)
        diag("%s", err);
    tcgetattr(slave, &tio);
    ok(!(tio.c_lflag & (ICANON | ECHO | ISIG)) && !(tio.c_iflag & (IXON | ICRNL)) &&
       !(tio.c_oflag & OPOST) && (tio.c_cflag & CSIZE) == CS8 && !(tio.c_cflag & (PARENB | CSTOPB | CRTSCTS)),
       "the port is raw 8N1 without flow control");
    {
        struct termios2 t2;
        ok(ioctl(slave, TCGETS2, &t2) == 0 && t2.c_ospeed == 12000000 && t2.c_ispeed == 12000000,
           "the default 12000000 baud (not a B* rate) is set through termios2/BOTHER");
    }
    if (t) {
        ok(roundtrip(t, 100000, 0x5a), "100000 bytes round-trip through the model");
        ok(ser->read(t, (uint8_t[8]){0}, 8, 50) == 0, "read with nothing pending returns 0");
        m.silent = true;
        ser->write(t, (const uint8_t *)"ping", 4);
        int64_t t0 = now_ms();
        int r = ser->read(t, (uint8_t[8]){0}, 8, 250);
        int64_t dt = now_ms() - t0;
        ok(r == 0 && dt >= 250 && dt < 1250,
           "a silent device: read returns 0 after the 250 ms timeout (%d, %lld ms)", r, (long long)dt);
        m.silent = false;
        ser->close(t);
        t = NULL;
    }

    o.baud = 115200;
    rc = ser->open(&t, &o, err, sizeof err);
    tcgetattr(slave, &tio);
    ok(rc == 0 && cfgetospeed(&tio) == B115200, "--baud 115200 sets B115200");
    if (t) {
        ser->close(t);
        t = NULL;
    }

    o.port = "/dev/nonexistent-torus-tty";
    rc = ser->open(&t, &o, err, sizeof err);
    ok(rc == TN_ENODEV && strstr(err, "/dev/nonexistent-torus-tty"),
       "a missing port is TN_ENODEV naming it");
    {
        char file[] = "/tmp/torus-not-a-tty-XXXXXX";
        int fd = mkstemp(file);
        o.port = file;
        rc = ser->open(&t, &o, err, sizeof err);
        ok(fd >= 0 && rc == TN_EINVAL && strstr(err, "not a serial port"),
           "a regular file is TN_EINVAL: not a serial port");
        if (fd >= 0) {
            close(fd);
            unlink(file);
        }
    }
    o.port = NULL;
    rc = ser->open(&t, &o, err, sizeof err);
    ok(rc == TN_EINVAL && strstr(err, "--port"), "no port given: TN_EINVAL asking for --port");

    o.port = path;
    o.baud = 0;
    chmod(path, 0);
    dac_override(false);
    rc = ser->open(&t, &o, err, sizeof err);
    dac_override(true);
    chmod(path, 0620);
    ok(rc == TN_EACCES && strstr(err, "60-torus.rules") && strstr(err, "dialout"),
       "a port without access: TN_EACCES naming the udev rule and the dialout group");

    rc = ser->open(&t, &o, err, sizeof err);
    ok(rc == 0, "reopens the port");
    m.stop = true;
    pthread_join(m.th, NULL);
    close(m.master);
    close(slave);
    if (t) {
        int r = ser->read(t, (uint8_t[8]){0}, 8, 500);
        ok(r == TN_ENODEV || r == TN_EIO, "the other end gone (board unplugged): read fails with %d", r);
        ser->close(t);
    }
    return tap_done();
}
