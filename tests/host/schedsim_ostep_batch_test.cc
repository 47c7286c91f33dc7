// tests/host/schedsim_ostep_batch_test.cc - `schedsim ostep batch`:
// chapter 7's policies with arrival times, on the chapter's own examples
// (response = first run - arrival, turnaround = finish - arrival, wait =
// turnaround - length).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sim/ostep.h"
#include "tests/host/schedsim_ostep_util.h"

namespace {

using schedsim::test::Ran;
using schedsim::test::run_ostep;

Ran batch(std::vector<std::string> args) { return run_ostep("batch", std::move(args)); }

std::string average(std::vector<std::string> args) {
    args.push_back("-c");
    const Ran r = batch(args);
    EXPECT_EQ(r.status, 0) << r.err;
    const size_t at = r.out.find("  Average -- ");
    return at == std::string::npos ? "none" : r.out.substr(at + 13, r.out.find('\n', at) - at - 13);
}

}  // namespace

TEST(OstepBatch, ChapterSevenExamples) {
    // Three 10s under FIFO end at 10, 20, 30: turnaround 20, response 10.
    EXPECT_EQ(average({"-l", "10,10,10"}), "Response: 10.00  Turnaround 20.00  Wait 10.00");
    // A = 100 first: the convoy, (100 + 110 + 120) / 3.
    EXPECT_EQ(average({"-p", "FIFO", "-l", "100,10,10"}), "Response: 70.00  Turnaround 110.00  Wait 70.00");
    // SJF, all at 0: B 10, C 20, A 120.
    EXPECT_EQ(average({"-p", "SJF", "-l", "100,10,10"}), "Response: 10.00  Turnaround 50.00  Wait 10.00");
    // SJF with B, C at 10: they wait for A (100, 100, 110).
    EXPECT_EQ(average({"-p", "SJF", "-l", "100,10@10,10@10"}), "Response: 63.33  Turnaround 103.33  Wait 63.33");
    // STCF preempts A at 10: 120, 10, 20; responses 0, 0, 10.
    EXPECT_EQ(average({"-p", "STCF", "-l", "100,10@10,10@10"}), "Response: 3.33  Turnaround 50.00  Wait 10.00");
    // RR, slice 1, three 5s: responses 0, 1, 2; ends 13, 14, 15.
    EXPECT_EQ(average({"-p", "RR", "-l", "5,5,5"}), "Response: 1.00  Turnaround 14.00  Wait 9.00");
    // RR, slice 2: 0-2 job 0, 2-4 job 1 (arrived at 1), 4-5 job 0 done,
    // 5-7 job 1 done: turnarounds 5 and 6, responses 0 and 1.
    EXPECT_EQ(average({"-p", "RR", "-q", "2", "-l", "3,4@1"}), "Response: 0.50  Turnaround 5.50  Wait 2.00");
    // An idle CPU until the second arrival: job 1 runs at once at 5.
    EXPECT_EQ(average({"-l", "2,3@5"}), "Response: 0.00  Turnaround 2.50  Wait 0.00");
}

TEST(OstepBatch, TraceProblemAndBadInput) {
    const Ran r = batch({"-p", "STCF", "-l", "100,10@10,10@10", "-c"});
    EXPECT_NE(r.out.find("Execution trace:\n  [ time   0 ] Run job   0 for 10.00 secs\n"
                         "  [ time  10 ] Run job   1 for 10.00 secs ( DONE at 20.00 )\n"
                         "  [ time  20 ] Run job   2 for 10.00 secs ( DONE at 30.00 )\n"
                         "  [ time  30 ] Run job   0 for 90.00 secs ( DONE at 120.00 )\n"),
              std::string::npos)
        << r.out;
    const Ran p = batch({"-l", "4@2"});
    EXPECT_NE(p.out.find("  Job 0 ( length = 4, arrival = 2 )\n"), std::string::npos);
    EXPECT_EQ(p.out.find("Final statistics"), std::string::npos);
    for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
             {"-p", "MLFQ", "-l", "1"}, {"-l", "0"}, {"-l", "3@-1"}, {"-l", "3@1@2"}, {}, {"-q", "0", "-l", "1"}}) {
        const Ran b = batch(bad);
        EXPECT_EQ(b.status, 2);
        EXPECT_EQ(b.err.rfind("schedsim ostep batch: ", 0), 0u) << b.err;
    }
}
