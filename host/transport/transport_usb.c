/* SPDX-License-Identifier: MIT */
/* The usb transport: libftdi1 over libusb-1.0 to one channel of an FTDI
 * FT2232H in UART mode (8N1, no flow control), and board discovery for
 * `torusctl list`. Selection and permissions are described in docs/usb.md. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ftdi.h>
#include <libusb.h>

#include "clock.h"
#include "tn_error.h"
#include "transport.h"
#include "usb.h"

/* How to fix a permission error; named in every EACCES message. */
#define UDEV_HINT "install the udev rule scripts/60-torus.rules " \
    "(sudo make install-udev), then replug the board"

/* Shortest libusb timeout for a bulk IN transfer (ms), 50 latency periods. */
#define USB_TIMEOUT_FLOOR_MS 50

/* The open channel. Handed out as a struct tn_transport pointer. */
struct usb_port {
    struct ftdi_context *ftdi;
    char where[64];       /* "usb 001/004 interface B", for messages */
    char err[256];        /* the last failure (usb_error) */
};

static const char *chip_name(unsigned bcd_device)
{
    switch (bcd_device) {
    case 0x0200: return "FT232AM/BM";
    case 0x0400: return "FT232BM";
    case 0x0500: return "FT2232C/D";
    case 0x0600: return "FT232R";
    case 0x0700: return "FT2232H";
    case 0x0800: return "FT4232H";
    case 0x0900: return "FT232H";
    case 0x1000: return "FT-X";
    default:     return "FTDI";
    }
}

/* ---- option parsers ---------------------------------------------------- */

static int parse_hex16(const char *s, size_t n, int *out)
{
    char buf[8];
    char *end;
    if (n == 0 || n > 4)
        return TN_EINVAL;
    memcpy(buf, s, n);
    buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)buf[i]))
            return TN_EINVAL;
    *out = (int)strtol(buf, &end, 16);
    return 0;
}

int tn_usb_parse_device(const char *s, int *vid, int *pid,
                        char *serial, size_t seriallen)
{
    const char *c1, *c2;
    if (s == NULL || (c1 = strchr(s, ':')) == NULL)
        return TN_EINVAL;
    c2 = strchr(c1 + 1, ':');
    size_t pidlen = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
    if (parse_hex16(s, (size_t)(c1 - s), vid) || parse_hex16(c1 + 1, pidlen, pid))
        return TN_EINVAL;
    if (serial != NULL && seriallen > 0)
        serial[0] = '\0';
    if (c2 != NULL) {
        if (serial == NULL || c2[1] == '\0' || strlen(c2 + 1) >= seriallen)
            return TN_EINVAL;
        strcpy(serial, c2 + 1);
    }
    return 0;
}

static int parse_dec(const char *s, size_t n, int lo, int hi, int *out)
{
    int v = 0;
    if (n == 0 || n > 3)
        return TN_EINVAL;
    for (size_t i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return TN_EINVAL;
        v = v * 10 + (s[i] - '0');
    }
    if (v < lo || v > hi)
        return TN_EINVAL;
    *out = v;
    return 0;
}

int tn_usb_parse_busdev(const char *s, int *bus, int *dev)
{
    const char *c = s ? strchr(s, ':') : NULL;
    if (c == NULL)
        return TN_EINVAL;
    if (parse_dec(s, (size_t)(c - s), 1, 255, bus) ||
        parse_dec(c + 1, strlen(c + 1), 1, 127, dev))
        return TN_EINVAL;
    return 0;
}

int tn_usb_parse_interface(const char *s, int *interface)
{
    if (s == NULL || s[0] == '\0' || s[1] != '\0')
        return TN_EINVAL;
    switch (toupper((unsigned char)s[0])) {
    case 'A': *interface = 1; return 0;
    case 'B': *interface = 2; return 0;
    default:  return TN_EINVAL;
    }
}

/* ---- discovery --------------------------------------------------------- */

/* A board and the libusb device it was found as (one reference held). */
struct found {
    struct tn_usb_board b;
    libusb_device *dev;
};

