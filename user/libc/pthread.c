/* user/libc/pthread.c - POSIX threads: create, join, detach, exit, self,
 * attributes, once, and thread-specific keys.
 *
 * A thread is a kernel thread (tcreate, docs/threads.md) with one block
 * from malloc holding its descriptor (struct __pthread), its TLS block
 * (picolibc's errno and every other thread-local of the C library live
 * there, so each thread has its own) and its stack. The descriptor's
 * `word` is tcreate's tidp: the kernel stores the tid there before
 * tcreate returns and stores 0, with a futex wake, once the thread has
 * left user mode for good, so after that its block may be freed. join
 * sleeps on that word, then frees the block; a detached thread's block is
 * freed by the next create, detach or join that finds its word at 0 (a
 * thread cannot free the stack it runs on). A freed block goes to a small
 * cache that the next create with the same stack size takes first, as
 * glibc's stack cache does: malloc would give it back to sbrk at the top
 * of the heap, and a new one costs the kernel fresh zeroed pages and a
 * page fault on each (2.2 ms for a 64 KiB stack; from the cache 0.1 ms).
 *
 * Invariants: every thread but the first is on `threads`, under
 * table_lock, from before tcreate until its block is freed; its state
 * moves JOINABLE -> JOINING (a join has claimed it) or JOINABLE ->
 * DETACHED, once. `live` counts threads that have not called
 * pthread_exit; the one that brings it to 0 calls exit(0), as POSIX
 * asks (the process ends, stdio flushed, when its last thread ends). The
 * first thread's descriptor is static (main_thread); it cannot be joined.
 *
 * Keys: a table of PTHREAD_KEYS_MAX slots, each with a generation that
 * changes when the key is created or deleted; a thread's value counts only
 * if it was set under the key's current generation, so a deleted and
 * re-created key reads NULL in every thread. Destructors run at
 * pthread_exit (and return from the start routine), up to
 * PTHREAD_DESTRUCTOR_ITERATIONS rounds while values remain. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pthread_impl.h"

enum { JOINABLE, JOINING, DETACHED };
enum { kDefaultStack = 64 * 1024, kCachedBlocks = 8 };

struct __pthread {
    volatile int word; /* tcreate's tidp: the tid while it runs, then 0 */
    int tid;
    int state;
    size_t stacksize;
    void* (*fn)(void*);
    void* arg;
    void* ret;
    char* mem; /* the malloc block: this descriptor, TLS, stack */
    struct __pthread* next;
    struct {
        unsigned gen;
        const void* value;
    } specific[PTHREAD_KEYS_MAX];
};

void _init_tls(void* tls); /* picolibc: copy .tdata, zero .tbss */
extern char __tls_size[], __tls_align[];

static __thread struct __pthread* self;
static struct __pthread main_thread;
static struct __pthread* threads;
static volatile int table_lock;
static int live = 1;
static struct {
    char* mem;
    size_t stacksize;
} cache[kCachedBlocks];

static struct {
    int used;
    unsigned gen;
    void (*destructor)(void*);
} keys[PTHREAD_KEYS_MAX];

pthread_t pthread_self(void) { return self ? self : &main_thread; }

int pthread_equal(pthread_t a, pthread_t b) { return a == b; }

/* --- attributes ------------------------------------------------------------ */

int pthread_attr_init(pthread_attr_t* a) {
    a->__detach = PTHREAD_CREATE_JOINABLE;
    a->__stacksize = kDefaultStack;
    return 0;
}
int pthread_attr_destroy(pthread_attr_t* a) {
    (void)a;
    return 0;
}
int pthread_attr_setdetachstate(pthread_attr_t* a, int state) {
    if (state != PTHREAD_CREATE_JOINABLE && state != PTHREAD_CREATE_DETACHED) return EINVAL;
    a->__detach = state;
    return 0;
}
int pthread_attr_getdetachstate(const pthread_attr_t* a, int* state) {
    *state = a->__detach;
    return 0;
}
int pthread_attr_setstacksize(pthread_attr_t* a, size_t size) {
    if (size < PTHREAD_STACK_MIN || size > (size_t)INT_MAX) return EINVAL;
    a->__stacksize = size;
    return 0;
}
int pthread_attr_getstacksize(const pthread_attr_t* a, size_t* size) {
    *size = a->__stacksize;
    return 0;
}

