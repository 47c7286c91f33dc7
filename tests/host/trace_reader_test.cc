// tests/host/trace_reader_test.cc - the host side of scheduler tracing.
//
// Builds dumps in memory in the kernel's format (lib/obs/format.h) and
// checks: a valid dump parses and merges harts by time; each kind of bad
// dump (truncated, trailing bytes, bad magic, other version, impossible
// counts, bad records) is refused with its own message; random truncations
// and byte flips never crash the reader, the model or the writers (the -san
// binary runs this under ASan/UBSan); the model's runtimes, switches and
// wake-up delays; the replay file is accepted by schedsim's own parser with
// the expected bursts; a dump is found in a disk image, parts joined, and
// an image without one is an error; qtrace's exit statuses.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "sim/sim.h"
#include "tests/host/obs_test_util.h"
#include "tests/host/trace_test_util.h"
#include "tools/trace_output.h"

namespace {

using namespace q;
using namespace q::tools;
using namespace q::tools::test;
using trace::DumpHeader;
using trace::Event;
using trace::Record;

// Two hogs on hart 0 and 1, a sleeper woken on hart 1 (wait 300 cycles).
std::vector<std::vector<Record>> sample() {
    return {
        {named(Event::Proc, 0, kStart + 10, 1, "init", 2), named(Event::Proc, 0, kStart + 10, 2, "sh", 2),
         rec(Event::Fork, 0, kStart + 100, 3, 2), named(Event::Exec, 0, kStart + 150, 3, "hog"),
         rec(Event::Switch, 0, kStart + 200, 3, 0, 0, 0, 50),
         rec(Event::Deschedule, 0, kStart + 10'200, 3, 0, 3, 0, 10'000),
         rec(Event::Switch, 0, kStart + 10'300, 3, 3, 3, 0, 100),
         rec(Event::Deschedule, 0, kStart + 20'300, 3, 0, 5, 0, 10'000)},
        {rec(Event::Wakeup, 1, kStart + 5'000, 2, 0, 1, 1), rec(Event::Enqueue, 1, kStart + 5'000, 2, 1024, 1, 1),
         rec(Event::Pick, 1, kStart + 5'300, 2, 1024, 1, 1), rec(Event::Switch, 1, kStart + 5'300, 2, 0, 0, 0, 300),
         rec(Event::Deschedule, 1, kStart + 6'300, 2, 0, 2, 0, 1'000),
         rec(Event::Renice, 1, kStart + 7'000, 2, 5, 0, 0, 0)},
    };
}

std::string parse_error(const std::vector<u8>& bytes) {
    TraceDump d;
    std::string err;
    EXPECT_FALSE(parse_dump(bytes, &d, &err));
    return err;
}

// The header derives from the shared Sections (lib/obs/format.h), which a
// compiler may not be asked for offsets in: the format's own fields must
// still start at byte 192, where version 2 dumps keep them.
TEST(TraceFormat, OwnFieldsFollowTheSharedSections) {
    DumpHeader h{};
    const auto at = [&](const void* p) { return static_cast<const char*>(p) - reinterpret_cast<const char*>(&h); };
    EXPECT_EQ(at(&h.magic), 0);
    EXPECT_EQ(at(&h.counts), 64);
    EXPECT_EQ(at(h.policy), 192);
    EXPECT_EQ(at(h.rq_mode), 208);
    q::prof::DumpHeader p{};
    EXPECT_EQ(static_cast<const char*>(static_cast<const void*>(p.reserved)) - reinterpret_cast<const char*>(&p), 192);
}

TEST(TraceReader, ParsesAndMergesByTime) {
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(sample()), &d, &err)) << err;
    ASSERT_EQ(d.records.size(), 14u);
    for (size_t i = 1; i < d.records.size(); i++) EXPECT_LE(d.records[i - 1].time, d.records[i].time);
    EXPECT_EQ(d.records[5].type, static_cast<u8>(Event::Wakeup));  // hart 1's first, between hart 0's
}

TEST(TraceReader, RefusesBadDumpsWithOneReason) {
    const std::vector<u8> good = dump(sample());
    EXPECT_NE(parse_error({}).find("truncated trace dump: 0 bytes"), std::string::npos);
    std::vector<u8> cut(good.begin(), good.end() - 5);
    EXPECT_NE(parse_error(cut).find("truncated trace dump"), std::string::npos);
    std::vector<u8> longer = good;
    longer.push_back(0);
    EXPECT_NE(parse_error(longer).find("the header says"), std::string::npos);
    std::vector<u8> magic = good;
    magic[0] ^= 1;
    EXPECT_EQ(parse_error(magic), "not a quanta trace dump (bad magic)");
    std::vector<u8> version = good;
    version[8] = 2;  // before Affinity records
    EXPECT_NE(parse_error(version).find("trace dump version 2, this tool reads version 3"), std::string::npos);
    auto with_header = [&](auto change) {
        std::vector<u8> b = good;
        DumpHeader h;
        std::memcpy(&h, b.data(), sizeof(h));
        change(h);
        std::memcpy(b.data(), &h, sizeof(h));
        return parse_error(b);
    };
    EXPECT_NE(with_header([](DumpHeader& h) { h.harts = 9; }).find("9 harts"), std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.capacity = 3; }).find("record count out of range"), std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.counts[0] = ~0ull; }).find("record count out of range"),
              std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.record_size = 16; }).find("record size"), std::string::npos);
    auto with_record = [&](int hart, int i, auto change) {
        auto s = sample();
        change(s[hart][i]);
        return parse_error(dump(s));
    };
    EXPECT_NE(with_record(0, 2, [](Record& r) { r.type = 77; }).find("hart 0 record 2: unknown event type 77"),
              std::string::npos);
    EXPECT_NE(with_record(1, 0, [](Record& r) { r.cpu = 0; }).find("another's section"), std::string::npos);
    EXPECT_NE(with_record(0, 3, [](Record& r) { r.time = kStart + 1; }).find("backwards"), std::string::npos);
    EXPECT_NE(with_record(0, 0, [](Record& r) { r.time = 1; }).find("outside the trace"), std::string::npos);
}

