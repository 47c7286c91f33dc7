# mk/reliability.mk - reliability tests: the system-call fuzzer, crash
# consistency (kill QEMU mid-workload, replay, fsck), exhaustion, and the
# hostile suite (what the hardening pass broke the kernel with).
#
#   make fuzz FUZZ_SECONDS=N [FUZZ_SEED=S] [FUZZ_CPUS=4]
#   make crashtest CRASHES=N [CRASH_SEED=S] [CPUS=3]
#   make exhaust [CPUS=3]
#   make hostile [CPUS=3]
# `make test` runs a short fuzz, a few crash points and the exhaustion
# suite through EXTRA_GUEST_SUITES (see mk/tests.mk, tests/run_tests.py).

UPROG_NAMES += fuzz fsworkload exhaust hostile bigbss
UPROG_PARTS_fuzz := fuzz_sig

FUZZ_SECONDS ?= 60
FUZZ_SEED ?=
FUZZ_CPUS ?= 4
CRASHES ?= 10
CRASH_SEED ?=

EXTRA_GUEST_SUITES += tests/guest/fuzz.py --seconds 20 --cpus 4
EXTRA_GUEST_SUITES += tests/guest/crashtest.py --crashes 3 --cpus 3
EXTRA_GUEST_SUITES += tests/guest/exhaust.py --cpus 3
EXTRA_GUEST_SUITES += tests/guest/hostile.py --cpus 1 --overcount 12 --ioerror
EXTRA_GUEST_SUITES += tests/guest/hostile.py --cpus 3

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
