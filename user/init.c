/* init - the first user process.
 *
 * Opens the console as file descriptors 0, 1 and 2 (creating the device
 * file "console", major CONSOLE, when the image lacks it), then runs the
 * shell forever: it forks sh, and waits. Every process whose parent dies
 * is re-parented to init, so wait() also collects those orphans; only when
 * the shell itself exits does init start a new one.
 */
#include "kernel/types.h"
#include "kernel/stat.h"
#include "kernel/fcntl.h"
#include "user/user.h"

static char* sh_argv[] = {"sh", 0};

static void open_console(void) {
    if (open("console", O_RDWR) < 0) {
        mknod("console", CONSOLE, 0);
        if (open("console", O_RDWR) < 0)
            exit(1); /* nowhere to even report it */
    }
    dup(0); /* stdout */
    dup(0); /* stderr */
}

static int start_shell(void) {
    printf("init: starting sh\n");
    int pid = fork();
    if (pid < 0) {
        printf("init: fork failed\n");
        exit(1);
    }
    if (pid == 0) {
        exec("sh", sh_argv);
        printf("init: exec sh failed\n");
        exit(1);
    }
    return pid;
}

int main(void) {
    open_console();
    for (;;) {
        int sh = start_shell();
        for (;;) {
            int pid = wait(0);
            if (pid == sh)
                break; /* restart the shell */
            if (pid < 0) {
                printf("init: wait returned an error\n");
                exit(1);
            }
            /* otherwise an orphan was reaped: keep waiting */
        }
    }
}
