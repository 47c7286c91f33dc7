# mk/kernel.mk - kernel/: the kernel image $(BUILD)/kernel.elf. Every .cc/.S
# under kernel/ plus the freestanding lib/ code, less the host seam and the
# simulator-only batch policies (FIFO/SJF/STCF need job lengths no kernel
# knows).
K_SRCS := $(shell find kernel -name '*.cc' -o -name '*.S' | sort) \
          $(filter-out lib/host/% lib/sched/batch.cc,$(shell find lib -name '*.cc' | sort))
K_OBJS := $(patsubst %,$(BUILD)/kernel-obj/%.o,$(K_SRCS))
KERNEL := $(BUILD)/kernel.elf

$(BUILD)/kernel-obj/%.cc.o: %.cc | $$(@D)/.
	$(call say,CXX,$<)$(K_CXX) $(K_CXXFLAGS) -c $< -o $@

$(BUILD)/kernel-obj/%.S.o: %.S | $$(@D)/.
	$(call say,AS,$<)$(K_CXX) $(K_ASFLAGS) -c $< -o $@

$(KERNEL): $(K_OBJS) kernel/arch/riscv/kernel.ld
	$(call say,LD,$@)$(K_LD) -z max-page-size=4096 --no-warn-rwx-segments -T kernel/arch/riscv/kernel.ld -o $@ $(K_OBJS)
	$(call say,OBJDUMP,$(BUILD)/kernel.asm)$(K_OBJDUMP) -S $@ > $(BUILD)/kernel.asm

ALL_TARGETS += $(KERNEL)

-include $(K_OBJS:.o=.d)

# make check-kernel-fp: the kernel image has FP instructions only in
# kernel/arch/riscv/fpu.S's routines (tests/guest/fp_tests.py runs the same
# check first, so make test-host needs no kernel).
.PHONY: check-kernel-fp
check-kernel-fp: $(KERNEL)
	@python3 tools/check_kernel_fp.py $(K_OBJDUMP) $(KERNEL)
