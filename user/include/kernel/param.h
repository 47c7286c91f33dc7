/* kernel/param.h (user compatibility) - xv6's limit names with quanta's values.
 *
 * The values mirror lib/params.h (C++ only, so not includable from C);
 * tests/host/fs_compat_test.cc fails if the two disagree.
 */
#ifndef QUANTA_COMPAT_PARAM_H
#define QUANTA_COMPAT_PARAM_H

#define NPROC 256
#define NCPU 8
#define NOFILE 16
#define NFILE 400
#define NINODE 200
#define NDEV 10
#define ROOTDEV 1
#define MAXARG 32
#define MAXOPBLOCKS 10
#define LOGBLOCKS 64
#define LOGSIZE LOGBLOCKS
#define NBUF (MAXOPBLOCKS * 4)
#define FSSIZE 5000
#define MAXPATH 128
#define USERSTACK 1

#endif
