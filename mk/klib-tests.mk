# Host tests for kernel logic kept in lib/ (page pool, device-tree reader).
# The device-tree test reads a blob dumped by QEMU's virt machine itself.
KLIB_TESTS := $(BUILD)/tests/klib_tests
VIRT_DTB := $(BUILD)/tests/virt-3cpu.dtb

$(VIRT_DTB): $(KERNEL)
	@mkdir -p $(dir $@)
	qemu-system-riscv64 -machine virt,dumpdtb=$@ -bios none -kernel $(KERNEL) -smp 3 -m 256M -append "sched=dwrr slice=2000" -nographic >/dev/null

$(BUILD)/host/tests/host/kernel_lib_test.o: tests/host/kernel_lib_test.cc
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) -DQ_VIRT_DTB='"$(VIRT_DTB)"' -c $< -o $@

$(KLIB_TESTS): $(BUILD)/host/tests/host/kernel_lib_test.o $(BUILD)/libquanta-host-san.a $(VIRT_DTB)
	$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) -o $@ $< $(BUILD)/libquanta-host-san.a -lgtest -lgtest_main -pthread

HOST_TESTS += $(KLIB_TESTS)
-include $(BUILD)/host/tests/host/kernel_lib_test.d
