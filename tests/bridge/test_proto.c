/* SPDX-License-Identifier: MIT */
/* Unit tests of host/proto/proto.c: CRC-16 vectors against an independent
 * bit-serial definition, SLIP escapes at frame edges, frame checks
 * (truncated, oversized, bad version/length), and the client over a fake
 * in-memory transport + device that drops, corrupts and delays frames. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tap.h"
#include "image.h" /* TN_DESIGN_VERSION */
#include "proto.h"
#include "tn_error.h"

/* ---- independent CRC: bit-serial LFSR straight from the definition ---- */
static uint16_t crc_bitwise_from(uint16_t reg, const uint8_t *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 7; b >= 0; b--) {
            unsigned in = (m[i] >> b) & 1u;
            unsigned fb = ((reg >> 15) & 1u) ^ in;
            reg = (uint16_t)(reg << 1);
            if (fb)
                reg ^= 0x1021;
        }
    return reg;
}

static uint16_t crc_bitwise(const uint8_t *m, size_t n)
{
    return crc_bitwise_from(0xFFFF, m, n);
}

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void test_crc(void)
{
    is(tn_crc16(TN_CRC16_INIT, "123456789", 9), 0x29B1,
       "crc16 check value of \"123456789\" is 0x29B1 (CCITT-FALSE)");
    is(tn_crc16(TN_CRC16_INIT, "", 0), 0xFFFF, "crc16 of no bytes is the init 0xFFFF");
    is(tn_crc16(TN_CRC16_INIT, "A", 1), 0xB915, "crc16 of \"A\" is 0xB915 (published vector)");
    uint8_t a256[256];
    memset(a256, 'A', sizeof a256);
    is(tn_crc16(TN_CRC16_INIT, a256, 256), 0xEA0B,
       "crc16 of 256 x \"A\" is 0xEA0B (published vector)");
    is(crc_bitwise((const uint8_t *)"123456789", 9), 0x29B1,
       "the bit-serial reference agrees on the check value");
    int bad = 0;
    for (int t = 0; t < 500; t++) {
        uint8_t buf[302];
        size_t n = rnd() % 300;
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)rnd();
        uint16_t c = tn_crc16(TN_CRC16_INIT, buf, n);
        if (c != crc_bitwise(buf, n))
            bad++;
        /* running CRC over two pieces equals the CRC of the whole */
        size_t k = n ? rnd() % n : 0;
        if (tn_crc16(tn_crc16(TN_CRC16_INIT, buf, k), buf + k, n - k) != c)
            bad++;
        /* appending the CRC high byte first leaves residue 0 */
        buf[n] = (uint8_t)(c >> 8);
        buf[n + 1] = (uint8_t)c;
        if (tn_crc16(TN_CRC16_INIT, buf, n + 2) != 0)
            bad++;
    }
    is(bad, 0, "crc16 equals the bit-serial definition on 500 random messages, "
       "continues across pieces, and leaves residue 0 with its big-endian CRC appended");
    bad = 0;
    for (uint32_t c = 0; c < 0x10000; c++)
        for (uint32_t d = 0; d < 0x100; d++) {
            uint8_t b = (uint8_t)d;
            if (tn_crc16((uint16_t)c, &b, 1) != crc_bitwise_from((uint16_t)c, &b, 1))
                bad++;
        }
    is(bad, 0, "crc16's byte step equals the bit-serial definition for every CRC and byte");
}

/* Decode a whole encoded buffer; returns frames found, last one in out. */
static int decode_all(const uint8_t *enc, size_t n, uint8_t *out, size_t cap,
                      size_t *len, bool *esc_err)
{
    struct tn_slip_dec d;
    tn_slip_dec_init(&d, out, cap);
    int frames = 0;
    for (size_t i = 0; i < n; i++)
        if (tn_slip_dec_push(&d, enc[i])) {
            frames++;
            *len = d.len;
            *esc_err = d.esc_err;
        }
    return frames;
}

