/* user/lib/start.c - C start-up: constructors, main, exit.
 *
 * Reached from _start (crt0.S) with the kernel's argc/argv untouched in
 * a0/a1. C++ programs may have global objects, so the .init_array entries
 * that the linker script brackets are run first. Returning from main is the
 * same as calling exit with its result, as in xv6-riscv's newer ulib.
 * Destructors of C++ globals are registered with __cxa_atexit and run when
 * main returns (not when a program calls exit() directly, a system call).
 */
#include "user/user.h"

typedef void (*ctor_fn)(void);
extern ctor_fn __init_array_start[];
extern ctor_fn __init_array_end[];

extern int main(int argc, char** argv);

enum { kMaxAtExit = 32 };
static struct {
    void (*fn)(void*);
    void* arg;
} atexit_fns[kMaxAtExit];
static int n_atexit;

int __cxa_atexit(void (*fn)(void*), void* arg, void* dso) {
    (void)dso;
    if (n_atexit == kMaxAtExit) return -1;
    atexit_fns[n_atexit].fn = fn;
    atexit_fns[n_atexit].arg = arg;
    n_atexit++;
    return 0;
}

void __ustart(int argc, char** argv) __attribute__((noreturn));

void __ustart(int argc, char** argv) {
    for (ctor_fn* f = __init_array_start; f < __init_array_end; f++) (*f)();
    int r = main(argc, argv);
    while (n_atexit > 0) {
        n_atexit--;
        atexit_fns[n_atexit].fn(atexit_fns[n_atexit].arg);
    }
    exit(r);
}
