# Formal proofs: the `ifdef FORMAL properties beside the RTL, proved with
# yosys-smtbmc and z3 (docs/hardware.md, "Proved properties").
#
#   make formal           every proof below, every mode
#   make formal-NAME      one module: bmc, prove, cover (as its modes say)
#   make formal-NAME-MODE one mode: bmc (bounded check from reset), prove
#                         (temporal induction), cover (every cover reached)
#   make formal-bridge    the bridge's modules
#
# A proof NAME: FORMAL_TOP_NAME (module), FORMAL_SRC_NAME (its file first,
# whose folder and rtl/lib are the include path), FORMAL_SET_NAME (parameters: small, so
# that each proof takes seconds; the properties do not depend on them),
# FORMAL_DEPTH_NAME (steps), FORMAL_COVER_DEPTH_NAME (steps of cover mode,
# if they differ), FORMAL_MODES_NAME (default: all three),
# FORMAL_GATES_NAME (1: the model lowered to gates), FORMAL_MEMMAP_NAME (1:
# its memories mapped to registers; scripts/formal.sh).
# make test runs every proof and mode (tests/rtl/tn_formal_test.sh). A mode's
# .ok file holds its summary line.

FORMAL_DIR  := $(BUILD)/formal
FORMAL_ALL_MODES := bmc prove cover

# Bridge stream modules (FIFO bounds, stream handshakes; no covers), and the
# CRC-16 byte step against its bitwise definition (combinational: one step
# covers every CRC and byte).
FORMAL_BRIDGE := bridge_fifo_aw2 bridge_fifo_aw9 skid slip_enc slip_dec crc16
FORMAL_TOP_crc16    := tn_crc16
FORMAL_SRC_crc16    := rtl/bridge/tn_crc16.v
FORMAL_DEPTH_crc16  := 1
FORMAL_TOP_bridge_fifo_aw2 := tn_bridge_fifo
FORMAL_SRC_bridge_fifo_aw2 := rtl/bridge/tn_bridge_fifo.v rtl/bridge/tn_formal_stream.vh
FORMAL_SET_bridge_fifo_aw2 := AW=2
FORMAL_TOP_bridge_fifo_aw9 := tn_bridge_fifo
FORMAL_SRC_bridge_fifo_aw9 := rtl/bridge/tn_bridge_fifo.v rtl/bridge/tn_formal_stream.vh
FORMAL_SET_bridge_fifo_aw9 := AW=9
FORMAL_TOP_skid     := tn_skid
FORMAL_SRC_skid     := rtl/bridge/tn_skid.v rtl/bridge/tn_formal_stream.vh
FORMAL_SET_skid     := DW=9
FORMAL_TOP_slip_enc := tn_slip_enc
FORMAL_SRC_slip_enc := rtl/bridge/tn_slip_enc.v rtl/bridge/tn_formal_stream.vh
FORMAL_TOP_slip_dec := tn_slip_dec
FORMAL_SRC_slip_dec := rtl/bridge/tn_slip_dec.v rtl/bridge/tn_formal_stream.vh
FORMAL_SET_slip_dec := IDLE_TIMEOUT=5
$(foreach p,$(FORMAL_BRIDGE),$(eval FORMAL_MODES_$(p) := bmc prove))

# The network: router (W 4, two lanes, a 3x3x3 node's routes), the NI,
# sequencer, and the bridge's command engine.
FORMAL_TOP_router   := tn_router
FORMAL_SRC_router   := rtl/net/tn_router.v rtl/lib/tn_formal_reset.vh
FORMAL_SET_router   := W=4 LANES=1 SIW=3
FORMAL_DEPTH_router := 2
FORMAL_COVER_DEPTH_router := 5
FORMAL_GATES_router := 1

FORMAL_TOP_ni       := tn_ni
FORMAL_SRC_ni       := rtl/ni/tn_ni.v rtl/lib/tn_formal_reset.vh
FORMAL_SET_ni       := W=4 LANES=1 AW=3 RW=2 DW=3 BB=0 SIW=3
FORMAL_DEPTH_ni     := 8
FORMAL_MEMMAP_ni    := 1
FORMAL_GATES_ni     := 1

