/* SPDX-License-Identifier: MIT */
/* The framed protocol to the host bridge (docs/protocol.md): SLIP, CRC-16,
 * frames, and the client with sequence numbers, timeouts and retries. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L  /* clock_gettime */
#endif
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proto.h"
#include "clock.h"
#include "tn_error.h"

/* Largest payload the client handles (the bridge's MAX_WORDS <= 8192). */
#define PROTO_PAYLOAD_LIMIT 32768u
#define RAW_CAP (PROTO_PAYLOAD_LIMIT + TN_FRAME_OVERHEAD + 1)
#define ENC_CAP (2 * (PROTO_PAYLOAD_LIMIT + TN_FRAME_OVERHEAD) + 2)
#define DEFAULT_TIMEOUT_MS 500
#define DEFAULT_RETRIES 3

const char *tn_nak_str(int code)
{
    switch (code) {
    case TN_NAK_OK: return "ok";
    case TN_NAK_CRC: return "crc mismatch";
    case TN_NAK_LENGTH: return "bad length";
    case TN_NAK_OVERSIZE: return "frame larger than the device's payload bound";
    case TN_NAK_TYPE: return "unknown request type";
    case TN_NAK_VERSION: return "unsupported protocol version";
    case TN_NAK_ESCAPE: return "bad slip escape";
    case TN_NAK_ARG: return "bad payload for the request type";
    default: return "unknown nak code";
    }
}

const char *tn_frame_type_str(int type, char *buf, size_t len)
{
    static const char *const names[] = {
        [TN_T_INFO] = "INFO",   [TN_T_WRITE] = "WRITE", [TN_T_READ] = "READ",
        [TN_T_START] = "START", [TN_T_STATUS] = "STATUS",
        [TN_T_ABORT] = "ABORT", [TN_T_RESET] = "RESET",
    };
    if (type >= 0 && (size_t)type < sizeof names / sizeof names[0] && names[type])
        return names[type];
    if (type == TN_T_ACK)
        return "ACK";
    if (type == TN_T_DATA)
        return "DATA";
    if (type == TN_T_NAK)
        return "NAK";
    snprintf(buf, len, "type 0x%02x", (unsigned)type & 0xFFu);
    return buf;
}

/* What to do about a NAK that retrying cannot fix. */
static const char *nak_hint(int code)
{
    switch (code) {
    case TN_NAK_OVERSIZE:
        return "; leave max_payload at 0 so that the client asks the device (INFO)";
    case TN_NAK_TYPE:
    case TN_NAK_VERSION:
        return "; the bitstream's bridge does not match this host: rebuild one of them";
    case TN_NAK_ARG:
        return "; the host sent a malformed request: please report this bug";
    default:
        return "";
    }
}

bool tn_nak_retryable(int code)
{
    return code == TN_NAK_CRC || code == TN_NAK_LENGTH || code == TN_NAK_ESCAPE;
}

/* Hand-written on purpose: no Debian library provides CRC-16/CCITT-FALSE
 * (zlib has CRC-32 only). A byte's eight shift-and-XOR steps in closed
 * form, as rtl/bridge/tn_crc16.v computes them: with x = (crc >> 8) ^ byte
 * and y = x ^ (x >> 4), the new CRC is (crc << 8) ^ (y << 12) ^ (y << 5) ^
 * y. tests/bridge/test_proto.c checks it against the bitwise definition for
 * every CRC and byte. */
uint16_t tn_crc16(uint16_t crc, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    for (size_t i = 0; i < len; i++) {
        unsigned x = ((unsigned)crc >> 8 ^ p[i]) & 0xFFu;
        unsigned y = x ^ (x >> 4);
        crc = (uint16_t)((unsigned)crc << 8 ^ y << 12 ^ y << 5 ^ y);
    }
    return crc;
}

