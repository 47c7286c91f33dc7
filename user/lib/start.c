/* user/lib/start.c - C start-up: constructors, main, exit.
 *
 * Reached from _start (crt0.S) with the kernel's argc/argv untouched in
 * a0/a1. C++ programs may have global objects, so the .init_array entries
 * that the linker script brackets are run first. Returning from main is the
 * same as calling exit with its result, as in xv6-riscv's newer ulib.
 */
#include "user/user.h"

typedef void (*ctor_fn)(void);
extern ctor_fn __init_array_start[];
extern ctor_fn __init_array_end[];

extern int main(int argc, char** argv);

void __ustart(int argc, char** argv) __attribute__((noreturn));

void __ustart(int argc, char** argv) {
    for (ctor_fn* f = __init_array_start; f < __init_array_end; f++)
        (*f)();
    exit(main(argc, argv));
}
