# make test: every host unit test, every check, every in-guest suite.
#   HOST_TESTS   GoogleTest binaries (each fragment appends its own, mostly
#                through mk/lib.mk's host_test: NAME, built under ASan+UBSan)
#   HOST_CHECKS  make targets run as single checks (pass = exit 0)
#   GUEST_SUITES, EXTRA_GUEST_SUITES  python scripts under tests/guest printing
#                PASS/FAIL lines, each followed by its arguments
#   GUEST_DEPS   host tools the guest suites run (built before them)
#
# Fast loops (docs: README.md "Tests"):
#   make test-host                       host tests and checks only; no kernel, no QEMU
#   make test-host GTEST_FILTER='Eevdf*' only the GoogleTest cases matching the
#                                        filter (gtest syntax; binaries with no match report 0)
#   make test-guest SUITE=sched          one in-guest suite: tests/guest/sched_tests.py
#                                        (SUITE is the script name without .py or _tests;
#                                        every configured run of it, e.g. both hostile runs)
GUEST_SUITES += tests/guest/shell_tests.py 1 3 8
EXTRA_GUEST_SUITES += tests/guest/sched_tests.py
EXTRA_GUEST_SUITES += tests/guest/usertests.py 1 3
EXTRA_GUEST_SUITES += tests/guest/users_tests.py 3

#   make test TEST_JOBS=2                two binaries/checks/suites at once (default 1: an
#                                        8-hart guest beside a sanitizer binary on 2 cores
#                                        once stalled past a suite's 30 s timeout)
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
RUN_GUEST_ARGS = --guest-list='$(GUEST_SUITES) $(EXTRA_GUEST_SUITES)' $(if $(SUITE),--suite '$(SUITE)')

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
