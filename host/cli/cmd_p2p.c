/* SPDX-License-Identifier: MIT */
/* torusctl run p2p --sweep: every switching technique over distances
 * 1..diameter (or, --sweep=msg-flits, over message lengths up to what the
 * device's memory holds), each point a full `torusctl run p2p --json` of
 * this same program (so every point loads, runs and checks on the device
 * exactly as a single run does), gathered into a table, JSON or an SVG
 * plot of latency against distance or length (docs/switching.md). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd_dev.h"
#include "image.h"
#include "outfile.h"
#include "p2p.h"
#include "plan.h"
#include "tn_error.h"
#include "topo.h"
#include "verify.h"

#define NTECH 5

struct tech {
    const char *name, *switching;
    bool packets;
    const char *colour;
};

static const struct tech techs[NTECH] = {
    {"cs", "cs", false, "#1f77b4"},
    {"sf", "sf", false, "#d62728"},
    {"relay", "relay", false, "#2ca02c"},
    {"sf/P", "sf", true, "#ff7f0e"},
    {"relay/P", "relay", true, "#9467bd"},
};

struct point {
    unsigned tech, distance;
    uint32_t mu, P;
    int rc;
    long long measured, model, formula, lecture;
    bool data_ok, cycles_ok;
};

/* The options a point sets itself or that must not reach it (a point that
 * got --sweep would start a sweep of its own). */
