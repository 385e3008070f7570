# torus: top-level build. `make run` and `make test` are the two entry points
# (README.md); both install missing Debian packages first (scripts/deps.sh).
# Each part of the tree has its own fragment in mk/ that appends to the
# TESTS_* lists and defines its targets.

.DELETE_ON_ERROR:
# Keep intermediate objects (no relinking or deleting after each run).
.SECONDARY:
.SUFFIXES:
SHELL := /bin/bash

VERILATOR ?= verilator
IVERILOG  ?= iverilog
VVP       ?= vvp
YOSYS     ?= yosys
NEXTPNR   ?= nextpnr-ice40
ICEPACK   ?= icepack
ICETIME   ?= icetime
PROG      ?= openFPGALoader
CXX       ?= c++
BUILD     ?= build
# Parallel jobs for Verilator's C++ builds (the machine has 2 cores).
VJOBS     ?= 2
# Parallel jobs of make test's build, and tests run at once (tests/run.sh -j;
# those in TESTS_ALONE run afterwards, one at a time).
TEST_JOBS ?= 2

CCACHE := $(shell command -v ccache 2>/dev/null)
CFLAGS ?= -O2 -g
TN_CFLAGS = -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE $(CFLAGS)
# Sanitizer build of the host tests (make test runs both), at -O1 (it
# follows CFLAGS' -O2 on the command line): a fifth less compile time than
# -O2 for tests that run as fast, and ASan's own advice.
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -O1

# Test programs print TAP lines; tests/run.sh counts them.
TESTS_HOST :=
TESTS_RTL  :=
TESTS_E2E  :=
# Tests that time wall-clock answers (timeouts, retries, signals): they run
# with nothing beside them.
TESTS_ALONE :=
# The longest builds of make test (the 7x7x7 model, the iCEBreaker's place
# and route): started first, so that the rest of the build fills the other
# core beside them instead of waiting for them at the end.
TEST_FIRST :=
# Benchmarks print one table each.
BENCHES    :=

DEPS_STAMP := $(BUILD)/.deps-ok

.PHONY: all run test test-host test-rtl test-e2e lint sim bench bitstream prog clean deps install
all: host sim

include rtl/sources.mk
# install.mk last: it installs what the other fragments build.
include $(sort $(filter-out mk/install.mk,$(wildcard mk/*.mk))) mk/install.mk

deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/deps.sh
	scripts/deps.sh
	@mkdir -p $(@D) && touch $@

# The entry points install dependencies, then re-enter make so that the
# fragments see the installed tools (pkg-config) when they are parsed.
run: $(DEPS_STAMP)
	$(MAKE) --no-print-directory run-gossip

test: $(DEPS_STAMP)
	$(MAKE) --no-print-directory -j$(TEST_JOBS) test-all

RUN_TESTS = tests/run.sh -j $(TEST_JOBS) $(addprefix -a ,$(filter $(TESTS_ALONE),$^)) \
	$(filter-out $(TEST_FIRST),$^)

test-all: $(TEST_FIRST) $(TESTS_HOST) $(TESTS_RTL) $(TESTS_E2E)
	@$(RUN_TESTS)

test-host: $(TESTS_HOST)
	@$(RUN_TESTS)

test-rtl: $(TESTS_RTL)
	@$(RUN_TESTS)

test-e2e: $(TESTS_E2E)
	@$(RUN_TESTS)

bench: $(BENCHES)
	@set -e; for b in $^; do echo "== $$b"; $$b; done

clean:
	rm -rf $(BUILD)
