// sim/ostep_mlfq.cc - `schedsim ostep mlfq`: cpu-sched-mlfq/mlfq.py of
// OSTEP's homework (chapter 8's Multi-Level Feedback Queue).
//
// Design. A tick-by-tick replay of the script's model, so every trace line
// and figure is the script's: queues are numbered as it numbers them (the
// highest, numQueues - 1, has the highest priority; -Q and -A list quanta
// and allotments from the highest queue down); the job at the head of the
// highest non-empty queue runs one tick and stays at the head until its
// quantum ends (then it goes to the back, one level lower once it has used
// its allotment of quanta; the lowest level just starts again), it issues an
// I/O (every ioFreq ticks of its run time; it leaves the queues for ioTime
// ticks and returns to the back, or the front with -I) or it finishes.
// Events of a tick are handled in the script's order: the boost (every -B
// ticks, but not at time 0), then the jobs that begin or finish I/O at that
// time, in the order they were recorded. A boost gives every unfinished job
// (running, queued, asleep or not yet begun) the top queue with a fresh
// quantum and allotment there: the script since its "allotment bug fix" of
// September 2023. --old-boost replays the script before it, whose boost set
// the ticks left to the top queue's allotment (not its quantum) and left the
// allotment count alone. The script's own quirks are kept, since its
// answers are the reference: with -S an I/O resets the ticks and allotment
// before the quantum-end check, which still sees the ticks the job had (so
// an I/O on the quantum's last tick counts that quantum against the fresh
// allotment).
//
// The lib/sched Mlfq policy (the kernel's) implements the same rules in
// time units under the kernel's protocol; this file is the script's model,
// for exact answers. Random jobs (-j/-m/-M/-s) use the script's formulas on
// CPython's generator (py_random.h): the script's jobs. Inputs on which
// the script crashes or never ends (no queues, a negative start or I/O
// time) are reported as errors instead.
#include <deque>
#include <map>

#include "sim/ostep.h"
#include "sim/ostep_flags.h"
#include "sim/py_random.h"