/* --- the thread table (table_lock held) ------------------------------------ */

static int listed(struct __pthread* t) {
    for (struct __pthread* p = threads; p; p = p->next) {
        if (p == t) return 1;
    }
    return 0;
}

static void unlist(struct __pthread* t) {
    for (struct __pthread** p = &threads; *p; p = &(*p)->next) {
        if (*p == t) {
            *p = t->next;
            return;
        }
    }
}

/* A thread's block, to the cache or back to malloc. */
static void release_block(char* mem, size_t stacksize) {
    for (int i = 0; i < kCachedBlocks; i++) {
        if (!cache[i].mem) {
            cache[i].mem = mem;
            cache[i].stacksize = stacksize;
            return;
        }
    }
    free(mem);
}

/* A block for a thread with this stack size: a cached one, or malloc's. */
static char* take_block(size_t size, size_t stacksize) {
    for (int i = 0; i < kCachedBlocks; i++) {
        if (cache[i].mem && cache[i].stacksize == stacksize) {
            char* mem = cache[i].mem;
            cache[i].mem = 0;
            return mem;
        }
    }
    return malloc(size);
}

/* Free the blocks of detached threads that have ended. */
static void reap_detached(void) {
    struct __pthread** p = &threads;
    while (*p) {
        struct __pthread* t = *p;
        if (t->state == DETACHED && __atomic_load_n(&t->word, __ATOMIC_ACQUIRE) == 0) {
            *p = t->next;
            release_block(t->mem, t->stacksize);
        } else {
            p = &t->next;
        }
    }
}

/* --- create, exit, join, detach ------------------------------------------------ */

static void run_destructors(struct __pthread* t) {
    for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
        int ran = 0;
        for (int k = 0; k < PTHREAD_KEYS_MAX; k++) {
            void (*d)(void*) = keys[k].destructor;
            void* v = (void*)t->specific[k].value;
            if (!keys[k].used || !d || !v || t->specific[k].gen != keys[k].gen) continue;
            t->specific[k].value = 0;
            d(v);
            ran = 1;
        }
        if (!ran) return;
    }
}

void pthread_exit(void* value) {
    struct __pthread* t = pthread_self();
    t->ret = value;
    run_destructors(t);
    __qlock(&table_lock);
    const int last = --live == 0;
    __qunlock(&table_lock);
    if (last) exit(0);
    qsys1(QSYS_texit, 0);
    __builtin_unreachable();
}

static void thread_start(struct __pthread* t) {
    self = t;
    pthread_exit(t->fn(t->arg));
}

static size_t round_up(size_t n, size_t a) { return (n + a - 1) & ~(a - 1); }

int pthread_create(pthread_t* out, const pthread_attr_t* attr, void* (*fn)(void*), void* arg) {
    pthread_attr_t def;
    if (!attr) {
        pthread_attr_init(&def);
        attr = &def;
    }
    if (attr->__stacksize < PTHREAD_STACK_MIN) return EINVAL;
    const size_t align = (size_t)__tls_align > 16 ? (size_t)__tls_align : 16;
    const size_t desc = round_up(sizeof(struct __pthread), align);
    const size_t tls = round_up((size_t)__tls_size, 16);
    __qlock(&table_lock);
    reap_detached();
    char* mem = take_block(align + desc + tls + attr->__stacksize, attr->__stacksize);
    if (!mem) {
        __qunlock(&table_lock);
        return EAGAIN;
    }
    char* base = (char*)round_up((uintptr_t)mem, align);
    struct __pthread* t = (struct __pthread*)base;
    memset(t, 0, sizeof *t);
    t->state = attr->__detach == PTHREAD_CREATE_DETACHED ? DETACHED : JOINABLE;
    t->stacksize = attr->__stacksize;
    t->fn = fn;
    t->arg = arg;
    t->mem = mem;
    _init_tls(base + desc);
    const uintptr_t top = ((uintptr_t)base + desc + tls + attr->__stacksize) & ~(uintptr_t)15;
    *out = t;
    t->next = threads;
    threads = t;
    live++;
    const long tid =
        __qsys6(QSYS_tcreate, (long)thread_start, (long)t, (long)top, (long)(base + desc), (long)&t->word, 0);
    if (tid < 0) {
        unlist(t);
        live--;
        release_block(mem, t->stacksize);
    } else {
        t->tid = (int)tid;
    }
    __qunlock(&table_lock);
    return tid < 0 ? EAGAIN : 0;
}

