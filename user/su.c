/* su - run a command (or a shell) as another user.
 *
 *   su NAME [CMD ARGS...]
 *
 * Looks NAME up in /etc/passwd, sets the group and then the user id
 * (setgid before setuid: after setuid a non-root process could no longer
 * change its group), and execs CMD with its arguments, or the account's
 * shell when no CMD is given. The shell starts in the account's home
 * directory (as after a login, or `su -`); a CMD runs in the caller's
 * working directory, so `su student cat notes` reads the caller's notes.
 *
 * Passwords: there are none. su is an ordinary program, not a setuid one,
 * so it has exactly its caller's rights: root may become anyone; any other
 * user only themselves (the kernel refuses the setuid, and su says
 * "permission denied"). docs/users-and-protection.md explains the choice
 * and what a real Unix does instead.
 *
 * Exit status: 1 for an unknown user, a refused switch or a failed exec;
 * -h prints the usage line.
 */
#include "user/user.h"

static const char usage[] = "su NAME [CMD ARGS...]";

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage);
    if (argc < 2 || argv[1][0] == '-') usage_exit(usage, 1);
    struct pwent e;
    if (!getpwnam(argv[1], &e)) {
        fprintf(2, "su: no user '%s' in /etc/passwd\n", argv[1]);
        exit(1);
    }
    if (setgid((int)e.gid) < 0 || setuid((int)e.uid) < 0) {
        fprintf(2, "su: permission denied: only root may become another user (there are no passwords)\n");
        exit(1);
    }
    if (argc > 2) {
        const int why = exec_search(argv + 2);
        fprintf(2, "su: cannot run %s: %s\n", argv[2], strerror(why));
    } else {
        if (chdir(e.home) < 0) perrorf("su: cannot cd to home %s (staying here)", e.home);
        char* sh_argv[] = {e.shell, 0};
        const int why = exec_search(sh_argv);
        fprintf(2, "su: cannot run shell %s: %s\n", e.shell, strerror(why));
    }
    exit(1);
}
