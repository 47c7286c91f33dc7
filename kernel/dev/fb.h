// kernel/dev/fb.h - the framebuffer device, major FRAMEBUFFER.
//
// One 320x200 XRGB8888 frame (kWidth x kHeight little-endian u32 pixels
// 0x00RRGGBB, row-major, no padding) in a static kernel array, shown by
// whichever display QEMU was given: ramfb (kernel/dev/ramfb.cc, scans the
// array out by itself) or virtio-gpu (kernel/dev/virtio_gpu.cc, copies it to
// the screen after every write). Without either the device is not
// registered, so reads and writes of a FRAMEBUFFER file fail (-1). The file
// protocol is in kernel/dev/fb.cc and docs/devices.md.
#pragma once

#include "lib/types.h"

namespace q {

namespace fb {
constexpr u32 kWidth = 320;
constexpr u32 kHeight = 200;
constexpr u32 kBytesPerPixel = 4;
constexpr u32 kStride = kWidth * kBytesPerPixel;
constexpr u32 kFrameBytes = kStride * kHeight;
}  // namespace fb

// Find a display (ramfb first, then virtio-gpu), point it at the frame and
// register the device; prints what it found. Hart 0, once, after paging is
// on and before any process runs. Never panics: no display, no device.
void fb_init();

}  // namespace q
