// kernel/syscall.cc - the system-call table and argument fetching.
//
// The number in a7 indexes a constexpr table of handlers; an unknown number
// returns -1 (ENOSYS) and is reported on the console at most once per clock
// tick (a program looping on a bad number must not flood the console).
// Arguments come from the trapframe; every pointer argument is checked by
// the copy routines before use.
//
// Errors: a handler returns a SysResult (lib/result.h). Here, and only
// here, an error becomes -1 in a0 and its number (errno_of) is left in
// p->errno_last, where errno() reads it; a call that succeeds leaves errno
// alone, even when its value is -1 (getpriority's nice -1, a sigreturn
// into an interrupted call that had failed). A successful exec starts the
// new program with errno 0.
#include "kernel/syscall.h"
#include "kernel/mm/mmap.h"
#include "kernel/mm/vmstat.h"

#include "kernel/arch/riscv/trapframe.h"
#include "kernel/lib/kprintf.h"
#include "kernel/obs/prof.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/alarm.h"
#include "kernel/proc/futex.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/jobctl.h"
#include "kernel/proc/signal.h"
#include "kernel/proc/sysproc.h"
#include "lib/abi/abi.h"
#include "lib/params.h"

namespace q {

static_assert(param::kTimerHz / param::kTickCycles == UPTIME_HZ && param::kTimerHz % param::kTickCycles == 0,
              "lib/abi/abi.h's UPTIME_HZ is what sleep() and uptime() count");

u64 arg_raw(int n) {
    TrapFrame* tf = myproc()->trapframe;
    return tf->x(TrapFrame::a0 + n);
}

int arg_int(int n) { return static_cast<int>(arg_raw(n)); }
UserAddr arg_addr(int n) { return UserAddr(arg_raw(n)); }

Result<u64> fetch_addr(UserAddr addr) {
    u64 v = 0;
    TRY(copy_in(myproc()->pagetable, &v, addr, sizeof(v)));
    return v;
}

Result<int> fetch_str(UserAddr addr, char* buf, int max) {
    TRY(copy_in_str(myproc()->pagetable, buf, addr, static_cast<u64>(max)));
    int n = 0;
    while (buf[n]) n++;
    return n;
}

// A string argument is a path or a name: one that does not fit is "too long".
Result<int> arg_str(int n, char* buf, int max) {
    Result<int> r = fetch_str(arg_addr(n), buf, max);
    if (!r.ok() && r.error() == Error::TooBig) return Error::NameTooLong;
    return r;
}

// errno() -> the error number of the calling thread's last failed call, 0 if none.
static SysResult sys_errno() { return myproc()->errno_last; }

namespace {

using Handler = SysResult (*)();

constexpr auto make_table() {
    struct Table {
        Handler h[SYS_MAX + 1] = {};
    } t;
    t.h[SYS_fork] = sys_fork;
    t.h[SYS_exit] = sys_exit;
    t.h[SYS_wait] = sys_wait;
    t.h[SYS_pipe] = sys_pipe;
    t.h[SYS_read] = sys_read;
    t.h[SYS_kill] = sys_kill;
    t.h[SYS_exec] = sys_exec;
    t.h[SYS_fstat] = sys_fstat;
    t.h[SYS_chdir] = sys_chdir;
    t.h[SYS_dup] = sys_dup;
    t.h[SYS_getpid] = sys_getpid;
    t.h[SYS_sbrk] = sys_sbrk;
    t.h[SYS_sleep] = sys_sleep;
    t.h[SYS_uptime] = sys_uptime;
    t.h[SYS_open] = sys_open;
    t.h[SYS_write] = sys_write;
    t.h[SYS_mknod] = sys_mknod;
    t.h[SYS_mkfifo] = sys_mkfifo;
    t.h[SYS_poll] = sys_poll;
    t.h[SYS_unlink] = sys_unlink;
    t.h[SYS_link] = sys_link;
    t.h[SYS_mkdir] = sys_mkdir;
    t.h[SYS_close] = sys_close;
    t.h[SYS_getpriority] = sys_getpriority;
    t.h[SYS_setpriority] = sys_setpriority;
    t.h[SYS_sched_get] = sys_sched_get;
    t.h[SYS_sched_set] = sys_sched_set;
    t.h[SYS_uptime_ns] = sys_uptime_ns;
    t.h[SYS_procinfo] = sys_procinfo;
    t.h[SYS_freepages] = sys_freepages;
    t.h[SYS_halt] = sys_halt;
    t.h[SYS_rqstat] = sys_rqstat;
    t.h[SYS_setaffinity] = sys_setaffinity;
    t.h[SYS_getaffinity] = sys_getaffinity;
    t.h[SYS_getuid] = sys_getuid;
    t.h[SYS_geteuid] = sys_geteuid;
    t.h[SYS_setuid] = sys_setuid;
    t.h[SYS_getgid] = sys_getgid;
    t.h[SYS_getegid] = sys_getegid;
    t.h[SYS_setgid] = sys_setgid;
    t.h[SYS_chmod] = sys_chmod;
    t.h[SYS_chown] = sys_chown;
    t.h[SYS_xstat] = sys_xstat;
    t.h[SYS_fxstat] = sys_fxstat;
    t.h[SYS_trace_start] = trace::sys_trace_start;
    t.h[SYS_trace_stop] = trace::sys_trace_stop;
    t.h[SYS_trace_read] = trace::sys_trace_read;
    t.h[SYS_trace_stat] = trace::sys_trace_stat;
    t.h[SYS_prof_start] = prof::sys_prof_start;
    t.h[SYS_prof_stop] = prof::sys_prof_stop;
    t.h[SYS_prof_read] = prof::sys_prof_read;
    t.h[SYS_bcstat] = sys_bcstat;
    t.h[SYS_mlfqlevel] = sys_mlfqlevel;
    t.h[SYS_sched_setrequest] = sys_sched_setrequest;
    t.h[SYS_sched_getrequest] = sys_sched_getrequest;
    t.h[SYS_diskstat] = sys_diskstat;
    t.h[SYS_getrlimit] = sys_getrlimit;
    t.h[SYS_setrlimit] = sys_setrlimit;
    t.h[SYS_lseek] = sys_lseek;
    t.h[SYS_cputime] = sys_cputime;
    t.h[SYS_times] = sys_times;
    t.h[SYS_sched_yield] = sys_sched_yield;
    t.h[SYS_tcreate] = sys_tcreate;
    t.h[SYS_gettid] = sys_gettid;
    t.h[SYS_texit] = sys_texit;
    t.h[SYS_futex] = sys_futex;
    t.h[SYS_sigsend] = sys_sigsend;
    t.h[SYS_sigact] = sys_sigact;
    t.h[SYS_sigmask] = sys_sigmask;
    t.h[SYS_sigreturn] = sys_sigreturn;
    t.h[SYS_sigpend] = sys_sigpend;
    t.h[SYS_sigsusp] = sys_sigsusp;
    t.h[SYS_waitpid] = sys_waitpid;
    t.h[SYS_setpgid] = sys_setpgid;
    t.h[SYS_alarm] = sys_alarm;
    t.h[SYS_setitimer] = sys_setitimer;
    t.h[SYS_getitimer] = sys_getitimer;
    t.h[SYS_sigaltstack] = sys_sigaltstack;
    t.h[SYS_getpgid] = sys_getpgid;
    t.h[SYS_setsid] = sys_setsid;
    t.h[SYS_getsid] = sys_getsid;
    t.h[SYS_tcsetpgrp] = sys_tcsetpgrp;
    t.h[SYS_tcgetpgrp] = sys_tcgetpgrp;
    t.h[SYS_mmap] = sys_mmap;
    t.h[SYS_munmap] = sys_munmap;
    t.h[SYS_mprotect] = sys_mprotect;
    t.h[SYS_msync] = sys_msync;
    t.h[SYS_vmstat] = sys_vmstat;
    t.h[SYS_errno] = sys_errno;
    return t;
}

constexpr auto kTable = make_table();

}  // namespace

namespace {

constinit SpinLock g_unknown_lock("unknown_syscall");
constinit u64 g_unknown_tick = ~0ull;  // tick of the last report
constinit u64 g_unknown_quiet = 0;     // unknown calls not reported since

void report_unknown(const Proc* p, u64 num) {
    u64 quiet = 0;
    {
        LockGuard g(g_unknown_lock);
        const u64 now = __atomic_load_n(&g_ticks, __ATOMIC_RELAXED);
        if (now == g_unknown_tick) {
            g_unknown_quiet++;
            return;
        }
        g_unknown_tick = now;
        quiet = g_unknown_quiet;
        g_unknown_quiet = 0;
    }
    kprintf("pid %d (%s): unknown system call %ld (%lu more not reported)\n", p->pid, p->name, static_cast<i64>(num),
            static_cast<unsigned long>(quiet));
}

}  // namespace

// p: the calling process (usertrap has it already).
void syscall_dispatch(Proc* p) {
    const u64 num = p->trapframe->x(TrapFrame::a7);
    SysResult r = Error::NoSuchCall;
    if (num > 0 && num <= SYS_MAX && kTable.h[num]) {
        r = kTable.h[num]();
        if (p->held[0] != nullptr) fd_put_held(p);  // files a multi-threaded process's call looked up
    } else {
        report_unknown(p, num);
    }
    if (!r.ok()) {
        p->errno_last = errno_of(r.error());
        if (num == SYS_write && r.error() == Error::BrokenPipe) sig_broken_pipe(p);
    } else if (num == SYS_exec) {
        p->errno_last = 0;
    }
    p->trapframe->x(TrapFrame::a0) = static_cast<u64>(r.ok() ? r.value() : -1);
}

}  // namespace q
