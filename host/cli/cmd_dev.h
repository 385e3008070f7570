/* SPDX-License-Identifier: MIT */
/* Device selection shared by the commands that talk to a device (run,
 * info, dump): options, opening the transport and the protocol client. */
#ifndef TN_CMD_DEV_H
#define TN_CMD_DEV_H

#include <getopt.h>
#include <stdbool.h>

#include "proto.h"
#include "topo.h"
#include "transport.h"

struct tn_dev_args {
    struct tn_transport_opts t;
    char serial[64];
    int timeout_ms;           /* per protocol attempt; 0: backend default */
    bool board_named;         /* --device/--busdev/--port given */
    struct tn_topo dims;      /* --dims (default 7x7x7): the sim model to load */
    bool dims_given;
};

/* Option codes of the device options (getopt_long vals). */
enum {
    TN_OPT_BACKEND = 0x1000, TN_OPT_DEVICE, TN_OPT_BUSDEV, TN_OPT_BAUD,
    TN_OPT_PORT, TN_OPT_LANES, TN_OPT_TIMEOUT, TN_OPT_SIM_DIR, TN_OPT_TRACE,
    TN_OPT_DIMS, TN_OPT_ROUNDS,
};
#define TN_DEV_LONGOPTS                                                    \
    {"dims", required_argument, NULL, TN_OPT_DIMS},                        \
    {"help", no_argument, NULL, 'h'},                                      \
    {"backend", required_argument, NULL, TN_OPT_BACKEND},                  \
    {"device", required_argument, NULL, TN_OPT_DEVICE},                    \
    {"busdev", required_argument, NULL, TN_OPT_BUSDEV},                    \
    {"interface", required_argument, NULL, 'I'},                           \
    {"baud", required_argument, NULL, TN_OPT_BAUD},                        \
    {"port", required_argument, NULL, TN_OPT_PORT},                        \
    {"lanes", required_argument, NULL, TN_OPT_LANES},                      \
    {"rounds", required_argument, NULL, TN_OPT_ROUNDS}, /* gone: says so */ \
    {"timeout", required_argument, NULL, TN_OPT_TIMEOUT},                  \
    {"sim-dir", required_argument, NULL, TN_OPT_SIM_DIR},                  \
    {"trace", required_argument, NULL, TN_OPT_TRACE}

/* Help text of the device options. */
extern const char tn_dev_help[];

void tn_dev_args_init(struct tn_dev_args *a);
/* Handle option c (with optarg) if it is a device option (--dims
 * included): 1 handled, 0 not a device option, -1 bad value (message
 * printed, prefixed by cmd). */
int tn_dev_arg(struct tn_dev_args *a, int c, const char *arg, const char *cmd);
/* For the default branch of a command's option loop: says which option
 * was not understood and returns TN_EXIT_USAGE. */
int tn_cmd_bad_option(const char *cmd, char **argv);

/* The option loop of a device command: getopt_long over argv with opts
 * (short options "hI:"), the device options into a (tn_dev_arg), every
 * other one to each(ctx, c, optarg), which returns 0 or an exit code and
 * sets *done after --help. 0 when all are parsed (optind at the first
 * argument), else the exit code. */
struct option;
int tn_dev_getopt(int argc, char **argv, const struct option *opts, struct tn_dev_args *a,
                  const char *cmd, int (*each)(void *ctx, int c, char **argv, bool *done),
                  void *ctx, bool *done);

struct tn_dev {
    const struct tn_transport_ops *ops;
    struct tn_transport *t;
    struct tn_proto *p;
    struct tn_info info;
};

/* Open the backend (sim: the model for a->dims) and read INFO. Returns an
 * exit code (0, or TN_EXIT_DEVICE with a message on stderr). */
int tn_dev_open(struct tn_dev *d, struct tn_dev_args *a, const char *cmd);
void tn_dev_close(struct tn_dev *d);
/* Print what node holds on d (torusctl dump): status, round settings,
 * descriptor lists with their eject records and, when mcount > 0, mcount
 * flit memory words from mfirst; as text and/or JSON (json). An exit code
 * (a failure said on stderr: device error, out of memory, the JSON not
 * written). */
struct tn_cmd_json;
int tn_dump_node(struct tn_dev *d, uint32_t node, uint32_t mfirst, uint32_t mcount,
                 const struct tn_cmd_json *json);

#endif