size_t tn_slip_encode(uint8_t *out, size_t cap, const uint8_t *in, size_t len)
{
    size_t o = 0;
    if (cap < 2)
        return 0;
    out[o++] = TN_SLIP_END;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = in[i];
        if (c == TN_SLIP_END || c == TN_SLIP_ESC) {
            if (o + 2 > cap - 1)
                return 0;
            out[o++] = TN_SLIP_ESC;
            out[o++] = c == TN_SLIP_END ? TN_SLIP_ESC_END : TN_SLIP_ESC_ESC;
        } else {
            if (o + 1 > cap - 1)
                return 0;
            out[o++] = c;
        }
    }
    out[o++] = TN_SLIP_END;
    return o;
}

void tn_slip_dec_init(struct tn_slip_dec *d, uint8_t *buf, size_t cap)
{
    memset(d, 0, sizeof *d);
    d->buf = buf;
    d->cap = cap;
}

static void slip_store(struct tn_slip_dec *d, uint8_t c)
{
    d->in_frame = true;
    if (d->len < d->cap)
        d->buf[d->len++] = c;
    else
        d->overflow = true;
}

int tn_slip_dec_push(struct tn_slip_dec *d, uint8_t c)
{
    /* a completed frame's state is cleared on the next byte */
    if (!d->in_frame && !d->esc && (d->len || d->esc_err || d->overflow)) {
        d->len = 0;
        d->esc_err = false;
        d->overflow = false;
    }
    if (c == TN_SLIP_END) {
        bool had = d->in_frame || d->esc;
        if (d->esc)
            d->esc_err = true;  /* ESC END: END still ends the frame */
        d->esc = false;
        d->in_frame = false;
        if (!had) {
            d->len = 0;
            return 0;           /* empty frame: ignored */
        }
        return 1;
    }
    if (d->esc) {
        d->esc = false;
        if (c == TN_SLIP_ESC_END)
            slip_store(d, TN_SLIP_END);
        else if (c == TN_SLIP_ESC_ESC)
            slip_store(d, TN_SLIP_ESC);
        else
            d->esc_err = true;  /* bad escape: byte dropped, frame marked */
        d->in_frame = true;
        return 0;
    }
    if (c == TN_SLIP_ESC) {
        d->esc = true;
        d->in_frame = true;
        return 0;
    }
    slip_store(d, c);
    return 0;
}

size_t tn_frame_build(uint8_t *out, size_t cap, uint8_t type, uint8_t seq,
                      const uint8_t *payload, size_t len)
{
    if (len > 0xFFFFu || cap < len + TN_FRAME_OVERHEAD)
        return 0;
    out[0] = TN_PROTO_VERSION;
    out[1] = type;
    out[2] = seq;
    out[3] = (uint8_t)len;
    out[4] = (uint8_t)(len >> 8);
    if (len)
        memcpy(out + TN_FRAME_HDR, payload, len);
    uint16_t crc = tn_crc16(TN_CRC16_INIT, out, TN_FRAME_HDR + len);
    out[TN_FRAME_HDR + len] = (uint8_t)(crc >> 8);
    out[TN_FRAME_HDR + len + 1] = (uint8_t)crc;
    return len + TN_FRAME_OVERHEAD;
}

size_t tn_frame_encode(uint8_t *out, size_t cap, uint8_t type, uint8_t seq,
                       const uint8_t *payload, size_t len)
{
    if (len > 0xFFFFu)
        return 0;
    uint8_t *raw = malloc(len + TN_FRAME_OVERHEAD);
    if (!raw)
        return 0;
    size_t n = tn_frame_build(raw, len + TN_FRAME_OVERHEAD, type, seq, payload, len);
    size_t e = n ? tn_slip_encode(out, cap, raw, n) : 0;
    free(raw);
    return e;
}