static void test_slip(void)
{
    uint8_t enc[64], dec[64];
    size_t len = 0;
    bool ee = false;

    const uint8_t edge1[] = {0xC0, 0x11, 0xDB};
    const uint8_t want1[] = {0xC0, 0xDB, 0xDC, 0x11, 0xDB, 0xDD, 0xC0};
    size_t n = tn_slip_encode(enc, sizeof enc, edge1, sizeof edge1);
    ok(n == sizeof want1 && !memcmp(enc, want1, n),
       "slip: END as first and ESC as last byte are escaped (C0 DB DC 11 DB DD C0)");
    ok(decode_all(enc, n, dec, sizeof dec, &len, &ee) == 1 && len == 3 && !ee &&
           !memcmp(dec, edge1, 3), "slip: that frame decodes back exactly");

    const uint8_t edge2[] = {0xDB, 0xC0};
    const uint8_t want2[] = {0xC0, 0xDB, 0xDD, 0xDB, 0xDC, 0xC0};
    n = tn_slip_encode(enc, sizeof enc, edge2, sizeof edge2);
    ok(n == sizeof want2 && !memcmp(enc, want2, n),
       "slip: ESC first and END last are escaped (C0 DB DD DB DC C0)");
    ok(decode_all(enc, n, dec, sizeof dec, &len, &ee) == 1 && len == 2 &&
           !memcmp(dec, edge2, 2), "slip: that frame decodes back exactly");

    const uint8_t lit[] = {0xDC, 0xDD, 0x00, 0xFF};
    n = tn_slip_encode(enc, sizeof enc, lit, sizeof lit);
    ok(n == 6 && !memcmp(enc + 1, lit, 4), "slip: ESC_END/ESC_ESC alone are not escaped");

    ok(tn_slip_encode(enc, 6, edge1, sizeof edge1) == 0,
       "slip: encode refuses an output buffer one byte too small");

    const uint8_t empties[] = {0xC0, 0xC0, 0xC0, 0x41, 0xC0, 0xC0};
    ok(decode_all(empties, sizeof empties, dec, sizeof dec, &len, &ee) == 1 && len == 1 &&
           dec[0] == 0x41, "slip: empty frames between ENDs are ignored");

    const uint8_t badesc[] = {0xC0, 0x41, 0xDB, 0x42, 0x43, 0xC0};
    ok(decode_all(badesc, sizeof badesc, dec, sizeof dec, &len, &ee) == 1 && ee &&
           len == 2 && dec[0] == 0x41 && dec[1] == 0x43,
       "slip: ESC followed by a plain byte marks the frame and drops the byte");
    const uint8_t escend[] = {0xC0, 0x41, 0xDB, 0xC0, 0x42, 0xC0};
    struct tn_slip_dec d;
    tn_slip_dec_init(&d, dec, sizeof dec);
    int r[6];
    for (int i = 0; i < 6; i++)
        r[i] = tn_slip_dec_push(&d, escend[i]);
    ok(r[3] == 1 && r[5] == 1 && d.len == 1 && dec[0] == 0x42 && !d.esc_err,
       "slip: ESC END still ends the frame (marked bad) and the next frame is clean");

    uint8_t small[4];
    const uint8_t longf[] = {0xC0, 1, 2, 3, 4, 5, 6, 0xC0};
    tn_slip_dec_init(&d, small, sizeof small);
    int got = 0;
    for (size_t i = 0; i < sizeof longf; i++)
        got += tn_slip_dec_push(&d, longf[i]);
    ok(got == 1 && d.overflow && d.len == 4, "slip: a frame longer than the buffer is flagged");

    int bad = 0;
    for (int t = 0; t < 300; t++) {
        uint8_t in[200], e[402], o[200];
        size_t m = rnd() % 200;
        for (size_t i = 0; i < m; i++)
            in[i] = (rnd() & 1) ? (uint8_t)(0xC0 + (rnd() % 0x20)) : (uint8_t)rnd();
        size_t k = tn_slip_encode(e, sizeof e, in, m);
        size_t l = 0;
        bool x = false;
        int f = decode_all(e, k, o, sizeof o, &l, &x);
        for (size_t i = 1; i + 1 < k; i++)
            if (e[i] == 0xC0)
                bad++;
        if (m == 0 ? f != 0 : (f != 1 || l != m || x || memcmp(in, o, m)))
            bad++;
    }
    is(bad, 0, "slip: 300 random frames rich in C0/DB round-trip, no END inside");
}

