// kernel/obs/trace.h - scheduler trace points (format: lib/obs/format.h).
//
// Every hook is an inline test of one global flag (trace::g_on, false
// unless `trace start` ran) and a call out of line only when it is set, so
// tracing off costs one predictable branch per hook. Each hart writes only
// its own stream (kernel/obs/recorder.h), with interrupts off for the few
// stores of one record: no locks, no ordering between harts (the host
// merges the sections by time). Hooks may be called with any locks held
// and from interrupt handlers; they never sleep, allocate or block.
#pragma once

#include "lib/obs/format.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct Proc;

namespace trace {

extern bool g_on;

inline bool on() { return __builtin_expect(__atomic_load_n(&g_on, __ATOMIC_RELAXED), false); }

// Out-of-line writers (only called when on()).
void init();  // build the recorder (boot, before the first system call)
void emit(Event e, int pid, int other, u8 a, u8 b, u32 arg, i64 key);
void emit_name(Event e, int pid, const char* name);
void emit_sched(Event e, const Proc* p, int queue, u32 nr, i64 vtime, i64 ahead);
void emit_wake(const Proc* p, int queue, bool sync);
void emit_switch(const Proc* next, u64 waited);
void emit_deschedule(const Proc* p, int state, u64 ran, bool yielded);
void emit_affinity(int tid, int by, AffinitySource why, u64 mask);

// The system calls (kernel/obs/trace.cc documents their contracts).
SysResult sys_trace_start();
SysResult sys_trace_stop();
SysResult sys_trace_read();
SysResult sys_trace_stat();

}  // namespace trace

// The hooks, one per event (see Event in lib/obs/format.h).
inline void trace_switch(const Proc* next, u64 waited) {
    if (trace::on()) trace::emit_switch(next, waited);
}
// yielded: p gave the hart up itself, with its turn (yield_turn).
inline void trace_deschedule(const Proc* p, int state, u64 ran, bool yielded) {
    if (trace::on()) trace::emit_deschedule(p, state, ran, yielded);
}
// p became runnable for `queue` (Wakeup; the Enqueue record follows when
// it is queued there: at once, or when that hart drains its wake list);
// sync: by a synchronous wake-up (wakeup(chan, Wake::Sync)).
inline void trace_wake(const Proc* p, int queue, bool sync) {
    if (trace::on()) trace::emit_wake(p, queue, sync);
}
// Enqueue and Pick carry what p's policy shows of it (lib/sched/policy.h
// View: vtime, ahead), asked of `show()` only when tracing is on.
template <class Show>
inline void trace_enqueue(const Proc* p, int queue, u32 nr, Show show) {
    if (trace::on()) {
        const auto v = show();
        trace::emit_sched(trace::Event::Enqueue, p, queue, nr, v.vtime, v.ahead);
    }
}
template <class Show>
inline void trace_pick(const Proc* p, int queue, u32 nr, Show show) {
    if (trace::on()) {
        const auto v = show();
        trace::emit_sched(trace::Event::Pick, p, queue, nr, v.vtime, v.ahead);
    }
}
inline void trace_migrate(int pid, int from, int to, trace::MigrateReason why) {
    if (trace::on())
        trace::emit(trace::Event::Migrate, pid, static_cast<int>(why), static_cast<u8>(from), static_cast<u8>(to), 0,
                    0);
}
inline void trace_fork(int child, int parent) {
    if (trace::on()) trace::emit(trace::Event::Fork, child, parent, 0, 0, 0, 0);
}
inline void trace_thread(int tid, int pid) {
    if (trace::on()) trace::emit(trace::Event::Thread, tid, pid, 0, 0, 0, 0);
}
inline void trace_exec(int pid, const char* name) {
    if (trace::on()) trace::emit_name(trace::Event::Exec, pid, name);
}
inline void trace_exit(int pid, int status) {
    if (trace::on()) trace::emit(trace::Event::Exit, pid, status, 0, 0, 0, 0);
}
inline void trace_renice(int pid, int nice, u32 weight) {
    if (trace::on()) trace::emit(trace::Event::Renice, pid, nice, 0, 0, weight, 0);
}
inline void trace_policy(int pid, const char* name) {
    if (trace::on()) trace::emit_name(trace::Event::Policy, pid, name);
}
// tid's affinity became mask by setaffinity, called by thread `by`.
inline void trace_affinity(int tid, int by, u64 mask) {
    if (trace::on()) trace::emit_affinity(tid, by, trace::AffinitySource::Set, mask);
}
// A new process or thread tid took its mask from `from` (fork, thread
// creation): recorded only when that is not every hart, the default the
// host assumes for a new tid without one.
inline void trace_inherit_affinity(int tid, int from, u64 mask) {
    if (trace::on() && mask != ~u64{0}) trace::emit_affinity(tid, from, trace::AffinitySource::Inherit, mask);
}

}  // namespace q
