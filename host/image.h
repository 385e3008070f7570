/* SPDX-License-Identifier: MIT */
/* Image compiler: a lowered plan (plan.h) -> the configuration-bus writes
 * that load it into a device (docs/hardware.md address map): per node and
 * round the crossbar and descriptor fields, the initial flit memory, the
 * round table and NROUNDS. Checks the plan against what the device reports
 * in INFO first and says what is missing when it cannot run it. */
#ifndef TN_IMAGE_H
#define TN_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "proto.h"

/* Address map (docs/hardware.md). */
#define TN_ADDR_NODE(n, region, off) (((uint32_t)(n) << 20) | ((uint32_t)(region) << 16) | (uint32_t)(off))
#define TN_NODE_ALL 0xFFEu          /* node field of a broadcast write */
#define TN_REGION_MEM 0
#define TN_REGION_FLAGS 1
#define TN_REGION_CFG 2
#define TN_REGION_STATS 3
#define TN_REGION_STATUS 4
#define TN_REGION_ROUTE 5
#define TN_CFG_FIELDS 64          /* config words per round */
#define TN_CFG_INJ(l) (16 + 3 * (l))
#define TN_CFG_EJ(l) (40 + 3 * (l))
#define TN_CFG_GAT(l) (58 + (l))    /* inject gather: skip << 16 | run */
#define TN_STATS_LANE 8           /* statistics words per lane */
#define TN_STATS_WORDS 7          /* of which used: first lo/hi, last lo/hi, count, crc, err */
#define TN_G(off) (0xFFF00000u | (uint32_t)(off))
#define TN_G_CTRL TN_G(0x010)
#define TN_G_NROUNDS TN_G(0x011)
#define TN_G_STATUS TN_G(0x012)
#define TN_G_DURATION(r) TN_G(0x100 + (r))
#define TN_G_ERRMAP(k) TN_G(0x800 + (k))
#define TN_CTRL_START 1u
#define TN_CTRL_ABORT 2u
#define TN_CTRL_CLEAR 4u

/* Zero words a burst may carry to join two runs of settings (a burst costs
 * about 13 bytes of framing, a word 4). */
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

/* Can this device run plan p? 0, or TN_ECAPACITY / TN_ENOTSUP with a
 * message naming what is needed (dims, lanes, memory words, rounds). */
int tn_image_check(const struct tn_plan *p, const struct tn_info *dev, char *err,
                   size_t errlen);
/* Compile p (checked against dev) with the payloads of seed. 0 or TN_E*;
 * free with tn_image_free() in any case. */
int tn_image_compile(struct tn_image *img, const struct tn_plan *p,
                     const struct tn_info *dev, uint64_t seed, char *err, size_t errlen);
void tn_image_free(struct tn_image *img);
/* Image size in bytes on the bus (4 per word). */
size_t tn_image_bytes(const struct tn_image *img);

#endif
