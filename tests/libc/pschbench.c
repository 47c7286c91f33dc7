/* pschbench - schbench's shape with POSIX threads (docs/benchmarks.md).
 *
 *   pschbench [-m MESSAGE_THREADS] [-t WORKERS] [-r SECONDS] [-n WORK]
 *
 * user/schbench.c's design (the scheduler lab's, in processes and pipes)
 * with threads and futexes, as the real schbench has it: each of
 * MESSAGE_THREADS message threads (default 1) owns WORKERS worker threads
 * (default 2). A worker, when its request is done, puts itself on its
 * message thread's ready list and wakes it; then it sleeps on its own
 * semaphore (a futex word). The message thread takes every ready worker,
 * reads the clock once and wakes each with that send time (so a message
 * thread preempted mid-batch charges the delay to the later workers, as
 * schbench does). A woken worker records its wake-up latency (send time to
 * running), does WORK units of a 16x16 integer matrix multiply (the
 * request; user/schbench.c's unit, default 4) and records the request
 * time. After SECONDS (default 5) it prints the wake-up and request
 * percentiles in microseconds and the requests per second, then one line
 * in user/schbench.c's machine-readable form:
 *   pschbench: rps=R p50=U p90=U p99=U p999=U max=U samples=N  (wake-ups)
 * It is a separate program from user/schbench.c and needs qcc's C library. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { kMaxMessage = 8, kMaxWorkers = 30, kMaxSamples = 200000, kDim = 16 };

struct message;

struct worker {
    sem_t wake;
    long sent_ns;
    struct message* msg;
    struct worker* next_ready;
    unsigned ma[kDim][kDim], mb[kDim][kDim], mc[kDim][kDim];
    pthread_t thread;
};

struct message {
    sem_t ready_sem;
    pthread_mutex_t lock;
    struct worker* ready;
    struct worker workers[kMaxWorkers];
    pthread_t thread;
};

static int n_message = 1, n_workers = 2, seconds = 5, units = 4;
static volatile int stop;
static struct message messages[kMaxMessage];
static pthread_mutex_t sample_lock = PTHREAD_MUTEX_INITIALIZER;
static int* wake_us;
static int* req_us;
static long n_wake, n_req, requests;

static long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* One unit of request work: a 16x16 integer matrix multiply. */
static void work(struct worker* w) {
    for (int u = 0; u < units; u++) {
        for (int i = 0; i < kDim; i++) {
            for (int j = 0; j < kDim; j++) {
                unsigned s = 0;
                for (int k = 0; k < kDim; k++) s += w->ma[i][k] * w->mb[k][j];
                w->mc[i][j] = s;
            }
        }
        w->ma[u & (kDim - 1)][0] ^= w->mc[0][u & (kDim - 1)];
    }
}

static void record(int* samples, long* n, long ns) {
    if (*n < kMaxSamples) samples[(*n)++] = (int)(ns / 1000);
}

static void ready(struct worker* w) {
    struct message* m = w->msg;
    pthread_mutex_lock(&m->lock);
    w->next_ready = m->ready;
    m->ready = w;
    pthread_mutex_unlock(&m->lock);
    sem_post(&m->ready_sem);
}

static void* worker_main(void* arg) {
    struct worker* w = arg;
    for (int i = 0; i < kDim; i++) {
        for (int j = 0; j < kDim; j++) {
            w->ma[i][j] = (unsigned)(i * 31 + j * 7 + (int)(w - w->msg->workers));
            w->mb[i][j] = (unsigned)(i ^ (j * 13));
        }
    }
    for (;;) {
        ready(w);
        sem_wait(&w->wake);
        if (stop) return NULL;
        const long woke = now_ns();
        work(w);
        const long done = now_ns();
        pthread_mutex_lock(&sample_lock);
        record(wake_us, &n_wake, woke - w->sent_ns);
        record(req_us, &n_req, done - woke);
        requests++;
        pthread_mutex_unlock(&sample_lock);
    }
}