void exercise(const std::vector<u8>& bytes) {
    TraceDump d;
    std::string err;
    if (!parse_dump(bytes, &d, &err)) {
        EXPECT_FALSE(err.empty());
        EXPECT_EQ(err.find('\n'), std::string::npos);
        return;
    }
    const Model m = build_model(d);
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    write_json(m, f);
    write_summary(m, f);
    write_replay(m, 1000, f);
    std::fclose(f);
}

TEST(TraceReader, FuzzTruncatedAndRandomDumps) {
    const std::vector<u8> good = dump(sample());
    std::mt19937_64 rng(15);
    for (size_t n = 0; n <= good.size(); n++) exercise(std::vector<u8>(good.begin(), good.begin() + n));
    for (int i = 0; i < 20000; i++) {
        std::vector<u8> b = good;
        const int flips = 1 + static_cast<int>(rng() % 8);
        for (int k = 0; k < flips; k++) b[rng() % b.size()] ^= static_cast<u8>(1u << (rng() % 8));
        // Keep the header valid half of the time, so the records get fuzzed.
        if (i % 2) std::memcpy(b.data(), good.data(), sizeof(DumpHeader));
        exercise(b);
    }
    for (int i = 0; i < 2000; i++) {
        std::vector<u8> b(rng() % 2048);
        for (u8& c : b) c = static_cast<u8>(rng());
        if (b.size() >= sizeof(DumpHeader) && i % 2) std::memcpy(b.data(), good.data(), 64);
        exercise(b);
    }
}

