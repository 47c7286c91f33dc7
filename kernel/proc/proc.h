// kernel/proc/proc.h - threads and processes: the table, sleep/wakeup, and
// per-hart state.
//
// A Proc is one thread: one slot of the fixed table, with its own kernel
// stack, trapframe, scheduling entity, nice, affinity and statistics. A
// process is a ThreadGroup: what its threads share (the address space,
// open files, cwd, exit status). A single-threaded process is one Proc and
// its group, as in xv6. pid is the process's id (the group's, getpid()),
// tid the thread's own; the first thread's tid is the pid (its slot is the
// group's leader, the one a parent's wait() reaps). docs/threads.md.
//
// A Proc's fields are guarded as marked. `lock` must be held to change
// state, chan, xstate, pid and tid, and to set killed; reading them takes it
// too, with two exceptions: killed() reads killed with one atomic load (it
// is checked on every system call), and wakeup() peeks at state and chan
// with atomic loads to skip threads not asleep on its channel, taking the
// lock to re-check before it wakes one (kernel/proc/sched.cc);
// `parent` and `reapable` are guarded by the global wait lock; the rest is
// private to the thread itself (or to its creator before it first runs).
// Lock order: the wait lock, then a group's lock, then a Proc's lock.
// Every hart has a Cpu record, reached through the tp register (mycpu()).
#pragma once

#include "kernel/arch/fpu.h"
#include "kernel/sync/sleeplock.h"
#include "kernel/sync/spinlock.h"
#include "lib/fs/perm.h"
#include "lib/params.h"
#include "lib/result.h"
#include "lib/rlimit.h"
#include "lib/sched/rq_task.h"
#include "lib/signal/rules.h"
#include "lib/types.h"
#include "lib/vm/regions.h"

