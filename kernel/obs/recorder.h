// kernel/obs/recorder.h - the one recorder behind the scheduler tracer
// (kernel/obs/trace.cc) and the sampling profiler (kernel/obs/prof.cc):
// per-hart streams of fixed-size records, their budget, the stop handshake,
// the dump's header and the system calls' shared rules. Each owner has one
// Recorder and adds only what it records and its Hooks.
//
// Streams. Each hart owns one stream: pages from kalloc, allocated by
// start() and freed by the next start() (or, for an owner that frees on
// read, once its dump has been read to the end), never wrapped: when a
// stream is full, new records are counted as dropped, so a dump holds each
// hart's first records. Only the owning hart writes its stream, with
// interrupts off, so writing needs no lock: enter(), slot(), leave().
//
// Budget. One owner's streams take at most 1/8 of memory and always leave
// the out-of-memory rule's low watermark free (fits()), so the tracer and
// the profiler together cannot starve the machine.
//
// Stopping must not race with a hart in the middle of a record. A writer
// sets its hart's `writing` flag, then (full fence) checks `on`; stop()
// clears `on`, then (full fence) waits for every `writing` flag to clear
// (Dekker's pattern). The streams are then quiescent until the next start.
//
// Who may: starting, stopping and reading are root's (records name every
// user's processes, what they ran and where); the counters are anyone's. ctl_ serialises the control calls; it is taken
// before any process lock (a hook may take p->lock) and never on the writing path.
//
// A dump is the owner's header (lib/obs/format.h: Sections, then the
// owner's own fields) followed by each hart's records in hart order;
// stop() seals the header, and read() copies any byte range of the dump
// out to the caller's memory.
#pragma once

#include "kernel/sync/spinlock.h"
#include "lib/abi/abi.h"
#include "lib/obs/format.h"
#include "lib/params.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q::obs {

// The number of harts, one stream each (boot: before any start).
void init(int ncpus);
int harts();

// What differs between owners, each called with the recorder's lock held.
struct Hooks {
    // Before recording turns on, at `now`, with start()'s `arg`: reset the
    // owner's per-hart state (the profiler's period and first due times).
    void (*starting)(u64 now, u64 arg);
    // Once recording is on: the tracer's snapshot of existing threads, the
    // profiler's timer IPIs.
    void (*started)();
    // At stop, after the shared part is sealed: the period and the owner's
    // own header fields.
    void (*sealing)(Sections& header);
};

struct Config {
    const char* name;      // the lock's name
    Kind kind;             // what the records are
    u16 version;           // that kind's format version
    u32 record_size;       // bytes per record: divides a page
    u32 header_size;       // sizeof the owner's header (derived from Sections)
    u32 default_kb;        // per hart, for a start with kb 0
    u32 max_kb;            // per hart
    bool free_after_read;  // a dump read to its end frees the streams
    Hooks hooks;
};

class Recorder {
  public:
    static constexpr u32 kMaxPages = 2048;  // per hart: 8 MiB

    // `on` is the owner's flag, which its hooks test inline before doing
    // any work; `header` the owner's header (config.header_size bytes).
    constexpr Recorder(const Config& c, bool& on, Sections& header) : cfg_(c), on_(on), header_(header), ctl_(c.name) {}

    const char* name() const { return ctl_.name(); }  // the Config's (null: never built)
    bool is_on() const { return __atomic_load_n(&on_, __ATOMIC_RELAXED); }

    // Writer side, on hart `cpu` with interrupts off: enter() returns true
    // if recording is on; then slot() gives the next record's bytes (or null
    // when the stream is full, counted as dropped); leave() always follows.
    bool enter(int cpu) {
        __atomic_store_n(&streams_[cpu].writing, 1, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return __atomic_load_n(&on_, __ATOMIC_RELAXED);
    }
    void* slot(int cpu) {
        Stream& s = streams_[cpu];
        if (s.count >= capacity_) {
            s.dropped++;
            return nullptr;
        }
        const u64 per_page = kPageSize / cfg_.record_size;
        u8* page = s.pages[s.count / per_page];
        void* r = page + (s.count % per_page) * cfg_.record_size;
        s.count++;
        return r;
    }
    void leave(int cpu) { __atomic_store_n(&streams_[cpu].writing, 0, __ATOMIC_RELEASE); }

    // The control side: each returns what its system call returns.
    // start: 0, or an error: NotPermitted if the caller is not root,
    // BadArgument if recording is on or kb (0: the default) is outside
    // 4..max_kb, NoMemory if the streams do not fit.
    SysResult start(i64 kb, u64 arg);
    // stop: records kept (all harts), or NotPermitted (not root),
    // BadArgument (not recording).
    SysResult stop();
    // read(offset, user buffer, len) from the current system call's
    // arguments: bytes copied, 0 at or past the end, -1 (not root, still
    // recording, never stopped or already freed, a bad pointer).
    SysResult sys_read();
    // The counters anyone may read (trace_stat's): on, harts, records
    // kept and dropped, the dump's size once stopped, each stream's capacity.
    tracestat counters();

  private:
    struct Stream {
        u8* pages[kMaxPages] = {};
        u64 count = 0;    // records kept (only the owning hart writes it while on)
        u64 dropped = 0;  // records lost (likewise)
        u32 writing = 0;  // 1 while the owning hart is writing a record
    };

    bool fits(u32 pages) const;
    bool alloc(u32 pages);
    void free();
    void quiesce();
    u64 dump_size() const { return sealed() ? obs::dump_size(header_) : 0; }
    bool sealed() const { return header_.magic == kMagic; }
    Result<u64> copy_out(u64 off, UserAddr dst, u64 len) const;

    const Config cfg_;
    bool& on_;
    Sections& header_;
    SpinLock ctl_;
    Stream streams_[param::kMaxCpus];
    u64 capacity_ = 0;
};

}  // namespace q::obs
