/* user/usertests_fs.c - usertests' file-system tests: reads and writes,
 * bad descriptors, truncation, offsets, the largest file, unlink of an open
 * file, 14-character names, directories, links, device nodes, concurrent
 * create/delete in one directory, descriptor limits, full disk and inodes.
 * The driver and the shared helpers are in usertests.c.
 */
#include "kernel/fcntl.h"
#include "kernel/fs.h"
#include "kernel/memlayout.h"
#include "kernel/param.h"
#include "kernel/stat.h"
#include "kernel/types.h"
#include "user/user.h"
#include "user/usertests.h"

/* ---- files ------------------------------------------------------------- */

void t_file_rw(void) {
    int fd = make_file("utf", 1000);
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && st.type == T_FILE && st.size == 1000 && st.nlink == 1, "fstat after write");
    close(fd);
    fd = open("utf", O_RDONLY);
    CHECK(fd >= 0, "reopen failed");
    static char in[1000];
    CHECK(read(fd, in, 1000) == 1000, "read back failed");
    CHECK(memcmp(in, buf, 1000) == 0, "contents differ");
    CHECK(read(fd, in, 10) == 0, "read at end of file did not return 0");
    CHECK(write(fd, "x", 1) < 0, "write to an O_RDONLY descriptor succeeded");
    close(fd);
    fd = open("utf", O_WRONLY);
    CHECK(read(fd, in, 1) < 0, "read from an O_WRONLY descriptor succeeded");
    close(fd);
    CHECK(unlink("utf") == 0 && open("utf", O_RDONLY) < 0, "unlink did not remove the file");
}

void t_bad_fds(void) {
    int fds[] = {-1, 3, 15, NOFILE, NOFILE + 1, 1000, -1000};
    for (int i = 0; i < (int)(sizeof(fds) / sizeof(fds[0])); i++) {
        struct stat st;
        int fd = fds[i];
        CHECK(read(fd, buf, 1) < 0 && write(fd, buf, 1) < 0, "read/write on fd %d", fd);
        CHECK(close(fd) < 0 && dup(fd) < 0 && fstat(fd, &st) < 0, "close/dup/fstat on fd %d", fd);
    }
    int fd = dup(1);
    CHECK(fd >= 0 && close(fd) == 0 && close(fd) < 0, "double close succeeded");
    CHECK(open("utnope", O_RDONLY) < 0, "open of a missing file succeeded");
    char path[MAXPATH + 20];
    memset(path, 'a', sizeof(path) - 1);
    path[sizeof(path) - 1] = 0;
    CHECK(open(path, O_CREATE | O_RDWR) < 0, "open of an overlong path succeeded");
}

void t_truncate(void) {
    close(make_file("utt", 3000));
    int fd = open("utt", O_CREATE | O_RDWR);
    CHECK(fd >= 0 && file_size("utt") == 3000, "O_CREATE on an existing file changed it");
    close(fd);
    fd = open("utt", O_WRONLY | O_TRUNC);
    CHECK(fd >= 0 && file_size("utt") == 0, "O_TRUNC left size %d", file_size("utt"));
    CHECK(write(fd, "abc", 3) == 3 && file_size("utt") == 3, "write after truncate");
    close(fd);
    unlink("utt");
}

void t_offsets(void) {
    close(make_file("uto", 10));
    int a = open("uto", O_RDONLY), b = open("uto", O_RDONLY);
    char c1, c2;
    CHECK(read(a, &c1, 1) == 1 && read(a, &c1, 1) == 1 && read(b, &c2, 1) == 1, "reads");
    CHECK(c1 == buf[1] && c2 == buf[0], "separate opens share an offset");
    int d = dup(a);
    CHECK(read(d, &c1, 1) == 1 && c1 == buf[2], "dup does not share the offset");
    close(a), close(b), close(d);
    unlink("uto");
}

void t_max_file(void) {
    int fd = open("utmax", O_CREATE | O_RDWR | O_TRUNC);
    CHECK(fd >= 0, "create");
    for (int i = 0; i < MAXFILE; i++) {
        memset(buf, i, BSIZE);
        CHECK(write(fd, buf, BSIZE) == BSIZE, "write of block %d failed", i);
    }
    CHECK(write(fd, "x", 1) <= 0, "wrote past the largest file size");
    CHECK(file_size("utmax") == MAXFILE * BSIZE, "size %d", file_size("utmax"));
    close(fd);
    fd = open("utmax", O_RDONLY);
    for (int i = 0; i < MAXFILE; i++) {
        CHECK(read(fd, buf, BSIZE) == BSIZE, "read of block %d", i);
        CHECK(buf[0] == (char)i && buf[BSIZE - 1] == (char)i, "block %d has wrong contents", i);
    }
    close(fd);
    CHECK(unlink("utmax") == 0, "unlink");
}

