# mk/libc.mk - user floating point checks, and (later) the C library port.
#
#   build/user/_fptest   the FP test program (xv6 library, D instructions,
#                        lp64 ABI); built only for tests/guest/fp_tests.py
#                        (GUEST_DEPS), not put in build/fs.img
#   check-kernel-fp      HOST_CHECK: the kernel image has FP instructions
#                        only in kernel/arch/riscv/fpu.S's routines

FPTEST := $(BUILD)/user/_fptest
UPROG_PARTS_fptest := fptest_regs
$(BUILD)/user/fptest.o: U_EXTRA_FLAGS += -march=rv64imafdc_zicsr
GUEST_DEPS += $(FPTEST)
GUEST_SUITES += tests/guest/fp_tests.py 1 3

HOST_CHECKS += check-kernel-fp
.PHONY: check-kernel-fp
check-kernel-fp: $(KERNEL)
	@python3 tools/check_kernel_fp.py $(K_OBJDUMP) $(KERNEL)