static int cmp_found(const void *a, const void *b)
{
    const struct found *x = a, *y = b;
    if (x->b.bus != y->b.bus)
        return x->b.bus - y->b.bus;
    return x->b.dev - y->b.dev;
}

/* libusb_open() error -> TN_E* (libusb is asked directly because libftdi
 * reports every open failure as -4). */
static int probe_open(libusb_device *dev)
{
    libusb_device_handle *h;
    int rc = libusb_open(dev, &h);
    if (rc == 0) {
        libusb_close(h);
        return 0;
    }
    if (rc == LIBUSB_ERROR_ACCESS)
        return TN_EACCES;
    if (rc == LIBUSB_ERROR_NO_DEVICE || rc == LIBUSB_ERROR_NOT_FOUND)
        return TN_ENODEV;
    return TN_EIO;
}

/* Every device of vid:pid (vid == pid == 0: the default set) appended to
 * *out (grown with realloc). Strings are read when read_strings. */
static int find_boards(struct ftdi_context *ftdi, int vid, int pid,
                       bool read_strings, struct found **out, size_t *n,
                       char *err, size_t errlen)
{
    static const int default_pids[] = { 0x6010, 0x6011, 0x6014 };
    int pids[3];
    size_t npids;

    if (vid == 0 && pid == 0) {
        npids = 3;
        for (size_t i = 0; i < npids; i++)
            pids[i] = default_pids[i];
        vid = TN_USB_DEFAULT_VID;
    } else {
        npids = 1;
        pids[0] = pid;
    }
    for (size_t p = 0; p < npids; p++) {
        struct ftdi_device_list *list = NULL;
        int cnt = ftdi_usb_find_all(ftdi, &list, vid, pids[p]);
        if (cnt < 0) {
            tn_errf(err, errlen, 0, "cannot list usb devices: %s (is usbfs available?)",
                ftdi_get_error_string(ftdi));
            return TN_EIO;
        }
        for (struct ftdi_device_list *l = list; l != NULL; l = l->next) {
            struct libusb_device_descriptor desc;
            struct found *grown = realloc(*out, (*n + 1) * sizeof **out);
            if (grown == NULL) {
                ftdi_list_free(&list);
                tn_errf(err, errlen, 0, "out of memory listing usb devices");
                return TN_ENOMEM;
            }
            *out = grown;
            struct found *f = &(*out)[*n];
            memset(f, 0, sizeof *f);
            f->dev = libusb_ref_device(l->dev);
            (*n)++;
            f->b.vid = vid;
            f->b.pid = pids[p];
            f->b.bus = libusb_get_bus_number(l->dev);
            f->b.dev = libusb_get_device_address(l->dev);
            if (libusb_get_device_descriptor(l->dev, &desc) == 0) {
                snprintf(f->b.chip, sizeof f->b.chip, "%s", chip_name(desc.bcdDevice));
                f->b.vid = desc.idVendor;
                f->b.pid = desc.idProduct;
            } else {
                snprintf(f->b.chip, sizeof f->b.chip, "FTDI");
            }
            if (!read_strings)
                continue;
            if (ftdi_usb_get_strings(ftdi, l->dev,
                                     f->b.manufacturer, sizeof f->b.manufacturer,
                                     f->b.description, sizeof f->b.description,
                                     f->b.serial, sizeof f->b.serial) < 0) {
                /* Keep what is known; say why the rest is missing. A chip
                 * without a serial string makes libftdi fail too: then
                 * the open succeeds and the strings are just absent. */
                int prc = probe_open(l->dev);
                f->b.strings_rc = prc ? prc : 0;
                if (prc) {
                    f->b.manufacturer[0] = f->b.description[0] = '\0';
                    f->b.serial[0] = '\0';
                }
            }
        }
        ftdi_list_free(&list);
    }
    if (*n > 1)
        qsort(*out, *n, sizeof **out, cmp_found);
    return 0;
}

static void free_found(struct found *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        libusb_unref_device(f[i].dev);
    free(f);
}