int tn_frame_check(const uint8_t *raw, size_t n, bool esc_err,
                   size_t max_payload, struct tn_frame *f)
{
    memset(f, 0, sizeof *f);
    if (n >= 1)
        f->version = raw[0];
    if (n >= 2)
        f->type = raw[1];
    if (n >= 3)
        f->seq = raw[2];
    if (n >= TN_FRAME_HDR)
        f->len = (uint16_t)(raw[3] | raw[4] << 8);
    if (esc_err)
        return TN_NAK_ESCAPE;
    if (n < TN_FRAME_OVERHEAD)
        return TN_NAK_LENGTH;
    if (n > max_payload + TN_FRAME_OVERHEAD)
        return TN_NAK_OVERSIZE;
    /* the CRC is sent high byte first, so the CRC over everything is 0 */
    if (tn_crc16(TN_CRC16_INIT, raw, n) != 0)
        return TN_NAK_CRC;
    if (f->version != TN_PROTO_VERSION)
        return TN_NAK_VERSION;
    if (f->len > max_payload)
        return TN_NAK_OVERSIZE;
    if ((size_t)f->len + TN_FRAME_OVERHEAD != n)
        return TN_NAK_LENGTH;
    f->payload = raw + TN_FRAME_HDR;
    return TN_NAK_OK;
}

int tn_request_check(const struct tn_frame *f, size_t max_payload)
{
    switch (f->type) {
    case TN_T_INFO:
    case TN_T_STATUS:
    case TN_T_START:
    case TN_T_ABORT:
    case TN_T_RESET:
        return f->len == 0 ? TN_NAK_OK : TN_NAK_ARG;
    case TN_T_WRITE:
        return (f->len >= 8 && f->len % 4 == 0) ? TN_NAK_OK : TN_NAK_ARG;
    case TN_T_READ: {
        if (f->len != 8)
            return TN_NAK_ARG;
        uint32_t count = tn_get_le32(f->payload + 4);
        return (count == 0 || count > max_payload / 4) ? TN_NAK_ARG : TN_NAK_OK;
    }
    default:
        return TN_NAK_TYPE;
    }
}

/* ---- client ---- */

struct tn_proto {
    const struct tn_transport_ops *ops;
    struct tn_transport *t;
    int timeout_ms;
    int retries;
    int window;
    int read_window;
    size_t max_payload;
    size_t user_payload;       /* bound set in the options (0: none) */
    uint8_t seq;
    struct tn_proto_stats stats;
    char err[256];
    /* bytes read from the transport, not yet decoded */
    uint8_t in[4096];
    size_t in_pos, in_end;
    struct tn_slip_dec dec;
    bool hunt;                 /* discard bytes up to the next END */
    uint8_t raw[RAW_CAP];      /* decoder buffer */
    uint8_t enc[ENC_CAP];      /* encoded request */
    uint8_t req[PROTO_PAYLOAD_LIMIT];
    uint8_t reply[PROTO_PAYLOAD_LIMIT];
    size_t reply_len;
    uint8_t reply_type;
};

static int fail(struct tn_proto *p, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct tn_proto *p, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
    return rc;
}

int tn_proto_open(struct tn_proto **pp, const struct tn_transport_ops *ops,
                  struct tn_transport *t, const struct tn_proto_opts *o)
{
    *pp = NULL;
    if (!ops || !ops->read || !ops->write)
        return TN_EINVAL;
    struct tn_proto *p = calloc(1, sizeof *p);
    if (!p)
        return TN_ENOMEM;
    p->ops = ops;
    p->t = t;
    p->timeout_ms = DEFAULT_TIMEOUT_MS;
    p->retries = DEFAULT_RETRIES;
    p->window = 1;
    p->read_window = 1;
    if (o) {
        if (o->window > TN_PROTO_MAX_WINDOW || o->read_window > TN_PROTO_MAX_WINDOW) {
            free(p);
            return TN_EINVAL;
        }
        if (o->window > 1)
            p->window = o->window;
        if (o->read_window > 1)
            p->read_window = o->read_window;
        if (o->timeout_ms > 0)
            p->timeout_ms = o->timeout_ms;
        if (o->retries > 0)
            p->retries = o->retries;
        else if (o->retries < 0)
            p->retries = 0;
        if (o->max_payload) {
            if (o->max_payload < 8 || o->max_payload % 4) {
                free(p);
                return TN_EINVAL;
            }
            p->max_payload = o->max_payload < PROTO_PAYLOAD_LIMIT
                                 ? o->max_payload : PROTO_PAYLOAD_LIMIT;
            p->user_payload = p->max_payload;
        }
    }
    tn_slip_dec_init(&p->dec, p->raw, sizeof p->raw);
    *pp = p;
    return 0;
}

