/* user/libc/pmutex.c - POSIX mutexes, condition variables and spin locks on
 * the futex.
 *
 * A mutex is Drepper's three-state futex mutex ("Futexes are tricky",
 * mutex 3): __lock is 0 free, 1 held, 2 held with (maybe) sleepers. lock
 * is one compare-and-swap 0 -> 1 when free; otherwise it swaps in 2 and
 * sleeps on the word while it is 2. unlock subtracts 1: from 1 (nobody
 * waits) that is all; from 2 it stores 0 and wakes one sleeper. So an
 * uncontended lock and unlock make no system call, and a contended unlock
 * makes one wake. The normal type checks nothing (POSIX leaves misuse
 * undefined); recursive and error-checking mutexes also record the holder
 * (its tp, pthread_impl.h) and a count.
 *
 * A condition variable is a sequence number and a count of waiters. wait
 * reads the number, unlocks, sleeps while the number is unchanged and
 * locks again; signal and broadcast bump the number and wake one or all
 * sleepers, with no system call when nobody waits. A waiter counts itself
 * before it reads the number and a signaller bumps the number before it
 * reads the count (both sequentially consistent), so a waiter is either
 * counted or sees the new number: no wake-up is lost. Wake-ups may be
 * spurious, as POSIX allows; callers re-check their predicate. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>

#include "pthread_impl.h"

static inline int cas(volatile int* p, int old, int new_value) {
    return __atomic_compare_exchange_n(p, &old, new_value, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* The slow path of a lock: swap in 2, sleep while it stays 2. Kept out of
 * line so that the fast path needs no stack frame (pthread_mutex_lock's
 * uncontended path is 11 instructions, unlock's 10). */
__attribute__((noinline)) static int lock_wait(volatile int* w, clockid_t clock, const struct timespec* abstime) {
    while (__atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE) != 0) {
        const int r = __qwait_until(w, 2, clock, abstime);
        if (r) return r;
    }
    return 0;
}

static inline int raw_lock(volatile int* w, const struct timespec* abstime) {
    if (cas(w, 0, 1)) return 0;
    return lock_wait(w, CLOCK_REALTIME, abstime);
}

__attribute__((noinline)) static void unlock_wake(volatile int* w) {
    __atomic_store_n(w, 0, __ATOMIC_RELEASE);
    q_futex_wake(w, 1);
}

static inline void raw_unlock(volatile int* w) {
    if (__atomic_fetch_sub(w, 1, __ATOMIC_RELEASE) != 1) unlock_wake(w);
}

void __qlock(volatile int* w) { raw_lock(w, 0); }
void __qunlock(volatile int* w) { raw_unlock(w); }

long __qdeadline_ns(clockid_t clock, const struct timespec* abstime) {
    if (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L) return -1;
    struct timespec now;
    clock_gettime(clock, &now);
    if (abstime->tv_sec < now.tv_sec || (abstime->tv_sec == now.tv_sec && abstime->tv_nsec <= now.tv_nsec)) return 0;
    if (abstime->tv_sec >= 9000000000L) return 9000000000L * 1000000000L; /* about 285 years: never */
    return abstime->tv_sec * 1000000000L + abstime->tv_nsec;
}

int __qwait_until(volatile void* addr, int val, clockid_t clock, const struct timespec* abstime) {
    long at = 0;
    if (abstime) {
        at = __qdeadline_ns(clock, abstime);
        if (at < 0) return EINVAL;
        if (at == 0) return ETIMEDOUT;
    }
    return q_futex_wait_until(addr, val, (unsigned long)at) == Q_FUTEX_TIMEDOUT ? ETIMEDOUT : 0;
}

/* --- mutexes ----------------------------------------------------------- */

int pthread_mutexattr_init(pthread_mutexattr_t* a) {
    a->__type = PTHREAD_MUTEX_DEFAULT;
    return 0;
}
int pthread_mutexattr_destroy(pthread_mutexattr_t* a) {
    (void)a;
    return 0;
}
int pthread_mutexattr_settype(pthread_mutexattr_t* a, int type) {
    if (type < PTHREAD_MUTEX_NORMAL || type > PTHREAD_MUTEX_ERRORCHECK) return EINVAL;
    a->__type = type;
    return 0;
}
int pthread_mutexattr_gettype(const pthread_mutexattr_t* a, int* type) {
    *type = a->__type;
    return 0;
}
int pthread_mutexattr_setpshared(pthread_mutexattr_t* a, int pshared) {
    (void)a;
    if (pshared == PTHREAD_PROCESS_PRIVATE) return 0;
    return pshared == PTHREAD_PROCESS_SHARED ? ENOTSUP : EINVAL;
}

int pthread_mutex_init(pthread_mutex_t* m, const pthread_mutexattr_t* a) {
    m->__lock = 0;
    m->__type = a ? a->__type : PTHREAD_MUTEX_DEFAULT;
    m->__owner = 0;
    m->__count = 0;
    return 0;
}

int pthread_mutex_destroy(pthread_mutex_t* m) { return m->__lock ? EBUSY : 0; }

/* Recursive and error-checking mutexes: the holder's second lock. */
static int relock(pthread_mutex_t* m) {
    if (m->__type == PTHREAD_MUTEX_ERRORCHECK) return EDEADLK;
    if (m->__count == INT_MAX) return EAGAIN;
    m->__count++;
    return 0;
}

