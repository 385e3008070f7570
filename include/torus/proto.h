/* SPDX-License-Identifier: MIT */
/* The framed protocol to the host bridge (docs/protocol.md): SLIP framing,
 * CRC-16/CCITT-FALSE, frame build and parse, and a client (struct tn_proto)
 * with sequence numbers, timeouts and bounded retries over any transport of
 * transport.h. Actions return 0 or a negative TN_E* code (tn_error.h);
 * tn_proto_errmsg() gives the detailed message of the last failure. */
#ifndef TN_PROTO_H
#define TN_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transport.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TN_PROTO_VERSION 1

/* SLIP bytes (RFC 1055). */
#define TN_SLIP_END 0xC0
#define TN_SLIP_ESC 0xDB
#define TN_SLIP_ESC_END 0xDC
#define TN_SLIP_ESC_ESC 0xDD

/* Frame = version, type, seq, len (2, little-endian), payload, CRC (2,
 * big-endian) before SLIP: header and CRC bytes. */
#define TN_FRAME_HDR 5
#define TN_FRAME_OVERHEAD 7

/* Global registers read by INFO and STATUS (docs/hardware.md). */
#define TN_REG_GLOBAL 0xFFF00000u
#define TN_REG_CTRL (TN_REG_GLOBAL + 0x010u)

enum tn_frame_type {
    TN_T_INFO = 0x01,   /* -> DATA: 8 words (INFO registers, bridge word) */
    TN_T_WRITE = 0x02,  /* addr, words... -> ACK */
    TN_T_READ = 0x03,   /* addr, count -> DATA: count words */
    TN_T_START = 0x04,  /* CTRL = 1 (once per seq) -> ACK */
    TN_T_STATUS = 0x05, /* -> DATA: 8 words (STATUS .. END_CYCLE) */
    TN_T_ABORT = 0x06,  /* CTRL = 2 -> ACK */
    TN_T_RESET = 0x07,  /* rst_o pulse, bridge state cleared -> ACK */
    TN_T_ACK = 0x80,
    TN_T_DATA = 0x81,
    TN_T_NAK = 0x82,    /* payload: code, request type */
};

enum tn_nak_code {
    TN_NAK_OK = 0x00,       /* (not sent) frame accepted */
    TN_NAK_CRC = 0x01,      /* CRC mismatch */
    TN_NAK_LENGTH = 0x02,   /* fewer than 7 bytes, or len disagrees with the frame */
    TN_NAK_OVERSIZE = 0x03, /* len or frame larger than the device's payload bound */
    TN_NAK_TYPE = 0x04,     /* unknown request type */
    TN_NAK_VERSION = 0x05,  /* protocol version not 1 */
    TN_NAK_ESCAPE = 0x06,   /* SLIP ESC followed by a byte other than ESC_END/ESC_ESC */
    TN_NAK_ARG = 0x07,      /* payload length or READ count wrong for the type */
};

/* Text for a NAK code (never NULL). */
const char *tn_nak_str(int code);
/* Name of a frame type ("WRITE", "NAK", ...; "type 0x.." when unknown). */
const char *tn_frame_type_str(int type, char *buf, size_t len);
/* True for NAK codes that damaged bytes can cause: the client retries. */
bool tn_nak_retryable(int code);

/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, MSB first, no reflection,
 * no final xor; check value 0x29B1 for "123456789". Continue a running CRC
 * by passing it back in; start with TN_CRC16_INIT. */
#define TN_CRC16_INIT 0xFFFFu
uint16_t tn_crc16(uint16_t crc, const void *buf, size_t len);

/* SLIP-encode len bytes: END, escaped bytes, END. Returns the encoded size
 * (at most 2 * len + 2), or 0 if it does not fit in cap. */
size_t tn_slip_encode(uint8_t *out, size_t cap, const uint8_t *in, size_t len);

