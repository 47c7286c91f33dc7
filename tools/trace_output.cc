// tools/trace_output.cc - a Model as Chrome trace-event JSON, a latency
// summary and a schedsim replay file (declared in tools/trace_output.h).
//
// JSON (the Trace Event Format that ui.perfetto.dev and chrome://tracing
// open): one process "quanta" whose threads are the harts; a complete
// event ("X") per run named "pid N name" (a thread other than a process's
// first: "tid N of pid P name"), and the same run again on a track of its
// own thread inside a track group of its process (JSON pid kTaskPid + pid,
// tid = its tid: threads show as tracks of their process); an instant ("i") per wake-up on
// the target queue's hart, with a flow arrow ("s" -> "f") from the waker's
// hart to the dispatch that ended the wait; an instant per migration; a
// global instant per affinity change (its harts, the mask as set, who set
// it); a counter ("C") per queue with its length. Times are microseconds
// with one decimal (the dump's 100 ns resolution).
//
// Summary: the table, then the affinity changes if there were any.
//
// Replay (sim/replay.cc's format): one line per process that ran, times in
// ticks of `tick` cycles, arrival relative to the trace start; each burst
// is rounded so that the running sum of emitted ticks follows the running
// sum of cycles (no drift), and a run is at least one tick (the
// simulator's minimum), which lengthens bursts shorter than a tick. A
// process still running or runnable when tracing stopped wanted more CPU:
// its last run is `run inf` (a hog stays a hog in the replay, whatever
// share another policy gives it) if that run (its CPU since it last woke,
// or since the start) reached a slice and a process (not an interrupt)
// woke it (cpu_hungry), or if it was woken and not yet run; otherwise the
// run is written as it was (the shell that read `trace stop` is no hog: as
// `run inf` it took 11 dispatches in a replay where the kernel gave it 4).
// Nice changes are `at TICK level L`; affinity changes `at TICK cpus
// LIST`, with the mask clipped to the trace's harts (the kernel keeps the
// bits of harts the machine lacks: taskset ff on 3 harts), and a mask in
// force when the line arrives (pinned at the start, inherited at fork, or
// set by the tick it arrives) is `cpus=LIST` (replay_changes).
// The header gives the platform's late slice timer
// as `--timer-late N` (timer_late_ticks) and its switch as `--switch-cost
// N` (switch_cost_ticks): platform parameters schedsim can model.
#include "tools/trace_output.h"

#include "lib/params.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "lib/sched/cpu_list.h"

namespace q::tools {

namespace {

std::string us(u64 cycles, u64 hz) {
    // cycles at hz to microseconds with one decimal (hz is 10 MHz in practice).
    const u64 tenths = hz ? cycles * 10'000'000 / hz : 0;
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%" PRIu64 ".%" PRIu64, tenths / 10, tenths % 10);
    return buf;
}

std::string ms(u64 cycles, u64 hz) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.3f", hz ? static_cast<double>(cycles) * 1000.0 / static_cast<double>(hz) : 0.0);
    return buf;
}

std::string secs(u64 cycles, u64 hz) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.6f", hz ? static_cast<double>(cycles) / static_cast<double>(hz) : 0.0);
    return buf;
}

std::string json_str(const std::string& s) {
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            o += buf;
        } else {
            o += static_cast<char>(c);
        }
    }
    return o + "\"";
}

std::string label(const Model& m, int pid) {
    auto it = m.procs.find(pid);
    if (it == m.procs.end()) return "pid " + std::to_string(pid) + " ?";
    const ProcStats& p = it->second;
    if (p.process != pid) return "tid " + std::to_string(pid) + " of pid " + std::to_string(p.process) + " " + p.name;
    return "pid " + std::to_string(pid) + " " + p.name;
}

// JSON pids of the per-process track groups: clear of the harts' group (1).
constexpr int kTaskPid = 100000;

// A track group per process and a track per thread, named.
void write_task_tracks(const Model& m, std::FILE* f) {
    for (const auto& [tid, p] : m.procs) {
        if (tid == 0) continue;
        if (p.process == tid)
            std::fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":%s}}",
                         kTaskPid + tid, json_str("pid " + std::to_string(tid) + " " + p.name).c_str());
        std::fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":%s}}",
                     kTaskPid + p.process, tid, json_str("tid " + std::to_string(tid) + " " + p.name).c_str());
    }
}

