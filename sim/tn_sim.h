/* SPDX-License-Identifier: MIT */
/* C interface to a Verilated torus model (one shared object per geometry,
 * $(BUILD)/sim/libtnsim_<X>x<Y>x<Z>[_l1].so). The host loads it with dlopen()
 * and drives the configuration bus exactly as a board's bridge would.
 * A step is one clock of the bus clock; the network clock ticks with it
 * only while the network has work (a run, a bus request for the network
 * domain, flits in flight), as docs/hardware.md describes; at each edge
 * only the planes and nodes with work for that clock are evaluated (their
 * code run; one-thread models, every model make builds): a plane's
 * network side while it has work, its table ports while a table write or
 * record read is in flight for them.
 * tn_sim_free_run() asks for the network clock on every step, as on a
 * board; tn_sim_eval_all() for every plane and node at every edge. */
#ifndef TN_SIM_H
#define TN_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tn_sim;

/* A new model, not yet reset (call tn_sim_reset); NULL if out of memory. */
struct tn_sim *tn_sim_create(void);
void tn_sim_destroy(struct tn_sim *s);
/* Reset pulse of a few cycles: the design's cycle counter restarts at 0. */
void tn_sim_reset(struct tn_sim *s);
void tn_sim_step(struct tn_sim *s, uint64_t cycles);
/* Bus clocks since create. */
uint64_t tn_sim_cycles(const struct tn_sim *s);
/* Network clocks since create. */
uint64_t tn_sim_net_cycles(const struct tn_sim *s);
/* Network edges at which plane z (0 <= z < DIM_Z) was evaluated since
 * create: only while it has work (a run, flits, a bus request for one of
 * its nodes), free running or not, unless tn_sim_eval_all; 0 for z out of
 * range. */
uint64_t tn_sim_plane_cycles(const struct tn_sim *s, unsigned z);
/* on != 0: the network clock ticks on every step, as on a board (the
 * network's cycle counter advances); 0: only while the network has work
 * (the default). */
void tn_sim_free_run(struct tn_sim *s, int on);
/* on != 0: at every step clock every plane's network clock (with the
 * network's) and table clock, and evaluate every node, as a board does;
 * 0: only the planes, table ports and nodes with work (the default; the
 * nodes: one-thread models;
 * docs/hardware.md, "Clocks and reset"). Both give the same results: a
 * check of that. */
void tn_sim_eval_all(struct tn_sim *s, int on);
/* One bus request, clocked until it completes: 0, or -1 if the bus did not
 * answer within 10000 cycles. */
int tn_sim_bus_write(struct tn_sim *s, uint32_t addr, uint32_t data);
int tn_sim_bus_read(struct tn_sim *s, uint32_t addr, uint32_t *data);
/* Dump an FST waveform of the clocks from_cycle..to_cycle (tn_sim_cycles
 * numbering) to fst_path: 0, -1 if the file cannot be opened, or -2 if the
 * model was built without waveform support (SIM_TRACE=0, the default for
 * every model but those of SIM_TRACE_MODELS, mk/rtl.mk: the 3x3x3). */
int tn_sim_trace_open(struct tn_sim *s, const char *fst_path, uint64_t from_cycle,
                      uint64_t to_cycle);
void tn_sim_trace_close(struct tn_sim *s);
/* Host bridge byte stream (docs/protocol.md), as a board's UART carries it.
 * tn_sim_byte_write queues bytes for the bridge's input, fed at up to one
 * per cycle while the model is clocked (tn_sim_step, bus calls); always 0.
 * tn_sim_byte_read takes up to len bytes the bridge has sent so far and
 * returns how many. */
int tn_sim_byte_write(struct tn_sim *s, const uint8_t *buf, size_t len);
size_t tn_sim_byte_read(struct tn_sim *s, uint8_t *buf, size_t len);
/* Build parameters, e.g. "dims=7x7x7 W=16 LANES=6 MEM_DEPTH=4096 ROUNDS=1024 RELAY=1". */
const char *tn_sim_build_info(void);

#ifdef __cplusplus
}
#endif

#endif
