/* tests/libc/pthreads.c - every POSIX thread call, its error cases, and
 * stresses whose counts must come out exact (tests/guest/pthread_tests.py).
 *
 *   pthreads [TEST...]     run the named tests (all without arguments);
 *                          each prints "PASS name" or "FAIL name: why"
 *
 * Plain POSIX C, built by qcc -pthread; nothing here is quanta-specific
 * but the limit of PTHREAD_THREADS_MAX threads per process. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char* current;
static int failed;

#define CHECK(cond)                                                     \
    do {                                                                \
        if (!(cond)) {                                                  \
            printf("FAIL %s: line %d: %s\n", current, __LINE__, #cond); \
            failed = 1;                                                 \
            return;                                                     \
        }                                                               \
    } while (0)
#define CHECK_EQ(a, b)                                                                       \
    do {                                                                                     \
        long a_ = (long)(a), b_ = (long)(b);                                                 \
        if (a_ != b_) {                                                                      \
            printf("FAIL %s: line %d: %s is %ld, not %ld\n", current, __LINE__, #a, a_, b_); \
            failed = 1;                                                                      \
            return;                                                                          \
        }                                                                                    \
    } while (0)

static void deadline_ms(struct timespec* ts, long ms) {
    clock_gettime(CLOCK_REALTIME, ts);
    ts->tv_nsec += (ms % 1000) * 1000000L;
    ts->tv_sec += ms / 1000 + ts->tv_nsec / 1000000000L;
    ts->tv_nsec %= 1000000000L;
}

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- create, join, detach, self ------------------------------------------ */

static pthread_t seen_self[8];

static void* ret_arg_times2(void* arg) {
    long i = (long)arg;
    seen_self[i] = pthread_self();
    return (void*)(i * 2);
}

static void t_create_join(void) {
    pthread_t t[8];
    for (long i = 0; i < 8; i++) CHECK_EQ(pthread_create(&t[i], NULL, ret_arg_times2, (void*)i), 0);
    for (long i = 0; i < 8; i++) {
        void* v = NULL;
        CHECK_EQ(pthread_join(t[i], &v), 0);
        CHECK_EQ((long)v, i * 2);
        CHECK(pthread_equal(seen_self[i], t[i]));
        CHECK(!pthread_equal(t[i], pthread_self()));
    }
    CHECK(pthread_equal(pthread_self(), pthread_self()));
}

static void* exit_early(void* arg) {
    pthread_exit(arg);
    return NULL;
}

static void t_join_exited(void) {
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, exit_early, (void*)42L), 0);
    usleep(20000); /* it has long ended */
    void* v = NULL;
    CHECK_EQ(pthread_join(t, &v), 0);
    CHECK_EQ((long)v, 42);
}

static sem_t gate;

static void* wait_gate(void* arg) {
    sem_wait(&gate);
    return arg;
}

static void t_join_errors(void) {
    CHECK_EQ(pthread_join(pthread_self(), NULL), EDEADLK);
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, exit_early, NULL), 0);
    CHECK_EQ(pthread_join(t, NULL), 0);
    CHECK_EQ(pthread_join(t, NULL), ESRCH); /* joined already */
    CHECK_EQ(pthread_detach(t), ESRCH);
    sem_init(&gate, 0, 0);
    CHECK_EQ(pthread_create(&t, NULL, wait_gate, NULL), 0);
    CHECK_EQ(pthread_detach(t), 0);
    CHECK_EQ(pthread_detach(t), EINVAL);     /* detached already */
    CHECK_EQ(pthread_join(t, NULL), EINVAL); /* detached */
    sem_post(&gate);
}

static sem_t done_sem;
static int detached_runs;

static void* detached_body(void* arg) {
    (void)arg;
    __atomic_fetch_add(&detached_runs, 1, __ATOMIC_SEQ_CST);
    sem_post(&done_sem);
    return NULL;
}

