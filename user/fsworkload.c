/* fsworkload - a deterministic file-system workload and its verifier, for
 * crash-consistency testing (tests/guest/crashtest.py).
 *
 *   fsworkload SEED STEPS          run STEPS mutating system calls under /cw
 *   fsworkload -v SEED STEPS DONE  check the disk after a crash
 *
 * Design. A seeded generator picks operations that are valid for the model
 * of the tree it keeps (create, truncate+write, overwrite, append, link,
 * unlink, rename-by-link (link then unlink), mkdir, rmdir) over a fixed set
 * of names: /cw/f0-f3, /cw/dK/f0-f3 for K = 0, 1, and the directories
 * /cw/d0, /cw/d1. Each operation is one or more system calls; the calls that
 * change the disk are "steps". The workload performs them in order, checks
 * each one succeeded, applies it to the model, and prints `s N` (N steps
 * done) after each; the runner kills QEMU at a random moment and knows that
 * at least the last printed N steps finished.
 *
 * The verifier regenerates the same sequence on a model without making the
 * calls. It reads the disk once (every name: present, inode, link count,
 * size, bytes; and every directory's entries, so stray names are caught) and
 * then compares it with the model after step j for j = DONE, DONE+1, ...,
 * STEPS. With one process and a write-ahead log whose transactions commit in
 * order, the recovered disk must equal the model after some j: every system
 * call is atomic (a write of at most kMaxWrite = 3072 bytes is one
 * transaction, so a file is wholly old or wholly new) and none is lost that
 * the program saw finish. It prints `verify: ok after step J` or
 * `verify: FAIL ...` with the first difference against step DONE.
 *
 * -h prints the usage line and exits 0; any other command line (wrong count,
 * a number that is not decimal digits) prints it and exits 2.
 */
#include "user/user.h"

#define NFILES 12
#define NDIRS 2
#define MAXSZ 16384
#define MAXW 3072
#define NINODES 32

static const char* fpath[NFILES] = {"/cw/f0",    "/cw/f1",    "/cw/f2",    "/cw/f3",    "/cw/d0/f0", "/cw/d0/f1",
                                    "/cw/d0/f2", "/cw/d0/f3", "/cw/d1/f0", "/cw/d1/f1", "/cw/d1/f2", "/cw/d1/f3"};
static const char* dpath[NDIRS] = {"/cw/d0", "/cw/d1"};

/* parent directory of file slot i: -1 = /cw (always there), else a dir slot */
static int parent_of(int i) { return i < 4 ? -1 : (i - 4) / 4; }

/* ---- model ---- */
struct inode {
    int used, nlink, size;
    char* data;
};
static struct inode ino[NINODES];
static int file_ino[NFILES]; /* -1 absent */
static int dir_present[NDIRS];

static unsigned long rng;
static unsigned long rnd(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717UL;
}
static int below(int n) { return (int)(rnd() % (unsigned long)n); }

static void die(const char* m) {
    printf("fsworkload: %s\n", m);
    exit(1);
}

static int new_inode(void) {
    for (int i = 0; i < NINODES; i++)
        if (!ino[i].used) {
            ino[i].used = 1;
            ino[i].nlink = 0;
            ino[i].size = 0;
            if (!ino[i].data && !(ino[i].data = malloc(MAXSZ))) die("out of memory");
            return i;
        }
    die("model out of inodes");
    return -1;
}
static void drop_link(int i) {
    if (--ino[i].nlink == 0) ino[i].used = 0;
}

/* ---- operations ---- */
enum { CREATE, TRUNCW, OVERW, APPEND, LINK, UNLINK, RENAME, MKDIR, RMDIR, NOPS };
struct op {
    int kind, a, b, n;
    unsigned long dseed; /* the data written */
};

static int parent_ok(int f) { return parent_of(f) < 0 || dir_present[parent_of(f)]; }
static int dir_empty(int d) {
    for (int i = 0; i < NFILES; i++)
        if (parent_of(i) == d && file_ino[i] >= 0) return 0;
    return 1;
}

