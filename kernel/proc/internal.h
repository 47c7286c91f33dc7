// kernel/proc/internal.h - process functions shared inside the kernel.
//
// The system-call layer, trap handling and boot use these; user-visible
// behaviour is documented at each system call in kernel/proc/sysproc.cc.
#pragma once

#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/proc.h"
#include "kernel/trap.h"

namespace q {

extern Proc g_procs[param::kMaxProcs];
extern ThreadGroup (&g_tgroups)[param::kMaxProcs];  // kernel/proc/tgroup.cc
extern SpinLock g_wait_lock;
extern Proc* g_init_proc;

// p's CPU time in timer cycles, its current run included (p runs on this
// hart with interrupts off: a preemption between the two reads would
// charge the run and move running_since, counting it twice).
inline u64 cpu_cycles_now(const Proc* p) { return p->stat_cpu + (now_cycles() - p->running_since); }

void proc_init();
void proc_map_stacks(PageTable kpt);
void user_init();
int alloc_pid();
// A user page table with only the trampoline and p's trapframe mapped
// (null when out of memory), and its inverse for a table of size sz (with
// whatever trapframes are still mapped in it). tables_end: the end of the
// user range its page-table pages may cover beyond sz (ThreadGroup::table_top
// and ::map_top).
PageTable proc_pagetable(Proc* p);
void proc_free_pagetable(PageTable pt, u64 sz, u64 tables_end = 0);
// Map / unmap p's trapframe at its slot's address in a user table.
Status map_trapframe(PageTable pt, const Proc* p);
void unmap_trapframe(PageTable pt, const Proc* p);
// A locked Embryo slot with a fresh trapframe and no process yet.
// The caller runs as `as` with RLIMIT_NPROC `nproc` (lib/rlimit.h).
Result<Proc*> alloc_slot(const perm::Cred& as, const rlimit::Limit& nproc);
// Back to Unused (caller holds p->lock; the slot's own resources only).
void clear_slot(Proc* p);
// Give leader's children to init (caller holds g_wait_lock).
void reparent(Proc* leader);
// Set p->killed and wake or interrupt it (caller holds p->lock).
void kill_locked(Proc* p);
// Make p runnable if it sleeps on chan (wakeup() for one known sleeper).
void wakeup_proc(Proc* p, const void* chan);
[[noreturn]] void scheduler();
// Switch from the current process to this hart's scheduler (xv6's
// sched()). Caller holds exactly p->lock and has already changed p->state;
// returns, once p is picked again, holding p->lock (the scheduler's
// acquisition: the hand-off rule in kernel/proc/sched.cc).
void sched_switch();
extern "C" void forkret();
// Mark p runnable now and queue it (caller holds p->lock; sync: see wakeup).
void make_runnable(Proc* p, bool sync = false);
Result<u64> grow_proc(i64 n);  // sbrk: -> the old size
Result<int> fork();
// End the whole process (every thread) with status.
[[noreturn]] void exit(int status);
// End the calling thread; the last one ends the process (kernel/proc/thread.cc).
[[noreturn]] void end_thread(int status);
Result<int> wait(UserAddr status_addr);
// waitpid(pid, status, options) (Linux's); xv6 = true: xv6's wait.
Result<int> wait_child(int pid, UserAddr status_addr, int options, bool xv6);
// kill on behalf of `as` (a user's kill: lib/fs/perm.h's rule), or of the
// kernel itself (as == null: the out-of-memory killer). Kills every thread.
Status kill(int pid, const perm::Cred* as = nullptr);
Proc* proc_by_tid(int tid);  // caller holds no locks; result may change

// Threads (kernel/proc/thread.cc).
struct ThreadStart {
    u64 entry, arg, stack, tls;
    u64 tidp;  // user address of the creator's tid word, 0: none
};
Result<int> thread_create(const ThreadStart& start);
// exec: end every other thread of p's process and wait until they are
// gone; p then leads it. Killed if the process is being killed or ended.
Status end_other_threads(Proc* p);

SysResult sys_tcreate();
SysResult sys_gettid();
SysResult sys_texit();

}  // namespace q