FORMAL_TOP_seq      := tn_seq
FORMAL_SRC_seq      := rtl/net/tn_seq.v rtl/lib/tn_ram.v rtl/lib/tn_formal_reset.vh
FORMAL_SET_seq      := ROUNDS=4 RW=2 DW=3 N=2
FORMAL_DEPTH_seq    := 12
FORMAL_COVER_DEPTH_seq := 16
FORMAL_GATES_seq    := 1

FORMAL_TOP_engine   := tn_bridge_engine
FORMAL_SRC_engine   := rtl/bridge/tn_bridge_engine.v rtl/lib/tn_formal_reset.vh
FORMAL_SET_engine   := MAX_WORDS=4 RESET_CYCLES=2
FORMAL_DEPTH_engine := 16
FORMAL_GATES_engine := 1

FORMAL_PROOFS := router ni seq engine $(FORMAL_BRIDGE)

# (sources that are headers are dependencies, not read_verilog arguments)
define formal_proof
FORMAL_DEPTH_$(1) ?= 16
FORMAL_COVER_DEPTH_$(1) ?= $$(FORMAL_DEPTH_$(1))
FORMAL_MODES_$(1) ?= $(FORMAL_ALL_MODES)
$(FORMAL_DIR)/$(1).smt2: $(FORMAL_SRC_$(1)) scripts/formal.sh mk/formal.mk
	@FORMAL_GATES=$(FORMAL_GATES_$(1)) FORMAL_MEMMAP=$(FORMAL_MEMMAP_$(1)) scripts/formal.sh smt2 $$@ $(FORMAL_TOP_$(1)) "$(FORMAL_SET_$(1))" $(filter %.v,$(FORMAL_SRC_$(1)))
$(FORMAL_DIR)/$(1).%.ok: $(FORMAL_DIR)/$(1).smt2
	@scripts/formal.sh $$* $$< $$(if $$(filter cover,$$*),$$(FORMAL_COVER_DEPTH_$(1)),$$(FORMAL_DEPTH_$(1))) >$$@.tmp
	@cat $$@.tmp && mv $$@.tmp $$@
.PHONY: formal-$(1) $(foreach m,$(FORMAL_ALL_MODES),formal-$(1)-$(m))
formal-$(1): $$(foreach m,$$(FORMAL_MODES_$(1)),$(FORMAL_DIR)/$(1).$$(m).ok)
$(foreach m,$(FORMAL_ALL_MODES),formal-$(1)-$(m): $(FORMAL_DIR)/$(1).$(m).ok
)
endef
$(foreach p,$(FORMAL_PROOFS),$(eval $(call formal_proof,$(p))))

.PHONY: formal formal-bridge
formal: $(foreach p,$(FORMAL_PROOFS),formal-$(p))
formal-bridge: $(foreach p,$(FORMAL_BRIDGE),formal-$(p))
.PRECIOUS: $(FORMAL_DIR)/%.smt2 $(FORMAL_DIR)/%.ok

# make test: one TAP line per proof and mode. The proofs run ahead, beside
# the other builds of make test -j (as the lint, mk/rtl.mk); the test then
# finds them done, or runs a failed one again for its message.
.PHONY: formal-ahead
formal-ahead:
	-@$(MAKE) -s -k --no-print-directory \
	    $(foreach p,$(FORMAL_PROOFS),$(foreach m,$(FORMAL_MODES_$(p)),formal-$(p)-$(m))) >/dev/null 2>&1
$(BUILD)/tests/rtl/formal.t: tests/rtl/tn_formal_test.sh mk/formal.mk | formal-ahead
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/rtl/tn_formal_test.sh "%s" %s %s\n' '$(MAKE)' '$(FORMAL_DIR)' \
	    '$(foreach p,$(FORMAL_PROOFS),$(p):$(subst $(eval) ,+,$(FORMAL_MODES_$(p))))' >$@
	chmod +x $@
TESTS_RTL += $(BUILD)/tests/rtl/formal.t
