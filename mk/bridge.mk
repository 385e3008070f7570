# Host bridge: RTL (rtl/bridge/: tn_bridge*.v, tn_slip_*.v, tn_crc16.v, tn_uart_*.v),
# the host side of the protocol (host/proto/proto.c), their tests in tests/bridge/
# and the bridge stress benchmark. Protocol: docs/protocol.md.
#
#   make lint-bridge     verilator -Wall, iverilog -g2005, yosys synth_ice40
#   make formal-bridge   the proofs of its `ifdef FORMAL properties (mk/formal.mk)
#   make bridge          the test programs below
#
# The unit tests compile host/proto/proto.c (and host/core/error.c) directly, so they do
# not depend on the libtorus rules of the host fragment.

BRIDGE_DIR := $(BUILD)/bridge
BRIDGE_CC   = $(CCACHE) $(CC)

BRIDGE_RTL := $(RTL_BRIDGE_SRC)
UART_RTL   := $(RTL_UART_SRC)
# The simulated top (sim/tn_sim_top.v) puts the bridge in front of the torus.
SIM_RTL_SRC += $(BRIDGE_RTL)
PROTO_SRC  := host/proto/proto.c host/core/error.c
PROTO_HDR  := $(addprefix include/torus/,proto.h transport.h tn_error.h image.h) host/core/clock.h tests/tap.h

# Parameters of the bridge under test: a small payload bound (oversized
# frames are cheap), a short idle timeout, a 16-byte input FIFO (so that
# backpressure is exercised).
# tb_bridge_dflt runs the same tests on tn_bridge's defaults (bound 1024
# bytes, 512-byte FIFO, 16-cycle reset; the boards build a 512-byte bound,
# mk/board.mk), only the idle timeout shortened.
BRIDGE_TB_PARAMS := MAX_WORDS=64 IDLE_TIMEOUT=3000 RESET_CYCLES=5 FIFO_AW=4
BRIDGE_TB_G       = $(foreach p,$(BRIDGE_TB_PARAMS),-G$(p))
BRIDGE_TB_D       = -DTB_MAX_WORDS=64 -DTB_IDLE_TIMEOUT=3000 -DTB_RESET_CYCLES=5
BRIDGE_DF_G       = -GIDLE_TIMEOUT=3000
BRIDGE_DF_D       = -DTB_MAX_WORDS=256 -DTB_IDLE_TIMEOUT=3000 -DTB_RESET_CYCLES=16

BRIDGE_TESTS := $(BRIDGE_DIR)/test_proto $(BRIDGE_DIR)/test_proto_san \
                $(BRIDGE_DIR)/tb_bridge $(BRIDGE_DIR)/tb_bridge_dflt $(BRIDGE_DIR)/tb_uart
TESTS_HOST += $(BRIDGE_DIR)/test_proto $(BRIDGE_DIR)/test_proto_san
TESTS_ALONE += $(BRIDGE_DIR)/test_proto $(BRIDGE_DIR)/test_proto_san
TESTS_RTL  += $(BRIDGE_DIR)/tb_bridge $(BRIDGE_DIR)/tb_bridge_dflt $(BRIDGE_DIR)/tb_uart
BENCHES    += $(BRIDGE_DIR)/bench_bridge $(BRIDGE_DIR)/bench_uart

.PHONY: bridge lint-bridge
bridge: $(BRIDGE_TESTS)
lint: lint-bridge

$(BRIDGE_DIR)/test_proto: tests/bridge/test_proto.c $(PROTO_SRC) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(BRIDGE_CC) $(TN_CFLAGS) -iquote include/torus -iquote host/core -o $@ $< $(PROTO_SRC)

$(BRIDGE_DIR)/test_proto_san: tests/bridge/test_proto.c $(PROTO_SRC) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(BRIDGE_CC) $(TN_CFLAGS) $(SAN_FLAGS) -iquote include/torus -iquote host/core -o $@ $< $(PROTO_SRC)

# proto.c as C for the C++ testbenches (Verilator compiles .c as C++)
$(BRIDGE_DIR)/proto.o: host/proto/proto.c $(PROTO_HDR)
	@mkdir -p $(@D)
	$(BRIDGE_CC) $(TN_CFLAGS) -iquote include/torus -iquote host/core -c -o $@ $<

$(BRIDGE_DIR)/error.o: host/core/error.c include/torus/tn_error.h
	@mkdir -p $(@D)
	$(BRIDGE_CC) $(TN_CFLAGS) -iquote include/torus -iquote host/core -c -o $@ $<

BRIDGE_VFLAGS = --cc --exe --build -j $(VJOBS) -Wno-fatal \
    -CFLAGS "-O2 -iquote $(abspath include/torus) -iquote $(abspath host/core)"

$(BRIDGE_DIR)/tb_bridge: $(BRIDGE_RTL) tests/bridge/tb_bridge.cpp $(BRIDGE_DIR)/proto.o \
                         $(BRIDGE_DIR)/error.o $(PROTO_HDR)
	+OBJCACHE=$(CCACHE) $(VERILATOR) $(BRIDGE_VFLAGS) --top-module tn_bridge \
	    $(BRIDGE_TB_G) -CFLAGS "$(BRIDGE_TB_D)" -Mdir $(BRIDGE_DIR)/vtb_bridge -o tb_bridge \
	    $(BRIDGE_RTL) $(abspath tests/bridge/tb_bridge.cpp) \
	    $(abspath $(BRIDGE_DIR)/proto.o $(BRIDGE_DIR)/error.o) >$(BRIDGE_DIR)/tb_bridge.build.log
	cp $(BRIDGE_DIR)/vtb_bridge/tb_bridge $@