int process_of(const Model& m, int pid) {
    auto it = m.procs.find(pid);
    return it == m.procs.end() ? pid : it->second.process;
}

const char* state_name(int s) {
    switch (s) {
        case 2:
            return "sleeping";
        case 3:
            return "preempted";
        case 5:
            return "exited";
        default:
            return "running at stop";
    }
}

// Every hart of m's machine as a mask.
u64 all_harts(const Model& m) { return sched::cpus_below(m.header.harts); }

// mask clipped to m's harts, as a list ("none": no hart of this machine).
std::string harts_text(const Model& m, u64 mask) {
    const sched::CpuListText t = sched::cpu_list(mask & all_harts(m));
    return t.s[0] ? t.s : "none";
}

}  // namespace

void write_json(const Model& m, std::FILE* f) {
    const u64 hz = m.header.timer_hz, t0 = m.header.start_time;
    auto ts = [&](u64 t) { return us(t - t0, hz); };
    std::fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
    std::fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"quanta (%s, %s)\"}}",
                 m.header.policy, m.header.rq_mode);
    for (u32 h = 0; h < m.header.harts; h++)
        std::fprintf(
            f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"hart %u\"}}", h, h);
    write_task_tracks(m, f);
    for (const Run& r : m.runs) {
        std::fprintf(f,
                     ",\n{\"ph\":\"X\",\"name\":%s,\"cat\":\"run\",\"pid\":1,\"tid\":%d,\"ts\":%s,\"dur\":%s,"
                     "\"args\":{\"pid\":%d,\"end\":\"%s\"}}",
                     json_str(label(m, r.pid)).c_str(), r.hart, ts(r.start).c_str(), us(r.end - r.start, hz).c_str(),
                     r.pid, state_name(r.end_state));
        std::fprintf(f,
                     ",\n{\"ph\":\"X\",\"name\":%s,\"cat\":\"thread\",\"pid\":%d,\"tid\":%d,\"ts\":%s,"
                     "\"dur\":%s,\"args\":{\"hart\":%d,\"end\":\"%s\"}}",
                     json_str("hart " + std::to_string(r.hart)).c_str(), kTaskPid + process_of(m, r.pid), r.pid,
                     ts(r.start).c_str(), us(r.end - r.start, hz).c_str(), r.hart, state_name(r.end_state));
    }
    u64 id = 1;
    for (const WakeMark& w : m.wakes) {
        const int target = w.target >= 0 && w.target < static_cast<int>(m.header.harts) ? w.target : w.waker_hart;
        std::fprintf(f,
                     ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":%s,\"cat\":\"wakeup\",\"pid\":1,\"tid\":%d,\"ts\":%s,"
                     "\"args\":{\"pid\":%d,\"waker\":%d,\"delay_us\":%s}}",
                     json_str("wakeup " + label(m, w.pid)).c_str(), target, ts(w.time).c_str(), w.pid, w.waker,
                     w.dispatch_time ? us(w.dispatch_time - w.time, hz).c_str() : "null");
        if (!w.dispatch_time) continue;
        std::fprintf(f,
                     ",\n{\"ph\":\"s\",\"id\":%" PRIu64
                     ",\"name\":\"wakeup\",\"cat\":\"wakeup\",\"pid\":1,\"tid\":%d,\"ts\":%s}"
                     ",\n{\"ph\":\"f\",\"bp\":\"e\",\"id\":%" PRIu64
                     ",\"name\":\"wakeup\",\"cat\":\"wakeup\",\"pid\":1,\"tid\":%d,\"ts\":%s}",
                     id, w.waker_hart, ts(w.time).c_str(), id, w.dispatch_hart, ts(w.dispatch_time).c_str());
        id++;
    }
    for (const MigrateMark& mm : m.migrations) {
        static const char* const why[] = {"steal", "balance", "affinity"};
        std::fprintf(f,
                     ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":%s,\"cat\":\"migrate\",\"pid\":1,\"tid\":%d,\"ts\":%s,"
                     "\"args\":{\"pid\":%d,\"from\":%d,\"to\":%d,\"reason\":\"%s\"}}",
                     json_str("migrate " + label(m, mm.pid)).c_str(), mm.to, ts(mm.time).c_str(), mm.pid, mm.from,
                     mm.to, mm.reason >= 0 && mm.reason <= 2 ? why[mm.reason] : "?");
    }
    for (const auto& [tid, p] : m.procs) {
        for (const AffinityChange& a : p.affinities) {
            std::fprintf(f,
                         ",\n{\"ph\":\"i\",\"s\":\"g\",\"name\":%s,\"cat\":\"affinity\",\"pid\":1,\"ts\":%s,"
                         "\"args\":{\"pid\":%d,\"cpus\":\"%s\",\"mask\":\"0x%" PRIx64 "\",\"by\":%d,\"how\":\"%s\"}}",
                         json_str("affinity " + label(m, tid)).c_str(), ts(a.time).c_str(), tid,
                         harts_text(m, a.mask).c_str(), a.mask, a.by, affinity_source_name(a.source));
        }
    }
    for (const QueueSample& q : m.queue_len) {
        std::fprintf(f, ",\n{\"ph\":\"C\",\"name\":\"queue %d\",\"pid\":1,\"ts\":%s,\"args\":{\"processes\":%d}}",
                     q.queue, ts(q.time).c_str(), q.nr);
    }
    std::fprintf(f, "\n]}\n");
}

