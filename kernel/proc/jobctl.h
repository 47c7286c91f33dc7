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

// A job-control or signal call's failure as Linux reports it: EPERM (not
// EACCES, a file's) for Permission, ENOTTY for NotSupported (not the
// console); else the usual errno.
i64 job_fail(Error e);

i64 sys_setpgid();
i64 sys_getpgid();
i64 sys_setsid();
i64 sys_getsid();
i64 sys_tcsetpgrp();
i64 sys_tcgetpgrp();

}  // namespace q
