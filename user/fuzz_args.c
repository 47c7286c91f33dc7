/* user/fuzz_args.c - the fuzzer's argument makers (part of user/fuzz).
 *
 * Each maker draws from the worker's stream (rnd, below, chance) and
 * returns a value that is usually plausible and often hostile: pointers
 * that are null, kernel (0x80000000..), >= 2^38, the trampoline and
 * trapframe pages, the guard page under the stack, the program text, just
 * past the break, -1 or sign-extended high; lengths 0, huge, negative or
 * 64-bit; descriptors negative, closed, out of range; pids of the worker,
 * its children, nobody or junk; paths from a table of names that are not
 * programs (and never "console": 14/15-character names, `.`, `..`, empty,
 * `/`, non-existent parents) or garbage, over-long or unterminated ones
 * (running into the break or the end of scratch); random open flags; user
 * and group ids root, student, other, -1, the caller's own or junk.
 * Valid buffers point into the heap scratch area the worker allocated at
 * start (user/fuzz.c:worker), so that a large read lands in the heap and
 * never in the worker's own variables.
 */
#include "user/fuzz.h"
#include "user/user.h"

static const char* names[] = {
    "a",
    "b",
    "c",
    "d1",
    "d2",
    "d1/a",
    "d1/b",
    "d1/d3",
    "d1/d3/x",
    ".",
    "..",
    "../a",
    "./b",
    "",
    "/",
    "//a",
    "d1/",
    "d1/../a",
    "abcdefghijklmn",
    "abcdefghijklmno",
    "abcdefghijklmnopqrstu/x",
    "p",
    "q",
    "zz",
    "d2/../../a",
    "nonexist/x",
    "a/b",
    "/fz",
    "/README.md",
    "d1/.",
    "d1/..",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static char pathbuf[512];

static int stackvar_anchor;

/* A user address the kernel must refuse (or a border case). */
long bad_ptr(void) {
    unsigned long brk = (unsigned long)sc(SYS_sbrk, 0, 0, 0, 0, 0, 0);
    unsigned long stackpage = (unsigned long)&stackvar_anchor & ~(PGSIZE - 1);
    unsigned long sp = (unsigned long)&brk & ~(PGSIZE - 1);
    switch (below(16)) {
        case 0:
            return 0;
        case 1:
            return 0x80000000L + (long)(below(0x800000) * 8);
        case 2:
            return 0x80000000L;
        case 3:
            return (long)MAXVA;
        case 4:
            return (long)(MAXVA - PGSIZE); /* trampoline */
        case 5:
            return (long)(MAXVA - 2 * PGSIZE); /* trapframe */
        case 6:
            return -1;
        case 7:
            return (long)brk;
        case 8:
            return (long)(brk + PGSIZE * below(4));
        case 9:
            return (long)(sp - PGSIZE); /* guard page under the stack */
        case 10:
            return (long)(unsigned long)&bad_ptr; /* program text */
        case 11:
            return (long)rnd();
        case 12:
            return (long)(brk - 1 - below(16)); /* straddles the break */
        case 13:
            return (long)(MAXVA - 1 - below(64));
        case 14:
            return (long)(stackpage - PGSIZE);
        default:
            return (long)(0xFFFFFFC000000000UL + below(1UL << 30)); /* sign-extended high */
    }
}

long ptr_any(void) {
    if (chance(70)) return (long)(scratch + below(SCRATCH - 64));
    return bad_ptr();
}

long len_any(void) {
    switch (below(12)) {
        case 0:
            return 0;
        case 1:
            return 1;
        case 2:
        case 3:
            return (long)below(600);
        case 4:
            return 4096;
        case 5:
            return (long)below(SCRATCH);
        case 6:
            return 1 << 20;
        case 7:
            return 0x7fffffff;
        case 8:
            return -1;
        case 9:
            return -(long)below(1 << 20);
        case 10:
            return (long)rnd();
        default:
            return 512;
    }
}

long fd_any(void) {
    switch (below(10)) {
        case 0:
            return -1;
        case 1:
            return 16 + (long)below(8);
        case 2:
            return (long)rnd();
        case 3:
            return -(long)below(100);
        case 4:
            return 0x7fffffff;
        default:
            return (long)below(16);
    }
}

long pid_any(void) {
    switch (below(6)) {
        case 0:
            return getpid();
        case 1:
            return nkids ? kids[below(nkids)] : 100000;
        case 2:
            return -1;
        case 3:
            return 0;
        case 4:
            return 1000 + (long)below(100000);
        default:
            return (long)(rnd() | 0x100000000UL); /* truncates to who knows: keep high bits */
    }
}

/* A path the kernel reads: names from the table, garbage, unterminated. */
long path_any(void) {
    switch (below(12)) {
        case 0:
            return bad_ptr();
        case 1: { /* garbage bytes, terminated */
            int n = (int)below(40);
            for (int i = 0; i < n; i++) {
                char c = (char)(1 + below(255));
                pathbuf[i] = c;
            }
            pathbuf[n] = 0;
            /* never spell "console" by accident: it cannot, the table lacks it */
            return (long)pathbuf;
        }
        case 2: { /* over-long: longer than kMaxPath */
            int n = 100 + (int)below(400);
            for (int i = 0; i < n; i++) pathbuf[i] = (i % 3 == 2) ? '/' : 'a' + (char)below(3);
            pathbuf[n] = 0;
            return (long)pathbuf;
        }
        case 3: { /* unterminated, running up to the break */
            unsigned long brk = (unsigned long)sc(SYS_sbrk, 0, 0, 0, 0, 0, 0);
            if (brk < heap_base) return bad_ptr();
            char* p = (char*)brk - 32;
            for (int i = 0; i < 32; i++) p[i] = 'x';
            return (long)p;
        }
        case 4: { /* unterminated in scratch: 64 KiB of non-NUL */
            char* p = scratch + SCRATCH - 200;
            for (int i = 0; i < 200; i++) p[i] = 'y';
            return (long)p;
        }
        default:
            return (long)names[below(NNAMES)];
    }
}

long flags_any(void) {
    static const long f[] = {O_RDONLY,           O_WRONLY, O_RDWR, O_CREATE | O_RDWR, O_CREATE | O_WRONLY | O_TRUNC,
                             O_TRUNC | O_RDONLY, O_CREATE};
    if (chance(20)) return (long)rnd();
    return f[below(sizeof(f) / sizeof(f[0]))];
}

void fill_scratch(void) {
    unsigned long* w = (unsigned long*)(scratch + (below(SCRATCH / 2) & ~7UL));
    for (int i = 0; i < 32; i++) w[i] = rnd();
}

/* A name from the table. */
const char* name_any(void) { return names[below(NNAMES)]; }

/* A user or group id: root, student, another user, "keep" (-1), the
 * caller's own, or junk. */
long id_any(void) {
    switch (below(6)) {
        case 0:
            return 0;
        case 1:
            return 1000;
        case 2:
            return 1001;
        case 3:
            return -1;
        case 4:
            return getuid();
        default:
            return (long)rnd();
    }
}
