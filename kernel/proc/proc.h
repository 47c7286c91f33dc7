// kernel/proc/proc.h - processes: the table, sleep/wakeup, and per-hart state.
//
// A Proc's fields are guarded as marked. `lock` must be held to read or
// change state, chan, xstate and pid, and to set killed (which killed()
// reads with one atomic load, no lock: it is checked on every system call); `parent` is guarded by the
// global wait lock; the rest is private to the process itself (or to its
// creator before it first runs). Every hart has a Cpu record, reached through
// the tp register (mycpu()).
#pragma once

#include "kernel/sync/spinlock.h"
#include "lib/fs/perm.h"
#include "lib/params.h"
#include "lib/result.h"
#include "lib/sched/balance.h"
#include "lib/sched/policy.h"
#include "lib/types.h"

namespace q {

struct File;
struct Inode;
struct TrapFrame;

// Callee-saved registers for kernel context switches (arch/riscv/switch.S).
struct Context {
    u64 ra, sp;
    u64 s[12];
};
static_assert(sizeof(Context) == 14 * 8);

enum class ProcState : u8 { Unused, Embryo, Sleeping, Runnable, Running, Zombie };
// procinfo.state (lib/abi/abi.h) exports these as numbers 0..5.
static_assert(static_cast<int>(ProcState::Unused) == 0 && static_cast<int>(ProcState::Embryo) == 1 &&
              static_cast<int>(ProcState::Sleeping) == 2 && static_cast<int>(ProcState::Runnable) == 3 &&
              static_cast<int>(ProcState::Running) == 4 && static_cast<int>(ProcState::Zombie) == 5);

struct Proc {
    SpinLock lock{"proc"};

    // guarded by lock
    ProcState state = ProcState::Unused;
    const void* chan = nullptr;  // sleeping on this channel
    bool killed = false;
    int xstate = 0;  // exit status for the parent's wait()
    int pid = 0;
    // Who it runs as (lib/fs/perm.h): changed only by the process itself
    // (setuid/setgid) and read by others (kill, renice, procinfo), both
    // under lock; the process itself reads its own without it. Set from the
    // parent's at fork; init's is root's.
    perm::Cred cred;

    // guarded by the wait lock
    Proc* parent = nullptr;

    // private to the process
    u64 kstack = 0;            // kernel stack (virtual address)
    u64 sz = 0;                // bytes of user memory
    u64* pagetable = nullptr;  // user page table (root page)
    TrapFrame* trapframe = nullptr;
    Context context{};
    File* ofile[param::kMaxOpenPerProc] = {};
    Inode* cwd = nullptr;
    char name[16] = {};
    // SYS_errno (kernel/syscall.cc): the error number of the last call that
    // failed, and the one the call under way has recorded so far.
    int errno_last = 0;
    int errno_call = 0;

    // scheduling: se and nice under the run-queue lock (see runqueue.h);
    // running_on and the stat_* counters are written by the hart that
    // dispatches the process, under p->lock (kernel/proc/sched.cc:run)
    sched::Entity se;
    int nice = 0;
    int running_on = -1;    // hart running it, or -1
    u64 stat_cpu = 0;       // timer cycles spent running
    u64 stat_switches = 0;  // times dispatched
    u64 stat_voluntary = 0;
    u64 stat_involuntary = 0;
    u64 stat_wait = 0;          // cycles runnable but not running
    u64 stat_last_latency = 0;  // wakeup latency of the last wakeup
    u64 stat_max_latency = 0;
    u64 runnable_since = 0;  // time it last became runnable
    u64 running_since = 0;   // time it was last dispatched
    bool woken = false;      // became runnable by wakeup (for latency)
    // run queues (kernel/proc/runqueue.h): rq changes only under the lock of
    // the queue it names and of the new one, or under p->lock while p is in
    // no queue (a remote wake-up); the rest under rq's lock.
    int rq = -1;                 // queue it is on or was last on, -1: none yet
    Proc* wake_next = nullptr;   // link in a hart's remote wake list
    bool rq_counted = false;     // counted in rq's load (runnable or running)
    bool moved = false;          // migrated and not dispatched since
    u64 last_ran = 0;            // when it last stopped running (cache warmth)
    u64 woke_at = 0;             // when it last became runnable (rq_wake)
    u64 affinity = ~0ull;        // harts it may run on (bit i: hart i)
    u64 stat_migrations = 0;     // times moved between queues
    sched::Service bal_service;  // CPU time with a half-life (balancing)
};

struct Cpu {
    Proc* proc = nullptr;  // running process, or null
    Context context{};     // the scheduler loop's context
    int noff = 0;          // push_off depth
    bool intena = false;   // interrupts enabled before the outermost push_off
    int id = 0;
    bool need_resched = false;
    bool idle = false;  // waiting for work in the scheduler loop
    u64 slice_end = 0;  // when the running process's slice ends (timer cycles)
};

extern Cpu g_cpus[param::kMaxCpus];

// This hart's record (tp holds the hart id).
Cpu* mycpu();
int cpuid();
// The running process (interrupts off only around its two loads).
Proc* myproc();

// Sleep on chan, atomically releasing lk; reacquires lk before returning.
void sleep(const void* chan, SpinLock& lk);
// Wake every process sleeping on chan.
void wakeup(const void* chan);
bool killed(Proc* p);
void set_killed(Proc* p);
void yield();

// The current process's credentials.
const perm::Cred& current_cred();

// Copy to/from either a user address (current process) or a kernel address.
Status either_copyout(bool user_dst, u64 dst, const void* src, u64 len);
Status either_copyin(void* dst, bool user_src, u64 src, u64 len);

}  // namespace q
