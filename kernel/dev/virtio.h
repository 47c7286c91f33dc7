// kernel/dev/virtio.h - what every modern virtio-mmio driver does the same way.
//
// A driver probes its slot, then virtio_start() runs the standard device
// initialisation (virtio 1.x section 3.1): reset, ACKNOWLEDGE, DRIVER,
// feature negotiation (the device's low feature word masked by what the
// driver keeps, plus VERSION_1), FEATURES_OK, one virtqueue of
// virtio::kQueueSize entries in three fresh pages, DRIVER_OK. On failure it
// returns false with a reason; the driver decides whether that is fatal.
#pragma once

#include "kernel/arch/riscv/virtio_mmio.h"
#include "lib/types.h"

namespace q {

struct VirtQueue {
    virtio::Desc* desc = nullptr;
    virtio::Avail* avail = nullptr;
    virtio::Used* used = nullptr;
};

// The register `r` of the device at `base`.
inline volatile u32& virtio_reg(u64 base, virtio::Reg r) {
    return *reinterpret_cast<volatile u32*>(base + static_cast<u32>(r));
}

// Is there a modern (version 2) device of this type at `base`?
bool virtio_probe(u64 base, u32 device_id);
bool virtio_start(u64 base, u32 keep_features, u32 queue, VirtQueue* vq, const char** why);

}  // namespace q
