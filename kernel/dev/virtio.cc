// kernel/dev/virtio.cc - shared virtio-mmio device initialisation (see virtio.h).
#include "kernel/dev/virtio.h"

#include "kernel/mm/kalloc.h"

namespace q {

using namespace virtio;

namespace {

void set_addr(u64 base, Reg low, Reg high, const void* p) {
    const u64 a = reinterpret_cast<u64>(p);
    virtio_reg(base, low) = static_cast<u32>(a);
    virtio_reg(base, high) = static_cast<u32>(a >> 32);
}

}  // namespace

bool virtio_probe(u64 base, u32 device_id) {
    return virtio_reg(base, Reg::Magic) == kMagic && virtio_reg(base, Reg::Version) == 2 &&
           virtio_reg(base, Reg::DeviceId) == device_id;
}

bool virtio_start(u64 base, u32 keep_features, u32 queue, VirtQueue* vq, const char** why) {
    auto reg = [base](Reg r) -> volatile u32& { return virtio_reg(base, r); };
    u32 status = 0;
    reg(Reg::Status) = status;  // reset
    status |= kStatusAcknowledge;
    reg(Reg::Status) = status;
    status |= kStatusDriver;
    reg(Reg::Status) = status;

    reg(Reg::DeviceFeaturesSel) = 0;
    const u32 low = reg(Reg::DeviceFeatures) & keep_features;
    reg(Reg::DriverFeaturesSel) = 0;
    reg(Reg::DriverFeatures) = low;
    reg(Reg::DeviceFeaturesSel) = 1;
    const u32 high = reg(Reg::DeviceFeatures) & kVersion1;
    reg(Reg::DriverFeaturesSel) = 1;
    reg(Reg::DriverFeatures) = high;
    status |= kStatusFeaturesOk;
    reg(Reg::Status) = status;
    if (!(reg(Reg::Status) & kStatusFeaturesOk)) {
        *why = "features not accepted";
        return false;
    }

    reg(Reg::QueueSel) = queue;
    if (reg(Reg::QueueReady)) {
        *why = "queue already in use";
        return false;
    }
    if (reg(Reg::QueueNumMax) < kQueueSize) {
        *why = "queue too short";
        return false;
    }
    vq->desc = static_cast<Desc*>(kalloc());
    vq->avail = static_cast<Avail*>(kalloc());
    vq->used = static_cast<Used*>(kalloc());
    if (!vq->desc || !vq->avail || !vq->used) {
        *why = "out of memory";  // (a page or two lost at boot)
        return false;
    }
    reg(Reg::QueueNum) = kQueueSize;
    set_addr(base, Reg::QueueDescLow, Reg::QueueDescHigh, vq->desc);
    set_addr(base, Reg::QueueDriverLow, Reg::QueueDriverHigh, vq->avail);
    set_addr(base, Reg::QueueDeviceLow, Reg::QueueDeviceHigh, vq->used);
    reg(Reg::QueueReady) = 1;
    status |= kStatusDriverOk;
    reg(Reg::Status) = status;
    return true;
}

}  // namespace q
