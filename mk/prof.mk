# mk/prof.mk - the kernel's sampling profiler (docs/profiling.md).
#
#   user/prof.c                the guest's `prof` program
#   $(BUILD)/qprof             host tool: dump in a disk image -> flat
#                              profile, folded stacks (symbolised against
#                              $(BUILD)/kernel.elf and $(BUILD)/user/_NAME)
#   make profile CMD="..."     boot (CPUS as make qemu) under -icount, run
#                              `prof CMD`, halt, extract into $(BUILD)/profile/
UPROG_NAMES += prof
UPROG_PARTS_prof := dumpfile

PROF_TOOL_SRCS := tools/image_files.cc tools/dump_sections.cc tools/prof_reader.cc
QPROF := $(BUILD)/qprof

$(QPROF): $(BUILD)/host/tools/qprof.o $(patsubst %.cc,$(BUILD)/host/%.o,$(PROF_TOOL_SRCS)) $(BUILD)/libquanta-host.a
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^

ALL_TARGETS += $(QPROF)
-include $(BUILD)/host/tools/qprof.d

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
	$(GUEST_PY) tools/prof_run.py --cmd '$(CMD)' --cpus $(CPUS) --period $(PROF_PERIOD) --kb $(PROF_KB) \
	  --icount $(PROF_ICOUNT) --top $(PROF_TOP) --out $(BUILD)/profile

# build/tests/prof_tests: tests/host/prof_*.cc with the reader and
# symboliser, and mkfs's builder (images holding dumps).
PROF_TEST_SRCS := $(wildcard tests/host/prof_*.cc)
$(call host_test,prof_tests,$(PROF_TEST_SRCS) $(PROF_TOOL_SRCS) tools/fsbuild.cc)
PROF_TEST_DEFS := -DQ_QPROF_PATH='"$(QPROF)"'
$(call host_test_obj,prof_tests): HOST_CXXFLAGS += $(PROF_TEST_DEFS)
$(BUILD)/tests/prof_tests: | $(QPROF)

EXTRA_GUEST_SUITES += tests/guest/prof_tests.py
GUEST_DEPS += $(QPROF)