namespace q {

struct File;
struct Inode;
struct TrapFrame;
using PageTable = u64*;

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

struct Proc;

// One signal's action (sigaction): handler (sig::kDfl, sig::kIgn or a user
// address), the mask added while it runs, flags (sig::kSa*).
struct SigAction {
    u64 handler = 0;
    u64 mask = 0;
    u64 flags = 0;
};

// A process: what its threads share. One per live process, from a fixed
// table (as many as process slots). Guarded by `lock` unless marked.
struct ThreadGroup {
    SpinLock lock{"tgroup"};
    bool used = false;  // a table slot in use (g_tgroup_lock)
    int live = 0;       // threads that have not exited (an embryo counts)
    int creating = 0;   // thread_create calls between their limit check and their slot
    // exit() or a fatal signal of one thread is ending them all; status is
    // the process's exit status (the first exit() decides it).
    bool exiting = false;
    int status = 0;
    // The thread whose end fixed status had been killed (xv6's kill, the
    // OOM rule, a fault): waitpid reports SIGKILL. Not when a sibling's
    // exit() killed the others: then status is that exit's.
    bool killed_exit = false;
    Proc* execer = nullptr;  // the thread whose exec is ending the others
    Proc* leader = nullptr;  // the slot wait() reaps; its tid is the pid
    File* ofile[param::kMaxOpenPerProc] = {};
    Inode* cwd = nullptr;
    // The address space. pagetable changes only in exec, when one thread is
    // left (every thread keeps a copy in Proc::pagetable). sz and top change
    // under mm_lock: user memory is [0, sz); pages in [sz, top) are still
    // mapped, without PTE_U, because they were given back by sbrk while
    // other threads ran (their harts' TLBs may hold them until their next
    // trap, so they are not freed before the process ends or execs).
    PageTable pagetable = nullptr;
    u64 sz = 0;
    u64 top = 0;
    SleepLock mm_lock{"mm", true};
    // What each address should be (lib/vm/regions.h; the heap ends at sz),
    // the heap pages promised but not yet touched (kalloc_reserve: every
    // page of [0, sz) is mapped or promised), and the page faults resolved
    // (minor: no disk read; major: one). The page-fault path
    // (kernel/mm/fault.cc) reads the map and maps pages under pt_lock, a
    // spinlock (a fault never sleeps); whoever changes the map or unmaps
    // pages holds mm_lock (if shared) and pt_lock.
    vm::Map map;
    u64 reserved = 0;
    u64 minflt = 0;
    u64 majflt = 0;
    // Page-table pages promised for the heap's first touches (every table
    // [0, table_top) may need is allocated or promised; tables are freed only
    // with the whole table).
    u64 table_reserved = 0;
    u64 table_top = 0;
    // The highest end of a mapping made since exec (mmap): its tables may
    // be anywhere below it, up into the top GiB with MAP_FIXED, which
    // proc_free_pagetable must know (under pt_lock; copied at fork).
    u64 map_top = 0;
    SpinLock pt_lock{"pt"};
    // Signals (kernel/proc/signal.cc, docs/signals.md): process-directed
    // signals waiting for a thread (bit n: signal n; set and cleared with
    // atomics, no lock) and the actions, written under lock, read by the
    // delivering thread under lock and by a sender with atomic loads.
    u64 sig_pending = 0;
    SigAction sig_act[sig::kMax + 1] = {};
    // CPU time in cycles (SYS_times): of its threads that have ended
    // (end_thread adds each, under lock), and of the children it reaped,
    // each with its own reaped descendants' (wait_child, under g_wait_lock).
    u64 ended_cpu = 0;
    u64 ended_user = 0;
    u64 child_cpu = 0;
    u64 child_user = 0;
    // Who sent each pending process-directed signal (0: the kernel; the
    // child for SIGCHLD), for siginfo's pid: stored (relaxed) before the
    // pending bit is set, read after it is taken.
    int sig_from[sig::kMax + 1] = {};
    // Signals whose action this program set itself (sigact with an act;
    // copied at fork, cleared at exec): SIGPIPE is raised only for those
    // (docs/signals.md "SIGPIPE"). Written by the process under lock.
    u64 sig_set = 0;
    // Job control (kernel/proc/jobctl.cc, lib/signal/jobs.h): the process
    // group and session, inherited at fork (init's are its pid). Written
    // under g_wait_lock with atomic stores; read anywhere with atomic loads
    // (the console's ^C reads them in its interrupt handler).
    int pgid = 0;
    int sid = 0;
    // Stop and continue (kernel/proc/jobstop.cc): stopped (atomic; changed
    // under g_wait_lock and the stop lock), what the parent's waitpid has
    // yet to hear (wait_report, stop_sig: under g_wait_lock), SIGCONTs
    // sent so far (cont_gen, under g_wait_lock: a stop signal taken before
    // a SIGCONT does not stop), and the signal that ended the process
    // (term_sig, first one wins; 0: exit or xv6's kill).
    bool stopped = false;
    u8 wait_report = 0;
    int stop_sig = 0;
    u32 cont_gen = 0;
    int term_sig = 0;
    // alarm/setitimer (kernel/proc/alarm.cc): when SIGALRM is next due
    // (timer cycles, 0: none) and its period (0: once). Under the alarm lock.
    u64 alarm_at = 0;
    u64 alarm_every = 0;

    // More than one thread: only then may another thread use the shared
    // parts concurrently. A single-threaded process is alone until its own
    // thread makes another, so the answer cannot change under that thread.
    bool shared() const { return __atomic_load_n(&live, __ATOMIC_RELAXED) > 1; }
};

// Holds tg's mm_lock while the process is shared (a single-threaded one
// needs none: its thread is the only one that could grow, copy or free it).
// Thread groups with more than one live thread (kernel/proc/thread.cc
// changes it with live, under the group's lock): 0 lets the kernel's user
// copies skip the pinning only such a group needs (kernel/mm/fault.h:vm_pin).
extern u32 g_threaded_groups;

class MmGuard {
  public:
    explicit MmGuard(ThreadGroup* tg) : tg_(tg->shared() ? tg : nullptr) {
        if (tg_) tg_->mm_lock.acquire();
    }
    ~MmGuard() {
        if (tg_) tg_->mm_lock.release();
    }
    MmGuard(const MmGuard&) = delete;
    MmGuard& operator=(const MmGuard&) = delete;

