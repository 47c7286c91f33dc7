/* user/lib/passwd.c - account look-ups in /etc/passwd.
 *
 * Reads the file line by line through a small buffer and parses each line
 * with pw_parse() (lib/abi/users.h, the parser the host tests check).
 * Malformed lines are skipped. Lines longer than the buffer are skipped
 * whole. No state is kept between calls: each look-up reads the file again
 * (it is a few lines long).
 */
#include "kernel/fcntl.h"
#include "user/user.h"

enum { LINE_MAX = 160 };

/* Call match(e, key) on each well-formed entry until it returns 1. */
static int pw_scan(int (*match)(const struct pwent*, const void*), const void* key, struct pwent* e) {
    int fd = open("/etc/passwd", O_RDONLY);
    if (fd < 0) return 0;
    char line[LINE_MAX];
    int n = 0, found = 0, too_long = 0;
    char c;
    while (!found && read(fd, &c, 1) == 1) {
        if (c != '\n') {
            if (n + 1 < LINE_MAX) line[n++] = c;
            else too_long = 1;
            continue;
        }
        line[n] = 0;
        if (!too_long && pw_parse(line, e) && match(e, key)) found = 1;
        n = 0;
        too_long = 0;
    }
    if (!found && n > 0 && !too_long) { /* last line without '\n' */
        line[n] = 0;
        found = pw_parse(line, e) && match(e, key);
    }
    close(fd);
    return found;
}

static int by_name(const struct pwent* e, const void* key) { return strcmp(e->name, (const char*)key) == 0; }
static int by_uid(const struct pwent* e, const void* key) { return e->uid == *(const unsigned int*)key; }
static int by_gid(const struct pwent* e, const void* key) { return e->gid == *(const unsigned int*)key; }

int getpwnam(const char* name, struct pwent* e) { return pw_scan(by_name, name, e); }
int getpwuid(unsigned int uid, struct pwent* e) { return pw_scan(by_uid, &uid, e); }
int getpwgid(unsigned int gid, struct pwent* e) { return pw_scan(by_gid, &gid, e); }

/* The decimal digits of v into buf (at least 11 bytes). */
static const char* utoa(unsigned int v, char* buf) {
    char tmp[12];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    int i = 0;
    while (k > 0) buf[i++] = tmp[--k];
    buf[i] = 0;
    return buf;
}

const char* pw_name(unsigned int uid, char* buf) {
    struct pwent e;
    if (!getpwuid(uid, &e)) return utoa(uid, buf);
    strcpy(buf, e.name);
    return buf;
}

const char* pw_group(unsigned int gid, char* buf) {
    struct pwent e;
    if (!getpwgid(gid, &e)) return utoa(gid, buf);
    strcpy(buf, e.name);
    return buf;
}