int tn_usb_list(struct tn_usb_board *boards, size_t max, int vid, int pid,
                char *err, size_t errlen)
{
    struct ftdi_context *ftdi = ftdi_new();
    struct found *f = NULL;
    size_t n = 0;
    int rc;

    if (ftdi == NULL) {
        tn_errf(err, errlen, 0, "cannot initialise libftdi/libusb (is usbfs available?)");
        return TN_EIO;
    }
    rc = find_boards(ftdi, vid, pid, true, &f, &n, err, errlen);
    if (rc == 0) {
        for (size_t i = 0; i < n && i < max; i++)
            boards[i] = f[i].b;
        rc = n > INT_MAX ? INT_MAX : (int)n;
    }
    free_found(f, n);
    ftdi_free(ftdi);
    return rc;
}

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

int tn_usb_list_print(FILE *out, int vid, int pid, bool json)
{
    char err[256] = "";
    int n = tn_usb_list(NULL, 0, vid, pid, err, sizeof err);
    struct tn_usb_board *b;
    bool denied = false;

    if (n < 0) {
        fprintf(stderr, "torusctl: %s\n", err);
        return n;
    }
    b = calloc(n > 0 ? (size_t)n : 1, sizeof *b);
    if (b == NULL)
        return TN_ENOMEM;
    n = tn_usb_list(b, (size_t)n, vid, pid, err, sizeof err);
    if (n < 0) {
        fprintf(stderr, "torusctl: %s\n", err);
        free(b);
        return n;
    }
    if (json) {
        fputc('[', out);
        for (int i = 0; i < n; i++) {
            fprintf(out, "%s{\"vid\":\"%04x\",\"pid\":\"%04x\",\"bus\":%d,\"dev\":%d,"
                    "\"chip\":", i ? "," : "", b[i].vid, b[i].pid, b[i].bus, b[i].dev);
            json_str(out, b[i].chip);
            fputs(",\"serial\":", out);
            json_str(out, b[i].serial);
            fputs(",\"description\":", out);
            json_str(out, b[i].description);
            fprintf(out, ",\"readable\":%s}", b[i].strings_rc ? "false" : "true");
        }
        fputs("]\n", out);
    } else if (n == 0) {
        fprintf(out, "no FTDI boards found (looked for %s)\n",
                vid || pid ? "the given vid:pid" : "0403:6010, 0403:6011, 0403:6014");
    } else {
        fprintf(out, "%-9s  %-7s  %-9s  %-16s  %s\n",
                "VID:PID", "BUS:DEV", "CHIP", "SERIAL", "DESCRIPTION");
        for (int i = 0; i < n; i++) {
            char vp[16], bd[16];
            snprintf(vp, sizeof vp, "%04x:%04x", b[i].vid, b[i].pid);
            snprintf(bd, sizeof bd, "%03d:%03d", b[i].bus, b[i].dev);
            fprintf(out, "%-9s  %-7s  %-9s  %-16s  %s\n", vp, bd, b[i].chip,
                    b[i].strings_rc == TN_EACCES ? "?" : b[i].serial[0] ? b[i].serial : "-",
                    b[i].strings_rc == TN_EACCES ? "(permission denied)" : b[i].description);
            denied |= b[i].strings_rc == TN_EACCES;
        }
        if (denied)
            fprintf(stderr, "torusctl: some boards could not be opened: " UDEV_HINT "\n");
    }
    free(b);
    return 0;
}

/* ---- the transport ----------------------------------------------------- */

static void describe(char *buf, size_t len, const struct found *f)
{
    snprintf(buf, len, "  %04x:%04x  bus:dev %03d:%03d  serial %s  %s\n",
             f->b.vid, f->b.pid, f->b.bus, f->b.dev,
             f->b.strings_rc == TN_EACCES ? "? (permission denied)" :
             f->b.serial[0] ? f->b.serial : "-", f->b.description);
}