namespace {

// The summary's list of affinity changes, by thread, if the trace has any.
void write_affinities(const Model& m, std::FILE* f) {
    bool header = false;
    for (const auto& [tid, p] : m.procs) {
        for (const AffinityChange& a : p.affinities) {
            if (!header) std::fprintf(f, "\naffinity (the harts a thread may run on; the mask as set, in hex):\n");
            header = true;
            const std::string task = p.name + ":" + std::to_string(tid);
            const std::string by = a.by ? " by " + std::to_string(a.by) : "";
            std::fprintf(f, "  %-20.20s at %s s: cpus %s (mask 0x%" PRIx64 ", %s%s)\n", task.c_str(),
                         secs(a.time - m.header.start_time, m.header.timer_hz).c_str(), harts_text(m, a.mask).c_str(),
                         a.mask, affinity_source_name(a.source), by.c_str());
        }
    }
}

}  // namespace

void write_summary(const Model& m, std::FILE* f) {
    const u64 hz = m.header.timer_hz;
    const u64 span = m.header.stop_time - m.header.start_time;
    std::fprintf(f, "quanta scheduler trace: %s policy, %s queues, %u harts, slice %s ms\n", m.header.policy,
                 m.header.rq_mode, m.header.harts, ms(m.header.slice_cycles(), hz).c_str());
    std::fprintf(f, "traced %s ms: %" PRIu64 " records, %" PRIu64 " dropped%s\n", ms(span, hz).c_str(), m.records,
                 m.dropped, m.dropped ? " (buffers full: later events are missing; use trace start -b KB)" : "");
    for (const std::string& p : m.policy_changes) std::fprintf(f, "policy changed to %s during the trace\n", p.c_str());
    std::fprintf(
        f,
        "\n -------------------------------------------------------------------------------------------\n"
        "  Task                 |   Runtime ms | Switches | Avg delay ms | Max delay ms | Max delay at s | Wait ms\n"
        " -------------------------------------------------------------------------------------------\n");
    std::vector<const ProcStats*> order;
    for (const auto& [pid, p] : m.procs) order.push_back(&p);
    std::stable_sort(order.begin(), order.end(),
                     [](const ProcStats* a, const ProcStats* b) { return a->runtime > b->runtime; });
    u64 total_run = 0, total_sw = 0;
    for (const ProcStats* p : order) {
        if (p->pid == 0) continue;
        total_run += p->runtime;
        total_sw += p->switches;
        const std::string task = p->name + ":" + std::to_string(p->pid);
        const u64 avg = p->wakeups ? p->delay_sum / p->wakeups : 0;
        std::fprintf(f, "  %-20.20s | %12s | %8" PRIu64 " | %12s | %12s | %14s | %s\n", task.c_str(),
                     ms(p->runtime, hz).c_str(), p->switches, ms(avg, hz).c_str(), ms(p->delay_max, hz).c_str(),
                     p->wakeups ? secs(p->delay_max_at - m.header.start_time, hz).c_str() : "-",
                     ms(p->waited, hz).c_str());
    }
    std::fprintf(f,
                 " -------------------------------------------------------------------------------------------\n"
                 "  TOTAL:               | %12s | %8" PRIu64 "\n",
                 ms(total_run, hz).c_str(), total_sw);
    std::fprintf(f,
                 "\n(delay: runnable after a wake-up from sleep until dispatched; switches: dispatches;\n"
                 " wait: all the time it was runnable but not running)\n");
    write_affinities(m, f);
}