void tn_proto_close(struct tn_proto *p)
{
    free(p);
}

const char *tn_proto_errmsg(const struct tn_proto *p)
{
    return p->err;
}

const struct tn_proto_stats *tn_proto_stats(const struct tn_proto *p)
{
    return &p->stats;
}

size_t tn_proto_max_payload(const struct tn_proto *p)
{
    return p->max_payload;
}

/* Outcomes of waiting for one reply. */
static volatile sig_atomic_t interrupted;

void tn_proto_interrupt(void)
{
    interrupted = 1;
}

int tn_proto_interrupted(void)
{
    return interrupted != 0;
}

/* What a transport failure rc met: the transport's own words when it
 * has them. */
static const char *transport_why(struct tn_proto *p, int rc)
{
    const char *why = p->ops->error ? p->ops->error(p->t) : NULL;
    return why != NULL && why[0] != '\0' ? why : tn_strerror(rc);
}

enum { AWAIT_OK = 0, AWAIT_TIMEOUT = 1, AWAIT_DAMAGED = 2 };

/* Wait for the reply to (type, seq): AWAIT_* or a TN_E* code. Stale
 * replies (other seq) are skipped; a NAK that damaged bytes can cause is
 * AWAIT_DAMAGED whatever its seq, as is a reply with a bad CRC. The timeout
 * is the time without any byte from the device (a slow line or a slow
 * simulator keeps the attempt alive while bytes flow); a device that keeps
 * sending without ever answering is cut off after REPLY_BUDGET bytes. */
#define REPLY_BUDGET (4 * (size_t)ENC_CAP)
static int await_reply(struct tn_proto *p, uint8_t type, uint8_t seq)
{
    char tb[16];
    long long deadline = tn_now_ms() + p->timeout_ms;
    size_t budget = REPLY_BUDGET;
    for (;;) {
        while (p->in_pos < p->in_end) {
            uint8_t c = p->in[p->in_pos++];
            if (budget-- == 0) {
                p->stats.garbled++;
                fail(p, TN_EPROTO, "no reply to %s seq %u in %zu bytes from the device",
                     tn_frame_type_str(type, tb, sizeof tb), seq, (size_t)REPLY_BUDGET);
                return AWAIT_DAMAGED;
            }
            if (p->hunt) {
                p->hunt = c != TN_SLIP_END;
                continue;
            }
            if (!tn_slip_dec_push(&p->dec, c))
                continue;
            struct tn_frame f;
            int code = tn_frame_check(p->dec.buf, p->dec.overflow ? p->dec.cap : p->dec.len,
                                      p->dec.esc_err, PROTO_PAYLOAD_LIMIT, &f);
            if (code != TN_NAK_OK) {
                p->stats.garbled++;
                fail(p, TN_EPROTO, "garbled reply to %s seq %u: %s",
                     tn_frame_type_str(type, tb, sizeof tb), seq, tn_nak_str(code));
                return AWAIT_DAMAGED;
            }
            if (f.type == TN_T_NAK) {
                p->stats.naks++;
                int nc = f.len >= 1 ? f.payload[0] : -1;
                if (tn_nak_retryable(nc)) {
                    fail(p, TN_EPROTO, "device could not read %s seq %u: %s",
                         tn_frame_type_str(type, tb, sizeof tb), seq, tn_nak_str(nc));
                    return AWAIT_DAMAGED;
                }
                if (f.seq != seq)
                    continue;
                return fail(p, TN_EPROTO, "device rejected %s seq %u: %s (nak 0x%02x)%s",
                            tn_frame_type_str(type, tb, sizeof tb), seq,
                            tn_nak_str(nc), (unsigned)nc & 0xFFu, nak_hint(nc));
            }
            if (f.seq != seq)
                continue;  /* a late reply to an earlier request */
            p->reply_type = f.type;
            p->reply_len = f.len;
            memcpy(p->reply, f.payload, f.len);
            return AWAIT_OK;
        }
        long long left = deadline - tn_now_ms();
        if (left <= 0) {
            fail(p, TN_ETIMEDOUT, "no reply to %s seq %u: the device sent nothing for %d ms",
                 tn_frame_type_str(type, tb, sizeof tb), seq, p->timeout_ms);
            return AWAIT_TIMEOUT;
        }
        if (tn_proto_interrupted())
            return fail(p, TN_EINTR, "interrupted while waiting for the reply to %s seq %u",
                        tn_frame_type_str(type, tb, sizeof tb), seq);
        int n = p->ops->read(p->t, p->in, sizeof p->in, (int)left);
        if (n < 0)
            return fail(p, n, "reading the reply to %s seq %u failed: %s",
                         tn_frame_type_str(type, tb, sizeof tb), seq, transport_why(p, n));
        p->in_pos = 0;
        p->in_end = (size_t)n;
        p->stats.bytes_in += (uint64_t)n;
        if (n > 0)
            deadline = tn_now_ms() + p->timeout_ms;
    }
}

