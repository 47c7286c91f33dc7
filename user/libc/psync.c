/* user/libc/psync.c - POSIX read-write locks and barriers, built from the
 * futex mutex and condition variable (pmutex.c).
 *
 * A read-write lock prefers writers: a reader waits while a writer holds
 * the lock or waits for it, so a stream of readers cannot starve a writer.
 * Its state (readers holding it, a writer holding it, writers waiting) is
 * guarded by its own mutex; readers and writers sleep on separate
 * condition variables. A writer that locks again, or a thread that
 * unlocks a lock it does not hold, gets EDEADLK or EPERM.
 *
 * A barrier counts arrivals in the current phase; the last to arrive
 * starts the next phase, wakes the others and returns
 * PTHREAD_BARRIER_SERIAL_THREAD; the others wait until the phase changes
 * (so a barrier can be reused at once). */
#include <errno.h>
#include <pthread.h>

#include "pthread_impl.h"

int pthread_rwlockattr_init(pthread_rwlockattr_t* a) {
    a->__pshared = 0;
    return 0;
}
int pthread_rwlockattr_destroy(pthread_rwlockattr_t* a) {
    (void)a;
    return 0;
}

int pthread_rwlock_init(pthread_rwlock_t* rw, const pthread_rwlockattr_t* a) {
    (void)a;
    pthread_mutex_init(&rw->__m, 0);
    pthread_cond_init(&rw->__readers_go, 0);
    pthread_cond_init(&rw->__writer_go, 0);
    rw->__readers = rw->__writer = rw->__writers_waiting = 0;
    rw->__writer_tp = 0;
    return 0;
}

int pthread_rwlock_destroy(pthread_rwlock_t* rw) {
    pthread_mutex_lock(&rw->__m);
    const int busy = rw->__readers || rw->__writer || rw->__writers_waiting;
    pthread_mutex_unlock(&rw->__m);
    return busy ? EBUSY : 0;
}

static int rdlock(pthread_rwlock_t* rw, int try_only) {
    int err = 0;
    pthread_mutex_lock(&rw->__m);
    if (rw->__writer && rw->__writer_tp == q_tp()) {
        err = EDEADLK;
    } else if (try_only) {
        if (rw->__writer || rw->__writers_waiting) err = EBUSY;
    } else {
        while (rw->__writer || rw->__writers_waiting) pthread_cond_wait(&rw->__readers_go, &rw->__m);
    }
    if (!err) rw->__readers++;
    pthread_mutex_unlock(&rw->__m);
    return err;
}

static int wrlock(pthread_rwlock_t* rw, int try_only) {
    int err = 0;
    pthread_mutex_lock(&rw->__m);
    if (rw->__writer && rw->__writer_tp == q_tp()) {
        err = EDEADLK;
    } else if (try_only) {
        if (rw->__writer || rw->__readers) err = EBUSY;
    } else {
        rw->__writers_waiting++;
        while (rw->__writer || rw->__readers) pthread_cond_wait(&rw->__writer_go, &rw->__m);
        rw->__writers_waiting--;
    }
    if (!err) {
        rw->__writer = 1;
        rw->__writer_tp = q_tp();
    }
    pthread_mutex_unlock(&rw->__m);
    return err;
}

int pthread_rwlock_rdlock(pthread_rwlock_t* rw) { return rdlock(rw, 0); }
int pthread_rwlock_tryrdlock(pthread_rwlock_t* rw) { return rdlock(rw, 1); }
int pthread_rwlock_wrlock(pthread_rwlock_t* rw) { return wrlock(rw, 0); }
int pthread_rwlock_trywrlock(pthread_rwlock_t* rw) { return wrlock(rw, 1); }

int pthread_rwlock_unlock(pthread_rwlock_t* rw) {
    int err = 0;
    pthread_mutex_lock(&rw->__m);
    if (rw->__writer) {
        if (rw->__writer_tp != q_tp()) {
            err = EPERM;
        } else {
            rw->__writer = 0;
            rw->__writer_tp = 0;
        }
    } else if (rw->__readers > 0) {
        rw->__readers--;
    } else {
        err = EPERM;
    }
    if (!err && !rw->__writer && rw->__readers == 0) {
        if (rw->__writers_waiting) {
            pthread_cond_signal(&rw->__writer_go);
        } else {
            pthread_cond_broadcast(&rw->__readers_go);
        }
    }
    pthread_mutex_unlock(&rw->__m);
    return err;
}

/* --- barriers ------------------------------------------------------------ */

int pthread_barrierattr_init(pthread_barrierattr_t* a) {
    a->__pshared = 0;
    return 0;
}
int pthread_barrierattr_destroy(pthread_barrierattr_t* a) {
    (void)a;
    return 0;
}

int pthread_barrier_init(pthread_barrier_t* b, const pthread_barrierattr_t* a, unsigned count) {
    (void)a;
    if (count == 0) return EINVAL;
    pthread_mutex_init(&b->__m, 0);
    pthread_cond_init(&b->__cv, 0);
    b->__count = count;
    b->__arrived = 0;
    b->__phase = 0;
    return 0;
}

int pthread_barrier_destroy(pthread_barrier_t* b) {
    pthread_mutex_lock(&b->__m);
    const int busy = b->__arrived != 0;
    pthread_mutex_unlock(&b->__m);
    return busy ? EBUSY : 0;
}

int pthread_barrier_wait(pthread_barrier_t* b) {
    pthread_mutex_lock(&b->__m);
    const unsigned phase = b->__phase;
    if (++b->__arrived == b->__count) {
        b->__arrived = 0;
        b->__phase++;
        pthread_cond_broadcast(&b->__cv);
        pthread_mutex_unlock(&b->__m);
        return PTHREAD_BARRIER_SERIAL_THREAD;
    }
    while (b->__phase == phase) pthread_cond_wait(&b->__cv, &b->__m);
    pthread_mutex_unlock(&b->__m);
    return 0;
}
