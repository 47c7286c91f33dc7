/* user/fuzz.h - what the parts of user/fuzz share (user/fuzz.c's opening
 * comment lists them): the worker's random stream, raw ecall and state
 * (user/fuzz.c), the argument makers (user/fuzz_args.c), one random call
 * (user/fuzz_call.c), the shapes (user/fuzz_shape.c), threads and futexes
 * (user/fuzz_thread.c) and the signal calls and shapes (user/fuzz_sig.c). */
#ifndef QUANTA_FUZZ_H
#define QUANTA_FUZZ_H

#define SCRATCH (64 * 1024)
#define PGSIZE 4096UL
#define MAXVA (1UL << 38)
#define HEAP_CAP (4UL << 20) /* sbrk shrinks the heap back past this */

/* user/fuzz.c */
unsigned long rnd(void);              /* the worker's stream (seeded: a seed names every call) */
unsigned long below(unsigned long n); /* 0..n-1 */
int chance(int pct);                  /* true pct% of the time */
long sc(long n, long a0, long a1, long a2, long a3, long a4, long a5); /* one ecall */
extern char* scratch;                                                  /* SCRATCH bytes of heap */
extern unsigned long heap_base;                                        /* the break after scratch was allocated */
extern int kids[16];                                                   /* the worker's live children */
extern int nkids;
extern int verbose;            /* 0, 1 (v: report deaths) or 2 (t: trace every call) */
extern unsigned long skipmask; /* system calls not to issue (bit n = number n) */
extern char workdir[16];       /* this worker's directory, /fz/wN */

/* user/fuzz_args.c */
long bad_ptr(void);         /* a user address the kernel must refuse */
long ptr_any(void);         /* into scratch, or bad */
long len_any(void);         /* a length: 0, small, a page, huge, negative, junk */
long fd_any(void);          /* a descriptor: open or not, negative, out of range */
long pid_any(void);         /* the worker, a child, none, junk */
long path_any(void);        /* a table name, garbage, over-long, unterminated */
const char* name_any(void); /* a name from the table */
long flags_any(void);       /* open flags, or junk */
long id_any(void);          /* a user or group id */
void fill_scratch(void);    /* refill scratch with random bytes */

/* user/fuzz_call.c */
void one_call(void); /* one random call or shape */

/* user/fuzz_shape.c */
void one_shape(void);
void shape_mappings(void);

/* user/fuzz_thread.c */
void fuzz_tcreate(void);
void fuzz_futex(void);

/* user/fuzz_sig.c */
void fuzz_sigsend(void);
void fuzz_sigact(void);
void fuzz_sigreturn(void);
void shape_signals(void);

#endif
