// kernel/lib/hart_records.h - per-hart record buffers for the tracer and
// the profiler (kernel/trace/trace.cc, kernel/prof/prof.cc).
//
// Each hart owns one buffer of fixed-size records: pages from kalloc,
// allocated by start() and freed by free() or the next start(), never
// wrapped: when a buffer is full, new records are counted as dropped, so
// a dump holds each hart's first records. Only the owning hart writes its
// buffer, with interrupts off, so writing needs no lock. One owner's
// buffers take at most 1/8 of memory and always leave the out-of-memory
// rule's low watermark free (fits()), so the tracer and the profiler
// together cannot starve the machine.
//
// Stopping must not race with a hart in the middle of a record. A writer
// sets its hart's `writing` flag, then (full fence) checks `on`; stop()
// clears `on`, then (full fence) waits for every `writing` flag to clear
// (Dekker's pattern). The buffers are then quiescent until the next
// start(). The owner serialises start/stop/read with its own lock, never
// taken from the writing path.
//
// A dump is the owner's header followed by each hart's records in hart
// order (lib/obs/dump.h); seal() fills the header's shared part when
// recording stops, and read() copies any byte range of the dump out to
// user memory.
#pragma once

#include "kernel/mm/kalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "lib/obs/dump.h"
#include "lib/oom.h"
#include "lib/params.h"
#include "lib/result.h"

namespace q {

template <typename Rec, u32 kMaxPages>
class HartRecords {
  public:
    static constexpr u64 kPerPage = kPageSize / sizeof(Rec);
    static_assert(kPageSize % sizeof(Rec) == 0, "records must tile a page");

    // `on` is the owner's flag, which its hooks test inline before doing
    // any work: true between turn_on() and stop().
    constexpr explicit HartRecords(bool& on) : on_(on) {}

    bool is_on() const { return __atomic_load_n(&on_, __ATOMIC_RELAXED); }
    void set_harts(int ncpus) { harts_ = ncpus < 1 ? 1 : (ncpus > param::kMaxCpus ? param::kMaxCpus : ncpus); }
    int harts() const { return harts_; }
    u64 capacity() const { return capacity_; }
    u64 count(int h) const { return __atomic_load_n(&bufs_[h].count, __ATOMIC_RELAXED); }
    u64 dropped(int h) const { return __atomic_load_n(&bufs_[h].dropped, __ATOMIC_RELAXED); }

    // Frees the previous buffers, allocates `pages` per hart and zeroes the
    // counts; false (with nothing allocated) when memory runs out or the
    // request is over budget (fits()). The caller turns `on` afterwards
    // with turn_on().
    bool alloc(u32 pages) {
        if (pages > kMaxPages) return false;
        free();
        if (!fits(pages)) return false;
        for (int h = 0; h < harts_; h++) {
            for (u32 i = 0; i < pages; i++) {
                bufs_[h].pages[i] = static_cast<Rec*>(kalloc());
                if (!bufs_[h].pages[i]) {
                    free();
                    return false;
                }
            }
            bufs_[h].count = bufs_[h].dropped = 0;
        }
        capacity_ = u64{pages} * kPerPage;
        return true;
    }

    // The budget of one owner (the tracer, the profiler): all harts'
    // buffers together at most 1/8 of the machine's pages, and never so
    // many that fewer than the out-of-memory rule's low watermark would be
    // left free (lib/oom.h). Call with the previous buffers freed.
    bool fits(u32 pages) const {
        const u64 want = u64{pages} * static_cast<u64>(harts_);
        const u64 total = kalloc_total_pages();
        return want <= total / 8 && want + oom::low_water(total) <= kalloc_free_pages();
    }

    void free() {
        for (int h = 0; h < harts_; h++) {
            for (u32 i = 0; i < kMaxPages; i++) {
                if (bufs_[h].pages[i]) kfree(bufs_[h].pages[i]);
                bufs_[h].pages[i] = nullptr;
            }
        }
        capacity_ = 0;
    }

    void turn_on() { __atomic_store_n(&on_, true, __ATOMIC_SEQ_CST); }