int pthread_join(pthread_t t, void** value) {
    if (t == pthread_self()) return EDEADLK;
    __qlock(&table_lock);
    int err = listed(t) ? 0 : ESRCH;
    if (!err && t->state != JOINABLE) err = EINVAL;
    if (!err) t->state = JOINING;
    __qunlock(&table_lock);
    if (err) return err;
    for (int w; (w = __atomic_load_n(&t->word, __ATOMIC_ACQUIRE)) != 0;) q_futex_wait(&t->word, w, 0);
    if (value) *value = t->ret;
    __qlock(&table_lock);
    unlist(t);
    release_block(t->mem, t->stacksize);
    reap_detached();
    __qunlock(&table_lock);
    return 0;
}

int pthread_detach(pthread_t t) {
    __qlock(&table_lock);
    int err = listed(t) ? 0 : ESRCH;
    if (!err && t->state != JOINABLE) err = EINVAL;
    if (!err) t->state = DETACHED;
    reap_detached();
    __qunlock(&table_lock);
    return err;
}

/* --- once --------------------------------------------------------------------- */

/* *once: 0 not run, 1 running, 3 running and waited for, 2 done. */
int pthread_once(pthread_once_t* once, void (*fn)(void)) {
    if (__atomic_load_n(once, __ATOMIC_ACQUIRE) == 2) return 0;
    int s = 0;
    if (__atomic_compare_exchange_n(once, &s, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        fn();
        if (__atomic_exchange_n(once, 2, __ATOMIC_RELEASE) == 3) q_futex_wake(once, INT_MAX);
        return 0;
    }
    for (;;) {
        s = __atomic_load_n(once, __ATOMIC_ACQUIRE);
        if (s == 2) return 0;
        if (s == 1 && !__atomic_compare_exchange_n(once, &s, 3, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) continue;
        q_futex_wait(once, 3, 0);
    }
}

/* --- thread-specific keys ----------------------------------------------------- */

int pthread_key_create(pthread_key_t* key, void (*destructor)(void*)) {
    int err = EAGAIN;
    __qlock(&table_lock);
    for (unsigned k = 0; k < PTHREAD_KEYS_MAX; k++) {
        if (!keys[k].used) {
            keys[k].used = 1;
            keys[k].gen++;
            keys[k].destructor = destructor;
            *key = k;
            err = 0;
            break;
        }
    }
    __qunlock(&table_lock);
    return err;
}

int pthread_key_delete(pthread_key_t key) {
    int err = EINVAL;
    __qlock(&table_lock);
    if (key < PTHREAD_KEYS_MAX && keys[key].used) {
        keys[key].used = 0;
        keys[key].gen++;
        keys[key].destructor = 0;
        err = 0;
    }
    __qunlock(&table_lock);
    return err;
}

void* pthread_getspecific(pthread_key_t key) {
    if (key >= PTHREAD_KEYS_MAX) return 0;
    struct __pthread* t = pthread_self();
    return t->specific[key].gen == keys[key].gen ? (void*)t->specific[key].value : 0;
}

int pthread_setspecific(pthread_key_t key, const void* value) {
    if (key >= PTHREAD_KEYS_MAX || !keys[key].used) return EINVAL;
    struct __pthread* t = pthread_self();
    t->specific[key].gen = keys[key].gen;
    t->specific[key].value = value;
    return 0;
}
