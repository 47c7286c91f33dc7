/* kernel/syscall.h (user compatibility) - SYS_* numbers, from lib/abi/abi.h. */
#ifndef QUANTA_COMPAT_SYSCALL_H
#define QUANTA_COMPAT_SYSCALL_H
#include "lib/abi/abi.h"
#endif
