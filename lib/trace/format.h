// lib/trace/format.h - the scheduler trace's binary format: one definition
// for the kernel (kernel/trace/trace.cc writes it) and the host reader
// (tools/trace_reader.cc parses it).
//
// A dump is a DumpHeader followed by one section per hart, in hart order:
// header.counts[h] fixed-size Records each, in the order that hart wrote
// them (so each section is sorted by time; sections are merged by time on
// the host). The header's first 192 bytes, and the rules a reader checks
// them by, are the profiler's too (lib/obs/dump.h: Sections, whose
// period_cycles is the kernel's preemption slice here); every layout is
// pinned by static_assert.
//
// Time is the `time` CSR in timer cycles since boot (10 MHz on QEMU virt:
// 100 ns), read when the record is written. The `pid` of a record names
// what the kernel schedules, a thread: its tid, which for a process's first
// thread is the process's pid (docs/threads.md); Thread records say which
// process the others belong to. pid 0 means "nobody" (an idle hart, a
// wake-up from an interrupt handler).
// States are ProcState numbers (kernel/proc/proc.h, procinfo.state):
// 2 sleeping, 3 runnable, 4 running, 5 zombie.
#pragma once

#include "lib/obs/dump.h"
#include "lib/types.h"

namespace q::trace {

constexpr u64 kMagic = 0x3130454341525451ull;  // "QTRACE01" little-endian
constexpr u32 kVersion = 2;                    // 2: pids are tids, Thread records
constexpr u32 kMaxHarts = obs::kMaxHarts;
constexpr u32 kNameLen = 16;

// What a record says. Field use per type (unlisted fields are 0):
enum class Event : u8 {
    None = 0,
    // Hart `cpu` dispatches pid. other = the process that last left this
    // hart (0: none since tracing started), a = that one's state when it
    // left, key = cycles pid was runnable before this dispatch.
    Switch = 1,
    // pid leaves hart `cpu`: a = its new state (3 preempted or yielded, 2
    // sleeping, 5 exited: a process's last thread, or any thread that
    // ended), key = cycles it ran since its dispatch.
    Deschedule = 2,
    // pid becomes runnable: other = the pid whose wakeup() (or fork) made it
    // runnable (0: none, e.g. the scheduler loop, or an interrupt handler:
    // a device or the timer, not the process it interrupted),
    // a = the queue it is placed on, b = 1 if woken from sleep (wakeup()),
    // 0 for a new process or a kill.
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
    Count
};

enum class MigrateReason : i32 { Steal = 0, Balance = 1, Affinity = 2 };

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

// Sections (record_size = sizeof(Record), period_cycles = the kernel's
// preemption slice), then the scheduler's set-up at bytes 192-255.
struct DumpHeader : obs::Sections {
    char policy[kNameLen];   // policy when tracing started
    char rq_mode[kNameLen];  // "percpu" or "single"
    u8 reserved[32];
    u64 slice_cycles() const { return period_cycles; }
};
static_assert(sizeof(DumpHeader) == 256, "the dump header is 256 bytes");

}  // namespace q::trace
