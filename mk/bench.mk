# mk/bench.mk - in-guest benchmarks: schbench (wakeup latency, requests/s)
# and frames (software-rendered 3D scene, frames/s), compared across the
# scheduling policies under CPU hogs. See docs/benchmarks.md.
#
#   make bench                 every policy x scenario, table + CSV + PNG
#                              (build/bench/results.csv, results.png)
#   make bench BENCH_CPUS=2    the same on 2 harts (default 1)
#   make bench BENCH_SLICE=US  preemption slice in microseconds (default 4000)
#   make bench BENCH_RQ=single run queues: percpu (default, the kernel's) or single
#   make bench-os              OS paths (null syscall, fork, pipe, files...), 1 and 3 harts
# `make test` runs a short smoke test of both programs (tests/guest/bench_smoke.py).

BENCH_CPUS ?= 1
BENCH_SLICE ?= 4000
BENCH_RQ ?= percpu
BENCH_OS_ARGS ?=
BENCH_ARGS ?=

.PHONY: bench bench-os
# make bench-os: user/benchos (lmbench-style OS paths) under -icount at 1
# and 3 harts: a table and $(BUILD)/bench/os.csv (docs/benchmarks.md).
bench-os:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG)
	$(GUEST_PY) bench/os_bench.py --out $(BUILD)/bench $(BENCH_OS_ARGS)

bench:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(FS_IMG)
	$(GUEST_PY) bench/guest_bench.py --cpus $(BENCH_CPUS) --slice $(BENCH_SLICE) --rq $(BENCH_RQ) --out $(BUILD)/bench $(BENCH_ARGS)
