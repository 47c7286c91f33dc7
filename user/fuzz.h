/* user/fuzz.h - what the parts of user/fuzz share: the worker's random
 * stream and argument makers (user/fuzz.c) and the signal calls and
 * shapes (user/fuzz_sig.c). */
#ifndef QUANTA_FUZZ_H
#define QUANTA_FUZZ_H

#define SCRATCH (64 * 1024)

unsigned long rnd(void);              /* the worker's stream (seeded: a seed names every call) */
unsigned long below(unsigned long n); /* 0..n-1 */
int chance(int pct);                  /* true pct% of the time */
long sc(long n, long a0, long a1, long a2, long a3, long a4, long a5); /* one ecall */
long bad_ptr(void);                                                    /* a user address the kernel must refuse */
long ptr_any(void);                                                    /* into scratch, or bad */
long pid_any(void);                                                    /* the worker, a child, none, junk */
void fill_scratch(void);                                               /* refill scratch with random bytes */
void one_call(void);                                                   /* one random call or shape */
extern char* scratch;                                                  /* SCRATCH bytes of heap */
extern int kids[16];                                                   /* the worker's live children */
extern int nkids;

/* user/fuzz_sig.c */
void fuzz_sigsend(void);
void fuzz_sigact(void);
void fuzz_sigreturn(void);
void shape_signals(void);

#endif
