/* user/threadtest.h - what the parts of threadtest share (user/threadtest.c:
 * the driver, helpers, thread and futex tests; user/threadtest_proc.c: the
 * process-level tests). FAIL, CHECK, cur and kFailStatus are usertests'. */
#ifndef QUANTA_THREADTEST_H
#define QUANTA_THREADTEST_H

#include "user/usertests.h"

enum { kMaxThreads = 32 /* param::kMaxThreadsPerProc */ };

extern volatile int counter; /* threads add to it and wake it */
extern volatile int gate;    /* threads wait here until the test opens it */
void open_gate(void);
void wait_gate(void);
void wait_for(volatile int* w, int want); /* until *w == want, by futex */
void add_and_wake(volatile int* w, int n);
int my_threads(void); /* live threads of this process (procinfo) */
/* Thread bodies: add arg to counter; park at the gate; spin; sleep forever. */
void t_incr(void* arg);
void t_park(void* arg);
void t_spin(void* arg);
void t_nap(void* arg);
void start_stuck(int n); /* n of each of park, spin, nap, all running */

/* user/threadtest_proc.c */
void test_texit(void);
void test_exit_all(void);
void test_exit_from_thread(void);
void test_kill(void);
void test_exec(void);
void test_fork_wait(void);
void test_sbrk_shared(void);
void test_files_shared(void);
void test_fd_race(void);
void test_sched_per_thread(void);
void test_creds(void);
void test_oom_spares_own_threads(void);
void test_ps_renice_taskset(void);

#endif
