# The whole system: `make run` (the main job), the end-to-end tests of
# `torusctl run` on the simulated torus (tests/e2e/), and `make sim-model`.
# Paths are literal because this fragment may be read before the ones that
# define the host and simulator rules.

E2E_DIR      := $(BUILD)/tests/e2e
E2E_TORUSCTL := $(BUILD)/torusctl
E2E_EMU      := $(BUILD)/usb/ft_emu_run
# Models the end-to-end tests load.
E2E_MODELS   := 3x3x3 3x3x3_l1 7x7x7

.PHONY: run-gossip sim-model

# The main job: the paper's gossip (Delmas-Perennes, 4 rounds) on the
# simulated 7x7x7 torus, then the default (cheapest at the device's alpha:
# the class ring at alpha = 1 and L = 1, docs/host.md).
run-gossip: host $(BUILD)/sim/libtnsim_7x7x7.so
	$(E2E_TORUSCTL) run gossip --algo dp
	$(E2E_TORUSCTL) run gossip

# Any geometry on request: make sim-model DIMS=5x5x5 (or 3x3x3_l1); with
# SIM_TRACE=1 (or 0) on the command line or in the environment the model is rebuilt with (without)
# waveform support, which only the models in SIM_TRACE_MODELS (mk/rtl.mk,
# the 3x3x3) have by default.
sim-model:
	@test -n "$(DIMS)" || { echo "usage: make sim-model DIMS=XxYxZ[_l1] [SIM_TRACE=1]" >&2; exit 1; }
	$(if $(filter command line environment,$(origin SIM_TRACE)),rm -f $(BUILD)/sim/libtnsim_$(DIMS).so)
	$(MAKE) --no-print-directory $(BUILD)/sim/libtnsim_$(DIMS).so

$(E2E_DIR)/gossip.t: tests/e2e/gossip.sh $(E2E_TORUSCTL) $(E2E_EMU) \
                     $(foreach m,$(E2E_MODELS),$(BUILD)/sim/libtnsim_$(m).so)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/gossip.sh %s %s\n' $(E2E_TORUSCTL) $(E2E_EMU) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/gossip.t

$(E2E_DIR)/bench_run: tests/e2e/bench_run.sh $(E2E_TORUSCTL) $(E2E_EMU) $(BUILD)/sim/libtnsim_7x7x7.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/bench_run.sh %s %s\n' $(E2E_TORUSCTL) $(E2E_EMU) >$@
	chmod +x $@

BENCHES += $(E2E_DIR)/bench_run

# Gossip algorithms against their bounds (issue 18); L = 64 on 7x7x7 runs on
# the model with 32,768 flit words a node.
$(E2E_DIR)/bench_gossip: tests/e2e/bench_gossip.sh $(E2E_TORUSCTL) $(BUILD)/sim/libtnsim_3x3x3.so \
                         $(BUILD)/sim/libtnsim_7x7x7.so $(BUILD)/sim_mem32k/libtnsim_7x7x7.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/bench_gossip.sh %s %s\n' $(E2E_TORUSCTL) $(BUILD)/sim_mem32k >$@
	chmod +x $@

BENCHES += $(E2E_DIR)/bench_gossip

# All-to-all (issue 5): a step is a round; every model has 1024 rounds.
A2A_MODELS := 3x3x3 3x3x3_l1
$(E2E_DIR)/alltoall.t: tests/e2e/alltoall.sh $(E2E_TORUSCTL) \
                       $(foreach m,$(A2A_MODELS),$(BUILD)/sim/libtnsim_$(m).so)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/alltoall.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/alltoall.t

$(E2E_DIR)/bench_a2a: tests/e2e/bench_a2a.sh $(E2E_TORUSCTL) \
                      $(foreach m,3x3x3 4x4x4 5x5x5 7x7x7 8x8x8,$(BUILD)/sim/libtnsim_$(m).so)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/bench_a2a.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

