# Collective algorithms (scatter, gather, all-to-all liquid schedules):
# pure C11 library code in host/algo/ (tree, scatter, gather, traffic,
# liquid, classes) over the torus geometry of host/core/topo.c, its tests in
# tests/coll/ and the bench. They are part of libtorus: the tests and the
# bench are compiled as the host's tests are (mk/host.mk) and link the
# library, plain or under the sanitizers, which pulls in what they use.
# (The file's name sorts after host.mk: its rules' prerequisites use
# HOST_DIR and HOST_LIB, expanded as the makefile is read.)

COLL_TESTS := scatter gather traffic liquid
COLL_DIR  := $(BUILD)/coll

COLL_TEST_BINS := $(COLL_TESTS:%=$(COLL_DIR)/test_%) \
                  $(COLL_TESTS:%=$(COLL_DIR)/san/test_%)

TESTS_HOST += $(COLL_TEST_BINS)
BENCHES    += $(COLL_DIR)/bench_coll

.PHONY: coll
coll: $(COLL_TEST_BINS) $(COLL_DIR)/bench_coll

$(COLL_DIR)/test_%: $(HOST_DIR)/obj/tests/coll/test_%.o $(HOST_LIB)
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(HOST_LIB) $(HOST_LIBS)

$(COLL_DIR)/san/test_%: $(HOST_DIR)/san/tests/coll/test_%.o $(HOST_SAN_LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN_FLAGS) -o $@ $< $(HOST_SAN_LIB) $(HOST_LIBS)

$(COLL_DIR)/bench_coll: $(HOST_DIR)/obj/tests/coll/bench_coll.o $(HOST_LIB)
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(HOST_LIB) $(HOST_LIBS)

-include $(wildcard $(HOST_DIR)/obj/tests/coll/*.d $(HOST_DIR)/san/tests/coll/*.d)