TEST(TraceModel, RuntimeSwitchesAndDelays) {
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(sample()), &d, &err)) << err;
    const Model m = build_model(d);
    const ProcStats& hog = m.procs.at(3);
    EXPECT_EQ(hog.name, "hog");
    EXPECT_EQ(hog.runtime, 20'000u);
    EXPECT_EQ(hog.switches, 2u);
    EXPECT_TRUE(hog.exited);
    const ProcStats& sh = m.procs.at(2);
    EXPECT_EQ(sh.wakeups, 1u);
    EXPECT_EQ(sh.delay_max, 300u);
    EXPECT_EQ(sh.nice, 5);
    ASSERT_EQ(m.runs.size(), 3u);
    ASSERT_EQ(m.wakes.size(), 1u);
    EXPECT_EQ(m.wakes[0].dispatch_time, kStart + 5'300);
}

// A thread (tid 4) of the hog (pid 3): its own stats, grouped under the
// process in the JSON (a track group per process, a track per thread).
TEST(TraceModel, ThreadsAreTracksOfTheirProcess) {
    auto harts = sample();
    harts[0].push_back(rec(Event::Thread, 0, kStart + 20'400, 4, 3));
    harts[0].push_back(rec(Event::Switch, 0, kStart + 20'500, 4, 3, 5, 0, 100));
    harts[0].push_back(rec(Event::Deschedule, 0, kStart + 21'500, 4, 0, 5, 0, 1'000));
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(harts), &d, &err)) << err;
    const Model m = build_model(d);
    const ProcStats& t = m.procs.at(4);
    EXPECT_EQ(t.process, 3);
    EXPECT_EQ(m.procs.at(3).process, 3);
    EXPECT_EQ(t.name, "hog");  // a thread runs its process's program
    EXPECT_EQ(t.runtime, 1'000u);
    EXPECT_TRUE(t.exited);
    char path[] = "/tmp/qtrace-json-XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    std::FILE* f = fdopen(fd, "w");
    write_json(m, f);
    std::fclose(f);
    std::FILE* in = std::fopen(path, "r");
    ASSERT_NE(in, nullptr);
    std::string json;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, in)) > 0;) json.append(buf, n);
    std::fclose(in);
    std::remove(path);
    EXPECT_NE(json.find(R"("name":"process_name","pid":100003,"args":{"name":"pid 3 hog"})"), std::string::npos);
    EXPECT_NE(json.find(R"("name":"thread_name","pid":100003,"tid":4,"args":{"name":"tid 4 hog"})"), std::string::npos);
    EXPECT_NE(json.find(R"("name":"tid 4 of pid 3 hog","cat":"run","pid":1,"tid":0)"), std::string::npos);
    EXPECT_NE(json.find(R"("cat":"thread","pid":100003,"tid":4,)"), std::string::npos);
}

TEST(TraceModel, ReplayIsWhatSchedsimReads) {
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(sample()), &d, &err)) << err;
    const std::string path = replay_file(build_model(d));  // 100 us ticks
    ASSERT_FALSE(path.empty());
    const std::vector<schedsim::TaskSpec> tasks = schedsim::load_replay(path);
    std::remove(path.c_str());
    ASSERT_EQ(tasks.size(), 2u);
    // The hog: forked at 100 cycles, 20000 cycles of CPU in two slices -> 20 ticks.
    EXPECT_EQ(tasks[0].arrival, 0u);
    ASSERT_EQ(tasks[0].bursts.size(), 1u);
    EXPECT_EQ(tasks[0].bursts[0].ticks, 20u);
    // sh: asleep at the start, so it arrives when woken (5000 cycles = tick 5), runs 1 tick, renice at tick 7.
    EXPECT_EQ(tasks[1].arrival, 5u);
    EXPECT_EQ(tasks[1].level, 20);
    ASSERT_EQ(tasks[1].changes.size(), 1u);
    EXPECT_EQ(tasks[1].changes[0].tick, 7u);
    EXPECT_EQ(tasks[1].changes[0].level, 25);
}

