// kernel/fs/bio.cc - the buffer cache, growing with free memory.
//
// Buffers cache disk blocks. Design:
//   - At most one buffer names a given (dev, blockno), so every user of a
//     block sees the same copy; its sleep lock serialises them. Buffers that
//     name a block sit on a hash chain (lib/fs/bcache_policy.h's bucket), so
//     a lookup walks one short chain instead of the whole cache.
//   - refcnt counts holders (bread callers and log pins). The free list
//     `free` links exactly the buffers with refcnt == 0, least recently
//     released at the back; a free buffer still caches its block until it is
//     recycled. Buffers that cache nothing are kept at the front.
//   - param::kBufs fixed buffers are the floor and never go away (the log
//     pins up to fs::kLogPinBudget blocks). On a miss with no empty buffer,
//     while the page allocator has more than its reserve free
//     (bcache::may_grow), the cache borrows a slab: one page of headers and
//     kSlabDataPages pages of data (kBlocksPerPage blocks per page). Only
//     when it may not grow does a miss recycle the least recently used block.
//   - A slab counts its referenced buffers (`busy`). When kalloc runs dry it
//     calls give_back (the Lender in kernel/mm/kalloc.h): whole slabs with
//     busy == 0 are unhashed and freed, the one holding the least recently
//     used block first. A free buffer is always clean (the log pins dirty
//     blocks), so dropping its contents loses nothing. Borrowed pages count
//     as free memory for kalloc_free_pages(), and so do a slab's pages in
//     flight (allocated, not yet linked; unlinked, not yet freed), so that
//     the count never moves as the cache grows or shrinks.
//   - A block the log pins (committed, not yet installed) is referenced
//     until the install, so it would keep its slab from going back. When
//     give_back finds no idle slab, it moves every pinned block that only
//     the log references into a free fixed buffer (move_pins_to_floor) and
//     tries again: the floor is larger than the pin budget plus what the
//     running operations hold (lib/fs/log_logic.h), so a process growing
//     until memory runs out gets every page the cache does not hold for a
//     caller at that moment.
//   - The cache spinlock guards dev, blockno, refcnt, the links, the slab
//     list and the counts; `valid` and `data` are guarded by the buffer's
//     sleep lock. Pages are allocated and freed outside the cache lock.
//     Lock order: kalloc may call give_back with a process lock held (fork),
//     so the cache lock is never held while taking another process's lock:
//     sleepers are woken after it is released (inside it nest only
//     kalloc's lock and, in sleep(), the caller's own process lock).
//   - The cache itself is built at boot (bcache_init): its defaults (lock
//     names, list heads' self-links) are not zero, so a constinit cache put
//     all 21 KiB of it in the image's .data; it is a BootBuilt
//     (lib/in_place.h), zeros in .bss until then. Its address is the
//     channel bget sleeps on for a free buffer.
// When every buffer is in use and the cache may not grow, bget sleeps until
// one is released instead of panicking.
// Kept blocks: when the log gives up after a disk write error, the blocks it
// had not installed will never reach the disk, so it hands them to bkeep();
// a buffer that is recycled and read again gets the kept copy, not the
// older disk contents. They are the log's pinned blocks, so at most
// fs::kLogPinBudget are ever kept: the file system is read-only after that
// (log.cc).
// A read the disk fails is retried; a block that cannot be read at all
// stops the kernel (it has no way to go on without its metadata).
#include "kernel/dev/disk.h"
#include "kernel/fs/buf.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"
#include "kernel/syscall.h"
#include "lib/fs/bcache_policy.h"
#include "lib/fs/log_logic.h"
#include "lib/in_place.h"
#include "lib/params.h"

