/* SPDX-License-Identifier: MIT */
/* The framed protocol (include/torus/proto.h) over the usb transport, through the
 * unmodified libftdi1/libusb path to an emulated FT2232H whose channel B
 * is connected to a small C frame responder (a register file behind the
 * bridge's framing): INFO, WRITE and READ arrive intact, and a device that
 * stops answering surfaces as TN_ETIMEDOUT within the protocol's bound. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tap.h"
#include "ft2232h_emu.h"
#include "proto.h"
#include "tn_error.h"
#include "transport.h"

extern const struct tn_transport_ops tn_transport_usb_ops;
static const struct tn_transport_ops *usb = &tn_transport_usb_ops;

#define MAXP 256            /* responder's payload bound (bytes) */
#define REGS 65536          /* words of register file at 0 .. REGS-1 */

/* The frame responder: SLIP frames in, one reply per frame out. */
struct responder {
    pthread_mutex_t lock;
    struct tn_slip_dec dec;
    uint8_t raw[MAXP + 64];
    uint8_t *out;           /* encoded replies waiting for the host */
    size_t head, tail, cap;
    uint32_t *regs;
    bool silent;
    unsigned frames;
};

static void queue(struct responder *r, uint8_t type, uint8_t seq,
                  const uint8_t *payload, size_t len)
{
    uint8_t enc[2 * (MAXP + 8) + 2];
    size_t n = tn_frame_encode(enc, sizeof enc, type, seq, payload, len);
    if (r->tail + n > r->cap) {
        if (r->out != NULL)
            memmove(r->out, r->out + r->head, r->tail - r->head);
        r->tail -= r->head;
        r->head = 0;
        if (r->tail + n > r->cap) {
            r->cap = (r->tail + n) * 2;
            r->out = realloc(r->out, r->cap);
        }
    }
    memcpy(r->out + r->tail, enc, n);
    r->tail += n;
}

static void handle(struct responder *r)
{
    struct tn_frame f;
    uint8_t pl[MAXP];
    int nak = tn_frame_check(r->raw, r->dec.len, r->dec.esc_err, MAXP, &f);
    if (nak == TN_NAK_OK)
        nak = tn_request_check(&f, MAXP);
    r->frames++;
    if (nak != TN_NAK_OK) {
        uint8_t p[2] = { (uint8_t)nak, f.type };
        queue(r, TN_T_NAK, f.seq, p, 2);
        return;
    }
    switch (f.type) {
    case TN_T_INFO: {
        uint32_t w[8] = { 1, 3 | 3 << 8 | 3 << 16, 16, 6, 1024, 16, 2,
                          MAXP | (uint32_t)TN_PROTO_VERSION << 16 };
        for (int i = 0; i < 8; i++)
            tn_put_le32(pl + 4 * i, w[i]);
        queue(r, TN_T_DATA, f.seq, pl, 32);
        break;
    }
    case TN_T_WRITE: {
        uint32_t a = tn_get_le32(f.payload);
        for (size_t i = 4; i < f.len; i += 4, a++)
            if (a < REGS)
                r->regs[a] = tn_get_le32(f.payload + i);
        queue(r, TN_T_ACK, f.seq, NULL, 0);
        break;
    }
    case TN_T_READ: {
        uint32_t a = tn_get_le32(f.payload), n = tn_get_le32(f.payload + 4);
        for (uint32_t i = 0; i < n; i++)
            tn_put_le32(pl + 4 * i, a + i < REGS ? r->regs[a + i] : 0);
        queue(r, TN_T_DATA, f.seq, pl, 4 * n);
        break;
    }
    case TN_T_STATUS:
        memset(pl, 0, 32);
        queue(r, TN_T_DATA, f.seq, pl, 32);
        break;
    default:
        queue(r, TN_T_ACK, f.seq, NULL, 0);
        break;
    }
}

static void resp_rx(void *user, const uint8_t *buf, size_t len)
{
    struct responder *r = user;
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < len; i++)
        if (tn_slip_dec_push(&r->dec, buf[i]) == 1 && !r->silent)
            handle(r);
    pthread_mutex_unlock(&r->lock);
}

