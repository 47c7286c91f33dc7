# Running the kernel under QEMU (virt machine, no firmware).
#
# make qemu boots $(BUILD)/qemu.img, a copy of $(BUILD)/fs.img made when
# fs.img is newer: what you do in the guest persists from one make qemu to
# the next until the image is rebuilt (a program or EXTRA_FILES changed),
# and fs.img itself stays as mkfs made it, so make test after make qemu
# still starts from a known disk (tests/guest/qemu.py builds each suite its
# own). QEMU_DISK=path boots another image.
QEMU ?= qemu-system-riscv64
MEM ?= 128M
QEMU_IMG := $(BUILD)/qemu.img
QEMU_DISK ?= $(QEMU_IMG)
QEMUOPTS = -machine virt -bios none -kernel $(KERNEL) -m $(MEM) -smp $(CPUS) -nographic \
  -global virtio-mmio.force-legacy=false \
  -drive file=$(QEMU_DISK),if=none,format=raw,id=x0 \
  -device virtio-blk-device,drive=x0,bus=virtio-mmio-bus.0
# SWAP=MB attaches a swap disk of that size (build/swap.img, zeroed at each
# boot: nothing in it outlives the machine) in virtio-mmio slot 2; VM=fifo
# or clock picks the page-replacement policy (docs/memory.md "Swap").
# MEM=24M with SWAP=64 shows a machine running more than it has.
ifneq ($(SWAP),)
QEMU_SWAP := $(BUILD)/swap.img
QEMUOPTS += -drive file=$(QEMU_SWAP),if=none,format=raw,id=x1 -device virtio-blk-device,drive=x1,bus=virtio-mmio-bus.2
endif
BOOTARGS := $(strip $(if $(SCHED),sched=$(SCHED)) $(if $(RQ),rq=$(RQ)) $(if $(VM),vm=$(VM)) $(BOOTARGS_EXTRA))
ifneq ($(BOOTARGS),)
QEMUOPTS += -append "$(BOOTARGS)"
endif

# make qemu-gfx: the same machine with a display. The serial console stays on
# this terminal (-serial mon:stdio: Ctrl-A x quits, Ctrl-A c the monitor);
# `frames` draws its cube in the window. GFX_DISPLAY picks the window system
# (gtk, sdl), or none (headless; e.g. screendump from the monitor), or
# vnc=:0 (connect a VNC viewer to port 5900). GFX_DEVICE picks the display
# device: virtio-gpu (virtio-mmio slot 1, any QEMU) or ramfb (QEMU >= 8.0;
# 7.x refuses -device ramfb on riscv virt). See docs/devices.md.
GFX_DISPLAY ?= gtk
GFX_DEVICE ?= virtio-gpu
ifeq ($(GFX_DEVICE),ramfb)
GFX_DEVOPTS = -device ramfb
else
GFX_DEVOPTS = -device virtio-gpu-device,bus=virtio-mmio-bus.1
endif
QEMUOPTS_GFX = $(filter-out -nographic,$(QEMUOPTS)) -serial mon:stdio $(GFX_DEVOPTS) -display $(GFX_DISPLAY)

.PHONY: qemu qemu-gdb qemu-gfx
$(QEMU_IMG): $(FS_IMG)
	$(call say,CP,$@)cp $< $@

qemu:
	@tools/install-deps.sh qemu
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(QEMU_DISK)
	$(if $(QEMU_SWAP),@rm -f $(QEMU_SWAP) && truncate -s $(SWAP)M $(QEMU_SWAP))
	$(QEMU) $(QEMUOPTS)

qemu-gdb:
	@tools/install-deps.sh dev
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(QEMU_DISK)
	@echo "QEMU waits for gdb on port 26000: run 'gdb-multiarch -x tools/gdbinit' in another terminal (see docs/debugging.md)"
	$(QEMU) $(QEMUOPTS) -S -gdb tcp::26000

qemu-gfx:
	@tools/install-deps.sh gfx
	@$(MAKE) --no-print-directory -j$(JOBS) $(KERNEL) $(QEMU_DISK)
	$(QEMU) $(QEMUOPTS_GFX)
