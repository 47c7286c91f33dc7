/* kernel/fs.h (user compatibility) - what user programs use from xv6's fs.h.
 *
 * DIRSIZ and struct dirent come from lib/abi/abi.h. The block-geometry
 * macros mirror lib/fs/layout.h (C++ only); tests/host/fs_compat_test.cc
 * checks that the numbers agree.
 */
#ifndef QUANTA_COMPAT_FS_H
#define QUANTA_COMPAT_FS_H
#include "lib/abi/abi.h"

#define ROOTINO 1
#define BSIZE 1024
#define FSMAGIC 0x10203040
#define NDIRECT 12
#define NINDIRECT (BSIZE / sizeof(unsigned int))
#define MAXFILE (NDIRECT + NINDIRECT)

#endif
