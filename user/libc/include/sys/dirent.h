/* user/libc/include/sys/dirent.h - directories for <dirent.h> on quanta.
 *
 * picolibc leaves this header to the system (its own stops with #error);
 * make sysroot installs this one over it. A directory is read through a
 * descriptor, one kernel entry (16 bytes: inode number, 14-byte name) at
 * a time; dir.c turns each into a struct dirent with a NUL-terminated
 * name. Free slots (inode 0) are skipped. */
#ifndef _SYS_DIRENT_H
#define _SYS_DIRENT_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MAXNAMLEN 14

struct dirent {
    ino_t d_ino;
    unsigned char d_type; /* DT_UNKNOWN: use stat */
    char d_name[MAXNAMLEN + 1];
};

#define DT_UNKNOWN 0

typedef struct {
    int dd_fd;
    long dd_loc; /* entries read */
    struct dirent dd_ent;
} DIR;

#ifdef __cplusplus
}
#endif

#endif
