// kernel/mm/kalloc.cc - physical page allocator over lib/page_pool.h.
//
// The pool covers [page_round_up(end), ram_end). A bad free (unaligned, in
// the kernel image, past RAM) is a kernel bug and panics with its address.
// The lock covers only the list operation: kfree junk-fills and kalloc
// zeroes the page outside it, once each (kalloc_unzeroed skips the zeroing
// for a caller that overwrites the whole page).
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
}  // namespace

void kalloc_init(u64 ram_end_addr) {
    g_ram_end = ram_end_addr;
    const u64 start = page_round_up(reinterpret_cast<u64>(end));
    g_pool.init(start, ram_end_addr, kPageSize);
    for (u64 p = start; p + kPageSize <= ram_end_addr; p += kPageSize) kfree(reinterpret_cast<void*>(p));
}

void kfree(void* page) {
    const u64 pa = reinterpret_cast<u64>(page);
    if (const char* why = g_pool.validate(pa)) panic("kfree %p: %s", page, why);
    g_pool.junk(page);  // outside the lock: 4 KiB of stores
    LockGuard g(g_lock);
    g_pool.push(page);
}

void* kalloc_unzeroed() {
    LockGuard g(g_lock);
    return g_pool.pop();
}

void* kalloc() {
    void* p = kalloc_unzeroed();
    if (p) memset(p, 0, kPageSize);
    return p;
}

u64 kalloc_free_pages() {
    LockGuard g(g_lock);
    return g_pool.count();
}

u64 ram_end() { return g_ram_end; }

}  // namespace q
