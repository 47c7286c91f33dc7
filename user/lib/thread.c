/* user/lib/thread.c - threads for xv6-style programs: create, join,
 * detach, and a futex mutex.
 *
 * thread_create(fn, arg) takes a control block from a fixed table
 * (kMaxThreads) and a stack from malloc (kThreadStack bytes), and asks the
 * kernel (tcreate, docs/threads.md) to start the thread in thread_start
 * with the block as its argument and its TLS pointer (tp). The block's
 * `word` is the kernel's tidp: the kernel stores the tid there before
 * tcreate returns and stores 0 there, with a futex wake, when the thread
 * has ended. thread_join waits for that 0, then frees the stack; a
 * detached thread's stack is freed by whichever thread_create or
 * thread_detach next sees its word at 0 (a thread cannot free the stack it
 * runs on). Returning from fn ends the thread (texit(0)); exit() from any
 * thread ends the whole process.
 *
 * umutex is Drepper's three-state futex mutex ("Futexes are tricky"): 0
 * free, 1 held, 2 held with waiters. An uncontended lock and unlock are
 * one atomic instruction each and no system call.
 */
#include "user/user.h"

enum { kMaxThreads = 64, kThreadStack = 16384 };
enum { FREE, JOINABLE, JOINING, DETACHED };

struct uthread {
    volatile int word; /* tidp: the tid while it runs, 0 once it has ended */
    int tid;
    int state;
    char* stack;
    void (*fn)(void*);
    void* arg;
};

static struct uthread threads[kMaxThreads];
static struct umutex table_lock = UMUTEX_INIT;

void umutex_lock(struct umutex* m) {
    int c = __sync_val_compare_and_swap(&m->v, 0, 1);
    if (c == 0) return;
    if (c != 2) c = __atomic_exchange_n(&m->v, 2, __ATOMIC_ACQUIRE);
    while (c != 0) {
        futex(&m->v, FUTEX_WAIT, 2, 0);
        c = __atomic_exchange_n(&m->v, 2, __ATOMIC_ACQUIRE);
    }
}

int umutex_trylock(struct umutex* m) { return __sync_val_compare_and_swap(&m->v, 0, 1) == 0 ? 0 : -1; }

void umutex_unlock(struct umutex* m) {
    if (__atomic_fetch_sub(&m->v, 1, __ATOMIC_RELEASE) != 1) {
        __atomic_store_n(&m->v, 0, __ATOMIC_RELEASE);
        futex(&m->v, FUTEX_WAKE, 1, 0);
    }
}

static void thread_start(void* self) {
    struct uthread* t = self;
    t->fn(t->arg);
    texit(0);
}

/* Free the stacks of detached threads that have ended (table_lock held). */
static void reap_detached(void) {
    for (int i = 0; i < kMaxThreads; i++) {
        struct uthread* t = &threads[i];
        if (t->state == DETACHED && __atomic_load_n(&t->word, __ATOMIC_ACQUIRE) == 0) {
            free(t->stack);
            t->state = FREE;
        }
    }
}

static struct uthread* find(int tid) {
    for (int i = 0; i < kMaxThreads; i++) {
        if (threads[i].state != FREE && threads[i].tid == tid) return &threads[i];
    }
    return 0;
}

int thread_create(void (*fn)(void*), void* arg) {
    umutex_lock(&table_lock);
    reap_detached();
    struct uthread* t = 0;
    for (int i = 0; i < kMaxThreads && !t; i++) {
        if (threads[i].state == FREE) t = &threads[i];
    }
    char* stack = t ? malloc(kThreadStack) : 0;
    if (!stack) {
        umutex_unlock(&table_lock);
        return -1;
    }
    t->stack = stack;
    t->fn = fn;
    t->arg = arg;
    t->word = 0;
    int tid = tcreate(thread_start, t, stack + kThreadStack, t, &t->word);
    if (tid < 0) {
        free(stack);
    } else {
        t->tid = tid;
        t->state = JOINABLE;
    }
    umutex_unlock(&table_lock);
    return tid;
}

int thread_join(int tid) {
    umutex_lock(&table_lock);
    struct uthread* t = find(tid);
    if (!t || t->state != JOINABLE || tid == gettid()) {
        umutex_unlock(&table_lock);
        return -1;
    }
    t->state = JOINING; /* a second join of the same thread fails */
    umutex_unlock(&table_lock);
    int v;
    while ((v = __atomic_load_n(&t->word, __ATOMIC_ACQUIRE)) != 0) futex(&t->word, FUTEX_WAIT, v, 0);
    umutex_lock(&table_lock);
    free(t->stack);
    t->state = FREE;
    umutex_unlock(&table_lock);
    return 0;
}

int thread_detach(int tid) {
    umutex_lock(&table_lock);
    struct uthread* t = find(tid);
    int r = -1;
    if (t && t->state == JOINABLE) {
        t->state = DETACHED;
        reap_detached();
        r = 0;
    }
    umutex_unlock(&table_lock);
    return r;
}

void thread_exit(void) { texit(0); }

int futex_wait(volatile int* addr, int val, unsigned long timeout_ns) {
    return futex(addr, FUTEX_WAIT, val, timeout_ns);
}

int futex_wake(volatile int* addr, int n) { return futex(addr, FUTEX_WAKE, n, 0); }
