/* SPDX-License-Identifier: MIT */
/* An emulated FTDI FT2232H on umockdev (interface in ft2232h_emu.h). The
 * facts it follows: the FT2232H datasheet (descriptors: two vendor-class
 * interfaces, bulk endpoints 0x81/0x02 for A and 0x83/0x04 for B, 512-byte
 * high-speed packets, bcdDevice 0x0700), FTDI AN232B-04 (latency timer,
 * two modem-status bytes per IN packet) and AN232B-05/AN_120 (baud divisor
 * encoding), and the Linux usbdevfs ioctl interface. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/usbdevice_fs.h>
#include <sys/ioctl.h>
#include <umockdev.h>

#include "ft2232h_emu.h"
#include "transport.h"

#define FT_PACKET 512          /* high-speed bulk wMaxPacketSize */
#define FT_CHANNELS 2
#define FT_MAX_CHIPS 8
#define MODEM_STATUS0 0x31     /* CTS, DSR; low nibble as the chip sends it */
#define MODEM_STATUS1 0x60     /* line status: THRE, TEMT */
#define FT_FIFO 4096           /* FT2232H RX and TX buffer per channel */

/* A submitted URB until it is reaped. */
struct urb {
    UMockdevIoctlData *data;   /* the client's struct usbdevfs_urb (local copy) */
    UMockdevIoctlData *buf;    /* its buffer (local copy) */
    UMockdevIoctlClient *client; /* the open file it was submitted on */
    int ep;                    /* endpoint address (control: 0) */
    int type;
    gint64 submitted_us;
    bool done;
    int status;                /* 0 or -errno once done */
    int actual;
    struct urb *next;
};

struct via_transport;

struct chan {
    struct ft_emu_port port;
    struct ft_emu_chan_state st;
    UMockdevIoctlClient *owner; /* the open file that claimed the interface */
    struct via_transport *via;  /* owned adapter of ft_emu_connect_transport */
    /* Line-rate pacing (ft_emu_set_paced): */
    double rx_credit;          /* bytes the FPGA could have sent by now */
    gint64 rx_last_us;         /* when rx_credit was last brought up to date */
    gint64 tx_busy_until_us;   /* when the TX FIFO will have drained */
};

struct ft_emu_chip {
    struct ft_emu *emu;
    int bus, dev;
    uint16_t vid, pid;
    char serial[64];
    bool has_serial;
    char product[64];
    char devnode[32];
    char syspath[128];
    UMockdevIoctlBase *handler;
    pthread_mutex_t lock;      /* guards everything below */
    bool wedged;
    bool paced;
    const volatile bool *unplug;  /* ft_emu_set_unplug_flag */
    struct urb *urbs;          /* submission order */
    struct chan ch[FT_CHANNELS];
    uint8_t config_value;
};

struct ft_emu {
    UMockdevTestbed *tb;
    char *root;
    struct ft_emu_chip *chips[FT_MAX_CHIPS];
    int nchips;
};

/* ---- descriptors ------------------------------------------------------- */

static size_t device_descriptor(const struct ft_emu_chip *c, uint8_t *d)
{
    const uint8_t t[18] = {
        18, 1, 0x00, 0x02,     /* bLength, DEVICE, bcdUSB 2.00 */
        0, 0, 0, 64,           /* class/subclass/protocol per interface, ep0 64 */
        (uint8_t)c->vid, (uint8_t)(c->vid >> 8),
        (uint8_t)c->pid, (uint8_t)(c->pid >> 8),
        0x00, 0x07,            /* bcdDevice 7.00: FT2232H */
        1, 2, (uint8_t)(c->has_serial ? 3 : 0), 1,
    };
    memcpy(d, t, sizeof t);
    return sizeof t;
}

static size_t config_descriptor(uint8_t *d)
{
    static const uint8_t t[] = {
        9, 2, 55, 0, 2, 1, 0, 0x80, 50,          /* 2 interfaces, 100 mA */
        /* interface 0 (channel A), vendor class */
        9, 4, 0, 0, 2, 0xff, 0xff, 0xff, 2,
        7, 5, 0x81, 2, 0x00, 0x02, 0,            /* bulk IN 512 */
        7, 5, 0x02, 2, 0x00, 0x02, 0,            /* bulk OUT 512 */
        /* interface 1 (channel B) */
        9, 4, 1, 0, 2, 0xff, 0xff, 0xff, 2,
        7, 5, 0x83, 2, 0x00, 0x02, 0,
        7, 5, 0x04, 2, 0x00, 0x02, 0,
    };
    memcpy(d, t, sizeof t);
    return sizeof t;
}

