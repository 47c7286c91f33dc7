// sim/replay.cc - replay workloads (--replay FILE): each task's life as a
// sequence of run and sleep bursts, with level (nice) and affinity changes
// at given ticks. One task a line, '#' starts a comment:
//
//   ARRIVAL LEVEL BURST... [repeat] [cpus=LIST] [request=N] [CHANGE]...
//   CHANGE is "at TICK level LEVEL" or "at TICK cpus LIST", in any order.
//   BURST is "run N" (N ticks of CPU, N >= 1, or "inf": never stops),
//   "sleep N" (off the CPU for N ticks, N >= 0; 0 = wakes the next tick),
//   "sleep wait" (off the CPU until another task wakes it), or, after a
//   run, "wake K" (at the end of that run, wake the task of line K: the
//   K-th task line of the file, from 0; a task not in a "sleep wait" keeps
//   the wake-up, and its next "sleep wait" ends at once, as a pipe keeps
//   data written before the read). qtrace writes a sleep that another
//   process ended as "sleep wait" and that process's wake-up as "wake K", so
//   a replay wakes a sleeper when its waker gets there, not at a fixed time.
//   "swake K" is a synchronous wake-up (the kernel's pipe write, whose
//   writer sleeps soon): per-core queues may place the woken task on its
//   waker's core (lib/sched/runqueues.h). "yield", after a run (or its
//   wake-ups), ends that run with sched_yield: the task is put back giving
//   up its turn (RunQueues::put_back, Yielded::Yes) and runs on from its
//   next burst, a run; qtrace writes one for each yield the kernel traced.
//
// The first burst is a run; adjacent bursts of one kind merge (a yield
// keeps the runs on either side apart); "run inf"
// must be the last burst. After its last burst a task finishes, or with
// "repeat" starts over with the first. "at TICK level LEVEL" (TICK >=
// ARRIVAL) changes the task's level at the start of tick TICK, whatever its
// state, through the policy's reweight() as the kernel's setpriority does;
// "at TICK cpus LIST" sets its cores then through the run-queue core's
// set_affinity(), as the kernel's setaffinity does (sim/simulator.h
// task_changes; as for cpus=, LIST must name a core below --cores, and
// cores beyond it are ignored: load_workload).
// Changes of one tick apply in line order.
// cpus=LIST (e.g. 0,2-3) pins the task to those cores (--queues percpu);
// request=N is its EEVDF request size in ticks (0 = --slice; sim/workload.cc).
// Lines are sorted by arrival (stable). Errors name the file and line.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/sim.h"

