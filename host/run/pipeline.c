/* SPDX-License-Identifier: MIT */
/* The whole run as one call (run.h: tn_run): build, verify, lower,
 * predict, compile, load, run, read back and judge. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "run.h"
#include "tn_error.h"

/* A protocol error, in err with the device's own words. */
static int device_fail(struct tn_proto *dev, int rc, struct tn_run_report *rep, char *err,
                       size_t errlen)
{
    rep->device_failed = true;
    if (rc == TN_EINTR)
        return tn_errf(err, errlen, rc, "interrupted: the run stopped and the device is closed");
    return tn_errf(err, errlen, rc, "device error: %s", tn_proto_errmsg(dev));
}

/* Flits times hops of every stream: what the links carry. */
static uint64_t flit_hops(const struct tn_sched *s)
{
    uint64_t h = 0;
    for (uint32_t r = 0; r < s->nrounds; r++) {
        const struct tn_round *rd = &s->rounds[r];
        for (uint32_t c = 0; c < rd->ncirc; c++)
            h += tn_circuit_flits(s, &rd->circ[c]) * rd->circ[c].narcs;
        for (uint32_t i = 0; i < rd->nrelay; i++)
            h += tn_relay_flits(s, &rd->relay[i]) * tn_relay_path(&s->topo, &rd->relay[i], NULL, 0);
    }
    return h;
}

int tn_run_set_link_fault(struct tn_proto *dev, const struct tn_link_fault *f, uint32_t round,
                          uint32_t rcyc)
{
    bool drop = f != NULL && f->bit == TN_FAULT_DROP;
    uint32_t words[3] = {round | rcyc << 16, f != NULL && !drop ? 1u << f->bit : 0,
                         f != NULL ? 1u | (uint32_t)f->dir << 1 | (uint32_t)drop << 4 : 0};
    return tn_proto_write(dev, TN_ADDR_NODE(f != NULL ? f->node : 0, TN_REGION_FAULT, 0), words,
                          3);
}

/* The schedule: built from req or s; verified; within the device's
 * memory; lowered; predicted by the model. */
static int prepare(const struct tn_info *info, const struct tn_coll_req *req,
                   struct tn_sched *s, uint64_t seed, struct tn_run_report *rep, char *err,
                   size_t errlen)
{
    int rc;
    if (s) {
        tn_coll_from_sched(&rep->b, s);
    } else {
        struct tn_topo t;
        tn_topo_init(&t, info->dims[0], info->dims[1], info->dims[2]);
        if ((rc = tn_coll_build(req, &t, info->lanes, info->alpha, &rep->b, err, errlen)) != 0)
            return rc;
    }
    s = rep->b.s;
    struct tn_verify_opts vo = {info->lanes, 0, 20, s->coll == TN_PERM};
    rc = tn_verify(s, &vo, &rep->verify);
    if (rc == TN_EVERIFY)
        return tn_errf(err, errlen, rc, "the schedule fails verification (%u violations)",
                    rep->verify.nviol);
    if (rc != 0)
        return tn_errf(err, errlen, rc, "cannot verify the schedule: %s", tn_strerror(rc));
    if (rep->verify.mem_max_words > info->mem_depth)
        return tn_errf(err, errlen, TN_ECAPACITY, "%" PRIu64 " flit memory words a node, more than "
                    "the device's %u (MEM_DEPTH)", rep->verify.mem_max_words, info->mem_depth);
    const struct tn_bounds *bd = &rep->verify.bounds;
    rep->lower = (uint64_t)bd->rounds * info->alpha + bd->dsum + bd->tsum;
    struct tn_plan_params par = tn_info_plan_params(info);
    char why[400];
    rc = tn_plan_lower(&rep->plan, s, &par, why, sizeof why);
    if (rc != 0)
        return tn_errf(err, errlen, rc, "cannot lower the schedule to this device: %s", why);
    rc = tn_model_run(rep->plan, seed, TN_ENGINE_AUTO, &rep->model);
    if (rc != 0)
        return tn_errf(err, errlen, rc, "reference model failed: %s", tn_strerror(rc));
    if (rep->b.built && rep->b.coll == TN_PERM)
        rep->b.x.perm.relay_lost = rep->model.errors;
    return 0;
}