/* Pick an operation that is valid for the model (deterministic in rng). */
static void pick(struct op* o) {
    for (;;) {
        o->kind = below(NOPS);
        o->a = below(NFILES);
        o->b = below(NFILES);
        o->dseed = rnd() | 1;
        switch (below(6)) {
            case 0:
                o->n = MAXW;
                break;
            case 1:
                o->n = 1 + below(64);
                break;
            case 2:
                o->n = 1024;
                break;
            default:
                o->n = 1 + below(MAXW);
                break;
        }
        int pa = file_ino[o->a] >= 0, pb = file_ino[o->b] >= 0;
        switch (o->kind) {
            case CREATE:
                if (!pa && parent_ok(o->a)) return;
                break;
            case TRUNCW:
            case OVERW:
                if (pa) return;
                break;
            case APPEND:
                if (pa && ino[file_ino[o->a]].size + o->n <= MAXSZ) return;
                break;
            case LINK:
            case RENAME:
                if (pa && !pb && parent_ok(o->b)) return;
                break;
            case UNLINK:
                if (pa) return;
                break;
            case MKDIR:
                o->a %= NDIRS;
                if (!dir_present[o->a]) return;
                break;
            case RMDIR:
                o->a %= NDIRS;
                if (dir_present[o->a] && dir_empty(o->a)) return;
                break;
        }
    }
}

static char wbuf[MAXW];
static void gen_data(unsigned long s, int n) {
    for (int i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        wbuf[i] = (char)('a' + s % 26);
    }
}

/* Apply sub-step k of an operation to the model. */
static void apply(struct op* o, int k) {
    struct inode* ip = file_ino[o->a] >= 0 ? &ino[file_ino[o->a]] : 0;
    switch (o->kind) {
        case CREATE: {
            int i = new_inode();
            ino[i].nlink = 1;
            file_ino[o->a] = i;
            break;
        }
        case TRUNCW:
            if (k == 0) {
                ip->size = 0;
                break;
            }
            /* fall through: the write */
        case OVERW:
            gen_data(o->dseed, o->n);
            memmove(ip->data, wbuf, o->n);
            if (o->n > ip->size) ip->size = o->n;
            break;
        case APPEND:
            gen_data(o->dseed, o->n);
            memmove(ip->data + ip->size, wbuf, o->n);
            ip->size += o->n;
            break;
        case RENAME:
            if (k == 1) {
                drop_link(file_ino[o->a]);
                file_ino[o->a] = -1;
                break;
            }
            /* fall through: the link */
        case LINK:
            file_ino[o->b] = file_ino[o->a];
            ip->nlink++;
            break;
        case UNLINK:
            drop_link(file_ino[o->a]);
            file_ino[o->a] = -1;
            break;
        case MKDIR:
            dir_present[o->a] = 1;
            break;
        case RMDIR:
            dir_present[o->a] = 0;
            break;
    }
}
static int nsteps(struct op* o) { return (o->kind == TRUNCW || o->kind == RENAME) ? 2 : 1; }

static unsigned long rng0;
static void init_model(unsigned long seed) {
    rng = seed * 0x9E3779B97F4A7C15UL + 12345;
    if (!rng) rng = 1;
    rng0 = rng;
    for (int i = 0; i < NFILES; i++) file_ino[i] = -1;
}

/* ---- the workload ---- */
static int done;
static void stepped(struct op* o, int k, long r, const char* what) {
    if (r < 0) {
        printf("fsworkload: step %d (%s %s) failed\n", done + 1, what, fpath[o->a]);
        exit(1);
    }
    apply(o, k);
    done++;
    printf("s %d\n", done);
}

