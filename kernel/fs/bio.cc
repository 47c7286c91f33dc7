// kernel/fs/bio.cc - the buffer cache.
//
// A fixed array of param::kBufs buffers caches disk blocks. Design:
//   - At most one buffer holds a given (dev, blockno), so every user of a
//     block sees the same copy; its sleep lock serialises them.
//   - refcnt counts holders (bread callers and log pins). The free list
//     `lru` links exactly the buffers with refcnt == 0, least recently
//     released at the front; a free buffer still caches its block until it
//     is recycled from the front.
//   - The cache spinlock guards dev, blockno, refcnt and the list links;
//     `valid` and `data` are guarded by the buffer's sleep lock.
// When every buffer is in use, bget sleeps until one is released instead of
// panicking (the log can pin up to a log's worth of blocks).
// Kept blocks: when the log gives up after a disk write error, the blocks of
// its last group will never reach the disk, so it hands them to bkeep();
// a buffer that is recycled and read again gets the kept copy, not the
// older disk contents. At most one group (a log's worth) is ever kept: the
// file system is read-only after that (log.cc).
// A read the disk fails is retried; a block that cannot be read at all
// stops the kernel (it has no way to go on without its metadata).
#include "kernel/dev/disk.h"
#include "kernel/fs/buf.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"
#include "lib/params.h"

namespace q {
namespace {

struct BufCache {
    SpinLock lock{"bcache"};
    Buf bufs[param::kBufs];
    List<Buf, &Buf::lru> free;  // refcnt == 0, least recently used first
};

constinit BufCache g_bcache;

struct Kept {
    u32 dev;
    u32 blockno;
    u8 data[fs::kBlockSize];
};
constinit Kept g_kept[param::kLogBlocks];
constinit u32 g_nkept = 0;  // guarded by the cache lock; entries never change once added

// The kept copy of a block, or null.
const u8* kept_copy(u32 dev, u32 blockno) {
    LockGuard guard(g_bcache.lock);
    for (u32 i = 0; i < g_nkept; i++)
        if (g_kept[i].dev == dev && g_kept[i].blockno == blockno) return g_kept[i].data;
    return nullptr;
}

constexpr int kReadTries = 3;

// Find a cached copy of the block (cache lock held).
Buf* lookup(u32 dev, u32 blockno) {
    for (Buf& b : g_bcache.bufs)
        if (b.dev == dev && b.blockno == blockno) return &b;
    return nullptr;
}

// Drop one reference (cache lock held); a buffer reaching zero becomes free.
void unref(Buf* b) {
    if (b->refcnt == 0) panic("bcache: release of unreferenced block %u", b->blockno);
    if (--b->refcnt == 0) {
        g_bcache.free.push_back(*b);
        wakeup(&g_bcache);
    }
}

// Return the buffer for (dev, blockno) with its sleep lock held.
Buf* bget(u32 dev, u32 blockno) {
    Buf* b = nullptr;
    {
        LockGuard guard(g_bcache.lock);
        for (;;) {
            if ((b = lookup(dev, blockno)) != nullptr) {
                if (b->refcnt++ == 0) List<Buf, &Buf::lru>::remove(*b);
                break;
            }
            if ((b = g_bcache.free.pop_front()) != nullptr) {
                b->dev = dev;
                b->blockno = blockno;
                b->valid = false;
                b->refcnt = 1;
                break;
            }
            sleep(&g_bcache, g_bcache.lock);  // every buffer is held
        }
    }
    b->lock.acquire();
    return b;
}

}  // namespace

void bcache_init() {
    LockGuard guard(g_bcache.lock);
    g_nkept = 0;  // (re-init for host tests)
    for (Buf& b : g_bcache.bufs) {
        b.dev = ~0u;  // caches nothing yet
        b.blockno = ~0u;
        b.refcnt = 0;
        b.valid = false;
        if (b.lru.linked()) List<Buf, &Buf::lru>::remove(b);  // re-init (host tests)
        g_bcache.free.push_back(b);
    }
}

Buf* bread(u32 dev, u32 blockno) {
    Buf* b = bget(dev, blockno);
    if (b->valid) return b;
    if (const u8* kept = kept_copy(dev, blockno)) {
        memmove(b->data, kept, fs::kBlockSize);
    } else {
        int tries = 0;
        while (!disk_rw(b, false).ok())
            if (++tries == kReadTries) panic("bread: block %u cannot be read (disk I/O error)", blockno);
    }
    b->valid = true;
    return b;
}

Status bwrite(Buf* b) {
    if (!b->lock.holding()) panic("bwrite: buffer of block %u not locked", b->blockno);
    return disk_rw(b, true);
}

void bkeep(Buf* b) {
    if (!b->lock.holding()) panic("bkeep: buffer of block %u not locked", b->blockno);
    LockGuard guard(g_bcache.lock);
    for (u32 i = 0; i < g_nkept; i++)
        if (g_kept[i].dev == b->dev && g_kept[i].blockno == b->blockno) return;
    if (g_nkept == param::kLogBlocks) panic("bkeep: more than one log group kept");
    g_kept[g_nkept].dev = b->dev;
    g_kept[g_nkept].blockno = b->blockno;
    memmove(g_kept[g_nkept].data, b->data, fs::kBlockSize);
    g_nkept++;
}

void brelse(Buf* b) {
    if (!b->lock.holding()) panic("brelse: buffer of block %u not locked", b->blockno);
    b->lock.release();
    LockGuard guard(g_bcache.lock);
    unref(b);
}

void bpin(Buf* b) {
    LockGuard guard(g_bcache.lock);
    if (b->refcnt == 0) panic("bpin: block %u not held", b->blockno);
    b->refcnt++;
}

void bunpin(Buf* b) {
    LockGuard guard(g_bcache.lock);
    unref(b);
}

}  // namespace q
