# Collective algorithms (scatter, gather, all-to-all liquid schedules):
# pure C11 library code in host/ (tree, scatter, gather, traffic, liquid,
# coll_torus), its tests in tests/coll/ and the bench. The tests compile
# the sources they need directly, so they do not depend on the libtorus
# rules of the host fragment.

COLL_SRC  := host/tree.c host/scatter.c host/gather.c host/traffic.c \
             host/liquid.c host/coll_torus.c
COLL_HDR  := $(COLL_SRC:.c=.h) host/tn_error.h tests/tap.h
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
	$(COLL_CC) $(TN_CFLAGS) -Ihost -o $@ $< $(COLL_SRC) -lm

$(COLL_DIR)/san/test_%: tests/coll/test_%.c $(COLL_SRC) $(COLL_HDR)
	@mkdir -p $(@D)
	$(COLL_CC) $(TN_CFLAGS) $(SAN_FLAGS) -Ihost -o $@ $< $(COLL_SRC) -lm

$(COLL_DIR)/bench_coll: tests/coll/bench_coll.c $(COLL_SRC) $(COLL_HDR)
	@mkdir -p $(@D)
	$(COLL_CC) $(TN_CFLAGS) -Ihost -o $@ $< $(COLL_SRC) -lm
