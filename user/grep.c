/* grep - print the lines that match a pattern: `grep pattern [file...]`.
 *
 * Patterns are a small regular-expression language: ^ anchors at the start,
 * $ at the end, . matches any character and c* zero or more of c. Matching
 * is a backtracking recursion over pattern and text (patterns are short).
 * Input is read in blocks; complete lines are matched and printed, and a
 * partial line is kept for the next read. A line longer than the buffer is
 * matched in pieces. A first argument of exactly -h prints the usage line
 * (to search for "-h", write the pattern as ".*-h"); other patterns are
 * taken as they are, even when they start with '-'.
 */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/user.h"

static int match_here(const char* re, const char* text);

/* c* at the start of the text: try every count of c, shortest first. */
static int match_star(char c, const char* re, const char* text) {
    do {
        if (match_here(re, text)) return 1;
    } while (*text != 0 && (*text++ == c || c == '.'));
    return 0;
}

static int match_here(const char* re, const char* text) {
    if (re[0] == 0) return 1;
    if (re[1] == '*') return match_star(re[0], re + 2, text);
    if (re[0] == '$' && re[1] == 0) return *text == 0;
    if (*text != 0 && (re[0] == '.' || re[0] == *text)) return match_here(re + 1, text + 1);
    return 0;
}

static int match(const char* re, const char* text) {
    if (re[0] == '^') return match_here(re + 1, text);
    do {
        if (match_here(re, text)) return 1;
    } while (*text++ != 0);
    return 0;
}

static char buf[1024];

static void grep(const char* pattern, int fd) {
    int have = 0, n;
    while ((n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
        have += n;
        buf[have] = 0;
        char* line = buf;
        char* nl;
        while ((nl = strchr(line, '\n')) != 0) {
            *nl = 0;
            if (match(pattern, line)) {
                *nl = '\n';
                write(1, line, nl + 1 - line);
            }
            line = nl + 1;
        }
        have -= line - buf;
        if (have == (int)sizeof(buf) - 1) { /* an overlong line: match this piece */
            if (match(pattern, buf)) printf("%s\n", buf);
            have = 0;
        } else if (have > 0) {
            memmove(buf, line, have);
        }
    }
    if (have > 0) { /* last line without a newline */
        buf[have] = 0;
        if (match(pattern, buf)) printf("%s\n", buf);
    }
}

int main(int argc, char* argv[]) {
    static const char usage[] = "grep pattern [file...]";
    usage_on_help(argc, argv, usage);
    if (argc < 2) usage_exit(usage, 1);
    if (argc == 2) {
        grep(argv[1], 0);
        return 0;
    }
    for (int i = 2; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0) {
            perrorf("grep: cannot open %s", argv[i]);
            exit(1);
        }
        grep(argv[1], fd);
        close(fd);
    }
    return 0;
}
