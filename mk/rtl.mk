# RTL network (rtl/ router, NI, sequencer, torus), its Verilator models (sim/),
# RTL tests (tests/rtl/) and benchmark. See docs/hardware.md.

# Verilog sources of the simulated top (other parts append, e.g. the bridge).
SIM_RTL_SRC += $(RTL_NET_SRC)
SIM_DEPS := sim/tn_sim_top.v sim/tn_sim.cpp sim/tn_sim.h sim/tn_sim.vlt sim/tn_sim_build.sh

# Models `make sim` builds: <X>x<Y>x<Z> (LANES=6), <X>x<Y>x<Z>_l1 (LANES=1);
# any other fragment may depend on $(BUILD)/sim/libtnsim_<name>.so.
SIM_MODELS ?= 3x3x3 7x7x7
SIM_DIR := $(BUILD)/sim
# Compiler optimisation of the models' C++ (build time against speed).
SIM_OPT ?= -O2
# 1: FST waveform support compiled in (tn_sim_trace_open).
SIM_TRACE ?= 1

sim: $(foreach m,$(SIM_MODELS),$(SIM_DIR)/libtnsim_$(m).so)
# Models and test programs reached only through pattern rules: keep them.
.PRECIOUS: $(SIM_DIR)/libtnsim_%.so $(BUILD)/tests/rtl/tn_%

$(SIM_DIR)/libtnsim_%.so: $(SIM_RTL_SRC) $(SIM_DEPS)
	@mkdir -p $(@D)
	VERILATOR=$(VERILATOR) CXX=$(CXX) VJOBS=$(VJOBS) SIM_OPT=$(SIM_OPT) SIM_TRACE=$(SIM_TRACE) \
		sim/tn_sim_build.sh $* $@ $(SIM_RTL_SRC)

# ---- tests ----
RTL_TEST_DIR := $(BUILD)/tests/rtl
RTL_TEST_CFLAGS = $(TN_CFLAGS) $(SAN_FLAGS)
# Geometries the network test runs on, and its rounds and seed per geometry.
RTL_NET_MODELS := 3x3x3 3x3x3_l1 7x7x7 6x1x1 4x4x1_l1 2x3x2
RTL_NET_ARGS_7x7x7 := 2 0x7777 120
RTL_NET_ARGS_DEFAULT := 4 0x1234

$(RTL_TEST_DIR)/tn_%: tests/rtl/tn_%.c tests/rtl/tn_simlib.h tests/tap.h
	@mkdir -p $(@D)
	$(CC) $(RTL_TEST_CFLAGS) -o $@ $< -ldl

# One runnable test per program and geometry: the generic program bound to a model.
RTL_RELAY_MODELS := 3x3x3 3x3x3_l1 7x7x7 6x1x1 4x4x1_l1 2x3x2
RTL_RELAY_ARGS_7x7x7 := 0x5eed 200
RTL_RELAY_ARGS_DEFAULT := 0x5eed
RTL_DIR_MODELS := 3x3x3 3x3x3_l1

define rtl_bind
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s %s %s\n' $(1) $(2) "$(3)" >$@
	chmod +x $@
endef

$(RTL_TEST_DIR)/net_%.t: $(RTL_TEST_DIR)/tn_net_test $(SIM_DIR)/libtnsim_%.so
	$(call rtl_bind,$<,$(SIM_DIR)/libtnsim_$*.so,$(or $(RTL_NET_ARGS_$*),$(RTL_NET_ARGS_DEFAULT)))
$(RTL_TEST_DIR)/relay_%.t: $(RTL_TEST_DIR)/tn_relay_test $(SIM_DIR)/libtnsim_%.so
	$(call rtl_bind,$<,$(SIM_DIR)/libtnsim_$*.so,$(or $(RTL_RELAY_ARGS_$*),$(RTL_RELAY_ARGS_DEFAULT)))
$(RTL_TEST_DIR)/dir_%.t: $(RTL_TEST_DIR)/tn_dir_test $(SIM_DIR)/libtnsim_%.so
	$(call rtl_bind,$<,$(SIM_DIR)/libtnsim_$*.so,)

RTL_NET_TESTS := $(foreach m,$(RTL_NET_MODELS),$(RTL_TEST_DIR)/net_$(m).t) \
	$(foreach m,$(RTL_RELAY_MODELS),$(RTL_TEST_DIR)/relay_$(m).t) \
	$(foreach m,$(RTL_DIR_MODELS),$(RTL_TEST_DIR)/dir_$(m).t)
TESTS_RTL += $(RTL_NET_TESTS)

# Only this part's tests.
.PHONY: test-rtl-net
test-rtl-net: $(RTL_NET_TESTS)
	@tests/run.sh $^

# ---- lint ----
RTL_LINT_PARAMS := "" "-GLANES=1" "-GDIM_X=5 -GDIM_Y=1 -GDIM_Z=1 -GW=8" \
	"-GDIM_X=2 -GDIM_Y=2 -GDIM_Z=1 -GW=32 -GROUNDS=2 -GMEM_DEPTH=16" \
	"-GDIM_X=7 -GDIM_Y=7 -GDIM_Z=7"
RTL_SYNTH_SMALL := -set DIM_X 2 -set DIM_Y 1 -set DIM_Z 1 -set W 8 -set LANES 1 \
	-set MEM_DEPTH 16 -set ROUNDS 2

.PHONY: lint-rtl
lint: lint-rtl
lint-rtl: $(BUILD)/rtl/lint.ok

$(BUILD)/rtl/lint.ok: $(SIM_RTL_SRC) sim/tn_sim_top.v
	@mkdir -p $(@D)
	@set -e; for p in $(RTL_LINT_PARAMS); do \
		echo "verilator --lint-only -Wall $$p"; \
		$(VERILATOR) --lint-only -Wall --top-module tn_torus $$p $(RTL_NET_SRC); \
	done
	$(VERILATOR) --lint-only -Wall --top-module tn_sim_top sim/tn_sim_top.v $(SIM_RTL_SRC)
	$(IVERILOG) -g2005 -Wall -Wno-sensitivity-entire-array -s tn_torus -o $(@D)/tn_torus.vvp $(RTL_NET_SRC)
	$(YOSYS) -q -l $(@D)/synth_ice40.log -p "read_verilog -defer $(RTL_NET_SRC); \
		chparam $(RTL_SYNTH_SMALL) tn_torus; synth_ice40 -top tn_torus; stat"
	@! grep -i "^warning" $(@D)/synth_ice40.log
	touch $@

# ---- bench ----
RTL_BENCH_MODELS := 3x3x3 3x3x3_t2 7x7x7 7x7x7_t2
$(RTL_TEST_DIR)/bench_rtl: tests/rtl/tn_bench.sh tests/rtl/tn_bench_tb.v $(RTL_TEST_DIR)/tn_bench_speed \
		$(foreach m,$(RTL_BENCH_MODELS),$(SIM_DIR)/libtnsim_$(m).so)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/rtl/tn_bench.sh %s\n' $(BUILD) >$@
	chmod +x $@
BENCHES += $(RTL_TEST_DIR)/bench_rtl
$(RTL_TEST_DIR)/tn_bench_speed: tests/rtl/tn_bench_speed.c tests/rtl/tn_simlib.h
	@mkdir -p $(@D)
	$(CC) $(TN_CFLAGS) -o $@ $< -ldl
