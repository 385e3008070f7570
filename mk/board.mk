# FPGA boards (rtl/boards/, constraints/, docs/boards.md): bitstreams for the
# iCEBreaker and the iCE40-HX8K breakout with the open flow, programming,
# the CI bitstream test, the post-synthesis netlist simulation, the larger-
# part estimates and the board benchmark.
#
#   make bitstream BOARD=icebreaker|hx8k   yosys synth_ice40 -> nextpnr-ice40
#                                          --freq -> icepack; prints LUT/FF/
#                                          EBR/SPRAM use and Fmax, fails if
#                                          timing is not met
#   make prog BOARD=...                    openFPGALoader (PROG=iceprog works too)
#   make board-seeds BOARD=...             Fmax of the build for placement seeds 1-5
#   make board-estimates                   synth_ecp5 / synth_xilinx table
#
# Every product is a file target under $(BUILD)/board/ that depends on the
# RTL, so a bitstream is rebuilt only when its sources change.

BOARD      ?= icebreaker
BOARDS     := icebreaker hx8k
BOARD_DIR  := $(BUILD)/board
# Network clock the issue asks for (MHz). Each board has its own clock
# below; the CI test and `make bitstream` check that one and `make
# bitstream` also reports against this goal.
BOARD_FREQ_GOAL := 48
# Placement seeds tried in turn until one meets the board's clock (the
# first that does is kept; seed.txt and the report say which). Fmax moves
# by a few per cent from seed to seed (docs/boards.md; `make board-seeds`
# measures seeds 1-5); a build that misses with all of them fails.
BOARD_SEEDS ?= 1 2 3 4

# The sources: rtl/sources.mk
BOARD_NET_SRC := $(RTL_NET_SRC)
BOARD_BRIDGE_SRC := $(RTL_BRIDGE_SRC) $(RTL_UART_SRC)
BOARD_SYS_SRC := $(RTL_BOARD_SRC)
BOARD_ALL_SRC := $(BOARD_NET_SRC) $(BOARD_BRIDGE_SRC) $(BOARD_SYS_SRC)

# PLL settings per network clock in MHz (icepll -i 12 -o MHz: exact with
# DIVR 0, the VCO in 533..1066 MHz)
board_pll_24 := DIVF=63 DIVQ=5
board_pll_30 := DIVF=79 DIVQ=5
board_pll_33 := DIVF=87 DIVQ=5
board_pll_36 := DIVF=47 DIVQ=4
board_pll_39 := DIVF=51 DIVQ=4
board_pll_42 := DIVF=55 DIVQ=4
board_pll_45 := DIVF=59 DIVQ=4
board_pll_48 := DIVF=63 DIVQ=4

# Per board: top, device, constraints, the fitted torus (product
# parameters of tn_torus only; docs/boards.md explains the choice,
# scripts/board_fit.sh measures candidates) and the clocks.
# BOARD_FREQ_<board>: the network clock in MHz (the PLL settings follow
# from board_pll_<MHz>); BOARD_TORUS_<board>=... or BOARD_FREQ_<board>=...
# on the command line builds another configuration.
BOARD_TOP_icebreaker   := tn_top_icebreaker
BOARD_PNR_icebreaker   := --up5k --package sg48
BOARD_PCF_icebreaker   := constraints/icebreaker.pcf
BOARD_TORUS_icebreaker := DIM_X=2 DIM_Y=1 DIM_Z=1 W=8 LANES=1 MEM_DEPTH=256 ROUNDS=16 RELAY=0
# The UP5K's network clock: 24 MHz. The goal is 48; this RTL reaches
# 28 to 30 MHz on the UP5K (docs/boards.md lists what fails).
BOARD_FREQ_icebreaker  := 24
# Bus clock: the UART, the host bridge and tn_torus's bus port run on the
# 12 MHz oscillator itself (SB_PLL40_2_PAD port A), UART 3 Mbaud (4 clocks
# per bit). BOARD_BUS_FREQ_<board> is that clock's timing target in MHz
# (nextpnr constrains each clock to its own frequency; empty: one clock).
# Both bridges: frames of up to 128 words (a 256 x 32 frame buffer, 2
# block RAMs) and a 512-byte input FIFO (1 block RAM); smaller ones would take
# as many block RAMs.
BOARD_CLOCK_icebreaker := CLK_HZ=$(BOARD_FREQ_icebreaker)000000 $(board_pll_$(BOARD_FREQ_icebreaker)) \
	BUS_HZ=12000000 BAUD=3000000 MAX_WORDS=128 FIFO_AW=9
