// tests/host/schedsim_ostep_multi_test.cc - `schedsim ostep multi` against
// answers worked out by hand from multi.py's algorithm (each case's working
// is in its comment), plus exact trace text and Python-exact random jobs.
//
// The model, as the script has it: each tick, at a multiple of the quantum
// every running job goes to the back of its queue (CPUs in order); idle
// CPUs take the first job their affinity allows; a job runs at rate -r
// (2) once it is in that CPU's cache, else 1; it enters the cache after -w
// (10) ticks run there (that tick still runs cold), at the front, evicting
// from the back while the working sets exceed -M (100). Utilisation = ticks
// run / finished time, warm = ticks run at a rate above 1 / finished time.
// Every case was also checked against a transcription of multi.py run
// under Python 3 (and 300 random flag combinations agreed byte for byte).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "sim/ostep.h"
#include "tests/host/schedsim_ostep_util.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace schedsim_ostep_multi_test {

namespace {

using schedsim::test::Ran;
using schedsim::test::run_ostep;

Ran multi(std::vector<std::string> args) { return run_ostep("multi", std::move(args)); }

// The -c answer: "Finished time N" and the CPU lines, joined by '|'.
std::string answer(std::vector<std::string> args) {
    args.push_back("-c");
    const Ran r = multi(args);
    EXPECT_EQ(r.status, 0) << r.err;
    const size_t at = r.out.find("Finished time");
    if (at == std::string::npos) return "no answer";
    std::string s;
    size_t pos = at;
    while (pos < r.out.size()) {
        const size_t nl = r.out.find('\n', pos);
        const std::string line = r.out.substr(pos, nl - pos);
        if (!line.empty() && line != "Per-CPU stats") s += (s.empty() ? "" : "|") + line;
        if (nl == std::string::npos) break;
        pos = nl + 1;
    }
    return s;
}

struct Case {
    std::vector<std::string> args;
    std::string want;
};

}  // namespace