static void run(int steps) {
    if (mkdir("/cw") < 0) die("mkdir /cw failed");
    printf("s 0\n");
    while (done < steps) {
        struct op o;
        pick(&o);
        if (done + nsteps(&o) > steps) break;
        const char* pa = fpath[o.a];
        int fd;
        switch (o.kind) {
            case CREATE:
                fd = open(pa, O_CREATE | O_RDWR);
                stepped(&o, 0, fd, "create");
                close(fd);
                break;
            case TRUNCW:
                fd = open(pa, O_RDWR | O_TRUNC);
                stepped(&o, 0, fd, "open-trunc");
                gen_data(o.dseed, o.n);
                stepped(&o, 1, write(fd, wbuf, o.n) == o.n ? 0 : -1, "write");
                close(fd);
                break;
            case OVERW:
                fd = open(pa, O_RDWR);
                if (fd < 0) die("open failed");
                gen_data(o.dseed, o.n);
                stepped(&o, 0, write(fd, wbuf, o.n) == o.n ? 0 : -1, "overwrite");
                close(fd);
                break;
            case APPEND: {
                fd = open(pa, O_RDWR);
                if (fd < 0) die("open failed");
                static char skip[1024];
                while (read(fd, skip, sizeof skip) > 0)
                    ;
                gen_data(o.dseed, o.n);
                stepped(&o, 0, write(fd, wbuf, o.n) == o.n ? 0 : -1, "append");
                close(fd);
                break;
            }
            case LINK:
                stepped(&o, 0, link(pa, fpath[o.b]), "link");
                break;
            case RENAME:
                stepped(&o, 0, link(pa, fpath[o.b]), "rename-link");
                stepped(&o, 1, unlink(pa), "rename-unlink");
                break;
            case UNLINK:
                stepped(&o, 0, unlink(pa), "unlink");
                break;
            case MKDIR:
                stepped(&o, 0, mkdir(dpath[o.a]), "mkdir");
                break;
            case RMDIR:
                stepped(&o, 0, unlink(dpath[o.a]), "rmdir");
                break;
        }
    }
    printf("fsworkload: done %d steps\n", done);
}

/* ---- the verifier ---- */
struct snap {
    int exists, type, ino, nlink, size;
    char* data;
};
static struct snap sf[NFILES], sd[NDIRS];
static int cw_exists;
static char why[200];

static void take(const char* path, struct snap* s, int want_data) {
    struct stat st;
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fstat(fd, &st) < 0) {
        s->exists = 0;
        if (fd >= 0) close(fd);
        return;
    }
    s->exists = 1;
    s->type = st.type;
    s->ino = (int)st.ino;
    s->nlink = st.nlink;
    s->size = (int)st.size;
    if (want_data && st.type == T_FILE) {
        s->data = malloc(MAXSZ + 1024);
        int n = 0, r;
        while (n < MAXSZ + 1024 && (r = read(fd, s->data + n, MAXSZ + 1024 - n)) > 0) n += r;
        if (n != s->size) s->size = -1 - n; /* read length disagrees with stat: never matches */
    }
    close(fd);
}

/* Any name in a directory that the model does not know is a stray. */
static int stray_names(const char* dir, const char* const* allowed, int nallowed) {
    int fd = open(dir, O_RDONLY);
    if (fd < 0) return 0;
    struct dirent de;
    int bad = 0;
    while (read(fd, &de, sizeof de) == sizeof de) {
        if (de.inum == 0) continue;
        char name[DIRSIZ + 1];
        memmove(name, de.name, DIRSIZ);
        name[DIRSIZ] = 0;
        if (!strcmp(name, ".") || !strcmp(name, "..")) continue;
        int ok = 0;
        for (int i = 0; i < nallowed; i++) ok |= !strcmp(name, allowed[i]);
        if (!ok) {
            printf("verify: stray entry %s/%s (inode %d)\n", dir, name, de.inum);
            bad = 1;
        }
    }
    close(fd);
    return bad;
}

static int matches(void) {
    if (!cw_exists) {
        strcpy(why, "/cw missing");
        return 0;
    }
    for (int d = 0; d < NDIRS; d++)
        if (sd[d].exists != dir_present[d] || (sd[d].exists && sd[d].type != T_DIR)) {
            strcpy(why, dpath[d]);
            strcpy(why + strlen(why), dir_present[d] ? " should exist" : " should not exist");
            return 0;
        }
    for (int i = 0; i < NFILES; i++) {
        int m = file_ino[i];
        struct snap* s = &sf[i];
        strcpy(why, fpath[i]);
        char* w = why + strlen(why);
        if (s->exists != (m >= 0)) {
            strcpy(w, m >= 0 ? " should exist" : " should not exist");
            return 0;
        }
        if (m < 0) continue;
        if (s->type != T_FILE) {
            strcpy(w, " is not a file");
            return 0;
        }
        if (s->size != ino[m].size) {
            strcpy(w, " has the wrong size");
            return 0;
        }
        if (memcmp(s->data, ino[m].data, s->size) != 0) {
            strcpy(w, " has the wrong contents");
            return 0;
        }
        if (s->nlink != ino[m].nlink) {
            strcpy(w, " has the wrong link count");
            return 0;
        }
        for (int j = 0; j < i; j++)
            if (file_ino[j] >= 0 && (file_ino[j] == m) != (sf[j].ino == s->ino)) {
                strcpy(w, " shares (or not) an inode unlike the model");
                return 0;
            }
    }
    return 1;
}

