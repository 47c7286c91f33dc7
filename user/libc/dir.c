/* user/libc/dir.c - opendir/readdir over directory descriptors, getcwd.
 *
 * The kernel lets a directory be opened read-only and read as a file of
 * 16-byte entries (struct q_dirent); readdir skips free ones (inode 0).
 * getcwd has no system call to use: it walks up from ".", finding each
 * directory's name in its parent ("..", "../..", ...) by inode number,
 * until a directory is its own parent (the root). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys.h"

DIR* fdopendir(int fd) {
    struct stat st;
    if (fstat(fd, &st) < 0) return NULL;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return NULL;
    }
    DIR* d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->dd_fd = fd;
    return d;
}

DIR* opendir(const char* path) {
    const int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    DIR* d = fdopendir(fd);
    if (!d) close(fd);
    return d;
}

struct dirent* readdir(DIR* d) {
    struct q_dirent de;
    for (;;) {
        const ssize_t n = read(d->dd_fd, &de, sizeof de);
        if (n != sizeof de) return NULL; /* end, or errno from read */
        d->dd_loc++;
        if (de.inum == 0) continue;
        d->dd_ent.d_ino = de.inum;
        d->dd_ent.d_type = DT_UNKNOWN;
        memcpy(d->dd_ent.d_name, de.name, sizeof de.name);
        d->dd_ent.d_name[sizeof de.name] = '\0';
        return &d->dd_ent;
    }
}

void rewinddir(DIR* d) {
    lseek(d->dd_fd, 0, SEEK_SET);
    d->dd_loc = 0;
}

int dirfd(DIR* d) { return d->dd_fd; }

int closedir(DIR* d) {
    const int r = close(d->dd_fd);
    free(d);
    return r;
}

/* The name of the directory with inode ino in directory parent, into out. */
static int name_in(const char* parent, ino_t ino, char* out) {
    DIR* d = opendir(parent);
    if (!d) return -1;
    struct dirent* e;
    while ((e = readdir(d))) {
        if (e->d_ino == ino && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            strcpy(out, e->d_name);
            closedir(d);
            return 0;
        }
    }
    closedir(d);
    errno = ENOENT;
    return -1;
}

char* getcwd(char* buf, size_t size) {
    char up[256] = ".", path[256] = "", name[MAXNAMLEN + 1], tmp[256];
    struct stat here, parent;
    if (stat(up, &here) < 0) return NULL;
    for (;;) {
        if (strlen(up) + 4 > sizeof up) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        strcat(up, "/..");
        if (stat(up, &parent) < 0) return NULL;
        if (parent.st_ino == here.st_ino) break; /* the root */
        if (name_in(up, here.st_ino, name) < 0) return NULL;
        if (strlen(name) + strlen(path) + 2 > sizeof path) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        strcpy(tmp, path);
        strcpy(path, "/");
        strcat(path, name);
        strcat(path, tmp);
        here = parent;
    }
    if (path[0] == '\0') strcpy(path, "/");
    if (!buf) {
        size = size ? size : strlen(path) + 1;
        if (!(buf = malloc(size))) return NULL;
    }
    if (strlen(path) + 1 > size) {
        errno = ERANGE;
        return NULL;
    }
    return strcpy(buf, path);
}
