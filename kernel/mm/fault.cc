// kernel/mm/fault.cc - page faults from user mode, and faulting pages in for
// the kernel's user copies.
//
// A fault names an address and an access (load, store, fetch). The
// process's map (ThreadGroup::map, lib/vm/regions.h) says what the address
// should be: in a lazy region (the heap) a page never touched is allocated
// now, zeroed, from the pages sbrk promised (kernel/mm/kalloc.h
// reservations), and mapped with the region's permissions: a minor fault.
// A write to a page fork shared copy-on-write (kPteCow, kernel/mm/vm.h)
// copies it, or makes it writable if no other mapping is left: also minor.
// A page already mapped with the access is a stale TLB entry on this hart
// (another thread mapped it just now): the access is retried once. Anything
// else (no region, the stack guard, a permission the region lacks, a kernel
// or trampoline address) kills the process with the address and the cause
// on the console; it is never a panic (a fault in supervisor mode still is:
// kernel/trap.cc). Memory running out at fault time (the promise was raced
// away, or a page-table page cannot be had) applies the out-of-memory rule
// (kernel/proc/oom.cc): a bigger process dies and this one waits for its
// pages; if there is none, this one is killed.
// A file mapping's or demand-paged text's page (kernel/mm/mmap.cc) is the
// page cache's frame, shared with every other process mapping it
// (kernel/mm/pcache.h: read from the file if it was not cached, a major
// fault; a minor one if it was), or, where the page cannot be shared (the
// last, partial page of a text segment), a private copy read from the
// file. Either may sleep, so it is resolved outside pt_lock,
// holding the process's MmGuard so that no munmap runs meanwhile, and only
// when the faulting context may sleep and holds none of the locks such a
// fault takes: a kernel copy under a spinlock, an inode's, a buffer's or
// the mm lock, or in a file-system operation, leaves the page for later
// (Proc::fault_later), and its caller faults it in once it dropped them
// (vm_fault_later; docs/memory.md "Lock order").
// With a swap disk (kernel/mm/swap.h) a fault first pages out some of the
// process's own pages if free frames are below the low watermark, and a
// swapped entry is read back (a major fault) outside pt_lock, as a file
// page is. Private anonymous pages made resident here are tracked for
// replacement (swap_track).
// Locking: the map and the page table change under ThreadGroup::pt_lock, a
// spinlock: resolving any other fault never sleeps, so it may run from a
// copy done under another spinlock (futex words).
#include "kernel/mm/fault.h"
#include "kernel/proc/signal.h"

#include "kernel/arch/riscv/csr.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/trapframe.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/pcache.h"
#include "kernel/mm/swap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/mm/vmstat.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/oom.h"

