// sim/ostep_scheduler.cc - `schedsim ostep scheduler`: cpu-sched/scheduler.py
// of OSTEP's homework (chapter 7: FIFO, SJF, RR; response, turnaround and
// wait time of jobs that all arrive at time 0).
//
// Design. The script's arithmetic is Python floats, i.e. IEEE doubles; the
// figures here are computed with doubles in the same order of operations
// (FIFO/SJF: one running sum; RR: a queue, the time a job last ran, the
// wait accumulated between its runs), so every printed figure is the
// script's own, rounding included. Its output is reproduced line for line
// (the "%3d" of a float time truncates, as Python's does). The run order of
// FIFO and SJF comes from lib/sched's Fifo and Sjf policies (batch.h); SJF
// breaks ties by arrival, as Python's stable sorted() does. RR keeps the
// script's own queue, whose float quantum arithmetic the figures need.
// Lengths given with -l are floats (printed as Python's str(): "10.0");
// random ones (-j/-m/-s) are integers int(maxlen * random()) + 1 drawn from
// CPython's generator (py_random.h), so a seed gives the script's jobs
// (under Python 2 or 3: random() is the same in both). Where the script would crash or loop (no jobs, a
// quantum below 1, a negative or unreadable length) this one reports the
// bad flag instead.
#include <deque>
#include <memory>

#include "lib/sched/batch.h"

#include "sim/ostep.h"
#include "sim/ostep_flags.h"
#include "sim/py_random.h"