/* Incremental SLIP decoder into a caller's buffer. */
struct tn_slip_dec {
    uint8_t *buf;
    size_t cap;
    size_t len;      /* bytes of the frame so far (complete when push returns 1) */
    bool in_frame;   /* bytes seen since the last END */
    bool esc;        /* last byte was ESC */
    bool esc_err;    /* this frame had a bad escape */
    bool overflow;   /* this frame was longer than cap (len stops at cap) */
};
void tn_slip_dec_init(struct tn_slip_dec *d, uint8_t *buf, size_t cap);
/* Feed one byte: 1 when it ended a non-empty frame (buf[0..len), flags
 * valid until the next push), 0 otherwise. */
int tn_slip_dec_push(struct tn_slip_dec *d, uint8_t byte);

/* Build an unescaped frame (header, payload, CRC) into out: its size, or 0
 * if it does not fit in cap or len > 0xFFFF. */
size_t tn_frame_build(uint8_t *out, size_t cap, uint8_t type, uint8_t seq,
                      const uint8_t *payload, size_t len);
/* Build and SLIP-encode a frame: the encoded size or 0 (as above). Needs
 * cap >= 2 * (len + 7) + 2 in the worst case. */
size_t tn_frame_encode(uint8_t *out, size_t cap, uint8_t type, uint8_t seq,
                       const uint8_t *payload, size_t len);

struct tn_frame {
    uint8_t version, type, seq;
    uint16_t len;
    const uint8_t *payload;  /* points into the parsed buffer */
};
/* Check an unescaped frame's framing exactly as the bridge does
 * (docs/protocol.md, "Checks", steps 1-7): returns TN_NAK_OK (0) and fills
 * f, or the NAK code the bridge answers with. n is the number of bytes
 * received (raw holds min(n, what was stored) of them; n > max_payload + 7
 * is OVERSIZE before anything is read beyond the header), max_payload the
 * bound in bytes, esc_err whether the SLIP decoder saw a bad escape. The
 * version, type and seq of f are filled even on error (0 when missing). */
int tn_frame_check(const uint8_t *raw, size_t n, bool esc_err,
                   size_t max_payload, struct tn_frame *f);
/* The command checks of a framed request (steps 8-9): TN_NAK_OK, or
 * TN_NAK_TYPE / TN_NAK_ARG as the bridge answers. */
int tn_request_check(const struct tn_frame *f, size_t max_payload);

/* 32-bit little-endian helpers. */
static inline void tn_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t tn_get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* ---- client ---- */

struct tn_proto_opts {
    int timeout_ms;      /* per attempt: the longest silence of the device
                          * while a reply is awaited (0: 500) */
    int retries;         /* extra attempts after a timeout or a damaged
                          * frame (0: the default 3; TN_PROTO_NO_RETRY or
                          * any negative value: none) */
    size_t max_payload;  /* payload bytes per frame, a multiple of 4 (0: ask
                          * the device with INFO before the first READ or
                          * WRITE; INFO never raises a bound set here) */
    int window;          /* WRITE bursts sent before waiting for the first
                          * ACK (0 or 1: one at a time; at most
                          * TN_PROTO_MAX_WINDOW). More than one hides the
                          * round-trip latency of USB and serial links. */
    int read_window;     /* READ requests sent before waiting for the first
                          * DATA (0 or 1: one at a time; at most
                          * TN_PROTO_MAX_WINDOW). Only where the device's
                          * input can hold them while it answers: the
                          * simulator's byte input waits for the bridge, a
                          * UART does not (its requests queue in the
                          * bridge's input FIFO, 2^FIFO_AW bytes, 19 bytes
                          * per READ). */
};
#define TN_PROTO_MAX_WINDOW 64
#define TN_PROTO_NO_RETRY (-1)

struct tn_proto_stats {
    uint64_t requests;   /* high-level frames (one per burst) */
    uint64_t attempts;   /* frames sent, retries included */
    uint64_t retries;
    uint64_t timeouts;
    uint64_t naks;       /* NAKs received */
    uint64_t garbled;    /* replies with a bad CRC or framing */
    uint64_t bytes_out, bytes_in;
};

/* The device's INFO: the global registers 0x000..0x006 and the bridge
 * word; banks, dw and relay come from PARAMS (0xFFF00007), which is not in
 * the INFO frame: tn_dev_open reads it (tn_info_set_params, image.h). */