BOARD_BUS_FREQ_icebreaker := 12
BOARD_TOP_hx8k         := tn_top_hx8k
BOARD_PNR_hx8k         := --hx8k --package ct256
BOARD_PCF_hx8k         := constraints/hx8k-breakout.pcf
BOARD_TORUS_hx8k       := DIM_X=2 DIM_Y=2 DIM_Z=1 W=8 LANES=1 MEM_DEPTH=256 ROUNDS=16 RELAY=0
BOARD_FREQ_hx8k        := 48
# One clock: the PLL's 48 MHz is both the bus and the network clock, UART
# 12 Mbaud (4 clocks per bit).
BOARD_CLOCK_hx8k       := CLK_HZ=$(BOARD_FREQ_hx8k)000000 $(board_pll_$(BOARD_FREQ_hx8k)) \
	BAUD=12000000 MAX_WORDS=128 FIFO_AW=9
BOARD_BUS_FREQ_hx8k    :=

# "DIM_X=2 W=8" -> "-set DIM_X 2 -set W 8" for yosys chparam
board_chparam = $(foreach kv,$(1),-set $(subst =, ,$(kv)))
board_clock = $(BOARD_CLOCK_$(1))
# nextpnr timing constraints: one --freq for a one-clock board; with a bus
# clock, a --pre-pack script that constrains the network clock (net clk)
# and the bus clock (net bclk) each to its own frequency
board_pnr_freq = --freq $(BOARD_FREQ_$(1))$(if $(BOARD_BUS_FREQ_$(1)), --pre-pack $(BOARD_DIR)/$(1)/clocks.py)

# `make board-seeds BOARD=...`: Fmax of the build for each of these seeds
BOARD_SEEDS_ALL ?= 1 2 3 4 5

.PHONY: board-bitstream board-prog board-estimates board-config-force board-seeds
bitstream: board-bitstream
prog: board-prog

board-bitstream: $(BOARD_DIR)/$(BOARD)/$(BOARD).bin
	@scripts/board_report.sh $(BOARD) $(BOARD_DIR)/$(BOARD) $(BOARD_FREQ_$(BOARD)) $(BOARD_FREQ_GOAL)

board-seeds: $(BOARD_DIR)/$(BOARD)/seeds.txt
	@echo "$(BOARD): $(BOARD_TORUS_$(BOARD)), network clock $(BOARD_FREQ_$(BOARD)) MHz"; cat $<

# Both boards program their SPI flash through FT2232H interface A
# (openFPGALoader's board ice40_generic); PROG=iceprog does the same.
board-prog: $(BOARD_DIR)/$(BOARD)/$(BOARD).bin
	$(PROG) $(if $(filter iceprog,$(notdir $(PROG))),,-b ice40_generic) $<

# Per-board rules: synthesis of the top (the chosen torus inside the whole
# system), place and route at the board frequency (the report script fails
# the build when the achieved Fmax is below it or P&R failed), icepack.
define BOARD_RULES
# the build's parameters: rewritten only when they change (command-line
# overrides of BOARD_TORUS_<board> rebuild too)
$(BOARD_DIR)/$(1)/config.txt: board-config-force
	@$(if $(filter DIVF=%,$(BOARD_CLOCK_$(1))),true,echo "board: $(1): no PLL setting (DIVF/DIVQ) for a $(BOARD_FREQ_$(1)) MHz network clock: add board_pll_$(BOARD_FREQ_$(1)) to mk/board.mk" >&2; exit 1)
	@mkdir -p $$(@D)
	@echo '$(BOARD_TORUS_$(1)) $(call board_clock,$(1)) $(BOARD_FREQ_$(1)) $(BOARD_BUS_FREQ_$(1))' | cmp -s - $$@ || \
		echo '$(BOARD_TORUS_$(1)) $(call board_clock,$(1)) $(BOARD_FREQ_$(1)) $(BOARD_BUS_FREQ_$(1))' >$$@

$(BOARD_DIR)/$(1)/clocks.py: $(BOARD_DIR)/$(1)/config.txt
	printf 'ctx.addClock("clk", %s)\nctx.addClock("bclk", %s)\n' $(BOARD_FREQ_$(1)) $(BOARD_BUS_FREQ_$(1)) >$$@

