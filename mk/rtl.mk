# RTL network (rtl/ router, NI, sequencer, torus), its Verilator models (sim/),
# RTL tests (tests/rtl/) and benchmark. See docs/hardware.md.

# Verilog sources of the simulated top (other parts append, e.g. the bridge).
SIM_RTL_SRC += $(RTL_NET_SRC)
SIM_DEPS := sim/tn_sim_top.v sim/tn_sim.cpp sim/tn_sim.h sim/tn_sim.vlt sim/tn_sim_build.sh \
            sim/tn_node_size.sh sim/tn_gate.awk sim/tn_sim_units.mk

# Models `make sim` builds: <X>x<Y>x<Z> (LANES=6), <X>x<Y>x<Z>_l1 (LANES=1);
# any other fragment may depend on $(BUILD)/sim/libtnsim_<name>.so.
SIM_MODELS ?= 3x3x3 3x3x3_l1 7x7x7
SIM_DIR := $(BUILD)/sim
# Compiler optimisation of the models' C++ (build time against speed).
SIM_OPT ?= -O2
# FST waveform support (tn_sim_trace_open, torusctl --trace) is compiled into
# the models named in SIM_TRACE_MODELS only: the trace code is most of a
# small model's C++ (with nothing in ccache and Verilator's runtime built,
# the 3x3x3 builds in 29-37 s with it, 13 s without: docs/NOTES.md,
# "Measurements").
# SIM_TRACE=1 (or 0) on the command line or in the environment puts it into
# (leaves it out of) every model built.
SIM_TRACE_MODELS ?= 3x3x3
sim_trace = $(if $(filter command line environment,$(origin SIM_TRACE)),$(SIM_TRACE),$(if $(filter $*,$(SIM_TRACE_MODELS)),1,0))

sim: $(foreach m,$(SIM_MODELS),$(SIM_DIR)/libtnsim_$(m).so)
# Models and test programs reached only through pattern rules: keep them.
.PRECIOUS: $(SIM_DIR)/libtnsim_%.so $(SIM_DIR)_mem32k/libtnsim_%.so $(BUILD)/tests/rtl/tn_%

# $(call sim_build,ENV): build the model $* into $@ (ENV: parameters, e.g.
# MEM_DEPTH=32768; sim/tn_sim_build.sh).
define sim_build
	@mkdir -p $(@D)
	$(1) VERILATOR=$(VERILATOR) CXX=$(CXX) VJOBS=$(VJOBS) SIM_OPT=$(SIM_OPT) SIM_TRACE=$(sim_trace) \
		sim/tn_sim_build.sh $* $@ $(SIM_RTL_SRC)
endef
$(SIM_DIR)/libtnsim_%.so: $(SIM_RTL_SRC) $(SIM_DEPS)
	$(call sim_build,)
# Models with 32,768 flit words a node (make bench: the split-ring gossip on
# 7x7x7 at L = 64 needs 22,638 words; torusctl --sim-dir $(SIM_DIR)_mem32k).
$(SIM_DIR)_mem32k/libtnsim_%.so: $(SIM_RTL_SRC) $(SIM_DEPS)
	$(call sim_build,MEM_DEPTH=32768)

