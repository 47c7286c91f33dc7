/* init - the first user process.
 *
 * Opens the console as file descriptors 0, 1 and 2 (creating the device
 * file "console", major CONSOLE, when the image lacks it), then runs the
 * shell forever: it forks sh, and waits. Every process whose parent dies
 * is re-parented to init, so wait() also collects those orphans; only when
 * the shell itself exits does init start a new one.
 *
 * init must never exit (the kernel has nobody else to reap orphans), so
 * every failure is retried: when fork fails (process table or memory full)
 * or the shell cannot be started, init sleeps and tries again, doubling
 * the pause from 1 tick up to 32 ticks (3.2 s) and resetting it once a
 * shell has run.
 *
 * The kernel starts init with no arguments. Run from a shell, `init -h`
 * prints the usage line and exits (any other argument is ignored, as before:
 * init must come up whatever it is given).
 */
#include "kernel/fcntl.h"
#include "kernel/stat.h"
#include "kernel/types.h"
#include "user/user.h"

static char* sh_argv[] = {"sh", 0};
static int backoff = 1; /* ticks to sleep before the next retry */

static void pause_and_back_off(void) {
    sleep(backoff);
    if (backoff < 32) backoff *= 2;
}

static void open_console(void) {
    while (open("console", O_RDWR) < 0) {
        mknod("console", CONSOLE, 0);
        if (open("console", O_RDWR) >= 0) break;
        pause_and_back_off(); /* nowhere to even report it */
    }
    dup(0); /* stdout */
    dup(0); /* stderr */
}

/* Fork a shell; returns its pid, retrying until fork succeeds. */
static int start_shell(void) {
    printf("init: starting sh\n");
    for (;;) {
        int pid = fork();
        if (pid == 0) {
            exec("sh", sh_argv);
            perrorf("init: exec sh failed");
            exit(1);
        }
        if (pid > 0) return pid;
        perrorf("init: fork failed, retrying");
        pause_and_back_off();
    }
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, "init");
    open_console();
    for (;;) {
        int sh = start_shell();
        unsigned started = uptime();
        for (;;) {
            int pid = wait(0);
            if (pid == sh) break;              /* restart the shell */
            if (pid < 0) pause_and_back_off(); /* cannot happen: sh is a child */
            /* otherwise an orphan was reaped: keep waiting */
        }
        if (uptime() - started > 100) backoff = 1; /* that shell ran for a while: start again at once */
        else pause_and_back_off();                 /* it died at once (exec failed?): slow down */
    }
}
