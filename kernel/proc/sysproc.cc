// kernel/proc/sysproc.cc - process, time and scheduling system calls.
//
// Each handler documents its user-visible contract; an error it returns
// becomes -1 and its errno (kernel/syscall.cc).
// Privilege follows Linux (lib/fs/perm.h decides): a user may kill and
// raise the nice of their own processes; lowering nice, touching other
// users' processes, switching the policy and halting are root's.
#include "kernel/proc/sysproc.h"

#include "kernel/arch/riscv/memlayout.h"

#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/jobctl.h"
#include "kernel/proc/oom.h"
#include "kernel/proc/procdump.h"
#include "kernel/proc/runqueue.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"

namespace q {

// fork() -> child's pid in the parent, 0 in the child; -1 when the process
// table (EAGAIN, as in Unix) or memory is full (the latter invokes the
// out-of-memory rule).
SysResult sys_fork() {
    auto r = fork();
    if (r.error() == Error::NoMemory) oom_kill(myproc());
    if (r.error() == Error::NoProcess) return Error::TryAgain;
    return sys_result(r);
}

// exit(status): ends the process, every thread of it; never returns.
SysResult sys_exit() { exit(arg_int(0)); }

// wait(int* status) -> pid of a child that exited; status may be 0.
SysResult sys_wait() { return sys_result(wait(arg_addr(0))); }

// waitpid(pid, status, options) -> the child's pid, 0 (WNOHANG, nothing
// to report), or -1 (ECHILD no such child, EINVAL bad options, EINTR).
SysResult sys_waitpid() { return sys_result(wait_child(arg_int(0), arg_addr(1), arg_int(2), false)); }

// kill(pid) -> 0, or -1: ESRCH for no such process, EINVAL for init (which
// may not die), EPERM for another user's process when the caller is not
// root (as sigsend and Linux's kill say). Every thread of the process is
// killed.
SysResult sys_kill() {
    const Status st = kill(arg_int(0), &current_cred());
    if (!st.ok()) return job_error(st.error());
    return 0;
}

// getpid() -> the process's id (the same in every thread of it).
SysResult sys_getpid() { return myproc()->pid; }

// sbrk(n) -> the old break, or -1 (out of memory, or shrinking below 0).
SysResult sys_sbrk() { return sys_result(grow_proc(static_cast<i64>(arg_int(0)))); }

// sleep(ticks) -> 0, or -1 EINTR if killed or a signal interrupts it
// (run again, whole, after a stop or an SA_RESTART handler).
SysResult sys_sleep() {
    const int n = arg_int(0);
    LockGuard g(g_ticks_lock);
    const u64 start = g_ticks;
    while (n > 0 && g_ticks - start < static_cast<u64>(n)) {
        if (killed(myproc())) return Error::Killed;
        sleep_killable(&g_ticks, g_ticks_lock);
    }
    return 0;
}

// uptime() -> timer ticks since boot.
SysResult sys_uptime() {
    LockGuard g(g_ticks_lock);
    return static_cast<i64>(g_ticks);
}

// uptime_ns() -> nanoseconds since boot (from the 10 MHz time CSR).
SysResult sys_uptime_ns() { return static_cast<i64>(now_cycles() * param::kNsPerCycle); }

namespace {
// The scheduling calls name a thread, as Linux's do: a tid (a process's
// first thread's is its pid, so for a single-threaded process this is the
// process). 0 means the caller.
Proc* target(int tid) { return tid == 0 ? myproc() : proc_by_tid(tid); }
}  // namespace

// getpriority(pid) -> nice value, or -1 ESRCH with no such process
// (ambiguous with nice -1, as in POSIX: a nice of -1 is a success and
// leaves errno alone, so a caller that must tell them apart checks errno
// or that the pid exists, via procinfo).
SysResult sys_getpriority() {
    Proc* p = target(arg_int(0));
    if (!p) return Error::NoProcess;
    return p->nice;
}

// setpriority(pid, nice) -> 0, or -1: EINVAL for nice out of -20..19,
// ESRCH for no such process, EPERM for another user's process and EACCES
// for lowering a nice value (both root's, as in Linux).
SysResult sys_setpriority() {
    const int nice = arg_int(1);
    if (nice < -20 || nice > 19) return Error::BadArgument;
    const int pid = arg_int(0);
    Proc* p = target(pid);
    if (!p) return Error::NoProcess;
    LockGuard g(p->lock);
    // The slot may have been freed and reused since the unlocked lookup.
    if (p->state == ProcState::Unused || p->state == ProcState::Zombie || (pid != 0 && p->tid != pid))
        return Error::NoProcess;
    if (!perm::may_touch_process(current_cred(), p->cred.uid)) return Error::NotPermitted;
    if (!perm::may_renice(current_cred(), p->cred.uid, p->nice, nice)) return Error::Permission;
    rq_set_nice(p, nice);
    trace_renice(p->tid, nice, p->rq.se.weight);
    return 0;
}

// sched_get(buf, len) -> 0; copies the policy name (NUL-terminated), then,
// if len has room, the run-queue mode ("percpu" or "single", NUL-terminated).
SysResult sys_sched_get() {
    const char* name = rq_policy_name();
    const char* mode = rq_mode_name();
    const u64 len = static_cast<u64>(arg_int(1));
    const u64 need = strlen(name) + 1;
    const u64 need_mode = strlen(mode) + 1;
    if (len < need) return Error::BadArgument;
    char buf[32];
    memmove(buf, name, need);
    u64 n = need;
    if (len >= need + need_mode && need + need_mode <= sizeof(buf)) {
        memmove(buf + need, mode, need_mode);
        n += need_mode;
    }
    return sys_result(copy_out(myproc()->pagetable, arg_addr(0), buf, n));
}

// sched_set(name) -> 0, or -1: EINVAL for an unknown policy, EPERM for a
// caller other than root.
SysResult sys_sched_set() {
    if (!perm::may_admin(current_cred())) return Error::NotPermitted;
    char name[16];
    TRY(arg_str(0, name, sizeof(name)));
    if (!rq_set_policy(name)) return Error::BadArgument;
    trace_policy(myproc()->pid, name);
    return 0;
}

// procinfo(index, struct procinfo*) -> 0 for a used slot (one thread: pid
// is its process, tid its own), 1 for an unused one, -1 when index is past
// the table or the pointer is bad.
SysResult sys_procinfo() {
    const int index = arg_int(0);
    if (index < 0 || index >= param::kMaxProcs) return Error::BadArgument;
    Proc& p = g_procs[index];
    procinfo info{};
    const Proc* leader = &p;  // a thread's parent is its process's
    ThreadGroup* tg = nullptr;
    {
        LockGuard g(p.lock);
        if (p.state == ProcState::Unused) return 1;
        proc_info(p, &info);
        tg = p.tg;
        if (tg) leader = tg->leader;
    }
    if (tg) {
        // The count again, under the group's lock: a thread's end clears
        // its join word and drops the count in one hold of it, so a joiner
        // that has seen the word cleared never counts the thread. (The
        // groups are a fixed table: if this one ended meanwhile, a stale
        // number, as for ppid below.)
        LockGuard g(tg->lock);
        info.threads = tg->live;
    }
    {
        LockGuard g(g_wait_lock);  // (if the leader was reaped meanwhile, a stale number)
        info.ppid = leader->parent ? leader->parent->pid : 0;
    }
    return sys_result(copy_out(myproc()->pagetable, arg_addr(1), &info, sizeof(info)));
}

// mlfqlevel(pid) -> the MLFQ queue p runs from next (0 = top), or -1:
// ESRCH for no such process, EINVAL for a policy other than mlfq (pid 0:
// the caller).
SysResult sys_mlfqlevel() {
    const int pid = arg_int(0);
    Proc* p = target(pid);
    if (!p) return Error::NoProcess;
    const int level = rq_describe(p).level;
    if (level < 0) return Error::BadArgument;  // not running MLFQ
    return level;
}

// sched_setrequest(tid, us) -> 0, or -1: ESRCH for no such thread, EINVAL
// for us < 0, EPERM without privilege (the caller's own threads, or root:
// perm::may_touch_process). 0 = the default slice; others are clamped to
// Linux's 0.1 ms .. 100 ms.
SysResult sys_sched_setrequest() {
    const int us = arg_int(1);
    if (us < 0) return Error::BadArgument;
    const int tid = arg_int(0);
    Proc* p = target(tid);
    if (!p) return Error::NoProcess;
    LockGuard g(p->lock);
    if (p->state == ProcState::Unused || p->state == ProcState::Zombie || (tid != 0 && p->tid != tid))
        return Error::NoProcess;
    if (!perm::may_touch_process(current_cred(), p->cred.uid)) return Error::NotPermitted;
    const u64 clamped = us == 0 ? 0 : (us < 100 ? 100 : (us > 100'000 ? 100'000 : static_cast<u64>(us)));
    rq_set_request(p, clamped * param::kCyclesPerUs);
    return 0;
}

// sched_getrequest(tid) -> its request in us (0: the default slice), or
// -1 ESRCH for no such thread.
SysResult sys_sched_getrequest() {
    const int tid = arg_int(0);
    Proc* p = target(tid);
    if (!p) return Error::NoProcess;
    LockGuard g(p->lock);
    if (p->state == ProcState::Unused || (tid != 0 && p->tid != tid)) return Error::NoProcess;
    return static_cast<i64>(p->rq.se.request / param::kCyclesPerUs);
}

// freepages() -> free physical pages.
SysResult sys_freepages() { return static_cast<i64>(kalloc_free_pages()); }

// halt(status): power off QEMU through the virt machine's test device;
// -1 EPERM (and nothing happens) unless the caller is root.
SysResult sys_halt() {
    if (!perm::may_admin(current_cred())) return Error::NotPermitted;
    const u32 status = static_cast<u32>(arg_int(0));
    const u32 code = status == 0 ? 0x5555 : ((status << 16) | 0x3333);
    kprintf("halt: status %d\n", static_cast<int>(status));
    *reinterpret_cast<volatile u32*>(layout::kVirtTest) = code;
    for (;;) {}
}

// setaffinity(pid, mask) -> 0; -1: ESRCH for no such process (pid 0: the
// caller), EINVAL for a mask with no hart of this machine, EPERM for
// another user's process when the caller is not root. Children inherit
// the mask.
SysResult sys_setaffinity() {
    const int pid = arg_int(0);
    const u64 mask = arg_raw(1);
    Proc* p = target(pid);
    if (!p) return Error::NoProcess;
    LockGuard g(p->lock);
    if (p->state == ProcState::Unused || p->state == ProcState::Zombie || (pid != 0 && p->tid != pid))
        return Error::NoProcess;
    if (!perm::may_touch_process(current_cred(), p->cred.uid)) return Error::NotPermitted;
    if (!rq_set_affinity(p, mask)) return Error::BadArgument;
    trace_affinity(p->tid, myproc()->tid, mask);
    return 0;
}

// getaffinity(pid) -> the mask of harts it may run on, or 0 for no such
// process (pid 0: the caller).
SysResult sys_getaffinity() {
    const int pid = arg_int(0);
    Proc* p = target(pid);
    if (!p) return 0;
    LockGuard g(p->lock);
    if (p->state == ProcState::Unused || (pid != 0 && p->tid != pid)) return 0;
    return static_cast<i64>(p->rq.affinity);
}

// ---- users (docs/users-and-protection.md) ----------------------------------
SysResult sys_getuid() { return current_cred().uid; }
SysResult sys_geteuid() { return current_cred().euid; }
SysResult sys_getgid() { return current_cred().gid; }
SysResult sys_getegid() { return current_cred().egid; }

namespace {
// Change the caller's credentials with apply (perm::apply_setuid/setgid),
// in every thread of its process (POSIX: credentials are the process's).
SysResult change_cred(bool (*apply)(perm::Cred&, u32), u32 id) {
    Proc* p = myproc();
    perm::Cred c = p->cred;
    if (!apply(c, id)) return Error::NotPermitted;
    for (Proc& t : g_procs) {
        LockGuard g(t.lock);
        if (t.tg == p->tg) t.cred = c;
    }
    return 0;
}
}  // namespace

// setuid(uid) -> 0: root takes uid as real and effective user; anyone else
// may only set the effective uid to their real or effective one. Else -1.
SysResult sys_setuid() { return change_cred(perm::apply_setuid, static_cast<u32>(arg_int(0))); }
// setgid(gid) -> 0 or -1, by the same rule for groups.
SysResult sys_setgid() { return change_cred(perm::apply_setgid, static_cast<u32>(arg_int(0))); }

}  // namespace q
