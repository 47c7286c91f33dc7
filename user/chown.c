/* chown - change the owner and group of files.
 *
 *   chown USER[:GROUP] PATH...
 *
 * USER and GROUP are account names from /etc/passwd or numbers (a group
 * name is that of the account with the group's gid). Only root may give a
 * file away; a file's owner may only set its group to their own. A refused
 * or failed change prints one line and the exit status is 1 (the other
 * paths are still tried). -h prints the usage line.
 */
#include "user/args.h"
#include "user/user.h"

static const char usage[] = "chown USER[:GROUP] PATH...";

/* A name or a number; -1 when neither. */
static int parse_id(const char* s, int group) {
    int v;
    if (parse_int(s, &v) && v >= 0) return v;
    struct pwent e;
    if (!getpwnam(s, &e)) return -1;
    return group ? (int)e.gid : (int)e.uid;
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage);
    if (argc < 3) usage_exit(usage, 1);
    char spec[40];
    if (strlen(argv[1]) >= sizeof spec) usage_exit(usage, 1);
    strcpy(spec, argv[1]);
    char* colon = strchr(spec, ':');
    if (colon) *colon = 0;
    const int uid = parse_id(spec, 0);
    const int gid = colon ? parse_id(colon + 1, 1) : -1;
    if (uid < 0 || (colon && gid < 0)) {
        fprintf(2, "chown: unknown user or group in '%s'\n", argv[1]);
        exit(1);
    }
    int status = 0;
    for (int i = 2; i < argc; i++) {
        if (chown(argv[i], uid, gid) < 0) {
            perrorf("chown: cannot change %s", argv[i]);
            status = 1;
        }
    }
    exit(status);
}
