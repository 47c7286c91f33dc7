// kernel/dev/ramfb.h - QEMU's ramfb display, configured through fw_cfg.
//
// ramfb has no registers: it is the writable fw_cfg file "etc/ramfb" that
// names a region of guest memory to scan out. QEMU >= 8.0 accepts
// "-device ramfb" on riscv virt (7.x creates fw_cfg too late and refuses).
#pragma once

#include "lib/types.h"

namespace q {

// Point ramfb at frame (physically contiguous, identity-mapped), an XRGB8888
// image of width x height pixels, stride bytes per row. False, after saying
// why, when there is no fw_cfg DMA interface or no "etc/ramfb" file.
bool ramfb_setup(const void* frame, u32 width, u32 height, u32 stride);

}  // namespace q
