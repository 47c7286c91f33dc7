// sim/cli.cc - schedsim's flags (see cli.h). Numbers are checked whole
// (no trailing text, no overflow, no negative counts) and against their
// range before they are narrowed; the message names the flag and the value.
#include "sim/cli.h"

#include <cerrno>
#include <cstdlib>

namespace schedsim {

namespace {

constexpr const char* kHelpText = R"(usage: schedsim [options]

Runs scheduling policies from lib/sched (the kernel's own code) on a
simulated multicore and prints the seed harness's report.

  --policy NAME|all  policy to run (default rr; 'all' runs every policy on
                     the same workload); NAME: @POLICIES@
  --list-policies    print the policy names, one a line, and exit
  --workload idealised|random|FILE  (default idealised)
      idealised: --tasks CPU-bound tasks arrive at tick 0, never block or
                 finish; level = pid mod 40
      random:    each tick, for each core, a task arrives with probability
                 --spawn-chance, runtime uniform in [--runtime-min,
                 --runtime-max), blocking chance uniform in [0, --block-max)
                 per executed tick; level = pid mod 40
      FILE:      one task a line: arrival runtime level block_chance
                 [cpus=LIST] [request=N] (runtime 0 or inf = never
                 finishes; LIST e.g. 0,2-3: the cores it may use; N: its
                 EEVDF request in ticks, 0 = --slice; '#' comments)
  --replay FILE      tasks as run/sleep bursts with level changes, one a line:
                     ARRIVAL LEVEL BURST... [repeat] [cpus=LIST]
                     [request=N] [at TICK level L|cpus LIST]...
                     BURST: 'run N' (N >= 1 or inf) | 'sleep N' (N >= 0);
                     see docs/scheduling-sim.md
  --cores N          simulated cores (default 16, at most 64)
  --ticks N          simulated ticks (default 100000)
  --tasks N          idealised task count (default 40000)
  --spawn-chance P   random: arrival probability per core per tick (0.001)
  --runtime-min N    random: minimum runtime (2)
  --runtime-max N    random: runtime upper bound, exclusive (100000)
  --block-max P      random: upper bound of blocking chance (0.001)
  --wake-delay N     ticks a blocked task sleeps before it wakes (100)
  --seed N           random seed (default 1); same seed, same report
  --weights seed|linux  level->weight table (default seed: level 0 = 11
                     lightest ... 39 = 71053; linux: level = nice+20,
                     level 0 = 88761 heaviest)
  --model exact|seed  exact (default): every executed tick is charged,
                     running tasks before anyone is placed; a picked task
                     runs --slice ticks unless it blocks, finishes or a
                     woken task preempts it (the policy's preempts()), as
                     in the kernel; a preempted task's next pick gives it
                     the rest of that turn. seed: the seed harness's model (every
                     core re-picks every tick, a task's last tick before it
                     blocks or finishes is not charged, no preemption); it
                     reproduces the seed's published tables
  --slice N          run length in ticks (exact) and policy slice (default 1)
  --switch-cost N    exact: a core picks N ticks after a task left it (default
                     0), time charged to nobody: the kernel's path from a
                     deschedule to the next dispatch (a platform parameter,
                     like --timer-late)
  --timer-late N     exact: the slice timer fires N ticks late (default 0): a
                     turn lasts N ticks more unless it stops or
                     is preempted; the policy's slice (EEVDF's request)
                     stays --slice. A platform parameter: qtrace measures a
                     trace's (docs/tracing.md, "Replay fidelity")
  --tick N           exact: every N ticks a timer interrupt inside a slice
                     lets a queued task take over when the policy says so
                     (EEVDF: the running task is ineligible and an eligible
                     one is due earlier), as the kernel's 0.1 s tick does
                     (default 0: never)
  --sleep-decay on|off  eevdf: a negative lag decays while its task sleeps
                     (default on, as in the kernel: Linux's DELAY_DEQUEUE);
                     off keeps every lag (the paper's EEVDF, fluid-exact)
  --fairness [on|off]  measure fairness: run the fluid reference schedule
                     beside the policy and sample every task's lag against
                     it (Jain's index, worst and max lag; costs ~60
                     instructions per core-tick). Default off (the figures
                     are reported as not measured), on with --tasks-out
                     unless --fairness off is given
  --queues single|percpu  one run queue shared by every core (default), or
                     one per core with the kernel's placement, work stealing
                     and balancing (exact model only); percpu reports
                     migrations and honours cpus= in workload/replay files
  --format text|csv|json  report format (default text)
  --plot FILE.png    draw per-level execs and response time (gnuplot)
  --tasks-out FILE.csv  one row per task (and policy): policy,id,arrival,
                     level,weight,executed,waited,blocks,wakeups,wake_p50,
                     wake_p99,wake_max,max_lag,fluid,migrations,dispatches
  --progress         progress on stderr even when it is not a terminal (a
                     line every 10% once a run has lasted 1 s)
  --no-progress      no progress bar (shown on a terminal after 1 s)
  --help             this text

Metrics are defined in docs/scheduling-sim.md.
)";

[[noreturn]] void fail(const std::string& msg) { throw UsageError(msg); }

// The registry's policies, in PolicyKind order.
std::string policy_names(const char* sep) {
    std::string s;
    for (unsigned k = 0; k < q::sched::kPolicyKinds; k++) {
        if (k) s += sep;
        s += q::sched::policy_name(static_cast<q::sched::PolicyKind>(k));
    }
    return s;
}

// Limits that keep the arithmetic exact: ticks and sleeps well inside 64
// bits (tick + 1 + wake delay), a slice whose EEVDF request (slice << 20)
// fits, and an idealised task list that fits in memory.
constexpr uint64_t kMaxTicks = 1'000'000'000'000ull;
constexpr uint64_t kMaxSlice = 1ull << 32;
constexpr uint64_t kMaxTasks = 100'000'000ull;
constexpr uint64_t kMaxCount = ~uint64_t{0} >> 1;

uint64_t parse_count(const std::string& flag, const char* v, uint64_t min, uint64_t max = kMaxCount) {
    char* end = nullptr;
    const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
    if (!v || !*v || *v < '0' || *v > '9')
        fail(flag + " needs an integer in " + range + ", got '" + (v ? v : "") + "'");
    errno = 0;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (*end) fail(flag + " needs an integer in " + range + ", got '" + v + "'");
    if (errno == ERANGE || n < min || n > max) fail(flag + " must be in " + range + ", got '" + v + "'");
    return n;
}

double parse_prob(const std::string& flag, const char* v) {
    char* end = nullptr;
    if (!v || !*v) fail(flag + " needs a probability");
    const double p = std::strtod(v, &end);
    if (*end || !(p >= 0 && p <= 1)) fail(flag + " needs a probability in [0, 1], got '" + v + "'");
    return p;
}

void set_policy(Options& o, const std::string& v) {
    o.policies.clear();
    if (v == "all") {
        for (unsigned k = 0; k < q::sched::kPolicyKinds; k++)
            o.policies.push_back(static_cast<q::sched::PolicyKind>(k));
        return;
    }
    q::sched::PolicyKind k;
    if (!q::sched::parse_policy(v.c_str(), k)) fail("unknown policy '" + v + "' (" + policy_names(", ") + ", all)");
    o.policies.push_back(k);
}

void set_workload(Options& o, const std::string& v) {
    if (v == "idealised" || v == "idealized") {
        o.cfg.workload = WorkloadKind::Idealised;
    } else if (v == "random") {
        o.cfg.workload = WorkloadKind::Random;
    } else {
        o.cfg.workload = WorkloadKind::File;
        o.cfg.workload_file = v;
    }
}

}  // namespace

Options parse_options(int argc, const char* const* argv) {
    Options o;
    Config& c = o.cfg;
    bool fairness_given = false;
    for (int i = 1; i < argc; i++) {
        const std::string f = argv[i];
        if (f == "--help" || f == "-h") {
            o.help = true;
            return o;
        }
        if (f == "--list-policies") {
            o.list_policies = true;
            return o;
        }
        if (f == "--no-progress" || f == "--progress") {
            c.progress = c.progress_always = f == "--progress";
            continue;
        }
        if (f == "--fairness") {  // on|off may follow; alone it means on
            const std::string m = i + 1 < argc ? argv[i + 1] : "";
            if (m == "on" || m == "off") i++;
            else if (m.rfind("--", 0) != 0 && !m.empty()) fail("unknown --fairness '" + m + "' (on, off)");
            c.fairness = m != "off";
            fairness_given = true;
            continue;
        }
        if (f.rfind("--", 0) != 0) fail("unexpected argument '" + f + "' (see --help)");
        if (i + 1 >= argc) fail(f + " needs a value");
        const char* v = argv[++i];
        if (f == "--policy") set_policy(o, v);
        else if (f == "--workload") set_workload(o, v);
        else if (f == "--replay") {
            c.workload = WorkloadKind::Replay;
            c.workload_file = v;
        } else if (f == "--cores") c.cores = static_cast<unsigned>(parse_count(f, v, 1, q::sched::kMaxCpus));
        else if (f == "--ticks") c.ticks = parse_count(f, v, 0, kMaxTicks);
        else if (f == "--tasks") c.tasks = parse_count(f, v, 0, kMaxTasks);
        else if (f == "--spawn-chance") c.spawn_chance = parse_prob(f, v);
        else if (f == "--runtime-min") c.runtime_min = parse_count(f, v, 1);
        else if (f == "--runtime-max") c.runtime_max = parse_count(f, v, 2);
        else if (f == "--block-max") c.block_max = parse_prob(f, v);
        else if (f == "--wake-delay") c.wake_delay = parse_count(f, v, 0, kMaxTicks);
        else if (f == "--seed") c.seed = parse_count(f, v, 0);
        else if (f == "--slice") c.slice = parse_count(f, v, 1, kMaxSlice);
        else if (f == "--switch-cost") c.switch_cost = parse_count(f, v, 0, kMaxSlice);
        else if (f == "--timer-late") c.timer_late = parse_count(f, v, 0, kMaxSlice);
        else if (f == "--tick") c.tick_period = parse_count(f, v, 0, kMaxTicks);
        else if (f == "--sleep-decay") {
            const std::string m = v;
            if (m == "on") c.sleep_decay = true;
            else if (m == "off") c.sleep_decay = false;
            else fail("unknown --sleep-decay '" + m + "' (on, off)");
        } else if (f == "--plot") o.plot = v;
        else if (f == "--tasks-out") o.tasks_out = v;
        else if (f == "--model") {
            const std::string m = v;
            if (m == "exact") c.model = Model::Exact;
            else if (m == "seed") c.model = Model::Seed;
            else fail("unknown model '" + m + "' (exact, seed)");
        } else if (f == "--queues") {
            const std::string m = v;
            if (m == "single") c.queues = Queues::Single;
            else if (m == "percpu") c.queues = Queues::PerCpu;
            else fail("unknown queue mode '" + m + "' (single, percpu)");
        } else if (f == "--weights") {
            const std::string w = v;
            if (w == "seed") c.weights = q::sched::WeightTable::Seed;
            else if (w == "linux") c.weights = q::sched::WeightTable::Linux;
            else fail("unknown weight table '" + w + "' (seed, linux)");
        } else if (f == "--format") {
            const std::string w = v;
            if (w == "text") o.format = Format::Text;
            else if (w == "csv") o.format = Format::Csv;
            else if (w == "json") o.format = Format::Json;
            else fail("unknown format '" + w + "' (text, csv, json)");
        } else {
            fail("unknown option '" + f + "' (see --help)");
        }
    }
    // --tasks-out's max_lag and fluid columns need the reference.
    if (!o.tasks_out.empty() && !fairness_given) c.fairness = true;
    if (c.runtime_max <= c.runtime_min) fail("--runtime-max must be greater than --runtime-min");
    if (c.queues == Queues::PerCpu && c.model == Model::Seed)
        fail("--queues percpu needs --model exact (the seed model re-picks every core every tick)");
    return o;
}

std::string help_text() {
    std::string h = kHelpText;
    const std::string mark = "@POLICIES@";
    h.replace(h.find(mark), mark.size(), policy_names(", "));
    return h;
}

}  // namespace schedsim
