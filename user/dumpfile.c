/* user/dumpfile.c - copy a kernel dump into files, and run a command.
 *
 * The kernel hands out a dump as a byte stream (trace_read, prof_read:
 * offset, buffer, length); this code copies it without interpreting it. A
 * file holds at most 268 KiB (xv6's 12 direct blocks + one indirect block),
 * so a dump is written in parts of 256 KiB: FILE, FILE.1, FILE.2, ...;
 * stale parts of an older, longer dump are removed. The host tools
 * (tools/image_files.h) join them, using the dump header's size to know
 * when they have them all. run_and_wait runs the command of `trace CMD`
 * and `prof CMD` (user/obs.c), and of bcstat's and vmstat's.
 */
#include "user/dumpfile.h"

#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/user.h"

#define PART_BYTES (256 * 1024)
#define CHUNK 4096
#define MAXNAME 64

static char chunk[CHUNK];

/* name of part k: FILE, FILE.1, FILE.2, ... (k < 1000) */
static void part_name(char* out, const char* file, int k) {
    int n = strlen(file);
    memmove(out, file, n);
    if (k > 0) {
        char digits[4];
        int d = 0;
        out[n++] = '.';
        for (int v = k; v > 0; v /= 10) digits[d++] = (char)('0' + v % 10);
        while (d > 0) out[n++] = digits[--d];
    }
    out[n] = 0;
}

int dump_to_file(dump_reader read, const char* file, const char* prog, const char* no_dump) {
    char name[MAXNAME];
    unsigned long off = 0;
    int part = 0, fd = -1, in_part = 0;
    if (strlen(file) + 5 > MAXNAME) {
        fprintf(2, "%s: file name too long: %s\n", prog, file);
        return 1;
    }
    for (;;) {
        int n = read(off, chunk, CHUNK);
        if (n < 0) {
            fprintf(2, "%s: %s\n", prog, no_dump);
            if (fd >= 0) close(fd);
            return 1;
        }
        if (n == 0) break;
        for (int done = 0; done < n;) {
            int take = n - done;
            if (fd >= 0 && in_part == PART_BYTES) {
                close(fd);
                fd = -1;
                part++;
            }
            if (fd < 0) {
                part_name(name, file, part);
                fd = open(name, O_CREATE | O_WRONLY | O_TRUNC);
                if (fd < 0) {
                    perrorf("%s: cannot create %s", prog, name);
                    return 1;
                }
                in_part = 0;
            }
            if (take > PART_BYTES - in_part) take = PART_BYTES - in_part;
            const int wrote = write(fd, chunk + done, take);
            if (wrote != take) {
                if (wrote < 0) perrorf("%s: %s: write failed after %lu bytes", prog, name, off + done);
                else fprintf(2, "%s: %s: short write after %lu bytes (disk full?)\n", prog, name, off + done + wrote);
                close(fd);
                return 1;
            }
            done += take;
            in_part += take;
        }
        off += (unsigned long)n;
    }
    if (fd >= 0) close(fd);
    /* Parts left over from an older, longer dump. */
    for (int k = part + 1; k < 1000; k++) {
        part_name(name, file, k);
        if (unlink(name) < 0) break;
    }
    printf("%s: wrote %lu bytes to %s (%d part%s)\n", prog, off, file, part + 1, part ? "s" : "");
    return 0;
}

int run_and_wait(char** argv, const char* prog) {
    int pid = fork();
    if (pid < 0) {
        perrorf("%s: fork failed", prog);
        return -1;
    }
    if (pid == 0) {
        const int why = exec_search(argv);
        fprintf(2, "%s: cannot run %s: %s\n", prog, argv[0], strerror(why));
        exit(127);
    }
    int status = 0;
    while (wait(&status) != pid) {}
    return status;
}
