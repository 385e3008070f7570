/* SPDX-License-Identifier: MIT */
/* SplitMix64: the searches' small seeded generator (the liquid repair
 * search's tie breaks, the step classes' orders). Header-only. */
#ifndef TN_SPLITMIX_H
#define TN_SPLITMIX_H

#include <stdint.h>

static inline uint64_t tn_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
