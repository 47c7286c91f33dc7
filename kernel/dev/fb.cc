// kernel/dev/fb.cc - the framebuffer device file, major FRAMEBUFFER.
//
// The frame is a static array (63 pages; kalloc() hands out single pages),
// page-aligned, identity-mapped, so a display device can be given its kernel
// address as the physical one. fb_init asks ramfb, then virtio-gpu, to show
// it; the first that accepts is the display.
//
// File protocol (docs/devices.md). The file is kFrameBytes long:
//   - a write of exactly kFrameBytes replaces the whole frame, whatever the
//     offset (one write = one frame, so frames need no lseek);
//   - any other write goes at the file offset, which advances and wraps to 0
//     at the end of the frame (a stream of partial writes keeps drawing
//     frame after frame);
//   - a read of exactly kFrameBytes returns the whole frame; other reads
//     start at the offset and return 0 at the end of the frame.
// After each write the display is updated (virtio-gpu copies the frame to
// the screen; ramfb shows the memory continuously). g_lock serialises the
// transfers and guards the offset of every File open on the device.
#include "kernel/dev/fb.h"

#include "kernel/dev/ramfb.h"
#include "kernel/dev/virtio_gpu.h"
#include "kernel/fs/file.h"
#include "kernel/lib/kprintf.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/sleeplock.h"
#include "lib/abi/abi.h"

namespace q {

using namespace fb;

namespace {

alignas(4096) constinit u8 g_frame[kFrameBytes];
static_assert(kFrameBytes == 320 * 200 * 4, "XRGB8888 320x200");
static_assert(kFrameBytes <= 0x7fff'ffff, "a whole frame fits one write()");

constinit SleepLock g_lock("fb");
bool (*g_flush)() = nullptr;      // after a write; null when the display scans memory out itself
constinit bool g_broken = false;  // the display failed: every transfer fails from then on

i64 fb_write(bool user_src, u64 src, int n, u32* off) {
    SleepGuard g(g_lock);
    if (g_broken) return -1;
    u32 at = static_cast<u32>(n) == kFrameBytes ? 0 : *off;
    int done = 0;
    while (done < n) {
        if (at >= kFrameBytes) at = 0;  // wrap: the next frame
        const u32 left = static_cast<u32>(n - done);
        const u32 chunk = left < kFrameBytes - at ? left : kFrameBytes - at;
        if (!either_copyin(g_frame + at, user_src, src + static_cast<u64>(done), chunk).ok()) break;
        at += chunk;
        done += static_cast<int>(chunk);
    }
    *off = at;
    if (done > 0 && g_flush && !g_flush()) {
        kprintf("fb: display update failed; framebuffer disabled\n");
        g_broken = true;
        return -1;
    }
    return done == 0 && n > 0 ? -1 : done;
}

i64 fb_read(bool user_dst, u64 dst, int n, u32* off) {
    SleepGuard g(g_lock);
    if (g_broken) return -1;
    u32 at = static_cast<u32>(n) == kFrameBytes ? 0 : *off;
    if (at > kFrameBytes) at = kFrameBytes;
    const u32 chunk = static_cast<u32>(n) < kFrameBytes - at ? static_cast<u32>(n) : kFrameBytes - at;
    if (chunk > 0 && !either_copyout(user_dst, dst, g_frame + at, chunk).ok()) return -1;
    *off = at + chunk;
    return chunk;
}

}  // namespace

void fb_init() {
    const char* display = nullptr;
    if (ramfb_setup(g_frame, kWidth, kHeight, kStride)) {
        display = "ramfb";
    } else if (virtio_gpu_setup(g_frame, kWidth, kHeight)) {
        display = "virtio-gpu";
        g_flush = virtio_gpu_flush;
    }
    if (display == nullptr) {
        kprintf("fb: no framebuffer (no ramfb or virtio-gpu device)\n");
        return;
    }
    g_devsw[FRAMEBUFFER].read = fb_read;
    g_devsw[FRAMEBUFFER].write = fb_write;
    kprintf("fb: %ux%u XRGB8888 on %s, device major %d\n", kWidth, kHeight, display, FRAMEBUFFER);
}

}  // namespace q
