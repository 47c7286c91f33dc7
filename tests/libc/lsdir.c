/* tests/libc/lsdir.c - list a directory, the textbook way.
 *
 * opendir/readdir/closedir, stat, qsort of names, getcwd; compiled with
 * qcc (tests/guest/libc_tests.py).
 *
 *   lsdir [-p] [DIR]
 *
 * Prints the entries of DIR (default .) sorted by name, one per line as
 * "NAME d" for a directory or "NAME f SIZE" for a file, skipping . and
 * ..; then "N entries". -p first prints the working directory. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int by_name(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

int main(int argc, char* argv[]) {
    int opt, pwd = 0;
    while ((opt = getopt(argc, argv, "p")) != -1) {
        if (opt != 'p') {
            fprintf(stderr, "usage: lsdir [-p] [DIR]\n");
            return 2;
        }
        pwd = 1;
    }
    const char* dir = optind < argc ? argv[optind] : ".";
    if (pwd) {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) {
            perror("getcwd");
            return 1;
        }
        printf("cwd %s\n", cwd);
    }
    DIR* d = opendir(dir);
    if (!d) {
        perror(dir);
        return 1;
    }
    char* names[64];
    int n = 0;
    struct dirent* e;
    while ((e = readdir(d)) && n < 64) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], by_name);
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &st) < 0) perror(path);
        else if (S_ISDIR(st.st_mode)) printf("%s d\n", names[i]);
        else printf("%s f %lld\n", names[i], (long long)st.st_size);
        free(names[i]);
    }
    printf("%d entries\n", n);
    return 0;
}