/* Pick exactly one board for the options, or say why not. */
static int select_board(struct ftdi_context *ftdi, const struct tn_transport_opts *o,
                        int vid, int pid, libusb_device **dev, struct tn_usb_board *sel,
                        char *err, size_t errlen)
{
    struct found *f = NULL;
    size_t n = 0, nmatch = 0, ndenied = 0;
    const char *want_serial = o->serial && o->serial[0] ? o->serial : NULL;
    bool want_busdev = o->bus > 0 || o->dev > 0;
    char sel_desc[96], cands[1024] = "";
    int rc;

    /* Strings are needed to match a serial and to name candidates. */
    rc = find_boards(ftdi, vid, pid, true, &f, &n, err, errlen);
    if (rc)
        return rc;
    snprintf(sel_desc, sizeof sel_desc, "%04x:%04x%s%s", vid, pid,
             want_serial ? " serial " : "", want_serial ? want_serial : "");
    if (want_busdev) {
        size_t l = strlen(sel_desc);
        snprintf(sel_desc + l, sizeof sel_desc - l, " at bus:dev %03d:%03d", o->bus, o->dev);
    }
    for (size_t i = 0; i < n; i++) {
        bool match = true;
        if (o->bus > 0 && f[i].b.bus != o->bus)
            match = false;
        if (o->dev > 0 && f[i].b.dev != o->dev)
            match = false;
        if (match && want_serial) {
            if (f[i].b.strings_rc == TN_EACCES) {
                ndenied++;
                match = false;
            } else if (strcmp(f[i].b.serial, want_serial) != 0) {
                match = false;
            }
        }
        if (!match)
            continue;
        if (nmatch == 0) {
            *dev = libusb_ref_device(f[i].dev);
            *sel = f[i].b;
        }
        nmatch++;
        size_t l = strlen(cands);
        describe(cands + l, sizeof cands - l, &f[i]);
    }
    if (nmatch == 1) {
        rc = 0;
    } else if (nmatch > 1) {
        libusb_unref_device(*dev);
        *dev = NULL;
        tn_errf(err, errlen, 0, "%zu boards match %s; refusing to guess, choose one with "
            "--busdev BUS:DEV or --device %04x:%04x:SERIAL:\n%s",
            nmatch, sel_desc, vid, pid, cands);
        rc = TN_EBUSY;
    } else if (ndenied > 0) {
        tn_errf(err, errlen, 0, "permission denied reading the serial of %zu %04x:%04x "
            "board(s), so none could be matched to %s: " UDEV_HINT,
            ndenied, vid, pid, want_serial);
        rc = TN_EACCES;
    } else {
        cands[0] = '\0';
        for (size_t i = 0; i < n; i++) {
            size_t l = strlen(cands);
            describe(cands + l, sizeof cands - l, &f[i]);
        }
        tn_errf(err, errlen, 0, "no usb board %s found: plug in the board or check "
            "`torusctl list`%s%s", sel_desc,
            n ? "; these do not match:\n" : " (no FTDI device present)", cands);
        rc = TN_ENODEV;
    }
    free_found(f, n);
    return rc;
}

static void usb_close(struct tn_transport *t);

/* Why ftdi_usb_open_dev failed with frc on the board b at path: the
 * message in err, the code returned. */
static int open_failure(struct usb_port *u, libusb_device *dev, int frc,
                        const struct tn_usb_board *b, const char *path, char ifc, char *err,
                        size_t errlen)
{
    int prc = probe_open(dev);
    if (frc == -4 && prc == TN_EACCES) {
        tn_errf(err, errlen, 0, "permission denied on %s (%04x:%04x): " UDEV_HINT, path, b->vid,
            b->pid);
        return TN_EACCES;
    }
    if (frc == -4 && prc == TN_ENODEV) {
        tn_errf(err, errlen, 0, "%s disappeared while opening it: replug the board", path);
        return TN_ENODEV;
    }
    if (frc == -5) {
        tn_errf(err, errlen, 0, "cannot claim interface %c of %s: another program "
            "(or the ftdi_sio driver) holds it; close it and retry", ifc, path);
        return TN_EIO;
    }
    tn_errf(err, errlen, 0, "cannot open %s interface %c: %s", path, ifc,
        ftdi_get_error_string(u->ftdi));
    return TN_EIO;
}

