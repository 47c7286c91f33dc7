# Running the kernel under QEMU (virt machine, no firmware).
QEMU ?= qemu-system-riscv64
MEM ?= 128M
QEMU_DISK ?= $(FS_IMG)
QEMUOPTS = -machine virt -bios none -kernel $(KERNEL) -m $(MEM) -smp $(CPUS) -nographic \
  -global virtio-mmio.force-legacy=false \
  -drive file=$(QEMU_DISK),if=none,format=raw,id=x0 \
  -device virtio-blk-device,drive=x0,bus=virtio-mmio-bus.0
BOOTARGS := $(strip $(if $(SCHED),sched=$(SCHED)) $(BOOTARGS_EXTRA))
ifneq ($(BOOTARGS),)
QEMUOPTS += -append "$(BOOTARGS)"
endif

.PHONY: qemu qemu-gdb
qemu:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory $(KERNEL) $(FS_IMG)
	$(QEMU) $(QEMUOPTS)

qemu-gdb:
	@tools/install-deps.sh dev
	@$(MAKE) --no-print-directory $(KERNEL) $(FS_IMG)
	@echo "QEMU waits for gdb on port 26000: run 'gdb-multiarch -x tools/gdbinit' in another terminal (see docs/debugging.md)"
	$(QEMU) $(QEMUOPTS) -S -gdb tcp::26000
