# Host library libtorus (host/<stage>/*.c except host/cli/), the torusctl
# CLI (host/cli/: torusctl.c + cmd_*.c), their unit tests (plain and under
# ASan/UBSan), the CLI behaviour tests and the host benchmark.
# docs/host.md describes the library and its layout; docs/schedule-format.md
# the JSON.
#
# The library's public headers are include/torus/*.h (installed as
# <torus/torus.h> and its siblings); a stage's private headers live beside
# its sources. Sources include both by name: HOST_INC puts every folder on
# the quote include path (-iquote: <sched.h> stays the C library's).

HOST_PKGS    := jansson zlib libftdi1 libusb-1.0
HOST_PCFLAGS  = $(shell pkg-config --cflags $(HOST_PKGS))
HOST_LIBS     = $(shell pkg-config --libs $(HOST_PKGS)) -ldl
HOST_CC       = $(CCACHE) $(CC)
HOST_DIR     := $(BUILD)/host

# The stages of the data path, in order (docs/host.md "Layout").
HOST_STAGES  := core sched algo plan image proto transport run
HOST_INC     := -iquote include/torus $(addprefix -iquote host/,$(HOST_STAGES) cli)
HOST_CLI_SRC := $(sort $(wildcard host/cli/*.c))
HOST_LIB_SRC := $(sort $(foreach s,$(HOST_STAGES),$(wildcard host/$(s)/*.c)))
HOST_LIB_OBJ := $(HOST_LIB_SRC:%.c=$(HOST_DIR)/obj/%.o)
HOST_SAN_OBJ := $(HOST_LIB_SRC:%.c=$(HOST_DIR)/san/%.o)
HOST_CLI_OBJ := $(HOST_CLI_SRC:%.c=$(HOST_DIR)/obj/%.o)
HOST_LIB     := $(HOST_DIR)/libtorus.a
HOST_SAN_LIB := $(HOST_DIR)/san/libtorus.a
TORUSCTL     := $(BUILD)/torusctl

# Unit tests in one folder per stage, as the library (tests/host/<stage>/).
HOST_TEST_SRC  := $(sort $(foreach s,$(HOST_STAGES),$(wildcard tests/host/$(s)/test_*.c)))
HOST_TESTS     := $(basename $(notdir $(HOST_TEST_SRC)))
HOST_TEST_BINS := $(HOST_TESTS:%=$(HOST_DIR)/%) $(HOST_TESTS:%=$(HOST_DIR)/san/%)

TESTS_HOST += $(HOST_TEST_BINS) $(HOST_DIR)/test_cli
BENCHES    += $(HOST_DIR)/bench_host $(HOST_DIR)/bench_banks

.PHONY: host
host: $(HOST_LIB) $(TORUSCTL)

# -fPIC: the same objects make the shared libtorus (mk/install.mk).
$(HOST_DIR)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(TN_CFLAGS) -fPIC $(HOST_PCFLAGS) $(HOST_INC) -Itests -I$(HOST_DIR)/gen -MMD -MP -c $< -o $@

# torusctl --version: the tree's `git describe` (rewritten only when it
# changes, so only torusctl.o is rebuilt then).
TN_BUILD_VERSION = $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(HOST_DIR)/gen/tn_version.h: FORCE
	@mkdir -p $(@D)
	@echo '#define TN_BUILD_VERSION "$(TN_BUILD_VERSION)"' >$@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@
$(HOST_DIR)/obj/host/cli/torusctl.o: $(HOST_DIR)/gen/tn_version.h
.PHONY: FORCE
FORCE:

$(HOST_DIR)/san/%.o: %.c
	@mkdir -p $(@D)
	$(HOST_CC) $(TN_CFLAGS) $(SAN_FLAGS) $(HOST_PCFLAGS) $(HOST_INC) -Itests -MMD -MP -c $< -o $@

$(HOST_LIB): $(HOST_LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(HOST_SAN_LIB): $(HOST_SAN_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && $(AR) rcs $@ $^

$(TORUSCTL): $(HOST_CLI_OBJ) $(HOST_LIB)
	$(CC) -o $@ $(HOST_CLI_OBJ) $(HOST_LIB) $(HOST_LIBS)

define HOST_TEST_RULES
$(HOST_DIR)/$(basename $(notdir $(1))): $(HOST_DIR)/obj/$(1:.c=.o) $(HOST_LIB)
	$$(CC) -o $$@ $$< $$(HOST_LIB) $$(HOST_LIBS)
$(HOST_DIR)/san/$(basename $(notdir $(1))): $(HOST_DIR)/san/$(1:.c=.o) $(HOST_SAN_LIB)
	$$(CC) $$(SAN_FLAGS) -o $$@ $$< $$(HOST_SAN_LIB) $$(HOST_LIBS)
endef
$(foreach t,$(HOST_TEST_SRC),$(eval $(call HOST_TEST_RULES,$(t))))

$(HOST_DIR)/bench_host: $(HOST_DIR)/obj/tests/host/bench_host.o $(HOST_LIB)
	$(CC) -o $@ $< $(HOST_LIB) $(HOST_LIBS)
$(HOST_DIR)/bench_banks: $(HOST_DIR)/obj/tests/host/bench_banks.o $(HOST_LIB)
	$(CC) -o $@ $< $(HOST_LIB) $(HOST_LIBS)

# CLI behaviour and golden tests: a wrapper that runs the script on the
# freshly built torusctl.
$(HOST_DIR)/test_cli: tests/host/cli/cli.sh $(TORUSCTL) $(wildcard tests/host/cli/golden/*) \
                      $(wildcard tests/host/cli/bad/*)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/host/cli/cli.sh %s\n' '$(TORUSCTL)' >$@
	chmod +x $@

-include $(HOST_LIB_OBJ:.o=.d) $(HOST_SAN_OBJ:.o=.d) $(HOST_CLI_OBJ:.o=.d) \
         $(wildcard $(HOST_DIR)/obj/tests/host/*.d $(HOST_DIR)/obj/tests/host/*/*.d \
                   $(HOST_DIR)/san/tests/host/*/*.d)
