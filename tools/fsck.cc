// tools/fsck.cc - check a quanta file-system image.
//
//   fsck [-q] IMAGE
//
// Reads the whole image and runs check_image() (tools/fscheck.h) on it; the
// image file is never modified (a committed log is replayed in memory
// only). Prints every finding, then one summary line. -q prints only the
// errors and the summary. Exit status: 0 clean (warnings allowed), 1 when
// errors were found, 2 for a usage error or an unreadable image.
#include <cstdio>
#include <cstring>
#include <string>

#include "tools/fscheck.h"

int main(int argc, char* argv[]) {
    bool quiet = false;
    int i = 1;
    if (i < argc && std::strcmp(argv[i], "-q") == 0) {
        quiet = true;
        i++;
    }
    if (i + 1 != argc) {
        std::fprintf(stderr, "usage: fsck [-q] IMAGE\n");
        return 2;
    }
    q::tools::Image img;
    std::string err;
    if (!img.load(argv[i], &err)) {
        std::fprintf(stderr, "fsck: %s\n", err.c_str());
        return 2;
    }
    return q::tools::print_report(q::tools::check_image(img), argv[i], quiet);
}
