/* SPDX-License-Identifier: MIT */
/* A program of its own on the installed libtorus: the gossip on the
 * simulated 3x3x3 torus, as `torusctl run gossip --dims 3x3x3` does it in
 * outline. It opens the device (the Verilator model through the sim
 * transport: the same frames a board receives), builds the cheapest
 * schedule for the device's alpha, verifies it, lowers it to the device's
 * tables, predicts every eject record with the reference model, loads the
 * image, runs it and compares every record and the measured cycles
 * (run.h).
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
    if (tn_proto_open(&p, ops, tr, &po) != 0 || tn_info_read(p, &info) != 0)
        return fail("sim device", "no answer to INFO");

    struct tn_topo t;
    tn_topo_init(&t, info.dims[0], info.dims[1], info.dims[2]);
    struct tn_algo_opts ao = {.msg_flits = 4, .ports = 6, .alpha = info.alpha};
    struct tn_sched *s;
    struct tn_report rep;
    int rc = tn_build(&s, TN_GOSSIP, &t, &ao);
    if (rc != 0)
        return fail("schedule", tn_strerror(rc));
    if (tn_verify(s, NULL, &rep) != 0)
        return fail("schedule", "verification failed");

    struct tn_plan_params par = tn_info_plan_params(&info);
    struct tn_plan *plan;
    struct tn_model_out mo;
    struct tn_image img = {0};
    if (tn_plan_lower(&plan, s, &par, err, sizeof err) != 0)
        return fail("plan", err);
    if (tn_model_run(plan, 1, TN_ENGINE_AUTO, &mo) != 0)
        return fail("model", "out of memory");
    if (tn_image_compile(&img, plan, &info, 1, err, sizeof err) != 0)
        return fail("image", err);

    /* load, run, read every eject record back and compare it with the model */
    struct tn_run_result res;
    double tm[2];
    uint32_t clear = TN_CTRL_CLEAR;
    if (tn_run_result_init(&res, plan, &mo) != 0 || tn_proto_write(p, TN_G_CTRL, &clear, 1) != 0 ||
        tn_run_load(p, &img, true) != 0 || tn_run_execute(p, &info, plan, &mo, &res, true, tm) != 0)
        return fail("device", tn_proto_errmsg(p));
    printf("gossip %s on 3x3x3, L = %u: %llu cycles measured, %llu modelled, %llu predicted; "
           "%u eject records, %s\n", s->algo, ao.msg_flits, (unsigned long long)res.measured,
           (unsigned long long)res.model, (unsigned long long)rep.cost.cycles, mo.nstats,
           res.data_ok ? "every CRC as modelled" : "DATA WRONG");
    for (uint32_t i = 0; i < res.nmis && i < TN_RUN_MAX_LISTED; i++)
        printf("  %s: %s\n", tn_mis_kind_name(res.listed[i].kind), res.listed[i].what);
    int ok = res.data_ok && res.cycles_ok;
    tn_run_result_free(&res);
    tn_image_free(&img);
    tn_model_free(&mo);
    tn_plan_free(plan);
    tn_report_free(&rep);
    tn_sched_free(s);
    tn_proto_close(p);
    ops->close(tr);
    return ok ? 0 : 1;
}