namespace schedsim::ostep {

namespace {

struct Job {
    int num;
    double length;
    bool whole;  // a random (integer) length: printed without ".0"
};

const std::vector<FlagSpec> kSpec = {
    {'s', "seed", true},   {'j', "jobs", true},    {'l', "jlist", true},  {'m', "maxlen", true},
    {'p', "policy", true}, {'q', "quantum", true}, {'c', "solve", false},
};

const char kHelp[] =
    "usage: schedsim ostep scheduler [-p FIFO|SJF|RR] [-l L1,L2,...] [-q QUANTUM] [-j JOBS] [-m MAXLEN] [-s SEED] "
    "[-c]\n"
    "  OSTEP cpu-sched/scheduler.py: -p policy (FIFO), -l job lengths (else -j random jobs, 3, of\n"
    "  length 1..-m, 10, from seed -s, 0), -q RR time slice (1), -c print the answers.\n"
    "  Random jobs are Python's for the same seed, so every figure is the script's.\n";

void stats_line(std::string& out, int num, double response, double turnaround, double wait) {
    out += fmt("  Job %3d -- Response: %3.2f  Turnaround %3.2f  Wait %3.2f\n", num, response, turnaround, wait);
}

void average_line(std::string& out, double r, double t, double w, double count) {
    out += fmt("\n  Average -- Response: %3.2f  Turnaround %3.2f  Wait %3.2f\n\n", r / count, t / count, w / count);
}

long long trunc_time(double t) { return static_cast<long long>(t); }

// The order FIFO or SJF runs the jobs in, decided by lib/sched's Fifo or Sjf
// policy (batch.h): all jobs arrive at 0 in job order; each runs to its end.
struct Lengths final : q::sched::JobWork {
    bool shorter(const q::sched::Entity& a, const q::sched::Entity& b) const override {
        return static_cast<const Job*>(a.owner)->length < static_cast<const Job*>(b.owner)->length;
    }
};

std::vector<Job> run_order(const std::vector<Job>& jobs, bool sjf) {
    const Lengths lengths;
    q::sched::Fifo fifo;
    q::sched::Sjf shortest(lengths);
    q::sched::Policy& p = sjf ? static_cast<q::sched::Policy&>(shortest) : static_cast<q::sched::Policy&>(fifo);
    const std::unique_ptr<q::sched::Entity[]> e(new q::sched::Entity[jobs.size()]);
    for (size_t i = 0; i < jobs.size(); i++) {
        e[i].owner = const_cast<Job*>(&jobs[i]);
        p.enqueue(e[i], 0);
    }
    std::vector<Job> order;
    while (q::sched::Entity* next = p.pick(0, 0)) {
        order.push_back(*static_cast<const Job*>(next->owner));
        p.stop(*next);
    }
    return order;
}

void solve_fifo(const std::vector<Job>& jobs, std::string& out) {
    out += "Execution trace:\n";
    double now = 0;
    for (const Job& j : jobs) {
        out += fmt("  [ time %3lld ] Run job %d for %.2f secs ( DONE at %.2f )\n", trunc_time(now), j.num, j.length,
                   now + j.length);
        now += j.length;
    }
    out += "\nFinal statistics:\n";
    double t = 0, rsum = 0, tsum = 0, wsum = 0;
    for (const Job& j : jobs) {
        stats_line(out, j.num, t, t + j.length, t);
        rsum += t;
        tsum += t + j.length;
        wsum += t;
        t += j.length;
    }
    average_line(out, rsum, tsum, wsum, static_cast<double>(jobs.size()));
}

void solve_rr(const std::vector<Job>& jobs, double quantum, std::string& out) {
    out += "Execution trace:\n";
    const size_t n = jobs.size();
    std::vector<double> turnaround(n, 0.0), response(n, -1.0), lastran(n, 0.0), wait(n, 0.0);
    std::deque<std::pair<int, double>> run;  // (job, time left)
    for (const Job& j : jobs) run.emplace_back(j.num, j.length);
    double now = 0;
    size_t left = n;
    while (left > 0) {
        auto [num, remaining] = run.front();
        run.pop_front();
        const size_t i = static_cast<size_t>(num);
        if (response[i] == -1.0) response[i] = now;
        wait[i] += now - lastran[i];
        double ran;
        if (remaining > quantum) {
            ran = quantum;
            out += fmt("  [ time %3lld ] Run job %3d for %.2f secs\n", trunc_time(now), num, ran);
            run.emplace_back(num, remaining - quantum);
        } else {
            ran = remaining;
            out += fmt("  [ time %3lld ] Run job %3d for %.2f secs ( DONE at %.2f )\n", trunc_time(now), num, ran,
                       now + ran);
            turnaround[i] = now + ran;
            left--;
        }
        now += ran;
        lastran[i] = now;
    }
    out += "\nFinal statistics:\n";
    double rsum = 0, tsum = 0, wsum = 0;
    for (size_t i = 0; i < n; i++) {
        tsum += turnaround[i];
        rsum += response[i];
        wsum += wait[i];
        stats_line(out, static_cast<int>(i), response[i], turnaround[i], wait[i]);
    }
    average_line(out, rsum, tsum, wsum, static_cast<double>(n));
}

}  // namespace

void scheduler(const std::vector<std::string>& args, std::string& out) {
    const Flags f = parse_flags(args, kSpec);
    if (f.help) {
        out += kHelp;
        return;
    }
    const int64_t seed = f.integer("seed", 0);
    const int64_t njobs = f.integer("jobs", 3);
    const int64_t maxlen = f.integer("maxlen", 10);
    const int64_t quantum = f.integer("quantum", 1);
    const std::string policy = f.str("policy", "FIFO");
    const std::string jlist = f.str("jlist", "");
    if (quantum < 1) throw OstepError("-q: the quantum must be at least 1");

    std::vector<Job> jobs;
    if (jlist.empty()) {
        if (njobs < 1 || njobs > 100000) throw OstepError("-j: between 1 and 100000 jobs");
        if (maxlen < 1) throw OstepError("-m: the maximum length must be at least 1");
        PyRandom rng(seed);
        for (int64_t i = 0; i < njobs; i++) {
            const double len =
                static_cast<double>(static_cast<int64_t>(static_cast<double>(maxlen) * rng.random()) + 1);
            jobs.push_back({static_cast<int>(i), len, true});
        }
    } else {
        int num = 0;
        for (const std::string& w : split(jlist, ',')) {
            const double len = parse_float(w, "-l");
            if (len < 0) throw OstepError("-l: negative job length '" + w + "'");
            jobs.push_back({num++, len, false});
        }
    }

    out += "ARG policy " + policy + "\n";
    if (jlist.empty()) {
        out += fmt("ARG jobs %lld\nARG maxlen %lld\nARG seed %lld\n", static_cast<long long>(njobs),
                   static_cast<long long>(maxlen), static_cast<long long>(seed));
    } else {
        out += "ARG jlist " + jlist + "\n";
    }
    out += "\nHere is the job list, with the run time of each job: \n";
    for (const Job& j : jobs) {
        const std::string len = j.whole ? fmt("%lld", static_cast<long long>(j.length)) : py_float(j.length);
        out += fmt("  Job %d ( length = %s )\n", j.num, len.c_str());
    }
    out += "\n\n";

    if (!f.has("solve")) {
        out +=
            "Compute the turnaround time, response time, and wait time for each job.\n"
            "When you are done, run this program again, with the same arguments,\n"
            "but with -c, which will thus provide you with the answers. You can use\n"
            "-s <somenumber> or your own job list (-l 10,15,20 for example)\n"
            "to generate different problems for yourself.\n\n";
        return;
    }
    out += "** Solutions **\n\n";
    if (policy == "SJF" || policy == "FIFO") {
        solve_fifo(run_order(jobs, policy == "SJF"), out);
    } else if (policy == "RR") {
        solve_rr(jobs, static_cast<double>(quantum), out);
    } else {
        out += "Error: Policy " + policy + " is not available.\n";
    }
}

}  // namespace schedsim::ostep
