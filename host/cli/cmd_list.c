/* SPDX-License-Identifier: MIT */
/* torusctl list: FTDI boards on the USB bus, with bus:dev and serial. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "outfile.h"
#include "tn_error.h"
#include "usb.h"

#define CMD "torusctl list"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl list [--device VID:PID] [--json[=FILE]]\n"
        "List the FT2232H-class boards (iCEBreaker, iCE40-HX8K breakout) found on\n"
        "the USB bus with their bus:dev and serial, for --busdev and --device.\n\n"
        "  --device VID:PID  only this vid:pid (default: 0403:6010, 6011, 6014)\n"
        "  --json[=FILE]     one JSON array on stdout, or in FILE (the table then on\n"
        "                    stdout as usual)\n"
        "  --help            this text\n"
        "exit codes: 0 ok (also when none is found), 1 usage, 2 USB error\n");
}

/* The boards of one vendor:product (0: any). */
struct list_filter {
    int vid, pid;
};

static int list_json(const void *ctx, FILE *f)
{
    const struct list_filter *w = ctx;
    return tn_usb_list_print(f, w->vid, w->pid, true) == 0 ? 0 : TN_EIO;
}

int cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"device", required_argument, NULL, 'D'}, {"json", optional_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int vid = 0, pid = 0, c;
    struct tn_cmd_json json = {false, NULL};
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'D':
            if (tn_usb_parse_device(optarg, &vid, &pid, NULL, 0) != 0) {
                fprintf(stderr, CMD ": bad --device '%s': use vid:pid in hex, e.g. 0403:6010\n",
                        optarg);
                return TN_EXIT_USAGE;
            }
            break;
        case 'j':
            tn_cmd_json_opt(&json, optarg);
            break;
        case 'h':
            help(stdout);
            return TN_EXIT_OK;
        default:
            fprintf(stderr, CMD ": unknown or incomplete option '%s': see " CMD " --help\n",
                    argv[optind - 1]);
            return TN_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, CMD ": unexpected argument '%s'\n", argv[optind]);
        return TN_EXIT_USAGE;
    }
    struct list_filter want = {vid, pid};
    if (json.file) {
        int rc = tn_write_file(json.file, list_json, &want);
        if (rc != 0) {
            fprintf(stderr, CMD ": cannot write %s: %s\n", json.file,
                    rc == TN_EIO ? strerror(errno) : tn_strerror(rc));
            return rc == TN_EIO ? TN_EXIT_USAGE : TN_EXIT_DEVICE;
        }
    }
    return tn_usb_list_print(stdout, vid, pid, tn_cmd_json_stdout(&json)) == 0 ? TN_EXIT_OK
                                                                             : TN_EXIT_DEVICE;
}
