/* SPDX-License-Identifier: MIT */
/* A program of its own on the installed libtorus: the gossip on the
 * simulated 3x3x3 torus, as `torusctl run gossip --dims 3x3x3` does it in
 * outline. It opens the device (the Verilator model through the sim
 * transport: the same frames a board receives) and asks tn_run (run.h)
 * for the gossip: it builds the cheapest schedule for the device's alpha,
 * verifies it, lowers it to the device's tables, predicts every eject
 * record with the reference model, loads the image, runs it and compares
 * every record and the measured cycles with the model and the closed
 * form.
 *
 *   cc gossip_sim.c $(pkg-config --cflags --libs torus) -o gossip_sim
 *   ./gossip_sim [SIM_DIR]     (default: $TN_SIM_DIR, then next to torusctl)
 *
 * Exit 0 when every record and the measured cycles equal the model's, 1
 * otherwise. */
#include <stdio.h>
#include <stdlib.h>

#include <torus/torus.h>

static int fail(const char *what, const char *why)
{
    fprintf(stderr, "gossip_sim: %s: %s\n", what, why);
    return 1;
}

int main(int argc, char **argv)
{
    char err[512] = "";
    struct tn_transport_opts to = {.backend = "sim", .dims = {3, 3, 3},
                                   .sim_dir = argc > 1 ? argv[1] : NULL};
    const struct tn_transport_ops *ops = tn_transport_find("sim");
    struct tn_transport *tr;
    if (!ops || ops->open(&tr, &to, err, sizeof err) != 0)
        return fail("sim device", err);
    struct tn_proto_opts po = {.timeout_ms = 20000};
    struct tn_proto *p;
    struct tn_info info;
    if (tn_proto_open(&p, ops, tr, &po) != 0 || tn_info_read(p, &info) != 0) {
        tn_proto_close(p);
        ops->close(tr);
        return fail("sim device", "no answer to INFO");
    }

    /* one call: build the cheapest gossip for the device's alpha, verify
     * it, lower it, predict it, load, run, read back and compare */
    struct tn_coll_req req = {.coll = TN_GOSSIP, .msg_flits = 4, .ports = 6, .seed = 1};
    struct tn_run_opts ro = {.seed = 1, .quiet = true};
    struct tn_run_report r;
    if (tn_run(p, &info, &req, NULL, &ro, &r, err, sizeof err) != 0) {
        tn_run_report_free(&r);
        tn_proto_close(p);
        ops->close(tr);
        return fail("run", err);
    }
    const struct tn_run_result *res = &r.res;
    printf("gossip %s on 3x3x3, L = %u: %llu cycles measured, %llu modelled, %llu predicted "
           "by the closed form; %u eject records, %s\n", r.b.s->algo, req.msg_flits,
           (unsigned long long)res->measured, (unsigned long long)res->model,
           (unsigned long long)r.b.formula.cycles, r.model.nstats,
           res->data_ok ? "every CRC as modelled" : "DATA WRONG");
    for (uint32_t i = 0; i < res->nmis && i < TN_RUN_MAX_LISTED; i++)
        printf("  %s: %s\n", tn_mis_kind_name(res->listed[i].kind), res->listed[i].what);
    int ok = res->data_ok && res->cycles_ok;
    tn_run_report_free(&r);
    tn_proto_close(p);
    ops->close(tr);
    return ok ? 0 : 1;
}