int tn_proto_request(struct tn_proto *p, uint8_t type, const uint8_t *payload,
                     size_t len, uint8_t *resp, size_t rcap, size_t *rlen)
{
    char tb[16];
    p->err[0] = 0;
    if (len > PROTO_PAYLOAD_LIMIT || (p->max_payload && len > p->max_payload))
        return fail(p, TN_EINVAL, "%s payload of %zu bytes exceeds the bound of %zu",
                    tn_frame_type_str(type, tb, sizeof tb), len,
                    p->max_payload ? p->max_payload : (size_t)PROTO_PAYLOAD_LIMIT);
    uint8_t seq = p->seq++;
    size_t n = tn_frame_encode(p->enc, sizeof p->enc, type, seq, payload, len);
    if (!n)
        return fail(p, TN_ENOMEM, "cannot encode a %s frame",
                    tn_frame_type_str(type, tb, sizeof tb));
    p->stats.requests++;
    int last = AWAIT_TIMEOUT;
    for (int attempt = 0; attempt <= p->retries; attempt++) {
        if (attempt)
            p->stats.retries++;
        p->stats.attempts++;
        /* Every reply starts with END: whatever precedes it (the rest of a
         * reply cut short by an earlier failure) is skipped. */
        tn_slip_dec_init(&p->dec, p->raw, sizeof p->raw);
        p->hunt = true;
        int rc = p->ops->write(p->t, p->enc, n);
        if (rc < 0)
            return fail(p, rc, "sending %s seq %u failed: %s",
                        tn_frame_type_str(type, tb, sizeof tb), seq, transport_why(p, rc));
        p->stats.bytes_out += n;
        rc = await_reply(p, type, seq);
        if (rc < 0)
            return rc;
        if (rc == AWAIT_OK) {
            if (resp) {
                if (p->reply_len > rcap)
                    return fail(p, TN_EPROTO, "reply to %s has %zu bytes, expected at most %zu",
                                tn_frame_type_str(type, tb, sizeof tb), p->reply_len, rcap);
                memcpy(resp, p->reply, p->reply_len);
            }
            if (rlen)
                *rlen = p->reply_len;
            return 0;
        }
        if (rc == AWAIT_TIMEOUT)
            p->stats.timeouts++;
        last = rc;
    }
    if (last == AWAIT_TIMEOUT)
        return fail(p, TN_ETIMEDOUT, "device stopped answering: no reply to %s seq %u "
                    "after %d attempt%s of %d ms; check the connection",
                    tn_frame_type_str(type, tb, sizeof tb), seq, p->retries + 1,
                    p->retries ? "s" : "", p->timeout_ms);
    char why[sizeof p->err];
    memcpy(why, p->err, sizeof why);
    return fail(p, TN_EPROTO, "%s seq %u failed after %d attempt%s: %s",
                tn_frame_type_str(type, tb, sizeof tb), seq, p->retries + 1,
                p->retries ? "s" : "", why);
}

