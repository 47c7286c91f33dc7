// kernel/dev/virtio_gpu.cc - 2D scan-out on a virtio GPU (modern
// virtio-mmio, slot 1), polled.
//
// Setup negotiates no optional features (no 3D, no EDID), sets up the
// control queue, then: RESOURCE_CREATE_2D (resource 1, B8G8R8X8 = XRGB8888),
// RESOURCE_ATTACH_BACKING (the frame, one contiguous entry), SET_SCANOUT
// (scanout 0 shows resource 1). A flush is TRANSFER_TO_HOST_2D plus
// RESOURCE_FLUSH of the whole frame.
//
// One command at a time: descriptor 0 is the request, 1 the response; the
// driver publishes it, notifies, and spins on the used ring (the device's
// IRQ is not enabled at the PLIC; QEMU answers in microseconds). A device
// that does not answer within kTimeout, or answers with an error, is given
// up on. Callers serialise: setup runs on hart 0 before any process, flushes
// under the framebuffer device's lock.
#include "kernel/dev/virtio_gpu.h"

#include "kernel/arch/riscv/csr.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/virtio_gpu.h"
#include "kernel/arch/riscv/virtio_mmio.h"
#include "kernel/lib/kprintf.h"
#include "kernel/mm/kalloc.h"
#include "lib/params.h"

namespace q {

using namespace virtio;
using namespace virtio_gpu;

namespace {

constexpr u32 kResource = 1;
constexpr u64 kTimeout = 2 * param::kTimerHz;  // ticks of `time`: 2 s

struct Gpu {
    Desc* desc = nullptr;
    Avail* avail = nullptr;
    Used* used = nullptr;
    u16 used_seen = 0;
    bool ok = false;
    u32 width = 0, height = 0;
};
Gpu g_gpu;

// Request and response buffers: static, so identity-mapped (kernel address =
// physical address), and only one command is ever in flight.
union {
    ResourceCreate2d create;
    AttachBacking1 attach;
    SetScanout scanout;
    TransferToHost2d transfer;
    ResourceFlush flush;
} g_req;
CtrlHdr g_resp;

volatile u32& reg(Reg r) { return *reinterpret_cast<volatile u32*>(layout::kVirtio1 + static_cast<u32>(r)); }

void set_addr(Reg low, Reg high, const void* p) {
    const u64 a = reinterpret_cast<u64>(p);
    reg(low) = static_cast<u32>(a);
    reg(high) = static_cast<u32>(a >> 32);
}

CtrlHdr header(u32 type) { return CtrlHdr{type, 0, 0, 0, 0, {0, 0, 0}}; }

// Send the request in g_req (len bytes) and wait for its response.
bool command(u32 len) {
    g_gpu.desc[0] = Desc{reinterpret_cast<u64>(&g_req), len, kDescNext, 1};
    g_gpu.desc[1] = Desc{reinterpret_cast<u64>(&g_resp), sizeof g_resp, kDescWrite, 0};
    g_resp = header(0);
    g_gpu.avail->ring[g_gpu.avail->idx % kQueueSize] = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    g_gpu.avail->idx++;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    reg(Reg::QueueNotify) = kControlQueue;
    const u64 deadline = riscv::r_time() + kTimeout;
    while (__atomic_load_n(&g_gpu.used->idx, __ATOMIC_ACQUIRE) == g_gpu.used_seen) {
        if (riscv::r_time() > deadline) {
            kprintf("virtio-gpu: no answer to command %x\n", g_req.create.hdr.type);
            g_gpu.ok = false;
            return false;
        }
    }
    g_gpu.used_seen++;
    reg(Reg::InterruptAck) = reg(Reg::InterruptStatus) & 0x3;
    if (g_resp.type != kRespOkNoData) {
        kprintf("virtio-gpu: command %x failed: %x\n", g_req.create.hdr.type, g_resp.type);
        return false;
    }
    return true;
}

Rect whole() { return Rect{0, 0, g_gpu.width, g_gpu.height}; }

bool init_device() {
    u32 status = 0;
    reg(Reg::Status) = status;
    status |= kStatusAcknowledge;
    reg(Reg::Status) = status;
    status |= kStatusDriver;
    reg(Reg::Status) = status;
    reg(Reg::DriverFeaturesSel) = 0;
    reg(Reg::DriverFeatures) = 0;  // no virgl, no EDID, no ring extras
    reg(Reg::DeviceFeaturesSel) = 1;
    const u32 high = reg(Reg::DeviceFeatures) & kVersion1;
    reg(Reg::DriverFeaturesSel) = 1;
    reg(Reg::DriverFeatures) = high;
    status |= kStatusFeaturesOk;
    reg(Reg::Status) = status;
    if (!(reg(Reg::Status) & kStatusFeaturesOk)) return false;

    reg(Reg::QueueSel) = kControlQueue;
    if (reg(Reg::QueueReady) || reg(Reg::QueueNumMax) < kQueueSize) return false;
    g_gpu.desc = static_cast<Desc*>(kalloc());
    g_gpu.avail = static_cast<Avail*>(kalloc());
    g_gpu.used = static_cast<Used*>(kalloc());
    if (!g_gpu.desc || !g_gpu.avail || !g_gpu.used) return false;  // (a page or two lost at boot)
    g_gpu.avail->flags = 1;                                        // VIRTQ_AVAIL_F_NO_INTERRUPT: we poll
    reg(Reg::QueueNum) = kQueueSize;
    set_addr(Reg::QueueDescLow, Reg::QueueDescHigh, g_gpu.desc);
    set_addr(Reg::QueueDriverLow, Reg::QueueDriverHigh, g_gpu.avail);
    set_addr(Reg::QueueDeviceLow, Reg::QueueDeviceHigh, g_gpu.used);
    reg(Reg::QueueReady) = 1;
    status |= kStatusDriverOk;
    reg(Reg::Status) = status;
    return true;
}

}  // namespace

bool virtio_gpu_setup(const void* frame, u32 width, u32 height) {
    if (reg(Reg::Magic) != kMagic || reg(Reg::Version) != 2 || reg(Reg::DeviceId) != kDeviceId) return false;
    if (!init_device()) {
        kprintf("virtio-gpu: device setup failed\n");
        return false;
    }
    g_gpu.ok = true;
    g_gpu.width = width;
    g_gpu.height = height;
    g_req.create = ResourceCreate2d{header(kResourceCreate2d), kResource, kFormatB8G8R8X8, width, height};
    if (!command(sizeof(ResourceCreate2d))) return g_gpu.ok = false;
    g_req.attach = AttachBacking1{header(kResourceAttachBacking), kResource, 1,
                                  MemEntry{reinterpret_cast<u64>(frame), width * height * 4, 0}};
    if (!command(sizeof(AttachBacking1))) return g_gpu.ok = false;
    g_req.scanout = SetScanout{header(kSetScanout), whole(), 0, kResource};
    if (!command(sizeof(SetScanout))) return g_gpu.ok = false;
    return virtio_gpu_flush();
}

bool virtio_gpu_flush() {
    if (!g_gpu.ok) return false;
    g_req.transfer = TransferToHost2d{header(kTransferToHost2d), whole(), 0, kResource, 0};
    if (!command(sizeof(TransferToHost2d))) return g_gpu.ok = false;
    g_req.flush = ResourceFlush{header(kResourceFlush), whole(), kResource, 0};
    if (!command(sizeof(ResourceFlush))) return g_gpu.ok = false;
    return true;
}

}  // namespace q
