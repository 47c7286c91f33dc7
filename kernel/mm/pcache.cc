// kernel/mm/pcache.cc - the page cache (kernel/mm/pcache.h; the index is
// pure code in lib/vm/page_cache.h).
//
// A page is cached by (device, inode number, page of the file), not by the
// in-memory inode, so a program's text stays cached after its last process
// exits and the inode table reuses the entry: the next exec finds it. That
// is safe because every change of a file's bytes goes through writei,
// which copies into the cached page too, and every shrink through itrunc,
// which drops the pages; an inode freed on disk is truncated first, so a
// reused inode number never finds its predecessor's pages.
// A frame's users are counted in lib/page_refs.h (kFile | users): fork's
// dup adds one with an atomic add (the parent's mapping is a user, so it
// never starts from 0), and a put drops one the same way. Only a lookup
// (under g_lock) takes a frame from 0 users; a put that drops it to 0
// then takes g_lock and, if it is still at 0, makes it idle (or frees it,
// if truncation took it out of the index meanwhile): so a frame at 0 users
// that is not idle is such a put in flight, and nobody else frees it.
// A frame a lookup takes from the idle ones, or reads in for a caller
// holding a promise, is unsettled (PageIndex::mark_unsettled): kalloc
// counts it as free, as a copy, until a mapping settles it (pcache_mapped:
// the promise goes in the same hold) or it turns idle again or is freed,
// so the free count moves once, where a page is really mapped.
// Only whole pages below the file's end are cached; a page is read with
// the inode locked and put in the index before the lock goes, so no
// write() can fall between the read and the insert. The last partial page of a file is cached too: its bytes
// past the end are zeros, and a write() that grows the file copies its
// bytes in.
// Dirty pages: a MAP_SHARED mapping's stores go to the cached frame, which
// is newer than the file until the mapping is written back (msync, munmap,
// exit: kernel/mm/mmap.cc), so read() takes such a file's pages from the
// cache (Inode::pc_shared). A frame becomes idle only when its last
// mapping went, after that write-back: idle frames are clean, and dropping
// one loses nothing (a failed write-back, disk full or read-only, is lost
// with the frame, as Linux loses it).
#include "kernel/mm/pcache.h"

#include "kernel/fs/fs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"
#include "lib/page_refs.h"
#include "lib/vm/page_cache.h"

