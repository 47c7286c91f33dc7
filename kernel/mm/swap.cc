// kernel/mm/swap.cc - page-out, swap-in and the core map (docs/memory.md
// "Swap").
//
// The core map has one entry per frame of RAM: the owner (thread-group
// index + 1, 0 = none) and the virtual page at which it maps the frame,
// plus the replacement queues' links (lib/vm/replace.h): one queue per
// process. The fault path tracks the private anonymous pages it
// zero-fills, copies on write or swaps in; kfree untracks. A record may go
// stale (its frame now mapped only by a fork child, or the group reused):
// nothing untracks it then, because every victim is checked against the
// caller's own page table, and tracking a frame again moves it to its new
// owner.
// Replacement is local (OSTEP 23.1, VMS): a thread faulting while free
// frames are below the low watermark pages out its own process's pages.
// So the page tables changed are always the caller's own, which fork,
// sbrk, munmap, exec and exit change without pt_lock only from the
// process's own thread or under its mm_lock, which the reclaimer holds.
// Victims are checked again under pt_lock before anything changes, so a
// stale record costs a look, never a wrong page-out. When the queue has
// nothing that can go (a fork's pages are shared by parent and child, so
// neither may free them), the reclaimer scans its own heap and data and
// pages out its mapping of whatever private anonymous page it finds: a
// shared frame is freed once each sharer has done so (scan_one).
// Page-out of frame F at (tg, va): take a slot (alloc pins it: the write),
// under pt_lock check the entry still maps F, user, private, unshared,
// replace it by the slot's swapped entry, shoot down tg's other harts'
// TLBs, write F, unpin, free F. A fault on the entry meanwhile waits for
// the write (g_writing). Swap-in: pin the slot under pt_lock, wait for any
// write, read it into a fresh frame, and map it if the entry is still the
// same one (else another thread won: free the frame). A slot named by
// several entries (fork) is read by each; each swap-in but the last uses
// the promise its entry held (the N-1 promises rule of kalloc.h).
// Accounting: every user page is a frame, a slot or a promise; promises
// may exceed free frames by up to the free slots (kalloc.cc), and
// swap_balance keeps free frames above lib/oom.h's low watermark by paging
// out before each fault is resolved.
#include "kernel/mm/swap.h"

#include "kernel/dev/swap_disk.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/tlb.h"
#include "kernel/mm/vm.h"
#include "kernel/mm/vmstat.h"
#include "kernel/proc/internal.h"
#include "lib/oom.h"
#include "lib/vm/replace.h"
#include "lib/vm/swap_slots.h"