BENCHES += $(E2E_DIR)/bench_a2a

# Scatter and gather (issue 5): relay rounds on the 3x3x3 models; the
# six-tree scatter and both gathers also on 7x7x7 (issue 18), shoulder-tap
# on 6x1x1.
$(E2E_DIR)/scatter_gather.t: tests/e2e/scatter_gather.sh $(E2E_TORUSCTL) \
                             $(BUILD)/sim/libtnsim_3x3x3.so $(BUILD)/sim/libtnsim_3x3x3_l1.so \
                             $(BUILD)/sim/libtnsim_7x7x7.so $(BUILD)/sim/libtnsim_6x1x1.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/scatter_gather.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/scatter_gather.t

# Link faults (issue 17): injected on the 3x3x3 models' links.
$(E2E_DIR)/faults.t: tests/e2e/faults.sh $(E2E_TORUSCTL) \
                     $(BUILD)/sim/libtnsim_3x3x3.so $(BUILD)/sim/libtnsim_3x3x3_l1.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/faults.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/faults.t

# Ctrl-C during a run (issue 17): the 3x3x3 model, which has waveform support.
$(E2E_DIR)/interrupt.t: tests/e2e/interrupt.sh $(E2E_TORUSCTL) $(BUILD)/sim/libtnsim_3x3x3.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/interrupt.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/interrupt.t
TESTS_ALONE += $(E2E_DIR)/interrupt.t

# A board failing mid-load, mid-run, mid-readback (issue 17), through the
# emulated FT2232H.
$(E2E_DIR)/device_failures.t: tests/e2e/device_failures.sh $(E2E_TORUSCTL) $(E2E_EMU) \
                              $(BUILD)/sim/libtnsim_3x3x3.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/device_failures.sh %s %s\n' $(E2E_TORUSCTL) $(E2E_EMU) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/device_failures.t
TESTS_ALONE += $(E2E_DIR)/device_failures.t

$(E2E_DIR)/bench_faults: tests/e2e/bench_faults.sh $(E2E_TORUSCTL) \
                         $(BUILD)/sim/libtnsim_3x3x3.so $(BUILD)/sim/libtnsim_7x7x7.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/bench_faults.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

BENCHES += $(E2E_DIR)/bench_faults

# Point-to-point transfers per switching technique (issue 16): 3x3x3 model.
$(E2E_DIR)/p2p.t: tests/e2e/p2p.sh $(E2E_TORUSCTL) $(BUILD)/sim/libtnsim_3x3x3.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/p2p.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/p2p.t

# Permutation traffic, relay losses device = model (issue 16): 3x3x3, 7x7x7.
$(E2E_DIR)/perm.t: tests/e2e/perm.sh $(E2E_TORUSCTL) $(BUILD)/sim/libtnsim_3x3x3.so \
                   $(BUILD)/sim/libtnsim_7x7x7.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/perm.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/perm.t

# Output files: stdout, symlinks, FIFOs, replacement of regular files.
$(E2E_DIR)/outfiles.t: tests/e2e/outfiles.sh $(E2E_TORUSCTL)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/outfiles.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

TESTS_E2E += $(E2E_DIR)/outfiles.t

$(E2E_DIR)/bench_p2p: tests/e2e/bench_p2p.sh $(E2E_TORUSCTL) $(BUILD)/sim/libtnsim_7x7x7.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/bench_p2p.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

BENCHES += $(E2E_DIR)/bench_p2p

$(E2E_DIR)/bench_sg: tests/e2e/bench_sg.sh $(E2E_TORUSCTL) $(BUILD)/sim/libtnsim_7x7x7.so \
                   $(BUILD)/sim/libtnsim_4x4x4.so
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/e2e/bench_sg.sh %s\n' $(E2E_TORUSCTL) >$@
	chmod +x $@

BENCHES += $(E2E_DIR)/bench_sg
