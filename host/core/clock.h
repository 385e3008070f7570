/* SPDX-License-Identifier: MIT */
/* The monotonic clock, in seconds and in milliseconds: the one helper for
 * timeouts, search bounds and the run's wall times (header-only, so the
 * standalone protocol and transport test builds need no other source). */
#ifndef TN_CLOCK_H
#define TN_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline double tn_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int64_t tn_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
