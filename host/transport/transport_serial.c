/* SPDX-License-Identifier: MIT */
/* The serial transport: a tty (e.g. /dev/ttyUSB1, channel B of an FT2232H
 * under the kernel's ftdi_sio driver) in raw 8N1 mode without flow control.
 * Standard rates go through cfsetspeed(); others (12000000 is not a B*
 * constant) through Linux's termios2 with BOTHER. Reads wait with poll(). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <asm/ioctls.h>

#include "clock.h"
#include "tn_error.h"
#include "transport.h"
#include "usb.h"

/* Linux's struct termios2 (asm-generic/termbits.h), which cannot be
 * included next to glibc's <termios.h>: the kernel layout with its own
 * NCCS (19) and explicit input/output speeds. */
struct termios2 {
    tcflag_t c_iflag, c_oflag, c_cflag, c_lflag;
    cc_t c_line;
    cc_t c_cc[19];
    speed_t c_ispeed, c_ospeed;
};
#ifndef BOTHER
#define BOTHER 0010000
#endif

struct serial_port {
    int fd;
    char path[256];
    char err[320];        /* the last failure (serial_error) */
};

/* B* constant for a standard rate, or 0. */
static speed_t std_speed(int baud)
{
    static const struct { int baud; speed_t code; } t[] = {
        { 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 },
        { 57600, B57600 }, { 115200, B115200 }, { 230400, B230400 },
        { 460800, B460800 }, { 500000, B500000 }, { 576000, B576000 },
        { 921600, B921600 }, { 1000000, B1000000 }, { 1152000, B1152000 },
        { 1500000, B1500000 }, { 2000000, B2000000 }, { 2500000, B2500000 },
        { 3000000, B3000000 }, { 3500000, B3500000 }, { 4000000, B4000000 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].baud == baud)
            return t[i].code;
    return 0;
}

/* Any rate through termios2/BOTHER; the driver may round it. */
static int set_other_speed(int fd, int baud)
{
    struct termios2 t2;
    if (ioctl(fd, TCGETS2, &t2) != 0)
        return -1;
    t2.c_cflag &= ~(tcflag_t)CBAUD;
    t2.c_cflag |= BOTHER;
    t2.c_ispeed = (speed_t)baud;
    t2.c_ospeed = (speed_t)baud;
    return ioctl(fd, TCSETS2, &t2);
}

static int serial_open(struct tn_transport **t, const struct tn_transport_opts *o,
                       char *err, size_t errlen)
{
    struct serial_port *s;
    struct termios tio;
    int baud = o->baud ? o->baud : TN_USB_DEFAULT_BAUD;
    speed_t code = std_speed(baud);
    int rc;

    *t = NULL;
    if (o->port == NULL || o->port[0] == '\0') {
        tn_errf(err, errlen, 0, "the serial backend needs a port: --port /dev/ttyUSB1");
        return TN_EINVAL;
    }
    if (baud <= 0) {
        tn_errf(err, errlen, 0, "bad baud rate %d", baud);
        return TN_EINVAL;
    }
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return TN_ENOMEM;
    snprintf(s->path, sizeof s->path, "%s", o->port);
    s->fd = open(o->port, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (s->fd < 0) {
        int e = errno;
        if (e == ENOENT || e == ENXIO || e == ENODEV) {
            tn_errf(err, errlen, 0, "no serial port %s: plug in the board or check the path", o->port);
            rc = TN_ENODEV;
        } else if (e == EACCES || e == EPERM) {
            tn_errf(err, errlen, 0, "permission denied on %s: install the udev rule "
                "scripts/60-torus.rules (sudo make install-udev) or join the "
                "dialout group (sudo usermod -aG dialout $USER), then log in again",
                o->port);
            rc = TN_EACCES;
        } else if (e == EBUSY) {
            tn_errf(err, errlen, 0, "%s is in use by another program: close it and retry", o->port);
            rc = TN_EIO;
        } else {
            tn_errf(err, errlen, 0, "cannot open %s: %s", o->port, strerror(e));
            rc = TN_EIO;
        }
        goto out_free;
    }
    if (tcgetattr(s->fd, &tio) != 0) {
        tn_errf(err, errlen, 0, "%s is not a serial port (%s)", o->port, strerror(errno));
        rc = TN_EINVAL;
        goto out_close;
    }
    /* Exclusive use: a second opener (other than root) gets EBUSY. */
    if (ioctl(s->fd, TIOCEXCL) != 0) {
        tn_errf(err, errlen, 0, "cannot get exclusive use of %s: %s", o->port, strerror(errno));
        rc = TN_EIO;
        goto out_close;
    }
    cfmakeraw(&tio);
    tio.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS | CSIZE);
    tio.c_cflag |= CS8 | CLOCAL | CREAD;
    tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
    tio.c_cc[VMIN] = 0;
    tio.c_cc[VTIME] = 0;
    if (code != 0 && cfsetspeed(&tio, code) != 0) {
        tn_errf(err, errlen, 0, "cannot set %d baud on %s: %s", baud, o->port, strerror(errno));
        rc = TN_EINVAL;
        goto out_close;
    }
    if (tcsetattr(s->fd, TCSANOW, &tio) != 0) {
        tn_errf(err, errlen, 0, "cannot configure %s: %s", o->port, strerror(errno));
        rc = TN_EIO;
        goto out_close;
    }
    if (code == 0 && set_other_speed(s->fd, baud) != 0) {
        tn_errf(err, errlen, 0, "cannot set %d baud on %s: %s (the driver refuses this "
            "rate; try a standard one)", baud, o->port, strerror(errno));
        rc = TN_EINVAL;
        goto out_close;
    }
    tcflush(s->fd, TCIOFLUSH);
    *t = (struct tn_transport *)s;
    return 0;

out_close:
    close(s->fd);
out_free:
    free(s);
    return rc;
}

