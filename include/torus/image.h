/* SPDX-License-Identifier: MIT */
/* Image compiler: a lowered plan (plan.h) -> the configuration-bus writes
 * that load it into a device (docs/hardware.md): per node one round
 * setting word per round, per node and lane an inject and an eject
 * descriptor list, the initial flit memory, the round table and NROUNDS.
 * Checks the plan against what the device reports (INFO and PARAMS) first
 * and says what is missing when it cannot run it. Also the device's word
 * formats the host reads back: eject records, node status. */
#ifndef TN_IMAGE_H
#define TN_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "proto.h"

/* ---- address map (docs/hardware.md, "Address map") ---- */

#define TN_ADDR_NODE(n, region, off) (((uint32_t)(n) << 20) | ((uint32_t)(region) << 16) | (uint32_t)(off))
#define TN_NODE_ALL 0xFFEu          /* node field of a broadcast write */
#define TN_REGION_MEM 0             /* flit memory: offset = word */
#define TN_REGION_CFG 1             /* round settings: offset = round */
#define TN_REGION_INJ 2             /* inject descriptor lists (tn_list_off) */
#define TN_REGION_EJ 3              /* eject descriptor tables, by round (tn_list_off) */
#define TN_REGION_REC 4             /* eject records (tn_rec_off) */
#define TN_REGION_STATUS 5          /* node status (enum tn_node_status) */
#define TN_REGION_ROUTE 6           /* the node's coordinates (18) and id (19) */
#define TN_REGION_FAULT 7           /* link fault injection (PARAMS bit 17) */

/* MEM word: data in bits W-1:0, then the flags relay routing reads. */
#define TN_MEM_HEAD (1u << 30)
#define TN_MEM_TAIL (1u << 31)

/* CFG word of a round: the 4-bit source select of output o (0..5, values
 * TN_SEL_* of plan.h) at bits 4o+3:4o. */
#define TN_CFG_SEL(o, sel) ((uint32_t)(sel) << (4 * (o)))
#define TN_CFG_SEL_OF(w, o) ((unsigned)((w) >> (4 * (o))) & 0xFu)

/* Inject and eject descriptors: two words per list entry; a write of word 1
 * commits the entry with word 0 taken from the bus's last write data, so
 * word 0 is always written immediately before word 1. */
#define TN_DESC_WORDS 2
#define TN_DESC_VALID (1u << 31)    /* word 0; 0 ends the list */
#define TN_DESC_RELAY (1u << 30)    /* word 0; head-routed stream or lane */
/* Inject word 0 bits 29:27 of a relay descriptor: the output its head
 * flits take at this node (tn_inject.hop: 0..5 a direction, 6 a relay
 * eject lane here, 7 none); 0 in a circuit descriptor. */
#define TN_DESC_HOP(h) (((uint32_t)(h) & 7u) << 27)
#define TN_DESC_HOP_OF(w0) ((w0) >> 27 & 7u)
#define TN_DESC_ROUNDS 2048u        /* the round field's range (ROUNDS <= 2048) */
#define TN_DESC_ROUND(r) (((uint32_t)(r) & 0x7FFu) << 16)   /* word 0 bits 26:16 */
#define TN_DESC_ROUND_OF(w0) ((w0) >> 16 & 0x7FFu)
#define TN_DESC_PORT_OF(w0) ((w0) & 7u)          /* eject word 0 bits 2:0 */
#define TN_DESC_LEN_OF(w1) ((w1) >> 16)          /* word 1: length, first word */
#define TN_DESC_ADDR_OF(w1) ((w1) & 0xFFFFu)

/* The most lanes a build has (LANES 1..6): lists are keyed node *
 * TN_MAX_LANES + lane. */
#define TN_MAX_LANES 6

/* Eject record: three words, contiguous (word w of record i at 3 i + w). */
#define TN_REC_WORDS 3

/* Node status registers (region 5). */
enum tn_node_status {
    TN_ST_FLAGS, TN_ST_OVERRUN, TN_ST_SHORT, TN_ST_BOUNDS, TN_ST_COLL, TN_ST_COLL_LATCH,
    TN_ST_UNRT, TN_ST_DROP, TN_ST_AROUND, TN_ST_CONFLICT,
    TN_ST_WORDS
};

/* Global registers (node field 0xFFF). */
#define TN_G(off) (0xFFF00000u | (uint32_t)(off))
#define TN_G_PARAMS TN_G(0x007)
#define TN_G_CTRL TN_G(0x010)
#define TN_G_NROUNDS TN_G(0x011)
#define TN_G_STATUS TN_G(0x012)
#define TN_G_RUNS TN_G(0x01A)
#define TN_G_ERRMAP(k) TN_G(0x800 + (k))
#define TN_G_DURATION(r) TN_G(0x8000 + (r))
#define TN_CTRL_START 1u
#define TN_CTRL_ABORT 2u
#define TN_CTRL_CLEAR 4u
/* VERSION of the design this host loads (bits 31:16 must match). */
#define TN_DESIGN_VERSION 0x00040000u

/* Fill banks, dw, relay and fault of i from the PARAMS register (bits 3:0
 * log2 BANKS, 12:8 DW, 16 RELAY, 17 FAULT). */
void tn_info_set_params(struct tn_info *i, uint32_t params);
/* Read the device's INFO and PARAMS registers into info: 0 or the
 * protocol's TN_E*. */
int tn_info_read(struct tn_proto *p, struct tn_info *info);
/* The plan parameters of a schedule for the device dev (lanes, memory,
 * width, alpha, banks). */