/* UART mode, 8N1 at baud, no flow control, short latency, empty FIFOs;
 * a write times out when a chunk could have drained twice. */
static int setup_uart(struct usb_port *u, int baud, char *err, size_t errlen)
{
    if (ftdi_set_bitmode(u->ftdi, 0, BITMODE_RESET) < 0) {
        tn_errf(err, errlen, 0, "cannot set UART mode on %s: %s", u->where,
            ftdi_get_error_string(u->ftdi));
        return TN_EIO;
    }
    if (ftdi_set_baudrate(u->ftdi, baud) < 0) {
        tn_errf(err, errlen, 0, "cannot set %d baud on %s: %s (the FT2232H reaches "
            "12000000; rates must be within 5%% of 12 MHz/n or 3 MHz/n)", baud,
            u->where, ftdi_get_error_string(u->ftdi));
        return TN_EINVAL;
    }
    if (ftdi_set_line_property(u->ftdi, BITS_8, STOP_BIT_1, NONE) < 0 ||
        ftdi_setflowctrl(u->ftdi, SIO_DISABLE_FLOW_CTRL) < 0 ||
        ftdi_set_latency_timer(u->ftdi, TN_USB_LATENCY_MS) < 0 ||
        ftdi_tcioflush(u->ftdi) < 0) {
        tn_errf(err, errlen, 0, "cannot configure %s: %s", u->where,
            ftdi_get_error_string(u->ftdi));
        return TN_EIO;
    }
    /* One write chunk must drain through the UART (twice over, plus a
     * second of slack) before a write counts as timed out. */
    u->ftdi->usb_write_timeout = 1000 + (int)(2LL * 4096 * 10 * 1000 / baud);
    return 0;
}

static int usb_open(struct tn_transport **t, const struct tn_transport_opts *o,
                    char *err, size_t errlen)
{
    struct usb_port *u;
    struct tn_usb_board b = { 0 };
    libusb_device *dev = NULL;
    int vid = o->vid ? o->vid : TN_USB_DEFAULT_VID;
    int pid = o->pid ? o->pid : TN_USB_DEFAULT_PID;
    int baud = o->baud ? o->baud : TN_USB_DEFAULT_BAUD;
    char ifc = o->interface == 1 ? 'A' : 'B';
    char path[32];
    int rc, frc;

    *t = NULL;
    if (o->interface < 0 || o->interface > 2) {
        tn_errf(err, errlen, 0, "bad usb interface %d: use A or B", o->interface);
        return TN_EINVAL;
    }
    if (baud < 0) {
        tn_errf(err, errlen, 0, "bad baud rate %d", baud);
        return TN_EINVAL;
    }
    u = calloc(1, sizeof *u);
    if (u == NULL || (u->ftdi = ftdi_new()) == NULL) {
        free(u);
        tn_errf(err, errlen, 0, "cannot initialise libftdi/libusb");
        return TN_ENOMEM;
    }
    if (ftdi_set_interface(u->ftdi, o->interface == 1 ? INTERFACE_A : INTERFACE_B) < 0) {
        tn_errf(err, errlen, 0, "cannot select interface %c: %s", ifc,
            ftdi_get_error_string(u->ftdi));
        rc = TN_EINVAL;
        goto out_free;
    }
    rc = select_board(u->ftdi, o, vid, pid, &dev, &b, err, errlen);
    if (rc)
        goto out_free;
    snprintf(path, sizeof path, "/dev/bus/usb/%03d/%03d", b.bus, b.dev);
    snprintf(u->where, sizeof u->where, "usb %03d:%03d interface %c", b.bus, b.dev, ifc);

    frc = ftdi_usb_open_dev(u->ftdi, dev);
    if (frc < 0) {
        rc = open_failure(u, dev, frc, &b, path, ifc, err, errlen);
        goto out_free;
    }
    if ((rc = setup_uart(u, baud, err, errlen)))
        goto out_close;
    libusb_unref_device(dev);
    *t = (struct tn_transport *)u;
    return 0;

out_close:
    ftdi_usb_close(u->ftdi);
out_free:
    if (dev)
        libusb_unref_device(dev);
    ftdi_free(u->ftdi);
    free(u);
    return rc;
}

