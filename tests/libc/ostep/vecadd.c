/* vecadd - OSTEP chapter 32: a vector add that can deadlock, and three
 * ways out (OSTEP's vector-deadlock, vector-global-order, vector-try-wait
 * and vector-avoid-hold-and-wait, as one program).
 *
 *   vecadd [-t THREADS] [-n LOOPS] [-l LENGTH] [-d] [-k KIND] [-y] [-w SECONDS]
 *
 * Each vector has its own lock; vector_add(dst, src) locks dst, then src,
 * and adds src into dst. Each thread does it LOOPS times on two vectors
 * of LENGTH; with -d, odd threads add in the other direction (v1 += v2,
 * but v2 += v1), which is the circular wait: one thread holds v1's lock
 * and wants v2's while the other holds v2's and wants v1's. KIND:
 *   deadlock  lock dst then src: can deadlock with -d
 *   order     lock the vector at the lower address first (a total order)
 *   trylock   lock one, try the other, and back off if it is taken (for
 *             a random time: all threads retrying in step would livelock)
 *   global    take one global lock around taking both (no hold-and-wait)
 * -y sleeps between the two locks; with -d -k deadlock it also makes the
 * first add of every thread wait, holding its first lock, until every
 * thread holds its first lock, so the circular wait happens on every run,
 * on any number of harts, however late a thread starts (a 1 ms sleep
 * alone left a window: at 8 harts a thread sometimes started a whole
 * slice late, behind the libc's old yield-spinning usleep, and the other
 * had finished by then). A watchdog ends the program after -w SECONDS
 * (default 2) without progress, printing that it deadlocked. On success
 * every element of a vector must be equal (each add was atomic) and the
 * number of adds THREADS * LOOPS. */
#include <string.h>
#include <unistd.h>

#include "common.h"

typedef struct {
    pthread_mutex_t lock;
    unsigned* v;
} vector_t;

static vector_t vec[2];
static int length = 100, loops = 1000, threads = 2, deadlocky, yield_between, kind;
static long adds;
static pthread_mutex_t global = PTHREAD_MUTEX_INITIALIZER, count_lock = PTHREAD_MUTEX_INITIALIZER;

static int holding_first; /* threads past their first lock (-d -k deadlock -y) */

static void between(void) {
    if (yield_between) usleep(1000);
}

/* The first add of a deadlock -d -y run: wait, holding dst's lock, until
 * every thread holds its own first lock (the watchdog ends a run that
 * never gets there, which also is a deadlock: threads of one direction
 * queue on the same first lock). */
static void wait_for_all_first_locks(void) {
    __atomic_add_fetch(&holding_first, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&holding_first, __ATOMIC_SEQ_CST) < threads) usleep(1000);
}

static void lock_both(vector_t* dst, vector_t* src, int first_add) {
    if (kind == 1) { /* order */
        vector_t* first = dst < src ? dst : src;
        Pthread_mutex_lock(&first->lock);
        between();
        Pthread_mutex_lock(&(first == dst ? src : dst)->lock);
    } else if (kind == 2) { /* trylock, with a random back-off against livelock */
        for (unsigned seed = (unsigned)(long)&seed;;) {
            Pthread_mutex_lock(&dst->lock);
            between();
            if (pthread_mutex_trylock(&src->lock) == 0) return;
            Pthread_mutex_unlock(&dst->lock);
            seed = seed * 1103515245u + 12345u;
            if (yield_between) usleep(seed % 2000);
        }
    } else if (kind == 3) { /* global */
        Pthread_mutex_lock(&global);
        Pthread_mutex_lock(&dst->lock);
        between();
        Pthread_mutex_lock(&src->lock);
        Pthread_mutex_unlock(&global);
    } else { /* deadlock */
        Pthread_mutex_lock(&dst->lock);
        between();
        if (first_add && deadlocky && yield_between) wait_for_all_first_locks();
        Pthread_mutex_lock(&src->lock);
    }
}

static void vector_add(vector_t* dst, vector_t* src, int first_add) {
    lock_both(dst, src, first_add);
    for (int i = 0; i < length; i++) dst->v[i] += src->v[i];
    Pthread_mutex_unlock(&src->lock);
    Pthread_mutex_unlock(&dst->lock);
    Pthread_mutex_lock(&count_lock);
    adds++;
    Pthread_mutex_unlock(&count_lock);
}

static void* worker(void* arg) {
    long id = (long)arg;
    for (int i = 0; i < loops; i++) {
        if (deadlocky && id % 2 == 1) {
            vector_add(&vec[1], &vec[0], i == 0);
        } else {
            vector_add(&vec[0], &vec[1], i == 0);
        }
    }
    return NULL;
}

/* Ends the process when adds stop moving for `limit` seconds. */
static double limit = 2;
static void* watchdog(void* arg) {
    (void)arg;
    long last = -1;
    double since = now_sec();
    for (;;) {
        usleep(50000);
        Pthread_mutex_lock(&count_lock);
        const long now = adds;
        Pthread_mutex_unlock(&count_lock);
        if (now != last) {
            last = now;
            since = now_sec();
        } else if (now_sec() - since >= limit) {
            printf("deadlock: no progress for %g s after %ld of %ld adds\n", limit, now, (long)threads * loops);
            fflush(stdout);
            _exit(2);
        }
    }
    return NULL;
}

static int usage(void) {
    fprintf(stderr,
            "usage: vecadd [-t THREADS] [-n LOOPS] [-l LENGTH] [-d] [-k deadlock|order|trylock|global] [-y] "
            "[-w SECONDS]\n");
    return 1;
}

int main(int argc, char* argv[]) {
    static const char* kinds[] = {"deadlock", "order", "trylock", "global"};
    int c;
    while ((c = getopt(argc, argv, "t:n:l:dk:yw:")) != -1) {
        switch (c) {
            case 't':
                threads = atoi(optarg);
                break;
            case 'n':
                loops = atoi(optarg);
                break;
            case 'l':
                length = atoi(optarg);
                break;
            case 'd':
                deadlocky = 1;
                break;
            case 'y':
                yield_between = 1;
                break;
            case 'w':
                limit = atof(optarg);
                break;
            case 'k':
                kind = -1;
                for (int i = 0; i < 4; i++) {
                    if (strcmp(optarg, kinds[i]) == 0) kind = i;
                }
                if (kind < 0) return usage();
                break;
            default:
                return usage();
        }
    }
    if (threads < 1 || threads > 16 || loops < 0 || length < 1 || limit <= 0) return usage();
    for (int i = 0; i < 2; i++) {
        pthread_mutex_init(&vec[i].lock, NULL);
        vec[i].v = malloc(length * sizeof(unsigned));
        for (int j = 0; j < length; j++) vec[i].v[j] = 1;
    }
    pthread_t w, t[16];
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    Pthread_create(&w, &a, watchdog, NULL);
    const double t0 = now_sec();
    for (long i = 0; i < threads; i++) Pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < threads; i++) Pthread_join(t[i], NULL);
    int consistent = 1;
    for (int i = 0; i < 2; i++) {
        for (int j = 1; j < length; j++) consistent &= vec[i].v[j] == vec[i].v[0];
    }
    printf("%s%s: %d threads, %ld adds of length %d: %s\n", kinds[kind], deadlocky ? " -d" : "", threads, adds, length,
           consistent && adds == (long)threads * loops ? "ok" : "WRONG");
    fprintf(stderr, "time %.3f s\n", now_sec() - t0);
    return 0;
}
