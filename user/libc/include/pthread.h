/* pthread.h - POSIX threads for quanta (user/libc/pthread*.c, docs/concurrency.md).
 *
 * The library is part of libquanta.a (qcc links it always; -pthread and
 * -lpthread are accepted and change nothing). Threads are the kernel's
 * (tcreate, futex: docs/threads.md); every blocking call sleeps on a futex,
 * and an uncontended mutex lock or unlock is one atomic instruction and no
 * system call. Errors are returned as POSIX error numbers (<errno.h>).
 * Not provided: cancellation, process-shared objects, scheduling
 * attributes, robust and priority-inheritance mutexes. */
#ifndef _QUANTA_PTHREAD_H
#define _QUANTA_PTHREAD_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTHREAD_KEYS_MAX 64
#define PTHREAD_DESTRUCTOR_ITERATIONS 4
#define PTHREAD_STACK_MIN 16384
#define PTHREAD_THREADS_MAX 32 /* the kernel's threads per process, the first one included */

typedef struct __pthread* pthread_t;

typedef struct {
    int __detach;
    size_t __stacksize;
} pthread_attr_t;

#define PTHREAD_CREATE_JOINABLE 0
#define PTHREAD_CREATE_DETACHED 1

#define PTHREAD_MUTEX_NORMAL 0
#define PTHREAD_MUTEX_RECURSIVE 1
#define PTHREAD_MUTEX_ERRORCHECK 2
#define PTHREAD_MUTEX_DEFAULT PTHREAD_MUTEX_NORMAL

#define PTHREAD_PROCESS_PRIVATE 0
#define PTHREAD_PROCESS_SHARED 1

/* __lock: 0 free, 1 held, 2 held and maybe waited for (Drepper's mutex). */
typedef struct {
    int __lock;
    int __type;
    long __owner; /* recursive and error-checking: the holder's tp */
    int __count;  /* recursive: times locked */
} pthread_mutex_t;
typedef struct {
    int __type;
} pthread_mutexattr_t;
#define PTHREAD_MUTEX_INITIALIZER \
    { 0, PTHREAD_MUTEX_NORMAL, 0, 0 }
#define PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP \
    { 0, PTHREAD_MUTEX_RECURSIVE, 0, 0 }
#define PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP \
    { 0, PTHREAD_MUTEX_ERRORCHECK, 0, 0 }

/* __seq changes at every signal; waiters sleep on it. */
typedef struct {
    unsigned __seq;
    unsigned __waiters;
    int __clock;
} pthread_cond_t;
typedef struct {
    int __clock;
} pthread_condattr_t;
#define PTHREAD_COND_INITIALIZER \
    { 0, 0, 0 }

typedef struct {
    pthread_mutex_t __m;
    pthread_cond_t __readers_go, __writer_go;
    int __readers; /* holding it to read */
    int __writer;  /* held to write */
    int __writers_waiting;
    long __writer_tp; /* the writer's tp */
} pthread_rwlock_t;
typedef struct {
    int __pshared;
} pthread_rwlockattr_t;
#define PTHREAD_RWLOCK_INITIALIZER \
    { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0 }

typedef struct {
    pthread_mutex_t __m;
    pthread_cond_t __cv;
    unsigned __count, __arrived, __phase;
} pthread_barrier_t;
typedef struct {
    int __pshared;
} pthread_barrierattr_t;
#define PTHREAD_BARRIER_SERIAL_THREAD (-1)

typedef int pthread_once_t;
#define PTHREAD_ONCE_INIT 0

typedef unsigned pthread_key_t;

typedef int pthread_spinlock_t;

int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg);
int pthread_join(pthread_t thread, void** value);
int pthread_detach(pthread_t thread);
void pthread_exit(void* value) __attribute__((noreturn));
pthread_t pthread_self(void);
int pthread_equal(pthread_t a, pthread_t b);

int pthread_attr_init(pthread_attr_t* attr);
int pthread_attr_destroy(pthread_attr_t* attr);
int pthread_attr_setdetachstate(pthread_attr_t* attr, int state);
int pthread_attr_getdetachstate(const pthread_attr_t* attr, int* state);
int pthread_attr_setstacksize(pthread_attr_t* attr, size_t size);
int pthread_attr_getstacksize(const pthread_attr_t* attr, size_t* size);

int pthread_mutex_init(pthread_mutex_t* m, const pthread_mutexattr_t* attr);
int pthread_mutex_destroy(pthread_mutex_t* m);
int pthread_mutex_lock(pthread_mutex_t* m);
int pthread_mutex_trylock(pthread_mutex_t* m);
int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* abstime);
int pthread_mutex_unlock(pthread_mutex_t* m);
int pthread_mutexattr_init(pthread_mutexattr_t* attr);
int pthread_mutexattr_destroy(pthread_mutexattr_t* attr);
int pthread_mutexattr_settype(pthread_mutexattr_t* attr, int type);
int pthread_mutexattr_gettype(const pthread_mutexattr_t* attr, int* type);
int pthread_mutexattr_setpshared(pthread_mutexattr_t* attr, int pshared);

int pthread_cond_init(pthread_cond_t* c, const pthread_condattr_t* attr);
int pthread_cond_destroy(pthread_cond_t* c);
int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m);
int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m, const struct timespec* abstime);
int pthread_cond_signal(pthread_cond_t* c);
int pthread_cond_broadcast(pthread_cond_t* c);
int pthread_condattr_init(pthread_condattr_t* attr);
int pthread_condattr_destroy(pthread_condattr_t* attr);
int pthread_condattr_setclock(pthread_condattr_t* attr, clockid_t clock);
int pthread_condattr_getclock(const pthread_condattr_t* attr, clockid_t* clock);

int pthread_rwlock_init(pthread_rwlock_t* rw, const pthread_rwlockattr_t* attr);
int pthread_rwlock_destroy(pthread_rwlock_t* rw);
int pthread_rwlock_rdlock(pthread_rwlock_t* rw);
int pthread_rwlock_tryrdlock(pthread_rwlock_t* rw);
int pthread_rwlock_wrlock(pthread_rwlock_t* rw);
int pthread_rwlock_trywrlock(pthread_rwlock_t* rw);
int pthread_rwlock_unlock(pthread_rwlock_t* rw);
int pthread_rwlockattr_init(pthread_rwlockattr_t* attr);
int pthread_rwlockattr_destroy(pthread_rwlockattr_t* attr);

int pthread_barrier_init(pthread_barrier_t* b, const pthread_barrierattr_t* attr, unsigned count);
int pthread_barrier_destroy(pthread_barrier_t* b);
int pthread_barrier_wait(pthread_barrier_t* b);
int pthread_barrierattr_init(pthread_barrierattr_t* attr);
int pthread_barrierattr_destroy(pthread_barrierattr_t* attr);

int pthread_spin_init(pthread_spinlock_t* s, int pshared);
int pthread_spin_destroy(pthread_spinlock_t* s);
int pthread_spin_lock(pthread_spinlock_t* s);
int pthread_spin_trylock(pthread_spinlock_t* s);
int pthread_spin_unlock(pthread_spinlock_t* s);

int pthread_once(pthread_once_t* once, void (*fn)(void));

int pthread_key_create(pthread_key_t* key, void (*destructor)(void*));
int pthread_key_delete(pthread_key_t key);
void* pthread_getspecific(pthread_key_t key);
int pthread_setspecific(pthread_key_t key, const void* value);

#ifdef __cplusplus
}
#endif

#endif