static size_t string_descriptor(const struct ft_emu_chip *c, int index, uint8_t *d)
{
    const char *s;
    size_t n;
    if (index == 0) {
        d[0] = 4; d[1] = 3; d[2] = 0x09; d[3] = 0x04;   /* en-US */
        return 4;
    }
    switch (index) {
    case 1: s = "FTDI"; break;
    case 2: s = c->product; break;
    case 3: s = c->has_serial ? c->serial : NULL; break;
    default: s = NULL; break;
    }
    if (s == NULL)
        return 0;
    n = strlen(s);
    if (n > 126)
        n = 126;
    d[0] = (uint8_t)(2 + 2 * n);
    d[1] = 3;
    for (size_t i = 0; i < n; i++) {
        d[2 + 2 * i] = (uint8_t)s[i];
        d[3 + 2 * i] = 0;
    }
    return 2 + 2 * n;
}

/* ---- FTDI requests ----------------------------------------------------- */

/* Baud rate from the divisor fields (AN232B-05, AN_120): bits 0-13 the
 * integer divisor, bits 14-16 a sub-integer code in eighths, bit 17 selects
 * the FT2232H's 12 MHz base (120 MHz / 10) instead of 3 MHz (48 MHz / 16).
 * Integer divisors 0 and 1 (no fraction) mean 1 and 1.5. */
static int decode_baud(unsigned value, unsigned index)
{
    static const unsigned eighths[8] = { 0, 4, 2, 1, 3, 5, 6, 7 };
    unsigned long enc = value | ((unsigned long)(index >> 8) << 16);
    unsigned long base = (enc & 0x20000) ? 12000000UL : 3000000UL;
    unsigned integer = enc & 0x3fff, code = (enc >> 14) & 7;
    unsigned long div8;

    if (integer == 0 && code == 0)
        return (int)base;
    if (integer == 1 && code == 0)
        return (int)(base * 2 / 3);
    div8 = (unsigned long)integer * 8 + eighths[code];
    return (int)((base * 8 + div8 / 2) / div8);
}

/* A control request: setup packet s, data stage d (wLength bytes, IN data
 * written there). Returns the IN length or the OUT length, or -EPIPE for a
 * stall. Called with the chip locked. */
static int control(struct ft_emu_chip *c, const uint8_t *s, uint8_t *d)
{
    int type = s[0], req = s[1];
    unsigned value = s[2] | (unsigned)s[3] << 8;
    unsigned index = s[4] | (unsigned)s[5] << 8;
    unsigned length = s[6] | (unsigned)s[7] << 8;
    uint8_t tmp[256];
    size_t n;

    if (type == 0x80 && req == 6) {                   /* GET_DESCRIPTOR */
        switch (value >> 8) {
        case 1: n = device_descriptor(c, tmp); break;
        case 2: n = config_descriptor(tmp); break;
        case 3: n = string_descriptor(c, value & 0xff, tmp); break;
        default: return -EPIPE;
        }
        if (n == 0)
            return -EPIPE;
        n = n < length ? n : length;
        memcpy(d, tmp, n);
        return (int)n;
    }
    if (type == 0x80 && req == 8) {                   /* GET_CONFIGURATION */
        if (length < 1)
            return -EPIPE;
        d[0] = c->config_value;
        return 1;
    }
    if (type == 0x80 && req == 0) {                   /* GET_STATUS */
        if (length < 2)
            return -EPIPE;
        d[0] = d[1] = 0;
        return 2;
    }
    if (type == 0x00 && req == 9) {                   /* SET_CONFIGURATION */
        c->config_value = (uint8_t)value;
        return 0;
    }
    if ((type & 0x60) != 0x40)
        return -EPIPE;
    /* Vendor requests: the low byte of wIndex names the channel (1 = A). */
    int chn = (index & 0xff) - 1;
    if (req == 0x90) {                                /* READ_EEPROM: blank */
        n = length < 2 ? length : 2;
        memset(d, 0xff, n);
        return (int)n;
    }
    if (chn < 0 || chn >= FT_CHANNELS)
        return -EPIPE;
    struct ft_emu_chan_state *st = &c->ch[chn].st;
    switch (req) {
    case 0x00:                                        /* RESET / purge */
        if (value == 0)
            st->resets++;
        else if (value == 1)
            st->purges_rx++;
        else if (value == 2)
            st->purges_tx++;
        return 0;
    case 0x01:                                        /* MODEM_CTRL */
        return 0;
    case 0x02:                                        /* SET_FLOW_CTRL */
        st->flow = (int)(index >> 8);
        return 0;
    case 0x03:                                        /* SET_BAUDRATE */
        st->baud = decode_baud(value, index);
        return 0;
    case 0x04:                                        /* SET_DATA */
        st->line = (int)value;
        return 0;
    case 0x05:                                        /* POLL_MODEM_STATUS */
        if (length < 2)
            return -EPIPE;
        d[0] = MODEM_STATUS0;
        d[1] = MODEM_STATUS1;
        return 2;
    case 0x06: case 0x07:                             /* event / error char */
        return 0;
    case 0x09:                                        /* SET_LATENCY_TIMER */
        st->latency_ms = (int)(value & 0xff);
        return 0;
    case 0x0a:                                        /* GET_LATENCY_TIMER */
        if (length < 1)
            return -EPIPE;
        d[0] = (uint8_t)st->latency_ms;
        return 1;
    case 0x0b:                                        /* SET_BITMODE */
        st->bitmode = (int)(value >> 8);
        return 0;
    case 0x0c:                                        /* READ_PINS */
        if (length < 1)
            return -EPIPE;
        d[0] = 0xff;
        return 1;
    default:
        return -EPIPE;
    }
}

