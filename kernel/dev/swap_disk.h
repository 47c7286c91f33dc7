// kernel/dev/swap_disk.h - the swap area's disk: a second virtio-blk
// device in virtio-mmio slot 2 (`make qemu SWAP=MB`; docs/memory.md "Swap").
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

// Probe slot 2: the device's size in 4096-byte pages, or 0 (no swap disk).
u64 swap_disk_init();
// Read or write page `slot` of the swap disk (4096 bytes at mem). May
// sleep (process context only). IoError if the device fails it.
Status swap_disk_rw(u64 slot, void* mem, bool write);

}  // namespace q
