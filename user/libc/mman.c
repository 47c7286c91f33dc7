/* user/libc/mman.c - mmap, munmap, mprotect, msync (sys/mman.h): one system
 * call each (90-93); a failure sets errno from the kernel's cause. */
#include <sys/mman.h>

#include "sys.h"

void* mmap(void* addr, size_t len, int prot, int flags, int fd, off_t off) {
    return (void*)qsys_fail(__qsys6(QSYS_mmap, (long)addr, (long)len, prot, flags, fd, (long)off));
}

int munmap(void* addr, size_t len) { return (int)qsys_fail(qsys2(QSYS_munmap, addr, len)); }

int mprotect(void* addr, size_t len, int prot) { return (int)qsys_fail(qsys3(QSYS_mprotect, addr, len, prot)); }

int msync(void* addr, size_t len, int flags) { return (int)qsys_fail(qsys3(QSYS_msync, addr, len, flags)); }
