/* SPDX-License-Identifier: MIT */
/* torusctl: a thin git-style subcommand table over libtorus. */
#include <errno.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "cmd.h"
#include "image.h"
#include "outfile.h"
#include "sched.h"
#include "svg.h"
#include "tn_error.h"
#include "tn_version.h"

static const struct tn_cmd commands[] = {
    {"schedule", cmd_schedule, 0, "compute a collective schedule and its cost"},
    {"verify", cmd_verify, 0, "verify a schedule file (exit 3 on a violation)"},
    {"run", cmd_run, TN_CMD_NEEDS_DEVICE,
     "run a collective on the device (default: simulated) and check it"},
    {"info", cmd_info, TN_CMD_NEEDS_DEVICE, "print the device's constants"},
    {"list", cmd_list, 0, "list the FTDI boards on the USB bus"},
    {"dump", cmd_dump, TN_CMD_NEEDS_DEVICE, "print one node's state on the device"},
    {"cdg", cmd_cdg, 0, "check a routing function for deadlock (exit 3 on a cycle)"},
    {"routing", cmd_routing, 0, "interval routing depth: tree stretch, minimal ring tables"},
};

bool tn_cmd_uint(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return false;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool tn_cmd_seconds(const char *cmd, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0 && v <= 3600)) {
        fprintf(stderr, "%s: bad --time '%s': use seconds, 0 < S <= 3600\n", cmd, s);
        return false;
    }
    *out = v;
    return true;
}

json_t *tn_cmd_json_dims(const struct tn_topo *t)
{
    return json_pack("[i, i, i]", t->dim[0], t->dim[1], t->dim[2]);
}

void tn_cmd_print_algos(FILE *f)
{
    for (int c = 0; c < TN_COLL_COUNT; c++) {
        const char *const *n = tn_algo_names((enum tn_coll)c);
        if (!*n)
            continue;
        fprintf(f, "                    %s: %s", tn_coll_name((enum tn_coll)c), *n);
        while (*++n)
            fprintf(f, ", %s", *n);
        fprintf(f, "\n");
    }
}

void tn_cmd_json_opt(struct tn_cmd_json *j, const char *optarg)
{
    j->on = true;
    j->file = optarg && strcmp(optarg, "-") != 0 ? optarg : NULL;
}

bool tn_cmd_json_stdout(const struct tn_cmd_json *j)
{
    return j->on && !j->file;
}

static int write_json(const void *o, FILE *f)
{
    return json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', f) != EOF
               ? 0 : TN_EIO;
}

int tn_cmd_json_emit(const char *cmd, const struct tn_cmd_json *j, json_t *o)
{
    const char *path = j->file ? j->file : "-";
    int rc = o ? tn_write_file(path, write_json, o) : TN_ENOMEM;
    json_decref(o);
    if (rc == 0)
        return TN_EXIT_OK;
    fprintf(stderr, "%s: cannot write the JSON report to %s: %s\n", cmd,
            j->file ? j->file : "standard output", rc == TN_EIO ? strerror(errno) : tn_strerror(rc));
    return TN_EXIT_USAGE;
}

bool tn_cmd_svg_opts(const char *cmd, const char *sel, const struct tn_topo *t, unsigned alpha,
                     struct tn_svg_opts *o)
{
    o->alpha = alpha;
    if (tn_svg_rows_parse(sel ? sel : "all", t, o) == 0)
        return true;
    fprintf(stderr, "%s: bad --svg-rows '%s': use all, node:N (0..%u) or dim:X|Y|Z (a dimension "
            "of size > 1)\n", cmd, sel, t->n - 1);
    return false;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: torusctl [-q|-v] <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n  -q, --quiet    no progress lines or notes on stderr (errors still)\n"
               "  -v, --verbose  also each stage of a run as it happens, with its figures\n"
               "\n'torusctl <command> --help' describes a command; 'torusctl --version' "
               "the build.\n"
               "exit codes: 0 ok, 1 usage or file error, 2 device error, "
               "3 verification failed\n");
}

int tn_cmd_verbosity = 1;

void tn_cmd_note(const char *cmd, const char *fmt, ...)
{
    if (tn_cmd_verbosity < 2)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int main(int argc, char **argv)
{
    /* -q / -v before the command */
    for (; argc > 1; argc--, argv++) {
        if (strcmp(argv[1], "-q") == 0 || strcmp(argv[1], "--quiet") == 0)
            tn_cmd_verbosity = 0;
        else if (strcmp(argv[1], "-v") == 0 || strcmp(argv[1], "--verbose") == 0)
            tn_cmd_verbosity = 2;
        else
            break;
    }
    if (argc < 2) {
        usage(stderr);
        return TN_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0) {
        printf("torusctl %s (loads design version %u; `torusctl info` prints the device's)\n",
               TN_BUILD_VERSION, TN_DESIGN_VERSION >> 16);
        return TN_EXIT_OK;
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        if (argc > 2 && strcmp(name, "help") == 0) {
            char help[] = "--help";
            char *args[] = {argv[2], help, NULL};
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (strcmp(commands[i].name, argv[2]) == 0)
                    return commands[i].fn(2, args);
        }
        usage(stdout);
        return TN_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "torusctl: unknown command '%s': see torusctl --help\n", name);
    return TN_EXIT_USAGE;
}