namespace schedsim::ostep {

namespace {

// The script's flags, and schedsim's own --old-boost (the boost before Sep
// 2023).
const std::vector<FlagSpec> kSpec = {
    {'s', "seed", true},        {'n', "numQueues", true},     {'q', "quantum", true}, {'a', "allotment", true},
    {'Q', "quantumList", true}, {'A', "allotmentList", true}, {'j', "numJobs", true}, {'m', "maxlen", true},
    {'M', "maxio", true},       {'B', "boost", true},         {'i', "iotime", true},  {'S', "stay", false},
    {'I', "iobump", false},     {'l', "jlist", true},         {'c', "solve", false},  {'\0', "old-boost", false},
};

const char kHelp[] =
    "usage: schedsim ostep mlfq [-n QUEUES] [-q QUANTUM] [-a ALLOT] [-Q q1,q2,..] [-A a1,a2,..]\n"
    "                           [-l start,run,iofreq:...] [-B BOOST] [-i IOTIME] [-S] [-I]\n"
    "                           [-j JOBS] [-m MAXLEN] [-M MAXIO] [-s SEED] [-c] [--old-boost]\n"
    "  OSTEP cpu-sched-mlfq/mlfq.py: -n queues (3), -q quantum (10), -a allotment in quanta (1),\n"
    "  -Q/-A per queue, highest first; -l jobs; -B boost period (0: none); -i I/O time (5);\n"
    "  -S reset allotment at I/O; -I woken jobs to the front; -c print the answers;\n"
    "  --old-boost: the script's boost before Sep 2023 (ticks = the top allotment).\n"
    "  Random jobs are Python's for the same seed, so the trace is the script's.\n";

struct Job {
    int64_t pri, ticks, allot, start, run, left, iofreq;
    bool doing_io = false;
    int64_t first_run = -1, end = 0;
};

struct Event {
    size_t job;
    bool begins;  // JOB BEGINS, else IO_DONE
};

std::string py_bool(bool b) { return b ? "True" : "False"; }

std::vector<int64_t> int_list(const std::string& s, const std::string& what) {
    std::vector<int64_t> v;
    for (const std::string& w : split(s, ',')) v.push_back(parse_int(w, what));
    return v;
}

}  // namespace

void mlfq(const std::vector<std::string>& args, std::string& out) {
    const Flags f = parse_flags(args, kSpec);
    if (f.help) {
        out += kHelp;
        return;
    }
    const int64_t seed = f.integer("seed", 0);
    int64_t nq = f.integer("numQueues", 3);
    const int64_t quantum_all = f.integer("quantum", 10);
    const int64_t allot_all = f.integer("allotment", 1);
    const int64_t boost = f.integer("boost", 0);
    const int64_t io_time = f.integer("iotime", 5);
    const int64_t njobs = f.integer("numJobs", 3);
    const int64_t maxlen = f.integer("maxlen", 100);
    const int64_t maxio = f.integer("maxio", 10);
    const bool stay = f.has("stay"), bump = f.has("iobump"), old_boost = f.has("old-boost");
    const std::string qlist = f.str("quantumList", ""), alist = f.str("allotmentList", "");
    const std::string jlist = f.str("jlist", "");

    // Per-queue quantum and allotment, index = the script's queue number.
    std::vector<int64_t> quantum, allotment;
    if (!qlist.empty()) {
        const std::vector<int64_t> v = int_list(qlist, "-Q");
        nq = static_cast<int64_t>(v.size());
        quantum.assign(v.rbegin(), v.rend());
    } else {
        if (nq < 1 || nq > 1000) throw OstepError("-n: between 1 and 1000 queues");
        quantum.assign(static_cast<size_t>(nq), quantum_all);
    }
    if (!alist.empty()) {
        const std::vector<int64_t> v = int_list(alist, "-A");
        if (static_cast<int64_t>(v.size()) != nq)
            throw OstepError("number of allotments specified must match number of quantums");
        allotment.assign(v.rbegin(), v.rend());
        for (size_t q = 1; q < allotment.size(); q++) {
            if (allotment[q] <= 0) throw OstepError("allotment must be positive integer");
        }
    } else {
        allotment.assign(static_cast<size_t>(nq), allot_all);
    }
    if (io_time < 0) throw OstepError("-i: the I/O time must not be negative");
    const int64_t hi = nq - 1;

    std::vector<Job> jobs;
    std::map<int64_t, std::vector<Event>> events;
    auto add_job = [&](int64_t start, int64_t run, int64_t iofreq) {
        const size_t hq = static_cast<size_t>(hi);
        jobs.push_back({hi, quantum[hq], allotment[hq], start, run, run, iofreq});
        events[start].push_back({jobs.size() - 1, true});
    };
    if (!jlist.empty()) {
        for (const std::string& j : split(jlist, ':')) {
            const std::vector<std::string> w = split(j, ',');
            if (w.size() != 3)
                throw OstepError("badly formatted job string '" + j +
                                 "': should be x1,y1,z1:x2,y2,z2:... (start time, run time, I/O frequency)");
            const int64_t start = parse_int(w[0], "-l"), run = parse_int(w[1], "-l");
            if (start < 0) throw OstepError("-l: a job's start time must not be negative");
            add_job(start, run, parse_int(w[2], "-l"));
        }
    } else {
        if (njobs < 1 || njobs > 100000) throw OstepError("-j: between 1 and 100000 jobs");
        PyRandom rng(seed);
        for (int64_t i = 0; i < njobs; i++) {
            const int64_t run = static_cast<int64_t>(rng.random() * static_cast<double>(maxlen - 1) + 1);
            const int64_t iofreq = static_cast<int64_t>(rng.random() * static_cast<double>(maxio - 1) + 1);
            add_job(0, run, iofreq);
        }
    }

    out += "Here is the list of inputs:\n";
    out += fmt("OPTIONS jobs %zu\nOPTIONS queues %lld\n", jobs.size(), static_cast<long long>(nq));
    for (int64_t q = nq - 1; q >= 0; q--) {
        out += fmt("OPTIONS allotments for queue %2lld is %3lld\n", static_cast<long long>(q),
                   static_cast<long long>(allotment[static_cast<size_t>(q)]));
        out += fmt("OPTIONS quantum length for queue %2lld is %3lld\n", static_cast<long long>(q),
                   static_cast<long long>(quantum[static_cast<size_t>(q)]));
    }
    out += fmt("OPTIONS boost %lld\nOPTIONS ioTime %lld\n", static_cast<long long>(boost),
               static_cast<long long>(io_time));
    out += "OPTIONS stayAfterIO " + py_bool(stay) + "\nOPTIONS iobump " + py_bool(bump) + "\n\n\n";
    out +=
        "For each job, three defining characteristics are given:\n"
        "  startTime : at what time does the job enter the system\n"
        "  runTime   : the total CPU time needed by the job to finish\n"
        "  ioFreq    : every ioFreq time units, the job issues an I/O\n"
        "              (the I/O takes ioTime units to complete)\n\n"
        "Job List:\n";
    for (size_t i = 0; i < jobs.size(); i++) {
        out += fmt("  Job %2zu: startTime %3lld - runTime %3lld - ioFreq %3lld\n", i,
                   static_cast<long long>(jobs[i].start), static_cast<long long>(jobs[i].run),
                   static_cast<long long>(jobs[i].iofreq));
    }
    out += "\n";
    if (!f.has("solve")) {
        out +=
            "Compute the execution trace for the given workloads.\n"
            "If you would like, also compute the response and turnaround\n"
            "times for each of the jobs.\n\n"
            "Use the -c flag to get the exact results when you are finished.\n\n";
        return;
    }

    std::vector<std::deque<size_t>> queue(static_cast<size_t>(nq));
    int64_t now = 0;
    size_t finished = 0;
    out += "\nExecution Trace:\n\n";
    while (finished < jobs.size()) {
        if (boost > 0 && now != 0 && now % boost == 0) {
            out +=
                fmt("[ time %lld ] BOOST ( every %lld )\n", static_cast<long long>(now), static_cast<long long>(boost));
            for (int64_t q = 0; q < hi; q++) {
                for (size_t j : queue[static_cast<size_t>(q)]) {
                    if (!jobs[j].doing_io) queue[static_cast<size_t>(hi)].push_back(j);
                }
                queue[static_cast<size_t>(q)].clear();
            }
            for (Job& j : jobs) {
                if (j.left <= 0) continue;
                j.pri = hi;
                if (old_boost) {
                    j.ticks = allotment[static_cast<size_t>(hi)];  // the old script's choice
                } else {
                    j.ticks = quantum[static_cast<size_t>(hi)];
                    j.allot = allotment[static_cast<size_t>(hi)];
                }
            }
        }
        if (auto it = events.find(now); it != events.end()) {
            for (const Event& ev : it->second) {
                Job& j = jobs[ev.job];
                j.doing_io = false;
                out += fmt("[ time %lld ] %s by JOB %zu\n", static_cast<long long>(now),
                           ev.begins ? "JOB BEGINS" : "IO_DONE", ev.job);
                std::deque<size_t>& dq = queue[static_cast<size_t>(j.pri)];
                if (!bump || ev.begins) {
                    dq.push_back(ev.job);
                } else {
                    dq.push_front(ev.job);
                }
            }
        }
        int64_t cq = -1;
        for (int64_t q = hi; q >= 0; q--) {
            if (!queue[static_cast<size_t>(q)].empty()) {
                cq = q;
                break;
            }
        }
        if (cq < 0) {
            out += fmt("[ time %lld ] IDLE\n", static_cast<long long>(now));
            now++;
            continue;
        }
        std::deque<size_t>& dq = queue[static_cast<size_t>(cq)];
        const size_t id = dq.front();
        Job& j = jobs[id];
        if (j.pri != cq)
            throw OstepError(fmt("currPri[%lld] does not match currQueue[%lld]", static_cast<long long>(j.pri),
                                 static_cast<long long>(cq)));
        j.left--;
        j.ticks--;
        if (j.first_run == -1) j.first_run = now;
        const int64_t ticks = j.ticks;
        out += fmt("[ time %lld ] Run JOB %zu at PRIORITY %lld [ TICKS %lld ALLOT %lld TIME %lld (of %lld) ]\n",
                   static_cast<long long>(now), id, static_cast<long long>(cq), static_cast<long long>(ticks),
                   static_cast<long long>(j.allot), static_cast<long long>(j.left), static_cast<long long>(j.run));
        if (j.left < 0) throw OstepError("Error: should never have less than 0 time left to run");
        now++;
        if (j.left == 0) {
            out += fmt("[ time %lld ] FINISHED JOB %zu\n", static_cast<long long>(now), id);
            finished++;
            j.end = now;
            dq.pop_front();
            continue;
        }
        bool issued_io = false;
        if (j.iofreq > 0 && (j.run - j.left) % j.iofreq == 0) {
            out += fmt("[ time %lld ] IO_START by JOB %zu\n", static_cast<long long>(now), id);
            issued_io = true;
            dq.pop_front();
            j.doing_io = true;
            if (stay) {
                j.ticks = quantum[static_cast<size_t>(cq)];
                j.allot = allotment[static_cast<size_t>(cq)];
            }
            out += "IO DONE\n";
            events[now + io_time].push_back({id, false});
        }
        if (ticks == 0) {
            if (!issued_io) dq.pop_front();
            j.allot--;
            if (j.allot == 0) {
                const int64_t to = cq > 0 ? cq - 1 : cq;
                j.pri = to;
                j.ticks = quantum[static_cast<size_t>(to)];
                j.allot = allotment[static_cast<size_t>(to)];
                if (!issued_io) queue[static_cast<size_t>(to)].push_back(id);
            } else {
                j.ticks = quantum[static_cast<size_t>(cq)];
                if (!issued_io) dq.push_back(id);
            }
        }
    }
    out += "\nFinal statistics:\n";
    int64_t rsum = 0, tsum = 0;
    for (size_t i = 0; i < jobs.size(); i++) {
        const int64_t response = jobs[i].first_run - jobs[i].start, turnaround = jobs[i].end - jobs[i].start;
        out += fmt("  Job %2zu: startTime %3lld - response %3lld - turnaround %3lld\n", i,
                   static_cast<long long>(jobs[i].start), static_cast<long long>(response),
                   static_cast<long long>(turnaround));
        rsum += response;
        tsum += turnaround;
    }
    const double n = static_cast<double>(jobs.size());
    out += fmt("\n  Avg %2zu: startTime n/a - response %.2f - turnaround %.2f\n\n\n", jobs.size() - 1,
               static_cast<double>(rsum) / n, static_cast<double>(tsum) / n);
}

}  // namespace schedsim::ostep
