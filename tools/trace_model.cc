// tools/trace_model.cc - one pass over the merged records (see trace_model.h).
//
// The pass is tolerant of what a correct kernel can produce around the
// start and stop of a trace (a Deschedule without a Switch, a Switch of a
// process never seen before, a wake-up of one already runnable) and of
// dropped records (a full buffer ends a hart's section early): it never
// trusts an event to have a partner, it closes what is open at the stop.
#include "tools/trace_model.h"

namespace q::tools {

using trace::Event;
using trace::Record;

namespace {

struct Builder {
    Model m;
    struct Open {
        int pid = 0;
        u64 start = 0;
        bool open = false;
    };
    Open cur[trace::kMaxHarts];
    std::map<int, size_t> pending_wake;  // pid -> index in m.wakes, awaiting dispatch
    std::map<int, int> queue_nr;

    ProcStats& proc(int pid, u64 t) {
        auto it = m.procs.find(pid);
        if (it != m.procs.end()) return it->second;
        ProcStats& p = m.procs[pid];
        p.pid = pid;
        p.process = pid;
        p.first = t;
        p.name = "?";
        return p;
    }

    void end_run_burst(ProcStats& p) {
        if (p.run_acc) p.bursts.push_back({true, p.run_acc});
        p.run_acc = 0;
    }

    void close(int hart, u64 t, int state) {
        Open& o = cur[hart];
        if (!o.open) return;
        m.runs.push_back({hart, o.pid, o.start, t, state});
        o.open = false;
    }

    void queue_sample(u64 t, int queue, int nr) {
        if (queue < 0 || queue >= static_cast<int>(trace::kMaxHarts)) return;
        queue_nr[queue] = nr;
        m.queue_len.push_back({t, queue, nr});
    }

    void on_switch(const Record& r) {
        close(r.cpu, r.time, 3);
        cur[r.cpu] = {r.pid, r.time, true};
        ProcStats& p = proc(r.pid, r.time);
        if (!p.started) {  // first seen running or runnable: it lives from here
            p.started = true;
        }
        p.switches++;
        p.dispatch_emitted = 0;
        p.waited += static_cast<u64>(r.key);
        p.state = 4;
        auto w = pending_wake.find(r.pid);
        if (w != pending_wake.end()) {
            m.wakes[w->second].dispatch_time = r.time;
            m.wakes[w->second].dispatch_hart = r.cpu;
            pending_wake.erase(w);
        }
        if (p.woke) {
            const u64 waited = static_cast<u64>(r.key);
            p.wakeups++;
            p.delay_sum += waited;
            if (waited > p.delay_max) {
                p.delay_max = waited;
                p.delay_max_at = r.time;
            }
            p.woke = false;
        }
    }

    void on_deschedule(const Record& r) {
        ProcStats& p = proc(r.pid, r.time);
        const Open& o = cur[r.cpu];
        const u64 start = o.open && o.pid == r.pid ? o.start : m.header.start_time;
        if (!(o.open && o.pid == r.pid)) {
            close(r.cpu, r.time, 3);
            cur[r.cpu] = {r.pid, start, true};
            p.started = true;
        }
        close(r.cpu, r.time, r.a);
        u64 ran = static_cast<u64>(r.key);
        if (ran > r.time - m.header.start_time) ran = r.time - m.header.start_time;
        p.runtime += ran;
        add_run(p, ran);
        p.state = r.a;
        if (r.a == 3 && r.b == 1) {  // it yielded: its run ends there
            end_run_burst(p);
            if (!p.bursts.empty()) p.bursts.push_back({.run = false, .cycles = 0, .yield = true});
        } else if (r.a == 2) {
            end_run_burst(p);
            p.sleep_since = r.time;
        } else if (r.a == 5) {
            end_run_burst(p);
            p.exited = true;
        }
        if (r.a != 3 && p.queue >= 0 && queue_nr.count(p.queue) && queue_nr[p.queue] > 0)
            queue_sample(r.time, p.queue, queue_nr[p.queue] - 1);
    }

    // The CPU of a dispatch that ran `ran`, less what a wake-up in it
    // already put in its bursts.
    void add_run(ProcStats& p, u64 ran) {
        p.run_acc += ran > p.dispatch_emitted ? ran - p.dispatch_emitted : 0;
        p.dispatch_emitted = 0;
    }

    // A process running on the waker's hart woke a sleeper from its own
    // context (the kernel records waker 0 in an interrupt handler): its run
    // so far ends a burst, followed by the wake-up; true if recorded.
    bool wake_burst(const Record& r) {
        const Open& o = cur[r.cpu];
        const bool woken = r.b == 1 || r.b == 2;
        if (!woken || r.other <= 0 || r.other == r.pid || !o.open || o.pid != r.other) return false;
        ProcStats& w = proc(r.other, r.time);
        const u64 in_dispatch = r.time > o.start ? r.time - o.start : 0;
        const u64 part = in_dispatch > w.dispatch_emitted ? in_dispatch - w.dispatch_emitted : 0;
        w.run_acc += part;
        w.dispatch_emitted += part;
        end_run_burst(w);
        if (w.bursts.empty()) return false;
        w.bursts.push_back({false, 0, 0, r.pid, r.b == 2});
        return true;
    }

