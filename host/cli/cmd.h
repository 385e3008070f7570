/* SPDX-License-Identifier: MIT */
/* torusctl subcommands: one file per command (cmd_<name>.c), listed in the
 * table of torusctl.c. Each gets argv starting at its own name and returns
 * an exit code. */
#ifndef TN_CMD_H
#define TN_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* iceprog-style exit codes */
enum {
    TN_EXIT_OK = 0,
    TN_EXIT_USAGE = 1,   /* usage or file error */
    TN_EXIT_DEVICE = 2,  /* device or communication error */
    TN_EXIT_VERIFY = 3,  /* verification failed */
    TN_EXIT_INTERRUPTED = 130, /* Ctrl-C (SIGINT) or SIGTERM: stopped cleanly */
};

/* Command flags. */
enum {
    TN_CMD_NEEDS_DEVICE = 1,
};

struct tn_cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    unsigned flags;
    const char *summary;
};

int cmd_schedule(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_cdg(int argc, char **argv);
int cmd_routing(int argc, char **argv);
struct json_t;
/* --json[=FILE], the same in every command: off, on standard output (no
 * FILE, or "-"; the text report then stays off standard output) or into
 * FILE (written whole, outfile.h; the text report still prints). */
struct tn_cmd_json {
    bool on;
    const char *file;
};
#define TN_CMD_JSON_HELP \
    "  --json[=FILE]     the report as one JSON object on stdout, or in FILE\n" \
    "                    (the text report then on stdout as usual)\n"
void tn_cmd_json_opt(struct tn_cmd_json *j, const char *optarg);
/* Whether the JSON goes to standard output. */
bool tn_cmd_json_stdout(const struct tn_cmd_json *j);
/* Write o (consumed; NULL is out of memory) as the report: 0, or
 * TN_EXIT_USAGE with a message naming cmd and the file. */
int tn_cmd_json_emit(const char *cmd, const struct tn_cmd_json *j, struct json_t *o);

/* torusctl run p2p --sweep[=distance|msg-flits] (cmd_p2p.c): every
 * technique over distances 1..diameter at one message length, or over
 * message lengths 1, 2, 4, .. up to what the device's memory holds at one
 * distance; each point a child `torusctl run p2p --json` with the other
 * options of argv, parsed with run's option table opts. */
struct option;
struct tn_dev_args;
struct tn_p2p_sweep {
    bool by_msg;        /* over msg-flits (else over distance) */
    unsigned distance;  /* by_msg: the distance (0: the diameter) */
    uint32_t mu, P;     /* by distance: the message and packet length (P 0: default) */
    const char *svg;
    struct tn_cmd_json json;
};
int cmd_run_p2p_sweep(int argc, char **argv, const struct option *opts, struct tn_dev_args *da,
                      const struct tn_p2p_sweep *sw);

/* --svg-rows SEL for a diagram of t at alpha into *o (SEL NULL: all
 * links); false, with a message prefixed by cmd, when SEL is not all,
 * node:N or dim:X|Y|Z of t. */
struct tn_svg_opts;
struct tn_topo;
bool tn_cmd_svg_opts(const char *cmd, const char *sel, const struct tn_topo *t, unsigned alpha,
                     struct tn_svg_opts *o);

/* t's dims as the JSON array [X, Y, Z] (the one form of every command's
 * JSON and of schedule files); NULL when out of memory. */
struct json_t;
struct json_t *tn_cmd_json_dims(const struct tn_topo *t);


/* The algorithms of every collective that has several, one line each
 * ("gossip: dp, dp-long, ..."), indented for a --help text. */
void tn_cmd_print_algos(FILE *f);

/* torusctl -q (0), default (1), -v (2): -q drops progress lines and
 * notes, -v adds tn_cmd_note's lines. */
extern int tn_cmd_verbosity;
/* A line on stderr, prefixed by cmd, only with -v. */
void tn_cmd_note(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parse an unsigned decimal option value in [lo, hi]; false if invalid. */
bool tn_cmd_uint(const char *s, unsigned long lo, unsigned long hi, unsigned long *out);
/* A time limit in seconds, 0 < S <= 3600; false (with a message naming cmd)
 * when s is not one. */
bool tn_cmd_seconds(const char *cmd, const char *s, double *out);

#endif
