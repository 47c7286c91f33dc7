/* user/libc/mman.c - mmap, munmap, mprotect, msync (sys/mman.h): one system
 * call each (90-93); a failure sets errno from the kernel's cause. */
#include <sys/mman.h>

#include "sys.h"

static long qsys6(long n, long a0, long a1, long a2, long a3, long a4, long a5) {
    register long r0 __asm__("a0") = a0;
    register long r1 __asm__("a1") = a1;
    register long r2 __asm__("a2") = a2;
    register long r3 __asm__("a3") = a3;
    register long r4 __asm__("a4") = a4;
    register long r5 __asm__("a5") = a5;
    register long r7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r7) : "memory");
    return r0;
}

void* mmap(void* addr, size_t len, int prot, int flags, int fd, off_t off) {
    return (void*)qsys_fail(qsys6(QSYS_mmap, (long)addr, (long)len, prot, flags, fd, (long)off));
}

int munmap(void* addr, size_t len) { return (int)qsys_fail(qsys2(QSYS_munmap, addr, len)); }

int mprotect(void* addr, size_t len, int prot) { return (int)qsys_fail(qsys3(QSYS_mprotect, addr, len, prot)); }

int msync(void* addr, size_t len, int flags) { return (int)qsys_fail(qsys3(QSYS_msync, addr, len, flags)); }
