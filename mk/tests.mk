# mk/tests.mk - tests/: make test, its host test binaries, its in-guest
# suites, the C library's textbook programs and the longer reliability runs.
#   HOST_TESTS   GoogleTest binaries: the host_test rows below (one binary
#                each, built under ASan+UBSan)
#   HOST_CHECKS  make targets run as single checks (pass = exit 0): each
#                fragment appends its own (mk/lib.mk, mk/dev.mk)
#   GUEST_SUITES the in-guest suites: the table below
#   GUEST_DEPS   what the guest suites run besides the kernel, the image's
#                files and fsck (built before them)
#
# Fast loops (docs: README.md "Tests"):
#   make test-host                       host tests and checks only; no kernel, no QEMU
#   make test-host GTEST_FILTER='Eevdf*' only the GoogleTest cases matching the
#                                        filter (gtest syntax; binaries with no match report 0)
#   make test-guest SUITE=sched          one in-guest suite: tests/guest/sched_tests.py
#                                        (SUITE is the script name without .py or _tests;
#                                        every row of it, e.g. all four hostile runs;
#                                        SUITE=list names them all)
#   make test TEST_JOBS=2                two binaries/checks/suites at once (default 1: an
#                                        8-hart guest beside a sanitizer binary on 2 cores
#                                        once stalled past a suite's 30 s timeout)

# The in-guest suites, the one place a suite is registered: one row each,
# a script under tests/guest/ and its arguments (hart counts, else the
# script's own options). Each boot starts from its own fresh image
# (tests/guest/qemu.py). make test runs them in this order.
GUEST_SUITES := \
  shell_tests.py 1 3 8 \
  fp_tests.py 1 3 \
  libc_tests.py 1 3 \
  pthread_tests.py 1 3 8 \
  ipc_tests.py 1 3 8 \
  signals_tests.py 1 3 8 \
  sched_tests.py \
  usertests.py 1 3 \
  users_tests.py 3 \
  fuzz.py --seconds 20 --cpus 4 \
  crashtest.py --crashes 3 --cpus 3 \
  exhaust.py --cpus 3 \
  hostile.py --cpus 1 --overcount 12 --ioerror \
  hostile.py --cpus 3 \
  ostep_tests.py \
  bench_smoke.py \
  bcache_tests.py \
  fb_test.py \
  trace_tests.py \
  replay_tests.py 1 3 \
  prof_tests.py \
  threads_tests.py 1 3 8 \
  hostile.py --cpus 8 --only tbomb tfutex texitrace texecrace tkill tjoin tstack inoreuse \
  vm_tests.py 1 3 8 \
  swap_tests.py 1 3 8 \
  hostile.py --cpus 8 --only cowbomb cowcount filecount copyrace touchall mmaptrunc mprotrace lockorder sbrkrace
GUEST_DEPS = $(QTRACE) $(QPROF) $(BUILD)/schedsim $(FPTEST) $(LIBC_TESTS) $(PTHREAD_TESTS)

# Python that drives guests: tests/guest/qemu.py boots $(BUILD)'s kernel and image.
# A damaged image any suite's fsck finds is kept (QUANTA_KEEP_BAD_IMAGE,
# default $(BUILD)/bad-images), as is a failed suite's whole output
# ($(BUILD)/test-logs/): an intermittent failure leaves its evidence.
QUANTA_KEEP_BAD_IMAGE ?= $(abspath $(BUILD))/bad-images
GUEST_PY = QUANTA_BUILD=$(abspath $(BUILD)) QUANTA_KEEP_BAD_IMAGE=$(QUANTA_KEEP_BAD_IMAGE) python3
SUITE ?=
GTEST_FILTER ?=
TEST_JOBS ?= 1
RUN_TESTS = $(GUEST_PY) tests/run_tests.py --jobs $(TEST_JOBS) $(if $(GTEST_FILTER),--gtest-filter='$(GTEST_FILTER)')
RUN_HOST_ARGS = $(foreach t,$(HOST_TESTS),--gtest $(t)) \
  $(foreach c,$(HOST_CHECKS),--check '$(c):$(MAKE) --no-print-directory -s $(c)')
RUN_GUEST_ARGS = --guest-list='$(patsubst %.py,tests/guest/%.py,$(GUEST_SUITES))' $(if $(SUITE),--suite '$(SUITE)')