static void test_frames(void)
{
    uint8_t raw[64], pl[16];
    struct tn_frame f;
    for (int i = 0; i < 8; i++)
        pl[i] = (uint8_t)(0xC0 + i);
    size_t n = tn_frame_build(raw, sizeof raw, TN_T_WRITE, 0x5A, pl, 8);
    ok(n == 15 && raw[0] == 1 && raw[1] == 2 && raw[2] == 0x5A && raw[3] == 8 && raw[4] == 0,
       "frame: header is version 1, type, seq, len little-endian");
    uint16_t c = tn_crc16(TN_CRC16_INIT, raw, 13);
    ok(raw[13] == c >> 8 && raw[14] == (c & 0xFF), "frame: CRC over header+payload, high byte first");
    is(tn_frame_check(raw, n, false, 64, &f), TN_NAK_OK, "frame: a built frame passes the checks");
    ok(f.type == TN_T_WRITE && f.seq == 0x5A && f.len == 8 && f.payload == raw + 5,
       "frame: check returns its fields");
    is(tn_request_check(&f, 64), TN_NAK_OK, "request: WRITE with address and one word is accepted");

    is(tn_frame_check(raw, n - 1, false, 64, &f), TN_NAK_CRC, "frame: truncated by one byte -> NAK CRC");
    is(tn_frame_check(raw, 6, false, 64, &f), TN_NAK_LENGTH, "frame: 6 bytes -> NAK LENGTH");
    is(tn_frame_check(raw, 2, false, 64, &f), TN_NAK_LENGTH, "frame: 2 bytes -> NAK LENGTH");
    ok(f.type == TN_T_WRITE && f.seq == 0, "frame: short frame reports the type it has and seq 0");
    is(tn_frame_check(raw, n, true, 64, &f), TN_NAK_ESCAPE, "frame: bad escape -> NAK ESCAPE first");

    /* len field that disagrees with the bytes, CRC recomputed */
    raw[3] = 4;
    uint16_t c2 = tn_crc16(TN_CRC16_INIT, raw, 13);
    raw[13] = (uint8_t)(c2 >> 8);
    raw[14] = (uint8_t)c2;
    is(tn_frame_check(raw, n, false, 64, &f), TN_NAK_LENGTH, "frame: len field != bytes -> NAK LENGTH");

    n = tn_frame_build(raw, sizeof raw, TN_T_WRITE, 1, pl, 12);
    is(tn_frame_check(raw, n, false, 8, &f), TN_NAK_OVERSIZE,
       "frame: 19 bytes with a bound of 8 payload bytes -> NAK OVERSIZE");
    /* len beyond the bound in a frame whose size is within it */
    n = tn_frame_build(raw, sizeof raw, TN_T_WRITE, 1, pl, 4);
    raw[3] = 200;
    c2 = tn_crc16(TN_CRC16_INIT, raw, 9);
    raw[9] = (uint8_t)(c2 >> 8);
    raw[10] = (uint8_t)c2;
    is(tn_frame_check(raw, n, false, 64, &f), TN_NAK_OVERSIZE, "frame: len > bound -> NAK OVERSIZE");
    n = tn_frame_build(raw, sizeof raw, TN_T_INFO, 1, NULL, 0);
    raw[0] = 2;
    c2 = tn_crc16(TN_CRC16_INIT, raw, 5);
    raw[5] = (uint8_t)(c2 >> 8);
    raw[6] = (uint8_t)c2;
    is(tn_frame_check(raw, n, false, 64, &f), TN_NAK_VERSION, "frame: version 2 -> NAK VERSION");

    n = tn_frame_build(raw, sizeof raw, 0x33, 1, NULL, 0);
    tn_frame_check(raw, n, false, 64, &f);
    is(tn_request_check(&f, 64), TN_NAK_TYPE, "request: type 0x33 -> NAK TYPE");
    n = tn_frame_build(raw, sizeof raw, TN_T_START, 1, pl, 4);
    tn_frame_check(raw, n, false, 64, &f);
    is(tn_request_check(&f, 64), TN_NAK_ARG, "request: START with a payload -> NAK ARG");
    n = tn_frame_build(raw, sizeof raw, TN_T_WRITE, 1, pl, 6);
    tn_frame_check(raw, n, false, 64, &f);
    is(tn_request_check(&f, 64), TN_NAK_ARG, "request: WRITE of 6 bytes -> NAK ARG");
    uint8_t rd[8];
    tn_put_le32(rd, 0);
    tn_put_le32(rd + 4, 17);
    n = tn_frame_build(raw, sizeof raw, TN_T_READ, 1, rd, 8);
    tn_frame_check(raw, n, false, 64, &f);
    is(tn_request_check(&f, 64), TN_NAK_ARG, "request: READ of 17 words with a 64-byte bound -> NAK ARG");
    tn_put_le32(rd + 4, 16);
    n = tn_frame_build(raw, sizeof raw, TN_T_READ, 1, rd, 8);
    tn_frame_check(raw, n, false, 64, &f);
    is(tn_request_check(&f, 64), TN_NAK_OK, "request: READ of 16 words with a 64-byte bound is fine");

    /* the examples of docs/protocol.md, CRC checked by the bit-serial reference */
    uint8_t wire[64];
    const uint8_t doc_info[] = {0xC0, 0x01, 0x01, 0x00, 0x00, 0x00, 0xCD, 0xE9, 0xC0};
    n = tn_frame_encode(wire, sizeof wire, TN_T_INFO, 0, NULL, 0);
    ok(n == sizeof doc_info && !memcmp(wire, doc_info, n) && crc_bitwise(doc_info + 1, 5) == 0xCDE9,
       "docs example: INFO seq 0 is C0 01 01 00 00 00 CD E9 C0");
    /* its DATA from a 7x7x7 device of the current design version (W 16,
     * LANES 6, MEM_DEPTH 1024, ROUNDS 16, ALPHA 1, bound 1024 bytes) */
    const uint8_t doc_data[] = {0xC0, 0x01, 0x81, 0x00, 0x20, 0x00, 0x00, 0x00, 0x04, 0x00,
                                0x07, 0x07, 0x07, 0x00, 0x10, 0x00, 0x00, 0x00, 0x06, 0x00,
                                0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
                                0x01, 0x00, 0x00, 0x00, 0x00, 0x04, 0x01, 0x00, 0x00, 0xBB,
                                0xC0};
    const uint32_t info_words[8] = {TN_DESIGN_VERSION, 0x070707, 16, 6, 1024, 16, 1,
                                    0x00010000u | 1024u};
    uint8_t dp[32];
    for (int k = 0; k < 8; k++)
        tn_put_le32(dp + 4 * k, info_words[k]);
    n = tn_frame_encode(wire, sizeof wire, TN_T_DATA, 0, dp, sizeof dp);
    ok(n == sizeof doc_data && !memcmp(wire, doc_data, n) &&
       crc_bitwise(doc_data + 1, 37) == 0x00BB,
       "docs example: INFO's DATA (design version %u) is C0 01 81 00 20 00 .. 00 BB C0",
       TN_DESIGN_VERSION >> 16);
    const uint8_t doc_wr[] = {0xC0, 0x01, 0x02, 0x01, 0x08, 0x00, 0x11, 0x00, 0xF0, 0xFF,
                              0x04, 0x00, 0x00, 0x00, 0x82, 0x02, 0xC0};
    uint8_t wp[8];
    tn_put_le32(wp, 0xFFF00011);
    tn_put_le32(wp + 4, 4);
    n = tn_frame_encode(wire, sizeof wire, TN_T_WRITE, 1, wp, 8);
    ok(n == sizeof doc_wr && !memcmp(wire, doc_wr, n) && crc_bitwise(doc_wr + 1, 13) == 0x8202,
       "docs example: WRITE NROUNDS=4 seq 1 is C0 01 02 01 08 00 11 00 F0 FF 04 00 00 00 82 02 C0");

    uint8_t enc[64];
    const uint8_t p1[] = {0xC0};
    n = tn_frame_encode(enc, sizeof enc, TN_T_WRITE, 0xC0, p1, 1);
    ok(n > 0 && enc[0] == 0xC0 && enc[n - 1] == 0xC0 && enc[3] == 0xDB && enc[4] == 0xDC,
       "frame_encode: seq 0xC0 is escaped inside the frame");
}