/* One request with the expected reply type and payload length. */
static int transact(struct tn_proto *p, uint8_t type, size_t len,
                    uint8_t want_type, size_t want_len)
{
    char tb[16], wb[16];
    int rc = tn_proto_request(p, type, p->req, len, NULL, 0, NULL);
    if (rc)
        return rc;
    if (p->reply_type != want_type || p->reply_len != want_len)
        return fail(p, TN_EPROTO, "unexpected reply to %s: %s with %zu bytes, "
                    "expected %s with %zu",
                    tn_frame_type_str(type, tb, sizeof tb),
                    tn_frame_type_str(p->reply_type, wb, sizeof wb), p->reply_len,
                    want_type == TN_T_ACK ? "ACK" : "DATA", want_len);
    return 0;
}

int tn_proto_read_window(const struct tn_proto *p)
{
    return p->read_window;
}

int tn_proto_info(struct tn_proto *p, struct tn_info *info)
{
    int rc = transact(p, TN_T_INFO, 0, TN_T_DATA, 32);
    if (rc)
        return rc;
    const uint8_t *r = p->reply;
    struct tn_info in;
    memset(&in, 0, sizeof in);
    in.version = tn_get_le32(r + 0);
    uint32_t dims = tn_get_le32(r + 4);
    in.dims[0] = dims & 0xFFu;
    in.dims[1] = (dims >> 8) & 0xFFu;
    in.dims[2] = (dims >> 16) & 0xFFu;
    in.w = tn_get_le32(r + 8);
    in.lanes = tn_get_le32(r + 12);
    in.mem_depth = tn_get_le32(r + 16);
    in.rounds = tn_get_le32(r + 20);
    in.alpha = tn_get_le32(r + 24);
    uint32_t bw = tn_get_le32(r + 28);
    in.max_payload = bw & 0xFFFFu;
    in.proto_version = (bw >> 16) & 0xFFu;
    if (in.max_payload < 8 || in.max_payload % 4)
        return fail(p, TN_EPROTO, "device reports a payload bound of %u bytes; "
                    "expected a multiple of 4, at least 8", (unsigned)in.max_payload);
    size_t cap = p->user_payload ? p->user_payload : PROTO_PAYLOAD_LIMIT;
    p->max_payload = in.max_payload < cap ? in.max_payload : cap;
    if (info)
        *info = in;
    return 0;
}

static int need_bound(struct tn_proto *p)
{
    return p->max_payload ? 0 : tn_proto_info(p, NULL);
}

/* One frame of a pipelined call: a WRITE of k words from w, or a READ of
 * k words into r. */
struct burst {
    uint32_t addr;
    size_t k;
    const uint32_t *w;
    uint32_t *r;
};

static int send_burst(struct tn_proto *p, const struct burst *b, uint8_t seq)
{
    uint8_t type = b->w != NULL ? TN_T_WRITE : TN_T_READ;
    size_t len;
    tn_put_le32(p->req, b->addr);
    if (b->w != NULL) {
        for (size_t i = 0; i < b->k; i++)
            tn_put_le32(p->req + 4 + 4 * i, b->w[i]);
        len = 4 + 4 * b->k;
    } else {
        tn_put_le32(p->req + 4, (uint32_t)b->k);
        len = 8;
    }
    size_t n = tn_frame_encode(p->enc, sizeof p->enc, type, seq, p->req, len);
    if (!n)
        return fail(p, TN_ENOMEM, "cannot encode a %s frame", type == TN_T_WRITE ? "WRITE" : "READ");
    p->stats.attempts++;
    int rc = p->ops->write(p->t, p->enc, n);
    if (rc < 0)
        return fail(p, rc, "sending %s seq %u failed: %s", type == TN_T_WRITE ? "WRITE" : "READ",
                    seq, transport_why(p, rc));
    p->stats.bytes_out += n;
    return 0;
}

