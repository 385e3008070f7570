/* SPDX-License-Identifier: MIT */
/* Fuzz target: a network + traffic file (tn_traffic_parse,
 * docs/traffic-format.md), then the link loads and the round-robin
 * schedule of what parses. Properties: no crash, leak or hang; the
 * round-robin steps partition the traffic into simultaneous steps
 * (tn_traffic_check) and no step outnumbers the transfers. */
#include "fuzz.h"
#include "tn_error.h"
#include "traffic.h"

/* Past this the round-robin takes more than a few milliseconds. */
#define TRANSFERS_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f || size == 0) {
        if (f)
            fclose(f);
        return 0;
    }
    struct tn_traffic t;
    int rc = tn_traffic_parse(&t, f, "fuzz");
    fclose(f);
    if (rc != 0)
        return 0;
    FUZZ_ASSERT(t.nx > 0);
    if (t.nx <= TRANSFERS_MAX) {
        int *load = calloc((size_t)t.nlinks + 1, sizeof *load);
        int *step_of = calloc((size_t)t.nx, sizeof *step_of);
        FUZZ_ASSERT(load && step_of);
        int lambda = tn_traffic_load(&t, NULL, load);
        FUZZ_ASSERT(lambda >= 1 && lambda <= t.nx);
        int steps = tn_roundrobin(&t, step_of);
        if (steps != TN_ENOMEM) {
            FUZZ_ASSERT(steps >= lambda && steps <= t.nx);
            FUZZ_ASSERT(tn_traffic_check(&t, step_of, steps, 1) == 0);
        }
        free(load);
        free(step_of);
    }
    tn_traffic_free(&t);
    return 0;
}
