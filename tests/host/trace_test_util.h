// tests/host/trace_test_util.h - what the scheduler trace's host tests
// share (trace_reader_test.cc, trace_affinity_test.cc): records and dumps
// built in memory in the kernel's format (lib/obs/format.h), and a
// model's replay file in a temporary file.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lib/obs/format.h"
#include "tests/host/obs_test_util.h"
#include "tools/trace_output.h"

namespace q::tools::test {

using trace::DumpHeader;
using trace::Event;
using trace::Record;

constexpr u64 kStart = 1'000'000;

inline Record rec(Event e, u8 cpu, u64 t, int pid, int other = 0, u8 a = 0, u8 b = 0, i64 key = 0) {
    Record r{};
    r.type = static_cast<u8>(e);
    r.cpu = cpu;
    r.time = t;
    r.pid = pid;
    r.other = other;
    r.a = a;
    r.b = b;
    r.key = key;
    return r;
}

inline Record named(Event e, u8 cpu, u64 t, int pid, const char* name, u8 a = 0, u8 b = 20) {
    Record r = rec(e, cpu, t, pid, 0, a, b);
    trace::put_name(r, name);
    return r;
}

// A dump of per-hart record lists (eevdf, percpu; the period is the slice).
inline std::vector<u8> dump(const std::vector<std::vector<Record>>& harts, u64 stop = kStart + 1'000'000) {
    DumpHeader h{};
    std::snprintf(h.policy, sizeof(h.policy), "eevdf");
    std::snprintf(h.rq_mode, sizeof(h.rq_mode), "percpu");
    return obs_dump(h, obs::Kind::Trace, trace::kVersion, harts, kStart, stop);
}

// m's replay file (1,000-cycle ticks) in a temporary file; its path ("" if
// it could not be made).
inline std::string replay_file(const Model& m, u64 tick = 1000) {
    char path[] = "/tmp/qtrace-replay-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return "";
    std::FILE* f = fdopen(fd, "w");
    write_replay(m, tick, f);
    std::fclose(f);
    return path;
}

// The text of the file at path.
inline std::string file_text(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace q::tools::test
