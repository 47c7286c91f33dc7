# mk/bench.mk - bench/: in-guest benchmarks: schbench (wakeup latency,
# requests/s) and frames (software-rendered 3D scene, frames/s), compared
# across the scheduling policies under CPU hogs; the OS paths; the policies'
# pick+charge on the host. See docs/benchmarks.md.
#
#   make bench                 every policy x scenario, table + CSV + PNG
#                              (build/bench/results.csv, results.png)
#   make bench BENCH_CPUS=2    the same on 2 harts (default 1)
#   make bench BENCH_SLICE=US  preemption slice in microseconds (default 4000)
#   make bench BENCH_RQ=single run queues: percpu (default, the kernel's) or single
#   make bench-os              OS paths (null syscall, fork, pipe, files...), 1 and 3 harts
#   make bench-sched           Google Benchmark: a policy's pick+charge at 1k/10k/100k tasks
#   make bench-sim             the simulator's cost (mk/sim.mk)
# `make test` runs a short smoke test of both programs (tests/guest/bench_smoke.py).

BENCH_CPUS ?= 1
BENCH_SLICE ?= 4000
BENCH_RQ ?= percpu
BENCH_OS_ARGS ?=
BENCH_ARGS ?=

.PHONY: bench bench-os bench-sched
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

# make bench-os also runs tests/libc/pthreadbench.c (bench/os_bench.py).
bench-os: $(BUILD)/libc-tests/_pthreadbench $(BUILD)/mkfs

# make bench-sched: bench/sched_bench.cc, Google Benchmark on the host.
$(BUILD)/bench/sched_bench: $(BUILD)/host/bench/sched_bench.o $(BUILD)/libquanta-host.a | $$(@D)/.
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^ -lbenchmark -pthread

bench-sched: $(BUILD)/bench/sched_bench
	$(BUILD)/bench/sched_bench --benchmark_min_time=0.2

-include $(BUILD)/host/bench/sched_bench.d
