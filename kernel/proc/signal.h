// kernel/proc/signal.h - POSIX signals (docs/signals.md): sending, the
// return-to-user delivery, sigreturn, and the fault signals.
//
// Pending bits live in the thread (thread-directed: faults) and in its
// ThreadGroup (process-directed: sigsend); the blocked mask is the
// thread's. A send never takes a group lock (atomic or on the bits, then
// the target's Proc lock to wake it), so it may run under any Proc lock.
// The rules (defaults, order, masks) are lib/signal/rules.h's.
#pragma once

#include "kernel/proc/proc.h"
#include "lib/fs/perm.h"
#include "lib/result.h"

namespace q {

// At boot, before the first process: the signal trampoline's page.
void sigtramp_init();
// Map the trampoline page user-executable in a new page table.
Status map_sigtramp(PageTable pt);
// Would a pending signal interrupt p's killable sleep (or its call)?
bool sig_interrupts(const Proc* p);
// Send sig to every thread group with this pid (as: the sender's
// credentials, null for the kernel). sig 0 only checks.
Status sig_send(int pid, int sig, const perm::Cred* as);
// Send sig to every process of group pgid but init (as: the sender's
// credentials, null for the kernel: the console's ^C, safe in an interrupt
// handler as it takes only Proc locks). Returns how many threads it was
// posted to (those ignoring it do not count); NoProcess for an empty
// group, Permission if `as` may signal none of it.
Result<int> sig_send_group(int pgid, int sig, const perm::Cred* as);
// A write by p found a pipe with no reader (-1 EPIPE): SIGPIPE for the
// writing thread if its program set SIGPIPE's action itself (a handler, or
// SIG_DFL, which then ends it); a program that never did (every xv6
// program) only gets -1 EPIPE, as xv6's usertests expect.
void sig_broken_pipe(Proc* p);
// From the kernel to p's process (caller holds p->lock; an interrupt
// handler may: the alarm's SIGALRM).
void sig_post_locked(Proc* p, int sig);
// A fault in user mode: if p has a handler for sig that it does not block,
// queue sig for p with the faulting address and return true; false means
// the caller kills as before.
bool sig_fault(Proc* p, int sig, u64 addr);
// ... and when it returned false: kill p, and let waitpid say sig ended it
// (WTERMSIG SIGSEGV, as Linux's; xv6's wait still sees -1).
void sig_fault_kill(Proc* p, int sig);
// On the way back to user mode (usertrap_return, interrupts on): take the
// next deliverable signal, if any: its default action (may not return) or
// a frame for its handler on the user stack.
// Also stops p while its process is stopped (SIGSTOP and
// the other stop signals, kernel/proc/jobstop.cc).
void sig_deliver(Proc* p);
// Must usertrap_return call sig_deliver: a signal to take, a stop to
// join, or a call that failed with EINTR (it runs again if no handler
// runs: the signal that interrupted it may be gone).
bool sig_needs_delivery(Proc* p);
// fork (child's group and first thread from the parent's) and exec
// (handlers back to default; ignored ones stay ignored).
void sig_fork(const Proc* parent, Proc* child);
void sig_exec(Proc* p);

SysResult sys_sigsend();
SysResult sys_sigact();
SysResult sys_sigmask();
SysResult sys_sigreturn();
SysResult sys_sigpend();
SysResult sys_sigsusp();
SysResult sys_sigaltstack();
// Child process `child` ended, stopped or continued (kernel/proc/thread.cc,
// jobstop.cc; wait lock held): SIGCHLD to its parent (dropped unless the
// parent has a handler), with child as siginfo's pid.
void sig_child_exited(const Proc* parent, int child);

}  // namespace q
