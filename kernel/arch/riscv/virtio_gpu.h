// kernel/arch/riscv/virtio_gpu.h - the virtio GPU device's 2D control
// commands (virtio 1.x specification, "GPU Device"; QEMU -device
// virtio-gpu-device). All fields little-endian, as the CPU. Layouts pinned.
//
// A 2D display: create a host resource (RESOURCE_CREATE_2D), back it with
// guest pages (RESOURCE_ATTACH_BACKING), show it on scanout 0 (SET_SCANOUT);
// after the guest changes its pages, TRANSFER_TO_HOST_2D copies them into
// the resource and RESOURCE_FLUSH puts them on the screen. Each command is a
// request the device reads followed by a response it writes, on the
// control queue (queue 0).
#pragma once

#include "lib/types.h"

namespace q::virtio_gpu {

constexpr u32 kDeviceId = 16;
constexpr u32 kControlQueue = 0;

enum Cmd : u32 {
    kGetDisplayInfo = 0x0100,
    kResourceCreate2d = 0x0101,
    kResourceUnref = 0x0102,
    kSetScanout = 0x0103,
    kResourceFlush = 0x0104,
    kTransferToHost2d = 0x0105,
    kResourceAttachBacking = 0x0106,
    kRespOkNoData = 0x1100,
};

// B8G8R8X8: bytes B, G, R, X in memory = little-endian u32 0x00RRGGBB,
// i.e. DRM's XRGB8888.
constexpr u32 kFormatB8G8R8X8 = 2;

struct CtrlHdr {
    u32 type;
    u32 flags;
    u64 fence_id;
    u32 ctx_id;
    u8 ring_idx;
    u8 padding[3];
};
static_assert(sizeof(CtrlHdr) == 24, "virtio_gpu_ctrl_hdr");

struct Rect {
    u32 x, y, width, height;
};
static_assert(sizeof(Rect) == 16, "virtio_gpu_rect");

struct ResourceCreate2d {
    CtrlHdr hdr;
    u32 resource_id;
    u32 format;
    u32 width;
    u32 height;
};
static_assert(sizeof(ResourceCreate2d) == 40, "virtio_gpu_resource_create_2d");

struct MemEntry {
    u64 addr;
    u32 length;
    u32 padding;
};
static_assert(sizeof(MemEntry) == 16, "virtio_gpu_mem_entry");

// With one MemEntry following it, as the device expects (same buffer).
struct AttachBacking1 {
    CtrlHdr hdr;
    u32 resource_id;
    u32 nr_entries;
    MemEntry entry;
};
static_assert(sizeof(AttachBacking1) == 32 + 16, "virtio_gpu_resource_attach_backing + 1 entry");

struct SetScanout {
    CtrlHdr hdr;
    Rect r;
    u32 scanout_id;
    u32 resource_id;
};
static_assert(sizeof(SetScanout) == 48, "virtio_gpu_set_scanout");

struct ResourceFlush {
    CtrlHdr hdr;
    Rect r;
    u32 resource_id;
    u32 padding;
};
static_assert(sizeof(ResourceFlush) == 48, "virtio_gpu_resource_flush");

struct TransferToHost2d {
    CtrlHdr hdr;
    Rect r;
    u64 offset;
    u32 resource_id;
    u32 padding;
};
static_assert(sizeof(TransferToHost2d) == 56, "virtio_gpu_transfer_to_host_2d");

}  // namespace q::virtio_gpu
