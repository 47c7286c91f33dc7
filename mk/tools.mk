# mk/tools.mk - tools/: the host tools and the commands that drive them.
#
#   $(BUILD)/mkfs              build an image:  mkfs IMAGE FILE...
#   $(BUILD)/fsck              check an image:  fsck [-q] IMAGE
#   $(BUILD)/qobs              the recorders' host reader: a dump in a disk
#                              image -> a trace's Chrome JSON, latency summary
#                              and schedsim replay file, or a profile's flat
#                              profile and folded stacks (symbolised against
#                              $(BUILD)/kernel.elf and $(BUILD)/user/_NAME)
#   $(BUILD)/qtrace, qprof     links to qobs: `qobs trace`, `qobs prof`
#   make trace CMD="..."       boot (CPUS, SCHED, RQ as make qemu), run CMD in
#                              the shell with tracing on, halt, extract into
#                              $(BUILD)/trace/ (docs/tracing.md)
#   make profile CMD="..."     boot (CPUS as make qemu) under -icount, run
#                              `prof CMD`, halt, extract into $(BUILD)/profile/
#                              (docs/profiling.md)
# Their GoogleTest tests (fs_tests, trace_tests, prof_tests) are in
# mk/tests.mk.
#
# The shared engine (tools/fsbuild.cc, tools/fscheck.cc) is compiled by
# mk/lib.mk's pattern rules into $(BUILD)/host/ (the tools) and
# $(BUILD)/host-san/ (the tests). mkfs links only its builder and the seam
# (make qemu builds nothing else on the host); fsck and the tests link
# $(BUILD)/libquanta-host(-san).a.

# The tools are compiled at -O1 (HOST_TOOLS_OPT): they read and write
# images and dumps of a few MiB, in milliseconds either way, and -O2 made
# their 12 files cost 37 s of CPU against 24 s (make test builds them all;
# make qemu builds mkfs). schedsim and lib/ stay at -O2 (HOST_CXXFLAGS).
HOST_TOOLS_OPT ?= -O1
$(BUILD)/host/tools/%.o: HOST_CXXFLAGS += $(HOST_TOOLS_OPT)

TOOLS_LIB_SRCS := tools/fsbuild.cc tools/fscheck.cc
TOOLS_LIB_OBJS := $(patsubst %.cc,$(BUILD)/host/%.o,$(TOOLS_LIB_SRCS))

$(BUILD)/mkfs: $(BUILD)/host/tools/mkfs.o $(BUILD)/host/tools/fsbuild.o $(BUILD)/host/lib/host/seam_host.o
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^

$(BUILD)/fsck: $(BUILD)/host/tools/fsck.o $(TOOLS_LIB_OBJS) $(BUILD)/libquanta-host.a
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^

ALL_TARGETS += $(BUILD)/mkfs $(BUILD)/fsck

.PHONY: tools
tools: $(BUILD)/mkfs $(BUILD)/fsck

# The recorders' reader (user/obs.c writes the dumps: docs/tracing.md,
# docs/profiling.md).
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

-include $(wildcard $(BUILD)/host/tools/*.d $(BUILD)/host-san/tools/*.d)
