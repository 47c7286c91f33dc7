// tests/host/obs_test_util.h - what the recorders' host tests share
// (trace_reader_test.cc, prof_reader_test.cc): a dump built in memory,
// running the host tool and capturing its output, a dump in a temporary
// file, and a disk image holding a dump written in two parts.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "lib/obs/format.h"
#include "tools/fsbuild.h"

namespace q::tools::test {

// A dump in the kernel's format (lib/obs/format.h): header h (its
// recorder's own fields set by the caller) completed with the common ones
// (10 MHz timer, 10,000-cycle period, capacity 1024, one count per hart),
// then each hart's records.
template <class Header, class Rec>
std::vector<u8> obs_dump(Header h, obs::Kind kind, u16 version, const std::vector<std::vector<Rec>>& harts, u64 start,
                         u64 stop) {
    h.magic = obs::kMagic;
    h.kind = static_cast<u16>(kind);
    h.version = version;
    h.header_size = sizeof(Header);
    h.record_size = sizeof(Rec);
    h.harts = static_cast<u32>(harts.size());
    h.timer_hz = 10'000'000;
    h.period_cycles = 10'000;
    h.start_time = start;
    h.stop_time = stop;
    h.capacity = 1024;
    for (size_t i = 0; i < harts.size(); i++) h.counts[i] = harts[i].size();
    std::vector<u8> out(sizeof(h));
    std::memcpy(out.data(), &h, sizeof(h));
    for (const auto& recs : harts) {
        for (const Rec& r : recs) {
            const u8* p = reinterpret_cast<const u8*>(&r);
            out.insert(out.end(), p, p + sizeof(r));
        }
    }
    return out;
}

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