/* ---- bulk endpoints ---------------------------------------------------- */

static int ep_channel(int ep)
{
    switch (ep) {
    case 0x81: case 0x02: return 0;
    case 0x83: case 0x04: return 1;
    default: return -1;
    }
}

static void finish(struct urb *u, int status, int actual)
{
    /* update() copies from separate storage (never from data itself). */
    u->done = true;
    u->status = status;
    u->actual = actual;
    umockdev_ioctl_data_update(u->data, offsetof(struct usbdevfs_urb, status),
                               (guint8 *)&u->status, sizeof u->status);
    umockdev_ioctl_data_update(u->data, offsetof(struct usbdevfs_urb, actual_length),
                               (guint8 *)&u->actual, sizeof u->actual);
}

/* The channel's line rate in bytes per second (8N1: 10 bits per byte);
 * the chip's reset default is 9600 baud. */
static double line_rate(const struct chan *ch)
{
    return (ch->st.baud > 0 ? ch->st.baud : 9600) / 10.0;
}

/* Try to complete a pending bulk IN transfer: data from the model packed
 * into 512-byte packets behind two status bytes each, or a status-only
 * packet once the latency timer has run out. */
static void service_in(struct ft_emu_chip *c, struct urb *u, gint64 now)
{
    int chn = ep_channel(u->ep);
    struct chan *ch = &c->ch[chn];
    int len = u->buf ? u->buf->data_len : 0;
    uint8_t *out;
    int npk = len / FT_PACKET + (len % FT_PACKET > 2 ? 1 : 0);
    size_t cap = 0;
    uint8_t *tmp;
    size_t got = 0;

    if (len < 2) {
        finish(u, -EOVERFLOW, 0);
        return;
    }
    for (int p = 0; p < npk; p++) {
        int room = len - p * FT_PACKET;
        cap += (size_t)((room > FT_PACKET ? FT_PACKET : room) - 2);
    }
    tmp = malloc(cap ? cap : 1);
    if (tmp == NULL)
        return;
    bool expired = now - u->submitted_us >= (gint64)ch->st.latency_ms * 1000;
    if (c->paced) {
        /* Bytes reach the chip at the line rate into its 4 KiB buffer; the
         * transfer ends when full or, partly filled, at the latency timer. */
        ch->rx_credit += (double)(now - ch->rx_last_us) * line_rate(ch) / 1e6;
        if (ch->rx_credit > FT_FIFO)
            ch->rx_credit = FT_FIFO;
        ch->rx_last_us = now;
        if (ch->rx_credit < (double)cap && !expired) {
            free(tmp);
            return;
        }
        if ((double)cap > ch->rx_credit)
            cap = (size_t)ch->rx_credit;
    }
    if (ch->port.dev_to_host != NULL && cap > 0)
        got = ch->port.dev_to_host(ch->port.user, tmp, cap);
    if (got > cap)
        got = cap;
    if (c->paced) {
        /* A model that ran dry left the wire idle: no credit carries over. */
        ch->rx_credit = got < cap ? 0 : ch->rx_credit - (double)got;
    }
    if (got == 0 && !expired) {
        free(tmp);
        return;
    }
    size_t pos = 0;
    int w = 0;
    out = malloc((size_t)len);
    if (out == NULL) {
        free(tmp);
        return;
    }
    do {
        size_t take = got - pos < FT_PACKET - 2 ? got - pos : FT_PACKET - 2;
        out[w] = MODEM_STATUS0;
        out[w + 1] = MODEM_STATUS1;
        memcpy(out + w + 2, tmp + pos, take);
        w += 2 + (int)take;
        pos += take;
    } while (pos < got);
    free(tmp);
    ch->st.bytes_in += got;
    if (got == 0)
        ch->st.status_only++;
    umockdev_ioctl_data_update(u->buf, 0, out, w);
    free(out);
    finish(u, 0, w);
}

/* Complete what can be completed; called on every submit and reap. */
static void service(struct ft_emu_chip *c)
{
    gint64 now = g_get_monotonic_time();
    bool seen_ep[256] = { false };
    if (c->wedged)
        return;
    for (struct urb *u = c->urbs; u != NULL; u = u->next) {
        if (u->done || u->type != USBDEVFS_URB_TYPE_BULK || !(u->ep & 0x80))
            continue;
        if (seen_ep[u->ep])          /* transfers on one pipe finish in order */
            continue;
        seen_ep[u->ep] = true;
        service_in(c, u, now);
    }
}

