# quanta - top-level build.
#
# Everything builds into build/. Each area has a fragment in mk/:
#   mk/toolchain.mk  compilers and flags (host and RISC-V cross)
#   mk/lib.mk        dual-compiled pure code (lib/) for host and kernel
#   mk/kernel.mk     the kernel image build/kernel.elf
#   mk/user.mk       user library, user programs, the disk image build/fs.img
#   mk/tools.mk      host tools: mkfs, fsck
#   mk/sim.mk        scheduler simulator build/schedsim
#   mk/tests.mk      host unit tests (GoogleTest) and in-guest tests
#
# Main targets: make qemu | make qemu-gfx | make test | make sim | make bench-sim | make clean

.DEFAULT_GOAL := all
BUILD := build
CPUS ?= 3
SCHED ?=

include mk/toolchain.mk
-include mk/lib.mk
-include mk/kernel.mk
-include mk/user.mk
-include mk/tools.mk
-include mk/sim.mk
-include mk/tests.mk
-include mk/qemu.mk
-include mk/kfs.mk
-include mk/sched.mk
-include mk/reliability.mk
-include mk/sched-user.mk
-include mk/klib-tests.mk
-include mk/bench.mk
-include mk/dev.mk
-include mk/gfx.mk

.PHONY: all clean deps
all: $(ALL_TARGETS)

# Install the cross compiler and QEMU when missing (Debian 12).
deps:
	@tools/install-deps.sh

clean:
	rm -rf $(BUILD)