namespace schedsim {

namespace {

uint64_t number(const std::string& tok, const std::string& where, const char* what, bool allow_inf) {
    if (allow_inf && tok == "inf") return kForever;
    if (tok.empty() || tok.find_first_not_of("0123456789") != std::string::npos || tok.size() > 15)
        throw std::runtime_error(where + ": " + what + " must be an integer in [0, 10^15), got '" + tok + "'");
    return std::stoull(tok);
}

uint8_t level_of(const std::string& tok, const std::string& where) {
    const uint64_t l = number(tok, where, "level", false);
    if (l >= q::sched::kLevels) throw std::runtime_error(where + ": level must be 0..39, got '" + tok + "'");
    return static_cast<uint8_t>(l);
}

// "at TICK level LEVEL" or "at TICK cpus LIST" from tok[i...].
TaskChange parse_change(const std::vector<std::string>& tok, size_t i, uint64_t arrival, const std::string& where) {
    const bool level = i + 2 < tok.size() && tok[i + 2] == "level";
    const bool cpus = i + 2 < tok.size() && tok[i + 2] == "cpus";
    if (tok[i] != "at" || i + 3 >= tok.size() || !(level || cpus))
        throw std::runtime_error(where + ": expected 'at TICK level LEVEL' or 'at TICK cpus LIST', got '" + tok[i] +
                                 "'");
    TaskChange c;
    c.tick = number(tok[i + 1], where, "tick", false);
    if (c.tick < arrival)
        throw std::runtime_error(where + ": " + tok[i + 2] + " change at tick " + tok[i + 1] + " before arrival");
    if (level) c.level = level_of(tok[i + 3], where);
    if (cpus) c.cpus = parse_cpus(tok[i + 3], where);
    return c;
}

TaskSpec parse_task(const std::string& line, const std::string& where) {
    std::istringstream in(line);
    std::vector<std::string> tok;
    for (std::string w; in >> w;) tok.push_back(w);
    if (tok.size() < 4) throw std::runtime_error(where + ": expected 'ARRIVAL LEVEL run N ...'");
    TaskSpec s;
    s.arrival = number(tok[0], where, "arrival", false);
    s.level = level_of(tok[1], where);
    size_t i = 2;
    // A wake-up or a yield ends the run before it (or that run's wake-ups).
    auto require_run_that_ends = [&](const std::string& what) {
        const bool after_run = !s.bursts.empty() && (s.bursts.back().run || s.bursts.back().wake >= 0);
        if (!after_run || s.bursts.back().ticks == kForever)
            throw std::runtime_error(where + ": '" + what + "' must follow a run that ends");
    };
    for (; i < tok.size() &&
           (tok[i] == "run" || tok[i] == "sleep" || tok[i] == "wake" || tok[i] == "swake" || tok[i] == "yield");
         i += 2) {
        if (tok[i] == "yield") {
            require_run_that_ends(tok[i]);
            Burst y;
            y.run = false;
            y.yield = true;
            s.bursts.push_back(y);
            i--;  // a yield takes no count
            continue;
        }
        const bool run = tok[i] == "run";
        const bool sync = tok[i] == "swake";
        if (i + 1 >= tok.size()) throw std::runtime_error(where + ": '" + tok[i] + "' needs a tick count");
        if (sync || tok[i] == "wake") {
            require_run_that_ends(tok[i]);
            const uint64_t k = number(tok[i + 1], where, "wake's task line", false);
            s.bursts.push_back({false, 0, static_cast<int64_t>(k), sync});
            s.causal = true;
            continue;
        }
        const bool wait = !run && tok[i + 1] == "wait";
        s.causal = s.causal || wait;
        const uint64_t n = wait ? kForever : number(tok[i + 1], where, run ? "run length" : "sleep length", run);
        if (run && n == 0) throw std::runtime_error(where + ": run length must be at least 1");
        if (s.bursts.empty() && !run) throw std::runtime_error(where + ": the first burst must be a run");
        if (!s.bursts.empty() && s.bursts.back().run && s.bursts.back().ticks == kForever)
            throw std::runtime_error(where + ": 'run inf' must be the last burst");
        if (!run && !s.bursts.empty() && s.bursts.back().yield)
            throw std::runtime_error(where + ": a yield must be followed by a run");
        if (!s.bursts.empty() && s.bursts.back().wake < 0 && !s.bursts.back().yield && s.bursts.back().run == run) {
            Burst& b = s.bursts.back();
            b.ticks = (n == kForever || b.ticks + n >= kForever) ? kForever : b.ticks + n;
        } else {
            s.bursts.push_back({run, n});
        }
    }
    if (s.bursts.empty()) throw std::runtime_error(where + ": expected a burst ('run N') after the level");
    if (i < tok.size() && tok[i] == "repeat") {
        s.repeat = true;
        i++;
    }
    i = parse_options(tok, i, s, where);
    for (; i < tok.size(); i += 4) s.changes.push_back(parse_change(tok, i, s.arrival, where));
    std::stable_sort(s.changes.begin(), s.changes.end(),
                     [](const TaskChange& a, const TaskChange& b) { return a.tick < b.tick; });
    // Without repeat, a trailing sleep ends the task when it would wake; it
    // is dropped so that the last run ends it (same service).
    if (!s.repeat && !s.bursts.back().run && s.bursts.back().wake < 0 && !s.bursts.back().yield) s.bursts.pop_back();
    // A repeating list that starts and ends with runs: they join on wrap,
    // which the simulator handles burst by burst.
    s.runtime = s.bursts.front().ticks;
    return s;
}

}  // namespace

// Wake bursts name a task by its line (file order); the list is sorted by
// arrival, so they are renumbered to the sorted places.
std::vector<TaskSpec> load_replay(const std::string& path) {
    std::vector<TaskSpec> v = read_task_file(path, "replay", parse_task);
    std::vector<int64_t> place(v.size());
    for (size_t i = 0; i < v.size(); i++) place[v[i].order] = static_cast<int64_t>(i);
    for (TaskSpec& s : v) {
        for (Burst& b : s.bursts) {
            if (b.wake < 0) continue;
            if (static_cast<uint64_t>(b.wake) >= v.size())
                throw std::runtime_error(path + ": 'wake " + std::to_string(b.wake) + "': the file has " +
                                         std::to_string(v.size()) + " task lines");
            b.wake = place[static_cast<size_t>(b.wake)];
        }
    }
    return v;
}

}  // namespace schedsim
