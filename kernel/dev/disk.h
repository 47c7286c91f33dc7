// kernel/dev/disk.h - the block device used by the buffer cache.
//
// disk_rw() reads or writes one file-system block (1024 bytes) and sleeps
// until the device completes it; IoError when the device reports failure.
// The caller holds the buffer's sleep lock.
#pragma once

#include "lib/result.h"

namespace q {

struct Buf;
void disk_init();
Status disk_rw(Buf* b, bool write);
void disk_intr();

}  // namespace q
