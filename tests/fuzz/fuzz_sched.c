/* SPDX-License-Identifier: MIT */
/* Fuzz target: a JSON schedule file (tn_sched_parse_json), then what
 * `torusctl verify --model` does with whatever loads: the verifier, and
 * for a verified schedule small enough to stay fast, the plan lowering,
 * the plan check and the reference model. Properties: no crash, leak or
 * hang; a loaded schedule exports (tn_sched_write_json) to a file that
 * loads again. */
#include <string.h>

#include "fuzz.h"
#include "model.h"
#include "plan.h"
#include "sched.h"
#include "tn_error.h"
#include "verify.h"

/* Past these the work per input grows beyond a few milliseconds. */
#define LOWER_NODES_MAX 64
#define MODEL_CYCLES_MAX 20000

static void reload_export(struct tn_sched *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    FUZZ_ASSERT(f != NULL);
    int rc = tn_sched_write_json(s, f);
    FUZZ_ASSERT(fclose(f) == 0);
    if (rc == 0) {
        struct tn_sched *back = NULL;
        char err[400];
        rc = tn_sched_parse_json(&back, text, len, err, sizeof err);
        if (rc)
            fprintf(stderr, "export does not load: %s\n%.*s\n", err, (int)len, text);
        FUZZ_ASSERT(rc == 0);
        tn_sched_free(back);
    }
    free(text);
}

static void lower_and_model(struct tn_sched *s)
{
    struct tn_plan_params par = {.lanes = s->ports, .width = 16, .alpha = s->alpha};
    struct tn_plan *p = NULL;
    char err[400];
    if (tn_plan_lower(&p, s, &par, err, sizeof err) != 0)
        return;
    struct tn_report prep;
    if (tn_plan_check(p, &prep) != TN_ENOMEM)
        tn_report_free(&prep);
    if (p->total <= MODEL_CYCLES_MAX) {
        struct tn_model_out mo;
        if (tn_model_run(p, 1, TN_ENGINE_AUTO, &mo) == 0)
            tn_model_free(&mo);
    }
    tn_plan_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct tn_sched *s = NULL;
    char err[400];
    if (tn_sched_parse_json(&s, (const char *)data, size, err, sizeof err) != 0)
        return 0;
    FUZZ_ASSERT(s != NULL);
    struct tn_verify_opts vo = {0, 0, 20, false};
    struct tn_report rep;
    int rc = tn_verify(s, &vo, &rep);
    if (rc != TN_ENOMEM) {
        if (rc == 0 && s->topo.n <= LOWER_NODES_MAX)
            lower_and_model(s);
        tn_report_free(&rep);
    }
    reload_export(s);
    tn_sched_free(s);
    return 0;
}
