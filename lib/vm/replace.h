// lib/vm/replace.h - page replacement: which resident page goes to swap
// next (docs/memory.md "Swap").
//
// Pure, freestanding and allocation-free (the caller supplies the link
// arrays): the kernel (kernel/mm/swap.cc, under its swap lock) and the host
// tests (tests/host/swap_test.cc) run the same code. The pages of a
// process that may be swapped (a frame index each) sit in its queue in the
// order they became resident: a doubly-linked list through arrays shared
// by every queue (ReplaceLinks: a frame is on one queue at most), so push,
// remove and "is it queued" are O(1) and need no allocation.
//   - FIFO (OSTEP 22.5) evicts the head: the page resident longest.
//   - Clock / second chance (OSTEP 22.8): the head is evicted only if its
//     accessed bit (the PTE's A bit, which the hardware sets) is clear; a
//     set bit is cleared by the test and the page moves to the tail. After
//     one lap every bit is clear, so pick() ends in at most size() + 1 looks.
// pick() names a victim but leaves it queued: the kernel checks it under
// its owner's page-table lock, and removes it (page-out, or a page that can
// no longer be swapped) or rotates it (a page shared right now) itself.
// Invariant: i is queued iff next[i] != kOut; the list from head_ holds
// every index queued on this queue once, and size_ of them.
#pragma once

#include "lib/types.h"

namespace q::vm {

enum class Policy : u8 { Fifo, Clock };

inline const char* policy_name(Policy p) { return p == Policy::Fifo ? "fifo" : "clock"; }

// "fifo" or "clock" (an empty or unknown name: false, *out unchanged).
inline bool parse_policy(const char* s, Policy* out) {
    auto eq = [](const char* a, const char* b) {
        while (*a && *a == *b) a++, b++;
        return *a == *b;
    };
    if (eq(s, "fifo")) *out = Policy::Fifo;
    else if (eq(s, "clock")) *out = Policy::Clock;
    else return false;
    return true;
}

// The links of every queue: one next/prev pair per frame (a frame is on
// at most one queue). kOut: on none.
struct ReplaceLinks {
    static constexpr u32 kOut = ~0u;
    static constexpr u32 kEnd = ~0u - 1;
    u32 n = 0;
    u32* next = nullptr;
    u32* prev = nullptr;
    // Frames 0..n-1; next and prev have n entries.
    void init(u32 frames, u32* nx, u32* pv) {
        n = frames;
        next = nx;
        prev = pv;
        for (u32 i = 0; i < n; i++) next[i] = prev[i] = kOut;
    }
    bool queued(u32 i) const { return i < n && next[i] != kOut; }
};

class ReplaceQueue {
  public:
    static constexpr u32 kNone = ~0u;

    constexpr ReplaceQueue() = default;

    void init(ReplaceLinks* links) {
        l_ = links;
        head_ = tail_ = ReplaceLinks::kEnd;
        size_ = 0;
    }

    u32 size() const { return size_; }
    // (On this queue: the caller knows which queue a frame is on.)
    bool queued(u32 i) const { return l_ != nullptr && l_->queued(i); }

    // To the tail (the youngest); a queued frame stays where it is.
    void push(u32 i) {
        if (l_ == nullptr || i >= l_->n || queued(i)) return;
        l_->next[i] = ReplaceLinks::kEnd;
        l_->prev[i] = tail_;
        if (tail_ == ReplaceLinks::kEnd) head_ = i;
        else l_->next[tail_] = i;
        tail_ = i;
        size_++;
    }

    void remove(u32 i) {
        if (!queued(i)) return;
        const u32 nx = l_->next[i], pv = l_->prev[i];
        if (pv == ReplaceLinks::kEnd) head_ = nx;
        else l_->next[pv] = nx;
        if (nx == ReplaceLinks::kEnd) tail_ = pv;
        else l_->prev[nx] = pv;
        l_->next[i] = l_->prev[i] = ReplaceLinks::kOut;
        size_--;
    }

    // Move a queued frame to the tail (a second chance, or "not now").
    void rotate(u32 i) {
        if (!queued(i)) return;
        remove(i);
        push(i);
    }

    u32 head() const { return size_ == 0 ? kNone : head_; }

    // The victim under policy p, or kNone if the queue is empty.
    // accessed(i): was frame i used since the last look? (It clears the
    // bit.) Only Clock asks.
    template <typename Accessed>
    u32 pick(Policy p, Accessed&& accessed) {
        if (size_ == 0) return kNone;
        if (p == Policy::Fifo) return head();
        for (u32 look = 0; look < size_; look++) {
            const u32 h = head();
            if (!accessed(h)) return h;
            rotate(h);
        }
        return head();  // every page was used: the oldest, its bit now clear
    }

  private:
    ReplaceLinks* l_ = nullptr;
    u32 head_ = ReplaceLinks::kEnd;
    u32 tail_ = ReplaceLinks::kEnd;
    u32 size_ = 0;
};

}  // namespace q::vm
