// sim/sim.h - schedsim: the policies of lib/sched on a simulated multicore.
//
// Discrete ticks on C cores. Run queues (Config::queues, the run-queue core, lib/sched/runqueues.h):
// one policy instance shared by every core (single), or one per core with
// the kernel's placement, stealing and balancing (percpu).
// Two models (Config::model):
//
// exact (default) - the kernel's run-queue core (lib/sched/runqueues.h) on
// the kernel's protocol, tick by tick: a running task is charged up to now
// when a wake-up is placed on its queue, at a --tick interrupt, before a
// pull compares leads, and when it stops running (put back, or stopped),
// nowhere else (the kernel's points). Tick `now`:
//   1. arrivals (workload tasks whose arrival tick is now, then for the
//      random workload one draw per core), then wake-ups (blocked tasks whose
//      wake tick is now); each is placed by the core (wake): single, an idle
//      core is woken for it, else the first core whose running task it
//      preempts by the policy's own preempts() is told to reschedule;
//      percpu, it goes on the target core's wake list with an IPI, and the
//      cores that got one drain their lists after the wake-ups (where a
//      woken task preempts what runs there);
//   2. cores 0..C-1: a running task whose slice (--slice ticks since its
//      pick, plus --timer-late) is used up, or that was preempted, is
//      charged and put back;
//   3. cores 0..C-1: a core without a task picks one (not before
//      --switch-cost ticks after a task left it; percpu: balancing
//      first when due); then every running task executes the tick: at the
//      end of its run it finishes, otherwise it blocks with its blocking
//      chance (waking wake_delay + 1 ticks later); the tasks that finish or
//      block are then charged and stopped, in core order.
// seed - the seed harness's model, kept to reproduce its published tables:
//   arrivals and wake-ups are enqueued first; then cores 0..C-1 in order:
//   the task the core ran in the previous tick (if still runnable) is
//   charged one tick and re-enqueued, then the core picks (every core
//   re-picks every tick, whatever --slice says; the policy's slice only
//   scales its credits). A task that finishes or blocks is reported with
//   stop() without being charged for its last tick, and nobody preempts.
// Per-task stats are kept incrementally (never a pass over all tasks per
// tick): wait = alive ticks - executed ticks - blocked ticks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/sched/registry.h"