namespace {

// p, runnable at the stop, used a whole slice since it last slept (its run
// bursts after its last sleep: wake-ups it made split them), and that
// sleep, if any, was ended by a process: its last run is `run inf`. A
// sleep an interrupt ended (the console, a timer) is replayed as a fixed
// time asleep, so the replay may wake it long before the kernel did, and a
// `run inf` from there is CPU the kernel never gave it (the shell that read
// `trace stop`: 94 replay dispatches against the kernel's 11 in one 3-hart
// trace, where schbench's end came 90 ms earlier in the replay).
bool cpu_hungry(const ProcStats& p, u64 slice) {
    u64 ran = 0;
    for (size_t i = p.bursts.size(); i-- > 0;) {
        const Burst& b = p.bursts[i];
        if (!b.run && !b.wake_pid && !b.yield) {
            if (!b.waker) return false;
            break;
        }
        if (b.run) ran += b.cycles;
    }
    return ran >= slice;
}

// How late the slice timer ended runs, in ticks (rounded): the mean of
// (length - slice) over the runs that were preempted at or after a whole
// slice (0 when none was); *runs counts them. Under QEMU -icount with
// several harts this is the harts' turn-taking (docs/tracing.md, "Replay
// fidelity"); on one hart the trap path to the scheduler (under a tick).
u64 timer_late_ticks(const Model& m, u64 tick, u64* runs) {
    const u64 slice = m.header.slice_cycles();
    u64 n = 0, over = 0;
    for (const Run& r : m.runs) {
        if (r.end_state != 3 || r.end - r.start < slice) continue;
        n++;
        over += r.end - r.start - slice;
    }
    *runs = n;
    return n && tick ? (over / n + tick / 2) / tick : 0;
}

// The kernel's switch, in ticks (rounded): the median time from a run's
// end to the next run's start on the same hart (the median leaves out the
// gaps in which the hart idled). 0 when no hart ran twice.
u64 switch_cost_ticks(const Model& m, u64 tick) {
    std::vector<u64> gaps;
    std::map<int, u64> last_end;  // hart -> end of its last run
    std::vector<const Run*> order;
    for (const Run& r : m.runs) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(), [](const Run* a, const Run* b) { return a->start < b->start; });
    for (const Run* r : order) {
        auto it = last_end.find(r->hart);
        if (it != last_end.end() && r->start >= it->second) gaps.push_back(r->start - it->second);
        last_end[r->hart] = r->end;
    }
    if (gaps.empty() || !tick) return 0;
    std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
    return (gaps[gaps.size() / 2] + tick / 2) / tick;
}

// p's " cpus=LIST" (the mask in force at its arrival tick, if not every
// hart) and its level and affinity changes after that, as " at TICK level
// L" and " at TICK cpus LIST" in time order (schedsim applies the changes
// of one tick in line order). A mask naming no hart of the machine (only a
// corrupt dump has one: the kernel refuses it) is left out.
std::string replay_changes(const Model& m, const ProcStats& p, u64 tick, u64 arrival) {
    const u64 t0 = m.header.start_time, all = all_harts(m);
    const auto at = [&](u64 time) { return std::max(time < t0 ? 0 : (time - t0) / tick, arrival); };
    struct Change {
        u64 time;
        std::string text;
    };
    std::vector<Change> later;
    u64 initial = all;
    for (const AffinityChange& a : p.affinities) {
        if (!(a.mask & all)) continue;
        if (at(a.time) == arrival) initial = a.mask & all;
        else later.push_back({a.time, " at " + std::to_string(at(a.time)) + " cpus " + harts_text(m, a.mask)});
    }
    for (const NiceChange& c : p.renices)
        later.push_back({c.time, " at " + std::to_string(at(c.time)) + " level " + std::to_string(c.nice + 20)});
    std::stable_sort(later.begin(), later.end(), [](const Change& a, const Change& b) { return a.time < b.time; });
    std::string s = initial == all ? "" : " cpus=" + harts_text(m, initial);
    for (const Change& c : later) s += c.text;
    return s;
}

}  // namespace

