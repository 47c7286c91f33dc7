// kernel/dev/virtio_gpu.h - 2D scan-out on a virtio GPU (virtio-mmio slot 1;
// QEMU -device virtio-gpu-device,bus=virtio-mmio-bus.1).
#pragma once

#include "lib/types.h"

namespace q {

// Show frame (physically contiguous, identity-mapped, XRGB8888, width x
// height, rows packed) on scanout 0. False when slot 1 holds no GPU or the
// device refuses a command.
bool virtio_gpu_setup(const void* frame, u32 width, u32 height);
// Copy the frame to the screen. False if the device failed (it is then
// given up on). Callers serialise (the framebuffer device's lock).
bool virtio_gpu_flush();

}  // namespace q