static void* message_main(void* arg) {
    struct message* m = arg;
    while (!stop) {
        sem_wait(&m->ready_sem);
        pthread_mutex_lock(&m->lock);
        struct worker* list = m->ready;
        m->ready = NULL;
        pthread_mutex_unlock(&m->lock);
        const long t = now_ns();
        /* next_ready is read before the post: the woken worker may run at
         * once, finish its request and push itself on the ready list again,
         * rewriting it (reading it after the post lost wake-ups or made a
         * cycle this loop posted around for ever: a hang in 1 of about 20
         * runs at 3 harts). */
        struct worker* next;
        for (struct worker* w = list; w; w = next) {
            next = w->next_ready;
            w->sent_ns = t;
            sem_post(&w->wake);
        }
    }
    for (int i = 0; i < n_workers; i++) sem_post(&m->workers[i].wake);
    return NULL;
}

static int cmp_int(const void* a, const void* b) {
    const int x = *(const int*)a, y = *(const int*)b;
    return x < y ? -1 : x > y;
}

static int pick(const int* s, long n, double pct) { return n ? s[(long)(pct / 100.0 * (n - 1) + 0.5)] : 0; }

static void report(const char* what, int* s, long n) {
    qsort(s, n, sizeof *s, cmp_int);
    printf("%s percentiles (usec) runtime %d (s) (%ld total samples)\n", what, seconds, n);
    static const double pct[] = {50.0, 90.0, 99.0, 99.9};
    for (int i = 0; i < 4; i++) {
        printf("\t  %4.1fth: %d\n", pct[i], pick(s, n, pct[i]));
    }
    printf("\t  max: %d\n", n ? s[n - 1] : 0);
}

int main(int argc, char* argv[]) {
    int c;
    while ((c = getopt(argc, argv, "m:t:r:n:")) != -1) {
        switch (c) {
            case 'm':
                n_message = atoi(optarg);
                break;
            case 't':
                n_workers = atoi(optarg);
                break;
            case 'r':
                seconds = atoi(optarg);
                break;
            case 'n':
                units = atoi(optarg);
                break;
            default:
                fprintf(stderr,
                        "usage: pschbench [-m MESSAGE_THREADS] [-t WORKERS] [-r "
                        "SECONDS] [-n WORK]\n");
                return 1;
        }
    }
    if (n_message < 1 || n_message > kMaxMessage || n_workers < 1 || n_workers > kMaxWorkers ||
        n_message * (n_workers + 1) > 31 || seconds < 1 || units < 0) {
        fprintf(stderr,
                "pschbench: 1-%d message threads, workers >= 1, at most 31 "
                "threads, seconds >= 1\n",
                kMaxMessage);
        return 1;
    }
    wake_us = malloc(kMaxSamples * sizeof(int));
    req_us = malloc(kMaxSamples * sizeof(int));
    if (!wake_us || !req_us) {
        fprintf(stderr, "pschbench: out of memory\n");
        return 1;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN);
    for (int m = 0; m < n_message; m++) {
        sem_init(&messages[m].ready_sem, 0, 0);
        pthread_mutex_init(&messages[m].lock, NULL);
        for (int i = 0; i < n_workers; i++) {
            struct worker* w = &messages[m].workers[i];
            sem_init(&w->wake, 0, 0);
            w->msg = &messages[m];
            if (pthread_create(&w->thread, &attr, worker_main, w)) {
                fprintf(stderr, "pschbench: cannot create a worker\n");
                return 1;
            }
        }
    }
    const long start = now_ns();
    for (int m = 0; m < n_message; m++) pthread_create(&messages[m].thread, &attr, message_main, &messages[m]);
    sleep(seconds);
    stop = 1;
    const long elapsed = now_ns() - start;
    for (int m = 0; m < n_message; m++) {
        sem_post(&messages[m].ready_sem); /* it may be waiting for a worker */
        pthread_join(messages[m].thread, NULL);
        for (int i = 0; i < n_workers; i++) pthread_join(messages[m].workers[i].thread, NULL);
    }
    report("Wakeup Latencies", wake_us, n_wake);
    report("Request Latencies", req_us, n_req);
    const double rps = requests * 1e9 / elapsed;
    printf("RPS (requests per second): %.2f\n", rps);
    printf("pschbench: rps=%.2f p50=%d p90=%d p99=%d p999=%d max=%d samples=%ld\n", rps, pick(wake_us, n_wake, 50),
           pick(wake_us, n_wake, 90), pick(wake_us, n_wake, 99), pick(wake_us, n_wake, 99.9),
           n_wake ? wake_us[n_wake - 1] : 0, n_wake);
    return 0;
}