struct tn_plan_params tn_info_plan_params(const struct tn_info *dev);
/* Is dev the design this host loads (VERSION bits 31:16)? 0, or
 * TN_ENOTSUP with a message saying what to rebuild. */
int tn_info_check(const struct tn_info *dev, char *err, size_t errlen);
/* log2(ROUNDS): the index bits of a descriptor list (RW in the map). */
unsigned tn_info_rw(const struct tn_info *dev);

/* Offset (in region INJ or EJ) of word 0 of entry index of lane's list. */
static inline uint32_t tn_list_off(const struct tn_info *dev, unsigned lane, uint32_t index)
{
    unsigned rw = tn_info_rw(dev);
    return (uint32_t)lane << (rw + 1) | index << 1;
}
/* Offset (in region REC) of word 0 of lane's record index. */
static inline uint32_t tn_rec_off(const struct tn_info *dev, unsigned lane, uint32_t index)
{
    unsigned rw = tn_info_rw(dev);
    return ((uint32_t)lane << (rw + 2)) + index * TN_REC_WORDS;
}

/* Descriptor entries (docs/hardware.md): both words of in / e in round. */
void tn_desc_inject(const struct tn_inject *in, uint32_t round, uint32_t w[TN_DESC_WORDS]);
void tn_desc_eject(const struct tn_eject *e, uint32_t round, uint32_t w[TN_DESC_WORDS]);

/* An eject record as read from region REC. */
struct tn_record {
    uint32_t epoch;           /* low 4 bits of RUNS of the run that filed it */
    uint32_t err;             /* bit 0 overrun, 1 short stream, 2 memory bounds */
    uint32_t count;           /* flits counted (log2(MEM_DEPTH) + 1 bits, wraps) */
    uint32_t first, last;     /* round-relative cycles of the first/last flit */
    uint32_t crc;
};
void tn_record_decode(const uint32_t w[TN_REC_WORDS], struct tn_record *rec);
/* The record's count field keeps log2(MEM_DEPTH) + 1 bits: its mask. */
uint32_t tn_record_count_mask(const struct tn_info *dev);

/* "overrun (3 flits), bank conflict (1 flit)": the FLAGS set in a node's
 * status registers with their counters; "" when none is. Returns buf. */
const char *tn_status_describe(const uint32_t st[TN_ST_WORDS], char *buf, size_t len);

/* Where the records of p's eject descriptors are read back. A lane files
 * the record of round r at record index r (tn_rec_off), so a lane that
 * ejects in a few of many rounds has its records far apart: the spans
 * cover the runs of rounds in which a (node, lane) holds a record, read
 * through gaps of up to `gap` rounds, in order of node, lane and round
 * (their words pointers NULL). pos[i] is where descriptor i's record
 * starts in the spans' words laid end to end (nwords in all); descriptors
 * in plan order: round by round, each round's ej[] in order, as
 * tn_model_run lists its statistics. */
struct tn_rec_spans {
    size_t *pos;
    struct tn_proto_rspan *sp;
    size_t nsp, nwords;
};
/* 0 or TN_ENOMEM (rs then holds nothing to free). */
int tn_image_record_spans(const struct tn_plan *p, const struct tn_info *dev, uint32_t gap,
                          struct tn_rec_spans *rs);
void tn_rec_spans_free(struct tn_rec_spans *rs);

/* The gap with READs pipelined (the simulator): records of rounds without
 * one read rather than a READ more; one costs 12 bytes of answer, about
 * what a READ of its own costs the bridge (about 16 bus cycles: its
 * answer's header and CRC, the engine's turn). The 8x8x8 all-to-all's
 * readback in bus cycles: 4.96 M with 0, 4.80 M with 1, 5.07 M with 2;
 * 11.9 M reading each list from its round 0. With one READ at a time (a
 * board: a round trip over USB is a millisecond or more) a list is read
 * whole, from its first record to its last (gap UINT32_MAX). */
#define TN_REC_GAP 1

/* Zero words a burst may carry to join two runs of round settings (a burst
 * costs about 13 bytes of framing, a word 4). */
#define TN_IMAGE_GAP 3

struct tn_image_burst {
    uint32_t addr;            /* first word address */
    uint32_t n;               /* words */
    size_t off;               /* in tn_image.words */
};

struct tn_image {
    struct tn_image_burst *bursts;
    size_t nbursts, bcap;
    uint32_t *words;
    size_t nwords, wcap;
    size_t mem_words;         /* of which initial flit memory */
};

/* Can this device run plan p? 0, or TN_ECAPACITY / TN_ENOTSUP / TN_EINVAL
 * with a message naming what does not fit and what to do: design version,
 * geometry, lanes, W, banks, rounds, memory words, durations and start
 * offsets within DW bits, stream lengths, relay hardware, list lengths. */
int tn_image_check(const struct tn_plan *p, const struct tn_info *dev, char *err,
                   size_t errlen);
/* Compile p (checked against dev) with the payloads of seed. 0 or TN_E*;
 * free with tn_image_free() in any case. A burst never splits a descriptor
 * entry across two WRITE frames of dev's bound (dev->max_payload). */
int tn_image_compile(struct tn_image *img, const struct tn_plan *p,
                     const struct tn_info *dev, uint64_t seed, char *err, size_t errlen);
void tn_image_free(struct tn_image *img);
/* Image size in bytes on the bus (4 per word). */
size_t tn_image_bytes(const struct tn_image *img);

#endif
