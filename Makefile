# quanta - top-level build.
#
# Everything builds into build/. Each area has a fragment in mk/, all
# included below (with `include`: a missing or misspelt one is an error):
#   mk/toolchain.mk    compilers and flags (host and RISC-V cross), V=1, GTEST_LIBS
#   mk/lib.mk          dual-compiled pure code (lib/) for the host, the
#                      host_test template (test binaries under ASan/UBSan)
#   mk/kernel.mk       the kernel image build/kernel.elf
#   mk/user.mk         user library, user programs, the disk image build/fs.img
#   mk/tools.mk        host tools: mkfs, fsck, and their tests
#   mk/sim.mk          scheduler simulator build/schedsim and its tests
#   mk/tests.mk        make test, test-host, test-guest (SUITE=, GTEST_FILTER=, TEST_JOBS=)
#   mk/qemu.mk         make qemu, qemu-gdb, qemu-gfx
#   mk/kfs.mk          host tests of the kernel file system (kernel/fs on the host)
#   mk/sched.mk        scheduling policy library tests, freestanding check, bench-sched
#   mk/reliability.mk  fuzz, crashtest, exhaust, hostile, soak
#   mk/sched-user.mk   scheduling user programs (nice, ps, sharetest, ...)
#   mk/klib-tests.mk   host tests of kernel logic in lib/ (page pool, device tree)
#   mk/bench.mk        in-guest benchmarks (make bench)
#   mk/dev.mk          docs-check, compile-commands, format, lint
#   mk/gfx.mk          framebuffer test suite
#   mk/obs.mk          tracing and profiling: trace, prof, qobs (qtrace, qprof),
#                      make trace, make profile
#   mk/libc.mk         user floating point checks, the C library port (sysroot, qcc)
#   mk/threads.mk      thread and futex tests and benchmarks (threadtest, threadbench)
#   mk/vm.mk           virtual memory: vmtest, mmaptest, vmstat and their suites
#   mk/ipc.mk          named pipes and poll: ipctest and its suite
#   mk/signals.mk      signals and job control: sigtest, jobtest and their suite
#
# Main targets: make qemu | make qemu-gfx | make test | make sim | make bench-sim | make clean
# Quiet build (one `  TAG  file` line per step); `make V=1` shows full commands.

.DEFAULT_GOAL := all
BUILD := build
CPUS ?= 3
SCHED ?=
# Parallel jobs for the builds that make qemu, make test, ... start
# themselves: one per host CPU.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

include mk/toolchain.mk
include mk/lib.mk
include mk/kernel.mk
include mk/user.mk
include mk/tools.mk
include mk/sim.mk
include mk/tests.mk
include mk/qemu.mk
include mk/kfs.mk
include mk/sched.mk
include mk/reliability.mk
include mk/sched-user.mk
include mk/klib-tests.mk
include mk/bench.mk
include mk/dev.mk
include mk/gfx.mk
include mk/obs.mk
include mk/libc.mk
include mk/threads.mk
include mk/vm.mk
include mk/ipc.mk
include mk/signals.mk

.PHONY: all clean deps
all: $(ALL_TARGETS)

# Install the cross compiler and QEMU when missing (Debian 12).
deps:
	@tools/install-deps.sh

clean:
	rm -rf $(BUILD)
