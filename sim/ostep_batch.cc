// sim/ostep_batch.cc - `schedsim ostep batch`: chapter 7's policies with
// arrival times, which scheduler.py lacks (all its jobs arrive at 0), so
// the chapter's STCF example and SJF's late arrivals can be worked too.
//
// Design. Jobs are LENGTH[@ARRIVAL] in whole time units. A one-CPU tick
// loop drives lib/sched's policies through the Policy protocol: Fifo, Sjf
// and Stcf (lib/sched/batch.h, told each job's work left by a JobWork) and
// RoundRobin (lib/sched/rr.h) for RR. Each tick, the jobs arriving then are
// enqueued in job order, then the CPU picks if it is free: a batch policy
// re-picks every tick (the running job is put back after each tick, and
// resumes first unless STCF finds strictly less work); RR keeps its job
// for a quantum (-q), then puts it back behind the arrivals of that tick.
// The output follows scheduler.py's: a trace of runs ("[ time T ] Run job
// J for D secs", consecutive ticks merged) and "Final statistics" with
// response = first run - arrival, turnaround = finish - arrival, wait =
// turnaround - length, and their averages ("%3.2f").
#include <memory>

#include "lib/sched/batch.h"
#include "lib/sched/rr.h"
#include "sim/ostep.h"
#include "sim/ostep_flags.h"

