// lib/obs/format.h - the recorders' one dump format: written by the kernel
// (kernel/obs/recorder.cc seals the header; kernel/obs/trace.cc and
// kernel/obs/prof.cc write the records) and read by the host
// (tools/obs_reader.cc), from this one definition.
//
// A dump is a header, whose first 192 bytes are Sections, followed by one
// section per hart in hart order: counts[h] fixed-size records of
// record_size bytes each, in the order hart h wrote them (so each section
// is sorted by time). `kind` says what the records are: the scheduler
// trace's 32-byte Records or the profiler's 128-byte Samples; `version` is
// that kind's layout version. Integers are little-endian (RV64 and x86-64
// alike). A reader checks magic, kind, version, header_size, record_size,
// harts <= kMaxHarts, each count against the capacity and the exact length
// before trusting anything else; a dump of another version is refused,
// never guessed at. Every layout is pinned by static_assert.
//
// Time is the `time` CSR in timer cycles since boot (10 MHz on QEMU virt:
// 100 ns). A record's `pid` names what the kernel schedules, a thread: its
// tid, which for a process's first thread is the process's pid
// (docs/threads.md). pid 0 means nobody (an idle hart, a wake-up from an
// interrupt handler). States are ProcState numbers (kernel/proc/proc.h,
// procinfo.state): 2 sleeping, 3 runnable, 4 running, 5 zombie.
#pragma once

#include "lib/types.h"

namespace q::obs {

constexpr u64 kMagic = 0x504d554453424f51ull;  // "QOBSDUMP" little-endian
constexpr u32 kMaxHarts = 8;                   // = param::kMaxCpus (checked by the kernel)
constexpr u32 kNameLen = 16;

enum class Kind : u16 { Trace = 1, Profile = 2 };

struct Sections {
    u64 magic;          // kMagic
    u16 version;        // the kind's format version
    u16 kind;           // Kind: what the records are
    u32 header_size;    // sizeof the kind's whole header
    u32 record_size;    // sizeof one record
    u32 harts;          // sections that follow (1..kMaxHarts)
    u64 timer_hz;       // timer cycles per second
    u64 period_cycles;  // the kind's time step: the tracer's slice, the profiler's sampling period
    u64 start_time;     // recording start and stop, timer cycles since boot
    u64 stop_time;
    u64 capacity;            // records each hart's buffer holds
    u64 counts[kMaxHarts];   // records in each section
    u64 dropped[kMaxHarts];  // records lost because that hart's buffer was full
};
static_assert(sizeof(Sections) == 192, "the shared part of a dump header is 192 bytes");
static_assert(__builtin_offsetof(Sections, kind) == 10 && __builtin_offsetof(Sections, timer_hz) == 24 &&
                  __builtin_offsetof(Sections, capacity) == 56 && __builtin_offsetof(Sections, counts) == 64 &&
                  __builtin_offsetof(Sections, dropped) == 128,
              "Sections is every dump's layout: change kMagic to change it");

// Bytes of a dump with these sections: the header, then every section
// (no overflow for counts a reader has bounded first).
constexpr u64 dump_size(const Sections& s) {
    u64 n = s.header_size;
    for (u32 i = 0; i < s.harts && i < kMaxHarts; i++) n += s.counts[i] * s.record_size;
    return n;
}

}  // namespace q::obs

