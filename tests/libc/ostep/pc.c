/* pc - OSTEP chapter 30: producers and consumers on a bounded buffer with
 * two condition variables (figure 30.12), OSTEP homework's options.
 *
 *   pc [-l LOOPS] [-m BUFSIZE] [-p PRODUCERS] [-c CONSUMERS] [-v]
 *
 * Each producer puts LOOPS numbers into a buffer of BUFSIZE slots; when
 * all have finished, main puts one end marker per consumer. Producers wait
 * on `empty` while the buffer is full, consumers on `fill` while it is
 * empty, each in a while loop (Mesa semantics: a woken thread re-checks).
 * With one condition variable, or `if` instead of `while`, it can hang or
 * take from an empty buffer. At the end every item must have been consumed
 * exactly once: the count and the sum are checked. -v prints each
 * consumer's share (which varies from run to run). */
#include <unistd.h>

#include "common.h"

static int* buffer;
static int max, fill_ptr, use_ptr, count;
static int loops = 1000, verbose;
static pthread_cond_t empty = PTHREAD_COND_INITIALIZER, fill = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
enum { END = -1 };

static void put(int value) {
    buffer[fill_ptr] = value;
    fill_ptr = (fill_ptr + 1) % max;
    count++;
}

static int get(void) {
    int tmp = buffer[use_ptr];
    use_ptr = (use_ptr + 1) % max;
    count--;
    return tmp;
}

static void produce(int value) {
    Pthread_mutex_lock(&mutex);
    while (count == max) Pthread_cond_wait(&empty, &mutex);
    put(value);
    Pthread_cond_signal(&fill);
    Pthread_mutex_unlock(&mutex);
}

static void* producer(void* arg) {
    int base = (int)(long)arg * loops;
    for (int i = 1; i <= loops; i++) produce(base + i);
    return NULL;
}

struct share {
    long items, sum;
};

static void* consumer(void* arg) {
    struct share* s = arg;
    for (;;) {
        Pthread_mutex_lock(&mutex);
        while (count == 0) Pthread_cond_wait(&fill, &mutex);
        int tmp = get();
        Pthread_cond_signal(&empty);
        Pthread_mutex_unlock(&mutex);
        if (tmp == END) return NULL;
        s->items++;
        s->sum += tmp;
    }
}

int main(int argc, char* argv[]) {
    int producers = 1, consumers = 1, c;
    max = 1;
    while ((c = getopt(argc, argv, "l:m:p:c:v")) != -1) {
        switch (c) {
            case 'l':
                loops = atoi(optarg);
                break;
            case 'm':
                max = atoi(optarg);
                break;
            case 'p':
                producers = atoi(optarg);
                break;
            case 'c':
                consumers = atoi(optarg);
                break;
            case 'v':
                verbose = 1;
                break;
            default:
                fprintf(stderr, "usage: pc [-l LOOPS] [-m BUFSIZE] [-p PRODUCERS] [-c CONSUMERS] [-v]\n");
                return 1;
        }
    }
    if (loops < 0 || max < 1 || producers < 1 || consumers < 1 || producers + consumers > 30) {
        fprintf(stderr, "pc: need LOOPS >= 0, BUFSIZE >= 1, 1 or more of each, 30 threads at most\n");
        return 1;
    }
    buffer = calloc(max, sizeof *buffer);
    pthread_t p[30], cs[30];
    struct share shares[30] = {{0, 0}};
    const double t0 = now_sec();
    for (int i = 0; i < consumers; i++) Pthread_create(&cs[i], NULL, consumer, &shares[i]);
    for (long i = 0; i < producers; i++) Pthread_create(&p[i], NULL, producer, (void*)i);
    for (int i = 0; i < producers; i++) Pthread_join(p[i], NULL);
    for (int i = 0; i < consumers; i++) produce(END);
    long items = 0, sum = 0;
    for (int i = 0; i < consumers; i++) {
        Pthread_join(cs[i], NULL);
        items += shares[i].items;
        sum += shares[i].sum;
        if (verbose) printf("consumer %d: %ld items\n", i, shares[i].items);
    }
    const long n = (long)producers * loops;
    const long want = n * (n + 1) / 2;
    printf("produced %ld, consumed %ld, sum %ld (%s)\n", n, items, sum, items == n && sum == want ? "ok" : "WRONG");
    if (verbose) printf("%.3f s\n", now_sec() - t0);
    return items == n && sum == want ? 0 : 1;
}