/* The image, with a deliberate fault in it or placed on its link. */
static int compile(const struct tn_info *info, const struct tn_run_opts *o,
                   struct tn_run_report *rep, char *err, size_t errlen)
{
    int rc = tn_image_compile(&rep->image, rep->plan, info, o->seed, err, errlen);
    const struct tn_fault *f = o->fault;
    if (rc != 0 || f == NULL || f->kind == TN_FAULT_NONE)
        return rc;
    if (f->kind == TN_FAULT_LINK) {
        if (!info->fault)
            return tn_errf(err, errlen, TN_ENOTSUP, "this device has no link fault injection "
                        "(PARAMS bit 17, FAULT = 1: the simulator models)");
        return tn_link_fault_place(rep->plan, info->w, &f->link, &rep->fault_round,
                                   &rep->fault_rcyc, err, errlen);
    }
    rc = tn_fault_apply(&rep->image, f, rep->plan);
    if (rc == TN_ENOTSUP)
        return tn_errf(err, errlen, TN_EINVAL, "--fault duration:%u: round %u lasts %u cycles, "
                    "the device's shortest; one cycle short runs as long, so nothing would "
                    "change (name a longer round)", f->arg, f->arg, TN_ROUND_MIN);
    if (rc != 0)
        return tn_errf(err, errlen, TN_EINVAL, "--fault names nothing in this image (node without "
                    "initial data, no such round, or rounds:N not below the schedule's %u "
                    "rounds)", rep->plan->nrounds);
    return 0;
}

/* Run the loaded image, read it back, judge it against the closed form. */
static int execute(struct tn_proto *dev, const struct tn_info *info,
                   const struct tn_run_opts *o, struct tn_run_report *rep, char *err,
                   size_t errlen)
{
    const struct tn_fault *f = o->fault;
    struct tn_run_result *res = &rep->res;
    int rc = 0;
    if (f && f->kind == TN_FAULT_LINK)
        rc = tn_run_set_link_fault(dev, &f->link, rep->fault_round, rep->fault_rcyc);
    if (rc == 0)
        rc = tn_run_execute(dev, info, rep->plan, &rep->model, res, o->quiet, rep->tm + 3);
    if (rc == TN_ENOMEM)
        return tn_errf(err, errlen, rc, "out of memory");
    if (rc != 0)
        return device_fail(dev, rc, rep, err, errlen);
    if (res->status & 8) {
        rep->device_failed = true;
        return tn_errf(err, errlen, TN_EIO, "the run was aborted");
    }
    res->flit_hops = flit_hops(rep->b.s);
    const struct tn_coll_built *b = &rep->b;
    if (b->have_formula && b->formula.cycles != res->model) {
        res->cycles_ok = false;
        tn_run_add_mismatch(res, TN_MIS_CLOSED_FORM, UINT32_MAX, UINT32_MAX, UINT32_MAX,
                            "the model's %" PRIu64 " cycles differ from the closed form's %"
                            PRIu64, res->model, b->formula.cycles);
    }
    return 0;
}

static void stage_done(const struct tn_run_opts *o, enum tn_run_stage st,
                       const struct tn_run_report *rep)
{
    if (o->on_stage)
        o->on_stage(o->ctx, st, rep);
}

int tn_run(struct tn_proto *dev, const struct tn_info *info, const struct tn_coll_req *req,
           struct tn_sched *s, const struct tn_run_opts *o, struct tn_run_report *rep,
           char *err, size_t errlen)
{
    memset(rep, 0, sizeof *rep);
    double t = tn_now_s();
    int rc = prepare(info, req, s, o->seed, rep, err, errlen);
    rep->tm[0] = tn_now_s() - t;
    if (rc != 0)
        return rc;
    stage_done(o, TN_STAGE_PREPARED, rep);
    t = tn_now_s();
    rc = compile(info, o, rep, err, errlen);
    rep->tm[1] = tn_now_s() - t;
    if (rc != 0)
        return rc;
    stage_done(o, TN_STAGE_COMPILED, rep);
    t = tn_now_s();
    uint32_t clear = TN_CTRL_CLEAR;
    rc = tn_proto_write(dev, TN_G_CTRL, &clear, 1);
    if (rc == 0)
        rc = tn_run_load(dev, &rep->image, o->quiet);
    rep->tm[2] = tn_now_s() - t;
    if (rc != 0)
        return device_fail(dev, rc, rep, err, errlen);
    if (tn_run_result_init(&rep->res, rep->plan, &rep->model) != 0)
        return tn_errf(err, errlen, TN_ENOMEM, "out of memory");
    stage_done(o, TN_STAGE_LOADED, rep);
    if (o->load_only)
        return 0;
    rc = execute(dev, info, o, rep, err, errlen);
    if (rc == 0)
        stage_done(o, TN_STAGE_RAN, rep);
    return rc;
}

void tn_run_report_free(struct tn_run_report *rep)
{
    tn_run_result_free(&rep->res);
    tn_image_free(&rep->image);
    tn_model_free(&rep->model);
    tn_plan_free(rep->plan);
    tn_report_free(&rep->verify);
    tn_coll_built_free(&rep->b);
    memset(rep, 0, sizeof *rep);
}
