// kernel/mm/kalloc.cc - physical page allocator over lib/page_pool.h.
//
// The pool covers [page_round_up(end), ram_end). A bad free (unaligned, in
// the kernel image, past RAM) is a kernel bug and panics with its address.
// The lock covers only the list operation: kfree junk-fills and kalloc
// zeroes the page outside it, once each (kalloc_unzeroed skips the zeroing
// for a caller that overwrites the whole page). When the list is empty,
// both ask the registered Lender (the buffer cache) for pages back, outside
// the lock (the lender takes its own lock, then kfree), and try again.
#include "kernel/mm/kalloc.h"

#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/sync/spinlock.h"
#include "lib/page_pool.h"

extern "C" char end[];  // first address after the kernel image (kernel.ld)

namespace q {

namespace {
constinit SpinLock g_lock("kalloc");
constinit PagePool g_pool;
constinit u64 g_ram_end = 0;
constinit u64 g_total = 0;
constinit const Lender* g_lender = nullptr;

// The free list is empty: ask the lender for pages, as long as it has any.
// Out of line, so kalloc's common path saves no more registers than before.
[[gnu::noinline]] void* pop_after_give_back() {
    void* p = nullptr;
    while (p == nullptr && g_lender != nullptr && g_lender->give_back(1) > 0) {
        LockGuard g(g_lock);
        p = g_pool.pop();
    }
    return p;
}
}  // namespace

void kalloc_init(u64 ram_end_addr) {
    g_ram_end = ram_end_addr;
    const u64 start = page_round_up(reinterpret_cast<u64>(end));
    g_pool.init(start, ram_end_addr, kPageSize);
    for (u64 p = start; p + kPageSize <= ram_end_addr; p += kPageSize) kfree(reinterpret_cast<void*>(p));
    g_total = g_pool.count();
}

void kfree(void* page) {
    const u64 pa = reinterpret_cast<u64>(page);
    if (const char* why = g_pool.validate(pa)) panic("kfree %p: %s", page, why);
    g_pool.junk(page);  // outside the lock: 4 KiB of stores
    LockGuard g(g_lock);
    g_pool.push(page);
}

void* kalloc_unzeroed() {
    void* p;
    {
        LockGuard g(g_lock);
        p = g_pool.pop();
    }
    if (p == nullptr) [[unlikely]]
        p = pop_after_give_back();
    return p;
}

void* kalloc() {
    void* p = kalloc_unzeroed();
    if (p) memset(p, 0, kPageSize);
    return p;
}

u64 kalloc_pool_pages() {
    LockGuard g(g_lock);
    return g_pool.count();
}

u64 kalloc_free_pages() { return kalloc_pool_pages() + (g_lender ? g_lender->borrowed() : 0); }
u64 kalloc_total_pages() { return g_total; }
void kalloc_set_lender(const Lender* lender) { g_lender = lender; }

u64 ram_end() { return g_ram_end; }

}  // namespace q
