/* whoami - print the name of the effective user.
 *
 *   whoami
 *
 * The name comes from /etc/passwd; an effective uid with no account prints
 * as its number. -h prints the usage line.
 */
#include "user/user.h"

int main(int argc, char* argv[]) {
    usage_no_options(argc, argv, "whoami");
    if (argc > 1) usage_exit("whoami", 1);
    char buf[PW_NAME_MAX];
    printf("%s\n", pw_name(geteuid(), buf));
    exit(0);
}