static bool per_point(const char *name)
{
    static const char *const names[] = {"sweep", "json", "svg", "switching", "distance",
                                        "packet-flits", "msg-flits"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

/* A point's command line without its per-point options: argv parsed again
 * with run's own option table, so every option a user may abbreviate
 * (--swe) or write as --name=value is recognised, and each kept one is
 * written back under its full name as a single word in words[] (freed by the
 * caller). The number of words in base[], -1 when out of memory. */
static int point_base(int argc, char **argv, const struct option *opts, char **base,
                      char **words)
{
    int n = 0, nw = 0, c, li;
    base[n++] = (char *)"torusctl";
    base[n++] = argv[0];
    optind = 1;
    opterr = 0;
    while (li = -1, (c = getopt_long(argc, argv, "hI:", opts, &li)) != -1) {
        const char *name = li >= 0 ? opts[li].name : NULL;
        if (name && per_point(name))
            continue;
        size_t len = (name ? strlen(name) : 1) + (optarg ? strlen(optarg) : 0) + 4;
        char *w = malloc(len);
        if (!w)
            return -1;
        if (name)
            snprintf(w, len, "--%s%s%s", name, optarg ? "=" : "", optarg ? optarg : "");
        else
            snprintf(w, len, "-%c%s", c, optarg ? optarg : "");
        base[n++] = words[nw++] = w;
    }
    while (optind < argc)
        base[n++] = argv[optind++];
    return n;
}

/* Reads all of fd into a string (NULL when out of memory). */
static char *slurp(int fd)
{
    size_t n = 0, cap = 4096;
    char *buf = malloc(cap);
    ssize_t k;
    while (buf && (k = read(fd, buf + n, cap - n - 1)) > 0) {
        n += (size_t)k;
        if (cap - n < 2) {
            char *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    if (buf)
        buf[n] = 0;
    return buf;
}

/* Runs argv (this program) and parses its standard output as JSON; the
 * exit code in *rc (-1 if it could not run). */
static json_t *run_child(char **argv, int *rc)
{
    int fd[2];
    *rc = -1;
    if (pipe(fd))
        return NULL;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(fd[1]);
    char *out = pid > 0 ? slurp(fd[0]) : NULL;
    close(fd[0]);
    int status;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
        *rc = WEXITSTATUS(status);
    json_t *j = out ? json_loads(out, 0, NULL) : NULL;
    free(out);
    return j;
}

static long long num(json_t *o, const char *path1, const char *path2)
{
    json_t *x = json_object_get(o, path1);
    if (path2)
        x = json_object_get(x, path2);
    return json_is_integer(x) ? (long long)json_integer_value(x) : -1;
}

static void run_point(char **base, int nbase, struct point *pt)
{
    uint32_t mu = pt->mu, P = pt->P;
    char d[16], m[16], p[16];
    char *argv[64];
    int n = 0;
    for (int i = 0; i < nbase && n < 50; i++)
        argv[n++] = base[i];
    snprintf(d, sizeof d, "%u", pt->distance);
    snprintf(m, sizeof m, "%u", mu);
    snprintf(p, sizeof p, "%u", P);
    argv[n++] = (char *)"--switching";
    argv[n++] = (char *)techs[pt->tech].switching;
    argv[n++] = (char *)"--distance";
    argv[n++] = d;
    argv[n++] = (char *)"--msg-flits";
    argv[n++] = m;
    if (techs[pt->tech].packets) {
        argv[n++] = (char *)"--packet-flits";
        argv[n++] = p;
    }
    argv[n++] = (char *)"--json";
    argv[n] = NULL;
    json_t *j = run_child(argv, &pt->rc);
    pt->measured = num(j, "cycles_measured", NULL);
    pt->model = num(j, "cycles_model", NULL);
    pt->formula = num(j, "cycles_formula", NULL);
    pt->lecture = num(j, "p2p", "cycles_lecture");
    pt->data_ok = json_is_true(json_object_get(j, "data_ok"));
    pt->cycles_ok = json_is_true(json_object_get(j, "cycles_ok"));
    json_decref(j);
}

static void print_table(const struct point *pt, unsigned np, const char *dims,
                        const struct tn_p2p_sweep *sw)
{
    if (sw->by_msg)
        printf("p2p sweep on %s over message lengths: delta = %u hops, packets of P flits as "
               "listed\n", dims, np ? pt[0].distance : 0);
    else
        printf("p2p sweep on %s over distances: mu = %u payload flits, packets of P = %u "
               "flits\n", dims, np ? pt[0].mu : 0, np ? pt[np - 1].P : 0);
    printf("%-8s %5s %5s %5s %9s %7s %8s %8s %13s  %s\n", "switch", "delta", "mu", "P",
           "measured", "model", "formula", "lecture", "meas-lecture", "check");
    for (unsigned i = 0; i < np; i++) {
        const struct point *x = &pt[i];
        bool packets = techs[x->tech].packets;
        char P[16];
        snprintf(P, sizeof P, "%u", x->P);
        if (x->rc != 0 && x->measured < 0) {
            printf("%-8s %5u %5u %5s %9s %7s %8s %8s %13s  exit %d\n", techs[x->tech].name,
                   x->distance, x->mu, packets ? P : "-", "-", "-", "-", "-", "-", x->rc);
            continue;
        }
        printf("%-8s %5u %5u %5s %9lld %7lld %8lld %8lld %+13lld  %s\n", techs[x->tech].name,
               x->distance, x->mu, packets ? P : "-", x->measured, x->model, x->formula,
               x->lecture, x->measured - x->lecture,
               x->rc == 0 && x->data_ok && x->cycles_ok ? "ok" : "FAILED");
    }
}

static json_t *sweep_json(const struct point *pt, unsigned np, const struct tn_topo *t,
                          const struct tn_p2p_sweep *sw)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < np; i++) {
        const struct point *x = &pt[i];
        json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:b, "
            "s:b, s:i}", "switching", techs[x->tech].name, "distance", (json_int_t)x->distance,
            "msg_flits", (json_int_t)x->mu, "packet_flits",
            techs[x->tech].packets ? json_integer(x->P) : json_null(),
            "cycles_measured", (json_int_t)x->measured, "cycles_model", (json_int_t)x->model,
            "cycles_formula", (json_int_t)x->formula, "cycles_lecture", (json_int_t)x->lecture,
            "measured_minus_lecture", (json_int_t)(x->measured - x->lecture), "data_ok",
            x->data_ok, "cycles_ok", x->cycles_ok, "exit", x->rc));
    }
    return json_pack("{s:o, s:s, s:o}", "dims", tn_cmd_json_dims(t), "over",
                     sw->by_msg ? "msg_flits" : "distance", "points", a);
}

/* A point's position on the x axis: its distance, or log2 of its length. */
static double xpos(const struct point *x, bool by_msg)
{
    double l = 0;
    if (!by_msg)
        return x->distance;
    for (uint32_t m = x->mu; m > 1; m >>= 1)
        l += 1;
    return l + (x->mu & (x->mu - 1) ? 1.0 * x->mu / (1u << (unsigned)l) - 1 : 0);
}

struct plot {
    const struct point *pt;
    unsigned np;
    const char *dims;
    const struct tn_p2p_sweep *sw;
};

/* Latency against distance or length: a line per technique through the
 * measured points, a circle on each model value, the lecture's formula
 * dashed. */