/* Accept a bulk OUT transfer unless (paced) the TX FIFO has no room for
 * it yet; true when accepted. */
static bool out_data(struct ft_emu_chip *c, struct urb *u)
{
    struct chan *ch = &c->ch[ep_channel(u->ep)];
    int len = u->buf ? u->buf->data_len : 0;
    if (c->paced) {
        gint64 now = g_get_monotonic_time();
        double us_per_byte = 1e6 / line_rate(ch);
        /* The host controller feeds a submitted transfer's packets as
         * room frees up, so its bytes start on the wire when both it was
         * submitted and the wire was free, however late it is seen here. */
        gint64 start = ch->tx_busy_until_us > u->submitted_us ?
                       ch->tx_busy_until_us : u->submitted_us;
        if ((double)(start - now) > (FT_FIFO - (len < FT_FIFO ? len : FT_FIFO)) * us_per_byte)
            return false;
        ch->tx_busy_until_us = start + (gint64)(len * us_per_byte);
    }
    if (len > 0 && ch->port.host_to_dev != NULL)
        ch->port.host_to_dev(ch->port.user, u->buf->data, (size_t)len);
    ch->st.bytes_out += (uint64_t)len;
    finish(u, 0, len);
    return true;
}

/* ---- usbdevfs ioctls --------------------------------------------------- */

static void free_urb(struct urb *u)
{
    g_object_unref(u->client);
    if (u->buf)
        umockdev_ioctl_data_unref(u->buf);
    umockdev_ioctl_data_unref(u->data);
    free(u);
}

/* An interface is claimed while its owner's file is open (the kernel
 * releases claims on close). */
static bool claimed_by_other(struct chan *ch, UMockdevIoctlClient *client)
{
    if (ch->owner != NULL && !umockdev_ioctl_client_get_connected(ch->owner)) {
        g_object_unref(ch->owner);
        ch->owner = NULL;
        ch->st.claimed = false;
    }
    return ch->owner != NULL && ch->owner != client;
}

/* Forget the URBs of files that were closed. */
static void drop_orphans(struct ft_emu_chip *c)
{
    for (struct urb **pp = &c->urbs; *pp != NULL;) {
        struct urb *u = *pp;
        if (!umockdev_ioctl_client_get_connected(u->client)) {
            *pp = u->next;
            free_urb(u);
        } else {
            pp = &u->next;
        }
    }
}

static int submit(struct ft_emu_chip *c, UMockdevIoctlClient *client, UMockdevIoctlData *arg)
{
    UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct usbdevfs_urb), NULL);
    struct usbdevfs_urb *k;
    struct urb *u, **tail;

    if (d == NULL)
        return -EFAULT;
    k = (struct usbdevfs_urb *)d->data;
    u = calloc(1, sizeof *u);
    if (u == NULL)
        return -ENOMEM;
    u->data = umockdev_ioctl_data_ref(d);
    u->client = g_object_ref(client);
    u->ep = k->endpoint;
    u->type = k->type;
    u->submitted_us = g_get_monotonic_time();
    if (k->buffer_length > 0) {
        u->buf = umockdev_ioctl_data_resolve(d, offsetof(struct usbdevfs_urb, buffer),
                                             (gsize)k->buffer_length, NULL);
        if (u->buf)
            umockdev_ioctl_data_ref(u->buf);
    }
    if (u->type == USBDEVFS_URB_TYPE_CONTROL) {
        int r;
        if (u->buf == NULL || u->buf->data_len < 8) {
            free_urb(u);
            return -EINVAL;
        }
        uint8_t *b = u->buf->data, *stage;
        unsigned wlen = b[6] | (unsigned)b[7] << 8;
        if (wlen + 8 > (unsigned)u->buf->data_len || (stage = calloc(1, wlen + 256)) == NULL) {
            free_urb(u);
            return -EINVAL;
        }
        memcpy(stage, b + 8, wlen);
        r = control(c, b, stage);
        if (r > 0 && (b[0] & 0x80))
            umockdev_ioctl_data_update(u->buf, 8, stage, r);
        free(stage);
        finish(u, r < 0 ? r : 0, r < 0 ? 0 : r);
    } else if (u->type == USBDEVFS_URB_TYPE_BULK && ep_channel(u->ep) >= 0) {
        struct chan *ch = &c->ch[ep_channel(u->ep)];
        if (ch->owner != client) {
            free_urb(u);
            return -ENOENT;
        }
        bool earlier = false;    /* an OUT on this pipe still waits */
        for (struct urb *v = c->urbs; v != NULL; v = v->next)
            earlier |= !v->done && v->ep == u->ep;
        if (!(u->ep & 0x80) && !c->wedged && !earlier)
            out_data(c, u);
    } else {
        free_urb(u);
        return -ENOENT;
    }
    for (tail = &c->urbs; *tail != NULL; tail = &(*tail)->next)
        ;
    *tail = u;
    /* OUT transfers still pending when the chip is unwedged complete on the
     * next reap (handled in reap()). */
    service(c);
    return 0;
}

