/* SPDX-License-Identifier: MIT */
/* Minimal TAP producer for the C and C++ tests: ok()/is() print one TAP line
 * each; tap_done() prints the plan and returns the exit status. */
#ifndef TN_TAP_H
#define TN_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline int tap_vok(int cond, const char *fmt, va_list ap)
{
    tap_n++;
    printf("%sok %d - ", cond ? "" : "not ", tap_n);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    if (!cond)
        tap_failed++;
    return cond;
}

static inline int ok(int cond, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = tap_vok(cond, fmt, ap);
    va_end(ap);
    return r;
}

/* is(): equality of two integers, printing both on failure. */
#define is(got, want, ...)                                                   \
    do {                                                                     \
        long long is_g_ = (long long)(got), is_w_ = (long long)(want);       \
        if (!ok(is_g_ == is_w_, __VA_ARGS__))                                \
            printf("#   got %lld, want %lld\n", is_g_, is_w_);               \
    } while (0)

static inline void diag(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* tap_full_scale(what): false in the sanitized build (make test runs the
 * host tests plain and under ASan/UBSan), which leaves to the plain build
 * the points that repeat at the largest scale what smaller ones check;
 * says so in a comment line. */
static inline int tap_full_scale(const char *what)
{
#ifdef __SANITIZE_ADDRESS__
    diag("left to the plain build (sanitized, it takes seconds): %s", what);
    return 0;
#else
    (void)what;
    return 1;
#endif
}

static inline int tap_done(void)
{
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

#endif
