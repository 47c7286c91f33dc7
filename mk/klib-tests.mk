# Host tests for kernel logic kept in lib/ (page pool, device-tree reader, boot arguments,
# word-at-a-time memory routines, the out-of-memory rule, process limits):
# build/tests/klib_tests (mk/lib.mk's host_test). The error numbers of
# SYS_errno (lib/abi/errno_map.h) and the console's line editor
# (lib/console/line_edit.h) are tested here too.
# The device-tree test reads a blob that QEMU's virt machine dumped, committed
# as tests/host/data/virt-3cpu.dtb so host tests need neither the kernel nor
# QEMU. `make refresh-test-dtb` dumps it again (after a QEMU upgrade, or to
# change what the test expects: 3 harts, 256 MiB, the bootargs below).
VIRT_DTB := tests/host/data/virt-3cpu.dtb

KLIB_TEST_SRCS := tests/host/kernel_lib_test.cc tests/host/memops_test.cc tests/host/oom_rule_test.cc \
  tests/host/rlimit_test.cc tests/host/vm_regions_test.cc tests/host/page_refs_test.cc \
  tests/host/abi_errno_test.cc tests/host/console_line_test.cc \
  tests/host/signal_rules_test.cc tests/host/signal_jobs_test.cc tests/host/boot_args_test.cc \
  tests/host/swap_test.cc
$(call host_test,klib_tests,$(KLIB_TEST_SRCS))
$(call host_test_obj,klib_tests): HOST_CXXFLAGS += -DQ_VIRT_DTB='"$(VIRT_DTB)"'

.PHONY: refresh-test-dtb
# QEMU pads the dump to 1 MiB; only the blob's own size (header bytes 4-7) is kept.
refresh-test-dtb: $(KERNEL)
	$(call say,DTB,$(VIRT_DTB))qemu-system-riscv64 -machine virt,dumpdtb=$(BUILD)/virt-3cpu.dtb -bios none -kernel $(KERNEL) -smp 3 -m 256M \
	  -append "sched=dwrr slice=2000" -nographic >/dev/null
	$(Q)python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); open(sys.argv[2], "wb").write(d[:int.from_bytes(d[4:8], "big")])' \
	  $(BUILD)/virt-3cpu.dtb $(VIRT_DTB)
