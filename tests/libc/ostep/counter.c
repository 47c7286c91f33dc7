/* counter - OSTEP chapter 26 and 29: threads adding to one counter.
 *
 *   counter [-t THREADS] [-n LOOPS] [-l]
 *
 * Each thread adds 1 to a shared counter LOOPS times. Without -l the
 * increment is a plain load, add and store: on more than one hart (or when
 * a thread is preempted between the load and the store) updates are lost
 * and the total comes out short. With -l a pthread mutex guards it and the
 * total is always THREADS * LOOPS. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common.h"

static volatile long counter;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long loops = 100000;
static int use_lock;

static void* worker(void* arg) {
    printf("%s: begin\n", (char*)arg);
    for (long i = 0; i < loops; i++) {
        if (use_lock) Pthread_mutex_lock(&lock);
        counter = counter + 1;
        if (use_lock) Pthread_mutex_unlock(&lock);
    }
    printf("%s: done\n", (char*)arg);
    return NULL;
}

int main(int argc, char* argv[]) {
    int threads = 2, c;
    while ((c = getopt(argc, argv, "t:n:l")) != -1) {
        switch (c) {
            case 't':
                threads = atoi(optarg);
                break;
            case 'n':
                loops = atol(optarg);
                break;
            case 'l':
                use_lock = 1;
                break;
            default:
                fprintf(stderr, "usage: counter [-t THREADS] [-n LOOPS] [-l]\n");
                return 1;
        }
    }
    if (threads < 1 || threads > 16 || loops < 0) {
        fprintf(stderr, "counter: 1 to 16 threads, LOOPS >= 0\n");
        return 1;
    }
    static char names[16][8];
    pthread_t t[16];
    printf("main: begin (counter = %ld)\n", counter);
    for (int i = 0; i < threads; i++) {
        snprintf(names[i], sizeof names[i], "T%d", i);
        Pthread_create(&t[i], NULL, worker, names[i]);
    }
    for (int i = 0; i < threads; i++) Pthread_join(t[i], NULL);
    const long want = threads * loops;
    printf("main: done (counter = %ld, expected %ld)%s\n", counter, want,
           counter == want ? "" : " - updates were lost");
    return 0;
}
