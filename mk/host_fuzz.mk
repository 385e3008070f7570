# Fuzz targets (tests/fuzz/, docs/NOTES.md "Fuzzing"): one harness per
# parser, each an LLVMFuzzerTestOneInput. make test replays every seed
# corpus and regression input under ASan/UBSan with a plain main
# (tests/fuzz/replay.c, gcc); make fuzz FUZZ_S=N runs a libFuzzer campaign
# of N seconds per target (clang) and prints executions, crashes, leaks
# and timeouts per target.

FUZZ_TARGETS := sched traffic lengths proto options
FUZZ_S       ?= 20
FUZZ_CC      ?= clang
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_FLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

FUZZ_REPLAYS := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/replay_%)
FUZZ_TESTS   := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/test_fuzz_%)
TESTS_HOST   += $(FUZZ_TESTS)

# Replay: the harness and tests/fuzz/replay.c on the sanitizer library.
$(FUZZ_DIR)/replay_%: $(HOST_DIR)/san/tests/fuzz/fuzz_%.o $(HOST_DIR)/san/tests/fuzz/replay.o \
                      $(HOST_SAN_LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN_FLAGS) -o $@ $^ $(HOST_LIBS)

# The test: every seed and every regression input of the target, one TAP
# line each (a target without regressions yet has no regress/ folder); a
# hang fails it after 120 s.
$(FUZZ_DIR)/test_fuzz_%: $(FUZZ_DIR)/replay_%
	printf '#!/bin/sh\nexec timeout 120 %s tests/fuzz/corpus/%s %s\n' '$<' '$*' \
	    "$$(test -d tests/fuzz/regress/$* && echo tests/fuzz/regress/$*)" >$@
	chmod +x $@

# libFuzzer builds: the library compiled again with clang's coverage
# instrumentation (only make fuzz needs clang).
FUZZ_LF_OBJ := $(HOST_LIB_SRC:%.c=$(FUZZ_DIR)/lf/%.o)

$(FUZZ_DIR)/lf/%.o: %.c
	@mkdir -p $(@D)
	$(CCACHE) $(FUZZ_CC) $(TN_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link \
	    $(HOST_PCFLAGS) $(HOST_INC) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/lf/tests/fuzz/fuzz_%.o $(FUZZ_LF_OBJ)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(HOST_LIBS)

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

fuzz: $(DEPS_STAMP) fuzz-build
	@tests/fuzz/campaign.sh $(FUZZ_S) $(FUZZ_DIR) $(FUZZ_TARGETS)

-include $(wildcard $(FUZZ_DIR)/lf/host/*/*.d $(FUZZ_DIR)/lf/tests/fuzz/*.d)