namespace schedsim {

// Replay (--replay): a task's life as run and sleep bursts (alternating,
// starting with a run), and level or affinity changes at absolute ticks. A sleep of
// kForever ticks ("sleep wait") lasts until another task's wake burst
// wakes it; a wake burst (wake >= 0, between a run and what follows it)
// wakes the task at that index of the task list (sim/replay.cc).
struct Burst {
    bool run = true;
    uint64_t ticks = 0;  // run: CPU ticks (kForever: never ends); sleep: ticks asleep
    int64_t wake = -1;   // >= 0: not a run or sleep but a wake-up of task `wake`
    bool sync = false;   // that wake-up is synchronous ("swake": RunQueues::wake's waker)
    bool yield = false;  // not a run or sleep but a yield: the run before it ends with sched_yield
};
// "at TICK level L" (cpus == 0) or "at TICK cpus LIST" (cpus: the new mask).
struct TaskChange {
    uint64_t tick = 0;
    uint8_t level = 0;
    uint64_t cpus = 0;  // nonzero: an affinity change to these cores (level unused)
};

struct TaskSpec {
    uint64_t arrival = 0;
    uint64_t runtime = 0;  // ticks of CPU needed; kForever never finishes
    uint8_t level = 0;
    double block_chance = 0;
    // Replay tasks: runtime is the first run burst; after the last burst the
    // task finishes, or starts over with the first if `repeat`.
    std::vector<Burst> bursts;
    bool repeat = false;
    std::vector<TaskChange> changes;   // by tick (stable), each >= arrival
    uint64_t affinity = ~uint64_t{0};  // bit c: may run on core c (percpu queues only)
    uint64_t request = 0;              // EEVDF request size in ticks (0 = --slice; request=N)
    size_t order = 0;                  // its line's place among the file's tasks (before sorting)
    size_t line = 0;                   // its line number in the file (load_workload's errors)
    bool causal = false;               // replay: has a wake burst or a "sleep wait"
};

constexpr uint64_t kForever = ~uint64_t{0};
constexpr uint64_t kNever = ~uint64_t{0};  // a tick that never comes (no event, not yet)

enum class WorkloadKind { Idealised, Random, File, Replay };
enum class Model { Exact, Seed };
enum class Queues { Single, PerCpu };

struct Config {
    q::sched::PolicyKind policy = q::sched::PolicyKind::RR;
    Model model = Model::Exact;
    Queues queues = Queues::Single;
    WorkloadKind workload = WorkloadKind::Idealised;
    std::string workload_file;
    unsigned cores = 16;
    uint64_t ticks = 100000;
    uint64_t tasks = 40000;                          // idealised: tasks at tick 0
    double spawn_chance = 0.001;                     // random: per core per tick
    uint64_t runtime_min = 2, runtime_max = 100000;  // random: [min, max)
    double block_max = 0.001;                        // random: blocking chance in [0, max)
    uint64_t wake_delay = 100;                       // ticks a blocked task sleeps
    uint64_t seed = 1;
    q::sched::WeightTable weights = q::sched::WeightTable::Seed;
    q::sched::Time slice = 1;      // run length (exact) and policy slice, ticks
    bool sleep_decay = true;       // EEVDF: a sleeper's debt decays (eevdf.h), as in the kernel
    bool fairness = false;         // run the fluid reference and sample lags (--fairness; off by
                                   // default: neither runs, the fairness figures are not reported)
    uint64_t switch_cost = 0;      // exact: ticks a core spends between a task leaving it and its
                                   // next pick, charged to nobody (the kernel's switch path)
    uint64_t timer_late = 0;       // exact: a slice ends this many ticks after --slice (a
                                   // platform's late timer, e.g. QEMU -icount's: docs/tracing.md)
    uint64_t tick_period = 0;      // exact: every N ticks a timer interrupt inside a slice asks
                                   // preempts_current(), as the kernel's 0.1 s tick does (0: never)
    bool progress = true;          // a progress bar on stderr if it is a terminal
    bool progress_always = false;  // --progress: progress lines even if it is not
    std::string progress_label;    // names the run in progress ("stride, 5 of 7")
};

struct LevelStats {
    uint32_t weight = 0;
    uint64_t samples = 0;
    double avg_execs = 0, avg_wait = 0, avg_resp = 0;
};

// One task's figures (--tasks-out). Wake-up latency: ticks from a wake-up
// to the task's next dispatch (a wake-up still waiting at the end counts
// end - wake tick); percentiles by nearest rank, 0 without wake-ups.
struct TaskStats {
    uint64_t id = 0, arrival = 0;
    unsigned level = 0;
    uint32_t weight = 0;
    uint64_t executed = 0, waited = 0, blocks = 0, wakeups = 0, migrations = 0;
    uint64_t dispatches = 0;  // picks (the kernel's SCHED: each dispatch, even of the task that ran last)
    uint64_t wake_p50 = 0, wake_p99 = 0, wake_max = 0;
    double max_lag = 0;  // max |fluid reference - received| over the run (exact
                         // model; seed model: at the end)
    double fluid = 0;    // service in the fluid reference schedule (ticks)
};

struct Result {
    std::string policy;
    uint64_t ticks = 0;
    unsigned cores = 0;
    uint64_t spawned = 0, finished = 0, executed = 0, blocks = 0, idle = 0, alive = 0;
    uint64_t forced_idle = 0, wasted_idle = 0;
    double util = 0, efficiency = 0;
    bool any_finished = false;
    double avg_turnaround = 0, avg_wait = 0, avg_response = 0;
    uint64_t max_wait = 0;
    uint64_t ctx_switches = 0;
    uint64_t migrations = 0;  // percpu: moves of a task between queues
    bool percpu = false;
    bool fairness = false;  // jain, worst_lag, max_lag and the tasks' max_lag/fluid measured
                            // (when not: they are NaN, never zeros)
    double ctx_rate = 0;
    double jain = 0;       // over received / fluid service (tasks with fluid > 0)
    double worst_lag = 0;  // max over tasks of |fluid - received| at the end, ticks
    double max_lag = 0;    // max over tasks and over the run (TaskStats::max_lag)
    uint64_t wakeups = 0, wake_p50 = 0, wake_p99 = 0, wake_max = 0;  // over all wake-ups
    LevelStats levels[q::sched::kLevels];
    std::vector<TaskStats> tasks;  // in spawn order (id)
};

// Nearest-rank percentile p (0..100) of v, which it sorts; 0 if empty.
uint64_t percentile(std::vector<uint64_t>& v, unsigned p);

// Runs one simulation.
Result simulate(const Config& cfg, const std::vector<TaskSpec>& fixed_tasks);

// The fixed task list of a workload (idealised, file or replay; random is
// generated during the run and returns an empty list). Throws
// std::runtime_error ("FILE:LINE: what") on a bad workload or replay file.
std::vector<TaskSpec> load_workload(const Config& cfg);
std::vector<TaskSpec> load_replay(const std::string& path);
// A cpus= list ("0,2-3") as a mask; throws "WHERE: ..." on a bad list.
uint64_t parse_cpus(const std::string& list, const std::string& where);
// A request=N value (EEVDF request size, ticks, 0 = the slice); throws
// "WHERE: ..." unless it is an integer in [0, 10^9].
uint64_t parse_request(const std::string& value, const std::string& where);
// Reads the optional trailing "cpus=LIST" and "request=N" (in either order,
// each at most once) of a workload or replay line from tok[i...] into s;
// returns the index of the first other token.
size_t parse_options(const std::vector<std::string>& tok, size_t i, TaskSpec& s, const std::string& where);
// One task a line, parsed by `parse` ("file:line" for its errors); '#'
// starts a comment, blank lines are skipped, tasks sorted by arrival
// (stable). `what` names the kind of file in the open error.
std::vector<TaskSpec> read_task_file(const std::string& path, const char* what,
                                     TaskSpec (*parse)(const std::string& line, const std::string& where));

}  // namespace schedsim
