/* SPDX-License-Identifier: MIT */
/* usb-path throughput through the emulated FT2232H (ft2232h_emu.h): bytes/s
 * of the unmodified libftdi1/libusb path in each direction and echoed,
 * compared with the configured baud's line rate (8N1: 10 bits per byte).
 * The emulator does not pace bytes at the line rate, so the figure is the
 * host software path's wall clock (libftdi, libusb, umockdev's ioctl
 * socket), an upper bound for what a board could be fed, not a wire rate. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ft2232h_emu.h"
#include "tn_error.h"
#include "transport.h"
#include "usb.h"

extern const struct tn_transport_ops tn_transport_usb_ops;
static const struct tn_transport_ops *usb = &tn_transport_usb_ops;

enum mode { SINK, SOURCE, ECHO };

/* The device model: swallows (SINK), produces a counting pattern
 * (SOURCE) or echoes (ECHO). */
struct model {
    pthread_mutex_t lock;
    enum mode mode;
    uint8_t next;           /* SOURCE: next pattern byte */
    uint8_t *q;             /* ECHO queue */
    size_t head, tail, cap;
};

static void rx(void *user, const uint8_t *buf, size_t len)
{
    struct model *m = user;
    pthread_mutex_lock(&m->lock);
    if (m->mode == ECHO) {
        if (m->tail + len > m->cap) {
            if (m->q != NULL)
                memmove(m->q, m->q + m->head, m->tail - m->head);
            m->tail -= m->head;
            m->head = 0;
            if (m->tail + len > m->cap) {
                m->cap = (m->tail + len) * 2;
                m->q = realloc(m->q, m->cap);
            }
        }
        memcpy(m->q + m->tail, buf, len);
        m->tail += len;
    }
    pthread_mutex_unlock(&m->lock);
}

static size_t tx(void *user, uint8_t *buf, size_t cap)
{
    struct model *m = user;
    size_t n = 0;
    pthread_mutex_lock(&m->lock);
    if (m->mode == SOURCE) {
        for (n = 0; n < cap; n++)
            buf[n] = m->next++;
    } else if (m->mode == ECHO) {
        n = m->tail - m->head < cap ? m->tail - m->head : cap;
        memcpy(buf, m->q + m->head, n);
        m->head += n;
    }
    pthread_mutex_unlock(&m->lock);
    return n;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void row(const char *what, bool paced, size_t bytes, double secs, int baud)
{
    double rate = bytes / secs, line = baud / 10.0;
    printf("%-22s %-9s %9zu %8.3f %10.0f %10.0f %8.2f\n", what,
           paced ? "line-rate" : "unpaced", bytes, secs, rate, line, rate / line);
}

/* The three measurements on an open channel; 0 or 1 on a data error. */
static int measure(struct tn_transport *t, struct model *m, bool paced, size_t total)
{
    const size_t chunk = 64u << 10;
    uint8_t *buf = malloc(chunk);
    uint8_t expect = 0;
    size_t done;
    double t0;
    int bad = 0;

    if (buf == NULL)
        return 1;
    pthread_mutex_lock(&m->lock);
    m->mode = SINK;
    pthread_mutex_unlock(&m->lock);
    for (size_t i = 0; i < chunk; i++)
        buf[i] = (uint8_t)i;
    t0 = now_s();
    for (done = 0; done < total; done += chunk)
        if (usb->write(t, buf, chunk) != 0)
            return 1;
    row("host->device", paced, total, now_s() - t0, TN_USB_DEFAULT_BAUD);

    pthread_mutex_lock(&m->lock);
    m->mode = SOURCE;
    m->next = 0;
    pthread_mutex_unlock(&m->lock);
    t0 = now_s();
    for (done = 0; done < total;) {
        int r = usb->read(t, buf, chunk, 2000);
        if (r <= 0)
            return 1;
        for (int i = 0; i < r; i++)
            bad |= buf[i] != expect++;
        done += (size_t)r;
    }
    row("device->host", paced, done, now_s() - t0, TN_USB_DEFAULT_BAUD);

    pthread_mutex_lock(&m->lock);
    m->mode = ECHO;
    pthread_mutex_unlock(&m->lock);
    /* Drain what the source mode left in flight. */
    while (usb->read(t, buf, chunk, 20) > 0)
        ;
    t0 = now_s();
    for (done = 0; done < total / 4; done += 4096) {
        size_t got = 0;
        for (int i = 0; i < 4096; i++)
            buf[i] = (uint8_t)(done + i);
        if (usb->write(t, buf, 4096) != 0)
            return 1;
        while (got < 4096) {
            int r = usb->read(t, buf + got, 4096 - got, 2000);
            if (r <= 0)
                return 1;
            got += (size_t)r;
        }
        for (int i = 0; i < 4096; i++)
            bad |= buf[i] != (uint8_t)(done + i);
    }
    row("echo, 4 KiB exchanges", paced, done, now_s() - t0, TN_USB_DEFAULT_BAUD);
    free(buf);
    return bad;
}

int main(int argc, char **argv)
{
    struct model m = { .mode = SINK };
    struct ft_emu *e;
    struct ft_emu_chip *c;
    struct tn_transport *t = NULL;
    struct tn_transport_opts o;
    char err[1024];
    int bad = 0;

    (void)argc;
    if (ft_emu_reexec(argv) != 0)
        return 1;
    pthread_mutex_init(&m.lock, NULL);
    e = ft_emu_new();
    c = e ? ft_emu_add(e, 1, 2, 0, 0, "TNBENCH1", NULL) : NULL;
    if (c == NULL)
        return 1;
    ft_emu_connect(c, 1, &(struct ft_emu_port){ rx, tx, &m });
    memset(&o, 0, sizeof o);
    o.backend = "usb";
    o.interface = 0;  /* default: B */
    if (usb->open(&t, &o, err, sizeof err) != 0) {
        fprintf(stderr, "bench_usb: %s\n", err);
        return 1;
    }
    printf("usb path through the emulated FT2232H, interface B at %d baud "
           "(8N1 line rate %d B/s)\n", TN_USB_DEFAULT_BAUD, TN_USB_DEFAULT_BAUD / 10);
    printf("wall clock of the emulator: 'unpaced' is the host software path alone "
           "(libftdi/libusb/umockdev);\n'line-rate' paces the emulated UART at the baud "
           "rate behind 4 KiB buffers, as a board's wire would\n");
    printf("%-22s %-9s %9s %8s %10s %10s %8s\n", "direction", "uart", "bytes", "seconds",
           "B/s", "line B/s", "fraction");
    bad |= measure(t, &m, false, 4u << 20);
    ft_emu_set_paced(c, true);
    bad |= measure(t, &m, true, 2u << 20);
    if (bad)
        printf("DATA MISMATCH\n");
    usb->close(t);
    ft_emu_free(e);
    free(m.q);
    return bad;
}