  private:
    ThreadGroup* tg_;
};

struct Proc {
    SpinLock lock{"proc"};

    // guarded by lock
    ProcState state = ProcState::Unused;
    const void* chan = nullptr;  // sleeping on this channel
    bool killed = false;
    int xstate = 0;  // exit status for the parent's wait()
    int pid = 0;     // the process (thread group) id: getpid()
    int tid = 0;     // this thread's id: gettid(); the leader's is the pid
    // Who it runs as (lib/fs/perm.h): changed only by the process itself
    // (setuid/setgid, for every thread of the group) and read by others
    // (kill, renice, procinfo), both under lock; the thread itself reads
    // its own without it. Set from the creator's at fork and thread
    // creation; init's is root's.
    perm::Cred cred;

    // guarded by the wait lock
    Proc* parent = nullptr;  // leader of the parent process (leaders only)
    bool reapable = false;   // leader: the whole process has exited

    // private to the thread
    ThreadGroup* tg = nullptr;  // its process (set before it runs, cleared at exit)
    u64 kstack = 0;             // kernel stack (virtual address)
    u64* pagetable = nullptr;   // = tg->pagetable
    TrapFrame* trapframe = nullptr;
    u64 trapframe_va = 0;    // where it is mapped in user page tables (slot's)
    u64 clear_tid = 0;       // user address: set 0 and futex-woken at exit (0: none)
    File* held[2] = {};      // files held for the running system call (fd_get)
    u64 retried_va = ~0ull;  // last page fault retried as spurious (kernel/trap.cc)
    // Locks the page-fault path may need that this thread holds (inode,
    // buffer and mm sleep locks; file-system operations), and the page a
    // kernel copy made under them, or under a spinlock, left unfaulted
    // (kernel/mm/fault.h: vm_fault_later).
    u32 fault_locks = 0;
    u64 fault_later = 0;
    Context context{};
    char name[16] = {};
    rlimit::Limit nproc_limit;  // RLIMIT_NPROC (lib/rlimit.h), inherited at fork
    // SYS_errno (kernel/syscall.cc): the error number of the last call that
    // failed.
    int errno_last = 0;
    // Signals: thread-directed pending (atomics, set by anyone), blocked
    // (written by the thread itself, read by senders), the fault address
    // of a fault signal, and the last system call's first argument and
    // number (SA_RESTART re-runs it).
    u64 sig_pending = 0;
    u64 sig_blocked = 0;
    u64 sig_addr = 0;
    u64 sig_saved = 0;  // sigsusp: the mask its handler's frame restores
    bool sig_has_saved = false;
    // sigaltstack: the thread's alternate signal stack (size 0: none).
    u64 alt_sp = 0;
    u64 alt_size = 0;
    u64 sys_a0 = 0;
    bool in_syscall = false;

    // scheduling: rq (the run-queue core's per-task state, with the policy
    // entity rq.se) and nice under the run-queue lock (lib/sched/runqueues.h:
    // rq.queue changes only under the lock of the queue it names and of the
    // new one, or under p->lock while p is in no queue, a wake-up);
    // running_on and the stat_* counters are written by the hart that
    // dispatches the process, under p->lock (kernel/proc/sched.cc:run)
    sched::RqTask rq;
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
    // User-mode time (kernel/trap.cc): cycles from each return to user mode
    // (user_since) to the next trap, added up by the thread itself;
    // stat_cpu - stat_user is its kernel time.
    u64 stat_user = 0;
    u64 user_since = 0;
    bool woken = false;  // became runnable by wakeup (for latency)
    // yield_turn() (under p->lock, read by sched_switch): it gives the hart
    // up of its own accord, and the rest of its turn with it.
    bool yields_turn = false;

