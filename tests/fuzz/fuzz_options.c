/* SPDX-License-Identifier: MIT */
/* Fuzz target: the option values torusctl parses through the library:
 * --dims (tn_topo_parse), --device, --busdev and --interface
 * (tn_usb_parse_*), --fault (tn_fault_parse) and direction names. The
 * first byte picks the parser, the rest is the value (up to a NUL).
 * Properties: no crash; an accepted value is in range, and --dims and
 * --fault values print back to text that parses to the same value. */
#include <string.h>

#include "fuzz.h"
#include "runopt.h"
#include "topo.h"
#include "usb.h"

static void dims(const char *s)
{
    struct tn_topo t, back;
    if (tn_topo_parse(&t, s) != 0)
        return;
    FUZZ_ASSERT(t.n >= 1 && t.n <= TN_NODES_MAX);
    for (int i = 0; i < 3; i++)
        FUZZ_ASSERT(t.dim[i] >= 1 && t.dim[i] <= TN_DIM_MAX);
    FUZZ_ASSERT(t.n == t.dim[0] * t.dim[1] * t.dim[2]);
    char buf[64];
    tn_topo_format(&t, buf, sizeof buf);
    FUZZ_ASSERT(tn_topo_parse(&back, buf) == 0);
    FUZZ_ASSERT(memcmp(t.dim, back.dim, sizeof t.dim) == 0);
}

static void device(const char *s)
{
    int vid = -1, pid = -1;
    char serial[64];
    memset(serial, 'x', sizeof serial);
    if (tn_usb_parse_device(s, &vid, &pid, serial, sizeof serial) != 0)
        return;
    FUZZ_ASSERT(vid >= 0 && vid <= 0xFFFF && pid >= 0 && pid <= 0xFFFF);
    FUZZ_ASSERT(memchr(serial, '\0', sizeof serial) != NULL);
}

static void busdev(const char *s)
{
    int bus = -1, dev = -1;
    if (tn_usb_parse_busdev(s, &bus, &dev) == 0)
        FUZZ_ASSERT(bus >= 0 && dev >= 0);
}

static void interface(const char *s)
{
    int i = -1;
    if (tn_usb_parse_interface(s, &i) == 0)
        FUZZ_ASSERT(i == 1 || i == 2);
}

static void fault(const char *s)
{
    static const char *const names[] = {"", "payload", "duration", "rounds"};
    struct tn_fault f, back;
    if (tn_fault_parse(s, &f) != 0) {
        FUZZ_ASSERT(f.kind == TN_FAULT_NONE);
        return;
    }
    FUZZ_ASSERT(f.kind > TN_FAULT_NONE && f.kind <= TN_FAULT_LINK);
    char buf[80];
    if (f.kind == TN_FAULT_LINK) {
        const struct tn_link_fault *l = &f.link;
        char bit[8] = "drop";
        FUZZ_ASSERT(l->bit == TN_FAULT_DROP || (l->bit >= 0 && l->bit <= 63));
        if (l->bit != TN_FAULT_DROP)
            snprintf(bit, sizeof bit, "%d", l->bit);
        snprintf(buf, sizeof buf, "link:%u:%s:%llu:%s", l->node, tn_dir_name(l->dir),
                 (unsigned long long)l->cycle, bit);
        FUZZ_ASSERT(tn_fault_parse(buf, &back) == 0 && back.kind == TN_FAULT_LINK);
        FUZZ_ASSERT(back.link.node == l->node && back.link.dir == l->dir &&
                    back.link.cycle == l->cycle && back.link.bit == l->bit);
        return;
    }
    snprintf(buf, sizeof buf, "%s:%u", names[f.kind], f.arg);
    FUZZ_ASSERT(tn_fault_parse(buf, &back) == 0);
    FUZZ_ASSERT(back.kind == f.kind && back.arg == f.arg);
}

static void direction(const char *s)
{
    int d = tn_dir_parse(s);
    if (d >= 0)
        FUZZ_ASSERT(d < TN_NDIRS && strcmp(tn_dir_name(d), s) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static void (*const parsers[])(const char *) = {dims, device, busdev, interface, fault,
                                                    direction};
    if (size < 1 || size > 256)
        return 0;
    char s[257];
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    parsers[data[0] % (sizeof parsers / sizeof parsers[0])](s);
    return 0;
}
