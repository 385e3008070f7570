/* SPDX-License-Identifier: MIT */
/* torusctl run p2p --sweep: every switching technique over distances
 * 1..diameter, each point a full `torusctl run p2p --json` of this same
 * program (so every point loads, runs and checks on the device exactly as
 * a single run does), gathered into a table, JSON or an SVG plot of
 * latency against distance (docs/switching.md). */
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
#include "p2p.h"
#include "topo.h"

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

static void run_point(char **base, int nbase, struct point *pt, uint32_t mu, uint32_t P)
{
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

static void print_table(const struct point *pt, unsigned np, const char *dims, uint32_t mu,
                        uint32_t P)
{
    printf("p2p sweep on %s: mu = %u payload flits, packets of P = %u flits\n", dims, mu, P);
    printf("%-8s %5s %9s %7s %8s %8s %13s  %s\n", "switch", "delta", "measured", "model",
           "formula", "lecture", "meas-lecture", "check");
    for (unsigned i = 0; i < np; i++) {
        const struct point *x = &pt[i];
        if (x->rc != 0 && x->measured < 0) {
            printf("%-8s %5u %9s %7s %8s %8s %13s  exit %d\n", techs[x->tech].name, x->distance,
                   "-", "-", "-", "-", "-", x->rc);
            continue;
        }
        printf("%-8s %5u %9lld %7lld %8lld %8lld %+13lld  %s\n", techs[x->tech].name, x->distance,
               x->measured, x->model, x->formula, x->lecture, x->measured - x->lecture,
               x->rc == 0 && x->data_ok && x->cycles_ok ? "ok" : "FAILED");
    }
}

static void print_json(const struct point *pt, unsigned np, const char *dims, uint32_t mu,
                       uint32_t P)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < np; i++) {
        const struct point *x = &pt[i];
        json_array_append_new(a, json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:b, s:i}",
            "switching", techs[x->tech].name, "distance", (json_int_t)x->distance,
            "cycles_measured", (json_int_t)x->measured, "cycles_model", (json_int_t)x->model,
            "cycles_formula", (json_int_t)x->formula, "cycles_lecture", (json_int_t)x->lecture,
            "measured_minus_lecture", (json_int_t)(x->measured - x->lecture), "data_ok",
            x->data_ok, "cycles_ok", x->cycles_ok, "exit", x->rc));
    }
    json_t *o = json_pack("{s:s, s:I, s:I, s:o}", "dims", dims, "msg_flits", (json_int_t)mu,
                          "packet_flits", (json_int_t)P, "points", a);
    json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    printf("\n");
    json_decref(o);
}

/* Latency against distance: a line per technique through the measured
 * points, a circle on each model value, the lecture's formula dashed. */
static int write_svg(const char *path, const struct point *pt, unsigned np, unsigned diam,
                     const char *dims, uint32_t mu, uint32_t P)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    long long ymax = 1;
    for (unsigned i = 0; i < np; i++) {
        if (pt[i].measured > ymax)
            ymax = pt[i].measured;
        if (pt[i].lecture > ymax)
            ymax = pt[i].lecture;
    }
    const int W = 640, H = 400, X0 = 60, Y0 = 350, XW = 440, YH = 310;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", W, H);
    fprintf(f, "<text x=\"%d\" y=\"20\">p2p on %s, mu = %u, P = %u: cycles against distance "
               "(line: measured, circle: model, dashed: lecture)</text>\n", X0, dims, mu, P);
    fprintf(f, "<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"#333\"/>\n", X0, Y0 - YH, Y0,
            X0 + XW);
    for (unsigned d = 1; d <= diam; d++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%u</text>\n",
                X0 + (int)(d * XW / diam), Y0 + 15, d);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%lld</text>\n", X0 - 4, Y0 - YH + 4,
            ymax);
    fprintf(f, "<text x=\"%d\" y=\"%d\">delta (hops)</text>\n", X0 + XW / 2, Y0 + 32);
    for (unsigned t = 0; t < NTECH; t++) {
        for (int lecture = 0; lecture < 2; lecture++) {
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\"%s points=\"", techs[t].colour,
                    lecture ? " stroke-dasharray=\"4 3\"" : " stroke-width=\"2\"");
            for (unsigned i = 0; i < np; i++)
                if (pt[i].tech == t && pt[i].measured >= 0)
                    fprintf(f, "%d,%d ", X0 + (int)(pt[i].distance * XW / diam),
                            Y0 - (int)((lecture ? pt[i].lecture : pt[i].measured) * YH / ymax));
            fprintf(f, "\"/>\n");
        }
        for (unsigned i = 0; i < np; i++)
            if (pt[i].tech == t && pt[i].model >= 0)
                fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"none\" stroke=\"%s\"/>\n",
                        X0 + (int)(pt[i].distance * XW / diam),
                        Y0 - (int)(pt[i].model * YH / ymax), techs[t].colour);
        fprintf(f, "<text x=\"%d\" y=\"%u\" fill=\"%s\">%s</text>\n", X0 + XW + 20, 60 + 18 * t,
                techs[t].colour, techs[t].name);
    }
    fprintf(f, "</svg>\n");
    return fclose(f) ? -1 : 0;
}

int cmd_run_p2p_sweep(int argc, char **argv, const struct option *opts, const struct tn_topo *t,
                      uint32_t mu, uint32_t P, const char *svg, bool json)
{
    char **base = malloc(((size_t)argc + 2) * sizeof *base);
    char **words = calloc((size_t)argc + 1, sizeof *words);
    struct point *pt = calloc((size_t)NTECH * (tn_diameter(t) + 1), sizeof *pt);
    char dims[32];
    int nbase = base && words ? point_base(argc, argv, opts, base, words) : -1, ret = TN_EXIT_OK;
    if (nbase < 0 || !pt) {
        for (int i = 0; words && words[i]; i++)
            free(words[i]);
        free(words);
        free(base);
        free(pt);
        fprintf(stderr, "torusctl run: out of memory\n");
        return TN_EXIT_USAGE;
    }
    tn_topo_format(t, dims, sizeof dims);
    unsigned np = 0, diam = tn_diameter(t);
    if (P == 0 || P >= mu)
        P = tn_p2p_sweep_packet(mu, t->n);
    for (unsigned k = 0; k < NTECH; k++)
        for (unsigned d = 1; d <= diam; d++) {
            pt[np] = (struct point){.tech = k, .distance = d};
            run_point(base, nbase, &pt[np], mu, P);
            if (pt[np].rc != 0 && ret == TN_EXIT_OK)
                ret = pt[np].rc > 0 ? pt[np].rc : TN_EXIT_DEVICE;
            np++;
        }
    if (json)
        print_json(pt, np, dims, mu, P);
    else
        print_table(pt, np, dims, mu, P);
    if (svg && write_svg(svg, pt, np, diam, dims, mu, P)) {
        fprintf(stderr, "torusctl run: cannot write %s: %s\n", svg, strerror(errno));
        ret = TN_EXIT_USAGE;
    }
    for (int i = 0; words[i]; i++)
        free(words[i]);
    free(words);
    free(base);
    free(pt);
    return ret;
}