static int write_svg(const void *ctx, FILE *f)
{
    const struct plot *pl = ctx;
    const struct point *pt = pl->pt;
    const struct tn_p2p_sweep *sw = pl->sw;
    const char *dims = pl->dims;
    unsigned np = pl->np;
    long long ymax = 1;
    double xmax = 1;
    for (unsigned i = 0; i < np; i++) {
        if (pt[i].measured > ymax)
            ymax = pt[i].measured;
        if (pt[i].lecture > ymax)
            ymax = pt[i].lecture;
        if (xpos(&pt[i], sw->by_msg) > xmax)
            xmax = xpos(&pt[i], sw->by_msg);
    }
    const int W = 640, H = 400, X0 = 60, Y0 = 350, XW = 440, YH = 310;
#define PX(x) (X0 + (int)(xpos(x, sw->by_msg) * XW / xmax))
#define PY(v) (Y0 - (int)((v) * YH / ymax))
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", W, H);
    if (sw->by_msg)
        fprintf(f, "<text x=\"%d\" y=\"20\">p2p on %s, delta = %u: cycles against message "
                   "length (line: measured, circle: model, dashed: lecture)</text>\n", X0, dims,
                np ? pt[0].distance : 0);
    else
        fprintf(f, "<text x=\"%d\" y=\"20\">p2p on %s, mu = %u: cycles against distance "
                   "(line: measured, circle: model, dashed: lecture)</text>\n", X0, dims,
                np ? pt[0].mu : 0);
    fprintf(f, "<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"#333\"/>\n", X0, Y0 - YH, Y0,
            X0 + XW);
    for (unsigned i = 0; i < np; i++) /* the first technique's points label the axis */
        if (pt[i].tech == pt[0].tech)
            fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%u</text>\n",
                    PX(&pt[i]), Y0 + 15, sw->by_msg ? pt[i].mu : pt[i].distance);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%lld</text>\n", X0 - 4, Y0 - YH + 4,
            ymax);
    fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>\n", X0 + XW / 2, Y0 + 32,
            sw->by_msg ? "mu (payload flits, log scale)" : "delta (hops)");
    for (unsigned t = 0; t < NTECH; t++) {
        for (int lecture = 0; lecture < 2; lecture++) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\"%s points=\"", techs[t].colour,
                    lecture ? " stroke-dasharray=\"4 3\"" : " stroke-width=\"2\"");
            for (unsigned i = 0; i < np; i++)
                if (pt[i].tech == t && pt[i].measured >= 0)
                    fprintf(f, "%d,%d ", PX(&pt[i]),
                            PY(lecture ? pt[i].lecture : pt[i].measured));
            fprintf(f, "\"/>\n");
        }
        for (unsigned i = 0; i < np; i++)
            if (pt[i].tech == t && pt[i].model >= 0)
                fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"none\" stroke=\"%s\"/>\n",
                        PX(&pt[i]), PY(pt[i].model), techs[t].colour);
        fprintf(f, "<text x=\"%d\" y=\"%u\" fill=\"%s\">%s</text>\n", X0 + XW + 20, 60 + 18 * t,
                techs[t].colour, techs[t].name);
    }
#undef PX
#undef PY
    fprintf(f, "</svg>\n");
    return ferror(f) ? TN_EIO : 0;
}

/* Whether technique tech with mu flits over distance fits the device
 * (info): the p2p schedule builds, verifies (memory included) and lowers,
 * as the point's run would. */
static bool fits(const struct tn_topo *t, const struct tn_info *info, unsigned tech,
                 unsigned distance, uint32_t mu)
{
    enum tn_switching sw;
    tn_switching_parse(techs[tech].switching, &sw);
    struct tn_p2p_opts o = {sw, 0, distance, mu,
                            techs[tech].packets ? tn_p2p_sweep_packet(mu, t->n) : 0, info->alpha};
    struct tn_verify_opts vo = {info->lanes, info->mem_depth, 1, false};
    struct tn_plan_params par = tn_info_plan_params(info);
    struct tn_sched *s;
    struct tn_p2p_info in;
    struct tn_report rep;
    struct tn_plan *p = NULL;
    char err[256];
    if (tn_p2p_build(&s, t, &o, &in) != 0)
        return false;
    bool ok = tn_verify(s, &vo, &rep) == 0;
    tn_report_free(&rep);
    ok = ok && tn_plan_lower(&p, s, &par, err, sizeof err) == 0;
    tn_plan_free(p);
    tn_sched_free(s);
    return ok;
}

