/* locks - OSTEP chapter 28: a spin lock, a spin lock that yields, and a
 * futex mutex, guarding the same counter.
 *
 *   locks [-k spin|yield|mutex] [-t THREADS] [-n LOOPS] [-w WORK]
 *
 * spin is test-and-set on an atomic exchange (OSTEP's figure 28.3); a
 * waiter burns its hart until the holder releases, and if the holder was
 * preempted on the waiter's own hart it spins out its whole time slice.
 * yield gives the hart up instead of spinning (figure 28.8). mutex is
 * pthread_mutex_t: a waiter sleeps in the kernel (futex) and the holder
 * wakes it. All three must give THREADS * LOOPS; the time shows what
 * waiting costs. -w makes the critical section longer: WORK iterations of
 * a busy loop each time (default 0), so that a holder is often preempted
 * inside it and the waiters' way of waiting shows. */
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

typedef struct {
    volatile int flag;
} spinlock_t;

static void spin_lock(spinlock_t* l) {
    while (__atomic_exchange_n(&l->flag, 1, __ATOMIC_ACQUIRE) == 1) {}
}
static void yield_lock(spinlock_t* l) {
    while (__atomic_exchange_n(&l->flag, 1, __ATOMIC_ACQUIRE) == 1) sched_yield();
}
static void spin_unlock(spinlock_t* l) { __atomic_store_n(&l->flag, 0, __ATOMIC_RELEASE); }

static spinlock_t sl;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long counter, loops = 20000, work;
static int kind; /* 0 spin, 1 yield, 2 mutex */

static void* worker(void* arg) {
    (void)arg;
    for (long i = 0; i < loops; i++) {
        if (kind == 2) {
            Pthread_mutex_lock(&m);
        } else if (kind == 1) {
            yield_lock(&sl);
        } else {
            spin_lock(&sl);
        }
        counter++;
        for (volatile long w = 0; w < work; w++) {}
        if (kind == 2) {
            Pthread_mutex_unlock(&m);
        } else {
            spin_unlock(&sl);
        }
    }
    return NULL;
}

int main(int argc, char* argv[]) {
    static const char* kinds[] = {"spin", "yield", "mutex"};
    int threads = 2, c;
    while ((c = getopt(argc, argv, "k:t:n:w:")) != -1) {
        if (c == 'k') {
            kind = -1;
            for (int i = 0; i < 3; i++) {
                if (strcmp(optarg, kinds[i]) == 0) kind = i;
            }
            if (kind < 0) c = '?';
        } else if (c == 't') {
            threads = atoi(optarg);
        } else if (c == 'n') {
            loops = atol(optarg);
        } else if (c == 'w') {
            work = atol(optarg);
        }
        if (c == '?' || threads < 1 || threads > 16 || work < 0) {
            fprintf(stderr, "usage: locks [-k spin|yield|mutex] [-t THREADS 1-16] [-n LOOPS] [-w WORK]\n");
            return 1;
        }
    }
    pthread_t t[16];
    const double t0 = now_sec();
    for (int i = 0; i < threads; i++) Pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++) Pthread_join(t[i], NULL);
    const double wall = now_sec() - t0;
    printf("%s: counter %ld (%s)\n", kinds[kind], counter, counter == threads * loops ? "correct" : "WRONG");
    printf("%s: %d threads x %ld: %.3f s\n", kinds[kind], threads, loops, wall);
    return counter == threads * loops ? 0 : 1;
}