static void describe(int step) {
    printf("verify:   model after step %d:", step);
    for (int d = 0; d < NDIRS; d++)
        if (dir_present[d]) printf(" %s/", dpath[d]);
    for (int i = 0; i < NFILES; i++)
        if (file_ino[i] >= 0)
            printf(" %s(i%d,%dB,n%d)", fpath[i], file_ino[i], ino[file_ino[i]].size, ino[file_ino[i]].nlink);
    printf("\nverify:   disk:");
    for (int d = 0; d < NDIRS; d++)
        if (sd[d].exists) printf(" %s/", dpath[d]);
    for (int i = 0; i < NFILES; i++)
        if (sf[i].exists) printf(" %s(#%d,%dB,n%d)", fpath[i], sf[i].ino, sf[i].size, sf[i].nlink);
    printf("\n");
}

static int verify(int steps, int seen) {
    struct snap cw;
    take("/cw", &cw, 0);
    cw_exists = cw.exists && cw.type == T_DIR;
    for (int d = 0; d < NDIRS; d++) take(dpath[d], &sd[d], 0);
    for (int i = 0; i < NFILES; i++) take(fpath[i], &sf[i], 1);
    static const char* top[] = {"f0", "f1", "f2", "f3", "d0", "d1"};
    int stray = stray_names("/cw", top, 6) | stray_names("/cw/d0", top, 4) | stray_names("/cw/d1", top, 4);
    if (!cw.exists) {
        /* mkdir /cw itself may not have reached the disk only when nothing was seen done */
        if (seen < 0) {
            printf("verify: ok after step 0 (/cw not created yet)\n");
            return 0;
        }
        printf("verify: FAIL /cw missing but %d steps were seen done\n", seen);
        return 1;
    }
    if (stray) {
        printf("verify: FAIL stray entries\n");
        return 1;
    }
    int j = 0, first_why_set = 0;
    char first_why[200];
    if (j >= seen && matches()) {
        printf("verify: ok after step 0\n");
        return 0;
    }
    while (j < steps) {
        struct op o;
        pick(&o);
        if (j + nsteps(&o) > steps) break;
        for (int k = 0; k < nsteps(&o); k++) {
            apply(&o, k);
            j++;
            if (j < seen) continue;
            if (matches()) {
                printf("verify: ok after step %d (%d seen done)\n", j, seen);
                return 0;
            }
            if (!first_why_set) {
                first_why_set = 1;
                strcpy(first_why, why);
            }
        }
    }
    printf("verify: FAIL no state after steps %d..%d matches the disk (after step %d: %s)\n", seen, j, seen,
           first_why_set ? first_why : "?");
    /* show the model after the last step seen done next to the disk */
    unsigned long s0 = rng0;
    for (int i = 0; i < NINODES; i++) ino[i].used = 0;
    for (int d = 0; d < NDIRS; d++) dir_present[d] = 0;
    rng = s0;
    for (int i = 0; i < NFILES; i++) file_ino[i] = -1;
    for (j = 0; j < seen;) {
        struct op o;
        pick(&o);
        for (int k = 0; k < nsteps(&o) && j < seen; k++, j++) apply(&o, k);
    }
    describe(seen);
    return 1;
}

/* An unsigned decimal (seeds go up to 2^30, beyond parse_int's range). */
static int digits(const char* s) {
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

int main(int argc, char* argv[]) {
    static const char usage[] = "fsworkload SEED STEPS | fsworkload -v SEED STEPS DONE";
    usage_on_help(argc, argv, usage);
    if (argc == 5 && !strcmp(argv[1], "-v") && digits(argv[2]) && digits(argv[3]) && digits(argv[4])) {
        init_model((unsigned long)atoi(argv[2]));
        exit(verify(atoi(argv[3]), atoi(argv[4])));
    }
    if (argc != 3 || !digits(argv[1]) || !digits(argv[2])) usage_exit(usage, 2);
    init_model((unsigned long)atoi(argv[1]));
    run(atoi(argv[2]));
    exit(0);
}
