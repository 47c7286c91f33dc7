// kernel/proc/jobctl.h - process groups, sessions and the console's
// foreground group (docs/signals.md "Process groups and job control"; the
// rules are lib/signal/jobs.h's).
#pragma once

#include "kernel/proc/proc.h"
#include "lib/result.h"

namespace q {

// At boot (user_init): the console belongs to init's session and its
// foreground group is init's group.
void tty_init(int sid);
// The console's foreground process group (atomic load: safe anywhere).
int tty_foreground();
// Before a console read by the current process: ok, Killed (SIGTTIN was
// posted to its background group: the read fails with EINTR) or IoError
// (a background reader ignoring or blocking SIGTTIN).
Status tty_read_check();

// Is group pgid orphaned (lib/signal/jobs.h links_group)? Takes
// g_wait_lock; the _locked form is for a caller that holds it.
bool job_group_orphaned(int pgid);
bool job_group_orphaned_locked(int pgid);
// `leader`'s process is ending (end_process, g_wait_lock held, before its
// children go to init): each group its end orphans (its own, its
// children's) that has a stopped member gets SIGHUP, then SIGCONT (POSIX),
// instead of staying stopped with nobody to continue it. A stop takes the
// wait lock too and refuses a tty stop in an orphaned group (job_stop),
// so a member cannot stop just after this looked.
void job_orphans_locked(Proc* leader);

// A job-control or signal call's failure as Linux reports it: EPERM (not
// EACCES, a file's) for Permission, ENOTTY for NotSupported (not the
// console); else the usual errno.
Error job_error(Error e);

SysResult sys_setpgid();
SysResult sys_getpgid();
SysResult sys_setsid();
SysResult sys_getsid();
SysResult sys_tcsetpgrp();
SysResult sys_tcgetpgrp();

}  // namespace q
