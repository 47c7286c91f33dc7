# mk/sim.mk - sim/: schedsim, the scheduler simulator on the shared policy
# library (its tests, schedsim_tests, are in mk/tests.mk).
#   make sim        build build/schedsim
#   make bench-sim  instructions per simulated core-tick (callgrind)
# The loop's instantiations (sim_lists, sim_eevdf, sim_draw) are separate
# files so that -j2 builds them in parallel: sim.cc was one 34 s compile.
SIM_SRCS := sim/sim.cc sim/sim_lists.cc sim/sim_eevdf.cc sim/sim_draw.cc sim/fluid_world.cc sim/workload.cc sim/replay.cc sim/report.cc sim/cli.cc \
	sim/ostep.cc sim/ostep_scheduler.cc sim/ostep_mlfq.cc sim/ostep_multi.cc sim/ostep_lottery.cc sim/ostep_batch.cc sim/py_random.cc
SIM_OBJS := $(patsubst %.cc,$(BUILD)/host/%.o,$(SIM_SRCS))

$(BUILD)/schedsim: $(BUILD)/host/sim/main.o $(SIM_OBJS) $(BUILD)/libquanta-host.a | $$(@D)/.
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^

ALL_TARGETS += $(BUILD)/schedsim

.PHONY: sim bench-sim
sim: $(BUILD)/schedsim

bench-sim: $(BUILD)/schedsim
	@sim/bench-sim.sh $(BUILD)/schedsim

-include $(BUILD)/host/sim/main.d $(SIM_OBJS:.o=.d)