static int reap(struct ft_emu_chip *c, UMockdevIoctlClient *client, UMockdevIoctlData *arg)
{
    struct urb **pp, *u;
    UMockdevIoctlData *ptr;

    drop_orphans(c);
    if (!c->wedged) {
        bool blocked[256] = { false };
        for (u = c->urbs; u != NULL; u = u->next)
            if (!u->done && u->type == USBDEVFS_URB_TYPE_BULK && !(u->ep & 0x80) &&
                !blocked[u->ep])
                blocked[u->ep] = !out_data(c, u);
    }
    service(c);
    for (pp = &c->urbs; *pp != NULL && !((*pp)->done && (*pp)->client == client);
         pp = &(*pp)->next)
        ;
    if (*pp == NULL)
        return -EAGAIN;
    u = *pp;
    ptr = umockdev_ioctl_data_resolve(arg, 0, sizeof(void *), NULL);
    if (ptr == NULL)
        return -EFAULT;
    umockdev_ioctl_data_set_ptr(ptr, 0, u->data);
    *pp = u->next;
    free_urb(u);
    return 0;
}

static int discard(struct ft_emu_chip *c, UMockdevIoctlClient *client, UMockdevIoctlData *arg)
{
    unsigned long addr = *(unsigned long *)arg->data;
    for (struct urb *u = c->urbs; u != NULL; u = u->next) {
        if (u->data->client_addr == addr && u->client == client && !u->done) {
            finish(u, -ENOENT, 0);
            return 0;
        }
    }
    return -EINVAL;
}

static int interface_arg(UMockdevIoctlData *arg, unsigned *ifc)
{
    UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof(unsigned), NULL);
    if (d == NULL)
        return -EFAULT;
    *ifc = *(unsigned *)d->data;
    return 0;
}

static int ctrl_ioctl(struct ft_emu_chip *c, UMockdevIoctlData *arg)
{
    UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct usbdevfs_ctrltransfer), NULL);
    struct usbdevfs_ctrltransfer *t;
    UMockdevIoctlData *data = NULL;
    uint8_t setup[8];
    uint8_t buf[4096];
    int r;

    if (d == NULL)
        return -EFAULT;
    t = (struct usbdevfs_ctrltransfer *)d->data;
    if (t->wLength > sizeof buf)
        return -EINVAL;
    setup[0] = t->bRequestType;
    setup[1] = t->bRequest;
    setup[2] = (uint8_t)t->wValue; setup[3] = (uint8_t)(t->wValue >> 8);
    setup[4] = (uint8_t)t->wIndex; setup[5] = (uint8_t)(t->wIndex >> 8);
    setup[6] = (uint8_t)t->wLength; setup[7] = (uint8_t)(t->wLength >> 8);
    if (t->wLength > 0) {
        data = umockdev_ioctl_data_resolve(d, offsetof(struct usbdevfs_ctrltransfer, data),
                                           t->wLength, NULL);
        if (data == NULL)
            return -EFAULT;
        memcpy(buf, data->data, t->wLength);
    }
    r = control(c, setup, buf);
    if (r > 0 && (setup[0] & 0x80) && data != NULL)
        umockdev_ioctl_data_update(data, 0, buf, r);
    return r;
}

