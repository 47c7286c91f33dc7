/* user/libc/plocks.c - picolibc's locks on the futex mutex, and whole
 * stdio calls.
 *
 * picolibc takes __retarget_lock_* locks around malloc and free (one
 * recursive lock, __lock___libc_recursive_mutex), atexit, the environment
 * and time zone, and each buffered stream's put, get, flush and seek (one
 * lock per stream, made by __retarget_lock_init when fdopen/fopen opens
 * it). Its own definitions do nothing; these, in libquanta.a ahead of
 * libc.a, replace them (docs/userland.md). Every lock here is recursive
 * (a holder may take it again), which covers both kinds: a struct __lock
 * is a futex mutex word, its holder's tp and a count.
 *
 * A stream's lock covers one character at a time in picolibc, so two
 * threads' printf calls could interleave their characters. The link wraps
 * vfprintf (under printf and fprintf), puts, fputs and fwrite (qcc passes
 * --wrap) so that each call holds its stream's lock throughout: as in
 * glibc, one call's output is never split by another thread's. Only
 * buffered streams (flag __SBUF: stdin, stdout, stderr and files) have a
 * lock; string streams (snprintf) are private to their caller. */
#include <stdarg.h>
#include <stdio-bufio.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/lock.h>

#include "pthread_impl.h"

struct __lock {
    volatile int word;
    int count;
    long owner;
};

struct __lock __lock___libc_recursive_mutex;

static void acquire(struct __lock* l) {
    if (!l) return;
    const long me = q_tp();
    if (l->owner == me) {
        l->count++;
        return;
    }
    __qlock(&l->word);
    l->owner = me;
    l->count = 1;
}

/* 1 when taken (picolibc's convention), 0 when another thread holds it. */
static int try_acquire(struct __lock* l) {
    if (!l) return 1;
    const long me = q_tp();
    if (l->owner != me) {
        int zero = 0;
        if (!__atomic_compare_exchange_n(&l->word, &zero, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return 0;
        l->owner = me;
        l->count = 0;
    }
    l->count++;
    return 1;
}

static void release(struct __lock* l) {
    if (!l || l->owner != q_tp()) return;
    if (--l->count > 0) return;
    l->owner = 0;
    __qunlock(&l->word);
}

void __retarget_lock_init(_LOCK_T* lock) { *lock = calloc(1, sizeof(struct __lock)); }
void __retarget_lock_init_recursive(_LOCK_T* lock) { __retarget_lock_init(lock); }
void __retarget_lock_close(_LOCK_T lock) { free(lock); }
void __retarget_lock_close_recursive(_LOCK_T lock) { free(lock); }
void __retarget_lock_acquire(_LOCK_T lock) { acquire(lock); }
void __retarget_lock_acquire_recursive(_LOCK_T lock) { acquire(lock); }
int __retarget_lock_try_acquire(_LOCK_T lock) { return try_acquire(lock); }
int __retarget_lock_try_acquire_recursive(_LOCK_T lock) { return try_acquire(lock); }
void __retarget_lock_release(_LOCK_T lock) { release(lock); }
void __retarget_lock_release_recursive(_LOCK_T lock) { release(lock); }

/* --- whole stdio calls ------------------------------------------------------- */

static struct __lock* stream_lock(FILE* f) { return (f->flags & __SBUF) ? ((struct __file_bufio*)f)->lock : 0; }

int __real_vfprintf(FILE* f, const char* fmt, va_list ap);
int __real_puts(const char* s);
int __real_fputs(const char* s, FILE* f);
size_t __real_fwrite(const void* p, size_t size, size_t n, FILE* f);

int __wrap_vfprintf(FILE* f, const char* fmt, va_list ap) {
    struct __lock* l = stream_lock(f);
    acquire(l);
    const int r = __real_vfprintf(f, fmt, ap);
    release(l);
    return r;
}

int __wrap_puts(const char* s) {
    struct __lock* l = stream_lock(stdout);
    acquire(l);
    const int r = __real_puts(s);
    release(l);
    return r;
}

int __wrap_fputs(const char* s, FILE* f) {
    struct __lock* l = stream_lock(f);
    acquire(l);
    const int r = __real_fputs(s, f);
    release(l);
    return r;
}

size_t __wrap_fwrite(const void* p, size_t size, size_t n, FILE* f) {
    struct __lock* l = stream_lock(f);
    acquire(l);
    const size_t r = __real_fwrite(p, size, n, f);
    release(l);
    return r;
}