# ---- tests ----
# System tests: C programs that load a model with dlopen() and drive its bus
# (tests/rtl/tn_*_test.c, helpers in tn_simlib.h), one runnable <prog>_<model>.t
# per program and model, with that model's arguments. Module benches: Icarus
# testbenches of one module (tests/rtl/tb_*.v), compiled for a parameter grid
# and run by tests/rtl/tn_tb_run.sh.
RTL_TEST_DIR := $(BUILD)/tests/rtl
RTL_TEST_CFLAGS = $(TN_CFLAGS) $(SAN_FLAGS)
# Random circuits, multicast trees, eject-and-forward, wraparounds
# (args: rounds, seed, stream attempts per round, read-back stride).
RTL_NET_MODELS := 3x3x3 3x3x3_l1 7x7x7 6x1x1 4x4x1_l1 2x3x2
RTL_NET_ARGS_7x7x7 := 2 0x7777 120 4
RTL_NET_ARGS_DEFAULT := 4 0x1234
# Relay packets (DOR) in two relay rounds, circuit rounds between them,
# collisions (args: seed, packet attempts per round).
RTL_RELAY_MODELS := 3x3x3 3x3x3_l1 6x1x1 4x4x1_l1 2x3x2
RTL_RELAY_ARGS_DEFAULT := 0x5eed
# Directed: every select, exact round boundaries, chains, errors, status, trace.
RTL_DIR_MODELS := 3x3x3 3x3x3_l1
# Tables written and read back through the bus.
RTL_TABLE_MODELS := 3x3x3 3x3x3_l1 6x1x1
# Every round of the table, durations 0..3, epochs, abort.
RTL_ROUNDS_MODELS := 3x3x3 3x3x3_l1
# Flit memory bank conflicts (lanes on LANES 6, the bus on LANES 1).
RTL_BANK_MODELS := 3x3x3 3x3x3_l1
# The same runs with the network clocked on demand and free running.
RTL_CLOCK_MODELS := 3x3x3 2x3x2

$(RTL_TEST_DIR)/tn_%: tests/rtl/tn_%.c tests/rtl/tn_simlib.h tests/tap.h
	@mkdir -p $(@D)
	$(CC) $(RTL_TEST_CFLAGS) -o $@ $< -ldl
# The table test sends the bridge frames built by the host's protocol code.
$(RTL_TEST_DIR)/tn_table_test: tests/rtl/tn_table_test.c tests/rtl/tn_simlib.h tests/tap.h \
                               host/proto/proto.c host/core/error.c $(PROTO_HDR)
	@mkdir -p $(@D)
	$(CC) $(RTL_TEST_CFLAGS) -iquote include/torus -iquote host/core -o $@ $< \
	    host/proto/proto.c host/core/error.c -ldl

define rtl_bind
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec %s %s %s\n' $(1) $(2) "$(3)" >$@
	chmod +x $@
endef

# <prog>_<model>.t: tn_<prog>_test bound to libtnsim_<model>.so with
# $(RTL_<PROG>_ARGS_<model>) or $(RTL_<PROG>_ARGS_DEFAULT).
define rtl_prog_rule
$$(RTL_TEST_DIR)/$(1)_%.t: $$(RTL_TEST_DIR)/tn_$(1)_test $$(SIM_DIR)/libtnsim_%.so
	$$(call rtl_bind,$$<,$$(SIM_DIR)/libtnsim_$$*.so,$$(or $$(RTL_$(2)_ARGS_$$*),$$(RTL_$(2)_ARGS_DEFAULT)))
endef
RTL_PROGS := net:NET relay:RELAY dir:DIR table:TABLE rounds:ROUNDS bank:BANK clock:CLOCK
$(foreach p,$(RTL_PROGS),$(eval $(call rtl_prog_rule,$(word 1,$(subst :, ,$(p))),$(word 2,$(subst :, ,$(p))))))

RTL_NET_TESTS := $(foreach p,$(RTL_PROGS),$(foreach m,$(RTL_$(word 2,$(subst :, ,$(p)))_MODELS),\
	$(RTL_TEST_DIR)/$(word 1,$(subst :, ,$(p)))_$(m).t))

# One copy of the node's code for all the nodes (tests/rtl/tn_share_test.sh).
RTL_SHARE_MODELS := 3x3x3 7x7x7
$(RTL_TEST_DIR)/share_%.t: tests/rtl/tn_share_test.sh $(SIM_DIR)/libtnsim_%.so
	$(call rtl_bind,tests/rtl/tn_share_test.sh,$(SIM_DIR)/obj_$*,)
RTL_NET_TESTS += $(foreach m,$(RTL_SHARE_MODELS),$(RTL_TEST_DIR)/share_$(m).t)

