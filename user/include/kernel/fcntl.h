/* kernel/fcntl.h (user compatibility) - open() flags, from lib/abi/abi.h. */
#ifndef QUANTA_COMPAT_FCNTL_H
#define QUANTA_COMPAT_FCNTL_H
#include "lib/abi/abi.h"
#endif