static int lost(struct serial_port *s, const char *what, int e)
{
    if (e == EIO || e == ENXIO || e == ENODEV) {
        tn_errf(s->err, sizeof s->err, 0, "%s: %s failed: the port went away (board unplugged?)",
            s->path, what);
        return TN_ENODEV;
    }
    tn_errf(s->err, sizeof s->err, 0, "%s: %s failed: %s", s->path, what, strerror(e));
    return TN_EIO;
}

static const char *serial_error(struct tn_transport *t)
{
    return ((struct serial_port *)t)->err;
}

static int serial_write(struct tn_transport *t, const uint8_t *buf, size_t len)
{
    struct serial_port *s = (struct serial_port *)t;
    /* Bytes must drain at the line rate; a port that takes nothing for
     * this long is dead. */
    const int stall_ms = 5000;
    while (len > 0) {
        ssize_t n = write(s->fd, buf, len);
        if (n > 0) {
            buf += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != EAGAIN)
            return lost(s, "write", errno);
        struct pollfd p = { s->fd, POLLOUT, 0 };
        int r = poll(&p, 1, stall_ms);
        if (r == 0) {
            tn_errf(s->err, sizeof s->err, 0, "%s: write stalled for %d ms: the port takes no data; "
                "check the board", s->path, stall_ms);
            return TN_ETIMEDOUT;
        }
        if (r < 0 && errno != EINTR)
            return lost(s, "write", errno);
        if (r > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL)))
            return lost(s, "write", EIO);
    }
    return 0;
}

static int serial_read(struct tn_transport *t, uint8_t *buf, size_t len, int timeout_ms)
{
    struct serial_port *s = (struct serial_port *)t;
    int64_t deadline = tn_now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
    bool hup = false;

    if (len == 0)
        return 0;
    if (len > INT_MAX)
        len = INT_MAX;
    for (;;) {
        ssize_t n = read(s->fd, buf, len);
        if (n > 0)
            return (int)n;
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            return lost(s, "read", errno);
        /* Nothing to read after a hang-up: the other end is gone. */
        if (hup)
            return lost(s, "read", EIO);
        int64_t left = deadline - tn_now_ms();
        if (timeout_ms >= 0 && left <= 0)
            return 0;
        struct pollfd p = { s->fd, POLLIN, 0 };
        int r = poll(&p, 1, timeout_ms < 0 ? -1 : (int)left);
        if (r < 0 && errno != EINTR)
            return lost(s, "read", errno);
        if (r > 0 && (p.revents & (POLLERR | POLLHUP | POLLNVAL)))
            hup = true;
    }
}

static void serial_close(struct tn_transport *t)
{
    struct serial_port *s = (struct serial_port *)t;
    if (s == NULL)
        return;
    /* The exclusive flag outlives this file while others hold the tty. */
    ioctl(s->fd, TIOCNXCL);
    close(s->fd);
    free(s);
}

const struct tn_transport_ops tn_transport_serial_ops = {
    .name = "serial",
    .open = serial_open,
    .write = serial_write,
    .read = serial_read,
    .close = serial_close,
    .error = serial_error,
};