/* The largest mu in 1..MEM_DEPTH that fits (0: none), by bisection. */
static uint32_t largest_mu(const struct tn_topo *t, const struct tn_info *info, unsigned tech,
                           unsigned distance)
{
    uint32_t lo = 0, hi = info->mem_depth ? info->mem_depth : 1u << 16;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (fits(t, info, tech, distance, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The points of a sweep over message lengths: 1, 2, 4, .. below each
 * technique's largest and the largest. The device is opened for its
 * parameters and closed again before the points run. np, or (message
 * printed) -1 when the device cannot be opened, -2 for a bad distance. */
static int msg_points(struct tn_dev_args *da, const struct tn_p2p_sweep *sw, struct point **out)
{
    struct tn_dev dev;
    if (tn_dev_open(&dev, da, "torusctl run") != 0)
        return -1;
    struct tn_info info = dev.info;
    struct tn_topo t;
    tn_topo_init(&t, info.dims[0], info.dims[1], info.dims[2]);
    tn_dev_close(&dev);
    da->dims = t;
    unsigned d = sw->distance ? sw->distance : tn_diameter(&t), np = 0;
    if (d > tn_diameter(&t)) {
        fprintf(stderr, "torusctl run: --distance %u: use 1..%u, the diameter of %ux%ux%u\n", d,
                tn_diameter(&t), t.dim[0], t.dim[1], t.dim[2]);
        return -2;
    }
    struct point *pt = calloc((size_t)NTECH * 34, sizeof *pt);
    if (!pt) {
        fprintf(stderr, "torusctl run: out of memory\n");
        return -1;
    }
    for (unsigned k = 0; k < NTECH; k++) {
        uint32_t top = largest_mu(&t, &info, k, d);
        for (uint32_t mu = 1; mu <= top; mu = mu < top && 2 * mu > top ? top : 2 * mu) {
            uint32_t P = techs[k].packets ? tn_p2p_sweep_packet(mu, t.n) : mu;
            pt[np++] = (struct point){.tech = k, .distance = d, .mu = mu, .P = P};
            if (mu == top)
                break;
        }
    }
    *out = pt;
    return (int)np;
}

/* The points of a sweep over distances 1..diameter at one mu. */
static int distance_points(const struct tn_topo *t, const struct tn_p2p_sweep *sw,
                           struct point **out)
{
    unsigned np = 0, diam = tn_diameter(t);
    uint32_t P = sw->P == 0 || sw->P >= sw->mu ? tn_p2p_sweep_packet(sw->mu, t->n) : sw->P;
    struct point *pt = calloc((size_t)NTECH * (diam + 1), sizeof *pt);
    if (!pt) {
        fprintf(stderr, "torusctl run: out of memory\n");
        return -1;
    }
    for (unsigned k = 0; k < NTECH; k++)
        for (unsigned d = 1; d <= diam; d++)
            pt[np++] = (struct point){.tech = k, .distance = d, .mu = sw->mu,
                                      .P = techs[k].packets ? P : sw->mu};
    *out = pt;
    return (int)np;
}

int cmd_run_p2p_sweep(int argc, char **argv, const struct option *opts, struct tn_dev_args *da,
                      const struct tn_p2p_sweep *sw)
{
    char **base = malloc(((size_t)argc + 2) * sizeof *base);
    char **words = calloc((size_t)argc + 1, sizeof *words);
    struct point *pt = NULL;
    char dims[32];
    int nbase = base && words ? point_base(argc, argv, opts, base, words) : -1, ret = TN_EXIT_OK;
    int np = nbase < 0 ? -1 : sw->by_msg ? msg_points(da, sw, &pt) : distance_points(&da->dims, sw, &pt);
    if (nbase < 0)
        fprintf(stderr, "torusctl run: out of memory\n");
    if (np < 0) {
        ret = nbase < 0 || np == -2 ? TN_EXIT_USAGE : TN_EXIT_DEVICE;
        goto out;
    }
    tn_topo_format(&da->dims, dims, sizeof dims);
    for (int i = 0; i < np; i++) {
        run_point(base, nbase, &pt[i]);
        if (pt[i].rc != 0 && ret == TN_EXIT_OK)
            ret = pt[i].rc > 0 ? pt[i].rc : TN_EXIT_DEVICE;
    }
    if (!tn_cmd_json_stdout(&sw->json))
        print_table(pt, (unsigned)np, dims, sw);
    if (sw->json.on &&
        tn_cmd_json_emit("torusctl run", &sw->json, sweep_json(pt, (unsigned)np, &da->dims, sw)))
        ret = TN_EXIT_USAGE;
    struct plot pl = {pt, (unsigned)np, dims, sw};
    if (sw->svg && tn_write_file(sw->svg, write_svg, &pl)) {
        fprintf(stderr, "torusctl run: cannot write %s: %s\n", sw->svg, strerror(errno));
        ret = TN_EXIT_USAGE;
    }
out:
    for (int i = 0; words && words[i]; i++)
        free(words[i]);
    free(words);
    free(base);
    free(pt);
    return ret;
}