# Module bench grids: <label>:<parameters, comma separated> per point.
RTL_TB_SEQ := R2:ROUNDS=2,DW=4,N=1 R16:ROUNDS=16,DW=6,N=27 R1024:ROUNDS=1024,DW=14,N=40
RTL_TB_ROUTER := 333_L6_W16:DIM_X=3,DIM_Y=3,DIM_Z=3,W=16,LANES=6,RELAY=1 \
	421_L2_W8:DIM_X=4,DIM_Y=2,DIM_Z=1,W=8,LANES=2,RELAY=1 \
	511_L1_norelay:DIM_X=5,DIM_Y=1,DIM_Z=1,W=16,LANES=1,RELAY=0 \
	777_L3_W12:DIM_X=7,DIM_Y=7,DIM_Z=7,W=12,LANES=3,RELAY=1 \
	222_L1_W30:DIM_X=2,DIM_Y=2,DIM_Z=2,W=30,LANES=1,RELAY=1
RTL_TB_LANES := L1_W8:LANES=1,W=8,AW=6 L2_W16:LANES=2,W=16,AW=8 L3_W12:LANES=3,W=12,AW=7 \
	L6_W16:LANES=6,W=16,AW=8 L6_W30:LANES=6,W=30,AW=9
RTL_TB_TORUS := X2_W8_L1:DIM_X=2,W=8,LANES=1,MEM_DEPTH=16,ROUNDS=2,RELAY=0 \
	X3_W16_L2:DIM_X=3,W=16,LANES=2,MEM_DEPTH=64,ROUNDS=4,RELAY=1
# each bench's modules
RTL_TB_SEQ_SRC := rtl/net/tn_seq.v rtl/lib/tn_ram.v
RTL_TB_ROUTER_SRC := rtl/net/tn_router.v
RTL_TB_LANES_SRC := rtl/ni/tn_ni.v
RTL_TB_TORUS_SRC := $(RTL_NET_SRC)

