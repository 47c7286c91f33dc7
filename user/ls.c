/* ls - list files: `ls [-l] [path...]`, default ".".
 *
 * For a directory, one line per entry; for anything else, one line for the
 * path itself. Each line is xv6's: the name padded with spaces to DIRSIZ,
 * then type, inode number and size in bytes. With -l, each line is Unix's
 * long form instead: mode (lib/abi/users.h's mode_string), link count,
 * owner, group (names from /etc/passwd, numbers when unknown), size, name.
 * Entries are examined with xstat, which needs no read permission on them.
 * -h or any other option prints the usage line.
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

static int long_form; /* -l */

/* s left-aligned in width columns, then a space. */
static void pad(const char* s, int width) {
    int n = strlen(s);
    printf("%s", s);
    for (; n < width; n++) printf(" ");
    printf(" ");
}

/* v right-aligned in width columns, then a space. */
static void num(unsigned long v, int width) {
    char digits[24];
    int k = 0;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (int i = k; i < width; i++) printf(" ");
    while (k > 0) printf("%c", digits[--k]);
    printf(" ");
}

static void print_entry(const char* name, const struct xstat* st) {
    if (!long_form) {
        printf("%s %d %d %d\n", fmtname(name), st->type, st->ino, (int)st->size);
        return;
    }
    char mode[11], user[PW_NAME_MAX], group[PW_NAME_MAX];
    mode_string(st->type, st->mode, mode);
    pad(mode, 0);
    num((unsigned long)st->nlink, 2);
    pad(pw_name(st->uid, user), 8);
    pad(pw_group(st->gid, group), 8);
    num(st->size, 6);
    const char* base = name + strlen(name);
    while (base > name && base[-1] != '/') base--;
    printf("%s\n", *base ? base : name);
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
        struct xstat st;
        if (xstat(buf, &st) < 0) {
            perrorf("ls: cannot stat %s", buf);
            continue;
        }
        print_entry(buf, &st);
    }
}

static void ls(const char* path) {
    struct xstat st;
    if (xstat(path, &st) == 0 && st.type != T_DIR) { /* a file: no need to open (or read) it */
        print_entry(path, &st);
        return;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perrorf("ls: cannot open %s", path);
        return;
    }
    if (fxstat(fd, &st) < 0) {
        perrorf("ls: cannot stat %s", path);
    } else if (st.type == T_DIR) {
        list_dir(fd, path);
    } else {
        print_entry(path, &st);
    }
    close(fd);
}

int main(int argc, char* argv[]) {
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "-l") == 0) {
        long_form = 1;
        first = 2;
    }
    usage_no_options(argc - first + 1, argv + first - 1, "ls [-l] [path...]");
    if (argc <= first) ls(".");
    for (int i = first; i < argc; i++) ls(argv[i]);
    return 0;
}
