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
# with $(call say,TAG,FILE) in place of '@'; Q is '@' unless V=1. make
# prints the line itself ($(info), TAG padded to 7 letters): a printf in
# the recipe made every compile start a shell too, and starting a process
# is what costs here (about 10 ms of CPU each, a third of an empty compile).
V ?= 0
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say_space := $(subst x, ,x)
say_letters := A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
say_spell = $(if $(2),$(call say_spell,$(subst $(firstword $(2)),$(firstword $(2)) ,$(1)),$(wordlist 2,26,$(2))),$(1))
say_pad = $(subst x, ,$(subst $(say_space),,$(wordlist $(words x $(call say_spell,$(1),$(say_letters))),7,x x x x x x x)))
say = $(info $(say_space)$(say_space)$(1)$(call say_pad,$(1))$(say_space)$(2))@
endif

# Output directories: a rule that writes under $(BUILD) names its directory
# as an order-only prerequisite, `| $$(@D)/.`, and make creates each
# directory once (one mkdir per directory instead of one per file).
.SECONDEXPANSION:
.PRECIOUS: %/.
%/.:
	$(Q)mkdir -p $@