$(BOARD_DIR)/$(1)/synth.json: $(BOARD_ALL_SRC) rtl/boards/tn_top_$(1).v mk/board.mk $(BOARD_DIR)/$(1)/config.txt
	@mkdir -p $$(@D)
	rm -f $$(@D)/report.json $$(@D)/stat.txt
	$(YOSYS) -q -l $$(@D)/yosys.log -p "read_verilog -defer $(BOARD_ALL_SRC) rtl/boards/tn_top_$(1).v; \
		chparam $(call board_chparam,$(BOARD_TORUS_$(1)) $(call board_clock,$(1))) $(BOARD_TOP_$(1)); \
		synth_ice40 -top $(BOARD_TOP_$(1)) -json $$@; tee -o $$(@D)/stat.txt stat"

$(BOARD_DIR)/$(1)/pnr.asc: $(BOARD_DIR)/$(1)/synth.json $(BOARD_PCF_$(1)) scripts/board_report.sh \
		$(if $(BOARD_BUS_FREQ_$(1)),$(BOARD_DIR)/$(1)/clocks.py)
	@rm -f $$(@D)/seed.txt; for s in $(BOARD_SEEDS); do \
		echo "$(NEXTPNR) $(BOARD_PNR_$(1)) $(call board_pnr_freq,$(1)) --seed $$$$s ... -l $$(@D)/nextpnr.log"; \
		$(NEXTPNR) $(BOARD_PNR_$(1)) --json $$< --pcf $(BOARD_PCF_$(1)) --asc $$@ \
			$(call board_pnr_freq,$(1)) --seed $$$$s --timing-allow-fail \
			--report $$(@D)/report.json --sdf $$(@D)/nextpnr.sdf --write $$(@D)/post.json \
			-l $$(@D)/nextpnr.log -q || { \
			grep -E 'ERROR|ICESTORM_LC' $$(@D)/nextpnr.log >&2; \
			echo "board: place and route of $(1) failed (log $$(@D)/nextpnr.log): the torus does not fit, see docs/boards.md" >&2; exit 1; }; \
		echo $$$$s >$$(@D)/seed.txt; \
		scripts/board_report.sh $(1) $$(@D) $(BOARD_FREQ_$(1)) >/dev/null 2>&1 && exit 0; \
		echo "board: $(1) misses $(BOARD_FREQ_$(1)) MHz with placement seed $$$$s" >&2; \
	done; \
	scripts/board_report.sh $(1) $$(@D) $(BOARD_FREQ_$(1)) >/dev/null; exit 1

$(BOARD_DIR)/$(1)/$(1).bin: $(BOARD_DIR)/$(1)/pnr.asc
	$(ICEPACK) $$< $$@

# the build placed and routed with each of seeds 1-5 (measurement only)
$(BOARD_DIR)/$(1)/seeds.txt: $(BOARD_DIR)/$(1)/synth.json $(BOARD_PCF_$(1)) scripts/board_seeds.sh \
		$(if $(BOARD_BUS_FREQ_$(1)),$(BOARD_DIR)/$(1)/clocks.py)
	NEXTPNR=$(NEXTPNR) scripts/board_seeds.sh $$(@D) \
		"$(BOARD_PNR_$(1)) --pcf $(BOARD_PCF_$(1)) $(call board_pnr_freq,$(1))" $(BOARD_SEEDS_ALL) >$$@.tmp
	mv $$@.tmp $$@
endef
$(foreach b,$(BOARDS),$(eval $(call BOARD_RULES,$(b))))

# ---- post-synthesis simulation ----
# Each board's torus (BOARD_TORUS_<board>), synthesized by synth_ice40
# module by module (-noflatten: a node is synthesized once, for all the
# nodes, with its coordinates as inputs; the bitstream's synthesis flattens
# the whole top) and written back as a Verilog netlist of iCE40 cells, runs
# tests/board/tb_netlist.v in Icarus with yosys' cell models, on the
# board's clocks (BOARD_NL_CLK_<board>: the bench's half periods in ps of
# the bus and the network clock, or ONE_CLOCK); the same bench runs on the
# RTL with the same parameters, and the wrapper checks both against the
# timing model and against each other.
ICE40_CELLS ?= $(abspath $(dir $(shell command -v $(YOSYS)))../share/yosys/ice40/cells_sim.v)
BOARD_NLS      := $(BOARDS)
# 12 MHz and 48 MHz
BOARD_NL_CLK_icebreaker := -DBCLK_HALF=41667 -DNCLK_HALF=10417
BOARD_NL_CLK_hx8k       := -DONE_CLOCK -DNCLK_HALF=10417
# -DDIM_X=.. -DMEM_DEPTH=.. of a board's torus, and its clocks
board_nl_defs = $(addprefix -D,$(filter DIM_X=% DIM_Y=% DIM_Z=% MEM_DEPTH=% ROUNDS=%,$(BOARD_TORUS_$(1)))) \
	$(BOARD_NL_CLK_$(1))

define BOARD_NL_RULES
$(BOARD_DIR)/netlist/torus_$(1).v: $(BOARD_NET_SRC) mk/board.mk
	@mkdir -p $$(@D)
	$(YOSYS) -q -l $$(@D)/torus_$(1).log -p "read_verilog -defer $(BOARD_NET_SRC); \
		chparam $(call board_chparam,$(BOARD_TORUS_$(1))) tn_torus; \
		synth_ice40 -noflatten -top tn_torus; write_verilog -noattr $$@" >/dev/null 2>&1 || \
		{ tail -20 $$(@D)/torus_$(1).log >&2; exit 1; }

$(BOARD_DIR)/netlist/nl_$(1).vvp: $(BOARD_DIR)/netlist/torus_$(1).v tests/board/tb_netlist.v mk/board.mk
	$(IVERILOG) -g2005 -DNO_ICE40_DEFAULT_ASSIGNMENTS -DNETLIST $(call board_nl_defs,$(1)) -s tb_netlist -o $$@ \
		tests/board/tb_netlist.v $$< $(ICE40_CELLS)

$(BOARD_DIR)/netlist/rtl_$(1).vvp: $(BOARD_NET_SRC) tests/board/tb_netlist.v mk/board.mk
	@mkdir -p $$(@D)
	$(IVERILOG) -g2005 $(call board_nl_defs,$(1)) -s tb_netlist -o $$@ \
		tests/board/tb_netlist.v $(BOARD_NET_SRC)

$(BOARD_DIR)/test_netlist_$(1).t: $(BOARD_DIR)/netlist/rtl_$(1).vvp $(BOARD_DIR)/netlist/nl_$(1).vvp \
		tests/board/test_netlist.sh
	printf '#!/bin/sh\nexec tests/board/test_netlist.sh %s %s %s %s\n' '$(VVP)' $(1) \
		$(BOARD_DIR)/netlist/rtl_$(1).vvp $(BOARD_DIR)/netlist/nl_$(1).vvp >$$@
	chmod +x $$@
endef
$(foreach c,$(BOARD_NLS),$(eval $(call BOARD_NL_RULES,$(c))))

TESTS_RTL += $(foreach c,$(BOARD_NLS),$(BOARD_DIR)/test_netlist_$(c).t)

# ---- CI: bitstreams ----
# Boards whose bitstream CI builds: both. A place-and-route error or a
# timing miss at the board's clock fails the test (its wrapper builds the
# bitstream first: nothing to do once boards-ahead has).
BOARDS_CI ?= hx8k icebreaker

# The bitstreams build ahead, beside the other builds of make test -j (as
# the lint does, mk/rtl.mk): synthesis and place and route are among its
# longest jobs, and as prerequisites of their tests make started them last
# (the HX8K's bitstream ended the build alone). A failure here is ignored; the
# test builds the bitstream again and fails on it.
.PHONY: boards-ahead
boards-ahead:
	-@$(MAKE) -s --no-print-directory $(foreach b,$(BOARDS_CI),$(BOARD_DIR)/$(b)/$(b).bin) >/dev/null 2>&1

define BOARD_CI_RULE
$(BOARD_DIR)/test_bitstream_$(1).t: tests/board/test_bitstream.sh | boards-ahead
	@mkdir -p $$(@D)
	printf '#!/bin/sh\n%s -s --no-print-directory %s >&2 || { echo "not ok 1 - $(1): %s does not build"; echo 1..1; exit 1; }\nexec tests/board/test_bitstream.sh %s %s %s\n' \
		'$(MAKE)' $(BOARD_DIR)/$(1)/$(1).bin $(BOARD_DIR)/$(1)/$(1).bin $(1) $(BOARD_DIR)/$(1) $(BOARD_FREQ_$(1)) >$$@
	chmod +x $$@
endef
$(foreach b,$(BOARDS),$(eval $(call BOARD_CI_RULE,$(b))))

TESTS_RTL += $(foreach b,$(BOARDS_CI),$(BOARD_DIR)/test_bitstream_$(b).t)
TEST_FIRST += $(if $(BOARDS_CI),boards-ahead)