static gboolean on_ioctl(UMockdevIoctlBase *h, UMockdevIoctlClient *client, gpointer user)
{
    struct ft_emu_chip *c = user;
    unsigned long req = umockdev_ioctl_client_get_request(client);
    UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
    int r = 0;
    unsigned ifc;
    (void)h;

    pthread_mutex_lock(&c->lock);
    bool gone = c->unplug != NULL && *c->unplug;
    if (gone)                  /* as the kernel on a disconnect: URBs end */
        for (struct urb *u = c->urbs; u != NULL; u = u->next)
            if (!u->done)
                finish(u, -ESHUTDOWN, 0);
    switch (gone && req != USBDEVFS_REAPURB && req != USBDEVFS_REAPURBNDELAY ? 0 : req) {
    case 0:                    /* unplugged */
        r = -ENODEV;
        break;
    case USBDEVFS_GET_CAPABILITIES: {
        UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof(uint32_t), NULL);
        uint32_t caps = USBDEVFS_CAP_ZERO_PACKET | USBDEVFS_CAP_BULK_CONTINUATION |
                        USBDEVFS_CAP_NO_PACKET_SIZE_LIM;
        if (d == NULL)
            r = -EFAULT;
        else
            umockdev_ioctl_data_update(d, 0, (guint8 *)&caps, sizeof caps);
        break;
    }
    case USBDEVFS_CLAIMINTERFACE:
        r = interface_arg(arg, &ifc);
        if (r == 0 && ifc >= FT_CHANNELS)
            r = -ENOENT;
        else if (r == 0 && claimed_by_other(&c->ch[ifc], client))
            r = -EBUSY;
        else if (r == 0 && c->ch[ifc].owner == NULL) {
            c->ch[ifc].owner = g_object_ref(client);
            c->ch[ifc].st.claimed = true;
        }
        break;
    case USBDEVFS_RELEASEINTERFACE:
        r = interface_arg(arg, &ifc);
        if (r == 0 && ifc >= FT_CHANNELS)
            r = -EINVAL;
        else if (r == 0 && c->ch[ifc].owner == client) {
            g_object_unref(c->ch[ifc].owner);
            c->ch[ifc].owner = NULL;
            c->ch[ifc].st.claimed = false;
        }
        break;
    case USBDEVFS_GETDRIVER: {
        /* No kernel driver (ftdi_sio) is bound; an interface claimed
         * through another open file shows as "usbfs", as in the kernel. */
        UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct usbdevfs_getdriver), NULL);
        struct usbdevfs_getdriver gd;
        if (d == NULL) {
            r = -EFAULT;
            break;
        }
        memcpy(&gd, d->data, sizeof gd);
        if (gd.interface < FT_CHANNELS && c->ch[gd.interface].owner != NULL &&
            umockdev_ioctl_client_get_connected(c->ch[gd.interface].owner)) {
            memset(gd.driver, 0, sizeof gd.driver);
            strcpy(gd.driver, "usbfs");
            umockdev_ioctl_data_update(d, 0, (guint8 *)&gd, sizeof gd);
        } else {
            r = -ENODATA;
        }
        break;
    }
    case USBDEVFS_IOCTL:
        r = -ENODATA;          /* nothing to disconnect */
        break;
    case USBDEVFS_SETCONFIGURATION:
    case USBDEVFS_SETINTERFACE:
    case USBDEVFS_RESET:
    case USBDEVFS_RESETEP:
    case USBDEVFS_CLEAR_HALT:
        break;
    case USBDEVFS_CONTROL:
        r = ctrl_ioctl(c, arg);
        break;
    case USBDEVFS_SUBMITURB:
        r = submit(c, client, arg);
        break;
    case USBDEVFS_REAPURB:
    case USBDEVFS_REAPURBNDELAY:
        r = reap(c, client, arg);
        if (gone && r == -EAGAIN)
            r = -ENODEV;       /* nothing left to reap from a gone device */
        break;
    case USBDEVFS_DISCARDURB:
        r = discard(c, client, arg);
        break;
    default:
        fprintf(stderr, "ft2232h_emu: unhandled usbdevfs ioctl 0x%lx on %s\n",
                req, c->devnode);
        r = -ENOTTY;
        break;
    }
    pthread_mutex_unlock(&c->lock);
    umockdev_ioctl_client_complete(client, r < 0 ? -1 : r, r < 0 ? -r : 0);
    return TRUE;
}

/* ---- testbed ----------------------------------------------------------- */

int ft_emu_reexec(char **argv)
{
    char *pre;
    const char *old = getenv("LD_PRELOAD");
    const char *asan = getenv("ASAN_OPTIONS");
    char *aopt;

    /* umockdev_in_mock_environment() answers whether $UMOCKDEV_DIR is
     * set, not whether the preload is in place: look at LD_PRELOAD. */
    if (old != NULL && strstr(old, "libumockdev-preload") != NULL)
        return 0;
    if (getenv("FT_EMU_REEXEC") != NULL) {
        fprintf(stderr, "ft2232h_emu: libumockdev-preload did not load "
                "(install umockdev: scripts/deps.sh)\n");
        return -1;
    }
    if (asprintf(&pre, "libumockdev-preload.so.0%s%s", old && *old ? ":" : "",
                 old ? old : "") < 0)
        return -1;
    /* The preload comes before the sanitizer runtime in the library list;
     * ASan accepts that when told to. */
    if (asprintf(&aopt, "%s%sverify_asan_link_order=0", asan ? asan : "",
                 asan && *asan ? ":" : "") < 0)
        return -1;
    setenv("LD_PRELOAD", pre, 1);
    setenv("ASAN_OPTIONS", aopt, 1);
    setenv("FT_EMU_REEXEC", "1", 1);
    execv("/proc/self/exe", argv);
    fprintf(stderr, "ft2232h_emu: cannot re-execute under umockdev: %s\n", strerror(errno));
    return -1;
}

/* Child side of ft_emu_spawn(): LD_PRELOAD and ASAN_OPTIONS as in
 * ft_emu_reexec(); $UMOCKDEV_DIR is inherited from the testbed. */
