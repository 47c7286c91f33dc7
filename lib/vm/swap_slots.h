// lib/vm/swap_slots.h - the swap area's page slots (docs/memory.md "Swap").
//
// Pure, freestanding and allocation-free (the caller supplies the arrays):
// the kernel (kernel/mm/swap.cc, under its swap lock) and the host tests
// (tests/host/swap_test.cc) run the same code. A slot holds one
// swapped-out page. Its count is the page-table entries naming it (fork of
// a process with swapped pages shares the slot, as it shares a frame);
// its pins are the page-outs and page-ins reading or writing it right now.
// A slot is free exactly when both are 0, so a slot is never reused while
// a disk transfer of it is in flight, even if every entry naming it went
// (exit or munmap during the write). alloc() scans from where the last
// allocation stopped (next fit), so freed slots are reused round the area.
// Invariant: free_count() == the slots with no count and no pin.
// Not thread-safe: the caller holds one lock around every call (free_count
// may be read without it: an atomic load).
#pragma once

#include "lib/types.h"

namespace q::vm {

class SwapSlots {
  public:
    static constexpr u32 kNone = ~0u;

    constexpr SwapSlots() = default;

    // n slots; refs and pins have n zeroed entries each.
    void init(u32 n, u16* refs, u8* pins) {
        n_ = n;
        refs_ = refs;
        pins_ = pins;
        hand_ = 0;
        set_free(n);
    }

    u32 total() const { return n_; }
    u32 free_count() const { return __atomic_load_n(&free_, __ATOMIC_RELAXED); }
    u32 refs(u32 s) const { return refs_[s]; }
    u32 pins(u32 s) const { return pins_[s]; }
    bool valid(u32 s) const { return s < n_; }

    // A free slot, now named by one entry and pinned once (the page-out
    // writing it), or kNone when the area is full.
    u32 alloc() {
        for (u32 k = 0; k < n_; k++) {
            const u32 s = (hand_ + k) % n_;
            if (refs_[s] != 0 || pins_[s] != 0) continue;
            refs_[s] = 1;
            pins_[s] = 1;
            hand_ = (s + 1) % n_;
            set_free(free_ - 1);
            return s;
        }
        return kNone;
    }

    // One more entry names s (fork). False (and nothing changes) if the
    // count is at its limit: the caller must then copy instead.
    bool dup(u32 s) {
        if (refs_[s] == 0xffff) return false;
        refs_[s]++;
        return true;
    }

    // One entry fewer names s: the entries left (a put of a slot nobody
    // names changes nothing).
    u32 put(u32 s) {
        if (refs_[s] == 0) return 0;
        refs_[s]--;
        release_if_unused(s);
        return refs_[s];
    }

    bool pin(u32 s) {
        if (pins_[s] == 0xff) return false;
        pins_[s]++;
        return true;
    }
    // True if that freed the slot.
    bool unpin(u32 s) {
        if (pins_[s] == 0) return false;
        pins_[s]--;
        return release_if_unused(s);
    }

  private:
    // Called right after a count or a pin went down by one.
    bool release_if_unused(u32 s) {
        if (refs_[s] != 0 || pins_[s] != 0) return false;
        set_free(free_ + 1);
        return true;
    }
    void set_free(u32 v) { __atomic_store_n(&free_, v, __ATOMIC_RELAXED); }

    u32 n_ = 0;
    u16* refs_ = nullptr;
    u8* pins_ = nullptr;
    u32 hand_ = 0;
    u32 free_ = 0;
};

}  // namespace q::vm
