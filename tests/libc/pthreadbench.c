/* pthreadbench - POSIX thread paths, in benchos's format (docs/benchmarks.md,
 * make bench-os).
 *
 *   pthreadbench [-q] [NAME...]
 *
 * Rows (one operation each):
 *   pmutex    an uncontended pthread_mutex_lock + pthread_mutex_unlock
 *             (one atomic each way, no system call)
 *   pcreate   pthread_create + pthread_join of a thread that returns at once
 *   contend   one lock + increment + unlock while a second thread does the
 *             same on the same mutex (ns per critical section, both threads'
 *             sections counted); with 2 or more harts the two run on harts
 *             0 and 1, so waiters sleep in the futex and unlocks wake them
 *   handoff   a mutex and condition variable ping-pong: the two threads take
 *             turns, each signalling the other and waiting for its turn
 *             (ns per hand-off: half a round trip), pinned as contend
 *   semwake   wake-up latency: from just before sem_post in one thread to
 *             just after sem_wait returns in the other, which was asleep
 *             (mean, CLOCK_MONOTONIC), pinned as contend
 * Each row runs for 1 s of CLOCK_MONOTONIC (0.1 s with -q) after a warm-up
 * of a tenth of that; under QEMU -icount the clock is virtual. Output:
 * `NAME ops OPS ns/op NS ops/s RATE`, then "pthreadbench: done N". */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long run_ns = 1000000000L;

static long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* The affinity of the calling thread (quanta's SYS_setaffinity, 31, on a
 * tid; pid 0 means the caller). Ignored where it fails (one hart). */
static void pin(int hart) {
    register long a0 __asm__("a0") = 0;
    register long a1 __asm__("a1") = 1L << hart;
    register long a7 __asm__("a7") = 31;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
}

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile long shared_count;
static volatile int stop, turn;
static sem_t ping, pong;
static long lat_sum, lat_n;
static volatile long post_time;

static void* nothing(void* arg) { return arg; }

/* The partner threads of contend, handoff and semwake. */
static void* contender(void* arg) {
    (void)arg;
    pin(1);
    while (!stop) {
        pthread_mutex_lock(&m);
        shared_count++;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

static void* handoff_partner(void* arg) {
    (void)arg;
    pin(1);
    pthread_mutex_lock(&m);
    while (!stop) {
        while (turn != 1 && !stop) pthread_cond_wait(&cv, &m);
        turn = 0;
        pthread_cond_signal(&cv);
    }
    pthread_mutex_unlock(&m);
    return NULL;
}

static void* sem_partner(void* arg) {
    (void)arg;
    pin(1);
    for (;;) {
        sem_wait(&ping);
        const long woke = now_ns();
        if (stop) return NULL;
        lat_sum += woke - post_time;
        lat_n++;
        sem_post(&pong);
    }
}

/* One operation of each row; returns the operations it stands for. */
static long op_pmutex(void) {
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&m);
        pthread_mutex_unlock(&m);
    }
    return 100;
}

static long op_pcreate(void) {
    pthread_t t;
    if (pthread_create(&t, NULL, nothing, NULL) || pthread_join(t, NULL)) {
        printf("pthreadbench: pcreate failed\n");
        exit(1);
    }
    return 1;
}

static long op_contend(void) {
    for (int i = 0; i < 100; i++) {
        pthread_mutex_lock(&m);
        shared_count++;
        pthread_mutex_unlock(&m);
    }
    return 100;
}

static long op_handoff(void) {
    pthread_mutex_lock(&m);
    turn = 1;
    pthread_cond_signal(&cv);
    while (turn != 0) pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    return 2;
}

static long op_semwake(void) {
    post_time = now_ns();
    sem_post(&ping);
    sem_wait(&pong);
    return 1;
}

struct bench {
    const char* name;
    long (*op)(void);
    void* (*partner)(void*);
};

static const struct bench benches[] = {
    {"pmutex", op_pmutex, NULL},          {"pcreate", op_pcreate, NULL},
    {"contend", op_contend, contender},   {"handoff", op_handoff, handoff_partner},
    {"semwake", op_semwake, sem_partner},
};
enum { kBenches = sizeof benches / sizeof benches[0] };

static void run(const struct bench* b) {
    pthread_t partner;
    stop = 0;
    turn = 0;
    shared_count = 0;
    lat_sum = lat_n = 0;
    sem_init(&ping, 0, 0);
    sem_init(&pong, 0, 0);
    pin(0);
    if (b->partner && pthread_create(&partner, NULL, b->partner, NULL)) {
        printf("pthreadbench: no partner thread\n");
        exit(1);
    }
    long end = now_ns() + run_ns / 10;
    while (now_ns() < end) b->op();
    shared_count = 0;
    lat_sum = lat_n = 0;
    long ops = 0;
    const long start = now_ns();
    end = start + run_ns;
    long t;
    while ((t = now_ns()) < end) ops += b->op();
    const long ns = t - start;
    if (b->partner) {
        pthread_mutex_lock(&m);
        stop = 1;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&m);
        sem_post(&ping);
        pthread_join(partner, NULL);
    }
    if (b->op == op_contend) ops += shared_count - ops; /* both threads' sections */
    if (b->op == op_semwake) {
        ops = lat_n ? lat_n : 1;
        printf("%s ops %ld ns/op %ld ops/s %ld\n", b->name, ops, lat_sum / ops, ops * 1000000000L / ns);
        return;
    }
    if (ops == 0) ops = 1;
    printf("%s ops %ld ns/op %ld ops/s %ld\n", b->name, ops, ns / ops, (long)((double)ops * 1e9 / ns));
}

int main(int argc, char* argv[]) {
    int i = 1, chosen = 0;
    if (i < argc && strcmp(argv[i], "-q") == 0) {
        run_ns /= 10;
        i++;
    }
    for (int j = i; j < argc; j++) {
        int found = 0;
        for (int k = 0; k < kBenches; k++) found |= strcmp(argv[j], benches[k].name) == 0;
        if (!found) {
            fprintf(stderr, "usage: pthreadbench [-q] [pmutex|pcreate|contend|handoff|semwake...]\n");
            return 2;
        }
    }
    for (int k = 0; k < kBenches; k++) {
        int want = i == argc;
        for (int j = i; j < argc; j++) want |= strcmp(argv[j], benches[k].name) == 0;
        if (!want) continue;
        run(&benches[k]);
        chosen++;
    }
    printf("pthreadbench: done %d\n", chosen);
    return 0;
}
