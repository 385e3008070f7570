/* SPDX-License-Identifier: MIT */
/* torusctl subcommands: one file per command (cmd_<name>.c), listed in the
 * table of torusctl.c. Each gets argv starting at its own name and returns
 * an exit code. */
#ifndef TN_CMD_H
#define TN_CMD_H

#include <stdbool.h>
#include <stdint.h>

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
/* torusctl run p2p --sweep (cmd_p2p.c): every technique over distances
 * 1..diameter of t, each point a child `torusctl run p2p --json` with the
 * other options of argv, parsed with run's option table opts. */
struct option;
struct tn_topo;
int cmd_run_p2p_sweep(int argc, char **argv, const struct option *opts, const struct tn_topo *t,
                      uint32_t mu, uint32_t P, const char *svg, bool json);

/* Parse an unsigned decimal option value in [lo, hi]; false if invalid. */
bool tn_cmd_uint(const char *s, unsigned long lo, unsigned long hi, unsigned long *out);
/* A time limit in seconds, 0 < S <= 3600; false (with a message naming cmd)
 * when s is not one. */
bool tn_cmd_seconds(const char *cmd, const char *s, double *out);

#endif
