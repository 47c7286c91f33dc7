/* user/libc/pthread_impl.h - what the POSIX thread files share: futex calls,
 * the thread descriptor, the holder id of locks, and deadlines.
 *
 * A thread's id for lock ownership is its tp (every thread has its own TLS
 * block, the main thread's included, so tp is unique among live threads and
 * costs one register read). */
#ifndef QUANTA_LIBC_PTHREAD_IMPL_H
#define QUANTA_LIBC_PTHREAD_IMPL_H

#include <pthread.h>
#include <time.h>

#include "sys.h"

enum { Q_FUTEX_WAIT = 0, Q_FUTEX_WAKE = 1, Q_FUTEX_WAIT_UNTIL = 2, Q_FUTEX_MISMATCH = 1, Q_FUTEX_TIMEDOUT = 2 };

/* Sleep while *addr == val, at most timeout_ns (0: no limit). 0 woken (or
 * spuriously), Q_FUTEX_MISMATCH, Q_FUTEX_TIMEDOUT, or -1. */
static inline int q_futex_wait(volatile void* addr, int val, unsigned long timeout_ns) {
    return (int)__qsys6(QSYS_futex, (long)addr, Q_FUTEX_WAIT, val, (long)timeout_ns, 0, 0);
}

/* The same until uptime_ns reads at_ns (0: no limit): a preemption before
 * the call does not move the deadline, as a span computed before it would. */
static inline int q_futex_wait_until(volatile void* addr, int val, unsigned long at_ns) {
    return (int)__qsys6(QSYS_futex, (long)addr, Q_FUTEX_WAIT_UNTIL, val, (long)at_ns, 0, 0);
}

static inline int q_futex_wake(volatile void* addr, int n) {
    return (int)__qsys6(QSYS_futex, (long)addr, Q_FUTEX_WAKE, n, 0, 0, 0);
}

static inline long q_tp(void) {
    long tp;
    __asm__ volatile("mv %0, tp" : "=r"(tp));
    return tp;
}

/* abstime as an instant of uptime_ns (the clock of CLOCK_REALTIME and
 * CLOCK_MONOTONIC, the clocks a timed wait takes), at least 1; 0 when it
 * has passed; -1 when abstime is not a valid time (EINVAL). */
long __qdeadline_ns(clockid_t clock, const struct timespec* abstime);

/* A futex wait until abstime (NULL: no limit): 0 woken or mismatch, or
 * ETIMEDOUT, or EINVAL for a bad abstime. */
int __qwait_until(volatile void* addr, int val, clockid_t clock, const struct timespec* abstime);

/* The internal lock of the thread table and of libc's own locks. */
void __qlock(volatile int* word);
void __qunlock(volatile int* word);

#endif
