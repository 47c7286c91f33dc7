/* user/fuzz_thread.c - the fuzzer's threads and futexes (part of
 * user/fuzz; issue 26, docs/threads.md).
 *
 * tcreate usually starts a real thread on one of four static stacks (a
 * stack is claimed by a compare-and-swap of its tidp word and freed by the
 * kernel's clear of that word at texit) that makes a few random calls
 * itself and then texits, so every call also meets a second thread of the
 * same process; otherwise it gets a faulting entry, stack or tidp word.
 * futex waits and wakes on scratch words (with the right or a wrong value,
 * short timeouts) and on hostile addresses with junk ops. The worker's
 * first thread never texits (user/fuzz_call.c rewrites that call), and a
 * wait that nobody ends is the supervisor's kill of a blocked worker,
 * which kill must manage for a futex sleeper.
 */
#include "user/fuzz.h"
#include "user/user.h"

#define TSTACKS 4
#define TSTACK 8192
static char tstacks[TSTACKS][TSTACK] __attribute__((aligned(16)));
static volatile int tstack_word[TSTACKS]; /* tidp of the thread on that stack; 0: free */

/* A worker's second (third...) thread: a few random calls, then texit. */
static void thread_body(void* arg) {
    (void)arg;
    for (int i = 0; i < 8; i++) one_call();
    texit((int)below(256));
}

/* An entry point that faults at once (kernel, unmapped, data, trampoline). */
static long bad_entry(void) {
    switch (below(4)) {
        case 0:
            return 0x80000000L + (long)(below(0x10000) * 4);
        case 1:
            return 0x3000000000L;
        case 2:
            return (long)scratch; /* data: not executable */
        default:
            return (long)MAXVA - PGSIZE; /* the trampoline: not for user mode */
    }
}

/* An address user mode can never write (a thread's stack or tidp). */
static long bad_stack(void) {
    switch (below(5)) {
        case 0:
            return 0x80000000L + (long)(below(0x10000) * 16);
        case 1:
            return 0;
        case 2:
            return (long)MAXVA;
        case 3:
            return (long)MAXVA - PGSIZE;
        default:
            return (long)(unsigned long)&bad_ptr; /* program text */
    }
}

void fuzz_tcreate(void) {
    if (chance(70)) {
        for (int i = 0; i < TSTACKS; i++) {
            if (!__sync_bool_compare_and_swap(&tstack_word[i], 0, -1)) continue;
            long tid = sc(SYS_tcreate, (long)thread_body, 0, (long)(tstacks[i] + TSTACK), (long)rnd(),
                          (long)&tstack_word[i], 0);
            if (tid < 0) tstack_word[i] = 0;
            return;
        }
        return;
    }
    /* Hostile: each fails (-1) or faults in the new thread before it
     * touches the stack it names, which may be another thread's. */
    long entry = (long)thread_body, stack = (long)(tstacks[0] + TSTACK), tidp = 0;
    switch (below(3)) {
        case 0:
            entry = bad_entry();
            break;
        case 1:
            stack = bad_stack();
            break;
        default:
            tidp = bad_stack();
            break;
    }
    sc(SYS_tcreate, entry, (long)rnd(), stack, (long)rnd(), tidp, 0);
}

void fuzz_futex(void) {
    volatile int* word = (volatile int*)(scratch + (below(SCRATCH / 4) * 4));
    long addr = chance(60) ? (long)word : bad_ptr() + (chance(20) ? (long)below(4) : 0);
    long op = chance(85) ? (long)below(3) : (long)rnd();
    long val = addr == (long)word && chance(60) ? *word : (long)rnd();
    if (op == FUTEX_WAKE && chance(80)) val = (long)below(8);
    long timeout = chance(90) ? 1 + (long)below(20000000) : chance(50) ? 0 : (long)rnd();
    if (op == FUTEX_WAIT_UNTIL && timeout > 0 && chance(80)) timeout += (long)uptime_ns(); /* an instant ahead */
    sc(SYS_futex, addr, op, val, timeout, 0, 0);
}