TEST(OstepMulti, HandWorkedAnswers) {
    const Case cases[] = {
        // 1. Too big for the cache: 30 cold ticks.
        {{"-n", "1", "-L", "a:30:200"}, "Finished time 30|  CPU 0  utilization 100.00 [ warm 0.00 ]"},
        // 2. Fits: ticks 0-9 cold (warm after tick 9), 20 left at rate 2 =
        // 10 ticks: 20, warm 10/20.
        {{"-n", "1", "-L", "a:30:50"}, "Finished time 20|  CPU 0  utilization 100.00 [ warm 50.00 ]"},
        // 3. -w 0: warm from its first tick: 30 / 2 = 15.
        {{"-n", "1", "-L", "a:30:50", "-w", "0"}, "Finished time 15|  CPU 0  utilization 100.00 [ warm 100.00 ]"},
        // 4. -r 3: 10 cold, 20 left at 3 a tick = 7 ticks: 17, warm 7/17.
        {{"-n", "1", "-L", "a:30:50", "-r", "3"}, "Finished time 17|  CPU 0  utilization 100.00 [ warm 41.18 ]"},
        // 5. Two jobs share the cache: a 0-9 cold, b 10-19 cold, a 20-29 and
        // b 30-39 warm (20 left each): 40, warm 20/40.
        {{"-n", "1", "-L", "a:30:50,b:30:50"}, "Finished time 40|  CPU 0  utilization 100.00 [ warm 50.00 ]"},
        // 6. 60 + 60 > 100: each warm-up evicts the other (the evicted job
        // warms again from 10), so all 60 ticks run cold.
        {{"-n", "1", "-L", "a:30:60,b:30:60"}, "Finished time 60|  CPU 0  utilization 100.00 [ warm 0.00 ]"},
        // 7. Two jobs, two CPUs: the interrupt re-queues a, b in CPU order, so
        // each stays put: 10 cold + 90 / 2 = 55, warm 45/55.
        {{"-n", "2", "-L", "a:100:100,b:100:50"},
         "Finished time 55|  CPU 0  utilization 100.00 [ warm 81.82 ]|  CPU 1  utilization 100.00 [ warm 81.82 ]"},
        // 8. Three 100-sized jobs on two CPUs, one queue: the pairs run are
        // (a,b) (c,a) (b,c) (a,b)...; a job comes back to a CPU only after
        // another job has warmed there, evicting it (100 + 100 > 100): 300
        // cold ticks over 2 CPUs = 150.
        {{"-n", "2", "-L", "a:100:100,b:100:100,c:100:100"},
         "Finished time 150|  CPU 0  utilization 100.00 [ warm 0.00 ]|  CPU 1  utilization 100.00 [ warm 0.00 ]"},
        // 9. Affinity a:0, b and c on CPU 1: a alone on CPU 0 (55 ticks, 45
        // warm); b and c alternate on CPU 1 evicting each other: 200 cold.
        {{"-n", "2", "-L", "a:100:100,b:100:100,c:100:100", "-A", "a:0,b:1,c:1"},
         "Finished time 200|  CPU 0  utilization 27.50 [ warm 22.50 ]|  CPU 1  utilization 100.00 [ warm 0.00 ]"},
        // 10. Per-CPU queues without stealing (-P 0): CPU 0 gets a and c
        // (round robin of the placement), CPU 1 b: the mirror of case 9.
        {{"-n", "2", "-L", "a:100:100,b:100:100,c:100:100", "-p", "-P", "0"},
         "Finished time 200|  CPU 0  utilization 100.00 [ warm 0.00 ]|  CPU 1  utilization 27.50 [ warm 22.50 ]"},
        // 11. Per-CPU with stealing every 30: CPU 1 runs b alone (done at 55);
        // on CPU 0 a and c evict each other (all cold, 30 ticks each by 60).
        // At 60 CPU 1 steals a (queued first): 10 cold, 60 left warm = 30,
        // done at 99; CPU 0 runs c, warm since 59: 70 / 2 = 35, done at 94.
        // Finished 100; CPU 0 ran 95 (35 warm), CPU 1 55 + 40 (45 + 30).
        {{"-n", "2", "-L", "a:100:100,b:100:100,c:100:100", "-p"},
         "Finished time 100|  CPU 0  utilization 95.00 [ warm 35.00 ]|  CPU 1  utilization 95.00 [ warm 75.00 ]"},
        // 12. Same with quantum 20.
        {{"-n", "2", "-L", "a:100:100,b:100:100,c:100:100", "-p", "-q", "20"},
         "Finished time 105|  CPU 0  utilization 71.43 [ warm 52.38 ]|  CPU 1  utilization 100.00 [ warm 61.90 ]"},
        // 13. Cache 50 holds none of them: 300 cold ticks on 2 CPUs.
        {{"-n", "2", "-L", "a:100:100,b:100:100,c:100:100", "-M", "50"},
         "Finished time 150|  CPU 0  utilization 100.00 [ warm 0.00 ]|  CPU 1  utilization 100.00 [ warm 0.00 ]"},
        // 14. Three CPUs, cache 50: 100 cold ticks each.
        {{"-n", "3", "-L", "a:100:100,b:100:100,c:100:100", "-M", "50"},
         "Finished time 100|  CPU 0  utilization 100.00 [ warm 0.00 ]|  CPU 1  utilization 100.00 [ warm 0.00 ]|"
         "  CPU 2  utilization 100.00 [ warm 0.00 ]"},
        // 15. Three CPUs, each job keeps its CPU: 55 as in case 7.
        {{"-n", "3", "-L", "a:100:100,b:100:100,c:100:100"},
         "Finished time 55|  CPU 0  utilization 100.00 [ warm 81.82 ]|  CPU 1  utilization 100.00 [ warm 81.82 ]|"
         "  CPU 2  utilization 100.00 [ warm 81.82 ]"},
        // 16. -q 5 -w 5: a job moves every 5 ticks, so its warm-up on a CPU
        // (5 ticks there) ends just as it leaves, and the next job's warm-up
        // evicts it: all 300 ticks cold.
        {{"-n", "2", "-L", "a:100:100,b:100:100,c:100:100", "-q", "5", "-w", "5"},
         "Finished time 150|  CPU 0  utilization 100.00 [ warm 0.00 ]|  CPU 1  utilization 100.00 [ warm 0.00 ]"},
        // 17. Four small jobs, cache 20 (two fit), -q 5: a, b run 0-4 and
        // 10-14 on CPUs 0 and 1 (warm after 14), c, d 5-9 and 15-19 (warm
        // after 19, beside a and b); each has 10 left, 5 ticks at rate 2:
        // a, b 20-24, c, d 25-29: 30, warm 10/30.
        {{"-n", "2", "-L", "a:20:10,b:20:10,c:20:10,d:20:10", "-M", "20", "-q", "5"},
         "Finished time 30|  CPU 0  utilization 100.00 [ warm 33.33 ]|  CPU 1  utilization 100.00 [ warm 33.33 ]"},
        // 18. -r 1: warm ticks run at rate 1, and the script counts a tick
        // warm only at a rate above 1: 50 ticks, warm 0.
        {{"-n", "2", "-L", "a:50:100,b:50:100", "-r", "1"},
         "Finished time 50|  CPU 0  utilization 100.00 [ warm 0.00 ]|  CPU 1  utilization 100.00 [ warm 0.00 ]"},
        // 19. Per-CPU with affinity a:0, c:1: placement gives CPU 0 a, CPU 1
        // b, CPU 0 c? No, c may run only on 1: CPU 1 gets b and c, so CPU 0
        // runs a alone (done at 55) and steals b at 60: case 11 mirrored.
        {{"-n", "2", "-L", "a:100:100,b:100:100,c:100:100", "-p", "-A", "a:0,c:1"},
         "Finished time 100|  CPU 0  utilization 95.00 [ warm 75.00 ]|  CPU 1  utilization 95.00 [ warm 35.00 ]"},
        // 20. Peek every tick: an idle CPU steals at once.
        {{"-n", "2", "-L", "a:40:100,b:40:100,c:40:100", "-p", "-P", "1"},
         "Finished time 55|  CPU 0  utilization 63.64 [ warm 27.27 ]|  CPU 1  utilization 100.00 [ warm 27.27 ]"},
        // 21. Random jobs from Python's generator (seed 2, 4 jobs) in random
        // CPU order (-o shuffles every tick).
        {{"-s", "2", "-j", "4", "-n", "2", "-o"},
         "Finished time 115|  CPU 0  utilization 92.17 [ warm 13.04 ]|  CPU 1  utilization 95.65 [ warm 0.00 ]"},
        // 22. Random jobs, per-CPU queues on 3 CPUs with random stealing.
        {{"-s", "1", "-j", "5", "-n", "3", "-p", "-P", "7"},
         "Finished time 70|  CPU 0  utilization 100.00 [ warm 0.00 ]|  CPU 1  utilization 57.14 [ warm 42.86 ]|"
         "  CPU 2  utilization 37.14 [ warm 21.43 ]"},
        // 23. Long option names, abbreviated, with '=' (optparse's syntax):
        // case 4 again.
        {{"--num_cpus=1", "--job_list", "a:30:50", "--warm_r=3"},
         "Finished time 17|  CPU 0  utilization 100.00 [ warm 41.18 ]"},
        // 24. Octal flag value, as optparse reads it: -w 012 = 10: case 2.
        {{"-n", "1", "-L", "a:30:50", "-w", "012"}, "Finished time 20|  CPU 0  utilization 100.00 [ warm 50.00 ]"},
    };
    for (const Case& c : cases) {
        std::string label;
        for (const std::string& a : c.args) label += a + " ";
        EXPECT_EQ(answer(c.args), c.want) << label;
    }
}