static void child_env(void)
{
    const char *old = getenv("LD_PRELOAD");
    const char *asan = getenv("ASAN_OPTIONS");
    char *pre = NULL, *aopt = NULL;
    if (old == NULL || strstr(old, "libumockdev-preload") == NULL) {
        if (asprintf(&pre, "libumockdev-preload.so.0%s%s", old && *old ? ":" : "",
                     old ? old : "") > 0)
            setenv("LD_PRELOAD", pre, 1);
    }
    if (asprintf(&aopt, "%s%sverify_asan_link_order=0", asan ? asan : "",
                 asan && *asan ? ":" : "") > 0)
        setenv("ASAN_OPTIONS", aopt, 1);
}

int ft_emu_spawn(struct ft_emu *e, char *const argv[])
{
    pid_t pid;
    int st;
    (void)e;      /* the testbed is this process's $UMOCKDEV_DIR */
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "ft2232h_emu: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        child_env();
        execvp(argv[0], argv);
        fprintf(stderr, "ft2232h_emu: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}

struct ft_emu *ft_emu_new(void)
{
    struct ft_emu *e = calloc(1, sizeof *e);
    if (e == NULL)
        return NULL;
    e->tb = umockdev_testbed_new();
    if (e->tb == NULL) {
        fprintf(stderr, "ft2232h_emu: cannot create a umockdev testbed\n");
        free(e);
        return NULL;
    }
    e->root = umockdev_testbed_get_root_dir(e->tb);
    return e;
}

void ft_emu_free(struct ft_emu *e)
{
    if (e == NULL)
        return;
    for (int i = 0; i < e->nchips; i++) {
        struct ft_emu_chip *c = e->chips[i];
        umockdev_testbed_detach_ioctl(e->tb, c->devnode, NULL);
        g_object_unref(c->handler);
        while (c->urbs) {
            struct urb *u = c->urbs;
            c->urbs = u->next;
            free_urb(u);
        }
        for (int k = 0; k < FT_CHANNELS; k++) {
            if (c->ch[k].owner)
                g_object_unref(c->ch[k].owner);
            free(c->ch[k].via);
        }
        pthread_mutex_destroy(&c->lock);
        free(c);
    }
    g_object_unref(e->tb);
    g_free(e->root);
    free(e);
}

static void hex(char *out, const uint8_t *d, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", d[i]);
}

struct ft_emu_chip *ft_emu_add(struct ft_emu *e, int bus, int dev,
                               uint16_t vid, uint16_t pid,
                               const char *serial, const char *product)
{
    struct ft_emu_chip *c;
    uint8_t desc[128];
    char deschex[300], *rec;
    size_t n;
    GError *err = NULL;

    if (e->nchips == FT_MAX_CHIPS || bus < 1 || bus > 127 || dev < 1 || dev > 127)
        return NULL;
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->emu = e;
    c->bus = bus;
    c->dev = dev;
    c->vid = vid ? vid : 0x0403;
    c->pid = pid ? pid : 0x6010;
    c->has_serial = serial != NULL;
    snprintf(c->serial, sizeof c->serial, "%s", serial ? serial : "");
    snprintf(c->product, sizeof c->product, "%s", product ? product : "Dual RS232-HS");
    snprintf(c->devnode, sizeof c->devnode, "/dev/bus/usb/%03d/%03d", bus, dev);
    /* The sysfs name is BUS-PORT; the port is the device number here. */
    snprintf(c->syspath, sizeof c->syspath,
             "/devices/pci0000:00/0000:00:14.0/usb%d/%d-%d", bus, bus, dev);
    c->config_value = 1;
    pthread_mutex_init(&c->lock, NULL);
    for (int i = 0; i < FT_CHANNELS; i++)
        c->ch[i].st.latency_ms = 16;   /* the chip's power-on default */

    c->handler = umockdev_ioctl_base_new();
    g_signal_connect(c->handler, "handle-ioctl", G_CALLBACK(on_ioctl), c);
    /* The handler first, so that the node is live when it appears. */
    if (!umockdev_testbed_attach_ioctl(e->tb, c->devnode, c->handler, &err)) {
        fprintf(stderr, "ft2232h_emu: cannot attach to %s: %s\n", c->devnode,
                err ? err->message : "?");
        g_clear_error(&err);
        g_object_unref(c->handler);
        free(c);
        return NULL;
    }
    n = device_descriptor(c, desc);
    n += config_descriptor(desc + n);
    hex(deschex, desc, n);
    rec = g_strdup_printf(
        "P: %s\n"
        "N: bus/usb/%03d/%03d\n"
        "E: SUBSYSTEM=usb\n"
        "E: DEVTYPE=usb_device\n"
        "E: DRIVER=usb\n"
        "E: DEVNAME=%s\n"
        "E: BUSNUM=%03d\n"
        "E: DEVNUM=%03d\n"
        "E: PRODUCT=%x/%x/700\n"
        "A: busnum=%d\\n\n"
        "A: devnum=%d\\n\n"
        "A: speed=480\\n\n"
        "A: bConfigurationValue=1\\n\n"
        "A: idVendor=%04x\\n\n"
        "A: idProduct=%04x\\n\n"
        "A: bcdDevice=0700\\n\n"
        "A: manufacturer=FTDI\\n\n"
        "A: product=%s\\n\n"
        "%s%s%s"
        "H: descriptors=%s\n",
        c->syspath, bus, dev, c->devnode, bus, dev, c->vid, c->pid, bus, dev,
        c->vid, c->pid, c->product,
        serial ? "A: serial=" : "", serial ? serial : "", serial ? "\\n\n" : "",
        deschex);
    if (!umockdev_testbed_add_from_string(e->tb, rec, &err)) {
        fprintf(stderr, "ft2232h_emu: cannot add %s: %s\n", c->devnode,
                err ? err->message : "?");
        g_clear_error(&err);
        g_free(rec);
        umockdev_testbed_detach_ioctl(e->tb, c->devnode, NULL);
        g_object_unref(c->handler);
        free(c);
        return NULL;
    }
    g_free(rec);
    e->chips[e->nchips++] = c;
    return c;
}

void ft_emu_connect(struct ft_emu_chip *c, int channel, const struct ft_emu_port *p)
{
    if (channel < 0 || channel >= FT_CHANNELS)
        return;
    pthread_mutex_lock(&c->lock);
    free(c->ch[channel].via);
    c->ch[channel].via = NULL;
    c->ch[channel].port = *p;
    pthread_mutex_unlock(&c->lock);
}

/* A transport as the device side (ft_emu_connect_transport). */
struct via_transport {
    const struct tn_transport_ops *ops;
    struct tn_transport *t;
};

static void via_rx(void *user, const uint8_t *buf, size_t len)
{
    struct via_transport *v = user;
    int rc = v->ops->write(v->t, buf, len);
    if (rc != 0)
        fprintf(stderr, "ft2232h_emu: %s transport write failed (%d): bytes lost\n",
                v->ops->name, rc);
}

static size_t via_tx(void *user, uint8_t *buf, size_t cap)
{
    struct via_transport *v = user;
    int n = v->ops->read(v->t, buf, cap, 1);
    return n > 0 ? (size_t)n : 0;
}

void ft_emu_connect_transport(struct ft_emu_chip *c, int channel,
                              const struct tn_transport_ops *ops, struct tn_transport *t)
{
    struct via_transport *v;
    if (channel < 0 || channel >= FT_CHANNELS)
        return;
    v = calloc(1, sizeof *v);
    if (v == NULL)
        return;
    v->ops = ops;
    v->t = t;
    pthread_mutex_lock(&c->lock);
    free(c->ch[channel].via);
    c->ch[channel].via = v;
    c->ch[channel].port = (struct ft_emu_port){ via_rx, via_tx, v };
    pthread_mutex_unlock(&c->lock);
}

void ft_emu_set_wedged(struct ft_emu_chip *c, bool wedged)
{
    pthread_mutex_lock(&c->lock);
    c->wedged = wedged;
    pthread_mutex_unlock(&c->lock);
}

void ft_emu_set_unplug_flag(struct ft_emu_chip *c, const volatile bool *flag)
{
    pthread_mutex_lock(&c->lock);
    c->unplug = flag;
    pthread_mutex_unlock(&c->lock);
}

int ft_emu_set_node_mode(struct ft_emu_chip *c, mode_t mode)
{
    char *path = g_strdup_printf("%s%s", c->emu->root, c->devnode);
    int rc = chmod(path, mode);
    if (rc != 0)
        fprintf(stderr, "ft2232h_emu: chmod %s: %s\n", path, strerror(errno));
    g_free(path);
    return rc;
}

void ft_emu_set_paced(struct ft_emu_chip *c, bool paced)
{
    gint64 now = g_get_monotonic_time();
    pthread_mutex_lock(&c->lock);
    c->paced = paced;
    for (int i = 0; i < FT_CHANNELS; i++) {
        c->ch[i].rx_credit = 0;
        c->ch[i].rx_last_us = now;
        c->ch[i].tx_busy_until_us = now;
    }
    pthread_mutex_unlock(&c->lock);
}

const char *ft_emu_devnode(const struct ft_emu_chip *c)
{
    return c->devnode;
}

void ft_emu_get_state(struct ft_emu_chip *c, int channel, struct ft_emu_chan_state *s)
{
    pthread_mutex_lock(&c->lock);
    claimed_by_other(&c->ch[channel], NULL);
    *s = c->ch[channel].st;
    pthread_mutex_unlock(&c->lock);
}
