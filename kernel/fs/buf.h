// kernel/fs/buf.h - one cached disk block.
//
// Owned by the buffer cache (kernel/fs/bio.cc). `lock` (a sleep lock) is held
// by whoever uses data; refcnt and the lru link are guarded by the cache's
// spinlock. `disk` is set by the disk driver while a request is in flight.
#pragma once

#include "kernel/sync/sleeplock.h"
#include "lib/fs/layout.h"
#include "lib/list.h"

namespace q {

struct Buf {
    bool valid = false;  // data holds the block's contents
    bool disk = false;   // owned by the disk driver while true
    u32 dev = 0;
    u32 blockno = 0;
    SleepLock lock{"buffer"};
    u32 refcnt = 0;
    ListNode lru;
    alignas(8) u8 data[fs::kBlockSize] = {};
};

}  // namespace q