/* Up to `window` bursts in flight, go-back-N on a failure. Safe because
 * executing a burst again, or after a later one, gives the same result:
 * the WRITE bursts of one call write disjoint addresses (an ACK with a
 * burst's seq proves it was executed at least once), and READs are of
 * addresses without read side effects. Replies come in order. */
static int run_pipelined(struct tn_proto *p, const struct burst *bs, size_t nb, int window)
{
    const char *what = nb && bs[0].w != NULL ? "WRITE" : "READ";
    uint8_t seq0 = p->seq;
    p->seq = (uint8_t)(p->seq + nb);
    p->stats.requests += nb;
    size_t base = 0, next = 0, sent = 0;
    int tries = 0, last = AWAIT_TIMEOUT;
    bool resync = true;
    while (base < nb) {
        while (next < nb && next - base < (size_t)window) {
            int rc = send_burst(p, &bs[next], (uint8_t)(seq0 + next));
            if (rc)
                return rc;
            if (next < sent)
                p->stats.retries++;
            next++;
            if (next > sent)
                sent = next;
        }
        if (resync) {
            tn_slip_dec_init(&p->dec, p->raw, sizeof p->raw);
            p->hunt = true;
            resync = false;
        }
        uint8_t seq = (uint8_t)(seq0 + base);
        const struct burst *b = &bs[base];
        int rc = await_reply(p, b->w != NULL ? TN_T_WRITE : TN_T_READ, seq);
        if (rc < 0)
            return rc;
        if (rc == AWAIT_OK) {
            uint8_t want = b->w != NULL ? TN_T_ACK : TN_T_DATA;
            size_t want_len = b->w != NULL ? 0 : 4 * b->k;
            if (p->reply_type != want || p->reply_len != want_len)
                return fail(p, TN_EPROTO, "unexpected reply to %s seq %u: type 0x%02x "
                            "with %zu bytes, expected %s with %zu", what, seq, p->reply_type,
                            p->reply_len, want == TN_T_ACK ? "ACK" : "DATA", want_len);
            if (b->r != NULL)
                for (size_t i = 0; i < b->k; i++)
                    b->r[i] = tn_get_le32(p->reply + 4 * i);
            base++;
            tries = 0;
            continue;
        }
        if (rc == AWAIT_TIMEOUT)
            p->stats.timeouts++;
        last = rc;
        if (++tries > p->retries) {
            if (last == AWAIT_TIMEOUT)
                return fail(p, TN_ETIMEDOUT, "device stopped answering: no reply to %s "
                            "seq %u after %d attempt%s of %d ms; check the connection",
                            what, seq, p->retries + 1, p->retries ? "s" : "", p->timeout_ms);
            char why[sizeof p->err];
            memcpy(why, p->err, sizeof why);
            return fail(p, TN_EPROTO, "%s seq %u failed after %d attempt%s: %s", what, seq,
                        p->retries + 1, p->retries ? "s" : "", why);
        }
        next = base;   /* go back: resend from the burst that failed */
        resync = true;
    }
    return 0;
}

/* A run of words at consecutive addresses: written from w or read into r. */
struct span {
    uint32_t addr;
    size_t n;
    const uint32_t *w;
    uint32_t *r;
};

/* The spans' bursts (each span split at `burst` words), sent `window` at a
 * time. */
static int run_spans(struct tn_proto *p, const struct span *s, size_t ns, size_t burst,
                     int window)
{
    size_t nb = 0;
    for (size_t i = 0; i < ns; i++)
        nb += (s[i].n + burst - 1) / burst;
    struct burst *bs = malloc((nb ? nb : 1) * sizeof *bs);
    if (bs == NULL)
        return fail(p, TN_ENOMEM, "no memory for %zu bursts", nb);
    size_t j = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t o = 0; o < s[i].n; o += burst) {
            bs[j].addr = s[i].addr + (uint32_t)o;
            bs[j].k = s[i].n - o < burst ? s[i].n - o : burst;
            bs[j].w = s[i].w != NULL ? s[i].w + o : NULL;
            bs[j].r = s[i].r != NULL ? s[i].r + o : NULL;
            j++;
        }
    int rc = run_pipelined(p, bs, nb, window);
    free(bs);
    return rc;
}

