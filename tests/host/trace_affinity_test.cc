// tests/host/trace_affinity_test.cc - affinity in a scheduler trace: the
// Affinity record (lib/obs/format.h, format version 3) as qtrace reads it.
//
// A synthetic 3-hart trace: hog 3 pinned to hart 1 before tracing started
// (a snapshot record), hog 4 pinned by the shell's setaffinity to hart 0,
// reniced, then given mask 0x5 (harts 0 and 2), and a child 5 forked with
// that mask (an inherited record). The replay file has `cpus=LIST` for a
// mask in force at a line's arrival and `at TICK cpus LIST` for a change
// after it, in time order with level changes, and schedsim's loader takes
// it on the trace's cores; --events, the summary and the JSON show each
// change. Before format version 3 no such record existed (a dump with one
// was refused: "unknown event type 14") and a replay replayed pinned
// processes unpinned.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <sstream>

#include "lib/sched/cpu_list.h"
#include "sim/sim.h"
#include "tests/host/obs_test_util.h"
#include "tests/host/trace_test_util.h"

namespace {

using namespace q;
using namespace q::tools;
using namespace q::tools::test;
using trace::AffinitySource;

Record affinity(u8 cpu, u64 t, int pid, int by, AffinitySource how, u64 mask) {
    return rec(Event::Affinity, cpu, t, pid, by, static_cast<u8>(how), 0, static_cast<i64>(mask));
}

std::vector<std::vector<Record>> pinned_trace() {
    return {
        {named(Event::Proc, 0, kStart + 10, 2, "sh", 2), named(Event::Proc, 0, kStart + 10, 3, "hog", 4),
         affinity(0, kStart + 10, 3, 0, AffinitySource::Snapshot, 0x2), named(Event::Proc, 0, kStart + 10, 4, "hog", 3),
         rec(Event::Switch, 0, kStart + 100, 4), rec(Event::Fork, 0, kStart + 90'000, 5, 4),
         affinity(0, kStart + 90'000, 5, 4, AffinitySource::Inherit, 0x5),
         rec(Event::Wakeup, 0, kStart + 90'000, 5, 4, 2, 0)},
        {rec(Event::Deschedule, 1, kStart + 10'100, 3, 0, 3, 0, 10'000), rec(Event::Switch, 1, kStart + 10'200, 3)},
        {rec(Event::Wakeup, 2, kStart + 49'000, 2, 0, 2, 1), rec(Event::Switch, 2, kStart + 49'100, 2),
         affinity(2, kStart + 50'000, 4, 2, AffinitySource::Set, 0x1), rec(Event::Renice, 2, kStart + 60'000, 4, 5),
         affinity(2, kStart + 80'000, 4, 2, AffinitySource::Set, ~u64{0} << 2 | 1),
         affinity(2, kStart + 80'500, 4, 2, AffinitySource::Set, 0x5),
         rec(Event::Deschedule, 2, kStart + 81'000, 2, 0, 2, 0, 31'900), rec(Event::Switch, 2, kStart + 95'000, 5),
         rec(Event::Deschedule, 2, kStart + 99'000, 5, 0, 5, 0, 4'000)},
    };
}

Model pinned_model() {
    TraceDump d;
    std::string err;
    EXPECT_TRUE(parse_dump(dump(pinned_trace()), &d, &err)) << err;
    return build_model(d);
}

TEST(TraceAffinity, ModelKeepsEveryChange) {
    const Model m = pinned_model();
    ASSERT_EQ(m.procs.at(3).affinities.size(), 1u);
    EXPECT_EQ(m.procs.at(3).affinities[0].mask, 0x2u);
    EXPECT_EQ(m.procs.at(3).affinities[0].source, static_cast<u8>(AffinitySource::Snapshot));
    const auto& hog = m.procs.at(4).affinities;
    ASSERT_EQ(hog.size(), 3u);
    EXPECT_EQ(hog[0].time, kStart + 50'000);
    EXPECT_EQ(hog[0].by, 2);
    EXPECT_EQ(hog[1].mask, ~u64{0} << 2 | 1);  // as set: harts the machine lacks included
    ASSERT_EQ(m.procs.at(5).affinities.size(), 1u);
    EXPECT_EQ(m.procs.at(5).affinities[0].by, 4);
}

// The replay lines (1,000-cycle ticks): hog 3's snapshot mask is cpus=;
// hog 4's changes are `at` changes, clipped to the 3 harts (0xff..fd is
// cores 0 and 2-63: "0,2"), in time order with its renice; the child
// arrives with its inherited mask. schedsim's loader takes the file on 3
// cores, and refuses it on 1 (hog 3's core 1 is not there).
TEST(TraceAffinity, ReplayPinsWhatTheKernelPinned) {
    const std::string path = replay_file(pinned_model());
    ASSERT_FALSE(path.empty());
    const std::string text = file_text(path);
    EXPECT_NE(text.find("\n0 20 run inf cpus=1   # pid 3 hog\n"), std::string::npos) << text;
    EXPECT_NE(text.find(" run inf at 50 cpus 0 at 60 level 25 at 80 cpus 0,2 at 80 cpus 0,2   # pid 4 hog\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("\n90 25 run 4 cpus=0,2   # pid 5 hog\n"), std::string::npos) << text;
    schedsim::Config c;
    c.workload = schedsim::WorkloadKind::Replay;
    c.workload_file = path;
    c.cores = 3;
    std::vector<schedsim::TaskSpec> tasks;
    ASSERT_NO_THROW(tasks = schedsim::load_workload(c));
    ASSERT_EQ(tasks.size(), 4u);  // sh, hogs 3 and 4, the child
    const auto line = [&](const char* pid) {
        for (const schedsim::TaskSpec& t : tasks) {
            std::string l;
            std::istringstream in(text);
            for (size_t n = 1; std::getline(in, l); n++)
                if (n == t.line && l.find(pid) != std::string::npos) return t;
        }
        ADD_FAILURE() << "no line for " << pid;
        return schedsim::TaskSpec{};
    };
    EXPECT_EQ(line("# pid 3 ").affinity, 0x2u);
    const schedsim::TaskSpec hog = line("# pid 4 ");
    ASSERT_EQ(hog.changes.size(), 4u);
    EXPECT_EQ(hog.changes[0].cpus, 0x1u);
    EXPECT_EQ(hog.changes[1].level, 25);
    EXPECT_EQ(hog.changes[3].cpus, 0x5u);
    EXPECT_EQ(line("# pid 5 ").affinity, 0x5u);
    c.cores = 1;
    EXPECT_THROW(schedsim::load_workload(c), std::runtime_error);
    std::remove(path.c_str());
}

// A mask set while a process is asleep at the start folds into the cpus=
// of its line (it arrives when first woken); one set back to every hart
// later is written, so the replay unpins it too.
TEST(TraceAffinity, ChangesBeforeArrivalAreItsCpus) {
    const std::vector<std::vector<Record>> harts = {
        {named(Event::Proc, 0, kStart + 10, 2, "sh", 2), named(Event::Proc, 0, kStart + 10, 6, "worker", 2),
         affinity(0, kStart + 10, 6, 0, AffinitySource::Snapshot, 0x2),
         affinity(0, kStart + 3'000, 6, 2, AffinitySource::Set, 0x1), rec(Event::Wakeup, 0, kStart + 5'000, 6, 0, 0, 1),
         rec(Event::Switch, 0, kStart + 5'000, 6), affinity(0, kStart + 7'000, 6, 6, AffinitySource::Set, ~u64{0})},
        {},
    };
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(harts), &d, &err)) << err;
    const std::string path = replay_file(build_model(d));
    const std::string text = file_text(path);
    std::remove(path.c_str());
    EXPECT_NE(text.find("\n5 20 run inf cpus=0 at 7 cpus 0-1   # pid 6 worker\n"), std::string::npos) << text;
}

// --events, the summary and the JSON name each change; the events line
// keeps the words trace_tests.py parses (pid, then key-value pairs).
TEST(TraceAffinity, ListingsShowEachChange) {
    const std::string path = temp_file(dump(pinned_trace()));
    std::string out;
    ASSERT_EQ(run(std::string(Q_QTRACE_PATH) + " --dump " + path + " --events", &out), 0) << out;
    EXPECT_NE(out.find("hart 2 affinity   pid 4 by 2 how setaffinity mask 0x1 cpus 0\n"), std::string::npos) << out;
    EXPECT_NE(out.find("hart 0 affinity   pid 3 by 0 how snapshot mask 0x2 cpus 1\n"), std::string::npos) << out;
    EXPECT_NE(out.find("hart 0 affinity   pid 5 by 4 how inherited mask 0x5 cpus 0,2\n"), std::string::npos) << out;
    ASSERT_EQ(run(std::string(Q_QTRACE_PATH) + " --dump " + path + " --summary -", &out), 0) << out;
    EXPECT_NE(out.find("\naffinity (the harts a thread may run on; the mask as set, in hex):\n"), std::string::npos);
    EXPECT_NE(out.find("  hog:4                at 0.008000 s: cpus 0,2 (mask 0xfffffffffffffffd, setaffinity by 2)\n"),
              std::string::npos)
        << out;
    ASSERT_EQ(run(std::string(Q_QTRACE_PATH) + " --dump " + path + " --json -", &out), 0) << out;
    EXPECT_NE(out.find(R"("name":"affinity pid 3 hog","cat":"affinity","pid":1,"ts":1.0,)"
                       R"("args":{"pid":3,"cpus":"1","mask":"0x2","by":0,"how":"snapshot"}})"),
              std::string::npos)
        << out;
    std::remove(path.c_str());
}

// Any mask in any record reaches every writer safely; a mask naming no
// hart of the trace (only a corrupt dump has one) is left out of the
// replay, which schedsim still reads.
TEST(TraceAffinity, AnyMaskIsSafe) {
    std::mt19937_64 rng(23);
    for (int i = 0; i < 300; i++) {
        auto harts = pinned_trace();
        for (Record& r : harts[2]) {
            if (r.type != static_cast<u8>(Event::Affinity)) continue;
            r.key = static_cast<i64>(i % 3 == 0 ? rng() << (rng() % 64) : rng() & 0x7);
            r.a = static_cast<u8>(rng() % 5);
        }
        TraceDump d;
        std::string err;
        ASSERT_TRUE(parse_dump(dump(harts), &d, &err)) << err;
        const Model m = build_model(d);
        std::FILE* f = std::tmpfile();
        write_json(m, f);
        write_summary(m, f);
        std::fclose(f);
        const std::string path = replay_file(m);
        EXPECT_NO_THROW(schedsim::load_replay(path)) << file_text(path);
        std::remove(path.c_str());
    }
}

// The one list writer (qtrace's replay, schedsim's errors) and schedsim's
// reader agree on every kind of mask, and the longest list fits; the
// cores-below mask both clip with.
TEST(CpuList, RoundTripsThroughSchedsimsParser) {
    EXPECT_STREQ(sched::cpu_list(0).s, "");
    EXPECT_STREQ(sched::cpu_list(0b1101).s, "0,2-3");
    EXPECT_STREQ(sched::cpu_list(0b11).s, "0-1");
    EXPECT_STREQ(sched::cpu_list(~u64{0}).s, "0-63");
    EXPECT_EQ(sched::cpus_below(0), 0u);
    EXPECT_EQ(sched::cpus_below(3), 0b111u);
    EXPECT_EQ(sched::cpus_below(64), ~u64{0});
    u64 worst = 0;  // 0-1,3-4,...: the longest text
    for (unsigned c = 0; c < 64; c += 3) worst |= u64{3} << c;
    EXPECT_LT(std::strlen(sched::cpu_list(worst).s), sizeof(sched::CpuListText::s));
    std::mt19937_64 rng(5);
    for (int i = 0; i < 2000; i++) {
        const u64 mask = i == 0 ? worst : rng() & rng() >> (rng() % 64);
        if (!mask) continue;
        EXPECT_EQ(schedsim::parse_cpus(sched::cpu_list(mask).s, "t"), mask) << sched::cpu_list(mask).s;
    }
}

}  // namespace
