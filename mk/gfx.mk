# The framebuffer device (kernel/dev/fb.cc, ramfb.cc, virtio_gpu.cc).
# `make qemu-gfx` (mk/qemu.mk) boots with a display; make test runs
# tests/guest/fb_test.py: a headless boot with a display device, `frames`,
# and a QEMU screendump that must show the cube (docs/devices.md).
EXTRA_GUEST_SUITES += tests/guest/fb_test.py
