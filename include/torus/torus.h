/* SPDX-License-Identifier: MIT */
/* libtorus in one include (installed as <torus/torus.h>, found with
 * `pkg-config --cflags --libs torus`): topology, schedules with their
 * verifier, JSON and algorithms, the collectives' builders, plans and the
 * cycle-level reference model, device images, the bridge protocol and the
 * transports (sim, usb, serial). docs/host.md describes the stages;
 * examples/gossip_sim.c runs a gossip with them. */
#ifndef TN_TORUS_H
#define TN_TORUS_H

#include "a2a.h"
#include "algo.h"
#include "cdg.h"
#include "fault.h"
#include "gather.h"
#include "image.h"
#include "liquid.h"
#include "model.h"
#include "netsched.h"
#include "p2p.h"
#include "perm.h"
#include "plan.h"
#include "proto.h"
#include "run.h"
#include "scatter.h"
#include "sched.h"
#include "sg.h"
#include "svg.h"
#include "tn_error.h"
#include "topo.h"
#include "traffic.h"
#include "transport.h"
#include "tree.h"
#include "verify.h"

#endif
