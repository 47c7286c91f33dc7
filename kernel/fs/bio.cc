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
#include "kernel/dev/disk.h"
#include "kernel/fs/buf.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
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
    if (!b->valid) {
        disk_rw(b, false);
        b->valid = true;
    }
    return b;
}

void bwrite(Buf* b) {
    if (!b->lock.holding()) panic("bwrite: buffer of block %u not locked", b->blockno);
    disk_rw(b, true);
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