// ---- Kind::Trace: the scheduler trace --------------------------------------
namespace q::trace {

constexpr u16 kVersion = 3;  // 2: pids are tids, Thread records; 3: Affinity records
constexpr u32 kMaxHarts = obs::kMaxHarts;
constexpr u32 kNameLen = obs::kNameLen;

// What a record says. Field use per type (unlisted fields are 0):
enum class Event : u8 {
    None = 0,
    // Hart `cpu` dispatches pid. other = the process that last left this
    // hart (0: none since tracing started), a = that one's state when it
    // left, key = cycles pid was runnable before this dispatch.
    Switch = 1,
    // pid leaves hart `cpu`: a = its new state (3 preempted or yielded, 2
    // sleeping, 5 exited: a process's last thread, or any thread that
    // ended), b = 1 if it yielded (sched_yield: it gave up its turn; 0 in
    // dumps from before yields were told apart), key = cycles it ran since
    // its dispatch.
    Deschedule = 2,
    // pid becomes runnable: other = the pid whose wakeup() (or fork) made it
    // runnable (0: none, e.g. the scheduler loop, or an interrupt handler:
    // a device or the timer, not the process it interrupted),
    // a = the queue it is placed on, b = 1 if woken from sleep (wakeup()),
    // 2 if by a synchronous wake-up (a pipe write: its waker sleeps soon,
    // lib/sched/runqueues.h placement), 0 for a new process or a kill.
    Wakeup = 3,
    // pid enters queue a (woken, new, or put back after running):
    // b = processes counted on that queue (queued or running, at most 255),
    // other = weight, key = EEVDF vruntime, arg = EEVDF deadline - vruntime
    // (clamped to u32; both 0 for policies that do not use them).
    Enqueue = 4,
    // pid is picked from queue a to run: fields as Enqueue.
    Pick = 5,
    // pid moves from queue a to queue b; other = reason (MigrateReason).
    Migrate = 6,
    // pid is a new child of other.
    Fork = 7,
    // pid runs a new program: name.
    Exec = 8,
    // pid exits with status other.
    Exit = 9,
    // pid's nice becomes other (weight arg).
    Renice = 10,
    // The policy becomes name (by pid).
    Policy = 11,
    // Written when tracing starts, one per existing thread: pid, name,
    // a = state, b = nice + 20 (a running one's hart is that of its next
    // Deschedule).
    Proc = 12,
    // pid is a thread of process other (not its first thread): at its
    // creation, and when tracing starts, after its Proc record.
    Thread = 13,
    // pid's affinity becomes key (u64 CpuMask bits: bit h = hart h, as
    // the kernel keeps it, bits of harts the machine lacks included);
    // a = AffinitySource, other = the tid that set it or that pid
    // inherited it from (0 for a snapshot).
    Affinity = 14,
    Count
};

enum class MigrateReason : i32 { Steal = 0, Balance = 1, Affinity = 2 };

// Why an Affinity record was written: a setaffinity call; a new process or
// thread inheriting a mask other than all harts (after its Fork or Thread
// record); tracing starting (one per thread with such a mask, after its
// Proc record).
enum class AffinitySource : u8 { Set = 0, Inherit = 1, Snapshot = 2 };

struct Record {
    u64 time;
    u8 type;  // Event
    u8 cpu;   // hart that wrote it
    u8 a;
    u8 b;
    i32 pid;
    // Exec, Policy and Proc records keep a name (NUL-padded, not always
    // NUL-terminated) in these 16 bytes instead: put_name / get_name.
    i32 other;
    u32 arg;
    i64 key;
};
static_assert(sizeof(Record) == 32, "a Record is 32 bytes in every dump");
static_assert(__builtin_offsetof(Record, pid) == 12 && __builtin_offsetof(Record, other) == 16 &&
                  __builtin_offsetof(Record, key) == 24,
              "Record layout is the dump format: bump kVersion to change it");

// An Affinity record keeps the whole 64-bit mask in key.
static_assert(sizeof(Record::key) == sizeof(u64) && __builtin_offsetof(Record, key) % 8 == 0,
              "an Affinity record's key holds a whole CpuMask");

constexpr u32 kNameOffset = __builtin_offsetof(Record, other);
static_assert(kNameOffset + kNameLen == sizeof(Record));

inline void put_name(Record& r, const char* s) {
    char buf[kNameLen] = {};
    for (u32 i = 0; i < kNameLen && s[i]; i++) buf[i] = s[i];
    __builtin_memcpy(reinterpret_cast<u8*>(&r) + kNameOffset, buf, kNameLen);
}

// out gets the name, NUL-terminated (kNameLen + 1 bytes).
inline void get_name(const Record& r, char* out) {
    __builtin_memcpy(out, reinterpret_cast<const u8*>(&r) + kNameOffset, kNameLen);
    out[kNameLen] = 0;
}

// Sections (period_cycles = the kernel's preemption slice), then the
// scheduler's set-up at bytes 192-255.
struct DumpHeader : obs::Sections {
    char policy[kNameLen];   // policy when tracing started
    char rq_mode[kNameLen];  // "percpu" or "single"
    u8 reserved[32];
    u64 slice_cycles() const { return period_cycles; }
};
static_assert(sizeof(DumpHeader) == 256, "the dump header is 256 bytes");

}  // namespace q::trace

// ---- Kind::Profile: the sampling profiler ----------------------------------
// A Sample is the program counter a timer interrupt found: sepc, the
// interrupted instruction (a user address when mode is User, a kernel text
// address when Kernel), with the process running on that hart (pid 0 and
// an empty name: the hart was idle in its scheduler loop). A kernel sample
// also keeps up to kMaxCallers return addresses from the frame-pointer
// chain (innermost first; the kernel is built with -fno-omit-frame-pointer;
// the walk stays inside the interrupted stack's page), so the host tool's
// folded stacks are real kernel call stacks; a user sample keeps only its
// PC (depth 0). See docs/profiling.md.
namespace q::prof {

constexpr u16 kVersion = 1;
constexpr u32 kMaxHarts = obs::kMaxHarts;
constexpr u32 kNameLen = obs::kNameLen;
constexpr u32 kMaxCallers = 12;

enum class Mode : u8 { Kernel = 0, User = 1 };

struct Sample {
    u64 pc;                    // the interrupted instruction (sepc)
    i32 pid;                   // running process, 0 if the hart was idle
    u8 cpu;                    // hart that took it
    u8 mode;                   // Mode
    u8 depth;                  // callers[0..depth) are valid (<= kMaxCallers)
    u8 reserved;               // 0
    char name[kNameLen];       // the process's name (NUL-padded, not always NUL-terminated)
    u64 callers[kMaxCallers];  // return addresses, innermost first (kernel samples)
};
static_assert(sizeof(Sample) == 128, "a Sample is 128 bytes in every dump");
static_assert(__builtin_offsetof(Sample, pid) == 8 && __builtin_offsetof(Sample, cpu) == 12 &&
                  __builtin_offsetof(Sample, mode) == 13 && __builtin_offsetof(Sample, depth) == 14 &&
                  __builtin_offsetof(Sample, name) == 16 && __builtin_offsetof(Sample, callers) == 32,
              "Sample layout is the dump format: bump kVersion to change it");

// Sections (period_cycles = the sampling period), then nothing of its own yet.
struct DumpHeader : obs::Sections {
    u8 reserved[64];
};
static_assert(sizeof(DumpHeader) == 256, "the dump header is 256 bytes");

}  // namespace q::prof