/* ---- fake transport and device ---- */

struct tn_transport {
    /* device state */
    uint32_t mem[4096];
    size_t max_payload;
    int drop_replies;       /* replies to drop */
    int corrupt_replies;    /* replies to damage (one bit) */
    int corrupt_requests;   /* requests to damage before the device sees them */
    int stale_replies;      /* send a reply with another seq first */
    int nak_type;           /* answer everything with NAK TYPE */
    bool silent;            /* never answer */
    bool babble;            /* send stale replies forever */
    int corrupt_at, drop_at; /* damage the request / drop the reply of frame number N (1-based) */
    bool write_fails;
    int frames_seen, writes_done;
    int unread, max_unread; /* frames sent since the client last read, and its maximum */
    uint8_t seqs[64];
    int nseqs;
    struct tn_slip_dec dec;
    uint8_t raw[70000];
    uint8_t out[200000];
    size_t out_len, out_pos;
};

static void dev_reply(struct tn_transport *t, uint8_t type, uint8_t seq,
                      const uint8_t *pl, size_t len)
{
    size_t n = tn_frame_encode(t->out + t->out_len, sizeof t->out - t->out_len, type,
                               seq, pl, len);
    if (t->corrupt_replies > 0 && n > 4) {
        t->corrupt_replies--;
        t->out[t->out_len + 3] ^= 0x01;   /* a header byte (never END/ESC) */
    }
    t->out_len += n;
}

