// kernel/proc/jobstop.h - stop and continue (docs/signals.md "Stop and
// continue"; kernel/proc/jobstop.cc says how a process stops).
#pragma once

#include "kernel/proc/proc.h"
#include "lib/fs/perm.h"

namespace q {

// ThreadGroup::wait_report: what the parent's waitpid has not heard yet.
enum : u8 { kReportNone = 0, kReportStopped = 1, kReportContinued = 2 };

// SIGCONTs sent to p's process so far (read before taking a signal).
u32 job_cont_gen(const Proc* p);
// Is p's process stopped? (atomic: usertrap_return asks on every return)
bool job_stopped(const Proc* p);
// p took stop signal s (no handler) with the SIGCONT count at gen: stop
// the process and wait until continued. Exits if killed meanwhile.
void job_stop(Proc* p, int s, u32 gen);
// Wait while p's process is stopped (a sibling of the thread that stopped it).
void job_stop_wait(Proc* p);
// SIGCONT's effect, at the send: every process with this pid (pid > 0) or
// in group pgid that `as` may signal (null: the kernel) continues, and
// its pending stop signals are dropped. Returns whether there was one.
bool job_continue_matching(int pid, int pgid, const perm::Cred* as);
// An orphaned group with a stopped member (job_orphans_locked; caller
// holds g_wait_lock, no Proc lock): SIGHUP to each member, then SIGCONT's
// effect and the signal itself.
void job_hangup_locked(int pgid);

}  // namespace q
