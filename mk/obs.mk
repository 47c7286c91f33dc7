# mk/obs.mk - the kernel's recorders: scheduler tracing (docs/tracing.md)
# and the sampling profiler (docs/profiling.md).
#
#   user/obs.c                 the guest's `obs` program; /trace and /prof are
#                              links to it (`obs trace`, `obs prof`)
#   $(BUILD)/qobs              host tool: a dump in a disk image -> a trace's
#                              Chrome JSON, latency summary and schedsim
#                              replay file, or a profile's flat profile and
#                              folded stacks (symbolised against
#                              $(BUILD)/kernel.elf and $(BUILD)/user/_NAME)
#   $(BUILD)/qtrace, qprof     links to qobs: `qobs trace`, `qobs prof`
#   make trace CMD="..."       boot (CPUS, SCHED, RQ as make qemu), run CMD in
#                              the shell with tracing on, halt, extract into
#                              $(BUILD)/trace/
#   make profile CMD="..."     boot (CPUS as make qemu) under -icount, run
#                              `prof CMD`, halt, extract into $(BUILD)/profile/
UPROG_NAMES += obs trace prof
UPROG_PARTS_obs := dumpfile

# Symbolic links here, hard links in the image (tools/mkfs.cc).
$(BUILD)/user/_trace $(BUILD)/user/_prof: $(BUILD)/user/_obs
	$(call say,LN,$@)ln -sf $(notdir $<) $@

OBS_READER_SRCS := tools/image_files.cc tools/obs_reader.cc
OBS_TOOL_SRCS := $(OBS_READER_SRCS) tools/trace_model.cc tools/trace_output.cc tools/symbols.cc tools/prof_output.cc
QOBS := $(BUILD)/qobs
QTRACE := $(BUILD)/qtrace
QPROF := $(BUILD)/qprof

$(QOBS): $(BUILD)/host/tools/qobs.o $(patsubst %.cc,$(BUILD)/host/%.o,$(OBS_TOOL_SRCS)) $(BUILD)/libquanta-host.a
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^

$(QTRACE) $(QPROF): $(QOBS)
	$(call say,LN,$@)ln -sf $(notdir $<) $@

ALL_TARGETS += $(QOBS) $(QTRACE) $(QPROF)
-include $(BUILD)/host/tools/qobs.d

# make trace CMD="hog 2 & hog 2 & schbench -r 2" [CPUS=3] [SCHED=eevdf] [RQ=percpu]
#   [TRACE_KB=512 per hart] [TRACE_ICOUNT=3: virtual time; empty: real time] [TRACE_ARGS=...]
# Virtual time by default: the guest then does the same work whatever the
# host's speed, so a command that fits the buffers fits them everywhere (in
# real time a fast host made the quick start's schbench drop records).
CMD ?=
TRACE_KB ?= 512
TRACE_ICOUNT ?= 3
TRACE_ARGS ?=
.PHONY: trace
trace:
	@tools/install-deps.sh
	@test -n '$(CMD)' || { echo 'usage: make trace CMD="shell command line" (see docs/tracing.md)' >&2; exit 2; }
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG) $(BUILD)/fsck $(QTRACE)
	$(GUEST_PY) tools/obs_run.py trace --cmd '$(CMD)' --cpus $(CPUS) $(if $(SCHED),--sched $(SCHED)) $(if $(RQ),--rq $(RQ)) \
	  $(if $(BOOTARGS_EXTRA),--bootargs '$(BOOTARGS_EXTRA)') --kb $(TRACE_KB) \
	  $(if $(TRACE_ICOUNT),--icount $(TRACE_ICOUNT)) --out $(BUILD)/trace $(TRACE_ARGS)

# make profile CMD="benchos read512" [CPUS=3] [PROF_PERIOD=1000 us]
#   [PROF_KB=1024 per hart] [PROF_ICOUNT=3: virtual time] [PROF_TOP=25]
PROF_PERIOD ?= 1000
PROF_KB ?= 1024
PROF_ICOUNT ?= 3
PROF_TOP ?= 25
.PHONY: profile
profile:
	@tools/install-deps.sh
	@test -n '$(CMD)' || { echo 'usage: make profile CMD="program args" (see docs/profiling.md)' >&2; exit 2; }
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG) $(BUILD)/fsck $(QPROF)
	$(GUEST_PY) tools/obs_run.py prof --cmd '$(CMD)' --cpus $(CPUS) --period $(PROF_PERIOD) --kb $(PROF_KB) \
	  --icount $(PROF_ICOUNT) --top $(PROF_TOP) --out $(BUILD)/profile

# build/tests/trace_tests: tests/host/trace_*.cc with the reader,
# model and writers, mkfs's builder (images holding dumps) and schedsim's
# replay parser (the replay file must be what schedsim reads).
TRACE_TEST_SRCS := $(wildcard tests/host/trace_*.cc)
$(call host_test,trace_tests,$(TRACE_TEST_SRCS) $(OBS_READER_SRCS) tools/trace_model.cc tools/trace_output.cc \
  tools/fsbuild.cc sim/replay.cc sim/workload.cc)
TRACE_TEST_DEFS := -DQ_QTRACE_PATH='"$(QTRACE)"'
$(call host_test_obj,trace_tests): HOST_CXXFLAGS += $(TRACE_TEST_DEFS)
$(BUILD)/tests/trace_tests: | $(QTRACE) $(QPROF)

# build/tests/prof_tests: tests/host/prof_*.cc with the reader and
# symboliser, and mkfs's builder (images holding dumps).
PROF_TEST_SRCS := $(wildcard tests/host/prof_*.cc)
$(call host_test,prof_tests,$(PROF_TEST_SRCS) $(OBS_READER_SRCS) tools/symbols.cc tools/fsbuild.cc)
PROF_TEST_DEFS := -DQ_QPROF_PATH='"$(QPROF)"'
$(call host_test_obj,prof_tests): HOST_CXXFLAGS += $(PROF_TEST_DEFS)
$(BUILD)/tests/prof_tests: | $(QPROF)

EXTRA_GUEST_SUITES += tests/guest/trace_tests.py tests/guest/prof_tests.py
GUEST_DEPS += $(QTRACE) $(QPROF)
