/* SPDX-License-Identifier: MIT */
/* The table of byte-stream backends (sim, usb, serial). */
#include <string.h>

#include "transport.h"

extern const struct tn_transport_ops tn_transport_sim_ops;
extern const struct tn_transport_ops tn_transport_usb_ops;
extern const struct tn_transport_ops tn_transport_serial_ops;

static const struct tn_transport_ops *const backends[] = {
    &tn_transport_sim_ops,
    &tn_transport_usb_ops,
    &tn_transport_serial_ops,
};

const struct tn_transport_ops *tn_transport_find(const char *name)
{
    if (name == NULL)
        name = "sim";
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
        if (strcmp(backends[i]->name, name) == 0)
            return backends[i];
    return NULL;
}