/* Every READ and WRITE goes through run_spans; a window of 1 is one request
 * at a time. */
int tn_proto_write(struct tn_proto *p, uint32_t addr, const uint32_t *words,
                   size_t n)
{
    return tn_proto_writev(p, &(struct tn_proto_wspan){addr, words, n}, 1);
}

int tn_proto_read(struct tn_proto *p, uint32_t addr, uint32_t *words, size_t n)
{
    return tn_proto_readv(p, &(struct tn_proto_rspan){addr, words, n}, 1);
}

static int addr_cmp(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int tn_proto_writev(struct tn_proto *p, const struct tn_proto_wspan *ws, size_t ns)
{
    int rc = need_bound(p);
    if (rc)
        return rc;
    p->err[0] = 0;
    struct span *s = malloc((ns ? ns : 1) * sizeof *s);
    if (s == NULL)
        return fail(p, TN_ENOMEM, "no memory for %zu spans", ns);
    for (size_t i = 0; i < ns; i++)
        s[i] = (struct span){ws[i].addr, ws[i].n, ws[i].words, NULL};
    /* Disjoint and inside the address space, or nothing is sent. */
    qsort(s, ns, sizeof *s, addr_cmp);
    for (size_t i = 0; i < ns && rc == 0; i++) {
        uint64_t end = (uint64_t)s[i].addr + s[i].n;
        if (end > (uint64_t)UINT32_MAX + 1 || (i + 1 < ns && end > s[i + 1].addr))
            rc = fail(p, TN_EINVAL, "write spans overlap or pass the end of the address "
                      "space at 0x%08x (%zu words)", s[i].addr, s[i].n);
    }
    if (rc == 0) {
        /* Sent in the caller's order. */
        for (size_t i = 0; i < ns; i++)
            s[i] = (struct span){ws[i].addr, ws[i].n, ws[i].words, NULL};
        rc = run_spans(p, s, ns, p->max_payload / 4 - 1, p->window);
    }
    free(s);
    return rc;
}

int tn_proto_readv(struct tn_proto *p, const struct tn_proto_rspan *rs, size_t ns)
{
    int rc = need_bound(p);
    if (rc)
        return rc;
    p->err[0] = 0;
    struct span *s = malloc((ns ? ns : 1) * sizeof *s);
    if (s == NULL)
        return fail(p, TN_ENOMEM, "no memory for %zu spans", ns);
    for (size_t i = 0; i < ns; i++)
        s[i] = (struct span){rs[i].addr, rs[i].n, NULL, rs[i].words};
    rc = run_spans(p, s, ns, p->max_payload / 4, p->read_window);
    free(s);
    return rc;
}

int tn_proto_start(struct tn_proto *p)
{
    return transact(p, TN_T_START, 0, TN_T_ACK, 0);
}

int tn_proto_abort(struct tn_proto *p)
{
    return transact(p, TN_T_ABORT, 0, TN_T_ACK, 0);
}

int tn_proto_reset(struct tn_proto *p)
{
    return transact(p, TN_T_RESET, 0, TN_T_ACK, 0);
}

int tn_proto_status(struct tn_proto *p, struct tn_status *st)
{
    int rc = transact(p, TN_T_STATUS, 0, TN_T_DATA, 32);
    if (rc)
        return rc;
    const uint8_t *r = p->reply;
    st->status = tn_get_le32(r + 0);
    st->round = tn_get_le32(r + 4);
    st->cycle = tn_get_le32(r + 8) | (uint64_t)(tn_get_le32(r + 12) & 0xFFFFu) << 32;
    st->start_cycle = tn_get_le32(r + 16) | (uint64_t)(tn_get_le32(r + 20) & 0xFFFFu) << 32;
    st->end_cycle = tn_get_le32(r + 24) | (uint64_t)(tn_get_le32(r + 28) & 0xFFFFu) << 32;
    return 0;
}
