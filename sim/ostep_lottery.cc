// sim/ostep_lottery.cc - `schedsim ostep lottery`: cpu-sched-lottery/
// lottery.py of OSTEP's homework (chapter 9), and `schedsim ostep
// lottery-unfairness`, the chapter's fairness study.
//
// Design. lottery.py, replayed with its own draws: random.seed(S) on
// CPython's generator (py_random.h); random jobs draw a length
// int(maxlen * random()) and then tickets int(maxticket * random()), each
// again while 0; every scheduling decision draws r = int(random() *
// 1000001), the winning ticket is r % (tickets of the unfinished jobs),
// and the winner is found by walking the job list adding tickets until the
// sum passes the winner. The winner runs one quantum (its time left drops
// by the quantum, or to 0); at 0 it is done and its tickets leave the
// total. The script loops at most "sum of the lengths" times (decisions,
// not time), so with a quantum above 1 it stops at the last job's end, and
// a job with 0 tickets is never picked (its loop just runs out). Output is
// the script's under Python 3, line for line ("  Jobs:" on its own line,
// then one " (* job:N timeleft:T tix:K ) " per job).
//
// lottery-unfairness: U = (finish time of the first of two equal jobs) /
// (finish time of the second), OSTEP figure 9.2, against the job length.
// Three columns: lottery.py's model (mean, min and max over seeds 0..N-1,
// with Python's draws), quanta's lib/sched Lottery policy (the kernel's
// code, its own integer PRNG, mean over the same number of seeds) and
// lib/sched Stride (deterministic). Both lib policies are driven through
// the Policy protocol (pick, charge one quantum, enqueue or stop).
//
// Where the script crashes or never ends (a malformed -l entry, negative
// tickets, no tickets left to draw from, -m or -T below 2 for random
// jobs) this one reports it: one error line, status 2.
#include <algorithm>
#include <deque>

#include "lib/sched/lottery.h"
#include "lib/sched/stride.h"
#include "sim/ostep.h"
#include "sim/ostep_flags.h"
#include "sim/py_random.h"