.PHONY: test test-host test-guest
test:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory -j$(JOBS) $(HOST_TESTS) $(KERNEL) $(FS_IMG) $(BUILD)/fsck $(GUEST_DEPS)
	@$(RUN_TESTS) $(RUN_HOST_ARGS) $(RUN_GUEST_ARGS)

test-host:
	@$(MAKE) --no-print-directory -j$(JOBS) $(HOST_TESTS)
	@$(RUN_TESTS) $(RUN_HOST_ARGS)

test-guest:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG) $(BUILD)/fsck $(GUEST_DEPS)
	@$(RUN_TESTS) $(RUN_GUEST_ARGS)

# Host test binaries: one description, one binary.
#   $(call host_test,NAME,SOURCES)
# links $(BUILD)/tests/NAME from SOURCES compiled into $(BUILD)/host-san/
# (ASan+UBSan, see above) with libquanta-host-san.a and GoogleTest, and
# appends it to HOST_TESTS (so make test and make test-host run it).
# The binary's GoogleTest files (tests/host/*_test.cc) are compiled as one
# translation unit, $(call host_test_obj,NAME): the last with -c, the others
# through -include, in order. GoogleTest's headers cost about 3 s of CPU to
# parse and instantiate in every file that includes them, most of a test
# file's compile: sched_tests' 11 files took 52 s of CPU one by one and 16 s
# as one unit (README.md, "Where the time goes"). So the test files of one
# binary share one scope: two of them may not define the same helper at file
# scope (anonymous namespace or static), and the compiler names any clash.
# The code under test (kernel/, sim/, tools/ sources) is compiled file by
# file, as before. $(BUILD)/tests/NAME-san is the same binary under its old
# name (a link), so fragments and scripts that name it keep working. Extra
# flags for the tests go on $(call host_test_obj,NAME), e.g. fs_tests below.
# (1 name, 2 sources)
host_test_obj = $(BUILD)/host-san/tests/$(1).o
define host_test_binary
$(1)_UNITY := $(filter tests/host/%_test.cc,$(2))
$(call host_test_obj,$(1)): $$($(1)_UNITY) | $$$$(@D)/.
	$$(call say,SANCXX,$(1): $$(words $$($(1)_UNITY)) test files)$$(HOST_CXX) $$(HOST_CXXFLAGS) $$(HOST_SANFLAGS) \
	  $$(HOST_SAN_OPT) $$(patsubst %,-include %,$$(filter-out $$(lastword $$($(1)_UNITY)),$$($(1)_UNITY))) \
	  -c $$(lastword $$($(1)_UNITY)) -o $$@
$(BUILD)/tests/$(1): $(call host_test_obj,$(1)) $(patsubst %.cc,$(BUILD)/host-san/%.o,$(filter-out tests/host/%_test.cc,$(2))) \
  $(BUILD)/libquanta-host-san.a | $$$$(@D)/.
	$$(call say,TESTLD,$$@)$$(HOST_CXX) $$(HOST_CXXFLAGS) $$(HOST_SANFLAGS) -o $$@ $$(filter %.o %.a,$$^) $$(GTEST_LIBS)
$(BUILD)/tests/$(1)-san: $(BUILD)/tests/$(1)
	$$(Q)ln -sf $(1) $$@
HOST_TESTS += $(BUILD)/tests/$(1)
-include $(patsubst %.o,%.d,$(call host_test_obj,$(1)) $(patsubst %.cc,$(BUILD)/host-san/%.o,$(2)))
endef
host_test = $(eval $(call host_test_binary,$(1),$(2)))

# --- host test binaries: one host_test row each ------------------------------
# make test runs them in this order; `make build/tests/NAME` builds one.

# build/tests/fs_tests: tests/host/fs_*.cc with mkfs's and fsck's engine.
FS_TEST_SRCS := $(wildcard tests/host/fs_*.cc)
FS_TESTS := $(BUILD)/tests/fs_tests
# The tests also run the mkfs and fsck binaries (exit statuses, messages).
FS_TEST_DEFS := -DQ_MKFS_PATH='"$(BUILD)/mkfs"' -DQ_FSCK_PATH='"$(BUILD)/fsck"'
$(call host_test_obj,fs_tests): HOST_CXXFLAGS += $(FS_TEST_DEFS)

$(call host_test,fs_tests,$(FS_TEST_SRCS) $(TOOLS_LIB_SRCS))
$(FS_TESTS): | $(BUILD)/mkfs $(BUILD)/fsck