void write_replay(const Model& m, u64 tick, std::FILE* f) {
    const u64 t0 = m.header.start_time;
    const u64 span = m.header.stop_time - t0;
    u64 late_runs = 0;
    const u64 late = timer_late_ticks(m, tick, &late_runs);
    const u64 switch_cost = switch_cost_ticks(m, tick);
    std::fprintf(f, "# schedsim replay of a quanta trace (qtrace): %s policy, %s queues, %u harts\n", m.header.policy,
                 m.header.rq_mode, m.header.harts);
    std::fprintf(f, "# 1 tick = %" PRIu64 " timer cycles; kernel slice = %" PRIu64 " ticks; traced %" PRIu64 " ticks\n",
                 tick, (m.header.slice_cycles() + tick / 2) / tick, (span + tick - 1) / tick);
    std::fprintf(f,
                 "# platform: the slice timer came %" PRIu64 " ticks late (mean over %" PRIu64
                 " runs it ended); a switch took %" PRIu64 " ticks (median)\n",
                 late, late_runs, switch_cost);
    // The kernel's scheduler tick is its default (lib/params.h); a trace of
    // a kernel booted with tick_us= needs that --tick instead.
    std::fprintf(f,
                 "# run: schedsim --replay FILE --weights linux --cores %u --slice %" PRIu64 " --tick %" PRIu64
                 " --timer-late %" PRIu64 " --switch-cost %" PRIu64 " --ticks %" PRIu64 " --policy all\n",
                 m.header.harts, std::max<u64>(1, (m.header.slice_cycles() + tick / 2) / tick),
                 std::max<u64>(1, (param::kSchedTickCycles + tick / 2) / tick), late, switch_cost,
                 (span + tick - 1) / tick);
    std::fprintf(f, "# ARRIVAL LEVEL BURST... [at TICK level L]   (level = nice + 20)\n");
    struct Line {
        u64 arrival;
        int pid;
        std::string text;
    };
    std::vector<Line> lines;
    for (const auto& [pid, p] : m.procs) {
        if (pid == 0 || p.bursts.empty() || !p.bursts.front().run) continue;
        const u64 first = p.first < t0 ? 0 : p.first - t0;
        lines.push_back({first / tick, pid, ""});
    }
    // Wake bursts name the woken process's line: number them first.
    std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.arrival < b.arrival; });
    std::map<int, size_t> line_of;
    for (size_t k = 0; k < lines.size(); k++) line_of[lines[k].pid] = k;
    for (Line& l : lines) {
        const ProcStats& p = m.procs.at(l.pid);
        const int pid = l.pid;
        const u64 first = p.first < t0 ? 0 : p.first - t0;
        const u64 arrival = l.arrival;
        std::string s = std::to_string(arrival) + " " + std::to_string(p.initial_nice + 20);
        // Exact cumulative cycles -> ticks, so the rounding error never grows.
        u64 cyc = first, emitted = arrival;
        for (size_t i = 0; i < p.bursts.size(); i++) {
            const Burst& b = p.bursts[i];
            if (b.wake_pid) {
                if (line_of.count(b.wake_pid))
                    s += (b.sync ? " swake " : " wake ") + std::to_string(line_of[b.wake_pid]);
                continue;
            }
            if (b.yield) {
                s += " yield";
                continue;
            }
            if (b.run && p.runnable_at_stop && i + 1 == p.bursts.size() && cpu_hungry(p, m.header.slice_cycles())) {
                s += " run inf";
                break;
            }
            cyc += b.cycles;
            const u64 target = (cyc + tick / 2) / tick;
            u64 n = target > emitted ? target - emitted : 0;
            if (b.run && n == 0) n = 1;
            // A trailing sleep ends the task anyway, unless it woke at the end.
            if (!b.run && i + 1 == p.bursts.size() && !p.runnable_at_stop) break;
            const bool wait = !b.run && b.waker && line_of.count(b.waker);
            s += b.run ? " run " : " sleep ";
            s += wait ? "wait" : std::to_string(n);
            emitted += n;
        }
        if (p.runnable_at_stop && !p.bursts.back().run) s += " run inf";  // woken, not run yet
        s += replay_changes(m, p, tick, arrival);
        s += "   # pid " + std::to_string(pid) + " " + p.name;
        l.text = s;
    }
    for (const Line& l : lines) std::fprintf(f, "%s\n", l.text.c_str());
}

}  // namespace q::tools