static void t_detached(void) {
    pthread_attr_t a;
    CHECK_EQ(pthread_attr_init(&a), 0);
    CHECK_EQ(pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED), 0);
    int st = -1;
    CHECK_EQ(pthread_attr_getdetachstate(&a, &st), 0);
    CHECK_EQ(st, PTHREAD_CREATE_DETACHED);
    sem_init(&done_sem, 0, 0);
    /* 100 detached threads, at most 9 at a time: their blocks are reused. */
    int made = 0;
    for (int i = 0; i < 100; i++) {
        pthread_t t;
        int r;
        while ((r = pthread_create(&t, &a, detached_body, NULL)) == EAGAIN) sched_yield();
        CHECK_EQ(r, 0);
        made++;
        if (made > 8) sem_wait(&done_sem);
    }
    for (int i = 0; i < 8; i++) sem_wait(&done_sem);
    CHECK_EQ(__atomic_load_n(&detached_runs, __ATOMIC_SEQ_CST), 100);
    pthread_attr_destroy(&a);
}

static void* touch_stack(void* arg) {
    (void)arg;
    volatile char big[400 * 1024];
    for (size_t i = 0; i < sizeof big; i += 512) big[i] = (char)i;
    return (void*)(long)big[512];
}

static void t_attr(void) {
    pthread_attr_t a;
    size_t sz = 0;
    CHECK_EQ(pthread_attr_init(&a), 0);
    CHECK_EQ(pthread_attr_getstacksize(&a, &sz), 0);
    CHECK(sz >= PTHREAD_STACK_MIN);
    CHECK_EQ(pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN - 1), EINVAL);
    CHECK_EQ(pthread_attr_setdetachstate(&a, 7), EINVAL);
    CHECK_EQ(pthread_attr_setstacksize(&a, 512 * 1024), 0);
    CHECK_EQ(pthread_attr_getstacksize(&a, &sz), 0);
    CHECK_EQ(sz, 512 * 1024);
    pthread_t t;
    CHECK_EQ(pthread_create(&t, &a, touch_stack, NULL), 0);
    void* v;
    CHECK_EQ(pthread_join(t, &v), 0);
    CHECK_EQ((long)v, 0);
    pthread_attr_destroy(&a);
}

static void t_limit(void) {
    pthread_t t[PTHREAD_THREADS_MAX + 1];
    for (int round = 0; round < 2; round++) {
        sem_init(&gate, 0, 0);
        int n = 0, r;
        while (n <= PTHREAD_THREADS_MAX && (r = pthread_create(&t[n], NULL, wait_gate, (void*)(long)n)) == 0) n++;
        CHECK_EQ(r, EAGAIN);
        CHECK_EQ(n, PTHREAD_THREADS_MAX - 1); /* the first thread counts */
        for (int i = 0; i < n; i++) sem_post(&gate);
        for (int i = 0; i < n; i++) {
            void* v;
            CHECK_EQ(pthread_join(t[i], &v), 0);
            CHECK_EQ((long)v, i);
        }
    }
}

/* --- mutexes -------------------------------------------------------------- */

static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
enum { kStressThreads = 8, kStressLoops = 20000 };

static void* count_locked(void* arg) {
    (void)arg;
    for (int i = 0; i < kStressLoops; i++) {
        pthread_mutex_lock(&counter_lock);
        counter++;
        pthread_mutex_unlock(&counter_lock);
    }
    return NULL;
}

