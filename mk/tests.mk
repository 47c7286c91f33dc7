# make test: every host unit test, every check, every in-guest suite.
#   HOST_TESTS   GoogleTest binaries (each fragment appends its own, mostly
#                through mk/lib.mk's host_test: NAME, built under ASan+UBSan)
#   HOST_CHECKS  make targets run as single checks (pass = exit 0)
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
  hostile.py --cpus 8 --only cowbomb cowcount filecount copyrace touchall mmaptrunc mprotrace lockorder
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