/* A write that only partly fits below the largest file size is short:
 * 3,072 bytes 1,024 below the end write 1,024 (it used to fail whole). */
void t_short_write(void) {
    int fd = open("utshort", O_CREATE | O_RDWR | O_TRUNC);
    CHECK(fd >= 0, "create");
    memset(buf, 's', BSIZE);
    for (int i = 0; i < MAXFILE - 1; i++) CHECK(write(fd, buf, BSIZE) == BSIZE, "write of block %d failed", i);
    int n = write(fd, buf, 3 * BSIZE);
    CHECK(n == BSIZE, "3072 bytes with 1024 free wrote %d", n);
    CHECK(write(fd, buf, 1) < 0, "wrote past the largest file size");
    CHECK(file_size("utshort") == MAXFILE * BSIZE, "size %d", file_size("utshort"));
    close(fd);
    CHECK(unlink("utshort") == 0, "unlink");
}

/* NINODE + 1 directories nested (xv6's iref): more than the in-memory inode
 * table holds, each the cwd in turn; the disk has inodes enough. */
void t_nested_dirs(void) {
    int depth = 0;
    for (; depth < NINODE + 1; depth++)
        if (mkdir("utn") < 0 || chdir("utn") < 0) break;
    int reached = depth;
    for (; depth > 0; depth--) CHECK(chdir("..") == 0 && unlink("utn") == 0, "removing level %d", depth);
    CHECK(reached == NINODE + 1, "mkdir failed at depth %d of %d", reached, NINODE + 1);
}

void t_unlink_open(void) {
    static char in[600];
    close(make_file("utu", 600));
    int rfd = open("utu", O_RDONLY);
    CHECK(rfd >= 0 && unlink("utu") == 0, "open and unlink");
    CHECK(open("utu", O_RDONLY) < 0, "name still there");
    int fd = open("utu", O_CREATE | O_RDWR); /* a new, different file */
    CHECK(fd >= 0 && file_size("utu") == 0, "recreate");
    CHECK(read(rfd, in, 600) == 600 && memcmp(in, buf, 600) == 0, "unlinked file unreadable while open");
    close(fd);
    close(rfd);
    unlink("utu");
}

void t_names(void) {
    const char* n14 = "ut345678901234";
    close(make_file(n14, 5));
    CHECK(file_size(n14) == 5, "14-character name not found");
    int fd = open(".", O_RDONLY);
    struct dirent de;
    int found = 0;
    while (read(fd, &de, sizeof(de)) == sizeof(de))
        if (de.inum != 0 && memcmp(de.name, n14, DIRSIZ) == 0) found = 1;
    close(fd);
    CHECK(found, "14-character name not in the directory");
    CHECK(unlink(n14) == 0, "unlink of a 14-character name");
}

void t_dirs(void) {
    struct stat st, root;
    CHECK(mkdir("utd") == 0 && mkdir("utd") < 0, "mkdir twice");
    CHECK(stat("/", &root) == 0 && root.type == T_DIR, "stat /");
    CHECK(open("utd", O_WRONLY) < 0 && open("utd", O_RDWR) < 0, "directory opened for writing");
    CHECK(open("utd", O_CREATE | O_RDWR) < 0, "O_CREATE on a directory succeeded");
    close(make_file("utd/f", 10));
    CHECK(unlink("utd") < 0, "removed a non-empty directory");
    CHECK(unlink("utd/.") < 0 && unlink("utd/..") < 0, "unlinked . or ..");
    CHECK(mkdir("utd/f/x") < 0 && open("utd/f/x", O_CREATE | O_RDWR) < 0, "created under a file");
    CHECK(chdir("utd/f") < 0 && chdir("utnope") < 0, "chdir to a file or a missing directory");
    CHECK(chdir("utd") == 0, "chdir");
    CHECK(stat("f", &st) == 0 && st.size == 10, "relative path after chdir");
    CHECK(stat("..", &st) == 0 && stat("../utd/./f", &st) == 0, "dot-dot path");
    CHECK(stat(".", &st) == 0 && st.type == T_DIR, "stat .");
    CHECK(chdir("..") == 0, "chdir ..");
    CHECK(unlink("utd/f") == 0 && unlink("utd") == 0, "remove the emptied directory");
    CHECK(stat("/..", &st) == 0 && st.ino == root.ino, "/.. is not /");
}

