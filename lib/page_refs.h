// lib/page_refs.h - how many address spaces share each physical page
// (copy-on-write fork, docs/memory.md).
//
// Pure, freestanding and allocation-free (the caller supplies the count
// array): the kernel's page allocator (kernel/mm/kalloc.cc) and host tests
// (tests/host/page_refs_test.cc) run the same code. A page's count is the
// number of mappings it has besides the first, so a page nobody shares
// reads 0 and a freshly allocated page needs no initialisation. dup() adds
// a mapping; put() removes one and says whether it was the last (the page
// is then the caller's to free). Both are single atomic operations, so two
// processes dropping their mappings of one page at once, on two harts,
// free it exactly once; shared() is stable only while the caller holds the
// page's only mapping or stops others from adding one (the kernel: the
// process's page-table lock, which fork takes).
// A page-cache frame (kernel/mm/pcache.cc) is counted differently: kFile
// set, and the low bits its exact number of users (mappings and pins, 0
// when only the cache holds it), so shared() is always true for it (no
// mapping may ever write it privately) and fork's dup() needs no test.
// The page cache makes it one (make_file), drops users (file_put) and ends
// it (clear) under its own lock; put() is never called for it.
#pragma once

#include "lib/types.h"

namespace q {

class PageRefs {
  public:
    constexpr PageRefs() = default;

    // Cover [start, end) in pages of page_size (a power of two); counts has
    // one zeroed entry per page.
    void init(u64 start, u64 end, u64 page_size, u32* counts) {
        start_ = start;
        end_ = end;
        shift_ = 0;
        while ((1ull << shift_) < page_size) shift_++;
        counts_ = counts;
    }
    static u64 entries(u64 start, u64 end, u64 page_size) { return (end - start) / page_size; }

    bool covers(u64 pa) const { return counts_ != nullptr && pa >= start_ && pa < end_; }

    static constexpr u32 kFile = 1u << 31;

    void dup(u64 pa) { __atomic_fetch_add(slot(pa), 1, __ATOMIC_ACQ_REL); }
    // dup(), returning the count before it (kFile set: a page-cache frame).
    u32 dup_old(u64 pa) { return __atomic_fetch_add(slot(pa), 1, __ATOMIC_ACQ_REL); }

    bool file(u64 pa) const { return (__atomic_load_n(slot(pa), __ATOMIC_ACQUIRE) & kFile) != 0; }
    void make_file(u64 pa, u32 users) { __atomic_store_n(slot(pa), kFile | users, __ATOMIC_RELEASE); }
    // A page-cache frame loses a user: how many are left.
    u32 file_put(u64 pa) { return (__atomic_sub_fetch(slot(pa), 1, __ATOMIC_ACQ_REL)) & ~kFile; }
    u32 file_users(u64 pa) const { return __atomic_load_n(slot(pa), __ATOMIC_ACQUIRE) & ~kFile; }
    void clear(u64 pa) { __atomic_store_n(slot(pa), 0, __ATOMIC_RELEASE); }

    // Drop one mapping: true if it was the last one.
    bool put(u64 pa) { return put_any(pa) == Put::Last; }

    // put() for a page that may be a page-cache frame: File (nothing
    // done: the cache's file_put is the caller's) or what put() did, with
    // the one load put() needs.
    enum class Put : u8 { Last, Others, File };
    Put put_any(u64 pa) {
        u32* c = slot(pa);
        u32 old = __atomic_load_n(c, __ATOMIC_ACQUIRE);
        for (;;) {
            if (old & kFile) return Put::File;
            if (old == 0) return Put::Last;
            if (__atomic_compare_exchange_n(c, &old, old - 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                return Put::Others;
        }
    }

    bool shared(u64 pa) const { return __atomic_load_n(slot(pa), __ATOMIC_ACQUIRE) != 0; }
    u32 others(u64 pa) const { return __atomic_load_n(slot(pa), __ATOMIC_ACQUIRE); }

  private:
    u32* slot(u64 pa) const { return &counts_[(pa - start_) >> shift_]; }

    u64 start_ = 0;
    u64 end_ = 0;
    u32 shift_ = 12;  // log2 of the page size (a power of two)
    u32* counts_ = nullptr;
};

}  // namespace q
