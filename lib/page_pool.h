// lib/page_pool.h - bookkeeping for a free list of fixed-size pages.
//
// Pure logic shared by the kernel's physical allocator and host tests: the
// free list threads through the free pages themselves, and every page handed
// to free() is validated against the managed range first. validate() returns
// a message for a bad page (unaligned, below the range, at or past its end)
// or null for a good one; the caller decides how to fail (the kernel panics).
// push() and pop() touch only a page's first word (the link), so they are
// cheap enough to run under the allocator's lock; junk() fills a page that
// is being freed, and the caller does that before taking the lock (the
// kernel zeroes pages it hands out, also outside the lock), so a
// use-after-free reads garbage. A page known to hold only zeros when it is
// freed (a page table whose entries were all cleared) goes on a second
// list instead, not junk-filled, and is handed out first to a caller who
// wants a zeroed page (pop(true, ...)), which then need not zero it: both
// lists are free pages, counted together. A zeroed page's link word is
// cleared when it is popped.
#pragma once

#include "lib/memops.h"
#include "lib/types.h"

namespace q {

class PagePool {
  public:
    static constexpr u8 kJunkFree = 0x01;

    constexpr PagePool() = default;
    void init(u64 start, u64 end, u64 page_size) {
        start_ = start;
        end_ = end;
        page_size_ = page_size;
        free_ = nullptr;
        zeroed_ = nullptr;
        count_ = 0;
        nzeroed_ = 0;
    }
    const char* validate(u64 page) const {
        if (page % page_size_ != 0) return "page not aligned";
        if (page < start_) return "page below the managed range (kernel image?)";
        if (page >= end_) return "page past the end of RAM";
        return nullptr;
    }
    // Fill a page being freed with kJunkFree (before push, outside any lock).
    // Word stores unrolled 4 times (lib/memops.h): ~640 instructions a page.
    void junk(void* page) const { memops::fill(page, kJunkFree, page_size_); }
    // Caller has validated `page`.
    void push(void* page) {
        auto* n = static_cast<Node*>(page);
        n->next = free_;
        free_ = n;
        count_++;
    }
    // Caller has validated `page`, whose every byte is 0.
    void push_zeroed(void* page) {
        auto* n = static_cast<Node*>(page);
        n->next = zeroed_;
        zeroed_ = n;
        count_++;
        nzeroed_++;
    }
    // A free page, from the zeroed list first if `zero` (last otherwise);
    // *zeroed says whether the page is all zeros.
    void* pop(bool zero, bool* zeroed) {
        Node** first = zero ? &zeroed_ : &free_;
        Node** second = zero ? &free_ : &zeroed_;
        Node** from = *first ? first : second;
        Node* n = *from;
        if (!n) return nullptr;
        *from = n->next;
        count_--;
        *zeroed = from == &zeroed_;
        if (*zeroed) {
            nzeroed_--;
            n->next = nullptr;  // the link word: 0 again
        }
        return n;
    }
    void* pop() {
        bool zeroed = false;
        return pop(false, &zeroed);
    }
    u64 count() const { return count_; }
    u64 zeroed_count() const { return nzeroed_; }
    u64 start() const { return start_; }
    u64 end() const { return end_; }

  private:
    struct Node {
        Node* next;
    };
    u64 start_ = 0;
    u64 end_ = 0;
    u64 page_size_ = 4096;
    Node* free_ = nullptr;
    Node* zeroed_ = nullptr;
    u64 count_ = 0;  // both lists
    u64 nzeroed_ = 0;
};

}  // namespace q
