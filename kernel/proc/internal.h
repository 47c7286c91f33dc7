// kernel/proc/internal.h - process functions shared inside the kernel.
//
// The system-call layer, trap handling and boot use these; user-visible
// behaviour is documented at each system call in kernel/proc/sysproc.cc.
#pragma once

#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/proc.h"

namespace q {

extern Proc g_procs[param::kMaxProcs];
extern SpinLock g_wait_lock;
extern Proc* g_init_proc;

void proc_init();
void proc_map_stacks(PageTable kpt);
void user_init();
// A user page table with only the trampoline and p's trapframe mapped
// (null when out of memory), and its inverse for a table of size sz.
PageTable proc_pagetable(Proc* p);
void proc_free_pagetable(PageTable pt, u64 sz);
[[noreturn]] void scheduler();
// Switch from the current process to this hart's scheduler. Caller holds
// exactly p->lock and has already changed p->state.
void sched_switch();
extern "C" void forkret();
// Mark p runnable now and queue it (caller holds p->lock).
void make_runnable(Proc* p);
Result<u64> grow_proc(i64 n);
Result<int> fork();
[[noreturn]] void exit(int status);
Result<int> wait(UserAddr status_addr);
// kill on behalf of `as` (a user's kill: lib/fs/perm.h's rule), or of the
// kernel itself (as == null: the out-of-memory killer).
Status kill(int pid, const perm::Cred* as = nullptr);
Proc* proc_by_pid(int pid);  // caller holds no locks; result may change
Result<int> exec(const char* path, char* const argv[]);

// Clock (kernel/trap.cc).
extern u64 g_ticks;
extern SpinLock g_ticks_lock;
u64 now_cycles();
// Give the process being dispatched a full slice (re-arms this hart's timer).
void timer_new_slice();

}  // namespace q
