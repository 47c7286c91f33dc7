// kernel/dev/disk.h - the block device used by the buffer cache.
//
// disk_rw() reads or writes one file-system block (1024 bytes) and sleeps
// until the device completes it. The caller holds the buffer's sleep lock.
#pragma once

namespace q {

struct Buf;
void disk_init();
void disk_rw(Buf* b, bool write);
void disk_intr();

}  // namespace q
