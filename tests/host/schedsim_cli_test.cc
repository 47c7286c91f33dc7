// tests/host/schedsim_cli_test.cc - schedsim's command line and output
// files: bad input is rejected with one line naming the flag (main() prints
// it and exits 2), numbers are range-checked before they are narrowed,
// --plot copes with zero values and cleans up, --tasks-out writes one row
// per task.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "sim/cli.h"

using namespace schedsim;
namespace qs = q::sched;

namespace {

Options parse(std::vector<const char*> args) {
    args.insert(args.begin(), "schedsim");
    return parse_options(static_cast<int>(args.size()), args.data());
}

std::string error_of(std::vector<const char*> args) {
    try {
        parse(std::move(args));
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

}  // namespace

TEST(SchedsimCli, DefaultsAndValidValues) {
    const Options d = parse({});
    EXPECT_EQ(d.cfg.model, Model::Exact);
    EXPECT_EQ(d.cfg.cores, 16u);
    const Options o =
        parse({"--cores", "64", "--model", "seed", "--policy", "all", "--slice", "4", "--tasks-out", "t.csv"});
    EXPECT_EQ(o.cfg.cores, 64u);
    EXPECT_EQ(o.cfg.model, Model::Seed);
    EXPECT_EQ(o.cfg.slice, 4u);
    EXPECT_EQ(o.policies.size(), qs::kPolicyKinds);
    EXPECT_EQ(o.tasks_out, "t.csv");
    EXPECT_TRUE(parse({"--help"}).help);
    const Options r = parse({"--replay", "trace.txt"});
    EXPECT_EQ(r.cfg.workload, WorkloadKind::Replay);
    EXPECT_EQ(r.cfg.workload_file, "trace.txt");
}

// --progress asks for progress even when stderr is not a terminal (a
// harness, a pipe: a long --policy all run used to print nothing for
// minutes); the last of --progress and --no-progress wins.
TEST(SchedsimCli, ProgressFlags) {
    const Options d = parse({});
    EXPECT_TRUE(d.cfg.progress);
    EXPECT_FALSE(d.cfg.progress_always);
    const Options p = parse({"--progress"});
    EXPECT_TRUE(p.cfg.progress);
    EXPECT_TRUE(p.cfg.progress_always);
    const Options n = parse({"--progress", "--no-progress"});
    EXPECT_FALSE(n.cfg.progress);
    EXPECT_FALSE(n.cfg.progress_always);
    EXPECT_NE(help_text().find("--progress "), std::string::npos);
}

// 4294967297 = 2^32 + 1 used to be cast to 1 core and run.
TEST(SchedsimCli, NumbersAreRangeCheckedBeforeNarrowing) {
    EXPECT_NE(error_of({"--cores", "4294967297"}).find("--cores must be in [1, 64]"), std::string::npos);
    EXPECT_NE(error_of({"--cores", "65"}).find("--cores"), std::string::npos);
    EXPECT_NE(error_of({"--cores", "0"}).find("--cores"), std::string::npos);
    EXPECT_NE(error_of({"--ticks", "99999999999999999999999"}).find("--ticks"), std::string::npos);
    EXPECT_NE(error_of({"--ticks", "-5"}).find("--ticks"), std::string::npos);
    EXPECT_NE(error_of({"--ticks", "12x"}).find("'12x'"), std::string::npos);
    EXPECT_NE(error_of({"--slice", "0"}).find("--slice"), std::string::npos);
    EXPECT_NE(error_of({"--slice", "99999999999"}).find("--slice"), std::string::npos);
    EXPECT_NE(error_of({"--spawn-chance", "nan"}).find("--spawn-chance"), std::string::npos);
    EXPECT_NE(error_of({"--block-max", "1.5"}).find("--block-max"), std::string::npos);
    EXPECT_NE(error_of({"--model", "fast"}).find("unknown model 'fast'"), std::string::npos);
    EXPECT_NE(error_of({"--policy", "cfs"}).find("unknown policy 'cfs'"), std::string::npos);
    EXPECT_NE(error_of({"--ticks"}).find("--ticks needs a value"), std::string::npos);
    EXPECT_NE(error_of({"--runtime-min", "5", "--runtime-max", "5"}).find("--runtime-max"), std::string::npos);
    // One line each.
    EXPECT_EQ(error_of({"--cores", "4294967297"}).find('\n'), std::string::npos);
}

TEST(SchedsimCli, WorkloadErrorsNameTheLine) {
    const char* path = "schedsim_cli_workload.txt";
    std::ofstream(path) << "# ok\n0 10 3 0\n\n5 10 3 nan\n";
    Config c;
    c.workload = WorkloadKind::File;
    c.workload_file = path;
    try {
        load_workload(c);
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(std::string(path) + ":4:"), std::string::npos) << e.what();
    }
    std::remove(path);
}

// A level whose average response is 0 (a task that ran at tick 0) cannot
// go on a log scale: the chart used to fail and leave FILE.png.dat behind.
TEST(SchedsimPlot, ZeroResponseDrawsAndCleansUp) {
    if (std::system("gnuplot --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "no gnuplot";
    Config c;
    c.workload = WorkloadKind::File;
    c.cores = 1;
    c.ticks = 100;
    c.progress = false;
    TaskSpec t;
    t.runtime = kForever;
    t.level = 39;
    const Result r = simulate(c, {t});
    ASSERT_EQ(r.levels[39].avg_resp, 0.0);
    const std::string png = "schedsim_plot_test.png";
    EXPECT_TRUE(plot(png, {r}));
    EXPECT_TRUE(exists(png));
    EXPECT_FALSE(exists(png + ".dat"));
    std::remove(png.c_str());
}

TEST(SchedsimTasksOut, OneRowPerTask) {
    Config c;
    c.workload = WorkloadKind::File;
    c.cores = 1;
    c.ticks = 1000;
    c.wake_delay = 3;
    c.progress = false;
    TaskSpec hog, sleeper;
    hog.runtime = sleeper.runtime = kForever;
    hog.level = 20;
    sleeper.level = 21;
    sleeper.arrival = 5;
    sleeper.block_chance = 1.0;
    const Result r = simulate(c, {hog, sleeper});
    const std::string path = "schedsim_tasks_out_test.csv";
    ASSERT_TRUE(write_tasks_csv(path, {r}));
    std::ifstream in(path);
    std::string header, row0, row1, extra;
    std::getline(in, header);
    std::getline(in, row0);
    std::getline(in, row1);
    EXPECT_FALSE(std::getline(in, extra));
    EXPECT_EQ(header,
              "policy,id,arrival,level,weight,executed,waited,blocks,wakeups,wake_p50,wake_p99,wake_max,max_lag,fluid,"
              "migrations,dispatches");
    EXPECT_EQ(row0.rfind("rr,0,0,20,1024,", 0), 0u) << row0;
    const std::string prefix = "rr,1,5,21,1280," + std::to_string(r.tasks[1].executed) + ",";
    EXPECT_EQ(row1.rfind(prefix, 0), 0u) << row1;
    std::remove(path.c_str());
}

// Policies come from the registry (lib/sched/registry.h): every registered
// name parses, is listed by --help and by the unknown-policy error, and
// runs in the simulator under its own name.
TEST(SchedsimCli, PolicyListComesFromTheRegistry) {
    const std::string help = help_text();
    const std::string err = error_of({"--policy", "nope"});
    for (unsigned i = 0; i < qs::kPolicyKinds; i++) {
        const auto k = static_cast<qs::PolicyKind>(i);
        const char* name = qs::policy_name(k);
        EXPECT_NE(help.find(name), std::string::npos) << name;
        EXPECT_NE(err.find(name), std::string::npos) << name;
        const Options o = parse({"--policy", name});
        ASSERT_EQ(o.policies.size(), 1u);
        EXPECT_EQ(o.policies[0], k);
        Config c;
        c.policy = k;
        c.tasks = 8;
        c.cores = 2;
        c.ticks = 10;
        c.progress = false;
        EXPECT_EQ(simulate(c, load_workload(c)).policy, name);
    }
    EXPECT_EQ(help.find("@POLICIES@"), std::string::npos);
}

// --fairness (issue 23: the fluid reference and lag sampling cost nothing
// when not asked for): off by default, on alone or with "on", off with
// "off", on for --tasks-out (its max_lag and fluid columns) unless "off" is
// given; a run without them takes the same decisions (every scheduling
// figure equal, per task too) and reports the fairness figures as not
// measured, saying how to ask for them, never as zeros (NaN in Result).
TEST(SchedsimCli, FairnessIsOptInAndSkipsOnlyTheReference) {
    EXPECT_FALSE(parse({}).cfg.fairness);
    EXPECT_TRUE(parse({"--fairness"}).cfg.fairness);
    EXPECT_TRUE(parse({"--fairness", "--cores", "2"}).cfg.fairness);
    EXPECT_EQ(parse({"--fairness", "--cores", "2"}).cfg.cores, 2u);
    EXPECT_TRUE(parse({"--fairness", "on"}).cfg.fairness);
    EXPECT_FALSE(parse({"--fairness", "off"}).cfg.fairness);
    EXPECT_TRUE(parse({"--fairness", "off", "--fairness", "on"}).cfg.fairness);
    EXPECT_TRUE(parse({"--tasks-out", "t.csv"}).cfg.fairness);
    EXPECT_FALSE(parse({"--tasks-out", "t.csv", "--fairness", "off"}).cfg.fairness);
    EXPECT_FALSE(parse({"--fairness", "off", "--tasks-out", "t.csv"}).cfg.fairness);
    EXPECT_NE(error_of({"--fairness", "maybe"}).find("--fairness"), std::string::npos);
    EXPECT_NE(help_text().find("--fairness [on|off]"), std::string::npos);
    for (const char* policy : {"rr", "eevdf"}) {
        Options o = parse({"--no-progress", "--policy", policy, "--workload", "random", "--cores", "3", "--ticks",
                           "4000", "--block-max", "0.05", "--wake-delay", "7"});
        const std::vector<TaskSpec> fixed = load_workload(o.cfg);
        const Result off = simulate(o.cfg, fixed);
        o.cfg.fairness = true;
        const Result on = simulate(o.cfg, fixed);
        EXPECT_TRUE(on.fairness);
        EXPECT_FALSE(off.fairness);
        EXPECT_GT(on.max_lag, 0) << policy;
        EXPECT_TRUE(std::isnan(off.max_lag) && std::isnan(off.worst_lag) && std::isnan(off.jain)) << policy;
        EXPECT_GT(on.wakeups, 0u) << policy;
        EXPECT_EQ(on.executed, off.executed);
        EXPECT_EQ(on.ctx_switches, off.ctx_switches);
        EXPECT_EQ(on.blocks, off.blocks);
        EXPECT_EQ(on.wake_p99, off.wake_p99);
        EXPECT_EQ(on.avg_wait, off.avg_wait);
        ASSERT_EQ(on.tasks.size(), off.tasks.size());
        for (size_t i = 0; i < on.tasks.size(); i++) {
            EXPECT_EQ(on.tasks[i].executed, off.tasks[i].executed);
            EXPECT_EQ(on.tasks[i].wake_max, off.tasks[i].wake_max);
            EXPECT_TRUE(std::isnan(off.tasks[i].max_lag) && std::isnan(off.tasks[i].fluid));
        }
        char* buf = nullptr;
        size_t len = 0;
        std::FILE* out = open_memstream(&buf, &len);
        ASSERT_NE(out, nullptr);
        print_text(out, off);
        std::fclose(out);
        const std::string text(buf, len);
        std::free(buf);
        EXPECT_NE(text.find("not measured (run with --fairness"), std::string::npos);
        EXPECT_EQ(text.find("Jain's Index"), std::string::npos);
        EXPECT_NE(text.find("Wakeup Latency"), std::string::npos);
        out = open_memstream(&buf, &len);
        ASSERT_NE(out, nullptr);
        print_side_by_side(out, {on, off});
        std::fclose(out);
        const std::string table(buf, len);
        std::free(buf);
        EXPECT_NE(table.find("(-: not measured; run with --fairness)"), std::string::npos);
    }
}
