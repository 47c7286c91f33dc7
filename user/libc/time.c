/* user/libc/time.c - clocks and sleeping over uptime_ns and sleep(ticks).
 *
 * quanta has no real-time clock: CLOCK_REALTIME, gettimeofday and time()
 * count from boot, like CLOCK_MONOTONIC (SYS_uptime_ns, nanoseconds from
 * the 10 MHz timer, so 100 ns steps). CLOCK_PROCESS_CPUTIME_ID, clock()
 * and times() use the CPU time the kernel counts for the process
 * (SYS_cputime, which includes the current run). nanosleep waits on a
 * futex word of its own stack that nobody wakes, until its end instant
 * (FUTEX_WAIT_UNTIL; SYS_futex deadlines are timer cycles, not 100 ms
 * ticks, kernel/proc/futex.cc), so a sleep of any length ends on time and
 * costs no CPU; a signal's handler ends it with EINTR and the time left
 * in rem (sleep returns the whole seconds left). (It used to sleep whole ticks and wait out the rest
 * yielding the hart: a thread in usleep(1000) was a CPU hog, and a thread
 * queued behind it waited for the slice to end.) */
#define _GNU_SOURCE /* the _COARSE and _RAW clock names */
#include <errno.h>
#include <sched.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "pthread_impl.h"
#include "sys.h"

enum { kNsPerCycle = 100 };

static unsigned long now_ns(void) { return (unsigned long)qsys0(QSYS_uptime_ns); }

static unsigned long cpu_ns(void) { return (unsigned long)qsys0(QSYS_cputime); }

int clock_gettime(clockid_t clk, struct timespec* ts) {
    unsigned long ns;
    if (clk == CLOCK_REALTIME || clk == CLOCK_MONOTONIC || clk == CLOCK_MONOTONIC_RAW || clk == CLOCK_REALTIME_COARSE ||
        clk == CLOCK_MONOTONIC_COARSE) {
        ns = now_ns();
    } else if (clk == CLOCK_PROCESS_CPUTIME_ID || clk == CLOCK_THREAD_CPUTIME_ID) {
        ns = cpu_ns();
    } else {
        errno = EINVAL;
        return -1;
    }
    ts->tv_sec = ns / 1000000000;
    ts->tv_nsec = ns % 1000000000;
    return 0;
}

int clock_getres(clockid_t clk, struct timespec* res) {
    struct timespec ts;
    if (clock_gettime(clk, &ts) < 0) return -1;
    if (res) {
        res->tv_sec = 0;
        res->tv_nsec = kNsPerCycle;
    }
    return 0;
}

int gettimeofday(struct timeval* tv, void* tz) {
    (void)tz;
    const unsigned long ns = now_ns();
    tv->tv_sec = ns / 1000000000;
    tv->tv_usec = ns % 1000000000 / 1000;
    return 0;
}

clock_t times(struct tms* t) {
    const unsigned long cpu = cpu_ns() / (1000000000 / CLOCKS_PER_SEC);
    if (t) {
        t->tms_utime = cpu;
        t->tms_stime = 0;
        t->tms_cutime = 0;
        t->tms_cstime = 0;
    }
    return now_ns() / (1000000000 / CLOCKS_PER_SEC);
}

int nanosleep(const struct timespec* req, struct timespec* rem) {
    if (req->tv_nsec < 0 || req->tv_nsec >= 1000000000 || req->tv_sec < 0) {
        errno = EINVAL;
        return -1;
    }
    const unsigned long end = now_ns() + req->tv_sec * 1000000000ul + req->tv_nsec;
    volatile int word = 0;
    int cut = 0;
    for (unsigned long t; !cut && (t = now_ns()) < end;) {
        /* 0: woken (nobody should), 1 or 2: the word changed or timed out;
         * -1: a signal's handler ran (a timed wait is not restarted after
         * one, docs/signals.md), or killed. */
        cut = q_futex_wait_until(&word, 0, end) < 0;
    }
    const unsigned long t = now_ns();
    if (rem) {
        rem->tv_sec = t < end ? (end - t) / 1000000000 : 0;
        rem->tv_nsec = t < end ? (end - t) % 1000000000 : 0;
    }
    if (!cut) return 0;
    errno = EINTR;
    return -1;
}

int usleep(useconds_t us) {
    const struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
    return nanosleep(&ts, 0);
}

unsigned sleep(unsigned s) {
    const struct timespec ts = {s, 0};
    struct timespec rem = {0, 0};
    nanosleep(&ts, &rem);
    return rem.tv_sec + (rem.tv_nsec >= 500000000); /* rounded, as glibc's */
}

int sched_yield(void) { return qsys_fail(qsys0(QSYS_sched_yield)); }