namespace q {

using namespace riscv;

namespace {

// PastEnd: a file page with no byte of the file (past its end, after a
// truncation or in a mapping longer than the file): SIGBUS, as in Linux.
// ReadError: the file's page could not be read (a disk error): SIGBUS too.
enum class Outcome : u8 { Mapped, Present, Refused, NoMemory, NeedFile, NeedSwap, PastEnd, ReadError };

// Proc::fault_later: a page left for later, and whether for a write.
constexpr u64 kLater = 1;
constexpr u64 kLaterWrite = 2;

vm::Access access_of(u64 scause) {
    if (scause == kExcStorePageFault) return vm::Access::Write;
    if (scause == kExcInstPageFault) return vm::Access::Exec;
    return vm::Access::Read;
}

u64 pte_need(vm::Access a) {
    if (a == vm::Access::Write) return kPteR | kPteW;
    if (a == vm::Access::Exec) return kPteX;
    return kPteR;
}

// A region's page-table bits (RISC-V has no write-only page: W takes R).
u64 pte_perm(const vm::Region& r) {
    const u8 perm = r.perm;
    u64 bits = kPteU | (r.shared ? kPteShared : 0);
    if (perm & (vm::kRead | vm::kWrite)) bits |= kPteR;
    if (perm & vm::kWrite) bits |= kPteW;
    if (perm & vm::kExec) bits |= kPteX;
    return bits;
}

// Map page `page` of lazy region r (pt_lock held): `filled` if given (a
// file page read already, its promise taken by the caller), else a zeroed
// page from the region's promise.
Outcome zero_fill(ThreadGroup* tg, u64 page, const vm::Region& r, void* filled = nullptr) {
    const bool promised = filled == nullptr && tg->reserved > 0;
    void* mem = filled ? filled : promised ? kalloc_reserved() : kalloc();
    if (mem == nullptr) return Outcome::NoMemory;
    if (!map_user_page(tg->pagetable, page, reinterpret_cast<u64>(mem), pte_perm(r), &tg->table_reserved).ok()) {
        if (promised) kfree_keep_promise(mem);  // no page for the page table
        else if (!filled) kfree(mem);
        return Outcome::NoMemory;
    }
    if (promised) tg->reserved--;
    if (swap_on() && !filled && r.obj == 0 && !r.shared)
        swap_track(mem, tg, page);  // private anonymous: may be swapped
    __atomic_fetch_add(&tg->minflt, 1, __ATOMIC_RELAXED);
    vm_count(VmEvent::MinorFault);
    return Outcome::Mapped;
}

// A write to copy-on-write page *pte (pt_lock held): the last mapping of
// the page just becomes writable; a shared one is copied, and this
// mapping's share of the old page is put (kalloc.h: if the others all went
// meanwhile, that frees it). The copy happens before the put, so nobody
// can write the old page while it is read; the copy's frame counts as free
// until the put settles it (kalloc.h:kalloc_for_copy), so no reading of
// the free count sees the copy half made.
Outcome break_cow(ThreadGroup* tg, Pte* pte, u64 va) {
    void* old = reinterpret_cast<void*>(pte_to_pa(*pte));
    const u64 flags = (pte_flags(*pte) & ~kPteCow) | kPteW;
    if (!page_shared(old)) {
        *pte = pa_to_pte(reinterpret_cast<u64>(old)) | flags;
        if (swap_on()) swap_track(old, tg, va);  // this mapping's own now
    } else {
        void* mem = kalloc_for_copy();
        if (mem == nullptr) return Outcome::NoMemory;
        memmove(mem, old, kPageSize);
        __atomic_thread_fence(__ATOMIC_RELEASE);  // the copy before the entry naming it
        *pte = pa_to_pte(reinterpret_cast<u64>(mem)) | flags;
        if (swap_on()) swap_track(mem, tg, va);  // (the old one's record, if any, goes stale: swap.cc)
        page_put_copied(old, flags);             // others keep it: this mapping's promise goes
        vm_count(VmEvent::CowCopy);
    }
    __atomic_fetch_add(&tg->minflt, 1, __ATOMIC_RELAXED);
    vm_count(VmEvent::MinorFault);
    return Outcome::Mapped;
}

// sp: the faulting thread's stack pointer. The stack grows only over pages
// at or above it (code moves sp down first, then stores above it, as
// Linux's old check): a touch below sp is a guard-page hit, which xv6's
// stacktest requires of the page just below the stack.
Outcome resolve(ThreadGroup* tg, u64 va, vm::Access a, vm::Verdict* why, u64 sp) {
    *why = vm::Verdict::Unmapped;
    if (va >= layout::kUserTop) return Outcome::Refused;
    const u64 page = page_round_down(va);
    LockGuard g(tg->pt_lock);
    *why = tg->map.classify(va, a);
    if (*why != vm::Verdict::ZeroFill && *why != vm::Verdict::Present) return Outcome::Refused;
    Pte* pte = walk(tg->pagetable, page, false);
    if (pte && (*pte & kPteV)) {
        const u64 need = kPteV | kPteU | pte_need(a);
        if ((*pte & need) == need) return Outcome::Present;
        if (a == vm::Access::Write && (*pte & (kPteCow | kPteU)) == (kPteCow | kPteU)) return break_cow(tg, pte, page);
        return Outcome::Refused;
    }
    if (pte && pte_swapped(*pte)) return Outcome::NeedSwap;  // the map allows the access: read it back
    if (*why != vm::Verdict::ZeroFill) return Outcome::Refused;
    const vm::Region* r = tg->map.find(va);
    if (r->kind == vm::Kind::Stack && va < sp) {
        *why = vm::Verdict::Guard;
        return Outcome::Refused;
    }
    if (r->obj != 0) return Outcome::NeedFile;
    return zero_fill(tg, page, *r);
}

// The bytes of r's file for page `page` into mem (zeros past its end or
// the region's file_len); false if a mapping's page has no byte of the
// file (past its end). The caller holds no inode lock: a kernel copy under
// one leaves this fault for later (vm_fault_in).
bool read_file_page(const vm::Region& r, u64 page, void* mem) {
    Inode* ip = reinterpret_cast<Inode*>(r.obj);
    const u64 rel = page - r.start;
    if (rel >= r.file_len) return true;
    const u64 fo = r.off + rel;
    InodeLock lock(ip);
    if (r.kind == vm::Kind::Mmap && fo >= ip->size) return false;
    u64 n = r.file_len - rel < kPageSize ? r.file_len - rel : kPageSize;
    if (fo < ip->size) {
        if (ip->size - fo < n) n = ip->size - fo;
        (void)readi(ip, false, reinterpret_cast<u64>(mem), static_cast<u32>(fo), static_cast<u32>(n));
    }
    return true;
}

void count_major(ThreadGroup* tg) {
    __atomic_fetch_add(&tg->majflt, 1, __ATOMIC_RELAXED);
    __atomic_fetch_sub(&tg->minflt, 1, __ATOMIC_RELAXED);  // zero_fill counted it minor
    vm_count(VmEvent::MajorFault);
    vm_count(VmEvent::MinorFault, ~0ull);  // minus one: zero_fill counted it
}

// Text and MAP_SHARED pages are the cache's frames as they are.
bool plain(const vm::Region& r) { return r.shared || r.kind == vm::Kind::Text; }

// The page cache's frame for r's page `page` (sleeps). A text or
// MAP_SHARED page takes one of the process's promises for it (*promised
// says so), which goes only as the page is mapped (map_frame): until then
// the cache counts the frame as free, so two threads that fault the page
// at once, or one that finds it mapped meanwhile, never move the free
// count (pcache_get, pcache_mapped); the promise also lets the cache read
// the page into a promised page, so a first touch never runs out. A shared
// page must be the cache's (a private frame in a shared mapping could
// outlive a truncation and be written back over the file's new bytes); a
// private mapping's page falls back to a private copy (NoMemory).
Result<void*> cache_frame(ThreadGroup* tg, const vm::Region& r, u32 idx, bool* hit, bool* promised) {
    Inode* ip = reinterpret_cast<Inode*>(r.obj);
    *promised = false;
    if (plain(r)) {
        LockGuard g(tg->pt_lock);
        *promised = tg->reserved > 0;
        if (*promised) tg->reserved--;
    }
    Result<void*> got = pcache_get(ip, idx, hit, *promised);
    if (*promised && !got.ok()) {
        LockGuard g(tg->pt_lock);
        tg->reserved++;  // it did not go
        *promised = false;
    }
    return got;
}

// Map cache frame `frame` for r's page (pt_lock held). Text and MAP_SHARED
// pages are mapped as they are, kPteShared, and need no promise: the one
// taken for the page (`promised`, or this page's now) goes in the same
// hold of kalloc's lock as the cache's frame stops counting as free
// (pcache_mapped). A MAP_PRIVATE page is mapped without W, copy-on-write
// if the region is writable, and keeps its promise for the copy
// (kalloc.h: page_put).
Outcome map_frame(ThreadGroup* tg, u64 page, const vm::Region& r, void* frame, bool promised) {
    Pte* pte = walk(tg->pagetable, page, false);
    if (pte && (*pte & kPteV)) return Outcome::Present;  // another thread mapped it first
    u64 bits = pte_perm(r);
    if (plain(r)) bits |= kPteShared;
    if (!plain(r) && (bits & kPteW)) bits = (bits & ~kPteW) | kPteCow;
    if (!map_user_page(tg->pagetable, page, reinterpret_cast<u64>(frame), bits, &tg->table_reserved).ok())
        return Outcome::NoMemory;
    if (!promised && tg->reserved > 0) {
        tg->reserved--;  // this page's promise: the mapping's own now, or given back
        promised = true;
    }
    pcache_mapped(frame, promised && plain(r));
    if (!promised && !plain(r)) kalloc_reserve(1);  // (a raced-away promise: the mapping must hold one)
    __atomic_fetch_add(&tg->minflt, 1, __ATOMIC_RELAXED);
    vm_count(VmEvent::MinorFault);
    return Outcome::Mapped;
}

// A file page from the page cache (may sleep): Refused if the page cannot
// come from it (the caller reads a private copy): the last page of exec's
// text segment, where the segment's bytes end mid-page and zeros follow,
// and a private mapping's page when the cache has no free frame.
Outcome file_fill_cached(ThreadGroup* tg, u64 page, const vm::Region& r) {
    const u64 rel = page - r.start;
    const u64 fo = r.off + rel;
    if (fo % kPageSize != 0 || rel + kPageSize > r.file_len) return Outcome::Refused;
    bool hit = false, promised = false;
    Result<void*> got = cache_frame(tg, r, static_cast<u32>(fo / kPageSize), &hit, &promised);
    if (!got.ok()) {
        if (got.error() == Error::BadAddress) return Outcome::PastEnd;
        if (got.error() == Error::IoError) return Outcome::ReadError;
        return plain(r) ? Outcome::NoMemory : Outcome::Refused;
    }
    void* frame = got.value();
    Outcome o;
    {
        LockGuard g(tg->pt_lock);
        o = map_frame(tg, page, r, frame, promised);
        if (o != Outcome::Mapped && promised) tg->reserved++;  // the page stays unmapped: its promise stays
    }
    if (o != Outcome::Mapped) {
        pcache_put(frame);
        return o;
    }
    if (!hit) count_major(tg);
    return o;
}

// A file mapping's page at va (may sleep; interrupts on): the page cache's
// frame if the page may be shared, else a private copy: the promise is
// taken first, the file read without pt_lock, and the page mapped if the
// region is still what it was (MmGuard keeps munmap out meanwhile).
Outcome file_fill(ThreadGroup* tg, u64 va, vm::Access a, vm::Verdict* why) {
    if (myproc()->fault_locks != 0) panic("file_fill: a lock the fault takes is held");
    MmGuard mm(tg);
    const u64 page = page_round_down(va);
    vm::Region r;
    {
        LockGuard g(tg->pt_lock);
        *why = tg->map.classify(va, a);
        const vm::Region* cur = tg->map.find(va);
        if (*why != vm::Verdict::ZeroFill || cur == nullptr || cur->obj == 0) return Outcome::Refused;
        Pte* pte = walk(tg->pagetable, page, false);
        if (pte && (*pte & kPteV)) return Outcome::Present;  // another thread read it first
        r = *cur;
    }
    const Outcome cached = file_fill_cached(tg, page, r);
    if (cached != Outcome::Refused) return cached;
    void* mem = nullptr;
    bool promised = false;
    {
        LockGuard g(tg->pt_lock);
        promised = tg->reserved > 0;
        mem = promised ? kalloc_reserved() : kalloc();
        if (mem == nullptr) return Outcome::NoMemory;
        if (promised) tg->reserved--;
    }
    const bool there = read_file_page(r, page, mem);
    LockGuard g(tg->pt_lock);
    const Outcome o = there ? zero_fill(tg, page, r, mem) : Outcome::PastEnd;
    if (o == Outcome::Mapped) {
        count_major(tg);
    } else if (promised) {
        kfree_keep_promise(mem);
        tg->reserved++;
    } else {
        kfree(mem);
    }
    return o;
}

// A swapped page back in (may sleep): Present if its entry changed
// meanwhile (the caller looks again).
Outcome swap_fill(ThreadGroup* tg, u64 va) {
    switch (swap_in(tg, va)) {
        case SwapIn::Mapped:
            return Outcome::Mapped;
        case SwapIn::Retry:
            return Outcome::Present;
        case SwapIn::NoMemory:
            break;
    }
    return Outcome::NoMemory;
}

[[gnu::noinline]] void report(const Proc* p, u64 scause, u64 va, const char* why) {
    kprintf("pid %d (%s): page fault: %s at %p (%s), scause=%lx sepc=%p: killed\n", p->pid, p->name,
            vm::access_name(access_of(scause)), reinterpret_cast<void*>(va), why, scause,
            reinterpret_cast<void*>(p->trapframe->epc));  // sepc itself is another trap's after a file read
}

}  // namespace

bool is_page_fault(u64 scause) {
    return scause == kExcLoadPageFault || scause == kExcStorePageFault || scause == kExcInstPageFault;
}

bool vm_user_fault(Proc* p, u64 scause, u64 va) {
    vm::Verdict why = vm::Verdict::Unmapped;
    if (swap_on()) {
        intr_on();  // page-out sleeps; usertrap_return turns them off again
        swap_balance(p->tg);
    }
    Outcome o = resolve(p->tg, va, access_of(scause), &why, p->trapframe->x(TrapFrame::sp));
    if (o == Outcome::NeedFile) {
        intr_on();  // reading the file sleeps; usertrap_return turns them off again
        o = file_fill(p->tg, va, access_of(scause), &why);
    }
    if (o == Outcome::NeedSwap) {
        intr_on();
        o = swap_fill(p->tg, va);
        if (o == Outcome::Present) return true;  // the entry changed meanwhile: look again
    }
    if (o == Outcome::Mapped) {
        p->retried_va = ~0ull;  // progress: a later race at va is a new one
        return true;
    }
    if (o == Outcome::Present && p->retried_va != va) {
        p->retried_va = va;  // a second fault here is real, whatever the entry says
        return true;
    }
    if (o == Outcome::NoMemory && oom_kill(p)) {
        yield_turn();  // the victim's pages come back as it exits; then try again
        return true;
    }
    const bool bus = o == Outcome::PastEnd || o == Outcome::ReadError;
    const char* cause = va >= layout::kUserTop         ? "not user memory"
                        : o == Outcome::NoMemory       ? "out of memory"
                        : o == Outcome::Present        ? "mapped page faulted twice"
                        : o == Outcome::PastEnd        ? "past end of file"
                        : o == Outcome::ReadError      ? "file read error"
                        : why == vm::Verdict::ZeroFill ? "protection"
                                                       : vm::verdict_name(why);
    // A handler for SIGSEGV (SIGBUS for a file page that is not there)
    // takes it instead (kernel/proc/signal.cc); with none, the kill and its
    // message are as they always were.
    if (o != Outcome::NoMemory && sig_fault(p, bus ? sig::kBus : sig::kSegv, va)) return false;
    report(p, scause, va, cause);
    if (o == Outcome::NoMemory) set_killed(p);  // waitpid: SIGKILL, as for the OOM rule
    else sig_fault_kill(p, sig::kSegv);         // waitpid: SIGSEGV
    return false;
}

bool vm_fault_in(PageTable pt, u64 va, bool write) {
    Proc* p = myproc();
    if (p == nullptr || p->tg == nullptr || p->pagetable != pt) return false;
    vm::Verdict why;
    const vm::Access a = write ? vm::Access::Write : vm::Access::Read;
    // A fault that sleeps (reading a file page or a swapped one, paging
    // out to make room) takes the address space's lock and the file's: a
    // copy made under those, a file-system operation or a spinlock leaves
    // it for later (docs/memory.md "Lock order").
    const bool may_sleep = intr_get() && p->fault_locks == 0;
    if (swap_on() && may_sleep) swap_balance(p->tg);
    // A page read from the file or swap comes back with its region's
    // access, except a private file page, which comes copy-on-write: for a
    // write the next pass copies it (a user access would fault again).
    for (int pass = 0; pass < 4; pass++) {
        Outcome o = resolve(p->tg, va, a, &why, p->trapframe->x(TrapFrame::sp));
        if (o == Outcome::Mapped || o == Outcome::Present) return true;
        if (o != Outcome::NeedFile && o != Outcome::NeedSwap) return false;
        if (!may_sleep) {
            p->fault_later = page_round_down(va) | kLater | (write ? kLaterWrite : 0);
            return false;
        }
        o = o == Outcome::NeedFile ? file_fill(p->tg, va, a, &why) : swap_fill(p->tg, va);
        if (o != Outcome::Mapped && o != Outcome::Present) return false;
    }
    return false;
}

bool vm_fault_later() {
    Proc* p = myproc();
    const u64 later = p->fault_later;
    p->fault_later = 0;
    if (!(later & kLater) || p->fault_locks != 0 || !intr_get() || killed(p)) return false;
    return vm_fault_in(p->pagetable, page_round_down(later), (later & kLaterWrite) != 0);
}

bool vm_fault_later(LockGuard& held) {
    held.unlock();
    const bool again = vm_fault_later();
    held.lock();
    return again;
}

namespace {
// vm_pin's work, out of line: a copy in a single-threaded process (nearly
// every copy) only pays vm_pin's test.
[[gnu::noinline]] void pin_frame(ThreadGroup* tg, PageTable pt, u64 va, u64 need, u64* pa) {
    LockGuard g(tg->pt_lock);
    const Pte* pte = walk(pt, va, false);
    *pa = pte && (*pte & need) == need ? pte_to_pa(*pte) : 0;
    if (*pa) page_pin(reinterpret_cast<void*>(*pa));
}
}  // namespace

bool vm_pin(PageTable pt, u64 va, u64 need, u64* pa) {
    if (__atomic_load_n(&g_threaded_groups, __ATOMIC_RELAXED) == 0) return false;  // no process has threads
    Proc* p = myproc();
    if (p == nullptr || p->tg == nullptr || p->pagetable != pt || !p->tg->shared()) [[likely]]
        return false;
    pin_frame(p->tg, pt, va, need, pa);
    return true;
}

void vm_unpin(u64 pa) { page_unpin(reinterpret_cast<void*>(pa)); }

namespace {

Status unshare_range(ThreadGroup* tg, u64 start, u64 end) {
    for (u64 a = start; a < end; a += kPageSize) {
        Pte* pte = walk(tg->pagetable, a, false);
        if (!pte || (*pte & (kPteV | kPteCow)) != (kPteV | kPteCow)) continue;
        if (break_cow(tg, pte, a) != Outcome::Mapped) return Error::NoMemory;
    }
    return {};
}

}  // namespace

Status vm_unshare(ThreadGroup* tg) {
    LockGuard g(tg->pt_lock);
    TRY(unshare_range(tg, 0, tg->sz));
    for (int i = 0; i < tg->map.size(); i++) {  // private mappings' copy-on-write pages too
        const vm::Region& r = tg->map.at(i);
        if (r.kind == vm::Kind::Mmap) TRY(unshare_range(tg, r.start, r.end));
    }
    return {};
}

Status vm_fill_range(ThreadGroup* tg, u64 start, u64 end) {
    LockGuard g(tg->pt_lock);
    for (u64 a = start; a < end; a += kPageSize) {
        Pte* pte = walk(tg->pagetable, a, false);
        if (pte && (*pte & kPteV)) continue;
        const vm::Region* r = tg->map.find(a);
        if (r == nullptr || zero_fill(tg, a, *r) != Outcome::Mapped) return Error::NoMemory;
    }
    return {};
}

void vm_unreserve_all(ThreadGroup* tg) {
    LockGuard g(tg->pt_lock);
    kalloc_unreserve(tg->reserved + tg->table_reserved);
    tg->reserved = tg->table_reserved = 0;
}

}  // namespace q
