// kernel/obs/trace.cc - the scheduler's trace points and the trace system
// calls: what goes into a 32-byte Record (lib/obs/format.h) and when.
// The streams, their budget and root-only control are the recorder's
// (kernel/obs/recorder.h). A stopped trace stays until the next
// trace_start, so it can be dumped later. Starting writes one Proc record
// per existing thread (snapshot: each p->lock, taken after the recorder's
// lock); the trace points themselves take no lock.
#include "kernel/obs/trace.h"

#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/obs/recorder.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"
#include "kernel/syscall.h"
#include "kernel/trap.h"
#include "lib/abi/abi.h"
#include "lib/in_place.h"

namespace q {

namespace trace {

constinit bool g_on = false;

namespace {

// What each hart last descheduled (its own; the next Switch names it).
struct Last {
    int pid = 0;
    u8 state = 0;
};

constinit Last g_last[kMaxHarts];
constinit DumpHeader g_header{};

void starting(u64, u64) {
    for (Last& last : g_last) last = Last{};
}

void snapshot();

void sealing(obs::Sections& h) {
    h.period_cycles = g_slice_cycles;
    DumpHeader& d = static_cast<DumpHeader&>(h);
    safe_strcpy(d.policy, rq_policy_name(), sizeof(d.policy));
    safe_strcpy(d.rq_mode, rq_mode_name(), sizeof(d.rq_mode));
}

constexpr obs::Config kConfig{"trace",
                              obs::Kind::Trace,
                              kVersion,
                              sizeof(Record),
                              sizeof(DumpHeader),
                              1024,
                              8192,
                              false,
                              {starting, snapshot, sealing}};
// Built by init (boot): a Recorder's defaults (its Config, its lock's
// name) are not zero, so a constinit one put all 128 KiB of it (mostly
// empty page lists) in the image's .data; a BootBuilt (lib/in_place.h)
// is zeros in .bss until then.
constinit BootBuilt<obs::Recorder> g_rec;

// The recorder, for the system calls (the first to reach it: nothing is
// recorded before a start).
obs::Recorder& rec() {
    if (!g_rec.built()) panic("trace: the recorder was never built (trace::init)");
    return *g_rec;
}

void put(Record& r) {
    push_off();
    const int cpu = cpuid();
    if (g_rec->enter(cpu)) {
        r.time = now_cycles();
        r.cpu = static_cast<u8>(cpu);
        if (void* slot = g_rec->slot(cpu)) *static_cast<Record*>(slot) = r;
    }
    g_rec->leave(cpu);
    pop_off();
}

Record make(Event e, int pid) {
    Record r{};
    r.type = static_cast<u8>(e);
    r.pid = pid;
    return r;
}

// One Proc record per existing thread, a Thread record for each that is
// not its process's first, and an Affinity record for each whose mask is
// not every hart (tracing is already on).
void snapshot() {
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.state == ProcState::Unused) continue;
        Record r = make(Event::Proc, p.tid);
        r.a = static_cast<u8>(p.state);
        r.b = static_cast<u8>(p.nice + 20);
        put_name(r, p.name);
        put(r);
        if (p.tid != p.pid) emit(Event::Thread, p.tid, p.pid, 0, 0, 0, 0);
        if (p.rq.affinity != sched::kAllCpus) emit_affinity(p.tid, 0, AffinitySource::Snapshot, p.rq.affinity);
    }
}

}  // namespace

void emit(Event e, int pid, int other, u8 a, u8 b, u32 arg, i64 key) {
    Record r = make(e, pid);
    r.other = other;
    r.a = a;
    r.b = b;
    r.arg = arg;
    r.key = key;
    put(r);
}

void emit_name(Event e, int pid, const char* name) {
    Record r = make(e, pid);
    put_name(r, name);
    put(r);
}

void emit_sched(Event e, const Proc* p, int queue, u32 nr, i64 vtime, i64 ahead) {
    Record r = make(e, p->tid);
    r.a = static_cast<u8>(queue);
    r.b = static_cast<u8>(nr > 255 ? 255 : nr);
    r.other = static_cast<i32>(p->rq.se.weight);
    r.key = vtime;
    r.arg = ahead <= 0 ? 0 : (ahead > 0xffffffffll ? 0xffffffffu : static_cast<u32>(ahead));
    put(r);
}

// The whole mask, as the run-queue core keeps it (the host clips it to the
// dump's harts).
static_assert(sizeof(sched::CpuMask) == sizeof(Record::key) && sched::kAllCpus == ~u64{0},
              "an Affinity record's key is a CpuMask, all bits set for every hart");

void emit_affinity(int tid, int by, AffinitySource why, u64 mask) {
    emit(Event::Affinity, tid, by, static_cast<u8>(why), 0, 0, static_cast<i64>(mask));
}

void emit_wake(const Proc* p, int queue, bool sync) {
    push_off();
    const bool in_intr = mycpu()->in_intr;  // a device's or the timer's wake-up: no waker
    pop_off();
    const Proc* waker = in_intr ? nullptr : myproc();
    emit(Event::Wakeup, p->tid, waker ? waker->tid : 0, static_cast<u8>(queue), p->woken ? (sync ? 2 : 1) : 0, 0, 0);
}

void emit_switch(const Proc* next, u64 waited) {
    push_off();
    const Last& last = g_last[cpuid()];
    Record r = make(Event::Switch, next->tid);
    r.other = last.pid;
    r.a = last.state;
    r.key = static_cast<i64>(waited);
    put(r);
    pop_off();
}

void emit_deschedule(const Proc* p, int state, u64 ran, bool yielded) {
    // A thread that ended is Unused already (only a process's leader waits
    // as a Zombie): it exited all the same.
    if (state == static_cast<int>(ProcState::Unused)) state = static_cast<int>(ProcState::Zombie);
    push_off();
    Last& last = g_last[cpuid()];
    last.pid = p->tid;
    last.state = static_cast<u8>(state);
    Record r = make(Event::Deschedule, p->tid);
    r.a = static_cast<u8>(state);
    r.b = yielded ? 1 : 0;
    r.key = static_cast<i64>(ran);
    put(r);
    pop_off();
}

// Boot, before the first system call (kernel/main.cc).
void init() {
    if (!g_rec.build(kConfig, g_on, g_header).name()) panic("trace::init: the recorder kept no defaults");
}

// trace_start(kb) -> 0; -1 if the caller is not root, already tracing, kb
// outside 4..8192 (0 means the default, 1024 KiB per hart), all harts'
// buffers together over 1/8 of memory, or out of memory. Frees the
// previous trace's buffers (its dump can no longer be read), allocates kb
// KiB per hart, and writes one Proc record for every existing process.
SysResult sys_trace_start() { return rec().start(arg_int(0), 0); }

// trace_stop() -> records kept (all harts), or -1 if the caller is not root
// or not tracing. The dump can then be read with trace_read until the next
// trace_start.
SysResult sys_trace_stop() { return rec().stop(); }

// trace_read(offset, buf, len) -> bytes of the dump (header, then each
// hart's records) copied from `offset` into buf, 0 at or past its end; -1
// for a caller who is not root, while tracing, before the first stop, or
// for a bad pointer.
SysResult sys_trace_read() { return rec().sys_read(); }

// trace_stat(struct tracestat*) -> 0, or -1 for a bad pointer. Counts read
// while tracing are a moment's snapshot.
SysResult sys_trace_stat() {
    const tracestat st = rec().counters();
    return sys_result(copy_out(myproc()->pagetable, arg_addr(0), &st, sizeof(st)));
}

}  // namespace trace
}  // namespace q
