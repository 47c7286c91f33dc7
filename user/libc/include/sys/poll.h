/* user/libc/include/sys/poll.h - the old name of <poll.h> (some programs include it). */
#include <poll.h>
