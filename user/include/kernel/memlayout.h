/* kernel/memlayout.h (user compatibility) - addresses xv6's usertests probe.
 *
 * Same places as xv6-riscv on QEMU virt: RAM at 0x80000000, the trampoline
 * and trapframe pages at the top of every user address space.
 */
#ifndef QUANTA_COMPAT_MEMLAYOUT_H
#define QUANTA_COMPAT_MEMLAYOUT_H
#include "kernel/riscv.h"

#define KERNBASE 0x80000000L
#define PHYSTOP (KERNBASE + 128 * 1024 * 1024)
#define TRAMPOLINE (MAXVA - PGSIZE)
#define TRAPFRAME (TRAMPOLINE - PGSIZE)

#endif
