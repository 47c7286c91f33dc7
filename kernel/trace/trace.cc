// kernel/trace/trace.cc - per-hart trace buffers and the trace system calls.
//
// Each hart owns one buffer of 32-byte records (kernel/lib/hart_records.h,
// shared with the profiler), filled in order and never wrapped: when it is
// full, new records are counted as dropped, so a dump always holds a
// complete prefix of each hart's events. Only the owning hart writes its
// buffer, with interrupts off, so a record needs no lock and no atomic
// read-modify-write. trace_stop clears g_on and waits until no hart is in
// the middle of a record (the handshake in hart_records.h); after that the
// buffers are quiescent until the next trace_start, which is the only
// place they are freed and reallocated.
// Who may: starting, stopping and reading a trace are root's (the records
// name every user's processes and what they run); trace_stat's counts are
// anyone's. A trace takes at most 1/8 of memory (hart_records.h: fits()).
// g_ctl serialises the system calls (start, stop, read, stat); it is taken
// before any process lock (the start-up snapshot takes each p->lock) and
// never by a trace point.
#include "kernel/trace/trace.h"

#include "kernel/lib/hart_records.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"
#include "kernel/syscall.h"
#include "kernel/trap.h"
#include "lib/abi/abi.h"

namespace q {

namespace trace {

constinit bool g_on = false;

namespace {

constexpr u32 kDefaultKb = 1024;  // per hart
constexpr u32 kMaxKb = 8192;      // per hart
constexpr u32 kMaxPages = kMaxKb / (kPageSize / 1024);

// What each hart last descheduled (its own; the next Switch names it).
struct Last {
    int pid = 0;
    u8 state = 0;
};

constinit HartRecords<Record, kMaxPages> g_rec{g_on};
constinit Last g_last[kMaxHarts];
constinit SpinLock g_ctl("trace");
constinit DumpHeader g_header{};  // valid for reading once magic is set (after a stop)

void put(Record& r) {
    push_off();
    const int cpu = cpuid();
    if (g_rec.enter(cpu)) {
        r.time = now_cycles();
        r.cpu = static_cast<u8>(cpu);
        if (Record* slot = g_rec.slot(cpu)) *slot = r;
    }
    g_rec.leave(cpu);
    pop_off();
}

Record make(Event e, int pid) {
    Record r{};
    r.type = static_cast<u8>(e);
    r.pid = pid;
    return r;
}

// One Proc record per existing thread, and a Thread record for each that
// is not its process's first (tracing is already on).
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
    }
}

}  // namespace

void init(int ncpus) { g_rec.set_harts(ncpus); }

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

void emit_sched(Event e, const Proc* p, int queue, u32 nr) {
    Record r = make(e, p->tid);
    r.a = static_cast<u8>(queue);
    r.b = static_cast<u8>(nr > 255 ? 255 : nr);
    r.other = static_cast<i32>(p->rq.se.weight);
    r.key = p->rq.se.vruntime;
    const i64 d = p->rq.se.deadline - p->rq.se.vruntime;
    r.arg = d <= 0 ? 0 : (d > 0xffffffffll ? 0xffffffffu : static_cast<u32>(d));
    put(r);
}

void emit_wake(const Proc* p, int queue) {
    push_off();
    const bool in_intr = mycpu()->in_intr;  // a device's or the timer's wake-up: no waker
    pop_off();
    const Proc* waker = in_intr ? nullptr : myproc();
    emit(Event::Wakeup, p->tid, waker ? waker->tid : 0, static_cast<u8>(queue), p->woken ? 1 : 0, 0, 0);
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

void emit_deschedule(const Proc* p, int state, u64 ran) {
    // A thread that ended is Unused already (only a process's leader waits
    // as a Zombie): it exited all the same.
    if (state == static_cast<int>(ProcState::Unused)) state = static_cast<int>(ProcState::Zombie);
    push_off();
    Last& last = g_last[cpuid()];
    last.pid = p->tid;
    last.state = static_cast<u8>(state);
    Record r = make(Event::Deschedule, p->tid);
    r.a = static_cast<u8>(state);
    r.key = static_cast<i64>(ran);
    put(r);
    pop_off();
}

// trace_start(kb) -> 0; -1 if the caller is not root, already tracing, kb
// outside 4..8192 (0 means the default, 1024 KiB per hart), all harts'
// buffers together over 1/8 of memory, or out of memory. Frees the
// previous trace's buffers (its dump can no longer be read), allocates kb
// KiB per hart, and writes one Proc record for every existing process.
i64 sys_trace_start() {
    const int kb = arg_int(0) == 0 ? static_cast<int>(kDefaultKb) : arg_int(0);
    if (kb < 4 || kb > static_cast<int>(kMaxKb)) return -1;
    if (!perm::may_admin(current_cred())) return -1;
    LockGuard g(g_ctl);
    if (g_rec.is_on()) return -1;
    g_header = DumpHeader{};
    if (!g_rec.alloc(static_cast<u32>(kb) / 4)) return -1;
    for (Last& last : g_last) last = Last{};
    g_header.start_time = now_cycles();
    g_rec.turn_on();
    snapshot();
    return 0;
}

// trace_stop() -> records kept (all harts), or -1 if the caller is not root
// or not tracing. The dump can then be read with trace_read until the next
// trace_start.
i64 sys_trace_stop() {
    if (!perm::may_admin(current_cred())) return -1;
    LockGuard g(g_ctl);
    if (!g_rec.is_on()) return -1;
    g_rec.stop();
    const u64 total = g_rec.seal(g_header, kMagic, kVersion, g_slice_cycles, now_cycles());
    safe_strcpy(g_header.policy, rq_policy_name(), sizeof(g_header.policy));
    safe_strcpy(g_header.rq_mode, rq_mode_name(), sizeof(g_header.rq_mode));
    return static_cast<i64>(total);
}

// trace_read(offset, buf, len) -> bytes of the dump (header, then each
// hart's records) copied from `offset` into buf, 0 at or past its end; -1
// for a caller who is not root, while tracing, before the first stop, or
// for a bad pointer.
i64 sys_trace_read() {
    if (!perm::may_admin(current_cred())) return -1;
    const u64 off = arg_raw(0);
    const UserAddr dst = arg_addr(1);
    const i64 len_arg = static_cast<i64>(arg_raw(2));
    if (len_arg < 0) return -1;
    LockGuard g(g_ctl);
    if (g_rec.is_on() || g_header.magic != kMagic) return -1;
    const auto done = g_rec.read(g_header, off, dst, static_cast<u64>(len_arg));
    return done.ok() ? static_cast<i64>(done.value()) : -1;
}

// trace_stat(struct tracestat*) -> 0, or -1 for a bad pointer. Counts read
// while tracing are a moment's snapshot.
i64 sys_trace_stat() {
    tracestat st{};
    {
        LockGuard g(g_ctl);
        st.on = g_rec.is_on() ? 1 : 0;
        st.harts = g_rec.harts();
        for (int h = 0; h < g_rec.harts(); h++) {
            st.records += g_rec.count(h);
            st.dropped += g_rec.dropped(h);
        }
        st.bytes = !st.on && g_header.magic == kMagic ? obs::dump_size(g_header) : 0;
        st.capacity = g_rec.capacity();
    }
    return to_user(copy_out(myproc()->pagetable, arg_addr(0), &st, sizeof(st)));
}

}  // namespace trace
}  // namespace q