# $(call rtl_tb,<bench>,<grid>,<sources>): compile each grid point, write the runner.
define rtl_tb
	@mkdir -p $(@D)/$(1)
	@set -e; runs=; for g in $(2); do \
		label=$${g%%:*}; ps=$${g#*:}; \
		$(IVERILOG) -g2005 -I tests/rtl -o $(@D)/$(1)/$$label.vvp -s $(1) $$(printf -- '-P$(1).%s ' $${ps//,/ }) \
			tests/rtl/$(1).v $(3); \
		runs="$$runs $$label=$(@D)/$(1)/$$label.vvp"; \
	done; \
	printf '#!/bin/sh\nexec env VVP=%s tests/rtl/tn_tb_run.sh%s\n' "$(VVP)" "$$runs" >$@
	chmod +x $@
endef

$(RTL_TEST_DIR)/tb_seq.t: tests/rtl/tb_seq.v tests/rtl/tn_tb_run.sh tests/rtl/tb_tap.vh $(RTL_TB_SEQ_SRC)
	$(call rtl_tb,tb_seq,$(RTL_TB_SEQ),$(RTL_TB_SEQ_SRC))
$(RTL_TEST_DIR)/tb_router.t: tests/rtl/tb_router.v tests/rtl/tn_tb_run.sh tests/rtl/tb_tap.vh $(RTL_TB_ROUTER_SRC)
	$(call rtl_tb,tb_router,$(RTL_TB_ROUTER),$(RTL_TB_ROUTER_SRC))
$(RTL_TEST_DIR)/tb_lanes.t: tests/rtl/tb_lanes.v tests/rtl/tn_tb_run.sh tests/rtl/tb_tap.vh tests/rtl/tb_crc.vh $(RTL_TB_LANES_SRC)
	$(call rtl_tb,tb_lanes,$(RTL_TB_LANES),$(RTL_TB_LANES_SRC))
$(RTL_TEST_DIR)/tb_torus.t: tests/rtl/tb_torus.v tests/rtl/tn_tb_run.sh tests/rtl/tb_tap.vh tests/rtl/tb_crc.vh $(RTL_TB_TORUS_SRC)
	$(call rtl_tb,tb_torus,$(RTL_TB_TORUS),$(RTL_TB_TORUS_SRC))
RTL_TB_TESTS := $(RTL_TEST_DIR)/tb_seq.t $(RTL_TEST_DIR)/tb_router.t $(RTL_TEST_DIR)/tb_lanes.t \
	$(RTL_TEST_DIR)/tb_torus.t

TESTS_RTL += $(RTL_TB_TESTS) $(RTL_NET_TESTS)

# Only this part's tests.
.PHONY: test-rtl-net test-rtl-tb
test-rtl-net: $(RTL_TB_TESTS) $(RTL_NET_TESTS)
	@$(RUN_TESTS)
test-rtl-tb: $(RTL_TB_TESTS)
	@$(RUN_TESTS)

# ---- lint ----
RTL_LINT_PARAMS := "" "-GLANES=1" "-GDIM_X=5 -GDIM_Y=1 -GDIM_Z=1 -GW=8" \
	"-GDIM_X=2 -GDIM_Y=2 -GDIM_Z=1 -GW=30 -GROUNDS=2 -GMEM_DEPTH=128" \
	"-GDIM_X=5 -GDIM_Y=4 -GDIM_Z=2"
# Yosys' check: synth_ice40 of a small torus, module by module (-noflatten:
# each module once, with the same warnings; 16 s against 21 flattened), no
# warning allowed.
RTL_SYNTH_SMALL := -set DIM_X 2 -set DIM_Y 1 -set DIM_Z 1 -set W 8 -set LANES 1 \
	-set MEM_DEPTH 16 -set ROUNDS 2

# make test runs every lint target as a test (tests/rtl/tn_lint_test.sh).
# The lint runs ahead, beside the other builds of make test -j, so that the
# test itself, run once everything is built, finds it done; a failure there
# is ignored, and the test runs the target again and reports it.
.PHONY: lint-ahead
lint-ahead:
	-@$(MAKE) -s -k --no-print-directory lint-rtl lint-board lint-bridge >/dev/null 2>&1
$(RTL_TEST_DIR)/lint.t: tests/rtl/tn_lint_test.sh | lint-ahead
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/rtl/tn_lint_test.sh "%s"\n' '$(MAKE)' >$@
	chmod +x $@
TESTS_RTL += $(RTL_TEST_DIR)/lint.t
# The 7x7x7 model ahead of everything else: its Verilator run, over a minute
# on one core, is the build's longest step. Only the first job of make -j starts
# at once, and GNU make starts the jobs waiting for a slot last-queued first:
# appended, the model waited for the boards, the proofs and the lint (it
# started 150 s into a fresh clone's make test).
TEST_FIRST := $(SIM_DIR)/libtnsim_7x7x7.so $(TEST_FIRST)

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
		chparam $(RTL_SYNTH_SMALL) tn_torus; synth_ice40 -noflatten -top tn_torus; stat"
	@! grep -i "^warning" $(@D)/synth_ice40.log
	touch $@

# ---- bench ----
# The lean-node table (tests/rtl/tn_bench.sh): simulator cost (callgrind;
# loads also on the 8x8x8), 7x7x7 speed, the gossip's whole command, area
# estimates (board-estimates).
RTL_BENCH_EST := $(BUILD)/board/estimate/table.md
$(RTL_TEST_DIR)/bench_rtl: tests/rtl/tn_bench.sh $(RTL_TEST_DIR)/tn_bench_speed $(BUILD)/torusctl \
		$(SIM_DIR)/libtnsim_3x3x3.so $(SIM_DIR)/libtnsim_7x7x7.so $(SIM_DIR)/libtnsim_8x8x8.so \
		$(RTL_BENCH_EST)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/rtl/tn_bench.sh %s %s\n' $(BUILD) $(dir $(RTL_BENCH_EST))raw.txt >$@
	chmod +x $@
BENCHES += $(RTL_TEST_DIR)/bench_rtl
$(RTL_TEST_DIR)/tn_bench_speed: tests/rtl/tn_bench_speed.c tests/rtl/tn_simlib.h
	@mkdir -p $(@D)
	$(CC) $(TN_CFLAGS) -o $@ $< -ldl
