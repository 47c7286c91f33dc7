/* echo - print the arguments separated by spaces, then a newline.
 *
 * The whole line is assembled first and written with one write(), so a
 * pipe reader sees it in one piece.
 */
#include "kernel/types.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    char line[512];
    int n = 0;
    for (int i = 1; i < argc; i++) {
        for (const char* s = argv[i]; *s; s++) {
            if (n == (int)sizeof(line) - 1) {
                write(1, line, n);
                n = 0;
            }
            line[n++] = *s;
        }
        if (i + 1 < argc && n < (int)sizeof(line) - 1) line[n++] = ' ';
    }
    line[n++] = '\n';
    write(1, line, n);
    return 0;
}
