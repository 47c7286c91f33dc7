/* user/libc/start.c - C start-up for qcc programs.
 *
 * From _start (crt0.S), with the kernel's argc and argv: give the main
 * thread its thread-local block (picolibc keeps errno there; tp points at
 * it: the block is __tls_main, reserved by quanta.ld, a fresh copy of
 * .tdata followed by zeroed .tbss, so the image's .tdata stays a clean
 * template for later threads), give the standard streams their locks,
 * take POSIX's SIGPIPE (below), run the constructors, call main and pass
 * its result to exit(). exit (picolibc) runs the atexit handlers, among
 * them the stdio flush registered here first (so it runs last), and then
 * _exit (posix.c). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* picolibc's TLS set-up (picotls.h declares them only inside picolibc). */
void _init_tls(void* tls);
void _set_tls(void* tls);
extern char __tls_main[];
extern int main(int argc, char** argv);
extern void __libc_init_array(void);
void __qstdio_flush_all(void); /* stdio.c */
void __qstdio_init(void);
void __qstart(int argc, char** argv) __attribute__((noreturn, used));

/* quanta raises SIGPIPE for a write to a pipe nobody reads only in a
 * program that set SIGPIPE's action itself: xv6's programs expect -1
 * there (docs/signals.md "SIGPIPE"). A C-library program is a POSIX
 * program, so it sets the default (which ends it) here, unless it
 * inherited SIGPIPE ignored, which exec keeps. */
static void posix_sigpipe(void) {
    struct sigaction dfl, old;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    if (sigaction(SIGPIPE, &dfl, &old) == 0 && old.sa_handler == SIG_IGN) sigaction(SIGPIPE, &old, 0);
}

void __qstart(int argc, char** argv) {
    _init_tls(__tls_main);
    _set_tls(__tls_main);
    __qstdio_init();
    atexit(__qstdio_flush_all);
    posix_sigpipe();
    __libc_init_array();
    exit(main(argc, argv));
}