static void t_mutex_stress(void) {
    pthread_t t[kStressThreads];
    counter = 0;
    for (int i = 0; i < kStressThreads; i++) CHECK_EQ(pthread_create(&t[i], NULL, count_locked, NULL), 0);
    for (int i = 0; i < kStressThreads; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(counter, (long)kStressThreads * kStressLoops);
}

static pthread_mutex_t probe_m;

static void* probe_trylock(void* arg) {
    (void)arg;
    long r = pthread_mutex_trylock(&probe_m);
    if (r == 0) pthread_mutex_unlock(&probe_m);
    return (void*)r;
}

static void* probe_unlock(void* arg) {
    (void)arg;
    return (void*)(long)pthread_mutex_unlock(&probe_m);
}

static long in_thread(void* (*fn)(void*)) {
    pthread_t t;
    void* v = (void*)-1L;
    if (pthread_create(&t, NULL, fn, NULL) || pthread_join(t, &v)) return -1;
    return (long)v;
}

static void t_mutex(void) {
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    CHECK_EQ(pthread_mutex_lock(&m), 0);
    CHECK_EQ(pthread_mutex_trylock(&m), EBUSY);
    CHECK_EQ(pthread_mutex_destroy(&m), EBUSY);
    CHECK_EQ(pthread_mutex_unlock(&m), 0);
    CHECK_EQ(pthread_mutex_trylock(&m), 0);
    CHECK_EQ(pthread_mutex_unlock(&m), 0);
    CHECK_EQ(pthread_mutex_destroy(&m), 0);

    pthread_mutexattr_t a;
    int type = -1;
    CHECK_EQ(pthread_mutexattr_init(&a), 0);
    CHECK_EQ(pthread_mutexattr_settype(&a, 99), EINVAL);
    CHECK_EQ(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED), ENOTSUP);
    CHECK_EQ(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK), 0);
    CHECK_EQ(pthread_mutexattr_gettype(&a, &type), 0);
    CHECK_EQ(type, PTHREAD_MUTEX_ERRORCHECK);
    CHECK_EQ(pthread_mutex_init(&probe_m, &a), 0);
    CHECK_EQ(pthread_mutex_unlock(&probe_m), EPERM); /* not held */
    CHECK_EQ(pthread_mutex_lock(&probe_m), 0);
    CHECK_EQ(pthread_mutex_lock(&probe_m), EDEADLK);
    CHECK_EQ(in_thread(probe_unlock), EPERM); /* held by another */
    CHECK_EQ(in_thread(probe_trylock), EBUSY);
    CHECK_EQ(pthread_mutex_unlock(&probe_m), 0);
    CHECK_EQ(in_thread(probe_trylock), 0);

    CHECK_EQ(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE), 0);
    CHECK_EQ(pthread_mutex_init(&probe_m, &a), 0);
    for (int i = 0; i < 3; i++) CHECK_EQ(pthread_mutex_lock(&probe_m), 0);
    CHECK_EQ(pthread_mutex_trylock(&probe_m), 0);
    CHECK_EQ(in_thread(probe_trylock), EBUSY);
    for (int i = 0; i < 3; i++) CHECK_EQ(pthread_mutex_unlock(&probe_m), 0);
    CHECK_EQ(in_thread(probe_trylock), EBUSY); /* once more to go */
    CHECK_EQ(pthread_mutex_unlock(&probe_m), 0);
    CHECK_EQ(in_thread(probe_trylock), 0);
    CHECK_EQ(pthread_mutex_unlock(&probe_m), EPERM);
    pthread_mutexattr_destroy(&a);

    /* timedlock: times out while held, and rejects a bad time. */
    pthread_mutex_init(&probe_m, NULL);
    CHECK_EQ(pthread_mutex_lock(&probe_m), 0);
    struct timespec ts;
    deadline_ms(&ts, 30);
    const long t0 = now_ms();
    CHECK_EQ(pthread_mutex_timedlock(&probe_m, &ts), ETIMEDOUT);
    const long waited = now_ms() - t0;
    CHECK(waited >= 29 && waited < 200);
    ts.tv_nsec = 1000000000L;
    CHECK_EQ(pthread_mutex_timedlock(&probe_m, &ts), EINVAL);
    CHECK_EQ(pthread_mutex_unlock(&probe_m), 0);
    deadline_ms(&ts, 30);
    CHECK_EQ(pthread_mutex_timedlock(&probe_m, &ts), 0);
    CHECK_EQ(pthread_mutex_unlock(&probe_m), 0);
}

/* --- condition variables ------------------------------------------------ */

static pthread_mutex_t cv_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int go, woken;

static void* wait_go(void* arg) {
    (void)arg;
    pthread_mutex_lock(&cv_m);
    while (!go) pthread_cond_wait(&cv, &cv_m);
    woken++;
    pthread_mutex_unlock(&cv_m);
    return NULL;
}