    // Clears `on` and waits until no hart is writing.
    void stop() {
        __atomic_store_n(&on_, false, __ATOMIC_SEQ_CST);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        for (int h = 0; h < harts_; h++)
            while (__atomic_load_n(&bufs_[h].writing, __ATOMIC_ACQUIRE)) {}
    }

    // Writer side, on hart `cpu` with interrupts off: enter() returns true
    // if recording is on; then slot() gives the next record (or null when
    // the buffer is full, counted as dropped); leave() always follows.
    bool enter(int cpu) {
        __atomic_store_n(&bufs_[cpu].writing, 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return __atomic_load_n(&on_, __ATOMIC_RELAXED);
    }
    Rec* slot(int cpu) {
        Buf& b = bufs_[cpu];
        if (b.count >= capacity_) {
            b.dropped++;
            return nullptr;
        }
        Rec* r = &b.pages[b.count / kPerPage][b.count % kPerPage];
        b.count++;
        return r;
    }
    void leave(int cpu) { __atomic_store_n(&bufs_[cpu].writing, 0, __ATOMIC_RELEASE); }

    // After stop(): the shared part of the dump's header (the owner has set
    // start_time and fills its own fields). Returns the records kept on
    // all harts.
    template <typename Header>
    u64 seal(Header& d, u64 magic, u32 version, u64 period_cycles, u64 now) const {
        static_assert(sizeof(Header) >= sizeof(obs::Sections) && obs::kMaxHarts == param::kMaxCpus);
        d.magic = magic;
        d.version = version;
        d.header_size = sizeof(Header);
        d.record_size = sizeof(Rec);
        d.harts = static_cast<u32>(harts_);
        d.timer_hz = param::kTimerHz;
        d.period_cycles = period_cycles;
        d.stop_time = now;
        d.capacity = capacity_;
        u64 total = 0;
        for (int h = 0; h < harts_; h++) {
            d.counts[h] = count(h);
            d.dropped[h] = dropped(h);
            total += d.counts[h];
        }
        return total;
    }

    // Copies bytes [off, off + len) of the dump (the sealed header d, then
    // each hart's records) to user address dst, at most 1 MiB per call
    // (bounding the time the caller's lock is held). Returns the bytes
    // copied, 0 at or past the end, or BadAddress.
    template <typename Header>
    Result<u64> read(const Header& d, u64 off, UserAddr dst, u64 len) const {
        const void* header = &d;
        const u64 header_size = sizeof(Header);
        const u64* counts = d.counts;
        const u64 total = obs::dump_size(d);
        if (off >= total) return u64{0};
        if (len > total - off) len = total - off;
        if (len > (1u << 20)) len = 1u << 20;
        u64 done = 0;
        while (done < len) {
            const u64 pos = off + done;
            const u8* src = nullptr;
            u64 avail = 0;
            if (pos < header_size) {
                src = static_cast<const u8*>(header) + pos;
                avail = header_size - pos;
            } else {
                u64 rel = pos - header_size;
                int h = 0;
                while (rel >= counts[h] * sizeof(Rec)) rel -= counts[h++] * sizeof(Rec);
                const u64 idx = rel / sizeof(Rec);
                const u64 in_page = (idx % kPerPage) * sizeof(Rec) + rel % sizeof(Rec);
                src = reinterpret_cast<const u8*>(bufs_[h].pages[idx / kPerPage]) + in_page;
                avail = kPageSize - in_page;
                const u64 left_in_section = counts[h] * sizeof(Rec) - rel;
                if (avail > left_in_section) avail = left_in_section;
            }
            const u64 n = avail < len - done ? avail : len - done;
            Q_CHECK(copy_out(myproc()->pagetable, dst + done, src, n));
            done += n;
        }
        return done;
    }

  private:
    struct Buf {
        Rec* pages[kMaxPages] = {};
        u64 count = 0;    // records kept (only the owning hart writes it while on)
        u64 dropped = 0;  // records lost (likewise)
        u32 writing = 0;  // 1 while the owning hart is writing a record
    };
    bool& on_;
    Buf bufs_[param::kMaxCpus];
    u64 capacity_ = 0;
    int harts_ = 1;
};

}  // namespace q
