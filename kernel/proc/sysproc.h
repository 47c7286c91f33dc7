// kernel/proc/sysproc.h - process-related system-call handlers.
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

SysResult sys_fork();
SysResult sys_exit();
SysResult sys_wait();
SysResult sys_waitpid();
SysResult sys_kill();
SysResult sys_getpid();
SysResult sys_sbrk();
SysResult sys_sleep();
SysResult sys_uptime();
SysResult sys_getpriority();
SysResult sys_setpriority();
SysResult sys_sched_get();
SysResult sys_sched_set();
SysResult sys_uptime_ns();
SysResult sys_procinfo();
SysResult sys_mlfqlevel();
SysResult sys_sched_setrequest();
SysResult sys_sched_getrequest();
SysResult sys_cputime();
SysResult sys_times();        // kernel/proc/syslibc.cc
SysResult sys_sched_yield();  // kernel/proc/syslibc.cc
SysResult sys_freepages();
SysResult sys_halt();
SysResult sys_setaffinity();
SysResult sys_getaffinity();
SysResult sys_getuid();
SysResult sys_geteuid();
SysResult sys_setuid();
SysResult sys_getgid();
SysResult sys_getegid();
SysResult sys_setgid();
SysResult sys_getrlimit();  // kernel/proc/rlimit.cc
SysResult sys_setrlimit();

}  // namespace q