    // private to the process: its user FP registers (kernel/arch/fpu.h).
    // Last, so that it moves no other field's offset past the 12-bit
    // immediate of a load (2 KiB).
    FpState fp{};
};

struct Cpu {
    Proc* proc = nullptr;  // running process, or null
    Context context{};     // the scheduler loop's context
    int noff = 0;          // push_off depth
    bool intena = false;   // interrupts enabled before the outermost push_off
    int id = 0;
    bool need_resched = false;
    bool idle = false;     // waiting for work in the scheduler loop
    u64 slice_end = 0;     // when the running process's slice ends (timer cycles)
    u64 sched_tick = 0;    // the next scheduler tick (a multiple of g_tick_cycles)
    bool in_intr = false;  // in dev_intr: a wake-up here is the device's, not the running process's
};

extern Cpu g_cpus[param::kMaxCpus];

// This hart's record (tp holds the hart id).
Cpu* mycpu();
int cpuid();
// The running process (interrupts off only around its two loads).
Proc* myproc();

// Sleep on chan, atomically releasing lk; reacquires lk before returning.
void sleep(const void* chan, SpinLock& lk);
// The same, for a caller that ends its wait when killed (and tests killed
// after it returns): it does not sleep once killed. With plain sleep, a
// kill between the caller's test and the sleep was lost until the next
// wakeup on chan (for ever, for a futex nobody wakes).
// signals = false: a pending signal does not end it (only a kill does).
void sleep_killable(const void* chan, SpinLock& lk, bool signals = true);
// Wake every process sleeping on chan. Wake::Sync: the caller sleeps soon
// (a pipe writer that wakes its reader; Linux's WF_SYNC), so a woken process
// may be queued on the caller's hart, behind it (kernel/proc/runqueue.h).
enum class Wake : u8 { Async, Sync };
void wakeup(const void* chan, Wake how = Wake::Async);
// killed: the process is being killed or a signal it does not block is
// pending (either ends a killable wait); dying: only the former.
bool killed(Proc* p);
bool dying(Proc* p);
void set_killed(Proc* p);
// Give up the hart, staying runnable: yield() when preempted (the rest of
// the turn is kept for the next pick), yield_turn() of one's own accord
// (sched_yield, and kernel loops that wait by yielding): the turn is given
// up too, and EEVDF moves an eligible caller behind its peers
// (lib/sched/policy.h Policy::yield).
void yield();
void yield_turn();

// The current process's credentials.
const perm::Cred& current_cred();

// Descriptors and cwd of the current process (kernel/proc/tgroup.cc).
Result<int> fd_install(File* f);  // lowest free descriptor
// The File behind fd; in a process with several threads it stays
// referenced until the system call returns (fd_put_held).
Result<File*> fd_get(int fd);
void fd_put_held(Proc* p);
// The File behind fd with a reference of the caller's own, to fileclose
// (for calls that look up more descriptors than fd_get holds: poll).
Result<File*> fd_ref(int fd);
Result<File*> fd_take(int fd);  // remove fd from the table (close)
Inode* cwd_get();               // a new reference to the cwd (null: none yet)
Inode* cwd_set(Inode* ip);      // install ip (its reference); returns the old one
void tgroup_init();             // build the table (boot, before the first tgroup_alloc)
ThreadGroup* tgroup_alloc();    // a free group, reset; null when none is free
void tgroup_free(ThreadGroup* tg);

// Copy to/from either a user address (current process) or a kernel address.
Status either_copyout(bool user_dst, u64 dst, const void* src, u64 len);
Status either_copyin(void* dst, bool user_src, u64 src, u64 len);

}  // namespace q
