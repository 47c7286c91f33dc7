/* tests/libc/ostep/common.h - what OSTEP's concurrency programs share: a
 * clock and checked pthread calls (OSTEP's mythreads.h), in plain POSIX. */
#ifndef OSTEP_COMMON_H
#define OSTEP_COMMON_H

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now_sec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define Pthread_create(t, a, f, arg) assert(pthread_create(t, a, f, arg) == 0)
#define Pthread_join(t, v) assert(pthread_join(t, v) == 0)
#define Pthread_mutex_lock(m) assert(pthread_mutex_lock(m) == 0)
#define Pthread_mutex_unlock(m) assert(pthread_mutex_unlock(m) == 0)
#define Pthread_cond_wait(c, m) assert(pthread_cond_wait(c, m) == 0)
#define Pthread_cond_signal(c) assert(pthread_cond_signal(c) == 0)

#endif
