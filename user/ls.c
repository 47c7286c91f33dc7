/* ls - list files: `ls [path...]`, default ".".
 *
 * For a directory, one line per entry; for anything else, one line for the
 * path itself. Each line is xv6's: the name padded with spaces to DIRSIZ,
 * then type, inode number and size in bytes. -h or any other option prints
 * the usage line.
 */
#include "kernel/fcntl.h"
#include "kernel/fs.h"
#include "kernel/stat.h"
#include "kernel/types.h"
#include "user/user.h"

/* The last path component, padded with blanks to DIRSIZ characters. */
static const char* fmtname(const char* path) {
    static char buf[DIRSIZ + 1];
    const char* p = path + strlen(path);
    while (p > path && p[-1] != '/') p--;
    int n = strlen(p);
    if (n >= DIRSIZ) return p;
    memmove(buf, p, n);
    memset(buf + n, ' ', DIRSIZ - n);
    buf[DIRSIZ] = 0;
    return buf;
}

static void print_entry(const char* name, const struct stat* st) {
    printf("%s %d %d %d\n", fmtname(name), st->type, st->ino, (int)st->size);
}

static void list_dir(int fd, const char* path) {
    char buf[512];
    int len = strlen(path);
    if (len + 1 + DIRSIZ + 1 > (int)sizeof(buf)) {
        fprintf(2, "ls: path too long\n");
        return;
    }
    strcpy(buf, path);
    char* p = buf + len;
    *p++ = '/';
    struct dirent de;
    while (read(fd, &de, sizeof(de)) == sizeof(de)) {
        if (de.inum == 0) continue;
        memmove(p, de.name, DIRSIZ);
        p[DIRSIZ] = 0;
        struct stat st;
        if (stat(buf, &st) < 0) {
            fprintf(2, "ls: cannot stat %s\n", buf);
            continue;
        }
        print_entry(buf, &st);
    }
}

static void ls(const char* path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fprintf(2, "ls: cannot open %s\n", path);
        return;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        fprintf(2, "ls: cannot stat %s\n", path);
    } else if (st.type == T_DIR) {
        list_dir(fd, path);
    } else {
        print_entry(path, &st);
    }
    close(fd);
}

int main(int argc, char* argv[]) {
    usage_no_options(argc, argv, "ls [path...]");
    if (argc < 2) ls(".");
    for (int i = 1; i < argc; i++) ls(argv[i]);
    return 0;
}
