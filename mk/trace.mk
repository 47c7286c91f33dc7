# mk/trace.mk - scheduler tracing (docs/tracing.md).
#
#   user/trace.c               the guest's `trace` program
#   $(BUILD)/qtrace            host tool: dump in a disk image -> Chrome JSON,
#                              latency summary, schedsim replay file
#   make trace CMD="..."       boot (CPUS, SCHED, RQ as make qemu), run CMD in
#                              the shell with tracing on, halt, extract into
#                              $(BUILD)/trace/
UPROG_NAMES += trace
UPROG_PARTS_trace := dumpfile

TRACE_TOOL_SRCS := tools/image_files.cc tools/dump_sections.cc tools/trace_reader.cc tools/trace_model.cc tools/trace_output.cc
QTRACE := $(BUILD)/qtrace

$(QTRACE): $(BUILD)/host/tools/qtrace.o $(patsubst %.cc,$(BUILD)/host/%.o,$(TRACE_TOOL_SRCS)) $(BUILD)/libquanta-host.a
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^

ALL_TARGETS += $(QTRACE)

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
	$(GUEST_PY) tools/trace_run.py --cmd '$(CMD)' --cpus $(CPUS) $(if $(SCHED),--sched $(SCHED)) $(if $(RQ),--rq $(RQ)) \
	  $(if $(BOOTARGS_EXTRA),--bootargs '$(BOOTARGS_EXTRA)') --kb $(TRACE_KB) \
	  $(if $(TRACE_ICOUNT),--icount $(TRACE_ICOUNT)) --out $(BUILD)/trace $(TRACE_ARGS)

# build/tests/trace_tests: tests/host/trace_*.cc with the reader,
# model and writers, mkfs's builder (images holding dumps) and schedsim's
# replay parser (the replay file must be what schedsim reads).
TRACE_TEST_SRCS := $(wildcard tests/host/trace_*.cc)
$(call host_test,trace_tests,$(TRACE_TEST_SRCS) $(TRACE_TOOL_SRCS) tools/fsbuild.cc sim/replay.cc sim/workload.cc)
TRACE_TEST_DEFS := -DQ_QTRACE_PATH='"$(QTRACE)"'
$(call host_test_obj,trace_tests): HOST_CXXFLAGS += $(TRACE_TEST_DEFS)
$(BUILD)/tests/trace_tests: | $(QTRACE)
-include $(BUILD)/host/tools/qtrace.d

EXTRA_GUEST_SUITES += tests/guest/trace_tests.py
GUEST_DEPS += $(QTRACE)
