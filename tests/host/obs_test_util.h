// tests/host/obs_test_util.h - what the recorders' host tests share
// (trace_reader_test.cc, prof_reader_test.cc): running the host tool and
// capturing its output, a dump in a temporary file, and a disk image
// holding a dump written in two parts.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tools/fsbuild.h"

namespace q::tools::test {

// cmd's exit status (-1 if it did not exit) and, in out, its stdout and
// stderr together.
inline int run(const std::string& cmd, std::string* out) {
    std::FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    char buf[4096];
    out->clear();
    while (size_t n = std::fread(buf, 1, sizeof(buf), p)) out->append(buf, n);
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// A new file in /tmp holding bytes; the caller removes it.
inline std::string temp_file(const std::vector<u8>& bytes) {
    char path[] = "/tmp/quanta-obs-test-XXXXXX";
    const int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    close(fd);
    return path;
}

// An image with the dump as /NAME and /NAME.1 (split after 4096 bytes, as
// the guest's dumpfile.c splits larger ones), and /half.dat holding only
// the first part.
inline Image image_with_parts(const std::string& name, const std::vector<u8>& bytes) {
    Builder b;
    std::string err;
    u32 inum;
    EXPECT_TRUE(b.add_file(b.root(), name, bytes.data(), 4096, &inum, &err)) << err;
    EXPECT_TRUE(b.add_file(b.root(), name + ".1", bytes.data() + 4096, bytes.size() - 4096, &inum, &err)) << err;
    EXPECT_TRUE(b.add_file(b.root(), "half.dat", bytes.data(), 4096, &inum, &err)) << err;
    return b.finish();
}

}  // namespace q::tools::test
