/* semaphore.h - POSIX unnamed semaphores for quanta (user/libc/semaphore.c).
 *
 * A semaphore is a futex word (its value) and a count of sleepers: sem_post
 * makes a system call only when someone sleeps. Process-shared semaphores
 * (pshared != 0) and named ones (sem_open) are not provided: quanta has no
 * shared memory. Like POSIX, these return -1 and set errno. */
#ifndef _QUANTA_SEMAPHORE_H
#define _QUANTA_SEMAPHORE_H

#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SEM_VALUE_MAX 0x7fffffff
#define SEM_FAILED ((sem_t*)0)

typedef struct {
    int __value;
    unsigned __waiters;
} sem_t;

int sem_init(sem_t* s, int pshared, unsigned value);
int sem_destroy(sem_t* s);
int sem_wait(sem_t* s);
int sem_trywait(sem_t* s);
int sem_timedwait(sem_t* s, const struct timespec* abstime);
int sem_post(sem_t* s);
int sem_getvalue(sem_t* s, int* value);

#ifdef __cplusplus
}
#endif

#endif
