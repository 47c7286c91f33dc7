/* sys/mman.h - memory mappings for the quanta C library (user/libc/mman.c).
 * The values are Linux's, as the kernel takes them (lib/abi/abi.h; the
 * library's abi_check.c checks they agree). docs/memory.md "Mappings". */
#ifndef QUANTA_SYS_MMAN_H
#define QUANTA_SYS_MMAN_H

#include <sys/types.h>

#define PROT_NONE 0
#define PROT_READ 1
#define PROT_WRITE 2
#define PROT_EXEC 4

#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_ANON MAP_ANONYMOUS
#define MAP_FAILED ((void*)-1)

#define MS_ASYNC 1
#define MS_INVALIDATE 2
#define MS_SYNC 4

#ifdef __cplusplus
extern "C" {
#endif

void* mmap(void* addr, size_t len, int prot, int flags, int fd, off_t off);
int munmap(void* addr, size_t len);
int mprotect(void* addr, size_t len, int prot);
int msync(void* addr, size_t len, int flags);

#ifdef __cplusplus
}
#endif

#endif
