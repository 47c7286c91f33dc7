// kernel/mm/vm.cc - page-table construction and user address spaces.
//
// Sv39: three levels of 512 entries; a leaf has any of R/W/X set. Interior
// pages are allocated on demand by walk(alloc=true) and freed by
// free_table() once every leaf is gone, which reads only the entries below
// the end of the range the tables were made for (kept in the root:
// kTableEnd). The kernel page table maps devices and RAM at their physical
// addresses, kernel text read+execute, everything else read+write, and the
// trampoline at the top.
#include "kernel/mm/vm.h"

#include "kernel/arch/riscv/fw_cfg.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/swap.h"
#include "kernel/mm/uaccess.h"

extern "C" char etext[];
extern "C" char trampoline[];

namespace q {

using namespace riscv;

constinit PageTable g_kernel_pagetable = nullptr;

namespace {

void kmap(u64 va, u64 pa, u64 size, u64 perm) {
    if (!map_pages(g_kernel_pagetable, va, size, pa, perm).ok()) panic("kmap: out of memory");
}

// A user page table is almost all empty (5 tables of 512 entries for a
// small program, a dozen entries used), so the scan skips 8 empty entries
// with one test: ~2.3 instructions an entry instead of 7 (fork + exit + wait
// scanned 2,560 entries, ~18,000 instructions).
bool all_empty(const Pte* e) { return (e[0] | e[1] | e[2] | e[3] | e[4] | e[5] | e[6] | e[7]) == 0; }

// The same test in the page loops of fork and exit: at an 8-aligned page
// with 8 pages left before end, 8 zero entries (pages never touched,
// nothing swapped) are 8 holes at once. A small program's address space is
// mostly such runs: the lazy stack's 31 untouched pages, text never run.
bool empty_run(const Pte* pte, u64 a, u64 end) {
    return (a / kPageSize) % 8 == 0 && end - a >= 8 * kPageSize && all_empty(pte);
}

// Where a root table keeps the end of the user range its lower tables cover
// (below the top GiB, whose tables proc_free_pagetable and uvm_free free
// whole): an entry no address below kMaxVa uses (an Sv39 walk of one reads
// root entries 0-255), page-aligned, so never valid: to the MMU it is
// an empty entry. Every table is made by walk or map_user_page, which
// raise it (note_table); uvm_free reads only the entries below it and sz.
constexpr int kTableEnd = 511;
constexpr u64 kTopGiB = kMaxVa - (1ull << 30);
static_assert(vpn(kMaxVa - 1, 2) < kTableEnd);

// A table was just made to map va in root's tree (a compare-and-swap: the
// threads of a process may fault on different pages at once).
void note_table(PageTable root, u64 va) {
    if (va >= kTopGiB) return;
    const u64 end = page_round_down(va) + kPageSize;
    u64 seen = __atomic_load_n(&root[kTableEnd], __ATOMIC_RELAXED);
    while (seen < end &&
           !__atomic_compare_exchange_n(&root[kTableEnd], &seen, end, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

// Free table pt (at `level`: 2 the root, 0 a leaf table; its first entry
// maps va base) and the tables below it. Every leaf must be gone already;
// an entry left that names nothing (not valid, not 0) keeps the page off
// the zeroed list (kalloc.h: kfree_zeroed). Only the entries mapping
// addresses below end are read, every one above being 0: a small
// program's tables are 3 pages of 512 entries with a few dozen in use, and
// scanning them all cost ~4,900 instructions an address space, twice in
// every fork + exec + wait.
void free_table(PageTable pt, int level, u64 base, u64 end) {
    static_assert(512 % 8 == 0);
    // level >= 0: a level-0 entry is a leaf, never a table to recurse into.
    const u64 span = 1ull << (12 + 9 * level);  // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult)
    const u64 used = end > base ? (end - base + span - 1) / span : 0;
    const int n = used < 512 ? static_cast<int>(used) : 512;
    bool zero = true;
    for (int i = 0; i < n; i++) {
        if (i % 8 == 0 && all_empty(&pt[i])) {
            i += 7;
            continue;
        }
        const Pte pte = pt[i];
        if ((pte & kPteV) && (pte & (kPteR | kPteW | kPteX)) == 0) {
            free_table(reinterpret_cast<PageTable>(pte_to_pa(pte)), level - 1, base + i * span, end);
            pt[i] = 0;
        } else if (pte & kPteV) {
            panic("free_table: leaf still mapped");
        } else if (pte != 0) {
            zero = false;
        }
    }
    if (zero) {
        kfree_zeroed(pt);
    } else {
        kfree(pt);
    }
}

}  // namespace

void kvm_init() {
    g_kernel_pagetable = static_cast<PageTable>(kalloc());
    if (!g_kernel_pagetable) panic("kvm_init: out of memory");
    kmap(layout::kUart0, layout::kUart0, kPageSize, kPteR | kPteW);
    kmap(layout::kVirtio0, layout::kVirtio0, kPageSize, kPteR | kPteW);
    kmap(layout::kVirtio1, layout::kVirtio1, kPageSize, kPteR | kPteW);  // virtio-gpu
    kmap(layout::kVirtio2, layout::kVirtio2, kPageSize, kPteR | kPteW);  // the swap disk
    kmap(layout::kClint, layout::kClint, layout::kClintSize, kPteR | kPteW);
    kmap(layout::kVirtTest, layout::kVirtTest, kPageSize, kPteR | kPteW);
    kmap(fw_cfg::kBase, fw_cfg::kBase, kPageSize, kPteR | kPteW);  // ramfb
    kmap(layout::kPlic, layout::kPlic, layout::kPlicSize, kPteR | kPteW);
    const u64 text_end = reinterpret_cast<u64>(etext);
    kmap(layout::kKernBase, layout::kKernBase, text_end - layout::kKernBase, kPteR | kPteX);
    kmap(text_end, text_end, ram_end() - text_end, kPteR | kPteW);
    kmap(layout::kTrampoline, reinterpret_cast<u64>(trampoline), kPageSize, kPteR | kPteX);
}

void kvm_init_hart() {
    sfence_vma();
    w_satp(make_satp(reinterpret_cast<u64>(g_kernel_pagetable)));
    sfence_vma();
}

namespace {
// walk for an entry whose tables are not all there: makes them (false:
// only find them). Out of line, so walk's path through tables that exist,
// dozens of times a system call, calls nothing and saves no register.
[[gnu::noinline]] Pte* walk_alloc(PageTable root, u64 va, bool alloc) {
    PageTable pt = root;
    for (int level = 2; level > 0; level--) {
        Pte* pte = &pt[vpn(va, level)];
        if (!(*pte & kPteV)) {
            if (!alloc) return nullptr;
            void* table = kalloc();
            if (!table) return nullptr;
            note_table(root, va);
            // The zeroed table before the entry naming it: another thread's
            // hart may walk this (shared) table at any moment.
            __atomic_thread_fence(__ATOMIC_RELEASE);
            *pte = pa_to_pte(reinterpret_cast<u64>(table)) | kPteV;
        }
        pt = reinterpret_cast<PageTable>(pte_to_pa(*pte));
    }
    return &pt[vpn(va, 0)];
}
}  // namespace

Pte* walk(PageTable pt, u64 va, bool alloc) {
    if (va >= kMaxVa) return nullptr;
    const Pte top = pt[vpn(va, 2)];
    if (top & kPteV) {
        const Pte mid = reinterpret_cast<PageTable>(pte_to_pa(top))[vpn(va, 1)];
        if (mid & kPteV) return &reinterpret_cast<PageTable>(pte_to_pa(mid))[vpn(va, 0)];
    }
    return walk_alloc(pt, va, alloc);
}

Status map_pages(PageTable pt, u64 va, u64 size, u64 pa, u64 perm) {
    if (size == 0) panic("map_pages: size 0");
    u64 a = page_round_down(va);
    const u64 last = page_round_down(va + size - 1);
    for (;; a += kPageSize, pa += kPageSize) {
        Pte* pte = walk(pt, a, true);
        if (!pte) return Error::NoMemory;
        if (*pte & kPteV) panic("map_pages: remap of %p", reinterpret_cast<void*>(a));
        __atomic_thread_fence(__ATOMIC_RELEASE);  // the page's contents before its mapping
        *pte = pa_to_pte(pa) | perm | kPteV;
        if (a == last) break;
    }
    return {};
}

Status map_user_page(PageTable pt, u64 va, u64 pa, u64 perm, u64* spare_tables) {
    PageTable const root = pt;  // NOLINT(misc-misplaced-const): the pointer is const, the table is not
    for (int level = 2; level > 0; level--) {
        Pte* pte = &pt[vpn(va, level)];
        if (!(*pte & kPteV)) {
            void* table = *spare_tables > 0 ? kalloc_reserved() : nullptr;
            if (table) (*spare_tables)--;
            if (!table) table = kalloc();
            if (!table) return Error::NoMemory;
            note_table(root, va);
            __atomic_thread_fence(__ATOMIC_RELEASE);  // zeroed before another hart can walk it
            *pte = pa_to_pte(reinterpret_cast<u64>(table)) | kPteV;
        }
        pt = reinterpret_cast<PageTable>(pte_to_pa(*pte));
    }
    Pte* leaf = &pt[vpn(va, 0)];
    if (*leaf & kPteV) panic("map_user_page: remap of %p", reinterpret_cast<void*>(va));
    __atomic_thread_fence(__ATOMIC_RELEASE);
    *leaf = pa_to_pte(pa) | perm | kPteV;
    return {};
}

u64 walk_user(PageTable pt, u64 va) {
    if (va >= kMaxVa) return 0;
    Pte* pte = walk(pt, va, false);
    if (!pte || !(*pte & kPteV) || !(*pte & kPteU)) return 0;
    return pte_to_pa(*pte);
}

PageTable uvm_create() { return static_cast<PageTable>(kalloc()); }

namespace {

// The entries of consecutive pages, descending the tree once per leaf
// table (512 pages) instead of once per page: fork and exit of a 16 MiB
// process visit 4,096 entries.
class LeafCursor {
  public:
    LeafCursor(PageTable pt, bool alloc) : pt_(pt), alloc_(alloc) {}
    // The entry of page va, or null: no leaf table there (and alloc is off,
    // or memory is out).
    Pte* at(u64 va) {
        const u64 base = va & ~(kSpan - 1);
        if (base != base_ || (leaf_ == nullptr && alloc_)) {
            leaf_ = walk(pt_, base, alloc_);
            base_ = base;
        }
        return leaf_ ? leaf_ + vpn(va, 0) : nullptr;
    }

  private:
    static constexpr u64 kSpan = 512 * kPageSize;
    PageTable pt_;
    bool alloc_;
    u64 base_ = ~0ull;
    Pte* leaf_ = nullptr;
};

}  // namespace

namespace {
// A swapped entry where a page is about to be reused or revoked: its slot
// is dropped (with the promise it held, if fork shared the slot) and the
// entry cleared. True if there was one.
bool drop_swapped(Pte* pte) {
    if (pte == nullptr || !pte_swapped(*pte)) return false;
    if (swap_entry_drop(*pte)) kalloc_unreserve(1);
    *pte = 0;
    return true;
}

// A page-cache frame (text an sbrk shrink cut away, kept mapped without
// PTE_U) where the heap grows back: its mapping goes, never its bytes
// (other processes map the frame). The page then counts as a hole.
void drop_file_page(Pte* pte) {
    if (pte == nullptr || !(*pte & kPteV)) return;
    void* page = reinterpret_cast<void*>(pte_to_pa(*pte));
    if (!page_is_file(page)) return;
    if (page_put(page, *pte)) kalloc_unreserve(1);
    *pte = 0;
}

// uvm_unmap's swapped entry (out of line: the loop's registers stay its
// own): 1 if a promise goes with it.
[[gnu::noinline]] u64 drop_entry(Pte* pte, bool free_pages) {
    const bool shared = free_pages && swap_entry_drop(*pte);
    *pte = 0;
    return shared ? 1 : 0;
}
}  // namespace

u64 uvm_unmap(PageTable pt, u64 va, u64 npages, bool free_pages) {
    if (va % kPageSize) panic("uvm_unmap: not aligned");
    u64 holes = 0, promises = 0;
    LeafCursor cur(pt, false);
    for (u64 a = va; a < va + npages * kPageSize; a += kPageSize) {
        Pte* pte = cur.at(a);
        if (!pte || !(*pte & kPteV)) {
            if (pte && empty_run(pte, a, va + npages * kPageSize)) {
                holes += 8;
                a += 7 * kPageSize;
                continue;
            }
            if (pte && pte_swapped(*pte)) {  // in the swap area: its slot goes (or its promise, if shared)
                promises += drop_entry(pte, free_pages);
                continue;
            }
            holes++;  // never touched (a lazy heap page)
            continue;
        }
        if (pte_flags(*pte) == kPteV) panic("uvm_unmap: not a leaf");
        // Freed unless another address space shares it (then its promise goes).
        if (free_pages && page_put(reinterpret_cast<void*>(pte_to_pa(*pte)), *pte)) promises++;
        *pte = 0;
    }
    if (promises) kalloc_unreserve(promises);
    return holes;
}

Result<u64> uvm_alloc(PageTable pt, u64 oldsz, u64 newsz, u64 perm) {
    u64 kept = 0;
    auto r = uvm_grow(pt, oldsz, newsz, &kept, perm);
    if (!r.ok() && kept > oldsz) uvm_dealloc(pt, kept, oldsz);  // nobody else can have seen them
    return r;
}

// Pages in [oldsz, *top) are valid without PTE_U (uvm_revoke kept them):
// they are zeroed and handed back. On failure nothing is freed: what this
// call mapped is kept too (another thread may have touched it already), and
// *top grows to cover it.
Result<u64> uvm_grow(PageTable pt, u64 oldsz, u64 newsz, u64* top, u64 perm) {
    if (newsz < oldsz) return oldsz;
    if (newsz > layout::kUserTop) return Error::NoMemory;
    for (u64 a = page_round_up(oldsz); a < newsz; a += kPageSize) {
        if (a < *top) {
            Pte* pte = walk(pt, a, false);
            drop_swapped(pte);
            drop_file_page(pte);
            if (pte && (*pte & kPteV)) {
                memset(reinterpret_cast<void*>(pte_to_pa(*pte)), 0, kPageSize);
                __atomic_thread_fence(__ATOMIC_RELEASE);
                *pte = (*pte & ~(kPteR | kPteW | kPteX)) | perm | kPteU;
                continue;
            }
        }
        void* mem = kalloc();
        if (!mem || !map_pages(pt, a, kPageSize, reinterpret_cast<u64>(mem), perm | kPteU).ok()) {
            if (mem) kfree(mem);
            uvm_revoke(pt, oldsz, a);
            if (a > *top) *top = a;
            return Error::NoMemory;
        }
    }
    return newsz;
}

u64 uvm_grow_lazy(PageTable pt, u64 oldsz, u64 newsz, u64 top, u64 perm) {
    u64 holes = 0;
    for (u64 a = page_round_up(oldsz); a < newsz; a += kPageSize) {
        Pte* pte = a < top ? walk(pt, a, false) : nullptr;
        drop_swapped(pte);
        drop_file_page(pte);
        if (pte && (*pte & kPteV)) {
            memset(reinterpret_cast<void*>(pte_to_pa(*pte)), 0, kPageSize);
            __atomic_thread_fence(__ATOMIC_RELEASE);
            *pte = (*pte & ~(kPteR | kPteW | kPteX)) | perm | kPteU;
        } else {
            holes++;
        }
    }
    return holes;
}

u64 uvm_revoke(PageTable pt, u64 newsz, u64 oldsz) {
    u64 holes = 0;
    for (u64 a = page_round_up(newsz); a < page_round_up(oldsz); a += kPageSize) {
        Pte* pte = walk(pt, a, false);
        if (pte && pte_swapped(*pte)) continue;  // kept as a mapped page is (not a hole: not promised)
        if (pte && (*pte & kPteV)) {
            *pte &= ~kPteU;
        } else {
            holes++;
        }
    }
    return holes;
}

u64 uvm_dealloc(PageTable pt, u64 oldsz, u64 newsz, u64* holes) {
    if (newsz >= oldsz) return oldsz;
    const u64 from = page_round_up(newsz);
    const u64 to = page_round_up(oldsz);
    const u64 missing = from < to ? uvm_unmap(pt, from, (to - from) / kPageSize, true) : 0;
    if (holes) *holes = missing;
    return newsz;
}

void uvm_free(PageTable pt, u64 sz, u64 tables_end) {
    if (sz > 0) uvm_unmap(pt, 0, page_round_up(sz) / kPageSize, true);
    Pte* top = &pt[vpn(kTopGiB, 2)];  // trampoline, trapframes, perhaps a MAP_FIXED mapping: every entry read
    if (*top & kPteV) {
        free_table(reinterpret_cast<PageTable>(pte_to_pa(*top)), 1, kTopGiB, kMaxVa);
        *top = 0;
    }
    u64 end = pt[kTableEnd];
    pt[kTableEnd] = 0;
    if (end < page_round_up(sz)) end = page_round_up(sz);
    if (end < tables_end) end = tables_end;
    free_table(pt, 2, 0, end < kTopGiB ? end : kTopGiB);
}

Status uvm_copy(PageTable from, PageTable to, u64 sz, u64* holes) { return uvm_copy_range(from, to, 0, sz, holes); }

Status uvm_copy_range(PageTable from, PageTable to, u64 start, u64 end, u64* holes) {
    *holes = 0;
    // Undo [start, a) in `to`, promises and all.
    auto undo = [&](u64 a) {
        uvm_unshare(to, start, a);
        return Error::NoMemory;
    };
    for (u64 a = start; a < end; a += kPageSize) {
        Pte* pte = walk(from, a, false);
        if (pte && !(*pte & kPteV) && pte_swapped(*pte)) {  // the child names the slot too, with a promise (swap.h)
            Pte* copy = walk(to, a, true);
            if (!copy || !swap_entry_dup(*pte)) return undo(a);
            *copy = *pte;
            kalloc_reserve(1);
            continue;
        }
        if (!pte || !(*pte & kPteV)) {  // a heap page never touched: the child's is promised too
            (*holes)++;
            continue;
        }
        if (page_is_file(reinterpret_cast<void*>(pte_to_pa(*pte)))) {  // the page cache's: shared, not copied
            Pte* copy = walk(to, a, true);
            if (!copy) return undo(a);
            *copy = *pte;
            page_dup(reinterpret_cast<void*>(pte_to_pa(*pte)));
            kalloc_reserve(1);  // as uvm_share_range promises (its callers give a shared mapping's back)
            continue;
        }
        void* mem = kalloc_unzeroed();  // every byte is copied over just below
        if (!mem) return undo(a);
        memmove(mem, reinterpret_cast<void*>(pte_to_pa(*pte)), kPageSize);
        u64 flags = pte_flags(*pte) & ~kPteV;
        if (flags & kPteCow) flags = (flags & ~kPteCow) | kPteW;  // the copy is the child's own
        if (!map_pages(to, a, kPageSize, reinterpret_cast<u64>(mem), flags).ok()) {
            kfree(mem);
            return undo(a);
        }
    }
    return {};
}

namespace {

// The entry of user page `base` if it has every bit of need, faulting the
// page in first (kernel/mm/fault.h) if the running process's map promises
// it; null otherwise.
Pte* user_pte(PageTable pt, u64 base, u64 need) {
    if (base >= kMaxVa) return nullptr;
    Pte* pte = walk(pt, base, false);
    if (pte && (*pte & need) == need) return pte;
    if (!vm_fault_in(pt, base, (need & kPteW) != 0)) return nullptr;
    pte = walk(pt, base, false);
    return pte && (*pte & need) == need ? pte : nullptr;
}

}  // namespace

Status uvm_share(PageTable from, PageTable to, u64 sz, u64* holes) {
    return uvm_share_range(from, to, 0, sz, holes, true);
}

namespace {
// fork's copy of a swapped entry (out of line: the share loop's registers
// stay its own): the child's entry names the same slot. False if there is
// no entry to write or the slot is named by too many.
[[gnu::noinline]] bool share_swapped(const Pte* pte, Pte* copy) {
    if (copy == nullptr || !swap_entry_dup(*pte)) return false;
    *copy = *pte;
    return true;
}

// The loop, compiled once per kind: fork of a 16 MiB heap runs it 4,096
// times, and a run-time `cow` (spilled to the stack with every callee-saved
// register taken) cost a load and a branch a page. holes counts in a
// register and is stored once.
template <bool kCow>
Status share_range(PageTable from, PageTable to, u64 start, u64 end, u64* holes_out) {
    u64 holes = 0, shared = 0;
    LeafCursor src(from, false), dst(to, true);
    for (u64 a = start; a < end; a += kPageSize) {
        Pte* pte = src.at(a);
        Pte* copy = nullptr;
        if (!pte || !(*pte & kPteV)) {
            if (pte && empty_run(pte, a, end)) {
                holes += 8;
                a += 7 * kPageSize;
                continue;
            }
            if (!pte || !pte_swapped(*pte)) {
                holes++;
                continue;
            }
            if (!share_swapped(pte, dst.at(a))) goto fail;
            shared++;  // its slot is shared as a frame is, with a promise
            continue;
        }
        if (kCow && (*pte & kPteW)) *pte = (*pte & ~kPteW) | kPteCow;
        copy = dst.at(a);
        if (!copy) goto fail;
        *copy = *pte;
        page_dup(reinterpret_cast<void*>(pte_to_pa(*pte)));
        shared++;  // (a page-cache frame's shared mapping needs none: uvm_file_shared's caller gives it back)
        continue;
    fail:
        *holes_out = holes;
        kalloc_reserve(shared - uvm_file_shared(to, start, a, true));  // what uvm_unmap gives back
        uvm_unmap(to, start, (a - start) / kPageSize, true);           // puts what was shared so far
        return Error::NoMemory;
    }
    *holes_out = holes;
    kalloc_reserve(shared);  // each extra mapping's promise: the copy it may need
    return {};
}

}  // namespace

u64 uvm_file_shared(PageTable pt, u64 start, u64 end, bool ask) {
    u64 n = 0;
    LeafCursor cur(pt, false);
    for (u64 a = start; a < end; a += kPageSize) {
        const Pte* pte = cur.at(a);
        if (pte && (*pte & (kPteV | kPteShared)) == (kPteV | kPteShared) &&
            (!ask || page_is_file(reinterpret_cast<void*>(pte_to_pa(*pte)))))
            n++;
    }
    return n;
}

void uvm_unshare(PageTable pt, u64 start, u64 end) {
    kalloc_unreserve(uvm_file_shared(pt, start, end, true));
    uvm_unmap(pt, start, (end - start) / kPageSize, true);
}

Status uvm_share_range(PageTable from, PageTable to, u64 start, u64 end, u64* holes, bool cow) {
    return cow ? share_range<true>(from, to, start, end, holes) : share_range<false>(from, to, start, end, holes);
}

u32* user_word(PageTable pt, u64 va) {
    if (va % sizeof(u32) != 0 || va >= kMaxVa) return nullptr;
    Pte* pte = user_pte(pt, page_round_down(va), kPteV | kPteU | kPteR | kPteW);
    if (!pte) return nullptr;
    return reinterpret_cast<u32*>(pte_to_pa(*pte) + va % kPageSize);
}

// ---- checked user copies (uaccess.h) ----

namespace {

// The frame of user page `base` with access bits need, faulted in if the
// map promises it and pinned for the copy (fault.h: vm_pin; *pinned then
// says to vm_unpin it); 0 if the page cannot be had. Only while some
// process has threads (vm_pin_needed): otherwise the copies look the entry
// up as they always did.
[[gnu::noinline]] u64 pinned_frame(PageTable pt, u64 base, u64 need, bool* pinned) {
    for (int tries = 0; tries < 4; tries++) {
        const Pte* pte = user_pte(pt, base, need);
        if (!pte) return 0;
        u64 pa = pte_to_pa(*pte);
        *pinned = vm_pin(pt, base, need, &pa);
        if (pa != 0) return pa;  // (a sibling unmapped it after the look-up: look again)
    }
    return 0;
}

inline u64 user_frame(PageTable pt, u64 base, u64 need, bool* pinned) {
    if (vm_pin_needed()) [[unlikely]]
        return pinned_frame(pt, base, need, pinned);
    const Pte* pte = user_pte(pt, base, need);
    return pte ? pte_to_pa(*pte) : 0;
}

// Visit [va, va+len) one page piece at a time: fn(kernel pointer, length).
// Every page must be mapped valid and user-accessible, and writable too when
// `write`; otherwise nothing more is visited and the result is BadAddress.
// Each page is pinned while it is visited if other threads of the process
// run (user_frame).
template <typename Fn>
Status for_each_user_piece(PageTable pt, u64 va, u64 len, bool write, Fn fn) {
    const u64 need = kPteV | kPteU | (write ? kPteW : 0);
    while (len > 0) {
        const u64 base = page_round_down(va);
        bool pinned = false;
        const u64 pa = user_frame(pt, base, need, &pinned);
        if (pa == 0) return Error::BadAddress;
        const u64 off = va - base;
        const u64 n = kPageSize - off < len ? kPageSize - off : len;
        fn(reinterpret_cast<u8*>(pa + off), n);
        if (pinned) vm_unpin(pa);
        len -= n;
        va = base + kPageSize;
    }
    return {};
}

}  // namespace

Status copy_out(PageTable pt, UserAddr dst, const void* src, u64 len) {
    const auto* s = static_cast<const u8*>(src);
    return for_each_user_piece(pt, dst.raw(), len, true, [&](u8* user, u64 n) {
        memmove(user, s, n);
        s += n;
    });
}

Status copy_in(PageTable pt, void* dst, UserAddr src, u64 len) {
    auto* d = static_cast<u8*>(dst);
    return for_each_user_piece(pt, src.raw(), len, false, [&](u8* user, u64 n) {
        memmove(d, user, n);
        d += n;
    });
}

Status copy_in_str(PageTable pt, char* dst, UserAddr src, u64 max) {
    u64 va = src.raw();
    while (max > 0) {
        const u64 base = page_round_down(va);
        bool pinned = false;
        const u64 pa = user_frame(pt, base, kPteV | kPteU, &pinned);
        if (pa == 0) return Error::BadAddress;
        const char* p = reinterpret_cast<const char*>(pa + (va - base));
        bool ended = false;
        for (u64 n = kPageSize - (va - base); n > 0 && max > 0 && !ended; n--, max--) {
            *dst = *p++;
            ended = *dst++ == 0;
        }
        if (pinned) vm_unpin(pa);
        if (ended) return {};
        va = base + kPageSize;
    }
    return Error::TooBig;
}

}  // namespace q
