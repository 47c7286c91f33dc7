# Compilers and flags.
CROSS ?= riscv64-linux-gnu-
HOST_CXX ?= g++
HOST_CXXFLAGS ?= -std=c++20 -O2 -g -Wall -Wextra -Werror=return-type -I. -MMD -MP
HOST_SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer

K_CXX := $(CROSS)g++
K_LD := $(CROSS)ld
K_OBJDUMP := $(CROSS)objdump
# The kernel is built without floating point (rv64imac): any float use fails to link.
K_ARCH := -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany
# A kernel stack is one page with an unmapped guard page below it
# (kernel/arch/riscv/memlayout.h:kstack). A frame bigger than the guard
# lets a function's sp jump over it into the next slot's stack, and an
# interrupt taken before the frame's first store (kernelvec pushes 256
# bytes) writes there: a copy of the region map on the stack in exec did
# that (a store fault in kernelvec at 1 hart). So no frame over 1 KiB.
K_FRAME_MAX := 1024
K_CXXFLAGS := -std=c++20 $(K_ARCH) -O2 -g -Wall -Wextra -Werror=return-type \
  -Werror=frame-larger-than=$(K_FRAME_MAX) \
  -ffreestanding -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit \
  -fno-stack-protector -fno-pie -no-pie -fno-common -nostdlib -fno-builtin-memset \
  -fno-omit-frame-pointer -mno-relax -I. -MMD -MP
K_ASFLAGS := $(K_ARCH) -I. -MMD -MP

# User programs: same ISA as xv6-riscv's defaults, linked at address 0.
U_CC := $(CROSS)gcc
U_CXX := $(CROSS)g++
U_ARCH := -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany
U_CFLAGS := $(U_ARCH) -O2 -g -Wall -ffreestanding -fno-builtin -nostdlib -fno-pie -no-pie \
  -fno-stack-protector -fno-common -mno-relax -Iuser/include -I. -MMD -MP
U_CXXFLAGS := -std=c++20 $(U_CFLAGS) -fno-exceptions -fno-rtti -fno-threadsafe-statics

# GoogleTest, for every host test binary (the host_test template, mk/lib.mk).
GTEST_LIBS := -lgtest -lgtest_main -pthread

# Quiet build: every compile, link and generation step prints one short line,
# `  TAG  file` (CXX/AS/LD kernel, UCC/UCXX/UAS/ULD user programs, HOSTCXX /
# SANCXX host objects plain / under ASan+UBSan, HOSTLD/TESTLD host links);
# `make V=1` prints the full command lines instead. A recipe line starts
# with $(call say,TAG,FILE) in place of '@'; Q is '@' unless V=1.
V ?= 0
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif
