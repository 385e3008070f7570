/* SPDX-License-Identifier: MIT */
/* Fuzz target: a --lengths file (tn_lengths_parse). The first byte picks
 * the node count (1..256), the rest is the file. Properties: no crash or
 * hang; every accepted length is in 0..TN_LENGTH_MAX; printing the
 * accepted lengths and parsing that text gives them back. */
#include <string.h>

#include "fuzz.h"
#include "runopt.h"

#define NODES_MAX 256

static int parse(const void *text, size_t len, uint32_t *out, uint32_t n)
{
    char err[160];
    FILE *f = len ? fmemopen((void *)text, len, "r") : fopen("/dev/null", "r");
    FUZZ_ASSERT(f != NULL);
    int rc = tn_lengths_parse(f, out, n, err, sizeof err);
    fclose(f);
    if (rc)
        FUZZ_ASSERT(strlen(err) > 0);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint32_t n = (uint32_t)data[0] + 1, len[NODES_MAX], back[NODES_MAX];
    if (parse(data + 1, size - 1, len, n) != 0)
        return 0;
    char text[NODES_MAX * 10 + 1];
    size_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        FUZZ_ASSERT(len[i] <= TN_LENGTH_MAX);
        k += (size_t)snprintf(text + k, sizeof text - k, "%u\n", len[i]);
    }
    FUZZ_ASSERT(parse(text, k, back, n) == 0);
    FUZZ_ASSERT(memcmp(len, back, n * sizeof *len) == 0);
    return 0;
}
