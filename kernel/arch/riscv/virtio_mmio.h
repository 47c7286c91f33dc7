// kernel/arch/riscv/virtio_mmio.h - virtio over MMIO (version 2, "modern"):
// register offsets, status and feature bits, split-ring structures and the
// block-request header, as in the virtio 1.x specification. Layouts pinned.
#pragma once

#include "lib/types.h"

namespace q::virtio {

enum class Reg : u32 {
    Magic = 0x000,     // 0x74726976 "virt"
    Version = 0x004,   // 2 for modern devices
    DeviceId = 0x008,  // 2 = block device
    VendorId = 0x00c,
    DeviceFeatures = 0x010,
    DeviceFeaturesSel = 0x014,
    DriverFeatures = 0x020,
    DriverFeaturesSel = 0x024,
    QueueSel = 0x030,
    QueueNumMax = 0x034,
    QueueNum = 0x038,
    QueueReady = 0x044,
    QueueNotify = 0x050,
    InterruptStatus = 0x060,
    InterruptAck = 0x064,
    Status = 0x070,
    QueueDescLow = 0x080,
    QueueDescHigh = 0x084,
    QueueDriverLow = 0x090,
    QueueDriverHigh = 0x094,
    QueueDeviceLow = 0x0a0,
    QueueDeviceHigh = 0x0a4,
};

constexpr u32 kMagic = 0x74726976;
constexpr u32 kDeviceBlock = 2;

// Device status bits.
constexpr u32 kStatusAcknowledge = 1;
constexpr u32 kStatusDriver = 2;
constexpr u32 kStatusDriverOk = 4;
constexpr u32 kStatusFeaturesOk = 8;

// Feature bits (word 0 and word 1).
constexpr u32 kBlkReadOnly = 1u << 5;
constexpr u32 kBlkScsi = 1u << 7;
constexpr u32 kBlkConfigWce = 1u << 11;
constexpr u32 kBlkMultiQueue = 1u << 12;
constexpr u32 kAnyLayout = 1u << 27;
constexpr u32 kRingIndirect = 1u << 28;
constexpr u32 kRingEventIdx = 1u << 29;
constexpr u32 kVersion1 = 1u << 0;  // bit 32: word 1, bit 0

constexpr u32 kQueueSize = 32;  // descriptors in our one queue (the disk: 10 requests in flight)

struct Desc {
    u64 addr;
    u32 len;
    u16 flags;
    u16 next;
};
constexpr u16 kDescNext = 1;
constexpr u16 kDescWrite = 2;  // device writes (vs reads)
static_assert(sizeof(Desc) == 16);

struct Avail {
    u16 flags;
    u16 idx;
    u16 ring[kQueueSize];
    u16 unused;
};
static_assert(sizeof(Avail) == 4 + 2 * kQueueSize + 2);

struct UsedElem {
    u32 id;
    u32 len;
};
struct Used {
    u16 flags;
    u16 idx;
    UsedElem ring[kQueueSize];
};
static_assert(sizeof(Used) == 4 + 8 * kQueueSize);

constexpr u32 kBlkIn = 0;   // read from disk
constexpr u32 kBlkOut = 1;  // write to disk
struct BlkReq {
    u32 type;
    u32 reserved;
    u64 sector;
};
static_assert(sizeof(BlkReq) == 16);

}  // namespace q::virtio