// A process still running at the stop, and one woken just before it and
// not yet run, wanted more CPU than the trace saw: their replay lines end
// in `run inf`, so a replay under another policy does not end a hog early
// (the differential replay compares shares). Failed before: "run 20".
TEST(TraceModel, ReplayKeepsTasksRunnableAtTheStopRunnable) {
    const std::vector<std::vector<Record>> harts = {
        {named(Event::Proc, 0, kStart + 10, 3, "hog", 3), rec(Event::Switch, 0, kStart + 200, 3, 0, 0, 0, 50),
         rec(Event::Deschedule, 0, kStart + 10'200, 3, 0, 3, 0, 10'000),
         rec(Event::Switch, 0, kStart + 10'300, 3, 0, 0, 0, 100)},
        {named(Event::Proc, 1, kStart + 10, 4, "sh", 3), rec(Event::Switch, 1, kStart + 300, 4, 0, 0, 0, 0),
         rec(Event::Deschedule, 1, kStart + 2'300, 4, 0, 2, 0, 2'000),
         rec(Event::Wakeup, 1, kStart + 999'000, 4, 0, 1, 1)},
    };
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(harts), &d, &err)) << err;
    const Model m = build_model(d);
    EXPECT_TRUE(m.procs.at(3).runnable_at_stop);
    EXPECT_TRUE(m.procs.at(4).runnable_at_stop);
    const std::string path = replay_file(m);
    ASSERT_FALSE(path.empty());
    const std::vector<schedsim::TaskSpec> tasks = schedsim::load_replay(path);
    std::remove(path.c_str());
    ASSERT_EQ(tasks.size(), 2u);
    ASSERT_EQ(tasks[0].bursts.size(), 1u);
    EXPECT_EQ(tasks[0].bursts[0].ticks, schedsim::kForever);
    // sh: ran 2 ticks, slept until 999,000 cycles (997 ticks), then wants the CPU.
    ASSERT_EQ(tasks[1].bursts.size(), 3u);
    EXPECT_EQ(tasks[1].bursts[0].ticks, 2u);
    EXPECT_FALSE(tasks[1].bursts[1].run);
    EXPECT_EQ(tasks[1].bursts[2].ticks, schedsim::kForever);
}

// A wake-up made by the process running on the waker's hart (a pipe write)
// is a cause: the sleep it ends is written "sleep wait" and the waker's
// line holds "wake K" (K: the woken process's line) at that point of its
// run. A wake-up with waker 0 (an interrupt handler: the kernel no longer
// names the process it interrupted) stays a timed sleep. Failed before:
// both sleeps were timed ("sleep 4"), so a replay woke the sleeper at a
// fixed time whatever its waker had done by then.
TEST(TraceModel, ReplayMakesAWakersWakeUpTheCause) {
    const std::vector<std::vector<Record>> harts = {{
        named(Event::Proc, 0, kStart + 10, 3, "worker", 3),
        named(Event::Proc, 0, kStart + 10, 4, "msg", 3),
        rec(Event::Switch, 0, kStart + 100, 4, 0, 0, 0, 0),
        rec(Event::Deschedule, 0, kStart + 300, 4, 0, 2, 0, 200),
        rec(Event::Switch, 0, kStart + 310, 3, 4, 2, 0, 0),
        rec(Event::Wakeup, 0, kStart + 5'310, 4, 3, 0, 1),
        rec(Event::Deschedule, 0, kStart + 10'310, 3, 0, 3, 0, 10'000),
        rec(Event::Switch, 0, kStart + 10'400, 4, 3, 3, 0, 90),
        rec(Event::Deschedule, 0, kStart + 10'600, 4, 0, 2, 0, 200),
        rec(Event::Wakeup, 0, kStart + 20'000, 4, 0, 0, 1),
        rec(Event::Switch, 0, kStart + 20'100, 4, 0, 0, 0, 100),
        rec(Event::Deschedule, 0, kStart + 20'300, 4, 0, 2, 0, 200),
    }};
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(harts), &d, &err)) << err;
    const Model m = build_model(d);
    const std::string path = replay_file(m);
    ASSERT_FALSE(path.empty());
    const std::string text = file_text(path);
    EXPECT_NE(text.find("0 20 run 5 wake 1 run inf   # pid 3 worker"), std::string::npos) << text;
    EXPECT_NE(text.find("0 20 run 1 sleep wait run 1 sleep 9 run 1   # pid 4 msg"), std::string::npos) << text;
    const std::vector<schedsim::TaskSpec> tasks = schedsim::load_replay(path);  // schedsim reads it
    std::remove(path.c_str());
    ASSERT_EQ(tasks.size(), 2u);
    EXPECT_EQ(tasks[0].bursts[1].wake, 1);
}

// A Deschedule with b = 1 is a yield (sched_yield gave the turn up): the
// replay ends that run with "yield" and the next run starts a burst of its
// own, so schedsim puts the task back as the kernel did. A preemption
// (b = 0) keeps the runs one burst. Failed before: "run 5 run ..." merged
// into one run, a yield replayed as a preemption that keeps its turn.
TEST(TraceModel, ReplayEndsAYieldedRunWithYield) {
    const std::vector<std::vector<Record>> harts = {{
        named(Event::Proc, 0, kStart + 10, 3, "locks", 3),
        rec(Event::Switch, 0, kStart + 100, 3, 0, 0, 0, 0),
        rec(Event::Deschedule, 0, kStart + 2'100, 3, 0, 3, 1, 2'000),
        rec(Event::Switch, 0, kStart + 2'200, 3, 3, 3, 0, 100),
        rec(Event::Deschedule, 0, kStart + 5'200, 3, 0, 3, 0, 3'000),
        rec(Event::Switch, 0, kStart + 5'300, 3, 3, 3, 0, 100),
        rec(Event::Deschedule, 0, kStart + 6'300, 3, 0, 2, 0, 1'000),
    }};
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(harts), &d, &err)) << err;
    const Model m = build_model(d);
    const std::string path = replay_file(m);
    ASSERT_FALSE(path.empty());
    const std::string text = file_text(path);
    EXPECT_NE(text.find("0 20 run 2 yield run 4   # pid 3 locks"), std::string::npos) << text;
    const std::vector<schedsim::TaskSpec> tasks = schedsim::load_replay(path);  // schedsim reads it
    std::remove(path.c_str());
    ASSERT_EQ(tasks.size(), 1u);
    ASSERT_EQ(tasks[0].bursts.size(), 3u);
    EXPECT_TRUE(tasks[0].bursts[1].yield);
}

TEST(TraceImage, FindsAndJoinsParts) {
    std::vector<std::vector<Record>> harts = sample();
    for (int i = 0; i < 300; i++) harts[1].push_back(rec(Event::Renice, 1, kStart + 8'000 + i, 2, 0));
    const std::vector<u8> bytes = dump(harts);
    ASSERT_GT(bytes.size(), 4096u);
    const Image img = test::image_with_parts("t.dat", bytes);
    std::string err;
    std::vector<u8> got;
    ASSERT_TRUE(read_dump_from_image(img, "/t.dat", &got, &err)) << err;
    EXPECT_EQ(got, bytes);
    EXPECT_FALSE(read_dump_from_image(img, "/half.dat", &got, &err));
    EXPECT_NE(err.find("part /half.dat.1 is missing"), std::string::npos) << err;
    EXPECT_FALSE(read_dump_from_image(img, "/trace.dat", &got, &err));
    EXPECT_NE(err.find("no trace dump /trace.dat in the image"), std::string::npos) << err;
}

using test::run;
using test::temp_file;

TEST(Qtrace, OneLineErrorsAndExitStatus) {
    std::string out;
    std::vector<u8> bytes = dump(sample());
    bytes.resize(bytes.size() - 1);
    const std::string path = temp_file(bytes);
    EXPECT_EQ(run(std::string(Q_QTRACE_PATH) + " --dump " + path, &out), 1);
    EXPECT_EQ(out, std::string("qtrace: ") + path + ": truncated trace dump: 703 bytes, the header says 704\n");
    EXPECT_EQ(run(std::string(Q_QTRACE_PATH) + " /nonexistent.img", &out), 1);
    EXPECT_EQ(out, "qtrace: cannot open /nonexistent.img\n");
    EXPECT_EQ(run(std::string(Q_QTRACE_PATH) + " --bogus x", &out), 2);
    EXPECT_EQ(run(std::string(Q_QTRACE_PATH) + " --dump " + path + " --tick-us 0", &out), 1);
    std::remove(path.c_str());
}

// One format for both recorders: the header's kind says what the records
// are, and a reader of the other kind names the tool to use instead.
TEST(ObsFormat, KindSaysWhatTheRecordsAre) {
    std::vector<u8> as_profile = dump(sample());
    as_profile[10] = static_cast<u8>(obs::Kind::Profile);
    EXPECT_EQ(parse_error(as_profile), "a profile dump, not a trace dump (read it with qprof)");
    std::vector<u8> unknown = dump(sample());
    unknown[10] = 7;
    EXPECT_EQ(parse_error(unknown), "corrupt trace dump: unknown kind 7");
    ProfDump p;
    std::string err;
    EXPECT_FALSE(parse_prof_dump(dump(sample()), &p, &err));
    EXPECT_EQ(err, "a trace dump, not a profile dump (read it with qtrace)");
}

// qtrace and qprof are qobs under other names; qobs takes the kind first.
TEST(Qobs, OneToolForBothKinds) {
    const std::string path = temp_file(dump(sample()));
    const std::string dir = std::string(Q_QTRACE_PATH).substr(0, std::string(Q_QTRACE_PATH).rfind('/') + 1);
    std::string by_qtrace, by_qobs, out;
    EXPECT_EQ(run(std::string(Q_QTRACE_PATH) + " --dump " + path + " --events", &by_qtrace), 0) << by_qtrace;
    EXPECT_EQ(run(dir + "qobs trace --dump " + path + " --events", &by_qobs), 0) << by_qobs;
    EXPECT_EQ(by_qobs, by_qtrace);
    EXPECT_NE(by_qobs.find("hart 1 wakeup     pid 2"), std::string::npos) << by_qobs;
    EXPECT_EQ(run(dir + "qprof --dump " + path, &out), 1);
    EXPECT_EQ(out, std::string("qprof: ") + path + ": a trace dump, not a profile dump (read it with qtrace)\n");
    EXPECT_EQ(run(dir + "qobs prof --dump " + path, &out), 1);
    EXPECT_EQ(out, std::string("qobs: ") + path + ": a trace dump, not a profile dump (read it with qtrace)\n");
    EXPECT_EQ(run(dir + "qobs --dump " + path, &out), 2);
    EXPECT_EQ(out.rfind("usage: qobs trace", 0), 0u) << out;
    EXPECT_EQ(run(dir + "qobs prof --dump " + path + " --events", &out), 2);  // a trace flag
    std::remove(path.c_str());
}

}  // namespace

// The replay's platform parameters and a short run at the stop. Hart 0: a
// hog whose slice timer (10,000 cycles) ended its runs 300 and 500 cycles
// late, 100 cycles between its runs; hart 1: sh, running at the start, asleep,
// woken by the console (waker 0) and preempted after 10,400 cycles just
// before the stop. With 100-cycle ticks: --timer-late 4 (the mean of 300,
// 500 and sh's 400),
// --switch-cost 1 (the median gap; the idle one is left out), and sh ends
// in "run 104", not "run inf": its wake-up is replayed at a fixed time after
// its sleep began, not where the kernel had it. Failed before: no
// --timer-late nor --switch-cost, and sh's "run inf".
TEST(TraceModel, ReplayMeasuresThePlatformAndKeepsShortRunsShort) {
    const std::vector<std::vector<Record>> harts = {
        {named(Event::Proc, 0, kStart + 10, 3, "hog", 3), rec(Event::Switch, 0, kStart + 100, 3, 0, 0, 0, 50),
         rec(Event::Deschedule, 0, kStart + 10'400, 3, 0, 3, 0, 10'300),
         rec(Event::Switch, 0, kStart + 10'500, 3, 3, 3, 0, 100),
         rec(Event::Deschedule, 0, kStart + 21'000, 3, 0, 3, 0, 10'500),
         rec(Event::Switch, 0, kStart + 21'100, 3, 3, 3, 0, 100)},
        {named(Event::Proc, 1, kStart + 10, 4, "sh", 4), rec(Event::Deschedule, 1, kStart + 1'100, 4, 0, 2, 0, 1'000),
         rec(Event::Wakeup, 1, kStart + 500'000, 4, 0, 1, 1), rec(Event::Switch, 1, kStart + 500'100, 4, 0, 0, 0, 100),
         rec(Event::Deschedule, 1, kStart + 510'500, 4, 0, 3, 0, 10'400)},
    };
    TraceDump d;
    std::string err;
    ASSERT_TRUE(parse_dump(dump(harts, kStart + 511'000), &d, &err)) << err;
    const Model m = build_model(d);
    EXPECT_TRUE(m.procs.at(4).runnable_at_stop);
    const std::string path = replay_file(m, 100);
    ASSERT_FALSE(path.empty());
    const std::string text = file_text(path);
    const std::vector<schedsim::TaskSpec> tasks = schedsim::load_replay(path);
    std::remove(path.c_str());
    EXPECT_NE(text.find("--timer-late 4 --switch-cost 1 "), std::string::npos) << text;
    ASSERT_EQ(tasks.size(), 2u);
    EXPECT_EQ(tasks[0].bursts.back().ticks, schedsim::kForever);  // the hog
    ASSERT_EQ(tasks[1].bursts.size(), 3u);                        // sh: run 10, sleep, run 104
    EXPECT_EQ(tasks[1].bursts[2].ticks, 104u);
}