namespace q {

using bcache::kSlabBufs;
using bcache::kSlabDataPages;
using bcache::kSlabPages;

struct BufSlab {
    ListNode link;  // on the cache's slab list
    u32 busy = 0;   // buffers with refcnt > 0
    Buf bufs[kSlabBufs];
};
static_assert(sizeof(BufSlab) <= bcache::kPageBytes, "a slab's headers fit one page");

namespace {

using FreeList = List<Buf, &Buf::lru>;
using Chain = List<Buf, &Buf::hash>;

struct BufCache {
    SpinLock lock{"bcache"};
    Buf bufs[param::kBufs];
    FreeList free;  // refcnt == 0: empty ones first, then least recently used first
    Chain chains[bcache::kHashBuckets];
    List<BufSlab, &BufSlab::link> slabs;
    u32 nslabs = 0;
    u32 waiters = 0;       // processes sleeping in bget for a buffer
    bool growing = false;  // a bget is allocating a slab (lock dropped)
    struct {
        u64 hits, misses, grows, shrinks;
    } stat = {};
};

constinit BootBuilt<BufCache> g_bcache;
alignas(64) constinit u8 g_fixed_data[param::kBufs][fs::kBlockSize];

struct Kept {
    u32 dev;
    u32 blockno;
    u8 data[fs::kBlockSize];
};
constinit Kept g_kept[fs::kLogPinBudget]{};
constinit u32 g_nkept = 0;  // guarded by the cache lock; entries never change once added

// The kept copy of a block, or null.
const u8* kept_copy(u32 dev, u32 blockno) {
    LockGuard guard(g_bcache->lock);
    for (u32 i = 0; i < g_nkept; i++)
        if (g_kept[i].dev == dev && g_kept[i].blockno == blockno) return g_kept[i].data;
    return nullptr;
}

constexpr int kReadTries = 3;

Chain& chain_of(u32 dev, u32 blockno) { return g_bcache->chains[bcache::bucket(dev, blockno)]; }

// Find a cached copy of the block (cache lock held).
Buf* lookup(u32 dev, u32 blockno) {
    for (Buf& b : chain_of(dev, blockno))
        if (b.dev == dev && b.blockno == blockno) return &b;
    return nullptr;
}

// Forget what a free buffer caches (cache lock held; nobody holds its sleep lock).
void make_empty(Buf& b) {
    if (b.hash.linked()) Chain::remove(b);
    b.dev = ~0u;
    b.blockno = ~0u;
    b.valid = false;
}

// Take one reference (cache lock held).
void ref(Buf* b) {
    if (b->refcnt++ == 0) {
        FreeList::remove(*b);
        if (b->slab) b->slab->busy++;
    }
}

// Drop one reference (cache lock held); a buffer reaching zero becomes free.
// Returns whether bget sleepers must be woken: the caller does that after
// releasing the cache lock, since wakeup takes every process's lock and
// fork calls kalloc (so maybe give_back, so the cache lock) holding one.
bool unref(Buf* b) {
    if (b->refcnt == 0) panic("bcache: release of unreferenced block %u", b->blockno);
    if (--b->refcnt != 0) return false;
    g_bcache->free.push_back(*b);
    if (b->slab) b->slab->busy--;
    return g_bcache->waiters > 0;
}

void unref_and_wake(Buf* b) {
    bool wake;
    {
        LockGuard guard(g_bcache->lock);
        wake = unref(b);
    }
    if (wake) wakeup(&*g_bcache);
}

// ---- slabs -----------------------------------------------------------------

// Allocate a slab (called without the cache lock); null when the
// allocator has no pages for it. Its pages count as free, in flight to the
// cache (kalloc_for_lender), until add_slab counts them as lent.
BufSlab* alloc_slab() {
    void* header = kalloc_for_lender();
    if (header == nullptr) return nullptr;
    auto* slab = new (header, InPlace{}) BufSlab;
    for (u32 p = 0; p < kSlabDataPages; p++) {
        u8* page = static_cast<u8*>(kalloc_for_lender());  // (a buffer's data is read before it is valid)
        if (page == nullptr) {
            for (u32 q = 0; q < p; q++) kalloc_copy_dropped(slab->bufs[q * bcache::kBlocksPerPage].data);
            kalloc_copy_dropped(header);
            return nullptr;
        }
        for (u32 i = 0; i < bcache::kBlocksPerPage; i++) {
            Buf& b = slab->bufs[p * bcache::kBlocksPerPage + i];
            b.data = page + i * fs::kBlockSize;
            b.slab = slab;
            b.dev = ~0u;
            b.blockno = ~0u;
        }
    }
    return slab;
}

// The slab count as kalloc's borrowed() reads it (cache lock held: no
// other writer), stored in kalloc's hold that moves the slab's pages.
void count_slab_in() { __atomic_store_n(&g_bcache->nslabs, g_bcache->nslabs + 1, __ATOMIC_RELAXED); }
void count_slab_out() { __atomic_store_n(&g_bcache->nslabs, g_bcache->nslabs - 1, __ATOMIC_RELAXED); }

// Add a new slab's buffers at the front of the free list (cache lock
// held); its pages turn from in flight to lent in one step.
void add_slab(BufSlab* slab) {
    g_bcache->slabs.push_back(*slab);
    kalloc_copies_to_lender(kSlabPages, count_slab_in);
    g_bcache->stat.grows++;
    for (Buf& b : slab->bufs) g_bcache->free.push_front(b);
}

// Unlink an idle slab from the cache (cache lock held); the caller frees
// it. Its pages turn from lent to in flight in one step, and stay counted
// as free until each reaches the free list (free_slab).
void remove_slab(BufSlab* slab) {
    for (Buf& b : slab->bufs) {
        make_empty(b);
        FreeList::remove(b);
    }
    List<BufSlab, &BufSlab::link>::remove(*slab);
    kalloc_lender_to_copies(kSlabPages, count_slab_out);
    g_bcache->stat.shrinks++;
}

void free_slab(BufSlab* slab) {
    for (u32 p = 0; p < kSlabDataPages; p++) kalloc_copy_dropped(slab->bufs[p * bcache::kBlocksPerPage].data);
    kalloc_copy_dropped(slab);
}

// The idle slab holding the least recently used block, or null (cache lock
// held). Empty buffers (at the front) say nothing about their slab's age:
// skipped, so a half-filled new slab is not taken for the coldest. A slab
// with no block cached at all is found in the second pass.
BufSlab* coldest_idle_slab() {
    for (Buf& b : g_bcache->free)
        if (b.slab != nullptr && b.slab->busy == 0 && b.hash.linked()) return b.slab;
    for (Buf& b : g_bcache->free)
        if (b.slab != nullptr && b.slab->busy == 0) return b.slab;
    return nullptr;
}

// A fixed buffer nobody references, to take a pinned block (cache lock
// held); null if every one is referenced.
Buf* free_fixed() {
    for (Buf& f : g_bcache->bufs)
        if (f.refcnt == 0) return &f;
    return nullptr;
}

// Move the block of slab buffer `from`, whose only reference is the log's
// pin, into free fixed buffer `to` (cache lock held). Nobody holds either
// sleep lock: every holder, and every bget about to lock, has a reference.
void move_pinned(Buf& from, Buf& to) {
    make_empty(to);
    FreeList::remove(to);
    memmove(to.data, from.data, fs::kBlockSize);
    to.dev = from.dev;
    to.blockno = from.blockno;
    to.valid = from.valid;
    to.refcnt = 1;
    to.pinned = true;
    make_empty(from);
    chain_of(to.dev, to.blockno).push_back(to);
    from.refcnt = 0;
    from.pinned = false;
    from.slab->busy--;
    g_bcache->free.push_front(from);
}

// Move every pinned block that only the log references from the slabs to
// free fixed buffers (cache lock held); returns how many moved. Runs only
// when no slab is idle, so the slabs left are few (each holds a reference).
u32 move_pins_to_floor() {
    u32 moved = 0;
    for (BufSlab& slab : g_bcache->slabs) {
        for (Buf& b : slab.bufs) {
            if (!b.pinned || b.refcnt != 1) continue;
            Buf* to = free_fixed();
            if (to == nullptr) return moved;
            move_pinned(b, *to);
            moved++;
        }
    }
    return moved;
}

// Lender::give_back: free idle slabs, coldest first, until `pages` pages
// came back, moving pinned blocks to the floor when no slab is idle;
// returns the pages freed (0: nothing idle to give).
u64 give_back(u64 pages) {
    u64 freed = 0;
    while (freed < pages) {
        BufSlab* slab;
        {
            LockGuard guard(g_bcache->lock);
            slab = coldest_idle_slab();
            if (slab == nullptr && move_pins_to_floor() > 0) slab = coldest_idle_slab();
            if (slab == nullptr) break;
            remove_slab(slab);
        }
        free_slab(slab);
        freed += kSlabPages;
    }
    return freed;
}

u64 borrowed_pages() { return u64(__atomic_load_n(&g_bcache->nslabs, __ATOMIC_RELAXED)) * kSlabPages; }

constexpr Lender kLender = {give_back, borrowed_pages};

// May this miss borrow a new slab? (cache lock held)
bool should_grow() {
    if (g_bcache->growing) return false;
    return bcache::may_grow(kalloc_pool_pages(), kalloc_total_pages());
}

// Claim free buffer `b` for (dev, blockno) (cache lock held).
Buf* claim(Buf* b, u32 dev, u32 blockno) {
    make_empty(*b);
    b->dev = dev;
    b->blockno = blockno;
    chain_of(dev, blockno).push_back(*b);
    ref(b);
    return b;
}

// Return the buffer for (dev, blockno) with its sleep lock held.
Buf* bget(u32 dev, u32 blockno) {
    Buf* b = nullptr;
    bool tried_grow = false;
    {
        LockGuard guard(g_bcache->lock);
        for (;;) {
            if ((b = lookup(dev, blockno)) != nullptr) {
                ref(b);
                break;
            }
            Buf* front = g_bcache->free.front();
            if (front != nullptr && !front->hash.linked()) {  // an empty buffer
                b = claim(front, dev, blockno);
                break;
            }
            if (!tried_grow && should_grow()) {
                tried_grow = true;  // once per call: a failed allocation is not retried
                g_bcache->growing = true;
                guard.unlock();
                BufSlab* slab = alloc_slab();
                guard.lock();
                g_bcache->growing = false;
                if (slab != nullptr) add_slab(slab);
                continue;  // look again: the block may have been cached meanwhile
            }
            if (front != nullptr) {  // recycle the least recently used block
                b = claim(front, dev, blockno);
                break;
            }
            g_bcache->waiters++;
            sleep(&*g_bcache, g_bcache->lock);  // every buffer is held
            g_bcache->waiters--;
        }
    }
    b->lock.acquire();
    return b;
}

}  // namespace

// Boot (a host test's every boot): the fixed buffers, empty and free.
void bcache_init() {
    // A host test's next boot: drop the previous boot's slabs, held or not.
    while (g_bcache.built()) {
        BufSlab* slab;
        {
            LockGuard guard(g_bcache->lock);
            if ((slab = g_bcache->slabs.front()) == nullptr) break;
            remove_slab(slab);
        }
        free_slab(slab);
    }
    BufCache& c = g_bcache.build();
    if (!c.lock.name()) panic("bcache_init: the cache kept no defaults");
    g_nkept = 0;
    for (u32 i = 0; i < param::kBufs; i++) {
        Buf& b = c.bufs[i];
        if (!b.lock.name() || b.lru.linked()) panic("bcache_init: a buffer kept no defaults");
        b.data = g_fixed_data[i];
        make_empty(b);
        c.free.push_back(b);
    }
    kalloc_set_lender(&kLender);
}

Buf* bread(u32 dev, u32 blockno) {
    Buf* b = bget(dev, blockno);
    if (b->valid) {
        __atomic_fetch_add(&g_bcache->stat.hits, 1, __ATOMIC_RELAXED);
        return b;
    }
    __atomic_fetch_add(&g_bcache->stat.misses, 1, __ATOMIC_RELAXED);
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

void bkeep(Buf* b) {
    if (!b->lock.holding()) panic("bkeep: buffer of block %u not locked", b->blockno);
    LockGuard guard(g_bcache->lock);
    for (u32 i = 0; i < g_nkept; i++)
        if (g_kept[i].dev == b->dev && g_kept[i].blockno == b->blockno) return;
    if (g_nkept == fs::kLogPinBudget) panic("bkeep: more blocks kept than the log can pin");
    g_kept[g_nkept].dev = b->dev;
    g_kept[g_nkept].blockno = b->blockno;
    memmove(g_kept[g_nkept].data, b->data, fs::kBlockSize);
    g_nkept++;
}

void bforget(u32 dev, u32 blockno) {
    LockGuard guard(g_bcache->lock);
    Buf* b = lookup(dev, blockno);
    if (b == nullptr) return;
    if (b->refcnt != 0) panic("bforget: block %u is held", blockno);
    make_empty(*b);
    FreeList::remove(*b);
    g_bcache->free.push_front(*b);  // empty buffers go first
}

void brelse(Buf* b) {
    if (!b->lock.holding()) panic("brelse: buffer of block %u not locked", b->blockno);
    b->lock.release();
    unref_and_wake(b);
}

void bpin(Buf* b) {
    LockGuard guard(g_bcache->lock);
    if (b->refcnt == 0) panic("bpin: block %u not held", b->blockno);
    if (b->pinned) panic("bpin: block %u pinned twice", b->blockno);
    b->refcnt++;
    b->pinned = true;
}

void bunpin(Buf* b) {
    bool wake;
    {
        LockGuard guard(g_bcache->lock);
        if (!b->pinned) panic("bunpin: block %u not pinned", b->blockno);
        b->pinned = false;
        wake = unref(b);
    }
    if (wake) wakeup(&*g_bcache);
}

BcacheStats bcache_stats() {
    LockGuard guard(g_bcache->lock);
    const u64 bufs = param::kBufs + u64(g_bcache->nslabs) * kSlabBufs;
    const u64 pages = u64(g_bcache->nslabs) * kSlabPages;
    const auto& c = g_bcache->stat;
    return BcacheStats{bufs, param::kBufs, pages, c.hits, c.misses, c.grows, c.shrinks};
}

bool bcache_memory_short() { return !bcache::may_grow(kalloc_pool_pages(), kalloc_total_pages()); }

}  // namespace q
