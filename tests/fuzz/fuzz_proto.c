/* SPDX-License-Identifier: MIT */
/* Fuzz target: the host's protocol client (host/proto/proto.c) fed as if from
 * the device. A fake transport takes the requests (decoding their seq
 * numbers) and answers from the input: raw bytes (garbage, broken SLIP,
 * bad CRCs, cut frames) or well-formed frames built around the fuzzer's
 * type, seq, length and payload, so that wrong types, lengths, stale or
 * future seqs and NAKs get past the CRC. When the input is used up the
 * device is gone (the read fails). Input: byte 0 the call (INFO, READ,
 * WRITE, their list forms, STATUS, START, RESET), byte 1 the windows,
 * byte 2 the word count, byte 3 the payload bound, then chunks: a byte
 * h < 0x80 and h + 1 raw bytes, or h >= 0x80 (type h & 3, reply to the
 * request (h >> 2) & 3 after the oldest unanswered), a seq offset, a
 * length and that many payload bytes. Properties: no crash, leak or hang;
 * every failure is a TN_E* code with a message. The whole input also goes
 * through the frame decoder as the bridge checks requests (SLIP, then
 * tn_frame_check and tn_request_check): a frame it accepts is exactly the
 * one tn_frame_build makes from its fields, and SLIP-encoding it and
 * decoding that gives it back. */
#include <string.h>

#include "fuzz.h"
#include "proto.h"
#include "tn_error.h"
#include "transport.h"

#define SENT_MAX 4096

struct tn_transport {
    const uint8_t *in, *end;
    uint8_t reply[2 * 300 + 16];
    size_t rlen, rpos;
    uint8_t sent[SENT_MAX];    /* seq of every request, in order */
    size_t nsent, answered;
    struct tn_slip_dec dec;
    uint8_t raw[2048];
};

static int fake_write(struct tn_transport *t, const uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (tn_slip_dec_push(&t->dec, buf[i]) && t->dec.len >= 3 && t->nsent < SENT_MAX)
            t->sent[t->nsent++] = t->dec.buf[2];
    return 0;
}

static uint8_t take(struct tn_transport *t)
{
    return t->in < t->end ? *t->in++ : 0;
}

/* The next chunk of the input as the device's answer. */
static void next_chunk(struct tn_transport *t)
{
    static const uint8_t types[4] = {TN_T_ACK, TN_T_DATA, TN_T_NAK, TN_T_STATUS};
    uint8_t h = take(t);
    t->rpos = 0;
    if (h < 0x80) {
        size_t n = (size_t)h + 1 < (size_t)(t->end - t->in) ? (size_t)h + 1
                                                              : (size_t)(t->end - t->in);
        memcpy(t->reply, t->in, n);
        t->in += n;
        t->rlen = n;
        return;
    }
    size_t k = t->answered + ((h >> 2) & 3);
    uint8_t seq = (uint8_t)((k < t->nsent ? t->sent[k] : 0) + take(t));
    if (((h >> 2) & 3) == 0 && t->answered < t->nsent)
        t->answered++;
    uint8_t payload[256];
    size_t n = take(t);
    n = n < (size_t)(t->end - t->in) ? n : (size_t)(t->end - t->in);
    memcpy(payload, t->in, n);
    t->in += n;
    t->rlen = tn_frame_encode(t->reply, sizeof t->reply, types[h & 3], seq, payload, n);
}

static int fake_read(struct tn_transport *t, uint8_t *buf, size_t len, int timeout_ms)
{
    (void)timeout_ms;
    if (t->rpos == t->rlen) {
        if (t->in >= t->end)
            return TN_EIO;   /* the device is gone */
        next_chunk(t);
    }
    size_t n = t->rlen - t->rpos < len ? t->rlen - t->rpos : len;
    memcpy(buf, t->reply + t->rpos, n);
    t->rpos += n;
    return (int)n;
}

static const struct tn_transport_ops fake_ops = {
    .name = "fuzz", .write = fake_write, .read = fake_read,
};