    void on_wakeup(const Record& r) {
        ProcStats& p = proc(r.pid, r.time);
        const int waker_hart = r.cpu;
        m.wakes.push_back({r.time, r.pid, r.other, waker_hart, r.a, 0, -1});
        pending_wake[r.pid] = m.wakes.size() - 1;
        p.woke = r.b == 1 || r.b == 2;
        if (p.state == 2 && p.started) {
            const bool caused = wake_burst(r);
            p.bursts.push_back({false, r.time - p.sleep_since, caused ? r.other : 0});
        } else if (!p.started) {
            p.started = true;
            p.first = r.time;  // its replay life starts here
        }
        p.state = 3;
        p.queue = r.a;
    }

    void add(const Record& r) {
        switch (static_cast<Event>(r.type)) {
            case Event::Switch:
                on_switch(r);
                break;
            case Event::Deschedule:
                on_deschedule(r);
                break;
            case Event::Wakeup:
                on_wakeup(r);
                break;
            case Event::Enqueue:
            case Event::Pick:
                proc(r.pid, r.time).queue = r.a;
                queue_sample(r.time, r.a, r.b);
                break;
            case Event::Migrate: {
                m.migrations.push_back({r.time, r.pid, r.a, r.b, r.other});
                ProcStats& p = proc(r.pid, r.time);
                p.migrations++;
                p.queue = r.b;
                if (queue_nr.count(r.a) && queue_nr[r.a] > 0) queue_sample(r.time, r.a, queue_nr[r.a] - 1);
                queue_sample(r.time, r.b, queue_nr.count(r.b) ? queue_nr[r.b] + 1 : 1);
                break;
            }
            case Event::Fork: {
                ProcStats& p = proc(r.pid, r.time);
                p.first = r.time;
                auto parent = m.procs.find(r.other);
                if (parent != m.procs.end()) {
                    p.name = parent->second.name;
                    p.nice = p.initial_nice = parent->second.nice;
                }
                break;
            }
            case Event::Thread: {  // pid is a thread of process other
                ProcStats& p = proc(r.pid, r.time);
                p.process = r.other;
                auto leader = m.procs.find(r.other);
                if (p.name == "?" && leader != m.procs.end()) {
                    p.name = leader->second.name;
                    p.first = r.time;
                    p.nice = p.initial_nice = leader->second.nice;
                }
                break;
            }
            case Event::Exec:
            case Event::Proc: {
                char name[trace::kNameLen + 1];
                trace::get_name(r, name);
                ProcStats& p = proc(r.pid, r.time);
                p.name = name;
                if (static_cast<Event>(r.type) == Event::Proc) {
                    p.nice = p.initial_nice = static_cast<int>(r.b) - 20;
                    p.state = r.a;
                    p.started = r.a == 3 || r.a == 4;
                    p.first = m.header.start_time;
                    if (r.a == 2) p.sleep_since = m.header.start_time;
                }
                break;
            }
            case Event::Exit:
                proc(r.pid, r.time).exited = true;
                break;
            case Event::Renice: {
                ProcStats& p = proc(r.pid, r.time);
                p.nice = r.other;
                p.renices.push_back({r.time, r.other});
                break;
            }
            case Event::Affinity:
                proc(r.pid, r.time).affinities.push_back({r.time, static_cast<u64>(r.key), r.other, r.a});
                break;
            case Event::Policy: {
                char name[trace::kNameLen + 1];
                trace::get_name(r, name);
                m.policy_changes.push_back(name);
                break;
            }
            case Event::None:
            case Event::Count:
                break;
        }
    }
};

}  // namespace

Model build_model(const TraceDump& d) {
    Builder b;
    b.m.header = d.header;
    b.m.records = d.records.size();
    for (u32 i = 0; i < d.header.harts; i++) b.m.dropped += d.header.dropped[i];
    for (const Record& r : d.records) b.add(r);
    // Close what is still open at the stop.
    const u64 stop = d.header.stop_time;
    for (u32 h = 0; h < d.header.harts; h++) {
        if (!b.cur[h].open) continue;
        ProcStats& p = b.proc(b.cur[h].pid, stop);
        const u64 ran = stop - b.cur[h].start;
        p.runtime += ran;
        b.add_run(p, ran);
        b.close(static_cast<int>(h), stop, 0);
    }
    for (auto& [pid, p] : b.m.procs) {
        b.end_run_burst(p);
        p.runnable_at_stop = !p.exited && (p.state == 3 || p.state == 4);
    }
    return b.m;
}

}  // namespace q::tools