static void t_cond(void) {
    pthread_t t[5];
    go = woken = 0;
    for (int i = 0; i < 5; i++) CHECK_EQ(pthread_create(&t[i], NULL, wait_go, NULL), 0);
    usleep(20000);
    pthread_mutex_lock(&cv_m);
    CHECK_EQ(woken, 0);
    go = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&cv_m);
    for (int i = 0; i < 5; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(woken, 5);

    /* signal wakes one at a time */
    go = woken = 0;
    for (int i = 0; i < 2; i++) CHECK_EQ(pthread_create(&t[i], NULL, wait_go, NULL), 0);
    usleep(20000);
    CHECK_EQ(pthread_cond_signal(&cv), 0); /* no predicate change: they sleep on */
    usleep(20000);
    pthread_mutex_lock(&cv_m);
    CHECK_EQ(woken, 0);
    go = 1;
    pthread_cond_signal(&cv);
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&cv_m);
    for (int i = 0; i < 2; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(woken, 2);
    CHECK_EQ(pthread_cond_signal(&cv), 0); /* nobody waits */

    /* timedwait: times out with the mutex held again; a bad time */
    struct timespec ts;
    deadline_ms(&ts, 30);
    pthread_mutex_lock(&cv_m);
    const long t0 = now_ms();
    CHECK_EQ(pthread_cond_timedwait(&cv, &cv_m, &ts), ETIMEDOUT);
    CHECK(now_ms() - t0 >= 29);
    CHECK_EQ(pthread_mutex_trylock(&cv_m), EBUSY);
    ts.tv_nsec = -1;
    CHECK_EQ(pthread_cond_timedwait(&cv, &cv_m, &ts), EINVAL);
    pthread_mutex_unlock(&cv_m);

    pthread_condattr_t ca;
    pthread_cond_t c2;
    clockid_t clk;
    CHECK_EQ(pthread_condattr_init(&ca), 0);
    CHECK_EQ(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC), 0);
    CHECK_EQ(pthread_condattr_getclock(&ca, &clk), 0);
    CHECK_EQ(clk, CLOCK_MONOTONIC);
    CHECK_EQ(pthread_condattr_setclock(&ca, 12345), EINVAL);
    CHECK_EQ(pthread_cond_init(&c2, &ca), 0);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 10000000;
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&cv_m);
    CHECK_EQ(pthread_cond_timedwait(&c2, &cv_m, &ts), ETIMEDOUT);
    pthread_mutex_unlock(&cv_m);
    CHECK_EQ(pthread_cond_destroy(&c2), 0);
}

/* A bounded buffer: producers and consumers on two condition variables. */
enum { kBuf = 4, kItems = 20000, kProducers = 3, kConsumers = 3 };
static int buf[kBuf], fill_i, use_i, count_in;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t buf_m = PTHREAD_MUTEX_INITIALIZER;

static void* producer(void* arg) {
    long base = (long)arg;
    for (int i = 1; i <= kItems; i++) {
        pthread_mutex_lock(&buf_m);
        while (count_in == kBuf) pthread_cond_wait(&not_full, &buf_m);
        buf[fill_i] = (int)(base + i);
        fill_i = (fill_i + 1) % kBuf;
        count_in++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&buf_m);
    }
    return NULL;
}

static void* consumer(void* arg) {
    (void)arg;
    long sum = 0;
    for (;;) {
        pthread_mutex_lock(&buf_m);
        while (count_in == 0) pthread_cond_wait(&not_empty, &buf_m);
        int v = buf[use_i];
        use_i = (use_i + 1) % kBuf;
        count_in--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&buf_m);
        if (v < 0) return (void*)sum;
        sum += v;
    }
}

static void t_cond_stress(void) {
    pthread_t p[kProducers], c[kConsumers];
    for (long i = 0; i < kConsumers; i++) CHECK_EQ(pthread_create(&c[i], NULL, consumer, NULL), 0);
    for (long i = 0; i < kProducers; i++) CHECK_EQ(pthread_create(&p[i], NULL, producer, (void*)(i * 100000)), 0);
    for (int i = 0; i < kProducers; i++) CHECK_EQ(pthread_join(p[i], NULL), 0);
    for (int i = 0; i < kConsumers; i++) {
        pthread_mutex_lock(&buf_m);
        while (count_in == kBuf) pthread_cond_wait(&not_full, &buf_m);
        buf[fill_i] = -1;
        fill_i = (fill_i + 1) % kBuf;
        count_in++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&buf_m);
    }
    long total = 0;
    for (int i = 0; i < kConsumers; i++) {
        void* v;
        CHECK_EQ(pthread_join(c[i], &v), 0);
        total += (long)v;
    }
    long want = 0;
    for (long i = 0; i < kProducers; i++) want += i * 100000L * kItems + (long)kItems * (kItems + 1) / 2;
    CHECK_EQ(total, want);
}