static int call(struct tn_proto *p, uint8_t op, size_t n)
{
    uint32_t words[512] = {0};
    struct tn_info info;
    struct tn_status st;
    switch (op % 8) {
    case 0:
        return tn_proto_info(p, &info);
    case 1:
        return tn_proto_read(p, 0x100000, words, n);
    case 2:
        return tn_proto_write(p, 0x100000, words, n);
    case 3: {
        struct tn_proto_wspan ws[2] = {{0x200000, words, n}, {0x100000, words + n, n}};
        return tn_proto_writev(p, ws, 2);
    }
    case 4: {
        struct tn_proto_rspan rs[2] = {{0x100000, words, n}, {0x300000, words + n, n}};
        return tn_proto_readv(p, rs, 2);
    }
    case 5:
        return tn_proto_status(p, &st);
    case 6:
        return tn_proto_start(p);
    default:
        return tn_proto_reset(p);
    }
}

/* Bytes as the bridge's request decoder sees them. */
#define BRIDGE_PAYLOAD 256

static void check_accepted(const uint8_t *raw, size_t n, const struct tn_frame *f)
{
    uint8_t built[BRIDGE_PAYLOAD + TN_FRAME_OVERHEAD];
    uint8_t enc[2 * sizeof built + 2], back[sizeof built];
    size_t bn = tn_frame_build(built, sizeof built, f->type, f->seq, f->payload, f->len);
    FUZZ_ASSERT(bn == n && memcmp(built, raw, n) == 0);
    size_t en = tn_slip_encode(enc, sizeof enc, raw, n);
    FUZZ_ASSERT(en >= n + 2);
    struct tn_slip_dec d;
    tn_slip_dec_init(&d, back, sizeof back);
    int done = 0;
    for (size_t i = 0; i < en; i++)
        done += tn_slip_dec_push(&d, enc[i]);
    FUZZ_ASSERT(done == 1 && d.len == n && !d.esc_err && !d.overflow);
    FUZZ_ASSERT(memcmp(back, raw, n) == 0);
    int code = tn_request_check(f, BRIDGE_PAYLOAD);
    FUZZ_ASSERT(code == TN_NAK_OK || code == TN_NAK_TYPE || code == TN_NAK_ARG);
}

static void decode_as_bridge(const uint8_t *data, size_t size)
{
    uint8_t buf[BRIDGE_PAYLOAD + TN_FRAME_OVERHEAD + 1];
    struct tn_slip_dec d;
    tn_slip_dec_init(&d, buf, sizeof buf);
    for (size_t i = 0; i < size; i++) {
        if (!tn_slip_dec_push(&d, data[i]))
            continue;
        struct tn_frame f;
        size_t n = d.overflow ? d.cap : d.len;
        int code = tn_frame_check(d.buf, n, d.esc_err, BRIDGE_PAYLOAD, &f);
        FUZZ_ASSERT(code >= TN_NAK_OK && code <= TN_NAK_ESCAPE && code != TN_NAK_TYPE);
        if (code == TN_NAK_OK)
            check_accepted(d.buf, n, &f);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    decode_as_bridge(data, size);
    if (size < 4)
        return 0;
    static struct tn_transport t;
    memset(&t, 0, sizeof t);
    t.in = data + 4;
    t.end = data + size;
    tn_slip_dec_init(&t.dec, t.raw, sizeof t.raw);
    struct tn_proto_opts o = {
        .timeout_ms = 1000, .retries = data[1] & 0x80 ? TN_PROTO_NO_RETRY : 2,
        .window = (data[1] & 7) + 1, .read_window = ((data[1] >> 3) & 7) + 1,
        .max_payload = data[3] ? (size_t)(data[3] % 64 + 2) * 4 : 0,
    };
    struct tn_proto *p;
    FUZZ_ASSERT(tn_proto_open(&p, &fake_ops, &t, &o) == 0);
    int rc = call(p, data[0], (size_t)data[2] + 1);
    FUZZ_ASSERT(rc <= 0);
    if (rc)
        FUZZ_ASSERT(tn_proto_errmsg(p)[0] != '\0');
    tn_proto_close(p);
    return 0;
}
