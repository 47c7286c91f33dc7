// kernel/mm/vm.cc - page-table construction and user address spaces.
//
// Sv39: three levels of 512 entries; a leaf has any of R/W/X set. Interior
// pages are allocated on demand by walk(alloc=true) and freed by
// free_table() once every leaf is gone. The kernel page table maps devices
// and RAM at their physical addresses, kernel text read+execute, everything
// else read+write, and the trampoline at the top.
#include "kernel/mm/vm.h"

#include "kernel/arch/riscv/fw_cfg.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
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

void free_table(PageTable pt) {
    static_assert(512 % 8 == 0);
    for (int i = 0; i < 512; i++) {
        if (i % 8 == 0 && all_empty(&pt[i])) {
            i += 7;
            continue;
        }
        const Pte pte = pt[i];
        if ((pte & kPteV) && (pte & (kPteR | kPteW | kPteX)) == 0) {
            free_table(reinterpret_cast<PageTable>(pte_to_pa(pte)));
            pt[i] = 0;
        } else if (pte & kPteV) {
            panic("free_table: leaf still mapped");
        }
    }
    kfree(pt);
}

}  // namespace

void kvm_init() {
    g_kernel_pagetable = static_cast<PageTable>(kalloc());
    if (!g_kernel_pagetable) panic("kvm_init: out of memory");
    kmap(layout::kUart0, layout::kUart0, kPageSize, kPteR | kPteW);
    kmap(layout::kVirtio0, layout::kVirtio0, kPageSize, kPteR | kPteW);
    kmap(layout::kVirtio1, layout::kVirtio1, kPageSize, kPteR | kPteW);  // virtio-gpu
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

Pte* walk(PageTable pt, u64 va, bool alloc) {
    if (va >= kMaxVa) return nullptr;
    for (int level = 2; level > 0; level--) {
        Pte* pte = &pt[vpn(va, level)];
        if (*pte & kPteV) {
            pt = reinterpret_cast<PageTable>(pte_to_pa(*pte));
        } else {
            if (!alloc) return nullptr;
            pt = static_cast<PageTable>(kalloc());
            if (!pt) return nullptr;
            // The zeroed table before the entry naming it: another thread's
            // hart may walk this (shared) table at any moment.
            __atomic_thread_fence(__ATOMIC_RELEASE);
            *pte = pa_to_pte(reinterpret_cast<u64>(pt)) | kPteV;
        }
    }
    return &pt[vpn(va, 0)];
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

u64 walk_user(PageTable pt, u64 va) {
    if (va >= kMaxVa) return 0;
    Pte* pte = walk(pt, va, false);
    if (!pte || !(*pte & kPteV) || !(*pte & kPteU)) return 0;
    return pte_to_pa(*pte);
}

PageTable uvm_create() { return static_cast<PageTable>(kalloc()); }

void uvm_unmap(PageTable pt, u64 va, u64 npages, bool free_pages) {
    if (va % kPageSize) panic("uvm_unmap: not aligned");
    for (u64 a = va; a < va + npages * kPageSize; a += kPageSize) {
        Pte* pte = walk(pt, a, false);
        if (!pte || !(*pte & kPteV)) continue;  // never allocated (failed grow)
        if (pte_flags(*pte) == kPteV) panic("uvm_unmap: not a leaf");
        if (free_pages) kfree(reinterpret_cast<void*>(pte_to_pa(*pte)));
        *pte = 0;
    }
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

void uvm_revoke(PageTable pt, u64 newsz, u64 oldsz) {
    for (u64 a = page_round_up(newsz); a < page_round_up(oldsz); a += kPageSize) {
        Pte* pte = walk(pt, a, false);
        if (pte && (*pte & kPteV)) *pte &= ~kPteU;
    }
}

u64 uvm_dealloc(PageTable pt, u64 oldsz, u64 newsz) {
    if (newsz >= oldsz) return oldsz;
    const u64 from = page_round_up(newsz);
    const u64 to = page_round_up(oldsz);
    if (from < to) uvm_unmap(pt, from, (to - from) / kPageSize, true);
    return newsz;
}

void uvm_free(PageTable pt, u64 sz) {
    if (sz > 0) uvm_unmap(pt, 0, page_round_up(sz) / kPageSize, true);
    free_table(pt);
}

Status uvm_copy(PageTable from, PageTable to, u64 sz) {
    for (u64 a = 0; a < sz; a += kPageSize) {
        Pte* pte = walk(from, a, false);
        if (!pte || !(*pte & kPteV)) continue;
        void* mem = kalloc_unzeroed();  // every byte is copied over just below
        if (!mem) {
            uvm_unmap(to, 0, a / kPageSize, true);
            return Error::NoMemory;
        }
        memmove(mem, reinterpret_cast<void*>(pte_to_pa(*pte)), kPageSize);
        if (!map_pages(to, a, kPageSize, reinterpret_cast<u64>(mem), pte_flags(*pte) & ~kPteV).ok()) {
            kfree(mem);
            uvm_unmap(to, 0, a / kPageSize, true);
            return Error::NoMemory;
        }
    }
    return {};
}

u32* user_word(PageTable pt, u64 va) {
    if (va % sizeof(u32) != 0 || va >= kMaxVa) return nullptr;
    Pte* pte = walk(pt, page_round_down(va), false);
    constexpr u64 kNeed = kPteV | kPteU | kPteR | kPteW;
    if (!pte || (*pte & kNeed) != kNeed) return nullptr;
    return reinterpret_cast<u32*>(pte_to_pa(*pte) + va % kPageSize);
}

void uvm_clear_user(PageTable pt, u64 va) {
    Pte* pte = walk(pt, va, false);
    if (!pte) panic("uvm_clear_user");
    *pte &= ~kPteU;
}

// ---- checked user copies (uaccess.h) ----

namespace {

// Visit [va, va+len) one page piece at a time: fn(kernel pointer, length).
// Every page must be mapped valid and user-accessible, and writable too when
// `write`; otherwise nothing more is visited and the result is BadAddress.
template <typename Fn>
Status for_each_user_piece(PageTable pt, u64 va, u64 len, bool write, Fn fn) {
    const u64 need = kPteV | kPteU | (write ? kPteW : 0);
    while (len > 0) {
        const u64 base = page_round_down(va);
        Pte* pte = base < kMaxVa ? walk(pt, base, false) : nullptr;
        if (!pte || (*pte & need) != need) return Error::BadAddress;
        const u64 off = va - base;
        const u64 n = kPageSize - off < len ? kPageSize - off : len;
        fn(reinterpret_cast<u8*>(pte_to_pa(*pte) + off), n);
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
        const u64 pa = walk_user(pt, base);
        if (pa == 0) return Error::BadAddress;
        const char* p = reinterpret_cast<const char*>(pa + (va - base));
        for (u64 n = kPageSize - (va - base); n > 0 && max > 0; n--, max--) {
            *dst = *p++;
            if (*dst++ == 0) return {};
        }
        va = base + kPageSize;
    }
    return Error::TooBig;
}

}  // namespace q