static size_t resp_tx(void *user, uint8_t *buf, size_t cap)
{
    struct responder *r = user;
    size_t n;
    pthread_mutex_lock(&r->lock);
    n = r->tail - r->head < cap ? r->tail - r->head : cap;
    memcpy(buf, r->out + r->head, n);
    r->head += n;
    pthread_mutex_unlock(&r->lock);
    return n;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
    struct responder r;
    struct ft_emu *e;
    struct ft_emu_chip *c;
    struct tn_transport *t = NULL;
    struct tn_transport_opts o;
    struct tn_proto *p = NULL;
    struct tn_proto_opts po = { .timeout_ms = 200, .retries = 1, .window = 8 };
    struct tn_info info;
    char err[1024] = "";
    const size_t n = 5000;
    uint32_t *w = malloc(n * sizeof *w), *back = calloc(n, sizeof *back);
    int rc;

    (void)argc;
    if (ft_emu_reexec(argv) != 0 || w == NULL || back == NULL)
        return 1;
    memset(&r, 0, sizeof r);
    pthread_mutex_init(&r.lock, NULL);
    tn_slip_dec_init(&r.dec, r.raw, sizeof r.raw);
    r.regs = calloc(REGS, sizeof *r.regs);
    e = ft_emu_new();
    c = e ? ft_emu_add(e, 1, 2, 0, 0, "TNPROTO1", NULL) : NULL;
    if (c == NULL || r.regs == NULL)
        return 1;
    ft_emu_connect(c, 1, &(struct ft_emu_port){ resp_rx, resp_tx, &r });

    memset(&o, 0, sizeof o);
    o.backend = "usb";
    o.interface = 0;  /* default: B */
    rc = usb->open(&t, &o, err, sizeof err);
    is(rc, 0, "the usb transport opens the emulated board");
    if (rc) {
        diag("%s", err);
        return tap_done();
    }
    rc = tn_proto_open(&p, usb, t, &po);
    is(rc, 0, "a protocol client opens on the usb transport");
    if (rc)
        return tap_done();

    rc = tn_proto_info(p, &info);
    ok(rc == 0 && info.dims[0] == 3 && info.dims[1] == 3 && info.dims[2] == 3 &&
       info.lanes == 6 && info.mem_depth == 1024 && info.max_payload == MAXP &&
       info.proto_version == TN_PROTO_VERSION,
       "INFO over usb returns the responder's geometry and payload bound (rc %d)", rc);

    for (size_t i = 0; i < n; i++)
        w[i] = (uint32_t)(i * 2654435761u);
    rc = tn_proto_write(p, 0x100, w, n);
    is(rc, 0, "a 5000-word WRITE goes through in bursts");
    ok(rc == 0 && memcmp(r.regs + 0x100, w, n * sizeof *w) == 0,
       "the device's register file holds exactly the written words");
    rc = tn_proto_read(p, 0x100, back, n);
    ok(rc == 0 && memcmp(back, w, n * sizeof *w) == 0, "a 5000-word READ returns them");
    ok(tn_proto_stats(p)->retries == 0 && tn_proto_stats(p)->timeouts == 0,
       "no retries or timeouts on a healthy link");

    pthread_mutex_lock(&r.lock);
    r.silent = true;
    pthread_mutex_unlock(&r.lock);
    int64_t t0 = now_ms();
    rc = tn_proto_read(p, 0x100, back, 4);
    int64_t dt = now_ms() - t0;
    ok(rc == TN_ETIMEDOUT && dt >= 400 && dt < 2400,
       "a device that stops answering: READ fails with TN_ETIMEDOUT after 2 x 200 ms "
       "(rc %d, %lld ms)", rc, (long long)dt);
    ok(tn_proto_errmsg(p)[0] != '\0', "with a message: %s", tn_proto_errmsg(p));

    ft_emu_set_wedged(c, true);
    t0 = now_ms();
    rc = tn_proto_info(p, &info);
    dt = now_ms() - t0;
    ok((rc == TN_ETIMEDOUT || rc == TN_EIO) && dt < 5000,
       "a wedged chip: INFO fails with a device error in bounded time (rc %d, %lld ms)",
       rc, (long long)dt);
    ft_emu_set_wedged(c, false);

    tn_proto_close(p);
    usb->close(t);
    ft_emu_free(e);
    free(r.regs);
    free(r.out);
    free(w);
    free(back);
    return tap_done();
}