void t_links(void) {
    close(make_file("utl1", 20));
    CHECK(link("utl1", "utl2") == 0, "link");
    struct stat a, b;
    CHECK(stat("utl1", &a) == 0 && stat("utl2", &b) == 0 && a.ino == b.ino && a.nlink == 2, "link count");
    CHECK(link("utl1", "utl2") < 0, "link onto an existing name");
    CHECK(link("utnope", "utl3") < 0, "link of a missing file");
    CHECK(mkdir("utld") == 0 && link("utld", "utld2") < 0, "hard link to a directory");
    CHECK(unlink("utl1") == 0 && stat("utl2", &b) == 0 && b.nlink == 1 && b.size == 20, "unlink one name");
    unlink("utl2");
    unlink("utld");
}

void t_mknod(void) {
    CHECK(mknod("utdev", CONSOLE, 0) == 0, "mknod");
    struct stat st;
    CHECK(stat("utdev", &st) == 0 && st.type == T_DEVICE, "device type %d", st.type);
    CHECK(mknod("utdev", CONSOLE, 0) < 0, "mknod over an existing name");
    CHECK(unlink("utdev") == 0, "unlink device");
}

static void concurrent_worker(void) {
    char name[] = "utc/f0";
    for (int i = 0; i < 60; i++) {
        name[5] = '0' + (i * 7 + getpid()) % 10;
        if (i % 3 == 0) {
            int fd = open(name, O_CREATE | O_RDWR);
            if (fd >= 0) {
                write(fd, "data", 4);
                close(fd);
            }
        } else if (i % 3 == 1) {
            unlink(name);
        } else {
            char other[] = "utc/f0";
            other[5] = '0' + (i + 3) % 10;
            link(name, other);
        }
    }
}

void t_concurrent_dir(void) {
    CHECK(mkdir("utc") == 0, "mkdir");
    int pids[4];
    for (int i = 0; i < 4; i++) {
        pids[i] = fork();
        CHECK(pids[i] >= 0, "fork");
        if (pids[i] == 0) {
            concurrent_worker();
            exit(0);
        }
    }
    for (int i = 0; i < 4; i++) {
        int st;
        CHECK(wait(&st) > 0 && st == 0, "worker exit status %d", st);
    }
    char name[] = "utc/f0";
    for (int i = 0; i < 10; i++) {
        name[5] = '0' + i;
        unlink(name);
    }
    CHECK(unlink("utc") == 0, "directory not empty after removing every name");
}

void t_fd_limit(void) {
    int n = 0, fds[NOFILE + 5];
    int fd;
    while (n < NOFILE + 5 && (fd = dup(1)) >= 0) fds[n++] = fd;
    CHECK(n >= NOFILE - 3 && n <= NOFILE, "%d descriptors before running out", n);
    CHECK(open("README.md", O_RDONLY) < 0 && pipe(fds + n) < 0, "open/pipe with a full table");
    for (int i = 0; i < n; i++) close(fds[i]);
    CHECK((fd = dup(1)) >= 0, "dup after closing");
    close(fd);
}

static void fill_files(char prefix, int bytes, int* made) {
    char name[] = "ut_00";
    *made = 0;
    for (int i = 0; i < 100; i++) {
        name[2] = prefix, name[3] = '0' + i / 10, name[4] = '0' + i % 10;
        int fd = open(name, O_CREATE | O_RDWR);
        if (fd < 0) break;
        (*made)++;
        int w = 0;
        while (w < bytes && write(fd, buf, BSIZE) == BSIZE) w += BSIZE;
        close(fd);
        if (w < bytes) break;
    }
}

static void remove_files(char prefix, int n) {
    char name[] = "ut_00";
    for (int i = 0; i < n; i++) {
        name[2] = prefix, name[3] = '0' + i / 10, name[4] = '0' + i % 10;
        unlink(name);
    }
}

void t_disk_full(void) {
    int made;
    fill_files('D', MAXFILE * BSIZE, &made);
    CHECK(made > 1 && made < 100, "disk never filled (%d files)", made);
    remove_files('D', made);
    close(make_file("utafter", 8192));
    CHECK(file_size("utafter") == 8192, "space not freed after deleting");
    unlink("utafter");
}

void t_inodes_full(void) {
    char name[] = "utI000";
    int n = 0;
    for (; n < 1000; n++) {
        name[3] = '0' + n / 100, name[4] = '0' + n / 10 % 10, name[5] = '0' + n % 10;
        int fd = open(name, O_CREATE | O_RDWR);
        if (fd < 0) break;
        close(fd);
    }
    CHECK(n > 10 && n < 1000, "inodes never ran out (%d files)", n);
    for (int i = 0; i < n; i++) {
        name[3] = '0' + i / 100, name[4] = '0' + i / 10 % 10, name[5] = '0' + i % 10;
        CHECK(unlink(name) == 0, "unlink %s", name);
    }
    int fd = open("utafter", O_CREATE | O_RDWR);
    CHECK(fd >= 0, "cannot create after freeing inodes");
    close(fd);
    unlink("utafter");
}