# ---- benchmark ----
# fit.txt: the measured outcome of a board build, also when it does not fit
# (then the logic cells place and route asked for), for the benchmark.
define BOARD_FIT_RULE
$(BOARD_DIR)/$(1)/fit.txt: $(BOARD_DIR)/$(1)/synth.json $(BOARD_PCF_$(1)) scripts/board_report.sh
	@if $(MAKE) --no-print-directory $(BOARD_DIR)/$(1)/pnr.asc >$$(@D)/fit.log 2>&1; then \
		{ cat $$(@D)/summary.txt; echo 'fits=yes'; echo 'torus="$(BOARD_TORUS_$(1))"'; } >$$@; \
	else \
		need=$$$$(grep -o 'ICESTORM_LC: *[0-9]*/ *[0-9]*' $$(@D)/nextpnr.log | tail -1); \
		{ grep -E '^ +SB_LUT4' $$(@D)/stat.txt | awk '{print "lut=" $$$$2}'; \
		  grep -E '^ +SB_DFF' $$(@D)/stat.txt | awk '{n += $$$$2} END {print "ff=" n}'; \
		  grep -E '^ +SB_RAM40' $$(@D)/stat.txt | awk '{n += $$$$2} END {print "ebr=" n + 0}'; \
		  echo 'freq=$(BOARD_FREQ_$(1))'; echo 'fits=no'; echo 'torus="$(BOARD_TORUS_$(1))"'; \
		  echo "need=\"place and route failed: $$$$need logic cells (used/available)\""; } >$$@; \
	fi
endef
$(foreach b,$(BOARDS),$(eval $(call BOARD_FIT_RULE,$(b))))

$(BOARD_DIR)/bench_board: tests/board/bench_board.sh $(BUILD)/torusctl \
		$(foreach b,$(BOARDS),$(BOARD_DIR)/$(b)/fit.txt)
	printf '#!/bin/sh\nexec tests/board/bench_board.sh %s %s %s\n' '$(BUILD)/torusctl' $(BOARD_DIR) '$(BOARDS)' >$@
	chmod +x $@

BENCHES += $(BOARD_DIR)/bench_board

# ---- lint ----
# verilator -Wall on the board system with each board's clocking (the tops
# instantiate iCE40 PLL cells, which Icarus checks with yosys' models;
# yosys itself runs in the build).
.PHONY: lint-board
lint: lint-board
lint-board: $(BOARD_DIR)/lint.ok

$(BOARD_DIR)/lint.ok: $(BOARD_ALL_SRC) rtl/boards/tn_top_icebreaker.v rtl/boards/tn_top_hx8k.v mk/board.mk
	@mkdir -p $(@D)
	$(VERILATOR) --lint-only -Wall --top-module tn_board_system \
		$(addprefix -G,$(BOARD_TORUS_icebreaker) BUS_HZ=12000000 BAUD=3000000) $(BOARD_ALL_SRC)
	$(VERILATOR) --lint-only -Wall --top-module tn_board_system \
		$(addprefix -G,$(BOARD_TORUS_hx8k) BUS_HZ=48000000 BAUD=12000000) $(BOARD_ALL_SRC)
	$(VERILATOR) --lint-only -Wall --top-module tn_board_por rtl/boards/tn_board_por.v
	$(IVERILOG) -g2005 -Wall -Wno-timescale -Wno-sensitivity-entire-array -DNO_ICE40_DEFAULT_ASSIGNMENTS \
		-s tn_top_icebreaker -s tn_top_hx8k -o $(@D)/tops.vvp \
		$(foreach b,$(BOARDS),$(addprefix -P$(BOARD_TOP_$(b)).,$(BOARD_TORUS_$(b)) $(BOARD_CLOCK_$(b)))) \
		$(BOARD_ALL_SRC) rtl/boards/tn_top_icebreaker.v rtl/boards/tn_top_hx8k.v $(ICE40_CELLS)
	touch $@

# ---- estimates for larger parts (slow: several yosys runs of one node) ----
board-estimates: $(BOARD_DIR)/estimate/table.md
	@cat $<

$(BOARD_DIR)/estimate/table.md: $(BOARD_NET_SRC) scripts/board_estimate.sh scripts/board_estimate_table.sh
	@mkdir -p $(@D)
	rm -f $(@D)/*.done
	YOSYS=$(YOSYS) scripts/board_estimate.sh $(@D) >$@.tmp && mv $@.tmp $@
