/* SPDX-License-Identifier: MIT */
/* An emulated FTDI FT2232H on umockdev, for testing the usb transport and
 * `torusctl --backend usb` through the unmodified libftdi1/libusb code paths
 * without a board (design in docs/usb.md).
 *
 * The emulator adds USB devices (sysfs attributes, a descriptors file and a
 * /dev/bus/usb/BBB/DDD node) to a umockdev testbed and answers the usbdevfs
 * ioctls on that node: control transfers (standard descriptor requests and
 * the FTDI vendor requests: reset/purge, baud rate, line properties, flow
 * control, latency timer, bit mode, modem status), bulk OUT (host -> chip)
 * and bulk IN (chip -> host, two modem-status bytes at the head of every
 * 512-byte packet; a status-only packet when no data arrived within the
 * latency timer).
 *
 * The device side of each channel (A, B) is a pair of callbacks, the two
 * directions of the UART between the FT2232H and the FPGA:
 *   host_to_dev: the bytes the host wrote (they leave the chip on TXD);
 *   dev_to_host: up to cap bytes the FPGA has sent (arriving on RXD),
 *                polled while the host has a bulk IN transfer pending.
 * Both run on umockdev's ioctl thread, never concurrently with each other
 * or with another callback of the same emulator; they must not call back
 * into this API. A Verilator model plugs in by feeding host_to_dev bytes to
 * the bridge's byte FIFO and, in dev_to_host, clocking the model a bounded
 * number of cycles and returning what the bridge emitted.
 *
 * The process must run with libumockdev-preload loaded: call
 * ft_emu_reexec(argv) first thing in main(). */
#ifndef FT2232H_EMU_H
#define FT2232H_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ft_emu;       /* a testbed holding any number of chips */
struct ft_emu_chip;  /* one emulated FT2232H */

/* The FPGA side of one channel. */
struct ft_emu_port {
    void (*host_to_dev)(void *user, const uint8_t *buf, size_t len);
    size_t (*dev_to_host)(void *user, uint8_t *buf, size_t cap);
    void *user;
};

/* What the host configured on one channel (read back by tests). */
struct ft_emu_chan_state {
    bool claimed;          /* interface claimed by an open handle */
    int baud;              /* decoded from SET_BAUDRATE (AN232B-05/AN_120); 0: never set */
    int latency_ms;        /* latency timer (chip default 16) */
    int bitmode;           /* SET_BITMODE mode byte (0 = reset: UART) */
    int flow;              /* SET_FLOW_CTRL high byte (0 = none) */
    int line;              /* SET_DATA value (8N1 = 0x0008) */
    unsigned resets;       /* SIO_RESET with value 0 */
    unsigned purges_rx;    /* purges of the chip -> host buffer */
    unsigned purges_tx;    /* purges of the host -> chip buffer */
    uint64_t bytes_out;    /* bytes received on bulk OUT (host -> device) */
    uint64_t bytes_in;     /* data bytes sent on bulk IN (device -> host) */
    uint64_t status_only;  /* bulk IN packets that carried no data */
};

/* Re-execute the program under libumockdev-preload unless it already runs
 * there (also tells ASan to accept the preload's position). Returns only
 * when already in the mock environment (0) or on failure (-1, message on
 * stderr). */
int ft_emu_reexec(char **argv);

/* A fresh, empty testbed (sets $UMOCKDEV_DIR for this process). NULL on
 * failure with a message on stderr. */
struct ft_emu *ft_emu_new(void);
/* Remove every chip and the testbed. */
void ft_emu_free(struct ft_emu *e);

/* Run argv[0] (searched in PATH) as a child process that sees this
 * testbed's devices (LD_PRELOAD of libumockdev-preload, $UMOCKDEV_DIR),
 * serving its usbdevfs ioctls from this process's callbacks until it
 * exits; e.g. the unmodified `torusctl run gossip --backend usb`. Returns
 * the child's exit status (128 + signal if killed), or -1 if it could not
 * be started (message on stderr). */
int ft_emu_spawn(struct ft_emu *e, char *const argv[]);

/* Add a chip at bus:dev (1..127 each) with the given serial string (NULL:
 * the chip has no serial, as on boards without an EEPROM) and product
 * string (NULL: "Dual RS232-HS"). vid/pid 0 mean 0403:6010. */
struct ft_emu_chip *ft_emu_add(struct ft_emu *e, int bus, int dev,
                               uint16_t vid, uint16_t pid,
                               const char *serial, const char *product);

/* Connect channel (0 = A, 1 = B) to a device model. Unconnected channels
 * swallow writes and never send data (status-only packets). */
void ft_emu_connect(struct ft_emu_chip *c, int channel, const struct ft_emu_port *p);

/* Connect channel to another transport (include/torus/transport.h) as the FPGA:
 * what the host writes is written to t; dev_to_host reads t with a 1 ms
 * timeout (the sim transport advances its model while it waits). With the
 * sim transport this puts the Verilated torus behind the emulated chip,
 * so `torusctl --backend usb` runs against the model (ft_emu_run -m sim:).
 * t stays owned by the caller and must outlive the connection. */
struct tn_transport;
struct tn_transport_ops;
void ft_emu_connect_transport(struct ft_emu_chip *c, int channel,
                              const struct tn_transport_ops *ops, struct tn_transport *t);

/* Make the chip stop completing bulk IN and OUT transfers (a wedged chip:
 * libusb's own timeouts fire), or resume. */
void ft_emu_set_wedged(struct ft_emu_chip *c, bool wedged);

/* Unplug the chip when *flag becomes true (set by a port callback, which
 * may not call this API): from then on every usbdevfs ioctl on its node
 * fails with ENODEV, as after a real disconnect. NULL: never. */
void ft_emu_set_unplug_flag(struct ft_emu_chip *c, const volatile bool *flag);

/* Pace both directions of the UART at the configured baud rate (8N1, 10
 * bits per byte) behind the chip's 4 KiB buffers, as the wire would: bulk
 * OUT transfers wait for room in the TX buffer, bulk IN transfers end when
 * full or at the latency timer. Off by default (tests run unpaced). */
void ft_emu_set_paced(struct ft_emu_chip *c, bool paced);

/* chmod the emulated /dev node (e.g. 0 to provoke a permission error). */
int ft_emu_set_node_mode(struct ft_emu_chip *c, mode_t mode);

/* The emulated device node path, "/dev/bus/usb/BBB/DDD". */
const char *ft_emu_devnode(const struct ft_emu_chip *c);

/* Copy of what the host configured on channel. */
void ft_emu_get_state(struct ft_emu_chip *c, int channel, struct ft_emu_chan_state *s);

#endif
