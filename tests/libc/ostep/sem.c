/* sem - OSTEP chapter 31: semaphores as a lock, for ordering, and for a
 * rendezvous.
 *
 *   sem -m binary [-t THREADS] [-n LOOPS]   a semaphore of 1 as a lock (31.3)
 *   sem -m order                            the parent waits for its child (31.6)
 *   sem -m rendezvous                       two threads meet before going on
 *                                           (OSTEP homework rendezvous.c)
 *
 * binary: the counter must come to THREADS * LOOPS. order: "child" is
 * always printed between "parent: begin" and "parent: end", the semaphore
 * starting at 0. rendezvous: each thread prints "before", signals the
 * other and waits for it, then prints "after": both befores come before
 * either after, in any order between the two. */
#include <semaphore.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static sem_t s, a_arrived, b_arrived;
static long counter, loops = 10000;

static void* binary_worker(void* arg) {
    (void)arg;
    for (long i = 0; i < loops; i++) {
        sem_wait(&s);
        counter++;
        sem_post(&s);
    }
    return NULL;
}

static void* order_child(void* arg) {
    (void)arg;
    usleep(20000);
    printf("child\n");
    sem_post(&s);
    return NULL;
}

static void* rendezvous_a(void* arg) {
    (void)arg;
    printf("A before\n");
    sem_post(&a_arrived);
    sem_wait(&b_arrived);
    printf("A after\n");
    return NULL;
}

static void* rendezvous_b(void* arg) {
    (void)arg;
    usleep(20000); /* usually arrives second: A waits for it */
    printf("B before\n");
    sem_post(&b_arrived);
    sem_wait(&a_arrived);
    printf("B after\n");
    return NULL;
}

static int usage(void) {
    fprintf(stderr, "usage: sem -m binary|order|rendezvous [-t THREADS] [-n LOOPS]\n");
    return 1;
}

int main(int argc, char* argv[]) {
    const char* mode = NULL;
    int threads = 4, c;
    while ((c = getopt(argc, argv, "m:t:n:")) != -1) {
        if (c == 'm') {
            mode = optarg;
        } else if (c == 't') {
            threads = atoi(optarg);
        } else if (c == 'n') {
            loops = atol(optarg);
        } else {
            return usage();
        }
    }
    if (!mode || threads < 1 || threads > 16) return usage();
    pthread_t t[16];
    if (strcmp(mode, "binary") == 0) {
        sem_init(&s, 0, 1);
        for (int i = 0; i < threads; i++) Pthread_create(&t[i], NULL, binary_worker, NULL);
        for (int i = 0; i < threads; i++) Pthread_join(t[i], NULL);
        printf("binary: counter %ld (expected %ld)\n", counter, threads * loops);
        return counter == threads * loops ? 0 : 1;
    }
    if (strcmp(mode, "order") == 0) {
        sem_init(&s, 0, 0);
        printf("parent: begin\n");
        Pthread_create(&t[0], NULL, order_child, NULL);
        sem_wait(&s);
        printf("parent: end\n");
        Pthread_join(t[0], NULL);
        return 0;
    }
    if (strcmp(mode, "rendezvous") == 0) {
        sem_init(&a_arrived, 0, 0);
        sem_init(&b_arrived, 0, 0);
        Pthread_create(&t[0], NULL, rendezvous_a, NULL);
        Pthread_create(&t[1], NULL, rendezvous_b, NULL);
        Pthread_join(t[0], NULL);
        Pthread_join(t[1], NULL);
        printf("rendezvous: done\n");
        return 0;
    }
    return usage();
}