static void dev_frame(struct tn_transport *t, uint8_t *raw, size_t n, bool esc_err)
{
    struct tn_frame f;
    if (t->corrupt_requests > 0 && n > 6) {
        t->corrupt_requests--;
        raw[n / 2] ^= 0x10;
    }
    t->frames_seen++;
    if (++t->unread > t->max_unread)
        t->max_unread = t->unread;
    if (t->frames_seen == t->corrupt_at)
        raw[n / 2] ^= 0x10;
    int code = tn_frame_check(raw, n, esc_err, t->max_payload, &f);
    if (code == TN_NAK_OK)
        code = tn_request_check(&f, t->max_payload);
    if (code == TN_NAK_OK && t->nak_type)
        code = TN_NAK_TYPE;
    if (t->nseqs < 64)
        t->seqs[t->nseqs++] = f.seq;
    if (t->silent)
        return;
    if (code) {
        uint8_t nk[2] = {(uint8_t)code, f.type};
        dev_reply(t, TN_T_NAK, f.seq, nk, 2);
        return;
    }
    if (t->drop_replies > 0 || t->frames_seen == t->drop_at) {
        if (t->drop_replies > 0)
            t->drop_replies--;
        return;
    }
    if (t->stale_replies > 0) {
        t->stale_replies--;
        dev_reply(t, TN_T_ACK, (uint8_t)(f.seq + 77), NULL, 0);
    }
    uint8_t pl[32768];
    switch (f.type) {
    case TN_T_WRITE: {
        uint32_t a = tn_get_le32(f.payload);
        for (size_t i = 0; i + 1 < f.len / 4u; i++) {
            t->mem[(a + i) % 4096] = tn_get_le32(f.payload + 4 + 4 * i);
            t->writes_done++;
        }
        dev_reply(t, TN_T_ACK, f.seq, NULL, 0);
        break;
    }
    case TN_T_READ: {
        uint32_t a = tn_get_le32(f.payload), c = tn_get_le32(f.payload + 4);
        for (uint32_t i = 0; i < c; i++)
            tn_put_le32(pl + 4 * i, t->mem[(a + i) % 4096]);
        dev_reply(t, TN_T_DATA, f.seq, pl, 4 * c);
        break;
    }
    case TN_T_INFO:
    case TN_T_STATUS:
        for (uint32_t i = 0; i < 8; i++)
            tn_put_le32(pl + 4 * i, 0x100 * f.type + i);
        if (f.type == TN_T_INFO)
            tn_put_le32(pl + 28, (uint32_t)t->max_payload | 1u << 16);
        dev_reply(t, TN_T_DATA, f.seq, pl, 32);
        break;
    default:
        dev_reply(t, TN_T_ACK, f.seq, NULL, 0);
    }
}

static int fake_write(struct tn_transport *t, const uint8_t *buf, size_t len)
{
    if (t->write_fails)
        return TN_EIO;
    for (size_t i = 0; i < len; i++)
        if (tn_slip_dec_push(&t->dec, buf[i]))
            dev_frame(t, t->dec.buf, t->dec.overflow ? t->dec.cap : t->dec.len, t->dec.esc_err);
    return 0;
}

static int fake_read(struct tn_transport *t, uint8_t *buf, size_t len, int timeout_ms)
{
    t->unread = 0;
    if (t->babble) {
        uint8_t f[16];
        size_t n = tn_frame_encode(f, sizeof f, TN_T_ACK, 0xEE, NULL, 0);
        size_t m = 0;
        while (m + n <= len) {
            memcpy(buf + m, f, n);
            m += n;
        }
        return (int)m;
    }
    if (t->out_pos == t->out_len) {
        struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        return 0;
    }
    size_t n = t->out_len - t->out_pos;
    if (n > len)
        n = len;
    if (n > 7)
        n = 7;   /* replies arrive in small pieces */
    memcpy(buf, t->out + t->out_pos, n);
    t->out_pos += n;
    if (t->out_pos == t->out_len)
        t->out_pos = t->out_len = 0;
    return (int)n;
}

static const struct tn_transport_ops fake_ops = {
    .name = "fake", .open = NULL, .write = fake_write, .read = fake_read, .close = NULL,
};

