/* id - print the caller's user and group ids.
 *
 *   id
 *
 * Prints "uid=N(name) gid=N(name)", then " euid=N(name)" and
 * " egid=N(name)" when the effective ids differ from the real ones. Names
 * come from /etc/passwd (a group is named after the account whose gid it
 * is: quanta has no /etc/group); an id with no account prints as its
 * number alone. -h prints the usage line.
 */
#include "user/user.h"

static void show(const char* label, unsigned int id, const char* name) { printf("%s=%d(%s)", label, id, name); }

int main(int argc, char* argv[]) {
    usage_no_options(argc, argv, "id");
    if (argc > 1) usage_exit("id", 1);
    char buf[PW_NAME_MAX];
    const unsigned int uid = getuid(), gid = getgid(), euid = geteuid(), egid = getegid();
    show("uid", uid, pw_name(uid, buf));
    printf(" ");
    show("gid", gid, pw_group(gid, buf));
    if (euid != uid) {
        printf(" ");
        show("euid", euid, pw_name(euid, buf));
    }
    if (egid != gid) {
        printf(" ");
        show("egid", egid, pw_group(egid, buf));
    }
    printf("\n");
    exit(0);
}