namespace schedsim::ostep {

namespace {

const std::vector<FlagSpec> kSpec = {
    {'s', "seed", true},      {'j', "jobs", true},    {'l', "jlist", true},    {'m', "maxlen", true},
    {'T', "maxticket", true}, {'q', "quantum", true}, {'c', "compute", false},
};

const char kHelp[] =
    "usage: schedsim ostep lottery [-l LEN:TICKETS,...] [-q QUANTUM] [-j JOBS] [-m MAXLEN] [-T MAXTICKET]\n"
    "                              [-s SEED] [-c]\n"
    "  OSTEP cpu-sched-lottery/lottery.py: -l jobs as run time:tickets (else -j random jobs, 3, of\n"
    "  length below -m, 10, and tickets below -T, 100), -q quantum (1), -s seed (0), -c answers.\n"
    "  Every draw is Python's random() after random.seed(SEED): the script's numbers.\n";

struct Job {
    int64_t num, left, tickets;
};

// One lottery.py run (-c): the trace into out (if not null), each job's
// finish time into done (-1 if it never finished).
void solve(std::vector<Job> jobs, int64_t quantum, int64_t run_total, PyRandom& rng, std::string* out,
           std::vector<int64_t>& done) {
    int64_t total = 0;
    for (const Job& j : jobs) total += j.tickets;
    done.assign(jobs.size(), -1);
    size_t unfinished = jobs.size();
    int64_t clock = 0;
    for (int64_t i = 0; i < run_total; i++) {
        const auto r = static_cast<int64_t>(rng.random() * 1000001.0);
        if (total <= 0) throw OstepError("no tickets left to draw from (the script divides by zero)");
        const int64_t winner = r % total;
        size_t w = 0;
        for (int64_t sum = 0; w < jobs.size(); w++) {
            sum += jobs[w].tickets;
            if (sum > winner) break;
        }
        if (out) {
            *out +=
                fmt("Random %lld -> Winning ticket %lld (of %lld) -> Run %lld\n  Jobs:\n", static_cast<long long>(r),
                    static_cast<long long>(winner), static_cast<long long>(total), static_cast<long long>(jobs[w].num));
            for (size_t k = 0; k < jobs.size(); k++) {
                const std::string tix = jobs[k].left > 0 ? fmt("%lld", static_cast<long long>(jobs[k].tickets)) : "---";
                *out += fmt(" (%s job:%lld timeleft:%lld tix:%s ) ", k == w ? "*" : " ",
                            static_cast<long long>(jobs[k].num), static_cast<long long>(jobs[k].left), tix.c_str());
            }
            *out += "\n";
        }
        Job& job = jobs[w];
        job.left = job.left >= quantum ? job.left - quantum : 0;
        clock += quantum;
        if (job.left == 0) {
            if (out)
                *out += fmt("--> JOB %lld DONE at time %lld\n", static_cast<long long>(job.num),
                            static_cast<long long>(clock));
            done[w] = clock;
            total -= job.tickets;
            job.tickets = 0;
            unfinished--;
        }
        if (unfinished == 0) {
            if (out) *out += "\n";
            break;
        }
    }
}

}  // namespace

void lottery(const std::vector<std::string>& args, std::string& out) {
    const Flags f = parse_flags(args, kSpec);
    if (f.help) {
        out += kHelp;
        return;
    }
    const int64_t seed = f.integer("seed", 0), njobs = f.integer("jobs", 3), maxlen = f.integer("maxlen", 10);
    const int64_t maxticket = f.integer("maxticket", 100), quantum = f.integer("quantum", 1);
    const std::string jlist = f.str("jlist", "");
    PyRandom rng(seed);
    out += "ARG jlist " + jlist + "\n";
    out += fmt("ARG jobs %lld\nARG maxlen %lld\nARG maxticket %lld\nARG quantum %lld\nARG seed %lld\n\n",
               static_cast<long long>(njobs), static_cast<long long>(maxlen), static_cast<long long>(maxticket),
               static_cast<long long>(quantum), static_cast<long long>(seed));
    out += "Here is the job list, with the run time of each job: \n";
    std::vector<Job> jobs;
    int64_t run_total = 0;
    if (jlist.empty()) {
        if (njobs > 100000) throw OstepError("-j: at most 100000 jobs");
        if (njobs > 0 && (maxlen < 2 || maxticket < 2))
            throw OstepError("-m and -T: at least 2 for random jobs (the script draws until it gets a non-zero value)");
        for (int64_t j = 0; j < njobs; j++) {
            int64_t len = 0, tickets = 0;
            while (len == 0) len = static_cast<int64_t>(static_cast<double>(maxlen) * rng.random());
            while (tickets == 0) tickets = static_cast<int64_t>(static_cast<double>(maxticket) * rng.random());
            jobs.push_back({j, len, tickets});
        }
    } else {
        int64_t num = 0;
        for (const std::string& entry : split(jlist, ',')) {
            const std::vector<std::string> w = split(entry, ':');
            if (w.size() != 2) throw OstepError("-l: '" + entry + "' is not run time:tickets");
            const int64_t tickets = parse_int(w[1], "-l");
            if (tickets < 0) throw OstepError("-l: negative tickets in '" + entry + "'");
            jobs.push_back({num++, parse_int(w[0], "-l"), tickets});
        }
    }
    for (const Job& j : jobs) {
        run_total += j.left;
        out += fmt("  Job %lld ( length = %lld, tickets = %lld )\n", static_cast<long long>(j.num),
                   static_cast<long long>(j.left), static_cast<long long>(j.tickets));
    }
    out += "\n\n";
    if (run_total > 100000000) throw OstepError("-l: at most 10^8 time units in all");
    if (!f.has("compute")) {
        out += "Here is the set of random numbers you will need (at most):\n";
        for (int64_t i = 0; i < run_total; i++)
            out += fmt("Random %lld\n", static_cast<long long>(rng.random() * 1000001.0));
        return;
    }
    out += "** Solutions **\n\n";
    std::vector<int64_t> done;
    solve(jobs, quantum, run_total, rng, &out, done);
}

namespace {

const std::vector<FlagSpec> kUnfairSpec = {
    {'l', "lengths", true}, {'n', "seeds", true}, {'t', "tickets", true}, {'q', "quantum", true}};

const char kUnfairHelp[] =
    "usage: schedsim ostep lottery-unfairness [-l L1,L2,...] [-n SEEDS] [-t TICKETS] [-q QUANTUM]\n"
    "  OSTEP chapter 9's unfairness U = first finish / second finish of two jobs of equal length\n"
    "  (-l lengths, 1,2,5,10,20,50,100,200,500,1000) and tickets (-t, 100), quantum -q (1):\n"
    "  lottery.py's draws (mean, min, max over seeds 0..-n-1, 100), lib/sched lottery (mean over\n"
    "  as many seeds) and lib/sched stride.\n";

struct Two {
    q::sched::Entity e[2];
    int64_t left[2];
};

// Two equal jobs through a lib/sched policy: U, or -1 if one never ran out.
double policy_unfairness(q::sched::Policy& p, int64_t len, int64_t tickets, int64_t quantum) {
    Two t;
    int64_t finish[2] = {-1, -1};
    for (int i = 0; i < 2; i++) {
        t.e[i].weight = static_cast<q::u32>(tickets);
        t.e[i].owner = &t.left[i];
        t.left[i] = len;
        p.enqueue(t.e[i], 0);
    }
    int64_t now = 0;
    while (q::sched::Entity* e = p.pick(0, static_cast<q::sched::Time>(now))) {
        const int i = e == &t.e[0] ? 0 : 1;
        const int64_t ran = std::min(quantum, t.left[i]);
        now += quantum;  // as lottery.py: the clock advances a whole quantum
        t.left[i] -= ran;
        p.charge(*e, static_cast<q::sched::Time>(quantum));
        if (t.left[i] > 0) {
            p.enqueue(*e, static_cast<q::sched::Time>(now));
        } else {
            p.stop(*e);
            finish[i] = now;
        }
    }
    const int64_t first = std::min(finish[0], finish[1]), second = std::max(finish[0], finish[1]);
    return static_cast<double>(first) / static_cast<double>(second);
}

}  // namespace

void lottery_unfairness(const std::vector<std::string>& args, std::string& out) {
    const Flags f = parse_flags(args, kUnfairSpec);
    if (f.help) {
        out += kUnfairHelp;
        return;
    }
    const int64_t seeds = f.integer("seeds", 100), tickets = f.integer("tickets", 100);
    const int64_t quantum = f.integer("quantum", 1);
    if (seeds < 1 || seeds > 100000) throw OstepError("-n: between 1 and 100000 seeds");
    if (tickets < 1 || tickets > 1000000) throw OstepError("-t: between 1 and 1000000 tickets");
    if (quantum < 1) throw OstepError("-q: the quantum must be at least 1");
    std::vector<int64_t> lengths;
    for (const std::string& w : split(f.str("lengths", "1,2,5,10,20,50,100,200,500,1000"), ',')) {
        const int64_t len = parse_int(w, "-l");
        if (len < 1 || len > 1000000) throw OstepError("-l: lengths between 1 and 1000000");
        lengths.push_back(len);
    }
    if (static_cast<double>(seeds) * 2.0 * static_cast<double>(lengths.size()) *
            static_cast<double>(*std::max_element(lengths.begin(), lengths.end())) >
        4e9)
        throw OstepError("-n and -l: too much work (seeds x lengths above 2 x 10^9)");

    out += fmt("# U = first finish / second finish, two jobs of equal length, %lld tickets each, quantum %lld\n",
               static_cast<long long>(tickets), static_cast<long long>(quantum));
    out +=
        fmt("# lottery.py: Python's draws, seeds 0..%lld (mean, min, max); lib-lottery: lib/sched Lottery,\n"
            "# mean over %lld seeds; stride: lib/sched Stride (big 2^32, deterministic)\n",
            static_cast<long long>(seeds - 1), static_cast<long long>(seeds));
    out += "# length  lottery.py  min     max     lib-lottery  stride\n";
    for (const int64_t len : lengths) {
        double sum = 0, lo = 2, hi = -1, lib_sum = 0;
        for (int64_t s = 0; s < seeds; s++) {
            PyRandom rng(s);
            std::vector<int64_t> done;
            solve({{0, len, tickets}, {1, len, tickets}}, quantum, 2 * len, rng, nullptr, done);
            const double u =
                static_cast<double>(std::min(done[0], done[1])) / static_cast<double>(std::max(done[0], done[1]));
            sum += u;
            lo = std::min(lo, u);
            hi = std::max(hi, u);
            q::sched::Lottery lot(static_cast<q::u64>(s) + 1);
            lib_sum += policy_unfairness(lot, len, tickets, quantum);
        }
        q::sched::Stride stride(q::sched::kStrideBig, static_cast<q::sched::Time>(quantum));
        const double su = policy_unfairness(stride, len, tickets, quantum);
        out += fmt("%8lld  %10.4f  %.4f  %.4f  %11.4f  %.4f\n", static_cast<long long>(len),
                   sum / static_cast<double>(seeds), lo, hi, lib_sum / static_cast<double>(seeds), su);
    }
}

}  // namespace schedsim::ostep