$(BRIDGE_DIR)/tb_bridge_dflt: $(BRIDGE_RTL) tests/bridge/tb_bridge.cpp $(BRIDGE_DIR)/proto.o \
                              $(BRIDGE_DIR)/error.o $(PROTO_HDR)
	+OBJCACHE=$(CCACHE) $(VERILATOR) $(BRIDGE_VFLAGS) --top-module tn_bridge \
	    $(BRIDGE_DF_G) -CFLAGS "$(BRIDGE_DF_D)" -Mdir $(BRIDGE_DIR)/vtb_bridge_dflt -o tb_bridge_dflt \
	    $(BRIDGE_RTL) $(abspath tests/bridge/tb_bridge.cpp) \
	    $(abspath $(BRIDGE_DIR)/proto.o $(BRIDGE_DIR)/error.o) >$(BRIDGE_DIR)/tb_bridge_dflt.build.log
	cp $(BRIDGE_DIR)/vtb_bridge_dflt/tb_bridge_dflt $@

$(BRIDGE_DIR)/tb_uart: $(BRIDGE_RTL) $(UART_RTL) tests/bridge/tb_uart_top.v tests/bridge/tb_uart_lane.v \
                       tests/bridge/tb_uart.cpp $(BRIDGE_DIR)/proto.o $(BRIDGE_DIR)/error.o $(PROTO_HDR)
	+OBJCACHE=$(CCACHE) $(VERILATOR) $(BRIDGE_VFLAGS) --top-module tb_uart_top \
	    -Mdir $(BRIDGE_DIR)/vtb_uart -o tb_uart \
	    tests/bridge/tb_uart_top.v tests/bridge/tb_uart_lane.v $(BRIDGE_RTL) $(UART_RTL) $(abspath tests/bridge/tb_uart.cpp) \
	    $(abspath $(BRIDGE_DIR)/proto.o $(BRIDGE_DIR)/error.o) >$(BRIDGE_DIR)/tb_uart.build.log
	cp $(BRIDGE_DIR)/vtb_uart/tb_uart $@

# make bench: a longer random run (BRIDGE_BENCH_BYTES of garbage)
BRIDGE_BENCH_BYTES ?= 2000000
$(BRIDGE_DIR)/bench_bridge: $(BRIDGE_DIR)/tb_bridge mk/bridge.mk
	printf '#!/bin/sh\n# bridge stress benchmark (mk/bridge.mk)\nexec "%s" --bench --bytes %s "$$@"\n' \
	    "$(abspath $(BRIDGE_DIR)/tb_bridge)" "$(BRIDGE_BENCH_BYTES)" >$@
	chmod +x $@

# make bench: load rate through the 12 Mbaud UART for several windows
$(BRIDGE_DIR)/bench_uart: $(BRIDGE_DIR)/tb_uart mk/bridge.mk
	printf '#!/bin/sh\n# bridge-over-uart load benchmark (mk/bridge.mk)\nexec "%s" --bench "$$@"\n' \
	    "$(abspath $(BRIDGE_DIR)/tb_uart)" >$@
	chmod +x $@

# Lint: every bridge and UART file, the UART at the two test ratios.
lint-bridge: $(BRIDGE_DIR)/lint.ok
$(BRIDGE_DIR)/lint.ok: $(BRIDGE_RTL) $(UART_RTL) mk/bridge.mk
	@mkdir -p $(@D)
	$(VERILATOR) --lint-only -Wall --top-module tn_bridge $(BRIDGE_RTL)
	$(VERILATOR) --lint-only -Wall --top-module tn_bridge $(BRIDGE_TB_G) $(BRIDGE_RTL)
	$(VERILATOR) --lint-only -Wall rtl/bridge/tn_uart_rx.v
	$(VERILATOR) --lint-only -Wall rtl/bridge/tn_uart_tx.v
	$(VERILATOR) --lint-only -Wall -GBAUD=921600 rtl/bridge/tn_uart_rx.v
	$(VERILATOR) --lint-only -Wall -GBAUD=921600 rtl/bridge/tn_uart_tx.v
	$(IVERILOG) -g2005 -Wall -o /dev/null -s tn_bridge $(BRIDGE_RTL)
	$(IVERILOG) -g2005 -Wall -o /dev/null -s tn_uart_rx -s tn_uart_tx $(UART_RTL)
	$(YOSYS) -q -l $(BRIDGE_DIR)/yosys.log \
	    -p 'read_verilog $(BRIDGE_RTL) $(UART_RTL); synth_ice40 -top tn_bridge; stat' >/dev/null
	$(YOSYS) -q -l $(BRIDGE_DIR)/yosys-uart.log \
	    -p 'read_verilog $(UART_RTL); synth_ice40 -top tn_uart_rx; design -reset; read_verilog $(UART_RTL); synth_ice40 -top tn_uart_tx' >/dev/null
	@if grep -E '^Warning' $(BRIDGE_DIR)/yosys.log $(BRIDGE_DIR)/yosys-uart.log; then \
	    echo "lint-bridge: yosys warnings above ($(BRIDGE_DIR)/yosys*.log)" >&2; exit 1; fi
	@touch $@
