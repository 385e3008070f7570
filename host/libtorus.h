/* SPDX-License-Identifier: MIT */
/* libtorus in one include: topology, schedules (verifier, JSON, algorithms),
 * plans and the reference model. See docs/host.md. */
#ifndef TN_LIBTORUS_H
#define TN_LIBTORUS_H

#include "plan.h"
#include "sched.h"
#include "tn_error.h"
#include "topo.h"

#endif
