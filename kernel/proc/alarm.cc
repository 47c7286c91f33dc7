// kernel/proc/alarm.cc - alarm() and setitimer(ITIMER_REAL) (docs/signals.md
// "alarm and setitimer").
//
// Each process (ThreadGroup) has one real-time timer: alarm_at, the timer
// cycle at which SIGALRM is due (0: none), and alarm_every, its period (0:
// once). Time is the timer's, which is virtual time under QEMU -icount, so
// an alarm fires at the same guest instant whatever the host's load. The
// earliest due time of all processes is an EarliestDeadline (as the
// futex's and poll's, kernel/lib/deadline.h): the clock interrupt arms the
// timer no later than it, and when it has passed scans the table, posts
// SIGALRM to each due process (sig_post_locked: a Proc lock only, safe in
// the interrupt) and lowers the deadline again for the ones still armed.
// Invariants: alarm_at/alarm_every change under g_alarm_lock (the process's
// own call, or the scan); every armed alarm_at is >= the deadline. An
// alarm survives exec (POSIX) and is not inherited by fork's child.
#include "kernel/proc/alarm.h"

#include "kernel/lib/deadline.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/signal.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"
#include "lib/params.h"

namespace q {

namespace {

constinit SpinLock g_alarm_lock("alarm");
constinit EarliestDeadline g_alarm_due;

constexpr u64 kMaxSeconds = 100'000'000;  // about three years: no overflow in cycles

u64 to_cycles(long sec, long usec) {
    return static_cast<u64>(sec) * param::kTimerHz + static_cast<u64>(usec) * param::kCyclesPerUs;
}

// Set p's process's timer (caller holds g_alarm_lock); returns the old one.
void arm(ThreadGroup* tg, u64 at, u64 every, u64* old_at, u64* old_every) {
    *old_at = tg->alarm_at;
    *old_every = tg->alarm_every;
    tg->alarm_at = at;
    tg->alarm_every = every;
    if (at != 0) {
        g_alarm_due.lower(at);
        timer_rearm();
    }
}

// What is left of a timer due at `at` (cycles), 0 for none or past.
u64 left(u64 at, u64 now) { return at > now ? at - now : (at != 0 ? 1 : 0); }

bool valid_time(long sec, long usec) {
    return sec >= 0 && usec >= 0 && usec < 1'000'000 && static_cast<u64>(sec) <= kMaxSeconds;
}

void to_timeval(u64 cycles, long* sec, long* usec) {
    *sec = static_cast<long>(cycles / param::kTimerHz);
    *usec = static_cast<long>(cycles % param::kTimerHz / param::kCyclesPerUs);
}

}  // namespace

u64 alarm_next_deadline() { return g_alarm_due.get(); }

void alarm_expire(u64 now) {
    g_alarm_due.reset();
    LockGuard a(g_alarm_lock);
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        ThreadGroup* tg = p.tg;
        if (tg == nullptr || tg->leader != &p || tg->alarm_at == 0) continue;
        if (p.state == ProcState::Unused || p.state == ProcState::Zombie) continue;
        if (now >= tg->alarm_at) {
            sig_post_locked(&p, sig::kAlrm);
            if (tg->alarm_every == 0) {
                tg->alarm_at = 0;
                continue;
            }
            while (tg->alarm_at <= now) tg->alarm_at += tg->alarm_every;  // missed periods merge into one signal
        }
        g_alarm_due.lower(tg->alarm_at);
    }
}

// alarm(seconds) -> the seconds the previous alarm had left, rounded up.
SysResult sys_alarm() {
    const int secs = arg_int(0);
    if (secs < 0 || static_cast<u64>(secs) > kMaxSeconds) return Error::BadArgument;
    const u64 now = now_cycles();
    u64 old_at = 0, old_every = 0;
    {
        LockGuard a(g_alarm_lock);
        arm(myproc()->tg, secs == 0 ? 0 : now + static_cast<u64>(secs) * param::kTimerHz, 0, &old_at, &old_every);
    }
    const u64 rest = left(old_at, now);
    return static_cast<i64>((rest + param::kTimerHz - 1) / param::kTimerHz);
}

// setitimer(which, new, old) -> 0, or -1 (EINVAL: not ITIMER_REAL, a bad
// time; EFAULT: a bad pointer).
SysResult sys_setitimer() {
    Proc* p = myproc();
    const UserAddr new_addr = arg_addr(1);
    const UserAddr old_addr = arg_addr(2);
    if (arg_int(0) != 0) return Error::BadArgument;
    kitimerval v{};
    TRY(copy_in(p->pagetable, &v, new_addr, sizeof(v)));
    if (!valid_time(v.interval_sec, v.interval_usec) || !valid_time(v.value_sec, v.value_usec)) {
        return Error::BadArgument;
    }
    const u64 now = now_cycles();
    const u64 value = to_cycles(v.value_sec, v.value_usec);
    const u64 every = to_cycles(v.interval_sec, v.interval_usec);
    u64 old_at = 0, old_every = 0;
    {
        LockGuard a(g_alarm_lock);
        arm(p->tg, value == 0 ? 0 : now + value, value == 0 ? 0 : every, &old_at, &old_every);
    }
    if (old_addr.is_null()) return 0;
    kitimerval o{};
    to_timeval(old_every, &o.interval_sec, &o.interval_usec);
    to_timeval(left(old_at, now), &o.value_sec, &o.value_usec);
    return sys_result(copy_out(p->pagetable, old_addr, &o, sizeof(o)));
}

// getitimer(which, cur) -> 0 or -1.
SysResult sys_getitimer() {
    Proc* p = myproc();
    if (arg_int(0) != 0) return Error::BadArgument;
    const u64 now = now_cycles();
    u64 at, every;
    {
        LockGuard a(g_alarm_lock);
        at = p->tg->alarm_at;
        every = p->tg->alarm_every;
    }
    kitimerval o{};
    to_timeval(every, &o.interval_sec, &o.interval_usec);
    to_timeval(left(at, now), &o.value_sec, &o.value_usec);
    return sys_result(copy_out(p->pagetable, arg_addr(1), &o, sizeof(o)));
}

}  // namespace q
