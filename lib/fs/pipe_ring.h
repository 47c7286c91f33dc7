// lib/fs/pipe_ring.h - the byte ring buffer behind a pipe (pure, host-testable).
//
// Two free-running counters: `nread` counts bytes ever taken out, `nwrite`
// bytes ever put in. The buffer holds nwrite - nread bytes, at index
// counter % N. N is a power of two, so the counters may wrap around 2^32 and
// every difference and index stays right.
//
// Invariants: 0 <= nwrite - nread <= N; empty() iff equal; full() iff the
// difference is N. Transfers go through contiguous spans so the kernel can
// copy user memory straight in or out, then commit only what it copied.
// Writes of at most N bytes are atomic (writer_may_copy).
#pragma once

#include "lib/types.h"

namespace q::fs {

struct Span {
    u8* data;
    u32 len;
};

template <u32 N>
class PipeRing {
    static_assert(N > 0 && (N & (N - 1)) == 0, "ring size must be a power of two");

  public:
    constexpr PipeRing() = default;

    constexpr u32 used() const { return nwrite_ - nread_; }
    constexpr u32 space() const { return N - used(); }
    constexpr bool empty() const { return used() == 0; }
    constexpr bool full() const { return used() == N; }
    static constexpr u32 capacity() { return N; }

    // May a writer of `total` bytes, `done` of them written, copy more now?
    // A write of at most N bytes goes in whole (POSIX's PIPE_BUF rule): it
    // waits until the ring has room for all of it, so no other writer's
    // bytes land inside it. A longer write takes whatever room there is.
    constexpr bool writer_may_copy(u32 total, u32 done) const {
        if (total <= N && done == 0) return space() >= total;
        return space() > 0;
    }

    // Contiguous free bytes starting at the write position (at most `max`).
    constexpr Span write_span(u32 max) { return write_span_after(0, max); }
    // The same `skip` free bytes further on: the second piece of a write
    // whose first piece (skip bytes, copied, not yet committed) ended at
    // the wrap, so both can be committed together.
    constexpr Span write_span_after(u32 skip, u32 max) {
        check(skip <= space());
        const u32 at = (nwrite_ + skip) % N;
        return {data_ + at, min3(max, space() - skip, N - at)};
    }
    constexpr void commit_write(u32 n) {
        check(n <= space());
        nwrite_ += n;
    }
    // Contiguous filled bytes starting at the read position (at most `max`).
    constexpr Span read_span(u32 max) {
        const u32 at = nread_ % N;
        return {data_ + at, min3(max, used(), N - at)};
    }
    constexpr void commit_read(u32 n) {
        check(n <= used());
        nread_ += n;
    }

    // Byte-wise convenience (tests, small transfers). Return false when
    // full (push) or empty (pop).
    constexpr bool push(u8 c) {
        if (full()) return false;
        data_[nwrite_++ % N] = c;
        return true;
    }
    constexpr bool pop(u8& c) {
        if (empty()) return false;
        c = data_[nread_++ % N];
        return true;
    }

    // Test hook: start both counters at `start` (to exercise 2^32 wrap).
    constexpr void reset_counters(u32 start) { nread_ = nwrite_ = start; }

  private:
    static constexpr u32 min3(u32 a, u32 b, u32 c) {
        const u32 m = a < b ? a : b;
        return m < c ? m : c;
    }
    static constexpr void check(bool ok) {
        if (!ok) ring_overrun();
    }
    [[noreturn]] static void ring_overrun();

    u8 data_[N] = {};
    u32 nread_ = 0;
    u32 nwrite_ = 0;
};

}  // namespace q::fs

#include "lib/seam.h"

template <q::u32 N>
void q::fs::PipeRing<N>::ring_overrun() {
    q::seam::panic("pipe ring: commit beyond the available bytes");
}