namespace q {

using namespace riscv;

namespace {

constexpr u64 kPteA = 1ull << 6;     // accessed: the hardware sets it (QEMU updates A/D itself)
constexpr u32 kMaxSlots = 1u << 16;  // 256 MiB of swap at most (the slot arrays are static: 256 KiB)

constinit SpinLock g_lock("swap");
constinit vm::Policy g_policy = vm::Policy::Clock;
constinit vm::ReplaceLinks g_links;
constinit vm::ReplaceQueue g_queues[param::kMaxProcs];  // one per thread group: local replacement
constinit vm::SwapSlots g_slots;
constinit u16 g_refs[kMaxSlots] = {};
constinit u8 g_pins[kMaxSlots] = {};
constinit u8 g_writing[kMaxSlots] = {};  // a page-out's write of the slot is in flight (g_lock)

struct CoreMap {
    u64 first = 0;  // physical address of frame 0
    u64 frames = 0;
    u16* owner = nullptr;  // g_tgroups index + 1; 0: not tracked
    u32* vpn = nullptr;
};
constinit CoreMap g_map;

u64 frame_of(const void* page) { return (reinterpret_cast<u64>(page) - g_map.first) / kPageSize; }
void* page_of(u64 f) { return reinterpret_cast<void*>(g_map.first + f * kPageSize); }
u32 slot_of(Pte e) { return static_cast<u32>(e >> 10); }
Pte entry_of(u32 slot) { return (static_cast<u64>(slot) << 10) | kPteSwapped; }

ThreadGroup* owner_of(u64 f) {
    const u16 o = __atomic_load_n(&g_map.owner[f], __ATOMIC_RELAXED);
    return o == 0 ? nullptr : &g_tgroups[o - 1];
}

// The caller's own entry of frame f if it still maps f (g_lock held; the
// caller is tg's thread reclaiming for itself, so its page table stays).
Pte* entry_mapping(const ThreadGroup* tg, u64 f) {
    Pte* pte = walk(tg->pagetable, static_cast<u64>(g_map.vpn[f]) << 12, false);
    if (pte == nullptr || !(*pte & kPteV) || pte_to_pa(*pte) != reinterpret_cast<u64>(page_of(f))) return nullptr;
    return pte;
}

// Clock's question (g_lock held): was frame f used since the last look?
// The test clears the bit without a TLB flush, so a hart with a cached
// translation may not set it again: the page then just looks idle sooner
// (a later major fault, never a wrong page).
bool test_and_clear_accessed(const ThreadGroup* tg, u32 f) {
    Pte* pte = entry_mapping(tg, f);
    if (pte == nullptr) return false;
    return (__atomic_fetch_and(pte, ~kPteA, __ATOMIC_RELAXED) & kPteA) != 0;
}

vm::ReplaceQueue& queue_of(const ThreadGroup* tg) { return g_queues[tg - g_tgroups]; }

void untrack_locked(u64 f) {
    if (ThreadGroup* tg = owner_of(f)) queue_of(tg).remove(static_cast<u32>(f));
    __atomic_store_n(&g_map.owner[f], 0, __ATOMIC_RELAXED);
}

// Why a victim cannot go now: Gone (the record is stale: drop it), Busy
// (shared or revoked right now: try it again later), or it went (Ok).
enum class Victim : u8 { Ok, Gone, Busy };

// Under tg's pt_lock: replace the entry of frame f at va by slot's.
Victim unmap_victim(ThreadGroup* tg, u64 va, u64 f, u32 slot, Pte* old) {
    LockGuard g(tg->pt_lock);
    Pte* pte = walk(tg->pagetable, va, false);
    void* page = page_of(f);
    if (pte == nullptr || !(*pte & kPteV) || pte_to_pa(*pte) != reinterpret_cast<u64>(page)) return Victim::Gone;
    if (*pte & kPteShared) return Victim::Gone;
    if (!(*pte & kPteU) || page_shared(page)) return Victim::Busy;
    LockGuard s(g_lock);
    if (owner_of(f) != tg || g_map.vpn[f] != va >> 12) return Victim::Gone;
    g_writing[slot] = 1;
    *old = *pte;
    *pte = entry_of(slot);
    return Victim::Ok;
}

// Write the unmapped page to slot, then put this mapping's share of it
// (the last one frees it; kalloc.h: a share others keep gives back its
// promise) and the write's pin. On a write error the entry is put back as
// it was (old), if it is still the slot's; else the page's data goes with
// the entry's process.
void write_out(ThreadGroup* tg, u64 va, void* page, Pte old, u32 slot) {
    tlb_shootdown_any(tg);  // no hart may write the page through an old entry now
    const bool ok = swap_disk_rw(slot, page, true).ok();
    bool restored = false;
    if (!ok) {
        LockGuard g(tg->pt_lock);
        Pte* pte = walk(tg->pagetable, va, false);
        if (pte && *pte == entry_of(slot)) {
            *pte = old;
            LockGuard s(g_lock);
            g_slots.put(slot);
            restored = true;
        }
    }
    {
        LockGuard s(g_lock);
        g_writing[slot] = 0;
        g_slots.unpin(slot);
    }
    wakeup(&g_writing[slot]);
    if (restored) return;
    if (page_put(page)) kalloc_unreserve(1);  // (a frame only this mapping had is freed, untracked)
    vm_count(VmEvent::PageOut);
}

// One page of tg's out: true if one went. Gives up when tg's queue holds
// nothing that can go (every candidate shared, or none left) or swap is
// full. The caller is tg's thread and keeps its siblings' fork, sbrk,
// munmap and exit out (MmGuard): only faults (under pt_lock) run meanwhile.
bool reclaim_one(ThreadGroup* tg) {
    vm::ReplaceQueue& q = queue_of(tg);
    for (u64 tries = 0; tries < 64; tries++) {
        u32 f, slot;
        u64 va;
        {
            LockGuard s(g_lock);
            f = q.pick(g_policy, [tg](u32 i) { return test_and_clear_accessed(tg, i); });
            if (f == vm::ReplaceQueue::kNone) return false;
            va = static_cast<u64>(g_map.vpn[f]) << 12;
            q.rotate(f);  // (a page-out removes it; a busy page waits a lap)
            slot = g_slots.alloc();
            if (slot == vm::SwapSlots::kNone) return false;
        }
        Pte old = 0;
        const Victim v = unmap_victim(tg, va, f, slot, &old);
        if (v == Victim::Ok) {
            write_out(tg, va, page_of(f), old, slot);
            return true;
        }
        LockGuard s(g_lock);
        g_slots.put(slot);
        g_slots.unpin(slot);
        if (v == Victim::Gone) untrack_locked(f);
    }
    return false;
}

constinit u64 g_scan_va[param::kMaxProcs] = {};  // where each process's scan goes on (its reclaimer's)

// Under tg's pt_lock: if va is a private anonymous page mapped for user
// mode, replace its entry by a fresh slot's (returned; kNone: not a
// candidate, or swap is full: *full).
u32 unmap_scanned(ThreadGroup* tg, u64 va, void** page, Pte* old, bool* full) {
    LockGuard g(tg->pt_lock);
    const vm::Region* r = tg->map.find(va);
    if (r == nullptr || r->obj != 0 || r->shared || r->kind == vm::Kind::Guard) return vm::SwapSlots::kNone;
    Pte* pte = walk(tg->pagetable, va, false);
    if (pte == nullptr || (*pte & (kPteV | kPteU)) != (kPteV | kPteU) || (*pte & kPteShared))
        return vm::SwapSlots::kNone;
    // A process with threads shares no private page with another (fork
    // copies it, thread_create unshares): a shared frame is one a kernel
    // copy pinned (kernel/mm/fault.h:vm_pin), which must not go under it.
    if (tg->shared() && page_shared(reinterpret_cast<void*>(pte_to_pa(*pte)))) return vm::SwapSlots::kNone;
    LockGuard s(g_lock);
    const u32 slot = g_slots.alloc();
    *full = slot == vm::SwapSlots::kNone;
    if (*full) return slot;
    g_writing[slot] = 1;
    *page = reinterpret_cast<void*>(pte_to_pa(*pte));
    *old = *pte;
    *pte = entry_of(slot);
    return slot;
}

// When the queue has nothing that can go (every page resident shared with
// a fork child or parent, or made resident eagerly by exec): walk tg's own
// heap and data, [0, sz), from where the last scan stopped, and page out
// the next private anonymous page found, shared or not. A shared one only
// loses this mapping (the others keep the frame); once every sharer has
// done the same the frame is free. At most kScan pages a call.
bool scan_one(ThreadGroup* tg) {
    constexpr u64 kScan = 1024;
    const u64 top = page_round_up(tg->sz);
    u64& next = g_scan_va[tg - g_tgroups];
    for (u64 n = 0; n < kScan && top > 0; n++) {
        const u64 va = next < top ? next : 0;
        next = va + kPageSize;
        void* page = nullptr;
        Pte old = 0;
        bool full = false;
        const u32 slot = unmap_scanned(tg, va, &page, &old, &full);
        if (full) return false;
        if (slot == vm::SwapSlots::kNone) continue;
        write_out(tg, va, page, old, slot);
        return true;
    }
    return false;
}

// reclaim_one under tg's mm_lock while tg has other threads (MmGuard's
// rule), unless this thread holds it already (a kernel copy inside a
// system call that took it).
u64 reclaim(ThreadGroup* tg, u64 n) {
    const bool lock = tg->shared() && !tg->mm_lock.holding();
    if (lock) tg->mm_lock.acquire();
    u64 done = 0;
    while (done < n && (reclaim_one(tg) || scan_one(tg))) done++;
    if (lock) tg->mm_lock.release();
    return done;
}

}  // namespace

constinit bool g_swap_on = false;

void swap_init(const char* policy) {
    if (policy[0]) (void)vm::parse_policy(policy, &g_policy);  // (lib/boot_args.cc accepts only these)
    u64 pages = swap_disk_init();
    if (pages == 0) return;
    if (pages > kMaxSlots) pages = kMaxSlots;
    g_slots.init(static_cast<u32>(pages), g_refs, g_pins);
    for (vm::ReplaceQueue& q : g_queues) q.init(&g_links);
    g_swap_on = true;
    kprintf("quanta: swap %lu MiB (%lu pages), replacement %s\n", static_cast<unsigned long>(pages >> 8),
            static_cast<unsigned long>(pages), vm::policy_name(g_policy));
}

const char* swap_policy_name() { return vm::policy_name(g_policy); }
u64 swap_total_slots() { return g_slots.total(); }
u64 swap_free_slots() { return g_slots.free_count(); }

u64 swap_coremap_bytes(u64 frames) { return frames * (3 * sizeof(u32) + sizeof(u16)); }

void swap_coremap_init(void* mem, u64 first_pa, u64 frames) {
    u32* next = static_cast<u32*>(mem);
    u32* prev = next + frames;
    g_map.first = first_pa;
    g_map.frames = frames;
    g_map.vpn = prev + frames;
    g_map.owner = reinterpret_cast<u16*>(g_map.vpn + frames);
    memset(g_map.owner, 0, frames * sizeof(u16));
    g_links.init(static_cast<u32>(frames), next, prev);
}

void swap_track(void* frame, const ThreadGroup* tg, u64 va) {
    if (!g_swap_on) return;
    const u64 f = frame_of(frame);
    if (f >= g_map.frames) return;
    LockGuard s(g_lock);
    untrack_locked(f);  // (re-owned: a copy-on-write page its last mapping kept)
    g_map.vpn[f] = static_cast<u32>(va >> 12);
    __atomic_store_n(&g_map.owner[f], static_cast<u16>(tg - g_tgroups + 1), __ATOMIC_RELAXED);
    queue_of(tg).push(static_cast<u32>(f));
}

void swap_untrack(void* frame) {
    if (!g_swap_on) return;
    const u64 f = frame_of(frame);
    if (f >= g_map.frames || __atomic_load_n(&g_map.owner[f], __ATOMIC_RELAXED) == 0) return;
    LockGuard s(g_lock);
    untrack_locked(f);
}

bool swap_entry_dup(Pte e) {
    LockGuard s(g_lock);
    return g_slots.valid(slot_of(e)) && g_slots.dup(slot_of(e));
}

bool swap_entry_drop(Pte e) {
    LockGuard s(g_lock);
    if (!g_slots.valid(slot_of(e))) return false;
    return g_slots.put(slot_of(e)) > 0;
}

u64 swap_reclaim(ThreadGroup* tg, u64 n) { return g_swap_on ? reclaim(tg, n) : 0; }

void swap_balance(ThreadGroup* tg) {
    if (!g_swap_on) return;
    const u64 low = oom::low_water(kalloc_total_pages());
    const u64 have = kalloc_frames_free();
    if (have >= low) return;
    reclaim(tg, low + low / 4 - have);  // a margin, so the next faults do not each page one out
}

namespace {

// Wait for slot's write to finish, then read it into a new frame, or null.
void* read_slot(ThreadGroup* tg, u32 slot) {
    {
        LockGuard s(g_lock);
        while (g_writing[slot]) sleep(&g_writing[slot], g_lock);
    }
    void* mem = kalloc_for_copy();  // the page is counted already: its slot
    if (mem == nullptr && reclaim(tg, 1) > 0) mem = kalloc_for_copy();
    if (mem == nullptr) return nullptr;
    if (!swap_disk_rw(slot, mem, false).ok()) {
        kalloc_copy_dropped(mem);
        return nullptr;
    }
    return mem;
}

u64 region_bits(const vm::Region& r) {
    u64 bits = kPteU;
    if (r.perm & (vm::kRead | vm::kWrite)) bits |= kPteR;
    if (r.perm & vm::kWrite) bits |= kPteW;
    if (r.perm & vm::kExec) bits |= kPteX;
    return bits;
}

}  // namespace

SwapIn swap_in(ThreadGroup* tg, u64 va) {
    const u64 page = page_round_down(va);
    Pte e;
    {
        LockGuard g(tg->pt_lock);
        Pte* pte = walk(tg->pagetable, page, false);
        if (pte == nullptr || !pte_swapped(*pte)) return SwapIn::Retry;
        e = *pte;
        LockGuard s(g_lock);
        if (!g_slots.valid(slot_of(e)) || !g_slots.pin(slot_of(e))) return SwapIn::NoMemory;
    }
    const u32 slot = slot_of(e);
    void* mem = read_slot(tg, slot);
    SwapIn result = mem ? SwapIn::Retry : SwapIn::NoMemory;
    if (mem) {
        LockGuard g(tg->pt_lock);
        Pte* pte = walk(tg->pagetable, page, false);
        const vm::Region* r = tg->map.find(page);
        if (pte && *pte == e && r) {
            __atomic_thread_fence(__ATOMIC_RELEASE);  // the page's contents before its entry
            *pte = pa_to_pte(reinterpret_cast<u64>(mem)) | region_bits(*r) | kPteV;
            bool others;
            {
                LockGuard s(g_lock);
                others = g_slots.put(slot) > 0;
            }
            kalloc_copy_kept(others);  // if shared, this entry's promise paid for the frame
            swap_track(mem, tg, page);
            __atomic_fetch_add(&tg->majflt, 1, __ATOMIC_RELAXED);
            vm_count(VmEvent::MajorFault);
            vm_count(VmEvent::PageIn);
            result = SwapIn::Mapped;
            mem = nullptr;
        }
    }
    if (mem) kalloc_copy_dropped(mem);  // another thread mapped it first, or it was unmapped
    LockGuard s(g_lock);
    g_slots.unpin(slot);
    return result;
}

}  // namespace q