__attribute__((noinline)) static int typed_lock(pthread_mutex_t* m, int try_only, const struct timespec* abstime) {
    const long me = q_tp();
    if (m->__owner == me) return relock(m);
    if (!cas(&m->__lock, 0, 1)) {
        if (try_only) return EBUSY;
        const int r = lock_wait(&m->__lock, CLOCK_REALTIME, abstime);
        if (r) return r;
    }
    m->__owner = me;
    m->__count = 1;
    return 0;
}

int pthread_mutex_lock(pthread_mutex_t* m) {
    if (__builtin_expect(m->__type == PTHREAD_MUTEX_NORMAL, 1)) {
        if (__builtin_expect(cas(&m->__lock, 0, 1), 1)) return 0;
        return lock_wait(&m->__lock, CLOCK_REALTIME, 0);
    }
    return typed_lock(m, 0, 0);
}

int pthread_mutex_trylock(pthread_mutex_t* m) {
    if (m->__type == PTHREAD_MUTEX_NORMAL) return cas(&m->__lock, 0, 1) ? 0 : EBUSY;
    return typed_lock(m, 1, 0);
}

int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* abstime) {
    if (m->__type == PTHREAD_MUTEX_NORMAL) {
        if (cas(&m->__lock, 0, 1)) return 0;
        return lock_wait(&m->__lock, CLOCK_REALTIME, abstime);
    }
    return typed_lock(m, 0, abstime);
}

int pthread_mutex_unlock(pthread_mutex_t* m) {
    if (__builtin_expect(m->__type != PTHREAD_MUTEX_NORMAL, 0)) {
        if (m->__owner != q_tp()) return EPERM;
        if (--m->__count > 0) return 0;
        m->__owner = 0;
    }
    raw_unlock(&m->__lock);
    return 0;
}

/* --- condition variables ----------------------------------------------- */

int pthread_condattr_init(pthread_condattr_t* a) {
    a->__clock = CLOCK_REALTIME;
    return 0;
}
int pthread_condattr_destroy(pthread_condattr_t* a) {
    (void)a;
    return 0;
}
int pthread_condattr_setclock(pthread_condattr_t* a, clockid_t clock) {
    if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC) return EINVAL;
    a->__clock = clock;
    return 0;
}
int pthread_condattr_getclock(const pthread_condattr_t* a, clockid_t* clock) {
    *clock = a->__clock;
    return 0;
}

int pthread_cond_init(pthread_cond_t* c, const pthread_condattr_t* a) {
    c->__seq = 0;
    c->__waiters = 0;
    c->__clock = a ? a->__clock : (int)CLOCK_REALTIME;
    return 0;
}

int pthread_cond_destroy(pthread_cond_t* c) { return __atomic_load_n(&c->__waiters, __ATOMIC_SEQ_CST) ? EBUSY : 0; }

int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m, const struct timespec* abstime) {
    if (m->__type != PTHREAD_MUTEX_NORMAL && m->__owner != q_tp()) return EPERM;
    if (abstime && (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L)) return EINVAL;
    __atomic_fetch_add(&c->__waiters, 1, __ATOMIC_SEQ_CST);
    const int seq = (int)__atomic_load_n(&c->__seq, __ATOMIC_SEQ_CST);
    const int count = m->__count; /* a recursive mutex is released whole */
    if (m->__type != PTHREAD_MUTEX_NORMAL) m->__count = 1;
    pthread_mutex_unlock(m);
    const int r = __qwait_until(&c->__seq, seq, c->__clock, abstime);
    __atomic_fetch_sub(&c->__waiters, 1, __ATOMIC_SEQ_CST);
    /* Take the mutex as a contended one: others woken with us may wait. */
    lock_wait(&m->__lock, CLOCK_REALTIME, 0);
    if (m->__type != PTHREAD_MUTEX_NORMAL) {
        m->__owner = q_tp();
        m->__count = count;
    }
    return r;
}

int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) { return pthread_cond_timedwait(c, m, 0); }

static int cond_wake(pthread_cond_t* c, int n) {
    __atomic_fetch_add(&c->__seq, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&c->__waiters, __ATOMIC_SEQ_CST)) q_futex_wake(&c->__seq, n);
    return 0;
}

int pthread_cond_signal(pthread_cond_t* c) { return cond_wake(c, 1); }
int pthread_cond_broadcast(pthread_cond_t* c) { return cond_wake(c, INT_MAX); }

/* --- spin locks (test-and-test-and-set; OSTEP's spin lock) --------------- */

int pthread_spin_init(pthread_spinlock_t* s, int pshared) {
    (void)pshared;
    *s = 0;
    return 0;
}
int pthread_spin_destroy(pthread_spinlock_t* s) { return *s ? EBUSY : 0; }
int pthread_spin_lock(pthread_spinlock_t* s) {
    while (__atomic_exchange_n(s, 1, __ATOMIC_ACQUIRE)) {
        while (__atomic_load_n(s, __ATOMIC_RELAXED)) {}
    }
    return 0;
}
int pthread_spin_trylock(pthread_spinlock_t* s) { return __atomic_exchange_n(s, 1, __ATOMIC_ACQUIRE) ? EBUSY : 0; }
int pthread_spin_unlock(pthread_spinlock_t* s) {
    __atomic_store_n(s, 0, __ATOMIC_RELEASE);
    return 0;
}
