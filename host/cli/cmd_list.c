/* SPDX-License-Identifier: MIT */
/* torusctl list: FTDI boards on the USB bus, with bus:dev and serial. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "usb.h"

#define CMD "torusctl list"

static void help(FILE *f)
{
    fprintf(f,
        "usage: torusctl list [--device VID:PID] [--json]\n"
        "List the FT2232H-class boards (iCEBreaker, iCE40-HX8K breakout) found on\n"
        "the USB bus with their bus:dev and serial, for --busdev and --device.\n\n"
        "  --device VID:PID  only this vid:pid (default: 0403:6010, 6011, 6014)\n"
        "  --json            one JSON array\n"
        "  --help            this text\n"
        "exit codes: 0 ok (also when none is found), 1 usage, 2 USB error\n");
}

int cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"device", required_argument, NULL, 'D'}, {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int vid = 0, pid = 0, c;
    bool json = false;
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
            json = true;
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
    return tn_usb_list_print(stdout, vid, pid, json) == 0 ? TN_EXIT_OK : TN_EXIT_DEVICE;
}