namespace q {

namespace {

constinit SpinLock g_lock("pcache");
constinit vm::PageIndex g_index;
constinit u64 g_first = 0;
constinit u64 g_idle = 0;  // g_index.idle(), readable without the lock (the Lender's count)

u32 frame_of(const void* page) { return static_cast<u32>((reinterpret_cast<u64>(page) - g_first) / kPageSize); }
void* page_at(u32 f) { return reinterpret_cast<void*>(g_first + u64(f) * kPageSize); }
u64 pa_of(u32 f) { return g_first + u64(f) * kPageSize; }
vm::PageKey key_of(const Inode* ip, u32 page) { return vm::PageKey{ip->dev, ip->inum, page}; }

void publish_idle() { __atomic_store_n(&g_idle, g_index.idle(), __ATOMIC_RELAXED); }

// One more user of cached frame f (g_lock held). An idle frame stays
// counted as free, as an unsettled one, until a mapping settles it
// (pcache_mapped) or it turns idle again (pcache_put): in one hold of
// kalloc's lock each, so a reader never sees it half done.
void take_user(u32 f) {
    page_refs().dup(pa_of(f));
    if (!g_index.is_idle(f)) return;
    g_index.make_busy(f);
    g_index.mark_unsettled(f, true);
    kalloc_lender_to_copies(1, publish_idle);
}

// Drop cached frame f from the index (g_lock held): freed now if it is
// idle, else by its last user's put (also one whose put has dropped the
// count to 0 but not yet taken g_lock: pcache_put).
void drop_locked(u32 f) {
    const bool unused = g_index.is_idle(f);
    g_index.remove(f);
    if (!unused) return;
    page_refs().clear(pa_of(f));
    kfree_publishing(page_at(f), publish_idle);  // lent to free in one step
}

// The Lender's give_back: evict idle frames, least recently used first.
u64 give_back(u64 pages) {
    u64 freed = 0;
    LockGuard g(g_lock);
    while (freed < pages) {
        const u32 f = g_index.oldest_idle();
        if (f == vm::PageIndex::kNone) break;
        drop_locked(f);
        freed++;
    }
    return freed;
}

u64 borrowed() { return __atomic_load_n(&g_idle, __ATOMIC_RELAXED); }

constexpr Lender kLender{give_back, borrowed};

// The cached frame of page `page` with a user taken, or null.
void* find_taken(const vm::PageKey& k) {
    LockGuard g(g_lock);
    const u32 f = g_index.find(k);
    if (f == vm::PageIndex::kNone) return nullptr;
    take_user(f);
    return page_at(f);
}

}  // namespace

u64 pcache_bytes(u64 frames) { return page_round_up(vm::PageIndex::bytes_for(static_cast<u32>(frames))); }

void pcache_init(void* mem, u64 first_pa, u64 frames) {
    g_first = first_pa;
    g_index.init(static_cast<u32>(frames), mem);
    kalloc_set_lender(&kLender);
}

Result<void*> pcache_get(Inode* ip, u32 page, bool* hit, bool promised) {
    const vm::PageKey k = key_of(ip, page);
    *hit = true;
    if (void* f = find_taken(k)) return f;
    InodeLock lock(ip);  // (never ours already: a kernel copy under it leaves the fault for later)
    const u64 off = u64(page) * kPageSize;
    if (off >= ip->size) return Error::BadAddress;  // no byte of the file in this page
    if (void* f = find_taken(k)) return f;          // another fault read it meanwhile
    *hit = false;
    void* mem = promised ? kalloc_for_copy() : kalloc_unzeroed();  // every byte written below
    if (mem == nullptr) return Error::NoMemory;
    const u32 n = ip->size - off < kPageSize ? static_cast<u32>(ip->size - off) : static_cast<u32>(kPageSize);
    auto r = readi(ip, false, reinterpret_cast<u64>(mem), static_cast<u32>(off), n);
    if (!r.ok() || r.value() != n) {
        if (promised) kalloc_copy_dropped(mem);
        else kfree(mem);
        return Error::IoError;
    }
    memset(static_cast<u8*>(mem) + n, 0, kPageSize - n);
    LockGuard g(g_lock);
    page_refs().make_file(reinterpret_cast<u64>(mem), 1);
    (void)g_index.insert(frame_of(mem), k);  // (not there: the inode lock kept others out)
    g_index.mark_unsettled(frame_of(mem), promised);
    return mem;
}

void pcache_mapped(void* frame, bool promise) {
    LockGuard g(g_lock);
    const u32 f = frame_of(frame);
    if (g_index.unsettled(f)) {
        g_index.mark_unsettled(f, false);
        kalloc_copy_kept(promise);
    } else if (promise) {
        kalloc_unreserve(1);
    }
}

bool pcache_holds(const void* frame) {
    LockGuard g(g_lock);
    return g_index.cached(frame_of(frame));
}

void pcache_put(void* frame) {
    const u64 pa = reinterpret_cast<u64>(frame);
    if (page_refs().file_put(pa) != 0) return;  // others use it: no lock (fork's children mostly)
    bool out = false, unsettled = false;
    {
        LockGuard g(g_lock);
        const u32 f = frame_of(frame);
        if (page_refs().file_users(pa) != 0) return;  // a fault took it again meanwhile
        unsettled = g_index.unsettled(f);
        g_index.mark_unsettled(f, false);
        if (g_index.cached(f)) {
            g_index.make_idle(f);
            if (unsettled) kalloc_copies_to_lender(1, publish_idle);  // counted free all along
            else publish_idle();
        } else {
            page_refs().clear(pa);  // truncation took it out: its last user frees it
            out = true;
        }
    }
    if (out && unsettled) kalloc_copy_dropped(frame);
    else if (out) kfree(frame);
}

void pcache_wrote(const Inode* ip, u32 off, const void* src, u32 n) {
    if (n == 0) return;
    LockGuard g(g_lock);
    const u32 f = g_index.find(key_of(ip, off / kPageSize));
    if (f == vm::PageIndex::kNone) return;
    memmove(static_cast<u8*>(page_at(f)) + off % kPageSize, src, n);
}

bool pcache_read(const Inode* ip, u32 off, bool user_dst, u64 dst, u32 n, Status* st) {
    void* frame = find_taken(key_of(ip, off / kPageSize));
    if (frame == nullptr) return false;
    // (under ip's lock: a fault that sleeps is left for later, fault.h)
    *st = either_copyout(user_dst, dst, static_cast<u8*>(frame) + off % kPageSize, n);
    pcache_put(frame);
    return true;
}

void pcache_truncate(const Inode* ip, u32 size) {
    const u32 pages = static_cast<u32>(page_round_up(size) / kPageSize);
    LockGuard g(g_lock);
    if (g_index.size() == 0) return;
    for (u32 p = 0; p < pages; p++) {
        const u32 f = g_index.find(key_of(ip, p));
        if (f != vm::PageIndex::kNone) drop_locked(f);
    }
}

u64 pcache_pages() {
    LockGuard g(g_lock);
    return g_index.size();
}

u64 pcache_idle_pages() { return borrowed(); }

}  // namespace q
