// kernel/mm/kalloc.cc - physical page allocator over lib/page_pool.h.
//
// The pool covers [page_round_up(end), ram_end). A bad free (unaligned, in
// the kernel image, past RAM) is a kernel bug and panics with its address.
// The lock covers only the list operation: kfree junk-fills and kalloc
// zeroes the page outside it, once each (kalloc_unzeroed skips the zeroing
// for a caller that overwrites the whole page). A page-table page is freed
// zeroed (kfree_zeroed: its entries were all cleared), so it is neither
// junk-filled nor zeroed again: kalloc and kalloc_reserved take such pages
// first (lib/page_pool.h; fork + exec + exit frees and allocates about ten
// tables, each ~1,300 instructions of stores saved). When the list is empty,
// both ask the registered Lenders (the page cache, then the buffer cache)
// for pages back, outside the lock (a lender takes its own lock, then
// kfree), and try again.
// Reserved pages (kalloc.h) stay on the list: plain kalloc pops only while
// more pages are free than are promised; kalloc_reserved pops one of them.
// The free count is the list, plus the promises kernel copies' pins hold
// (g_pinned: a pin moves no memory), plus the frames of copies not yet settled
// (g_copying: each is paid for by a promise or by the page it replaces, or
// is a lender's frame in flight: a page-cache frame a fault holds before
// it maps it, a buffer-cache slab's page while the slab grows or goes
// back), plus what the lenders hold, less what is promised; each step that
// moves it is one hold of the lock.
// A promise a process asks for (sbrk, mmap, exec's lazy pages, fork's
// child) is admitted and made in one hold of the lock
// (kalloc_admit_reserve), so no two are admitted against the same pages.
// The reference counts of copy-on-write sharing (lib/page_refs.h) live in
// the first pages of RAM after the kernel, taken before the pool is built.
// Each extra mapping of a page holds one promise, so a copy-on-write fork
// counts against free memory exactly as the copy it replaces did.
// With a swap area (kernel/mm/swap.h) promises may exceed the free list by
// up to the free swap slots: a promised page is then found by paging
// another out. So a plain kalloc fails only when the list is empty or the
// list and the free slots together do not exceed the promises. The swap
// core map (one entry per frame) is carved after the reference counts,
// and the page cache's index (kernel/mm/pcache.h) after that. Lenders are
// asked in the order they registered: the page cache's idle frames go
// before the buffer cache's blocks.
#include "kernel/mm/kalloc.h"

#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pcache.h"
#include "kernel/mm/swap.h"
#include "kernel/mm/vm.h"
#include "kernel/sync/spinlock.h"
#include "lib/page_pool.h"
#include "lib/page_refs.h"

extern "C" char end[];  // first address after the kernel image (kernel.ld)

