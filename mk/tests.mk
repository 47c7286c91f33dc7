# make test: every host unit test, every check, every in-guest suite.
#   HOST_TESTS   GoogleTest binaries (each fragment appends its own)
#   HOST_CHECKS  make targets run as single checks (pass = exit 0)
#   GUEST_SUITES, EXTRA_GUEST_SUITES  python scripts under tests/guest printing
#                PASS/FAIL lines, each followed by its arguments
GUEST_SUITES += tests/guest/shell_tests.py 1 3 8
EXTRA_GUEST_SUITES += tests/guest/sched_tests.py
EXTRA_GUEST_SUITES += tests/guest/usertests.py 1 3

.PHONY: test test-host test-guest
test:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory -j2 $(HOST_TESTS) $(KERNEL) $(FS_IMG)
	@python3 tests/run_tests.py $(foreach t,$(HOST_TESTS),--gtest $(t)) \
	  $(foreach c,$(HOST_CHECKS),--check '$(c):$(MAKE) --no-print-directory -s $(c)') \
	  --guest-list='$(GUEST_SUITES) $(EXTRA_GUEST_SUITES)'

test-host:
	@$(MAKE) --no-print-directory -j2 $(HOST_TESTS)
	@python3 tests/run_tests.py $(foreach t,$(HOST_TESTS),--gtest $(t)) $(foreach c,$(HOST_CHECKS),--check '$(c):$(MAKE) --no-print-directory -s $(c)')

test-guest:
	@$(MAKE) --no-print-directory -j2 $(KERNEL) $(FS_IMG)
	@python3 tests/run_tests.py --guest-list='$(GUEST_SUITES) $(EXTRA_GUEST_SUITES)'
