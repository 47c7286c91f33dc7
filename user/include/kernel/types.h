/* kernel/types.h (user compatibility) - xv6-riscv's short integer names.
 *
 * Lets xv6-riscv user programs that `#include "kernel/types.h"` compile
 * unchanged against quanta's user library. Only type names live here.
 */
#ifndef QUANTA_COMPAT_TYPES_H
#define QUANTA_COMPAT_TYPES_H

typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;

typedef unsigned char uint8;
typedef unsigned short uint16;
typedef unsigned int uint32;
typedef unsigned long uint64;

typedef uint64 pde_t;

#endif