namespace q {

namespace {
constinit SpinLock g_lock("kalloc");
constinit PagePool g_pool;
constinit u64 g_ram_end = 0;
constinit u64 g_total = 0;
constexpr int kMaxLenders = 2;
constinit const Lender* g_lenders[kMaxLenders] = {};
constinit int g_nlenders = 0;

// Ask the lenders, in order, for up to n pages; returns how many came back.
u64 ask_lenders(u64 n) {
    u64 got = 0;
    for (int i = 0; i < g_nlenders && got < n; i++) got += g_lenders[i]->give_back(n - got);
    return got;
}
constinit u64 g_reserved = 0;  // pages promised (g_lock)
constinit u64 g_copying = 0;   // frames of copies not yet settled, counted free (g_lock; kalloc.h)
constinit u64 g_pinned = 0;    // promises kernel copies' pins hold, counted free (g_lock; page_pin)
constinit PageRefs g_refs;

// Whose page a pop may be: Free (only one nobody was promised), Promised
// (one a promise covers, which it uses up), Copy (a copy already paid for,
// counted free until it is settled: kalloc_for_copy), Lend (as Free, and
// counted free until its lender counts it: kalloc_for_lender).
enum class From : u8 { Free, Promised, Copy, Lend };

// Pop a page (g_lock held): a zeroed one first if `zero` (*zeroed says).
void* pop_locked(From from, bool zero, bool* zeroed) {
    const bool unpromised_only = from == From::Free || from == From::Lend;
    if (unpromised_only && g_pool.count() + (swap_on() ? swap_free_slots() : 0) <= g_reserved) return nullptr;
    void* p = g_pool.pop(zero, zeroed);
    if (p && from == From::Promised && g_reserved > 0) g_reserved--;
    if (p && (from == From::Copy || from == From::Lend)) g_copying++;
    return p;
}

// The free list is empty: ask the lender for pages, as long as it has any.
// Out of line, so kalloc's common path saves no more registers than before.
[[gnu::noinline]] void* pop_after_give_back(From from, bool zero, bool* zeroed) {
    void* p = nullptr;
    while (p == nullptr && ask_lenders(1) > 0) {
        LockGuard g(g_lock);
        p = pop_locked(from, zero, zeroed);
    }
    return p;
}
}  // namespace

void kalloc_init(u64 ram_end_addr) {
    g_ram_end = ram_end_addr;
    const u64 first = page_round_up(reinterpret_cast<u64>(end));
    const u64 frames = PageRefs::entries(first, ram_end_addr, kPageSize);
    const u64 count_bytes = frames * sizeof(u32);
    const u64 map_at = first + page_round_up(count_bytes);
    const u64 index_at = map_at + page_round_up(swap_coremap_bytes(frames));
    const u64 start = index_at + pcache_bytes(frames);
    memset(reinterpret_cast<void*>(first), 0, count_bytes);
    g_refs.init(first, ram_end_addr, kPageSize, reinterpret_cast<u32*>(first));
    swap_coremap_init(reinterpret_cast<void*>(map_at), first, frames);
    pcache_init(reinterpret_cast<void*>(index_at), first, frames);
    g_pool.init(start, ram_end_addr, kPageSize);
    for (u64 p = start; p + kPageSize <= ram_end_addr; p += kPageSize) kfree(reinterpret_cast<void*>(p));
    g_total = g_pool.count();
}

namespace {
// kfree's checks and junk-fill, outside the lock.
void unused(void* page, const char* who) {
    const u64 pa = reinterpret_cast<u64>(page);
    if (const char* why = g_pool.validate(pa)) panic("%s %p: %s", who, page, why);
    if (swap_on()) swap_untrack(page);  // no longer anybody's page to swap
    g_pool.junk(page);                  // outside the lock: 4 KiB of stores
}
}  // namespace

void kfree(void* page) {
    unused(page, "kfree");
    LockGuard g(g_lock);
    g_pool.push(page);
}

void kfree_publishing(void* page, void (*publish)()) {
    unused(page, "kfree_publishing");
    LockGuard g(g_lock);
    g_pool.push(page);
    publish();
}

void kfree_zeroed(void* page) {
    const u64 pa = reinterpret_cast<u64>(page);
    if (const char* why = g_pool.validate(pa)) panic("kfree_zeroed %p: %s", page, why);
    LockGuard g(g_lock);
    g_pool.push_zeroed(page);
}

namespace {
// A page; zeroed (from the zeroed list, or here) if `zero`.
void* take(From from, bool zero) {
    void* p;
    bool zeroed = false;
    {
        LockGuard g(g_lock);
        p = pop_locked(from, zero, &zeroed);
    }
    if (p == nullptr) [[unlikely]]
        p = pop_after_give_back(from, zero, &zeroed);
    if (p && zero && !zeroed) memset(p, 0, kPageSize);
    return p;
}
}  // namespace

void* kalloc_unzeroed() { return take(From::Free, false); }

void* kalloc_for_copy() { return take(From::Copy, false); }

void* kalloc_for_lender() { return take(From::Lend, false); }

void page_dup(void* page) { g_refs.dup(reinterpret_cast<u64>(page)); }

namespace {
// page_put of a page-cache frame: out of line, so page_put's common case
// (a private page) needs no stack frame, as before the page cache (exit of
// a 16 MiB process: +11 instructions a page with one).
[[gnu::noinline]] bool put_file(void* page, u64 pte) {
    pcache_put(page);
    return (pte & kPteShared) == 0;
}

// The last reference to a page that `held` counted free (an unsettled
// copy, a pin's promise) went: the page goes onto the list in the same
// hold, so the free count does not move.
void push_counted(void* page, u64& held, const char* who) {
    unused(page, who);
    LockGuard g(g_lock);
    held--;
    g_pool.push(page);
}
}  // namespace

bool page_put(void* page, u64 pte) {
    switch (g_refs.put_any(reinterpret_cast<u64>(page))) {
        case PageRefs::Put::Others:
            return true;
        case PageRefs::Put::Last:
            kfree(page);
            return false;
        case PageRefs::Put::File:
            break;
    }
    return put_file(page, pte);
}

void kalloc_copy_kept(bool promise) {
    LockGuard g(g_lock);
    if (promise && g_reserved == 0) panic("kalloc_copy_kept: no promise");
    g_copying--;
    if (promise) g_reserved--;
}

void kalloc_copy_dropped(void* copy) {
    unused(copy, "kalloc_copy_dropped");
    LockGuard g(g_lock);
    g_copying--;
    g_pool.push(copy);
}

// The page break_cow copied loses this mapping. If another mapping still
// has it, the promise this one held paid for the copy and goes; if the
// others all went meanwhile (each gave a promise back as it went), the old
// page is freed as the copy is settled, in one hold: a reading sees the
// copy's cost once, whichever way it ends.
void page_put_copied(void* old, u64 pte) {
    switch (g_refs.put_any(reinterpret_cast<u64>(old))) {
        case PageRefs::Put::Others:
            kalloc_copy_kept(true);
            return;
        case PageRefs::Put::Last:
            push_counted(old, g_copying, "page_put_copied");
            return;
        case PageRefs::Put::File:
            break;
    }
    kalloc_copy_kept(put_file(old, pte));
}

bool page_shared(void* page) { return g_refs.shared(reinterpret_cast<u64>(page)); }

bool page_is_file(void* page) { return g_refs.file(reinterpret_cast<u64>(page)); }

PageRefs& page_refs() { return g_refs; }

void* kalloc_reserved() { return take(From::Promised, true); }

// The lenders' counts are read under g_lock, with the pool's: a page in
// flight between a lender and the list (a slab going back or growing, a
// page-cache frame a fault took) is counted once, as a copy
// (kalloc_lender_to_copies and back, each in one hold), and never
// twice. Read before the lock, a give_back landing in between
// counted its pages both as borrowed and as pooled: hostile oomrace's
// student was granted 25,902 pages with 21,806 free.
namespace {
u64 lent_locked() {
    u64 n = 0;
    for (int i = 0; i < g_nlenders; i++) n += g_lenders[i]->borrowed();
    return n;
}

// What the free count counts before promises (g_lock held): the list, the
// unsettled copies, the pins' promises and what the lenders hold.
u64 counted_locked() { return g_pool.count() + g_copying + g_pinned + lent_locked(); }

// What of `have` no promise claims (g_lock held).
u64 unpromised_locked(u64 have) { return have > g_reserved ? have - g_reserved : 0; }
}  // namespace

// A promise is a page set aside: if the free list no longer holds every
// promised page, the lenders (the page cache, then the buffer cache) give
// the difference back now, as they would have for the eager allocation the
// promise replaces.
namespace {
// Promise n pages (g_lock held); returns how many the lenders must give
// back.
u64 promise_locked(u64 n) {
    g_reserved += n;
    const u64 backed = g_pool.count() + swap_free_slots();
    return g_reserved > backed ? g_reserved - backed : 0;
}
}  // namespace

// A pin's promise is counted free as long as the pin holds it (g_pinned):
// the pin moves no memory, so neither it nor its end moves the free count;
// only a mapping that goes during the pin does (its put gives back the
// pin's promise, and the unpin then frees the page, counted free already).
void page_pin(void* page) {
    page_dup(page);
    u64 short_by = 0;
    {
        LockGuard g(g_lock);
        g_pinned++;
        short_by = promise_locked(1);
    }
    if (short_by > 0) ask_lenders(short_by);
}

void page_unpin(void* page) {
    switch (g_refs.put_any(reinterpret_cast<u64>(page))) {
        case PageRefs::Put::Others:
            break;
        case PageRefs::Put::Last:
            push_counted(page, g_pinned, "page_unpin");
            return;
        case PageRefs::Put::File:
            pcache_put(page);
            break;
    }
    LockGuard g(g_lock);
    if (g_reserved == 0) panic("page_unpin: no promise");
    g_pinned--;
    g_reserved--;
}

void kalloc_reserve(u64 n) {
    u64 short_by = 0;
    {
        LockGuard g(g_lock);
        short_by = promise_locked(n);
    }
    if (short_by > 0) ask_lenders(short_by);
}

// The figures are kalloc_commit_free's, read in the same lock hold as the
// promise is made: an admission read before another's promise and acted on
// after it let two sbrks of 60% of memory each both through (hostile
// admitrace, 5 runs of 6 at 3 harts: the first's promise came only after
// uvm_grow_lazy had walked its ~19,000 pages).
oom::Verdict kalloc_admit_reserve(u64 n, u64 total_after) {
    const u64 slots = swap_free_slots();
    const u64 ram = g_total + swap_total_slots();
    u64 short_by = 0;
    oom::Verdict v;
    {
        LockGuard g(g_lock);
        const u64 have = counted_locked() + slots;
        v = oom::admit_promise(n, total_after, have, g_reserved, ram);
        if (v == oom::Verdict::Admit) short_by = promise_locked(n);
    }
    if (short_by > 0) ask_lenders(short_by);
    return v;
}

void kfree_keep_promise(void* page) {
    unused(page, "kfree_keep_promise");
    u64 short_by = 0;
    {
        LockGuard g(g_lock);
        g_pool.push(page);
        short_by = promise_locked(1);
    }
    if (short_by > 0) ask_lenders(short_by);
}

void kalloc_unreserve(u64 n) {
    LockGuard g(g_lock);
    if (n > g_reserved) panic("kalloc_unreserve: %lu of %lu promised", n, g_reserved);
    g_reserved -= n;
}

void kalloc_lender_to_copies(u64 n, void (*publish)()) {
    LockGuard g(g_lock);
    g_copying += n;
    publish();
}

void kalloc_copies_to_lender(u64 n, void (*publish)()) {
    LockGuard g(g_lock);
    if (n > g_copying) panic("kalloc_copies_to_lender: %lu of %lu copies", n, g_copying);
    g_copying -= n;
    publish();
}

u64 kalloc_reserved_pages() {
    LockGuard g(g_lock);
    return g_reserved;
}

void* kalloc() { return take(From::Free, true); }

u64 kalloc_pool_pages() {
    LockGuard g(g_lock);
    return g_pool.count() > g_reserved ? g_pool.count() - g_reserved : 0;
}

u64 kalloc_free_pages() {
    LockGuard g(g_lock);
    return unpromised_locked(counted_locked());
}
u64 kalloc_total_pages() { return g_total; }

u64 kalloc_frames_free() {
    LockGuard g(g_lock);
    return g_pool.count() + lent_locked();
}

u64 kalloc_commit_free() {
    const u64 slots = swap_free_slots();
    LockGuard g(g_lock);
    return unpromised_locked(counted_locked() + slots);
}
void kalloc_set_lender(const Lender* lender) {
    if (g_nlenders == kMaxLenders) panic("kalloc_set_lender: more than %d lenders", kMaxLenders);
    g_lenders[g_nlenders++] = lender;
}

u64 ram_end() { return g_ram_end; }

}  // namespace q
