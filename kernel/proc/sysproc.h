// kernel/proc/sysproc.h - process-related system-call handlers.
#pragma once

#include "lib/types.h"

namespace q {

i64 sys_fork();
i64 sys_exit();
i64 sys_wait();
i64 sys_waitpid();
i64 sys_kill();
i64 sys_getpid();
i64 sys_sbrk();
i64 sys_sleep();
i64 sys_uptime();
i64 sys_getpriority();
i64 sys_setpriority();
i64 sys_sched_get();
i64 sys_sched_set();
i64 sys_uptime_ns();
i64 sys_procinfo();
i64 sys_mlfqlevel();
i64 sys_sched_setrequest();
i64 sys_sched_getrequest();
i64 sys_cputime();      // kernel/proc/syslibc.cc
i64 sys_sched_yield();  // kernel/proc/syslibc.cc
i64 sys_freepages();
i64 sys_halt();
i64 sys_setaffinity();
i64 sys_getaffinity();
i64 sys_getuid();
i64 sys_geteuid();
i64 sys_setuid();
i64 sys_getgid();
i64 sys_getegid();
i64 sys_setgid();
i64 sys_getrlimit();  // kernel/proc/rlimit.cc
i64 sys_setrlimit();

}  // namespace q