// Central queue with every trace: a, b cold for 3 ticks then warm; at 4
// the queue is c a b: c warms on CPU 0 beside a (70 fits), a warms on
// CPU 1 and evicts b (110 > 100); at 8 b runs its last tick on CPU 0 (cold)
// and a its last on CPU 1 (warm).
TEST(OstepMulti, ExactTraceCentralQueue) {
    const Ran r = multi({"-n", "2", "-L", "a:12:50,b:6:60,c:4:20", "-q", "4", "-w", "3", "-T", "-C", "-S", "-c"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string want =
        "ARG seed 0\nARG job_num 3\nARG max_run 100\nARG max_wset 200\nARG job_list a:12:50,b:6:60,c:4:20\n"
        "ARG affinity \nARG per_cpu_queues False\nARG num_cpus 2\nARG quantum 4\nARG peek_interval 30\n"
        "ARG warmup_time 3\nARG cache_size 100\nARG random_order False\nARG trace False\nARG trace_time True\n"
        "ARG trace_cache True\nARG trace_sched True\nARG compute True\n\n"
        "Job name:a run_time:12 working_set_size:50\nJob name:b run_time:6 working_set_size:60\n"
        "Job name:c run_time:4 working_set_size:20\n\n"
        "Scheduler central queue: ['a', 'b', 'c']\n\n"
        "   0   a [ 11] cache[   ]     b [  5] cache[   ]     Q: c     \n"
        "   1   a [ 10] cache[   ]     b [  4] cache[   ]     Q: c     \n"
        "   2   a [  9] cache[w  ]     b [  3] cache[ w ]     Q: c     \n"
        "   3   a [  7] cache[w  ]     b [  1] cache[ w ]     Q: c     \n"
        "---------------------------------------------------\n"
        "   4   c [  3] cache[w  ]     a [  6] cache[ w ]     Q: b     \n"
        "   5   c [  2] cache[w  ]     a [  5] cache[ w ]     Q: b     \n"
        "   6   c [  1] cache[w w]     a [  4] cache[w  ]     Q: b     \n"
        "   7   c [  0] cache[w w]     a [  2] cache[w  ]     Q: b     \n"
        "---------------------------------------------------\n"
        "   8   b [  0] cache[w w]     a [  0] cache[w  ]     Q:     \n"
        "\nFinished time 9\n\nPer-CPU stats\n"
        "  CPU 0  utilization 100.00 [ warm 22.22 ]\n  CPU 1  utilization 100.00 [ warm 33.33 ]\n\n";
    EXPECT_EQ(r.out, want);
}

// Per-CPU queues (CPU 0: a, c; CPU 1: b), clustered short flags -tS: b
// ends at 4 (3 cold ticks, then 3 left - 2, then 1 left); at the peek at 5
// CPU 1's queue is empty, the only other CPU is 0, and it steals a (7 left:
// 9 after 3 cold ticks, minus 2 at tick 3), which warms again on CPU 1 (5-7
// cold, 4 left) and ends with two warm ticks, 8 and 9.
TEST(OstepMulti, ExactTracePerCpuStealing) {
    const Ran r = multi({"-n", "2", "-p", "-L", "a:12:50,b:6:60,c:4:20", "-q", "4", "-w", "3", "-P", "5", "-tS"});
    ASSERT_EQ(r.status, 0) << r.err;
    const size_t at = r.out.find("Scheduler CPU 0");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string want =
        "Scheduler CPU 0 queue: ['a', 'c']\nScheduler CPU 1 queue: ['b']\n\n"
        "   0   a      b      Q0: c   Q1:       \n"
        "   1   a      b      Q0: c   Q1:       \n"
        "   2   a      b      Q0: c   Q1:       \n"
        "   3   a      b      Q0: c   Q1:       \n"
        "-----------------\n"
        "   4   c      b      Q0: a   Q1:       \n"
        "   5   c      a      Q0:   Q1:       \n"
        "   6   c      a      Q0:   Q1:       \n"
        "   7   c      a      Q0:   Q1:       \n"
        "-----------------\n"
        "   8   -      a      Q0:   Q1:       \n"
        "   9   -      a      Q0:   Q1:       \n";
    EXPECT_EQ(r.out.substr(at), want);
}

// Random job lists are Python's: random.seed(S); for each job
// int(random() * max_run / 10) * 10 then the same for max_wset (values from
// python3 for seeds 0, 1, 5).
TEST(OstepMulti, RandomJobsArePythons) {
    const struct {
        const char* seed;
        const char* jobs;
    } cases[] = {
        {"0",
         "Job name:0 run_time:80 working_set_size:150\nJob name:1 run_time:40 working_set_size:50\n"
         "Job name:2 run_time:50 working_set_size:80\n"},
        {"1",
         "Job name:0 run_time:10 working_set_size:160\nJob name:1 run_time:70 working_set_size:50\n"
         "Job name:2 run_time:40 working_set_size:80\n"},
        {"5",
         "Job name:0 run_time:60 working_set_size:140\nJob name:1 run_time:70 working_set_size:180\n"
         "Job name:2 run_time:70 working_set_size:180\n"},
    };
    for (const auto& c : cases) {
        const Ran r = multi({"-s", c.seed});
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.out.find(c.jobs), std::string::npos) << "seed " << c.seed << "\n" << r.out;
        EXPECT_EQ(r.out.find("Finished"), std::string::npos);  // no -c: no answer
    }
}

TEST(OstepMulti, BadInputIsOneErrorLine) {
    const std::vector<std::vector<std::string>> bad = {
        {"-L", "a:10"},                                 // not a triple
        {"-L", "a:10:5,a:3:4"},                         // repeated name
        {"-L", "a:x:5"},                                // not a number
        {"-L", "a:10:5", "-A", "b:0"},                  // unknown job
        {"-L", "a:10:5", "-A", "a:2"},                  // no CPU 2 of 2
        {"-L", "a:10:5", "-A", "a"},                    // no CPU list
        {"-L", "a:10:5", "-n", "0"},                    // no CPU
        {"-L", "a:10:5", "-q", "0"},                    // the script divides by zero
        {"-L", "a:10:5", "-r", "0"},                    // warm jobs never progress
        {"-L", "a:10:5", "-w", "08"},                   // not octal
        {"-j", "0"},                                    // no jobs
        {"-L", "a:100:5", "-n", "1", "-p", "-q", "7"},  // stealing on one CPU
        {"-L", "a:10:5", "-x"},                         // unknown flag
        // The stealing quirk strands x: at the peek at 1 CPU 1 (empty queue)
        // takes x from CPU 0 although x may run only on 0, because x's run
        // time equals 1; once y is done both CPUs idle forever (the script
        // never ends; here an error after 192 idle ticks).
        {"-n", "2", "-p", "-P", "1", "-L", "y:100:50,x:1:50", "-A", "y:0,x:0", "-c"},
    };
    for (const auto& args : bad) {
        const Ran r = multi(args);
        std::string label;
        for (const std::string& a : args) label += a + " ";
        EXPECT_EQ(r.status, 2) << label;
        EXPECT_EQ(r.err.rfind("schedsim ostep multi: ", 0), 0u) << label << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << label << r.err;
    }
    // One CPU with -p is fine while its queue is never empty at a peek.
    EXPECT_EQ(answer({"-L", "a:40:500", "-n", "1", "-p"}),
              "Finished time 40|  CPU 0  utilization 100.00 [ warm 0.00 ]");
    const Ran h = multi({"-h"});
    EXPECT_EQ(h.status, 0);
    EXPECT_NE(h.out.find("usage: schedsim ostep multi"), std::string::npos);
}

}  // namespace schedsim_ostep_multi_test
