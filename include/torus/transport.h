/* SPDX-License-Identifier: MIT */
/* Byte-stream transports to a torus device behind one function table:
 * sim (Verilator model through the host bridge's byte FIFO), usb (FTDI
 * FT2232H via libftdi1/libusb-1.0) and serial (a tty). The framed protocol
 * (proto.h) runs on top of any of them. */
#ifndef TN_TRANSPORT_H
#define TN_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

/* MEM_DEPTH (flit words a node) of the simulator models make builds
 * (sim/tn_sim_build.sh); torusctl schedule warns above it. */
#define TN_SIM_MEM_DEPTH 4096

struct tn_transport_opts {
    const char *backend;   /* "sim" (default), "usb", "serial" */
    /* sim */
    unsigned dims[3];      /* geometry of the model to load */
    unsigned lanes;        /* 0 or 6: the LANES=6 model; 1: the _l1 model */
    const char *sim_dir;   /* where models live (NULL: $TN_SIM_DIR or build/sim) */
    const char *trace;     /* FST waveform file or NULL */
    /* usb */
    int vid, pid;          /* 0: the FT2232H default 0403:6010 */
    const char *serial;    /* NULL: any */
    int bus, dev;          /* 0: any */
    int interface;         /* 0 = default (B, as wired on the boards), 1 = A, 2 = B */
    int baud;              /* 0: default */
    /* serial */
    const char *port;      /* tty path */
};

struct tn_transport;

struct tn_transport_ops {
    const char *name;
    /* Open; on failure return a TN_E* code and write a message to err. */
    int (*open)(struct tn_transport **t, const struct tn_transport_opts *o,
                char *err, size_t errlen);
    /* Write all len bytes; 0 or TN_E*. */
    int (*write)(struct tn_transport *t, const uint8_t *buf, size_t len);
    /* Read up to len bytes, waiting at most timeout_ms for the first one:
     * number of bytes read (0 on timeout) or TN_E*. */
    int (*read)(struct tn_transport *t, uint8_t *buf, size_t len, int timeout_ms);
    void (*close)(struct tn_transport *t);
    /* Optional (NULL where it means nothing, as on a board): network
     * clocks the device has simulated since open. */
    uint64_t (*net_cycles)(struct tn_transport *t);
    /* Optional: what the last failed write or read met, for the user
     * ("usb 001/004 interface B: the board was unplugged; replug it"), or
     * "" when nothing failed. */
    const char *(*error)(struct tn_transport *t);
};

/* The backend named name, or NULL. */
const struct tn_transport_ops *tn_transport_find(const char *name);

#endif
