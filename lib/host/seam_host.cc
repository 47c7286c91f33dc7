// lib/host/seam_host.cc - the seam (lib/seam.h) for host programs and tests.
//
// panic prints to stderr and aborts, so a broken invariant in a policy or in
// the file-system layout code stops a test or tool loudly.
#include "lib/seam.h"

#include <cstdio>
#include <cstdlib>

namespace q::seam {

void panic(const char* msg) {
    std::fprintf(stderr, "panic: %s\n", msg);
    std::abort();
}

}  // namespace q::seam
