/* SPDX-License-Identifier: MIT */
/* FTDI board discovery for `torusctl list` and the option parsers shared by
 * the CLI and the usb transport (transport_usb.c). Boards are found through
 * libftdi1 over libusb-1.0; the usb transport opens one of them (interface B
 * by default, as wired on iCEBreaker and the iCE40-HX8K breakout). */
#ifndef TN_USB_H
#define TN_USB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The FT2232H's factory VID:PID, the default selection. */
#define TN_USB_DEFAULT_VID 0x0403
#define TN_USB_DEFAULT_PID 0x6010
/* Default line rate: 12 Mbaud, the FT2232H maximum, i.e. 4 clocks per bit
 * of the FPGA's 48 MHz UART (docs/usb.md). */
#define TN_USB_DEFAULT_BAUD 12000000
/* Latency timer (ms): how long the chip holds a partly filled packet. */
#define TN_USB_LATENCY_MS 1

/* One FTDI chip found on the bus. */
struct tn_usb_board {
    int vid, pid;             /* USB IDs */
    int bus, dev;             /* libusb bus number and device address */
    char chip[16];            /* "FT2232H", "FT4232H", "FT232H", "FT2232C/D", ... */
    char manufacturer[64];    /* "" when it could not be read */
    char description[128];    /* product string, "" when it could not be read */
    char serial[64];          /* "" when the chip has none or it could not be read */
    int strings_rc;           /* 0, or TN_EACCES/TN_EIO when the strings were unreadable */
};

/* Find FTDI multi-channel / H-class boards. vid == 0 && pid == 0 searches the
 * FT2232H-class IDs 0403:6010, 0403:6011 and 0403:6014; otherwise exactly
 * vid:pid. Fills at most max entries of boards (which may be NULL when max is
 * 0) in bus:dev order and returns the number found (possibly more than max),
 * or a negative TN_E* code with a message in err. */
int tn_usb_list(struct tn_usb_board *boards, size_t max, int vid, int pid,
                char *err, size_t errlen);

/* `torusctl list`: print one line per board to out, or a line saying none
 * was found; with json, one JSON array. 0 or TN_E* (message on stderr). */
int tn_usb_list_print(FILE *out, int vid, int pid, bool json);

/* "VID:PID" or "VID:PID:SERIAL" (hex IDs, as lsusb prints them). serial may
 * be NULL when the caller does not accept one; otherwise it receives the
 * serial ("" when absent). 0 or TN_EINVAL. */
int tn_usb_parse_device(const char *s, int *vid, int *pid,
                        char *serial, size_t seriallen);
/* "BUS:DEV" (decimal, as lsusb prints them, leading zeros allowed). */
int tn_usb_parse_busdev(const char *s, int *bus, int *dev);
/* "A" or "B" (case-insensitive) -> 1 or 2 (tn_transport_opts.interface; 0 there means the default, B). */
int tn_usb_parse_interface(const char *s, int *interface);

#endif
