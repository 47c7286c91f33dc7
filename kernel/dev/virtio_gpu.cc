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
#include "kernel/dev/virtio.h"
#include "kernel/lib/kprintf.h"
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
constinit Gpu g_gpu;

// Request and response buffers: static, so identity-mapped (kernel address =
// physical address), and only one command is ever in flight.
union {
    ResourceCreate2d create;
    AttachBacking1 attach;
    SetScanout scanout;
    TransferToHost2d transfer;
    ResourceFlush flush;
} g_req;
constinit CtrlHdr g_resp{};

volatile u32& reg(Reg r) { return virtio_reg(layout::kVirtio1, r); }

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
    VirtQueue vq;
    const char* why = "";
    // No optional features: no virgl, no EDID, no ring extras.
    if (!virtio_start(layout::kVirtio1, 0, kControlQueue, &vq, &why)) {
        kprintf("virtio-gpu: %s\n", why);
        return false;
    }
    g_gpu.desc = vq.desc;
    g_gpu.avail = vq.avail;
    g_gpu.used = vq.used;
    g_gpu.avail->flags = 1;  // VIRTQ_AVAIL_F_NO_INTERRUPT: we poll
    return true;
}

}  // namespace

bool virtio_gpu_setup(const void* frame, u32 width, u32 height) {
    if (!virtio_probe(layout::kVirtio1, kDeviceId)) return false;
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