.PHONY: fs-tests sched-tests
# Build and run the fs tests.
fs-tests: $(FS_TESTS)
	$(FS_TESTS)

# build/tests/schedsim_tests, under ASan/UBSan (the simulator's 128-bit
# fluid arithmetic, heaps and per-task vectors).
SIM_TEST_SRCS := $(wildcard tests/host/schedsim_*.cc)
ifneq ($(SIM_TEST_SRCS),)
$(call host_test,schedsim_tests,$(SIM_TEST_SRCS) $(SIM_SRCS))
ALL_TARGETS += $(BUILD)/tests/schedsim_tests
endif

# Host unit tests for the kernel file system: build/tests/kfs_tests.
#  - the pure logic (lib/fs/path.h, lib/fs/pipe_ring.h, lib/fs/log_logic.h)
#  - the real kernel/fs/*.cc (and the descriptor table, kernel/proc/tgroup.cc,
#    and the statistics calls, kernel/stats.cc)
#    compiled for the host, driven through the sys_*
#    calls against a RAM disk by a stand-in kernel (tests/host/kfs_env.cc)
# kfs_fifo_test.cc and kfs_perm_test.cc include lib/abi/abi.h before any
# system header (inside a namespace: the host's struct stat, SYS_* and POLL*
# macros would clash), so they come first in the binary's one translation
# unit (host_test above).
KFS_ABI_FIRST := tests/host/kfs_fifo_test.cc tests/host/kfs_perm_test.cc
KFS_TEST_SRCS := $(KFS_ABI_FIRST) $(filter-out $(KFS_ABI_FIRST),$(wildcard tests/host/kfs_*.cc))
KFS_KERNEL_SRCS := $(wildcard kernel/fs/*.cc) kernel/proc/tgroup.cc kernel/stats.cc
# fsck's engine: the kernel tests check their images with the real fsck.
KFS_TOOL_SRCS := tools/fscheck.cc

$(call host_test,kfs_tests,$(KFS_TEST_SRCS) $(KFS_KERNEL_SRCS) $(KFS_TOOL_SRCS))

# build/tests/sched_tests: the scheduling policy library (lib/sched).
SCHED_TEST_SRCS := $(wildcard tests/host/sched_*.cc)
$(call host_test,sched_tests,$(SCHED_TEST_SRCS))
ALL_TARGETS += $(BUILD)/tests/sched_tests
sched-tests: $(BUILD)/tests/sched_tests

# Host tests for kernel logic kept in lib/ (page pool, device-tree reader, boot arguments,
# word-at-a-time memory routines, the out-of-memory rule, process limits):
# build/tests/klib_tests. The error numbers of
# SYS_errno (lib/abi/errno_map.h) and the console's line editor
# (lib/console/line_edit.h) are tested here too.
# The device-tree test reads a blob that QEMU's virt machine dumped, committed
# as tests/host/data/virt-3cpu.dtb so host tests need neither the kernel nor
# QEMU. `make refresh-test-dtb` dumps it again (after a QEMU upgrade, or to
# change what the test expects: 3 harts, 256 MiB, the bootargs below).
VIRT_DTB := tests/host/data/virt-3cpu.dtb

KLIB_TEST_SRCS := tests/host/kernel_lib_test.cc tests/host/memops_test.cc tests/host/oom_rule_test.cc \
  tests/host/rlimit_test.cc tests/host/vm_regions_test.cc tests/host/page_refs_test.cc \
  tests/host/abi_errno_test.cc tests/host/console_line_test.cc \
  tests/host/signal_rules_test.cc tests/host/signal_jobs_test.cc tests/host/boot_args_test.cc \
  tests/host/swap_test.cc
$(call host_test,klib_tests,$(KLIB_TEST_SRCS))
$(call host_test_obj,klib_tests): HOST_CXXFLAGS += -DQ_VIRT_DTB='"$(VIRT_DTB)"'

.PHONY: refresh-test-dtb
# QEMU pads the dump to 1 MiB; only the blob's own size (header bytes 4-7) is kept.
refresh-test-dtb: $(KERNEL)
	$(call say,DTB,$(VIRT_DTB))qemu-system-riscv64 -machine virt,dumpdtb=$(BUILD)/virt-3cpu.dtb -bios none -kernel $(KERNEL) -smp 3 -m 256M \
	  -append "sched=dwrr slice=2000" -nographic >/dev/null
	$(Q)python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(d[:int.from_bytes(d[4:8], "big")])' \
	  $(BUILD)/virt-3cpu.dtb $(VIRT_DTB)

# The page cache's index (lib/vm/page_cache.h): build/tests/pcache_tests.
$(call host_test,pcache_tests,tests/host/page_cache_test.cc)

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

# --- textbook programs built with qcc (the C library: mk/user.mk) -----------
# build/libc-tests/_*: tests/libc/*.c, built with qcc only for
# tests/guest/libc_tests.py and pthread_tests.py (GUEST_DEPS), not put in
# build/fs.img.
LIBC_TEST_NAMES := wordfreq numstat timing fileio spawn lsdir ipcpoll mman signals catch
LIBC_TESTS := $(patsubst %,$(BUILD)/libc-tests/_%,$(LIBC_TEST_NAMES))
$(BUILD)/libc-tests/_%: tests/libc/%.c $(SYSROOT_FILES) | $$(@D)/.
	$(call say,QCC,$<)$(QCC) -O2 -Wall -Wextra -Werror=implicit-function-declaration $(QCC_FLAGS) -o $@ $< -lm

# POSIX threads: tests/libc/pthreads.c, the benchmarks pthreadbench.c and
# pschbench.c (docs/benchmarks.md) and the OSTEP concurrency programs of
# tests/libc/ostep/ (docs/concurrency.md), for tests/guest/pthread_tests.py.
OSTEP_CONC_NAMES := counter locks cvjoin pc sem vecadd
PTHREAD_TESTS := $(BUILD)/libc-tests/_pthreads $(BUILD)/libc-tests/_pthreadbench $(BUILD)/libc-tests/_pschbench \
  $(patsubst %,$(BUILD)/libc-tests/_%,$(OSTEP_CONC_NAMES))
$(PTHREAD_TESTS): QCC_FLAGS := -pthread
$(BUILD)/libc-tests/_%: tests/libc/ostep/%.c tests/libc/ostep/common.h $(SYSROOT_FILES) | $$(@D)/.
	$(call say,QCC,$<)$(QCC) -O2 -Wall -Wextra -Werror=implicit-function-declaration -pthread -o $@ $<

# --- reliability runs --------------------------------------------------------
# The system-call fuzzer, crash
# consistency (kill QEMU mid-workload, replay, fsck), exhaustion, and the
# hostile suite (what the hardening pass broke the kernel with).
#
#   make fuzz FUZZ_SECONDS=N [FUZZ_SEED=S] [FUZZ_CPUS=4]
#   make crashtest CRASHES=N [CRASH_SEED=S] [CPUS=3]
#   make exhaust [CPUS=3]
#   make hostile [CPUS=3]
# `make test` runs a short fuzz, a few crash points, the exhaustion suite
# and the hostile runs (GUEST_SUITES above).

FUZZ_SECONDS ?= 60
FUZZ_SEED ?=
FUZZ_CPUS ?= 4
CRASHES ?= 10
CRASH_SEED ?=

.PHONY: fuzz crashtest exhaust hostile
fuzz:
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG)
	$(GUEST_PY) tests/guest/fuzz.py --seconds $(FUZZ_SECONDS) --cpus $(FUZZ_CPUS) $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))

crashtest:
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG) $(BUILD)/fsck
	$(GUEST_PY) tests/guest/crashtest.py --crashes $(CRASHES) --cpus $(CPUS) $(if $(CRASH_SEED),--seed $(CRASH_SEED))

exhaust:
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG)
	$(GUEST_PY) tests/guest/exhaust.py --cpus $(CPUS)

hostile:
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG) $(BUILD)/fsck
	$(GUEST_PY) tests/guest/hostile.py --cpus $(CPUS)

# make soak: the full in-guest suite (slow tests included), the exhaustion
# suite and the fuzzer, all on 8 harts; the fuzzer runs SOAK_SECONDS
# (default 600). Not part of make test or CI.
SOAK_SECONDS ?= 600
SOAK_SUITES = tests/guest/usertests.py --full 8 tests/guest/exhaust.py --cpus 8 \
  tests/guest/fuzz.py --seconds $(SOAK_SECONDS) --cpus 8 $(if $(FUZZ_SEED),--seed $(FUZZ_SEED))
.PHONY: soak
soak:
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG)
	@$(GUEST_PY) tests/run_tests.py --guest-list='$(SOAK_SUITES)'
