/* cvjoin - OSTEP chapter 30: a parent waits for its child with a condition
 * variable (figure 30.3), and with pthread_join.
 *
 *   cvjoin [-s]      -s: the child sleeps first, so the parent waits
 *
 * The done flag is what makes it correct: without it the parent could
 * wait after the child's signal and sleep forever; with a while loop it
 * re-checks after every wake-up. Prints the same three lines however the
 * threads are scheduled. */
#include <unistd.h>

#include "common.h"

static int done;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int child_sleeps;

static void thr_exit(void) {
    Pthread_mutex_lock(&m);
    done = 1;
    Pthread_cond_signal(&c);
    Pthread_mutex_unlock(&m);
}

static void* child(void* arg) {
    (void)arg;
    if (child_sleeps) usleep(50000);
    printf("child\n");
    thr_exit();
    return (void*)7L;
}

static void thr_join(void) {
    Pthread_mutex_lock(&m);
    while (done == 0) Pthread_cond_wait(&c, &m);
    Pthread_mutex_unlock(&m);
}

int main(int argc, char* argv[]) {
    int opt;
    while ((opt = getopt(argc, argv, "s")) != -1) {
        if (opt != 's') {
            fprintf(stderr, "usage: cvjoin [-s]\n");
            return 1;
        }
        child_sleeps = 1;
    }
    printf("parent: begin\n");
    pthread_t p;
    Pthread_create(&p, NULL, child, NULL);
    thr_join();
    printf("parent: end\n");
    void* v;
    Pthread_join(p, &v);
    printf("parent: joined, child returned %ld\n", (long)v);
    return 0;
}
