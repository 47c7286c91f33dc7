// kernel/fs/buf.h - one cached disk block.
//
// Owned by the buffer cache (kernel/fs/bio.cc). `lock` (a sleep lock) is held
// by whoever uses data; refcnt, dev/blockno and the lru and hash links are
// guarded by the cache's spinlock, and so is `pinned` (the log holds one of
// the references until it installs the block). `disk` is set by the disk
// driver while a request is in flight. `data` points at the block's
// kBlockSize bytes: in the cache's static storage for the fixed buffers, or
// in a page of the slab the buffer belongs to (`slab`, null for a fixed
// buffer).
#pragma once

#include "kernel/sync/sleeplock.h"
#include "lib/fs/layout.h"
#include "lib/list.h"

namespace q {

struct BufSlab;

struct Buf {
    bool valid = false;  // data holds the block's contents
    bool disk = false;   // owned by the disk driver while true
    u32 dev = 0;
    u32 blockno = 0;
    SleepLock lock{"buffer", true};
    u32 refcnt = 0;
    bool pinned = false;  // one of the references is the log's pin
    ListNode lru;         // on the free list while refcnt == 0
    ListNode hash;        // on its hash chain while it names a block
    u8* data = nullptr;
    BufSlab* slab = nullptr;
};

}  // namespace q
