// tools/trace_model.h - what a trace says, rebuilt from its records.
//
// build_model() walks the merged records of a TraceDump once and keeps:
//   - runs: [start, end) of each process on each hart, from its Switch to
//     its Deschedule (a process running when tracing started runs from the
//     start; one still running at the stop runs to the stop);
//   - per thread (the records' pids are tids; Thread records give each
//     thread's process): name (Proc snapshot or Exec), nice, runtime (the cycles
//     each Deschedule charged, clipped to the trace), dispatches, wake-up
//     delays (the Switch's wait after a wake-up from sleep: the kernel's own
//     latency measure), migrations, and its life as run and sleep bursts
//     (for the replay file: a sleep that a running process ended names it,
//     and that process's bursts hold the wake-up between its runs, and a
//     sched_yield ends a run with a yield) and
//     whether it still wanted the CPU at the stop;
//   - marks: wake-ups (with the waker's hart and the dispatch that ended
//     the wait), migrations, and each queue's length over time.
// Output writers (tools/trace_output.cc) only read a Model.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tools/obs_reader.h"

namespace q::tools {

struct Run {
    int hart;
    int pid;
    u64 start, end;
    int end_state;  // 2 sleeping, 3 preempted, 5 exited, 0 still running at the stop
};

struct Burst {
    bool run;
    u64 cycles;
    int waker = 0;       // sleep: ended by this process's wakeup() (0: an interrupt, or unknown)
    int wake_pid = 0;    // not 0: no run or sleep but this process's wake-up of wake_pid (0 cycles)
    bool sync = false;   // that wake-up was synchronous (Wakeup b = 2): "swake" in a replay
    bool yield = false;  // no run or sleep but a yield ending the run before it (Deschedule b = 1)
};

struct NiceChange {
    u64 time;
    int nice;
};

// An Affinity record: the mask as the kernel keeps it (bits of harts the
// machine lacks included; writers clip it to the dump's harts).
struct AffinityChange {
    u64 time;
    u64 mask;
    int by;     // the tid that set it, or that it was inherited from (0: the snapshot)
    u8 source;  // trace::AffinitySource
};

// One scheduled thread (the trace's pid is a tid: a process's first
// thread's tid is the process's pid).
struct ProcStats {
    int pid = 0;
    int process = 0;  // the process it is a thread of (its own pid unless a Thread record says otherwise)
    std::string name;
    int nice = 0;
    int initial_nice = 0;
    u64 first = 0;  // time it appeared (trace start, or fork)
    u64 runtime = 0;
    u64 switches = 0;
    u64 waited = 0;   // runnable but not running (sum of the Switches' waits)
    u64 wakeups = 0;  // wake-ups from sleep followed by a dispatch
    u64 delay_sum = 0;
    u64 delay_max = 0;
    u64 delay_max_at = 0;  // time of the dispatch that ended the longest wait
    u64 migrations = 0;
    bool exited = false;
    bool runnable_at_stop = false;  // running or runnable when tracing stopped: it wanted more CPU
    // Life for the replay: run and sleep bursts from `first`; a process
    // sleeping when tracing started begins with its first wake-up.
    std::vector<Burst> bursts;
    std::vector<NiceChange> renices;
    std::vector<AffinityChange> affinities;  // every hart until the first
    // Builder state.
    int state = 0;  // last known: 2 sleeping, 3 runnable, 4 running
    u64 sleep_since = 0;
    u64 run_acc = 0;           // CPU of the current run burst so far
    u64 dispatch_emitted = 0;  // cycles of the current dispatch already in bursts (before a wake-up)
    bool started = false;
    u64 wake_time = 0;
    bool woke = false;
    int queue = -1;
};

struct WakeMark {
    u64 time;
    int pid, waker, waker_hart, target;
    u64 dispatch_time;  // 0 if never dispatched in the trace
    int dispatch_hart;
};

struct MigrateMark {
    u64 time;
    int pid, from, to, reason;
};

struct QueueSample {
    u64 time;
    int queue;
    int nr;
};

struct Model {
    trace::DumpHeader header{};
    u64 records = 0;
    u64 dropped = 0;
    std::vector<Run> runs;
    std::map<int, ProcStats> procs;
    std::vector<WakeMark> wakes;
    std::vector<MigrateMark> migrations;
    std::vector<QueueSample> queue_len;
    std::vector<std::string> policy_changes;
};

Model build_model(const TraceDump& d);

}  // namespace q::tools
