// lib/sched/levels.h - 40 FIFO queues with a non-empty bitmap.
//
// Shared by the queue-based policies (dwrr, idwrr). Invariants: bit i of
// mask_ is set iff queue i is non-empty; count_ is the number of queued
// entities; an entity is in queue e.level iff e.queued. Finding the next
// non-empty queue after i (with wrap-around) is two mask operations and a
// count-trailing-zeros, so no operation here scans tasks or queues.
#pragma once

#include "lib/sched/policy.h"
#include "lib/seam.h"

namespace q::sched {

// Count trailing zeros of a non-zero word, without libgcc (rv64imac has no
// ctz instruction): isolate the lowest bit and look it up by de Bruijn hash.
// The table is at namespace scope (a constexpr local array would be rebuilt
// on the stack at every call). Hosts with a ctz instruction use it.
inline constexpr u8 kCtzIndex[64] = {
    0,  1,  56, 2,  57, 49, 28, 3,  61, 58, 42, 50, 38, 29, 17, 4,  62, 47, 59, 36, 45, 43,
    51, 22, 53, 39, 33, 30, 24, 18, 12, 5,  63, 55, 48, 27, 60, 41, 37, 16, 46, 35, 44, 21,
    52, 32, 23, 11, 54, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6,
};

constexpr unsigned ctz64_debruijn(u64 x) {
    constexpr u64 kDeBruijn = 0x03f79d71b4ca8b09ull;
    return kCtzIndex[((x & (~x + 1)) * kDeBruijn) >> 58];
}

constexpr unsigned ctz64(u64 x) {
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv_zbb)
    return static_cast<unsigned>(__builtin_ctzll(x));
#else
    return ctz64_debruijn(x);
#endif
}

// Index of the highest set bit of a non-zero word (no libgcc either).
constexpr unsigned msb64(u64 x) {
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv_zbb)
    return 63u - static_cast<unsigned>(__builtin_clzll(x));
#else
    unsigned n = 0;
    for (unsigned s = 32; s; s >>= 1) {
        if (x >> s) {
            x >>= s;
            n += s;
        }
    }
    return n;
#endif
}
static_assert(msb64(1) == 0 && msb64(0x8001) == 15 && msb64(~0ull) == 63);

constexpr unsigned kNoLevel = ~0u;

class LevelQueues {
  public:
    using Queue = List<Entity, &Entity::link>;

    void push(Entity& e) {
        queues_[e.level].push_back(e);
        mask_ |= bit(e.level);
        e.queued = true;
        count_++;
    }
    void remove(Entity& e) {
        Queue::remove(e);
        e.queued = false;
        count_--;
        if (queues_[e.level].empty()) mask_ &= ~bit(e.level);
    }
    // The Policy operations every queue-based policy implements the same way.
    void enqueue(Entity& e) {
        Q_ASSERT(!e.queued && e.level < kLevels);
        push(e);
    }
    void dequeue(Entity& e) {
        Q_ASSERT(e.queued);
        remove(e);
    }
    // New weight and queue; a queued entity moves to the tail of its new queue.
    void reweight(Entity& e, u32 weight, u8 level) {
        Q_ASSERT(level < kLevels);
        const bool was_queued = e.queued;
        if (was_queued) remove(e);
        e.weight = weight;
        e.level = level;
        if (was_queued) push(e);
    }
    Entity* pop(unsigned level) {
        Entity* e = queues_[level].front();
        if (e) remove(*e);
        return e;
    }
    // pop() of a queue known to be non-empty (its mask bit is set): the
    // queue in hand answers whether it emptied (remove() would find it
    // again through e.level).
    Entity* pop_nonempty(unsigned level) {
        Queue& q = queues_[level];
        Q_ASSERT(!q.empty());
        Entity& e = q.first();
        Queue::remove(e);
        e.queued = false;
        count_--;
        if (q.empty()) mask_ &= ~bit(level);
        return &e;
    }
    bool empty(unsigned level) const { return (mask_ & bit(level)) == 0; }
    u64 mask() const { return mask_; }
    usize size() const { return count_; }

    // First non-empty queue strictly after `level` in rotation order
    // (level + 1, ..., 39, 0, ...), or kNoLevel if all are empty.
    unsigned next_after(unsigned level) const {
        if (mask_ == 0) return kNoLevel;
        const u64 later = (mask_ >> level) >> 1;  // queues after `level`, shifted down
        return later ? level + 1 + ctz64(later) : ctz64(mask_);
    }

  private:
    static constexpr u64 bit(unsigned i) { return u64{1} << i; }

    Queue queues_[kLevels];
    u64 mask_ = 0;
    usize count_ = 0;
};

}  // namespace q::sched