namespace schedsim::ostep {

namespace {

const std::vector<FlagSpec> kSpec = {
    {'p', "policy", true}, {'l', "jlist", true}, {'q', "quantum", true}, {'c', "solve", false}};

const char kHelp[] =
    "usage: schedsim ostep batch -l LEN[@ARRIVAL],... [-p FIFO|SJF|STCF|RR] [-q QUANTUM] [-c]\n"
    "  OSTEP chapter 7 with arrival times (scheduler.py has none): -l job lengths, each with an\n"
    "  optional arrival time (10@5: length 10, arrives at 5), -p policy (FIFO), -q RR quantum (1),\n"
    "  -c print the answers. The policies are lib/sched's (batch.h, rr.h).\n";

struct Job {
    q::sched::Entity e;
    int num = 0;
    int64_t length = 0, arrival = 0, left = 0;
    int64_t first_run = -1, finish = -1;
};

const Job& job_of(const q::sched::Entity& e) { return *static_cast<const Job*>(e.owner); }

struct WorkLeft final : q::sched::JobWork {
    bool shorter(const q::sched::Entity& a, const q::sched::Entity& b) const override {
        return job_of(a).left < job_of(b).left;
    }
};

}  // namespace

void batch(const std::vector<std::string>& args, std::string& out) {
    const Flags f = parse_flags(args, kSpec);
    if (f.help) {
        out += kHelp;
        return;
    }
    const std::string policy = f.str("policy", "FIFO"), jlist = f.str("jlist", "");
    const int64_t quantum = f.integer("quantum", 1);
    if (jlist.empty()) throw OstepError("-l: give the job lengths (LEN[@ARRIVAL],...)");
    if (quantum < 1) throw OstepError("-q: the quantum must be at least 1");
    const WorkLeft work;
    q::sched::Fifo fifo;
    q::sched::Sjf sjf(work);
    q::sched::Stcf stcf(work);
    q::sched::RoundRobin rr;
    q::sched::Policy* p = policy == "FIFO"   ? static_cast<q::sched::Policy*>(&fifo)
                          : policy == "SJF"  ? static_cast<q::sched::Policy*>(&sjf)
                          : policy == "STCF" ? static_cast<q::sched::Policy*>(&stcf)
                          : policy == "RR"   ? static_cast<q::sched::Policy*>(&rr)
                                             : nullptr;
    if (!p) throw OstepError("-p: FIFO, SJF, STCF or RR, not '" + policy + "'");

    const std::vector<std::string> words = split(jlist, ',');
    if (words.size() > 10000) throw OstepError("-l: at most 10000 jobs");
    const std::unique_ptr<Job[]> jobs(new Job[words.size()]);
    const size_t n = words.size();
    for (size_t i = 0; i < n; i++) {
        const std::vector<std::string> w = split(words[i], '@');
        if (w.size() > 2) throw OstepError("-l: '" + words[i] + "' is not LEN[@ARRIVAL]");
        Job& j = jobs[i];
        j.num = static_cast<int>(i);
        j.length = j.left = parse_int(w[0], "-l");
        j.arrival = w.size() == 2 ? parse_int(w[1], "-l") : 0;
        j.e.owner = &j;
        if (j.length < 1 || j.length > 1000000 || j.arrival < 0 || j.arrival > 1000000)
            throw OstepError("-l: lengths from 1 and arrival times from 0, up to 10^6");
    }
    out += "ARG policy " + policy + "\nARG jlist " + jlist + "\n";
    if (policy == "RR") out += fmt("ARG quantum %lld\n", static_cast<long long>(quantum));
    out += "\nHere is the job list, with the run time and arrival time of each job: \n";
    for (size_t i = 0; i < n; i++)
        out += fmt("  Job %zu ( length = %lld, arrival = %lld )\n", i, static_cast<long long>(jobs[i].length),
                   static_cast<long long>(jobs[i].arrival));
    out += "\n\n";
    if (!f.has("solve")) {
        out +=
            "Compute the turnaround time, response time, and wait time for each job.\n"
            "Run again with -c for the answers.\n\n";
        return;
    }

    out += "** Solutions **\n\nExecution trace:\n";
    Job* running = nullptr;
    int64_t slice_used = 0, run_start = 0;
    Job* run_job = nullptr;  // the job of the run being traced
    auto flush = [&](int64_t now) {
        if (run_job)
            out += fmt("  [ time %3lld ] Run job %3d for %.2f secs%s\n", static_cast<long long>(run_start),
                       run_job->num, static_cast<double>(now - run_start),
                       run_job->finish == now ? fmt(" ( DONE at %.2f )", static_cast<double>(now)).c_str() : "");
        run_job = nullptr;
    };
    size_t finished = 0;
    for (int64_t now = 0; finished < n; now++) {
        for (size_t i = 0; i < n; i++) {
            if (jobs[i].arrival == now) p->enqueue(jobs[i].e, static_cast<q::sched::Time>(now));
        }
        const bool rr_mode = p == &rr;
        if (running && (!rr_mode || slice_used >= quantum)) {
            p->enqueue(running->e, static_cast<q::sched::Time>(now));  // put back after its slice
            running = nullptr;
        }
        if (!running) {
            q::sched::Entity* e = p->pick(0, static_cast<q::sched::Time>(now));
            running = e ? static_cast<Job*>(e->owner) : nullptr;
            slice_used = 0;
        }
        if (running != run_job) {
            flush(now);
            if (running) {
                run_job = running;
                run_start = now;
            }
        }
        if (!running) continue;
        if (running->first_run < 0) running->first_run = now;
        running->left--;
        slice_used++;
        p->charge(running->e, 1);
        if (running->left == 0) {
            running->finish = now + 1;
            p->stop(running->e);
            running = nullptr;
            flush(now + 1);
            finished++;
        }
    }
    out += "\nFinal statistics:\n";
    double rsum = 0, tsum = 0, wsum = 0;
    for (size_t i = 0; i < n; i++) {
        const Job& j = jobs[i];
        const auto r = static_cast<double>(j.first_run - j.arrival), t = static_cast<double>(j.finish - j.arrival);
        const double w = t - static_cast<double>(j.length);
        out += fmt("  Job %3zu -- Response: %3.2f  Turnaround %3.2f  Wait %3.2f\n", i, r, t, w);
        rsum += r;
        tsum += t;
        wsum += w;
    }
    const auto count = static_cast<double>(n);
    out += fmt("\n  Average -- Response: %3.2f  Turnaround %3.2f  Wait %3.2f\n\n", rsum / count, tsum / count,
               wsum / count);
}

}  // namespace schedsim::ostep
