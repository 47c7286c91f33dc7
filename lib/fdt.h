// lib/fdt.h - a minimal flattened-device-tree reader.
//
// Reads just what the kernel needs from the blob QEMU passes at boot: the
// first memory node's base and size, the number of cpu nodes under /cpus,
// and /chosen's bootargs string. Pure and freestanding, so host tests feed
// it real blobs (dumped with QEMU's -machine dumpdtb) and malformed ones.
// Every offset read is checked against totalsize: a bad blob returns false.
#pragma once

#include "lib/types.h"

namespace q::fdt {

struct BootInfo {
    u64 mem_base = 0;
    u64 mem_size = 0;
    int ncpus = 0;
    char bootargs[128] = {};
};

// Parse `blob` (at most `max_size` bytes readable). False if it is not a
// well-formed device tree.
bool parse(const void* blob, u64 max_size, BootInfo* out);

}  // namespace q::fdt
