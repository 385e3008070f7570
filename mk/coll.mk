# Collective algorithms (scatter, gather, all-to-all liquid schedules):
# pure C11 library code in host/algo/ (tree, scatter, gather, traffic,
# liquid, classes) over the torus geometry of host/core/topo.c, its tests in
# tests/coll/ and the bench. The tests compile the sources they need
# directly, so they do not depend on the libtorus rules of the host
# fragment.

COLL_SRC  := $(addprefix host/algo/,tree.c scatter.c gather.c traffic.c liquid.c classes.c) host/core/topo.c
COLL_HDR  := $(addprefix include/torus/,tree.h scatter.h gather.h traffic.h liquid.h \
               topo.h tn_error.h) host/core/clock.h host/core/splitmix.h tests/tap.h
COLL_TESTS := scatter gather traffic liquid
COLL_DIR  := $(BUILD)/coll
COLL_CC    = $(CCACHE) $(CC)

COLL_TEST_BINS := $(COLL_TESTS:%=$(COLL_DIR)/test_%) \
                  $(COLL_TESTS:%=$(COLL_DIR)/san/test_%)

TESTS_HOST += $(COLL_TEST_BINS)
BENCHES    += $(COLL_DIR)/bench_coll

.PHONY: coll
coll: $(COLL_TEST_BINS) $(COLL_DIR)/bench_coll

$(COLL_DIR)/test_%: tests/coll/test_%.c $(COLL_SRC) $(COLL_HDR)
	@mkdir -p $(@D)
	$(COLL_CC) $(TN_CFLAGS) -iquote include/torus -iquote host/core -o $@ $< $(COLL_SRC) -lm

$(COLL_DIR)/san/test_%: tests/coll/test_%.c $(COLL_SRC) $(COLL_HDR)
	@mkdir -p $(@D)
	$(COLL_CC) $(TN_CFLAGS) $(SAN_FLAGS) -iquote include/torus -iquote host/core -o $@ $< $(COLL_SRC) -lm

$(COLL_DIR)/bench_coll: tests/coll/bench_coll.c $(COLL_SRC) $(COLL_HDR)
	@mkdir -p $(@D)
	$(COLL_CC) $(TN_CFLAGS) -iquote include/torus -iquote host/core -o $@ $< $(COLL_SRC) -lm