static struct tn_transport *fake_new(size_t max_payload)
{
    struct tn_transport *t = calloc(1, sizeof *t);
    t->max_payload = max_payload;
    tn_slip_dec_init(&t->dec, t->raw, max_payload + 8);
    return t;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_client(void)
{
    struct tn_transport *t = fake_new(64);
    struct tn_proto *p;
    struct tn_proto_opts o = {.timeout_ms = 20, .retries = 2, .max_payload = 0};
    is(tn_proto_open(&p, &fake_ops, t, &o), 0, "client: open over the fake transport");

    struct tn_info info;
    is(tn_proto_info(p, &info), 0, "client: INFO answered");
    ok(info.version == 0x100 && info.dims[0] == 1 && info.dims[1] == 1 &&
           info.alpha == 0x106 && info.max_payload == 64 && info.proto_version == 1,
       "client: INFO fields decoded (version, dims, alpha, bridge word)");
    is(tn_proto_max_payload(p), 64, "client: payload bound taken from INFO");

    uint32_t w[100], r[100];
    for (int i = 0; i < 100; i++)
        w[i] = rnd();
    int f0 = t->frames_seen;
    is(tn_proto_write(p, 1000, w, 100), 0, "client: write of 100 words");
    is(t->frames_seen - f0, 7, "client: 100 words go as 7 bursts of at most 15 (64-byte bound)");
    ok(!memcmp(t->mem + 1000, w, sizeof w), "client: the device holds the 100 words");
    f0 = t->frames_seen;
    is(tn_proto_read(p, 1000, r, 100), 0, "client: read of 100 words");
    is(t->frames_seen - f0, 7, "client: 100 words read as 7 bursts of at most 16");
    ok(!memcmp(r, w, sizeof w), "client: read back equals what was written");

    /* retries */
    const struct tn_proto_stats *s = tn_proto_stats(p);
    uint64_t r0 = s->retries;
    t->corrupt_requests = 1;
    w[0] = 0xC0DBC0DB;
    is(tn_proto_write(p, 5, w, 1), 0, "client: a request damaged on the way is retried after NAK CRC");
    ok(s->retries == r0 + 1 && t->mem[5] == 0xC0DBC0DB, "client: one retry, the word arrived");

    r0 = s->retries;
    t->corrupt_replies = 2;
    is(tn_proto_read(p, 5, r, 1), 0, "client: two damaged replies are retried");
    ok(s->retries == r0 + 2 && r[0] == 0xC0DBC0DB, "client: two retries, right data");

    r0 = s->retries;
    t->drop_replies = 1;
    t->nseqs = 0;
    is(tn_proto_start(p), 0, "client: a lost reply is retried after the timeout");
    ok(s->retries == r0 + 1 && t->nseqs == 2 && t->seqs[0] == t->seqs[1],
       "client: the retried START carries the same seq (device-side idempotence works)");

    t->stale_replies = 1;
    is(tn_proto_abort(p), 0, "client: a reply with another seq is skipped");

    /* the tail of a reply cut short earlier (seq, len, crc, END) is waiting */
    const uint8_t tail[] = {0x19, 0x00, 0x00, 0x8C, 0xA7, 0xC0};
    memcpy(t->out, tail, sizeof tail);
    t->out_pos = 0;
    t->out_len = sizeof tail;
    r0 = s->retries;
    is(tn_proto_abort(p), 0, "client: bytes before the reply's leading END are skipped");
    is(s->retries, r0, "client: without a retry");

    t->drop_replies = 3;
    double t0 = now_s();
    uint64_t a0 = s->attempts;
    is(tn_proto_reset(p), TN_ETIMEDOUT, "client: 3 lost replies with 2 retries -> TN_ETIMEDOUT");
    is(s->attempts - a0, 3, "client: exactly 1 + 2 attempts were made");
    ok(now_s() - t0 >= 0.060, "client: it waited the timeout for each attempt");
    ok(strstr(tn_proto_errmsg(p), "stopped answering") != NULL, "client: message says the device stopped answering");
    diag("%s", tn_proto_errmsg(p));
    t->out_len = t->out_pos = 0;

    t->silent = true;
    struct tn_status st;
    is(tn_proto_status(p, &st), TN_ETIMEDOUT, "client: a silent device -> TN_ETIMEDOUT");
    t->silent = false;

    is(tn_proto_status(p, &st), 0, "client: the next request after timeouts succeeds");
    ok(st.status == 0x500 && st.round == 0x501 && st.cycle == (0x502u | (uint64_t)0x503 << 32),
       "client: STATUS fields decoded (48-bit cycle from two words)");

    t->nak_type = 1;
    a0 = s->attempts;
    is(tn_proto_abort(p), TN_EPROTO, "client: NAK TYPE -> TN_EPROTO");
    is(s->attempts - a0, 1, "client: a NAK that damage cannot cause is not retried");
    ok(strstr(tn_proto_errmsg(p), "unknown request type") != NULL, "client: message names the NAK");
    t->nak_type = 0;

    t->babble = true;
    a0 = s->attempts;
    is(tn_proto_abort(p), TN_EPROTO, "client: a device babbling stale replies is cut off by the byte budget");
    is(s->attempts - a0, 3, "client: each attempt ends after the budget, not never");
    t->babble = false;
    t->out_len = t->out_pos = 0;

    t->corrupt_replies = 10;
    is(tn_proto_abort(p), TN_EPROTO, "client: replies always damaged -> TN_EPROTO after the retries");
    t->corrupt_replies = 0;

    is(tn_proto_request(p, TN_T_WRITE, (const uint8_t *)w, 68, NULL, 0, NULL), TN_EINVAL,
       "client: a payload beyond the bound is refused before sending");

    t->write_fails = true;
    is(tn_proto_start(p), TN_EIO, "client: a transport write error is returned as is");
    t->write_fails = false;
    tn_proto_close(p);

    /* no retries configured */
    o.retries = TN_PROTO_NO_RETRY;
    o.max_payload = 16;
    tn_proto_open(&p, &fake_ops, t, &o);
    s = tn_proto_stats(p);
    t->drop_replies = 1;
    is(tn_proto_abort(p), TN_ETIMEDOUT, "client: with no retries one lost reply is a timeout");
    diag("%s", tn_proto_errmsg(p));
    is(s->attempts, 1, "client: and only one attempt");
    f0 = t->frames_seen;
    is(tn_proto_write(p, 0, w, 7), 0, "client: an explicit 16-byte bound is used without INFO");
    is(t->frames_seen - f0, 3, "client: 7 words at 3 per burst go as 3 frames");
    struct tn_info in2;
    ok(tn_proto_info(p, &in2) == 0 && in2.max_payload == 64 && tn_proto_max_payload(p) == 16,
       "client: INFO reports the device's 64 bytes but keeps the 16-byte bound of the options");
    tn_proto_close(p);

    /* a window of bursts in flight, go-back-N on failures */
    o.retries = 2;
    o.max_payload = 64;
    o.window = 4;
    tn_proto_open(&p, &fake_ops, t, &o);
    s = tn_proto_stats(p);
    uint32_t big[300], back[300];
    for (int i = 0; i < 300; i++)
        big[i] = rnd();
    memset(t->mem, 0, sizeof t->mem);
    f0 = t->frames_seen;
    is(tn_proto_write(p, 2000, big, 300), 0, "window 4: write of 300 words");
    ok(t->frames_seen - f0 == 20 && !memcmp(t->mem + 2000, big, sizeof big) && s->retries == 0,
       "window 4: 20 bursts, no retry, the device holds the 300 words");
    memset(t->mem, 0, sizeof t->mem);
    t->corrupt_at = t->frames_seen + 6;
    t->drop_at = t->frames_seen + 13;
    is(tn_proto_write(p, 2000, big, 300), 0, "window 4: a damaged request and a lost reply mid-stream");
    ok(!memcmp(t->mem + 2000, big, sizeof big) && s->retries >= 2 && s->timeouts == 1,
       "window 4: go-back-N resends, every word arrives (%llu resent frames)",
       (unsigned long long)s->retries);
    is(tn_proto_read(p, 2000, back, 300), 0, "window 4: reads are unaffected");
    ok(!memcmp(back, big, sizeof big), "window 4: read back equals the data");
    t->corrupt_requests = 100;
    is(tn_proto_write(p, 2000, big, 300), TN_EPROTO, "window 4: a line that damages every frame -> TN_EPROTO");
    t->corrupt_requests = 0;
    t->out_len = t->out_pos = 0;   /* NAKs of the frames still in flight */
    t->silent = true;
    is(tn_proto_write(p, 2000, big, 300), TN_ETIMEDOUT, "window 4: a silent device -> TN_ETIMEDOUT");
    t->silent = false;
    t->out_len = t->out_pos = 0;
    is(tn_proto_write(p, 2000, big, 300), 0, "window 4: and the next write works again");
    tn_proto_close(p);
    is(tn_proto_open(&p, &fake_ops, t, &(struct tn_proto_opts){.window = TN_PROTO_MAX_WINDOW + 1}),
       TN_EINVAL, "a window above TN_PROTO_MAX_WINDOW is refused");

    /* bounds the bridge cannot have are refused */
    is(tn_proto_open(&p, &fake_ops, t, &(struct tn_proto_opts){.max_payload = 6}), TN_EINVAL,
       "client: a bound below 8 bytes is refused");
    free(t);
}

/* Spans at scattered, disjoint addresses: writev/readv pipeline the bursts
 * of all of them, recover from damage, and refuse overlapping writes. */
static void test_spans(void)
{
    struct tn_transport *t = fake_new(64);   /* 15 words per WRITE, 16 per READ */
    struct tn_proto *p;
    struct tn_proto_opts o = {.timeout_ms = 30, .retries = 2, .window = 4, .read_window = 4};
    is(tn_proto_open(&p, &fake_ops, t, &o), 0, "spans: open with windows of 4");
    const struct tn_proto_stats *s = tn_proto_stats(p);
    enum { NS = 40 };
    static uint32_t data[NS][40], back[NS][40], want[4096];
    struct tn_proto_wspan ws[NS];
    struct tn_proto_rspan rs[NS];
    uint32_t addr = 7;
    int wframes = 0, rframes = 0;
    for (int i = 0; i < NS; i++) {
        size_t n = 1 + rnd() % 40;
        for (size_t k = 0; k < n; k++)
            want[addr + k] = data[i][k] = rnd() | 1;
        /* in descending address order, with gaps */
        ws[NS - 1 - i] = (struct tn_proto_wspan){addr, data[i], n};
        rs[NS - 1 - i] = (struct tn_proto_rspan){addr, back[i], n};
        wframes += (int)((n + 14) / 15);
        rframes += (int)((n + 15) / 16);
        addr += (uint32_t)n + 1 + rnd() % 5;
    }
    memset(t->mem, 0, sizeof t->mem);
    is(tn_proto_info(p, NULL), 0, "spans: INFO gives the bound");
    int f0 = t->frames_seen;
    t->max_unread = 0;
    is(tn_proto_writev(p, ws, NS), 0, "spans: writev of 40 spans");
    ok(t->frames_seen - f0 == wframes && !memcmp(t->mem, want, sizeof want),
       "spans: one frame per 15 words of each span, every word at its address, gaps untouched");
    is(t->max_unread, 4, "spans: 4 WRITEs in flight across spans, never more");

    memset(t->mem, 0, sizeof t->mem);
    t->corrupt_at = t->frames_seen + 5;
    t->drop_at = t->frames_seen + 17;
    uint64_t r0 = s->retries;
    is(tn_proto_writev(p, ws, NS), 0, "spans: writev with a damaged request and a lost reply");
    ok(!memcmp(t->mem, want, sizeof want) && s->retries >= r0 + 2,
       "spans: go-back-N resends, the memory is right (%llu resent frames)",
       (unsigned long long)(s->retries - r0));

    f0 = t->frames_seen;
    t->max_unread = 0;
    is(tn_proto_readv(p, rs, NS), 0, "spans: readv of 40 spans");
    int same = 1;
    for (int i = 0; i < NS; i++)
        same &= !memcmp(rs[i].words, want + rs[i].addr, rs[i].n * 4);
    ok(same && t->frames_seen - f0 == rframes, "spans: one READ per 16 words, each span's data");
    is(t->max_unread, 4, "spans: 4 READs in flight across spans, never more");

    memset(back, 0, sizeof back);
    t->corrupt_replies = 1;
    t->drop_at = t->frames_seen + 9;
    r0 = s->retries;
    is(tn_proto_readv(p, rs, NS), 0, "spans: readv with a damaged reply and a lost reply");
    same = 1;
    for (int i = 0; i < NS; i++)
        same &= !memcmp(rs[i].words, want + rs[i].addr, rs[i].n * 4);
    ok(same && s->retries >= r0 + 2, "spans: the data is right after the resends");

    f0 = t->frames_seen;
    struct tn_proto_wspan ov[3] = {{100, data[0], 5}, {300, data[1], 2}, {104, data[2], 3}};
    is(tn_proto_writev(p, ov, 3), TN_EINVAL, "spans: overlapping write spans -> TN_EINVAL");
    ok(t->frames_seen == f0 && strstr(tn_proto_errmsg(p), "overlap") != NULL,
       "spans: nothing was sent, the message says why");
    struct tn_proto_wspan wrap[1] = {{0xFFFFFFFEu, data[0], 3}};
    is(tn_proto_writev(p, wrap, 1), TN_EINVAL, "spans: a span past the end of the address space -> TN_EINVAL");
    struct tn_proto_wspan adj[2] = {{200, data[0], 4}, {204, data[1], 4}};
    is(tn_proto_writev(p, adj, 2), 0, "spans: adjacent spans are disjoint");
    tn_proto_close(p);

    /* windows of 1: the same calls, one request at a time */
    o.window = o.read_window = 0;
    tn_proto_open(&p, &fake_ops, t, &o);
    memset(t->mem, 0, sizeof t->mem);
    memset(back, 0, sizeof back);
    t->max_unread = 0;
    is(tn_proto_writev(p, ws, NS), 0, "spans, window 1: writev");
    is(tn_proto_readv(p, rs, NS), 0, "spans, window 1: readv");
    same = !memcmp(t->mem, want, sizeof want);
    for (int i = 0; i < NS; i++)
        same &= !memcmp(rs[i].words, want + rs[i].addr, rs[i].n * 4);
    ok(same && t->max_unread == 1, "spans, window 1: same memory and data, one frame in flight");
    is(tn_proto_writev(p, ov, 3), TN_EINVAL, "spans, window 1: overlapping spans are still refused");
    tn_proto_close(p);
    is(tn_proto_open(&p, &fake_ops, t, &(struct tn_proto_opts){.read_window = TN_PROTO_MAX_WINDOW + 1}),
       TN_EINVAL, "a read window above TN_PROTO_MAX_WINDOW is refused");
    free(t);
}

int main(void)
{
    test_crc();
    test_slip();
    test_frames();
    test_client();
    test_spans();
    return tap_done();
}
