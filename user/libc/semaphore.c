/* user/libc/semaphore.c - POSIX unnamed semaphores on the futex.
 *
 * __value is the count and the futex word; __waiters counts threads that
 * may be asleep on it. wait takes a unit with a compare-and-swap when the
 * count is positive; otherwise it counts itself and sleeps while the count
 * is 0. post adds a unit and wakes one sleeper only if some thread is
 * counted, so an uncontended post makes no system call. A waiter counts
 * itself before it reads the count and a poster adds before it reads the
 * waiters (sequentially consistent), and the kernel re-checks the word
 * before sleeping, so no post is lost. */
#include <errno.h>
#include <semaphore.h>

#include "pthread_impl.h"

int sem_init(sem_t* s, int pshared, unsigned value) {
    if (value > SEM_VALUE_MAX) {
        errno = EINVAL;
        return -1;
    }
    if (pshared) {
        errno = ENOSYS; /* no memory is shared between processes */
        return -1;
    }
    s->__value = (int)value;
    s->__waiters = 0;
    return 0;
}

int sem_destroy(sem_t* s) {
    if (__atomic_load_n(&s->__waiters, __ATOMIC_SEQ_CST)) {
        errno = EBUSY;
        return -1;
    }
    return 0;
}

static int take(sem_t* s) {
    int v = __atomic_load_n(&s->__value, __ATOMIC_RELAXED);
    while (v > 0) {
        if (__atomic_compare_exchange_n(&s->__value, &v, v - 1, 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return 1;
    }
    return 0;
}

int sem_trywait(sem_t* s) {
    if (take(s)) return 0;
    errno = EAGAIN;
    return -1;
}

int sem_timedwait(sem_t* s, const struct timespec* abstime) {
    if (take(s)) return 0;
    if (abstime && (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L)) {
        errno = EINVAL;
        return -1;
    }
    __atomic_fetch_add(&s->__waiters, 1, __ATOMIC_SEQ_CST);
    int err = 0;
    while (!take(s)) {
        if (__atomic_load_n(&s->__value, __ATOMIC_SEQ_CST) > 0) continue;
        err = __qwait_until(&s->__value, 0, CLOCK_REALTIME, abstime);
        if (err) break;
    }
    __atomic_fetch_sub(&s->__waiters, 1, __ATOMIC_SEQ_CST);
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}

int sem_wait(sem_t* s) { return sem_timedwait(s, 0); }

int sem_post(sem_t* s) {
    int v = __atomic_load_n(&s->__value, __ATOMIC_RELAXED);
    do {
        if (v == SEM_VALUE_MAX) {
            errno = EOVERFLOW;
            return -1;
        }
    } while (!__atomic_compare_exchange_n(&s->__value, &v, v + 1, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    if (__atomic_load_n(&s->__waiters, __ATOMIC_SEQ_CST)) q_futex_wake(&s->__value, 1);
    return 0;
}

int sem_getvalue(sem_t* s, int* value) {
    *value = __atomic_load_n(&s->__value, __ATOMIC_SEQ_CST);
    return 0;
}