/* Is the chip still there? libftdi reports every failed bulk write as
 * -1, so ask with a GET_STATUS control request. */
static bool usb_gone(struct usb_port *u)
{
    uint8_t st[2];
    return libusb_control_transfer(u->ftdi->usb_dev, 0x80, 0x00, 0, 0, st, 2, 100) ==
           LIBUSB_ERROR_NO_DEVICE;
}

static int usb_err(struct usb_port *u, const char *what, int rc)
{
    if (rc == LIBUSB_ERROR_NO_DEVICE || usb_gone(u)) {
        tn_errf(u->err, sizeof u->err, 0, "%s: %s failed: the board was unplugged; replug it",
            u->where, what);
        return TN_ENODEV;
    }
    tn_errf(u->err, sizeof u->err, 0, "%s: %s failed: %s (%s)", u->where, what, libusb_strerror(rc),
        ftdi_get_error_string(u->ftdi));
    return TN_EIO;
}

static const char *usb_error(struct tn_transport *t)
{
    return ((struct usb_port *)t)->err;
}

static int usb_write(struct tn_transport *t, const uint8_t *buf, size_t len)
{
    struct usb_port *u = (struct usb_port *)t;
    while (len > 0) {
        int chunk = len > 65536 ? 65536 : (int)len;
        int64_t t0 = tn_now_ms();
        int n = ftdi_write_data(u->ftdi, buf, chunk);
        /* libftdi reports every failed bulk write as -1: a failure that
         * took the whole timeout is the chip not taking data. */
        if (n == LIBUSB_ERROR_TIMEOUT ||
            (n < 0 && tn_now_ms() - t0 >= u->ftdi->usb_write_timeout)) {
            tn_errf(u->err, sizeof u->err, 0, "%s: write timed out after %d ms: the board "
                "stopped accepting data; power-cycle it", u->where, u->ftdi->usb_write_timeout);
            return TN_ETIMEDOUT;
        }
        if (n < 0)
            return usb_err(u, "write", n);
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static int usb_read(struct tn_transport *t, uint8_t *buf, size_t len, int timeout_ms)
{
    struct usb_port *u = (struct usb_port *)t;
    int64_t deadline = tn_now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
    int want = len > INT_MAX ? INT_MAX : (int)len;

    if (len == 0)
        return 0;
    for (;;) {
        int64_t left = deadline - tn_now_ms();
        if (timeout_ms < 0)
            left = 60000;
        /* libusb's timeout bounds one bulk IN transfer, so a chip that
         * stops answering at the USB level costs about the time left. It
         * is never shorter than USB_TIMEOUT_FLOOR_MS: a live chip answers
         * every latency period, and cancelling a transfer while data is
         * arriving would lose that data (libftdi drops a timed-out
         * transfer's bytes). */
        if (left < USB_TIMEOUT_FLOOR_MS)
            left = USB_TIMEOUT_FLOOR_MS;
        u->ftdi->usb_read_timeout = left > INT_MAX ? INT_MAX : (int)left;
        int n = ftdi_read_data(u->ftdi, buf, want);
        if (n > 0)
            return n;
        if (n < 0 && n != LIBUSB_ERROR_TIMEOUT)
            return usb_err(u, "read", n);
        /* n == 0: a status-only packet (the chip waited its latency timer
         * and had nothing); or a USB-level timeout. */
        if (timeout_ms >= 0 && tn_now_ms() >= deadline)
            return 0;
    }
}

static void usb_close(struct tn_transport *t)
{
    struct usb_port *u = (struct usb_port *)t;
    if (u == NULL)
        return;
    ftdi_usb_close(u->ftdi);
    ftdi_free(u->ftdi);
    free(u);
}

const struct tn_transport_ops tn_transport_usb_ops = {
    .name = "usb",
    .open = usb_open,
    .write = usb_write,
    .read = usb_read,
    .close = usb_close,
    .error = usb_error,
};