struct tn_info {
    uint32_t version;
    unsigned dims[3];
    uint32_t w, lanes, mem_depth, rounds, alpha;
    uint32_t max_payload;    /* bytes per frame the bridge accepts */
    uint32_t proto_version;
    uint32_t banks;          /* flit memory banks: 1, 2, 4, 8 */
    uint32_t dw;             /* bits of durations, start offsets and
                              * round-relative timestamps */
    uint32_t relay;          /* 1: relay (head-routed) hardware present */
    uint32_t fault;          /* 1: link fault injection (region 7) present */
};

/* STATUS and the cycle registers (48-bit counters). */
struct tn_status {
    uint32_t status;         /* bit 0 running, 1 done, 2 error, 3 aborted */
    uint32_t round;
    uint64_t cycle, start_cycle, end_cycle;
};

struct tn_proto;

/* A client over an opened transport (not owned: close it yourself after
 * tn_proto_close). o may be NULL for the defaults. */
int tn_proto_open(struct tn_proto **p, const struct tn_transport_ops *ops,
                  struct tn_transport *t, const struct tn_proto_opts *o);
void tn_proto_close(struct tn_proto *p);

int tn_proto_info(struct tn_proto *p, struct tn_info *info);
/* Write n words to addr, addr+1, ... (split into bursts, up to `window` in
 * flight; TN_EINVAL, nothing sent, if they pass address 0xFFFFFFFF). */
int tn_proto_write(struct tn_proto *p, uint32_t addr, const uint32_t *words,
                   size_t n);
/* Read n words from addr, addr+1, ... (split into bursts, up to
 * `read_window` in flight). */
int tn_proto_read(struct tn_proto *p, uint32_t addr, uint32_t *words, size_t n);

/* Runs of words at consecutive addresses, for the list calls below. */
struct tn_proto_wspan {
    uint32_t addr;
    const uint32_t *words;
    size_t n;
};
struct tn_proto_rspan {
    uint32_t addr;
    uint32_t *words;
    size_t n;
};
/* Write every span: the bursts of all spans, in order, with up to `window`
 * in flight (one call's worth of round trips instead of one per span).
 * The spans must be disjoint (TN_EINVAL, nothing sent, otherwise): after a
 * damaged frame the bursts from it on are sent again, so a later burst
 * may have been executed before an earlier one. */
int tn_proto_writev(struct tn_proto *p, const struct tn_proto_wspan *s, size_t ns);
/* Read every span, with up to `read_window` READs in flight. Only for
 * addresses without read side effects (not CYCLE low, which latches CYCLE
 * high): a READ may be executed again after a damaged frame. */
int tn_proto_readv(struct tn_proto *p, const struct tn_proto_rspan *s, size_t ns);
/* READs sent before waiting for the first answer (tn_proto_opts). */
int tn_proto_read_window(const struct tn_proto *p);
/* Ask every exchange with a device to stop: the next time a client waits
 * for a reply it fails with TN_EINTR instead (the caller then closes the
 * device as usual, so a simulator's waveform is complete). Process-wide;
 * safe in a signal handler. */
void tn_proto_interrupt(void);
int tn_proto_interrupted(void);

int tn_proto_start(struct tn_proto *p);
int tn_proto_status(struct tn_proto *p, struct tn_status *st);
int tn_proto_abort(struct tn_proto *p);
int tn_proto_reset(struct tn_proto *p);

/* Detailed message of the last failure ("" after success). */
const char *tn_proto_errmsg(const struct tn_proto *p);
const struct tn_proto_stats *tn_proto_stats(const struct tn_proto *p);
/* Bytes per frame in use (0 until known). */
size_t tn_proto_max_payload(const struct tn_proto *p);

/* One raw request: sends type/payload, waits for the matching reply
 * (retrying as configured) and copies its payload (up to rcap bytes) to
 * resp, its length to *rlen. A NAK is returned as TN_EPROTO. For tests and
 * tools; the calls above are built on it. */
int tn_proto_request(struct tn_proto *p, uint8_t type, const uint8_t *payload,
                     size_t len, uint8_t *resp, size_t rcap, size_t *rlen);

#ifdef __cplusplus
}
#endif

#endif
