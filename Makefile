# quanta - top-level build.
#
# Everything builds into build/. Each top-level directory has one fragment
# in mk/, named after it, that builds what the directory holds; three more
# are the shared core. All are included below (with `include`: a missing or
# misspelt one is an error):
#   mk/toolchain.mk  compilers and flags (host and RISC-V cross), V=1, GTEST_LIBS
#   mk/lib.mk        lib/: the dual-compiled code for the host (the kernel
#                    compiles it itself), host compile rules, sched-freestanding-check
#   mk/kernel.mk     kernel/: the kernel image build/kernel.elf, check-kernel-fp
#   mk/user.mk       user/: the user library, the table of user programs, the
#                    disk image build/fs.img, the C library port (sysroot, qcc)
#   mk/tools.mk      tools/: mkfs, fsck, qobs (qtrace, qprof), make trace, make profile
#   mk/sim.mk        sim/: the scheduler simulator build/schedsim, make bench-sim
#   mk/tests.mk      tests/: make test, test-host, test-guest (SUITE=, GTEST_FILTER=,
#                    TEST_JOBS=), the table of host test binaries, the table of
#                    in-guest suites, qcc-built textbook programs, fuzz, crashtest,
#                    exhaust, hostile, soak
#   mk/bench.mk      bench/: make bench, bench-os, bench-sched
#   mk/qemu.mk       (core) make qemu, qemu-gdb, qemu-gfx
#   mk/dev.mk        (core) docs-check, exercises-check, compile-commands, format, lint
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
include mk/bench.mk
include mk/dev.mk

.PHONY: all clean deps
all: $(ALL_TARGETS)

# Install the cross compiler and QEMU when missing (Debian 12).
deps:
	@tools/install-deps.sh

clean:
	rm -rf $(BUILD)
