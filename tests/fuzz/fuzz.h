/* SPDX-License-Identifier: MIT */
/* Shared by the fuzz targets (tests/fuzz/fuzz_*.c): the libFuzzer entry
 * point each defines, and the check that stops a run on a broken
 * property (abort: the fuzzer and the replay both report it). */
#ifndef TN_FUZZ_H
#define TN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond)                                                            \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: property broken: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                 \
        }                                                                            \
    } while (0)

#endif
