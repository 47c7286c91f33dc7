/* user/libc/stdio.c - the standard streams, and flushing at exit.
 *
 * picolibc's stdio (tinystdio) leaves stdin, stdout and stderr to the
 * system; here they are POSIX buffered files (picolibc's bufio) on
 * descriptors 0, 1 and 2. stdout and stderr are line buffered (a line
 * appears as soon as it ends: what a student expects at the console and
 * what keeps lines of different processes whole). Reading stdin first
 * flushes stdout, so a prompt without a newline shows before the read.
 *
 * picolibc does not flush open files at exit, and POSIX does: the link
 * wraps fdopen and fclose (qcc passes --wrap, see mk/user.mk), keeping a
 * list of the open streams, and __qstdio_flush_all (registered at start)
 * flushes them all, then stdout and stderr. Each stream has a lock
 * (plocks.c), so threads may share them. */
#include <stdio-bufio.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static ssize_t stdin_read(int fd, void* buf, size_t n) {
    fflush(stdout);
    return read(fd, buf, n);
}

static char in_buf[512], out_buf[512], err_buf[256];
static struct __file_bufio q_stdin =
    FDEV_SETUP_BUFIO(0, in_buf, sizeof in_buf, stdin_read, write, lseek, close, __SRD, 0);
static struct __file_bufio q_stdout =
    FDEV_SETUP_BUFIO(1, out_buf, sizeof out_buf, read, write, lseek, close, __SWR, __BLBF);
static struct __file_bufio q_stderr =
    FDEV_SETUP_BUFIO(2, err_buf, sizeof err_buf, read, write, lseek, close, __SWR, __BLBF);

FILE* const stdin = &q_stdin.xfile.cfile.file;
FILE* const stdout = &q_stdout.xfile.cfile.file;
FILE* const stderr = &q_stderr.xfile.cfile.file;

/* Their locks (plocks.c), made before main runs. */
void __qstdio_init(void) {
    __retarget_lock_init(&q_stdin.lock);
    __retarget_lock_init(&q_stdout.lock);
    __retarget_lock_init(&q_stderr.lock);
}

/* Streams opened with fopen/fdopen and not yet closed. */
struct open_file {
    FILE* f;
    struct open_file* next;
};
static struct open_file* open_files;

FILE* __real_fdopen(int fd, const char* mode);
int __real_fclose(FILE* f);

FILE* __wrap_fdopen(int fd, const char* mode) {
    struct open_file* of = malloc(sizeof *of);
    if (!of) return NULL;
    FILE* f = __real_fdopen(fd, mode);
    if (!f) {
        free(of);
        return NULL;
    }
    of->f = f;
    of->next = open_files;
    open_files = of;
    return f;
}

int __wrap_fclose(FILE* f) {
    for (struct open_file** p = &open_files; *p; p = &(*p)->next) {
        if ((*p)->f == f) {
            struct open_file* of = *p;
            *p = of->next;
            free(of);
            break;
        }
    }
    return __real_fclose(f);
}

void __qstdio_flush_all(void) {
    for (struct open_file* of = open_files; of; of = of->next) fflush(of->f);
    fflush(stdout);
    fflush(stderr);
}
