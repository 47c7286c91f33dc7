/* kernel/stat.h (user compatibility) - struct stat and T_DIR/T_FILE/T_DEVICE.
 *
 * The definitions are the ABI's (lib/abi/abi.h), shared with the kernel.
 */
#ifndef QUANTA_COMPAT_STAT_H
#define QUANTA_COMPAT_STAT_H
#include "lib/abi/abi.h"
#endif