/* --- read-write locks --------------------------------------------------- */

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static long rw_a, rw_b, rw_bad;

static void* rw_try_read(void* arg) {
    (void)arg;
    long r = pthread_rwlock_tryrdlock(&rw);
    if (r == 0) pthread_rwlock_unlock(&rw);
    return (void*)r;
}
static void* rw_try_write(void* arg) {
    (void)arg;
    long r = pthread_rwlock_trywrlock(&rw);
    if (r == 0) pthread_rwlock_unlock(&rw);
    return (void*)r;
}
static void* rw_unlock(void* arg) {
    (void)arg;
    return (void*)(long)pthread_rwlock_unlock(&rw);
}

static void* rw_worker(void* arg) {
    long id = (long)arg;
    for (int i = 0; i < 3000; i++) {
        if (id == 0 || i % 8 == 0) {
            pthread_rwlock_wrlock(&rw);
            rw_a++;
            sched_yield();
            rw_b++;
            pthread_rwlock_unlock(&rw);
        } else {
            pthread_rwlock_rdlock(&rw);
            if (rw_a != rw_b) __atomic_fetch_add(&rw_bad, 1, __ATOMIC_SEQ_CST);
            pthread_rwlock_unlock(&rw);
        }
    }
    return NULL;
}

static void t_rwlock(void) {
    CHECK_EQ(pthread_rwlock_rdlock(&rw), 0);
    CHECK_EQ(in_thread(rw_try_read), 0); /* readers share */
    CHECK_EQ(in_thread(rw_try_write), EBUSY);
    CHECK_EQ(pthread_rwlock_destroy(&rw), EBUSY);
    CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
    CHECK_EQ(pthread_rwlock_unlock(&rw), EPERM); /* not held */
    CHECK_EQ(pthread_rwlock_wrlock(&rw), 0);
    CHECK_EQ(pthread_rwlock_wrlock(&rw), EDEADLK);
    CHECK_EQ(pthread_rwlock_rdlock(&rw), EDEADLK);
    CHECK_EQ(in_thread(rw_try_read), EBUSY);
    CHECK_EQ(in_thread(rw_try_write), EBUSY);
    CHECK_EQ(in_thread(rw_unlock), EPERM);
    CHECK_EQ(pthread_rwlock_unlock(&rw), 0);
    CHECK_EQ(in_thread(rw_try_write), 0);

    pthread_t t[6];
    rw_a = rw_b = rw_bad = 0;
    for (long i = 0; i < 6; i++) CHECK_EQ(pthread_create(&t[i], NULL, rw_worker, (void*)i), 0);
    for (int i = 0; i < 6; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(rw_bad, 0);
    CHECK_EQ(rw_a, 3000 + 5 * 375);
    CHECK_EQ(rw_b, rw_a);
    CHECK_EQ(pthread_rwlock_destroy(&rw), 0);
}

/* --- barriers, once ------------------------------------------------------- */

enum { kBarrierThreads = 5, kRounds = 200 };
static pthread_barrier_t bar;
static int serials, arrived[kRounds], barrier_bad;

static void* barrier_worker(void* arg) {
    (void)arg;
    for (int r = 0; r < kRounds; r++) {
        __atomic_fetch_add(&arrived[r], 1, __ATOMIC_SEQ_CST);
        int s = pthread_barrier_wait(&bar);
        if (s == PTHREAD_BARRIER_SERIAL_THREAD) {
            serials++;
        } else if (s != 0) {
            barrier_bad++;
        }
        if (__atomic_load_n(&arrived[r], __ATOMIC_SEQ_CST) != kBarrierThreads) barrier_bad++;
    }
    return NULL;
}

static void t_barrier(void) {
    CHECK_EQ(pthread_barrier_init(&bar, NULL, 0), EINVAL);
    CHECK_EQ(pthread_barrier_init(&bar, NULL, kBarrierThreads), 0);
    pthread_t t[kBarrierThreads];
    for (int i = 0; i < kBarrierThreads; i++) CHECK_EQ(pthread_create(&t[i], NULL, barrier_worker, NULL), 0);
    for (int i = 0; i < kBarrierThreads; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(barrier_bad, 0);
    CHECK_EQ(serials, kRounds);
    CHECK_EQ(pthread_barrier_destroy(&bar), 0);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs, once_seen;

static void once_fn(void) {
    usleep(10000); /* others arrive while it runs */
    once_runs++;
}

static void* call_once(void* arg) {
    (void)arg;
    pthread_once(&once, once_fn);
    if (once_runs == 1) __atomic_fetch_add(&once_seen, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static void t_once(void) {
    pthread_t t[8];
    for (int i = 0; i < 8; i++) CHECK_EQ(pthread_create(&t[i], NULL, call_once, NULL), 0);
    for (int i = 0; i < 8; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(pthread_once(&once, once_fn), 0);
    CHECK_EQ(once_runs, 1);
    CHECK_EQ(once_seen, 8);
}

/* --- thread-specific keys ------------------------------------------------ */

static pthread_key_t key, key2;
static int destroyed, destroyed_sum, resets;

static void destructor(void* v) {
    __atomic_fetch_add(&destroyed, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&destroyed_sum, (int)(long)v, __ATOMIC_SEQ_CST);
}

/* Sets a new value from its destructor twice: it runs three times. */
static void resetting_destructor(void* v) {
    if (resets++ < 2) pthread_setspecific(key2, v);
}

static void* use_keys(void* arg) {
    long id = (long)arg;
    if (pthread_getspecific(key)) return (void*)1L;
    pthread_setspecific(key, (void*)id);
    usleep(5000);
    if ((long)pthread_getspecific(key) != id) return (void*)2L;
    return NULL;
}

static void* reset_key2(void* arg) {
    pthread_setspecific(key2, arg);
    return NULL;
}

static void t_keys(void) {
    CHECK_EQ(pthread_key_create(&key, destructor), 0);
    CHECK(pthread_getspecific(key) == NULL);
    CHECK_EQ(pthread_setspecific(key, (void*)100L), 0);
    pthread_t t[6];
    for (long i = 1; i <= 6; i++) CHECK_EQ(pthread_create(&t[i - 1], NULL, use_keys, (void*)i), 0);
    for (int i = 0; i < 6; i++) {
        void* v;
        CHECK_EQ(pthread_join(t[i], &v), 0);
        CHECK_EQ((long)v, 0);
    }
    CHECK_EQ(destroyed, 6);
    CHECK_EQ(destroyed_sum, 21);
    CHECK_EQ((long)pthread_getspecific(key), 100);
    CHECK_EQ(pthread_key_delete(key), 0);
    CHECK_EQ(pthread_key_delete(key), EINVAL);
    CHECK_EQ(pthread_setspecific(key, (void*)1L), EINVAL);
    CHECK_EQ(pthread_key_create(&key, NULL), 0);
    CHECK(pthread_getspecific(key) == NULL); /* a new key: no old value */

    CHECK_EQ(pthread_key_create(&key2, resetting_destructor), 0);
    CHECK_EQ(pthread_create(&t[0], NULL, reset_key2, (void*)5L), 0);
    CHECK_EQ(pthread_join(t[0], NULL), 0);
    CHECK_EQ(resets, 3);

    pthread_key_t many[PTHREAD_KEYS_MAX];
    int n = 0, r;
    while ((r = pthread_key_create(&many[n], NULL)) == 0) n++;
    CHECK_EQ(r, EAGAIN);
    CHECK_EQ(n, PTHREAD_KEYS_MAX - 2);
    for (int i = 0; i < n; i++) CHECK_EQ(pthread_key_delete(many[i]), 0);
    CHECK_EQ(pthread_key_delete(key), 0);
    CHECK_EQ(pthread_key_delete(key2), 0);
}

/* --- semaphores ---------------------------------------------------------- */

static sem_t sem_lock;
static long sem_counter;

static void* count_sem(void* arg) {
    (void)arg;
    for (int i = 0; i < 10000; i++) {
        sem_wait(&sem_lock);
        sem_counter++;
        sem_post(&sem_lock);
    }
    return NULL;
}

static void t_sem(void) {
    sem_t s;
    int v = -1;
    CHECK_EQ(sem_init(&s, 0, (unsigned)SEM_VALUE_MAX + 1), -1);
    CHECK_EQ(errno, EINVAL);
    CHECK_EQ(sem_init(&s, 1, 0), -1);
    CHECK_EQ(errno, ENOSYS);
    CHECK_EQ(sem_init(&s, 0, 2), 0);
    CHECK_EQ(sem_getvalue(&s, &v), 0);
    CHECK_EQ(v, 2);
    CHECK_EQ(sem_trywait(&s), 0);
    CHECK_EQ(sem_wait(&s), 0);
    CHECK_EQ(sem_trywait(&s), -1);
    CHECK_EQ(errno, EAGAIN);
    struct timespec ts;
    deadline_ms(&ts, 30);
    const long t0 = now_ms();
    CHECK_EQ(sem_timedwait(&s, &ts), -1);
    CHECK_EQ(errno, ETIMEDOUT);
    CHECK(now_ms() - t0 >= 29);
    ts.tv_nsec = 2000000000L;
    CHECK_EQ(sem_timedwait(&s, &ts), -1);
    CHECK_EQ(errno, EINVAL);
    CHECK_EQ(sem_post(&s), 0);
    deadline_ms(&ts, 30);
    CHECK_EQ(sem_timedwait(&s, &ts), 0);
    CHECK_EQ(sem_destroy(&s), 0);
    CHECK_EQ(sem_init(&s, 0, SEM_VALUE_MAX), 0);
    CHECK_EQ(sem_post(&s), -1);
    CHECK_EQ(errno, EOVERFLOW);

    sem_init(&sem_lock, 0, 1);
    pthread_t t[6];
    for (int i = 0; i < 6; i++) CHECK_EQ(pthread_create(&t[i], NULL, count_sem, NULL), 0);
    for (int i = 0; i < 6; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(sem_counter, 60000);
    CHECK_EQ(sem_getvalue(&sem_lock, &v), 0);
    CHECK_EQ(v, 1);
}

/* --- errno is per thread; sched_yield; stdio from threads ---------------- */

static pthread_barrier_t errno_bar;

static void* set_errno(void* arg) {
    errno = (int)(long)arg;
    pthread_barrier_wait(&errno_bar);
    if (open("/no/such/file", 0) != -1) return (void*)-1L;
    const int mine = errno;
    pthread_barrier_wait(&errno_bar);
    errno = (int)(long)arg;
    pthread_barrier_wait(&errno_bar);
    return (void*)(long)(errno == (int)(long)arg && mine != 0 ? 0 : 1);
}

static void t_errno(void) {
    pthread_barrier_init(&errno_bar, NULL, 4);
    pthread_t t[3];
    errno = 0;
    for (long i = 0; i < 3; i++) CHECK_EQ(pthread_create(&t[i], NULL, set_errno, (void*)(i + 1)), 0);
    pthread_barrier_wait(&errno_bar);
    CHECK_EQ(errno, 0);
    pthread_barrier_wait(&errno_bar);
    CHECK_EQ(errno, 0);
    pthread_barrier_wait(&errno_bar);
    for (int i = 0; i < 3; i++) {
        void* v;
        CHECK_EQ(pthread_join(t[i], &v), 0);
        CHECK_EQ((long)v, 0);
    }
    CHECK_EQ(errno, 0);
    CHECK_EQ(sched_yield(), 0);
}

static FILE* shared;

static void* print_lines(void* arg) {
    long id = (long)arg;
    for (int i = 0; i < 200; i++) fprintf(shared, "thread %ld line %03d of 200 %s\n", id, i, "xxxxxxxxxxxxxxxx");
    return NULL;
}

static void t_stdio(void) {
    shared = fopen("pthreads.out", "w");
    CHECK(shared != NULL);
    pthread_t t[4];
    for (long i = 0; i < 4; i++) CHECK_EQ(pthread_create(&t[i], NULL, print_lines, (void*)i), 0);
    for (int i = 0; i < 4; i++) CHECK_EQ(pthread_join(t[i], NULL), 0);
    CHECK_EQ(fclose(shared), 0);
    FILE* f = fopen("pthreads.out", "r");
    CHECK(f != NULL);
    char line[128];
    int next[4] = {0, 0, 0, 0}, lines = 0;
    while (fgets(line, sizeof line, f)) {
        long id;
        int n;
        char tail[32];
        CHECK_EQ(sscanf(line, "thread %ld line %d of 200 %31s", &id, &n, tail), 3);
        CHECK(id >= 0 && id < 4);
        CHECK_EQ(n, next[id]);
        CHECK(strcmp(tail, "xxxxxxxxxxxxxxxx") == 0);
        next[id]++;
        lines++;
    }
    fclose(f);
    unlink("pthreads.out");
    CHECK_EQ(lines, 800);
}

/* The first thread calls pthread_exit: the process lives on until the last
 * thread ends, then exits with status 0 and flushed stdio. */
static void* last_one(void* arg) {
    (void)arg;
    usleep(20000);
    printf("last thread still runs after main's pthread_exit");
    return NULL;
}

static void t_main_exit(void) {
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, last_one, NULL), 0);
    pthread_exit(NULL);
}

/* --- a new thread starts at once beside sleeping threads ------------------
 * Two workers sleeping in 1 ms steps and a watchdog sleeping in 50 ms steps
 * (vecadd's shape): each new thread must run within 20 ms of
 * pthread_create. When usleep waited out a short sleep yielding the hart,
 * every sleeper was a CPU hog and a new thread queued behind one started a
 * whole 100 ms slice late (30 to 310 ms at 2, 3 and 8 harts). */

static volatile long started_ms[2];
static volatile int dog_stop;

static void* short_sleeper(void* arg) {
    started_ms[(long)arg] = now_ms();
    for (int i = 0; i < 30; i++) usleep(1000);
    return NULL;
}

static void* dog(void* arg) {
    (void)arg;
    while (!dog_stop) usleep(50000);
    return NULL;
}

static void t_start_latency(void) {
    pthread_t w;
    dog_stop = 0;
    CHECK_EQ(pthread_create(&w, NULL, dog, NULL), 0);
    long worst = 0;
    for (int round = 0; round < 20; round++) {
        pthread_t t[2];
        const long t0 = now_ms();
        for (long k = 0; k < 2; k++) CHECK_EQ(pthread_create(&t[k], NULL, short_sleeper, (void*)k), 0);
        for (int k = 0; k < 2; k++) CHECK_EQ(pthread_join(t[k], NULL), 0);
        for (int k = 0; k < 2; k++) {
            if (started_ms[k] - t0 > worst) worst = started_ms[k] - t0;
        }
    }
    dog_stop = 1;
    CHECK_EQ(pthread_join(w, NULL), 0);
    if (worst >= 20) printf("worst start %ld ms\n", worst);
    CHECK(worst < 20);
}

static const struct {
    const char* name;
    void (*fn)(void);
} tests[] = {
    {"create_join", t_create_join},
    {"join_exited", t_join_exited},
    {"join_errors", t_join_errors},
    {"detached", t_detached},
    {"attr", t_attr},
    {"limit", t_limit},
    {"mutex", t_mutex},
    {"mutex_stress", t_mutex_stress},
    {"cond", t_cond},
    {"cond_stress", t_cond_stress},
    {"rwlock", t_rwlock},
    {"barrier", t_barrier},
    {"once", t_once},
    {"keys", t_keys},
    {"sem", t_sem},
    {"errno", t_errno},
    {"stdio", t_stdio},
    {"start_latency", t_start_latency},
    {"main_exit", t_main_exit},
};
enum { kTests = sizeof tests / sizeof tests[0] };

static void run(int i) {
    current = tests[i].name;
    failed = 0;
    tests[i].fn();
    if (!failed) printf("PASS %s\n", current);
}

int main(int argc, char** argv) {
    if (argc == 1) {
        for (int i = 0; i < kTests - 1; i++) run(i); /* main_exit ends the process */
        return 0;
    }
    for (int a = 1; a < argc; a++) {
        int found = 0;
        for (int i = 0; i < kTests; i++) {
            if (strcmp(argv[a], tests[i].name) == 0) {
                run(i);
                found = 1;
            }
        }
        if (!found) {
            fprintf(stderr, "pthreads: no test %s\n", argv[a]);
            return 2;
        }
    }
    return 0;
}
