# The model's C++ as four compilation units and Verilator's runtime as one
# archive, for sim/tn_sim_build.sh (read after Verilator's own makefile,
# Vtn_sim_top.mk, whose variables and flags it uses).
#
# Every generated file includes Verilator's headers, about 1 s of compiler
# time each: compiled one by one, a 6x1x1 model's 15 files cost 18 s, as
# units 8 s. The units (docs/NOTES.md, "Measurements", the model builds):
#   fast  the evaluation code (VM_FAST but the trace's), at OPT_FAST;
#   trace the per-cycle trace code (VM_FAST's __Trace__ files; empty in a
#         model without traces), at -O1: the 3x3x3's 2.7 MB take 35 s at
#         -O2, 24 s at -O1, 15 s at -O0, and a traced run is as fast at
#         -O1 as at -O2 (twice as slow at -O0);
#   slow  construction and the rest of VM_SLOW, at OPT_SLOW;
#   cold  the symbol table and the trace declarations, at -O0: code run
#         once when a model or a trace is opened, and large (the 7x7x7's
#         symbol table, 3.4 MB, takes 17 s at -O1 and 6 s at -O0).
# The runtime (TN_RT, a directory shared by the models of a build
# directory) is compiled once: the models differ only in flags that its
# files do not use (-DTN_*, VM_TRACE).

# The units' files and options.
tn_files_trace := $(foreach f,$(VM_FAST),$(if $(findstring __Trace__,$(f)),$(f)))
tn_files_fast := $(filter-out $(tn_files_trace),$(VM_FAST))
tn_files_cold := $(foreach f,$(VM_SLOW),$(if $(findstring __Syms,$(f))$(findstring __Trace__,$(f)),$(f)))
tn_files_slow := $(filter-out $(tn_files_cold),$(VM_SLOW))
tn_opt_fast = $(OPT_FAST)
tn_opt_trace = -O1
tn_opt_slow = $(OPT_SLOW)
tn_opt_cold = -O0
tn_unit_names := tn_unit_fast tn_unit_trace tn_unit_slow tn_unit_cold

# (a unit's list rewritten only when it changes, e.g. with SIM_TRACE: what
# it includes is a dependency of its object through the compiler's .d file)
$(addsuffix .cpp,$(tn_unit_names)): tn_unit_%.cpp: FORCE
	for f in $(tn_files_$*); do echo "#include \"$$f.cpp\""; done >$@.tmp
	cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
FORCE:

$(addsuffix .o,$(tn_unit_names)): tn_unit_%.o: tn_unit_%.cpp
	$(OBJCACHE) $(CXX) $(CXXFLAGS) $(CPPFLAGS) $(tn_opt_$*) -c -o $@ $<

.PHONY: tn_units
tn_units: $(addsuffix .o,$(tn_unit_names)) tn_sim.o

# The runtime: what every model links (VK_GLOBAL_OBJS) and the FST writer
# of the models with traces (an archive: the others leave it out).
tn_rt_objs := $(addprefix $(TN_RT)/,$(VK_GLOBAL_OBJS) verilated_fst_c.o)
$(TN_RT)/libverilated.a: $(tn_rt_objs)
	rm -f $@
	$(AR) rcs $@ $^
$(TN_RT)/%.o: %.cpp
	$(OBJCACHE) $(CXX) $(CXXFLAGS) $(filter-out -DTN_%,$(CPPFLAGS)) $(OPT_GLOBAL) -c -o $@ $<
