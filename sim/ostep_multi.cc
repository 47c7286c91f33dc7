// sim/ostep_multi.cc - `schedsim ostep multi`: cpu-sched-multi/multi.py of
// OSTEP's homework (chapter 10: multiprocessor scheduling with per-CPU
// caches, one central queue or per-CPU queues with work stealing).
//
// Design. A tick-by-tick replay of the script's model, so the trace, the
// "Finished time" and the per-CPU utilisation/warm figures are the
// script's. Each tick, in the script's order: at a multiple of the quantum
// (-q, not at 0) every running CPU puts its job at the back of its queue
// (the central queue, in CPU order, or its own); at a multiple of the peek
// interval (-P, with -p) each CPU with an empty queue, in CPU order, picks
// another CPU with Python's random.choice and takes the first job there it
// may run; each idle CPU (in CPU order, or a random.shuffle'd order with
// -o, shuffled every tick) takes the first job of its queue its affinity
// allows; each running CPU runs its job one tick at rate -r if the job is
// in its cache, else 1. A cache holds jobs whose working sets fit (-M);
// a job must run -w ticks on a CPU (counted only while it runs there) to
// enter that CPU's cache, at the front; the back is evicted while the sum
// is too big, and an evicted job starts warming again. The script's quirks
// are kept: the warm-up tick itself runs cold; a job alone too big for the
// cache is evicted at once; stealing tests a job with affinity by "cpu in
// job" on the script's tuple, i.e. whether its run time or working set
// equals the thief's number. Random draws use CPython's generator
// (py_random.h), so -s with random jobs, -o and stealing match Python 3.
//
// Where the script crashes or never ends (no CPUs, quantum below 1, a warm
// rate below 1, stealing on one CPU, a negative cache size, jobs left in
// queues of CPUs they may not run on) this one reports it instead: one
// error line, status 2.
#include <algorithm>
#include <deque>
#include <map>

#include "sim/ostep.h"
#include "sim/ostep_flags.h"
#include "sim/py_random.h"

namespace schedsim::ostep {

namespace {

const std::vector<FlagSpec> kSpec = {
    {'s', "seed", true},         {'j', "job_num", true},
    {'R', "max_run", true},      {'W', "max_wset", true},
    {'L', "job_list", true},     {'p', "per_cpu_queues", false},
    {'A', "affinity", true},     {'n', "num_cpus", true},
    {'q', "quantum", true},      {'P', "peek_interval", true},
    {'w', "warmup_time", true},  {'r', "warm_rate", true},
    {'M', "cache_size", true},   {'o', "rand_order", false},
    {'t', "trace", false},       {'T', "trace_time_left", false},
    {'C', "trace_cache", false}, {'S', "trace_sched", false},
    {'c', "compute", false},
};

const char kHelp[] =
    "usage: schedsim ostep multi [-n CPUS] [-L name:run:wset,...] [-M CACHE] [-q QUANTUM] [-p] [-P PEEK]\n"
    "                            [-w WARMUP] [-r RATE] [-A name:cpu.cpu,...] [-o] [-t] [-T] [-C] [-S]\n"
    "                            [-j JOBS] [-R MAXRUN] [-W MAXWSET] [-s SEED] [-c]\n"
    "  OSTEP cpu-sched-multi/multi.py: -n CPUs (2), -L jobs, -M cache size (100), -q quantum (10),\n"
    "  -p per-CPU queues, -P peek interval for stealing (30; 0 off), -w warm-up time (10),\n"
    "  -r warm rate (2), -A affinity, -o random CPU order, -t/-T/-C/-S traces, -c answers.\n"
    "  Random jobs (-j/-R/-W/-s), -o and stealing draw from Python's generator, as the script.\n";

struct Job {
    std::string name;
    int64_t run, wset;
    std::vector<int64_t> affinity;  // empty: any CPU
    int64_t left;
    bool may_run_on(int64_t cpu) const {
        return affinity.empty() || std::find(affinity.begin(), affinity.end(), cpu) != affinity.end();
    }
};

// One CPU's cache: the jobs in it (front = last warmed) and those warming.
struct Cache {
    std::vector<size_t> contents, warming;
    std::map<size_t, int64_t> counter;  // ticks of warm-up left
};

bool has(const std::vector<size_t>& v, size_t j) { return std::find(v.begin(), v.end(), j) != v.end(); }

void erase(std::vector<size_t>& v, size_t j) { v.erase(std::find(v.begin(), v.end(), j)); }

// Python's repr() of a str, for the printed queue lists.
std::string py_repr(const std::string& s) {
    const bool dq = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
    const char q = dq ? '"' : '\'';
    std::string out(1, q);
    for (const char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (c == '\\' || c == q) {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else if (u < 0x20 || u == 0x7f) {
            out += fmt("\\x%02x", u);
        } else {
            out += c;
        }
    }
    return out + q;
}

class Multi {
  public:
    struct Params {
        int64_t ncpu, quantum, peek, warmup, rate, cache_size;
        bool per_cpu, rand_order, trace, trace_left, trace_cache, trace_sched, solve;
    };

    Multi(std::vector<Job> jobs, const Params& p, PyRandom& rng)
        : jobs_(std::move(jobs)),
          p_(p),
          rng_(rng),
          running_(static_cast<size_t>(p.ncpu), kIdle),
          caches_(static_cast<size_t>(p.ncpu)),
          ran_(static_cast<size_t>(p.ncpu), 0),
          warm_(static_cast<size_t>(p.ncpu), 0) {}

    void place_jobs(std::string& out);
    void run(std::string& out);

  private:
    static constexpr size_t kIdle = ~size_t{0};
    std::deque<size_t>& queue(int64_t cpu) { return queues_[p_.per_cpu ? static_cast<size_t>(cpu) : 0]; }
    void interrupts(std::string& out);
    void steal();
    void assign();
    void run_cpus(std::string& out);
    void print_queues(std::string& out);
    void cache_insert(Cache& c, size_t j);
    void cache_new_job(Cache& c, size_t j);
    void cache_update(Cache& c, size_t j);

    std::vector<Job> jobs_;
    Params p_;
    PyRandom& rng_;
    std::vector<size_t> running_;  // per CPU: its job, or kIdle
    std::vector<std::deque<size_t>> queues_;
    std::vector<Cache> caches_;
    std::vector<int64_t> ran_, warm_;
    int64_t now_ = 0;
    size_t finished_ = 0;
};

void Multi::place_jobs(std::string& out) {
    if (!p_.per_cpu) {
        queues_.resize(1);
        std::string names;
        for (size_t j = 0; j < jobs_.size(); j++) {
            queues_[0].push_back(j);
            names += (j ? ", " : "") + py_repr(jobs_[j].name);
        }
        out += "Scheduler central queue: [" + names + "]\n\n";
        return;
    }
    // Round-robin over the CPUs: each takes the first unplaced job it may run.
    queues_.resize(static_cast<size_t>(p_.ncpu));
    std::vector<size_t> left;
    for (size_t j = 0; j < jobs_.size(); j++) left.push_back(j);
    while (!left.empty()) {
        for (int64_t cpu = 0; cpu < p_.ncpu; cpu++) {
            for (size_t k = 0; k < left.size(); k++) {
                if (jobs_[left[k]].may_run_on(cpu)) {
                    queue(cpu).push_back(left[k]);
                    left.erase(left.begin() + static_cast<std::ptrdiff_t>(k));
                    break;
                }
            }
        }
    }
    for (int64_t cpu = 0; cpu < p_.ncpu; cpu++) {
        std::string names;
        for (size_t j : queue(cpu)) names += (names.empty() ? "" : ", ") + py_repr(jobs_[j].name);
        out += fmt("Scheduler CPU %lld queue: [%s]\n", static_cast<long long>(cpu), names.c_str());
    }
    out += "\n";
}

void Multi::cache_insert(Cache& c, size_t j) {
    c.contents.insert(c.contents.begin(), j);
    int64_t total = 0;
    for (size_t k : c.contents) total += jobs_[k].wset;
    while (total > p_.cache_size) {
        if (c.contents.empty())
            throw OstepError("-M: a negative cache size makes the script fail (an empty cache is still too big)");
        const size_t gone = c.contents.back();
        c.contents.pop_back();
        c.warming.push_back(gone);
        c.counter[gone] = p_.warmup;
        total -= jobs_[gone].wset;
    }
}

void Multi::cache_new_job(Cache& c, size_t j) {
    if (has(c.contents, j) || has(c.warming, j)) return;
    if (p_.warmup == 0) {
        cache_insert(c, j);
    } else {
        c.warming.push_back(j);
        c.counter[j] = p_.warmup;
    }
}

void Multi::cache_update(Cache& c, size_t j) {
    if (!has(c.warming, j)) return;
    if (--c.counter[j] <= 0) {
        erase(c.warming, j);
        cache_insert(c, j);
    }
}

void Multi::interrupts(std::string& out) {
    const bool tick_end = now_ > 0 && now_ % p_.quantum == 0;
    if (tick_end && p_.trace) {
        int64_t width = 8 + 7 * p_.ncpu - 5;
        if (p_.trace_left) width += 6 * p_.ncpu;
        if (p_.trace_cache) width += 8 * p_.ncpu + static_cast<int64_t>(jobs_.size()) * p_.ncpu;
        out += std::string(static_cast<size_t>(std::max<int64_t>(width, 0)), '-') + "\n";
    }
    if (p_.trace) out += fmt(" %3lld   ", static_cast<long long>(now_));
    if (!tick_end) return;
    for (int64_t cpu = 0; cpu < p_.ncpu; cpu++) {
        size_t& j = running_[static_cast<size_t>(cpu)];
        if (j != kIdle) {
            queue(cpu).push_back(j);
            j = kIdle;
        }
    }
}

void Multi::steal() {
    if (!p_.per_cpu || p_.peek <= 0 || now_ == 0 || now_ % p_.peek != 0) return;
    for (int64_t cpu = 0; cpu < p_.ncpu; cpu++) {
        if (!queue(cpu).empty()) continue;
        if (p_.ncpu < 2)
            throw OstepError(
                fmt("-p on one CPU: at time %lld the script's work stealing has no other CPU to peek at "
                    "(random.choice of an empty list)",
                    static_cast<long long>(now_)));
        const int64_t pick = rng_.randbelow(static_cast<uint32_t>(p_.ncpu - 1));
        const int64_t other = pick < cpu ? pick : pick + 1;
        std::deque<size_t>& from = queue(other);
        for (auto it = from.begin(); it != from.end(); ++it) {
            const Job& job = jobs_[*it];
            // The script's test: affinity empty, or cpu "in" the job's tuple.
            if (job.affinity.empty() || job.run == cpu || job.wset == cpu) {
                queue(cpu).push_back(*it);
                from.erase(it);
                break;
            }
        }
    }
}

void Multi::assign() {
    std::vector<int64_t> order;
    for (int64_t cpu = 0; cpu < p_.ncpu; cpu++) order.push_back(cpu);
    if (p_.rand_order) rng_.shuffle(order);
    for (int64_t cpu : order) {
        if (running_[static_cast<size_t>(cpu)] != kIdle) continue;
        std::deque<size_t>& q = queue(cpu);
        for (auto it = q.begin(); it != q.end(); ++it) {
            if (jobs_[*it].may_run_on(cpu)) {
                running_[static_cast<size_t>(cpu)] = *it;
                cache_new_job(caches_[static_cast<size_t>(cpu)], *it);
                q.erase(it);
                break;
            }
        }
    }
}

void Multi::run_cpus(std::string& out) {
    for (int64_t cpu = 0; cpu < p_.ncpu; cpu++) {
        const size_t c = static_cast<size_t>(cpu);
        Cache& cache = caches_[c];
        if (running_[c] != kIdle) {
            const size_t j = running_[c];
            Job& job = jobs_[j];
            const int64_t rate = has(cache.contents, j) ? p_.rate : 1;
            ran_[c]++;
            if (rate > 1) warm_[c]++;
            job.left = std::max<int64_t>(job.left - rate, 0);
            if (p_.trace) {
                out += job.name + " ";
                if (p_.trace_left) out += fmt("[%3lld] ", static_cast<long long>(job.left));
            }
            cache_update(cache, j);
            if (job.left <= 0) {
                running_[c] = kIdle;
                finished_++;
            }
        } else if (p_.trace) {
            out += "- ";
            if (p_.trace_left) out += "[   ] ";
        }
        if (p_.trace) {
            if (p_.trace_cache) {
                std::string s;
                for (size_t j = 0; j < jobs_.size(); j++) s += has(cache.contents, j) ? 'w' : ' ';
                out += "cache[" + s + "]";
            }
            out += "     ";
        }
    }
}

void Multi::print_queues(std::string& out) {
    if (!p_.trace_sched) return;
    if (p_.per_cpu) {
        for (int64_t cpu = 0; cpu < p_.ncpu; cpu++) {
            out += fmt("Q%lld: ", static_cast<long long>(cpu));
            for (size_t j : queue(cpu)) out += jobs_[j].name + " ";
            out += "  ";
        }
    } else {
        out += "Q: ";
        for (size_t j : queues_[0]) out += jobs_[j].name + " ";
    }
    out += "    ";
}

void Multi::run(std::string& out) {
    // Every CPU idle with jobs left happens only when stealing moved a job
    // to a CPU it may not run on; allow stealing many peeks to undo it.
    const int64_t stuck_limit = (p_.per_cpu && p_.peek > 0) ? p_.peek * (64 * p_.ncpu + 64) : 1;
    int64_t all_idle = 0;
    while (finished_ < jobs_.size()) {
        interrupts(out);
        steal();
        assign();
        const bool idle = std::all_of(running_.begin(), running_.end(), [](size_t j) { return j == kIdle; });
        all_idle = idle ? all_idle + 1 : 0;
        if (all_idle > stuck_limit)
            throw OstepError(
                fmt("at time %lld every CPU is idle and the jobs left wait in queues of CPUs their "
                    "affinity forbids: the script never finishes",
                    static_cast<long long>(now_)));
        run_cpus(out);
        print_queues(out);
        if (p_.trace) out += "\n";
        now_++;
    }
    if (!p_.solve) return;
    out += fmt("\nFinished time %lld\n\nPer-CPU stats\n", static_cast<long long>(now_));
    const double t = static_cast<double>(now_);
    for (int64_t cpu = 0; cpu < p_.ncpu; cpu++) {
        const size_t c = static_cast<size_t>(cpu);
        out += fmt("  CPU %lld  utilization %3.2f [ warm %3.2f ]\n", static_cast<long long>(cpu),
                   100.0 * static_cast<double>(ran_[c]) / t, 100.0 * static_cast<double>(warm_[c]) / t);
    }
    out += "\n";
}

std::string py_bool(bool b) { return b ? "True" : "False"; }

}  // namespace

void multi(const std::vector<std::string>& args, std::string& out) {
    const Flags f = parse_flags(args, kSpec);
    if (f.help) {
        out += kHelp;
        return;
    }
    const int64_t seed = f.integer("seed", 0), njobs = f.integer("job_num", 3);
    const int64_t max_run = f.integer("max_run", 100), max_wset = f.integer("max_wset", 200);
    const std::string job_list_flag = f.str("job_list", ""), affinity = f.str("affinity", "");
    Multi::Params p{};
    p.per_cpu = f.has("per_cpu_queues");
    p.ncpu = f.integer("num_cpus", 2);
    p.quantum = f.integer("quantum", 10);
    p.peek = f.integer("peek_interval", 30);
    p.warmup = f.integer("warmup_time", 10);
    p.rate = f.integer("warm_rate", 2);
    p.cache_size = f.integer("cache_size", 100);
    p.rand_order = f.has("rand_order");
    p.trace_left = f.has("trace_time_left");
    p.trace_cache = f.has("trace_cache");
    p.trace_sched = f.has("trace_sched");
    p.trace = f.has("trace") || p.trace_left || p.trace_cache || p.trace_sched;
    p.solve = f.has("compute");
    if (p.ncpu < 1 || p.ncpu > 1024) throw OstepError("-n: between 1 and 1024 CPUs");
    if (p.quantum < 1) throw OstepError("-q: the quantum must be at least 1");
    if (p.rate < 1) throw OstepError("-r: a warm rate below 1 never finishes a warm job");

    PyRandom rng(seed);
    out += fmt("ARG seed %lld\nARG job_num %lld\nARG max_run %lld\nARG max_wset %lld\n", static_cast<long long>(seed),
               static_cast<long long>(njobs), static_cast<long long>(max_run), static_cast<long long>(max_wset));
    out += "ARG job_list " + job_list_flag + "\nARG affinity " + affinity + "\n";
    out += "ARG per_cpu_queues " + py_bool(p.per_cpu) + "\n";
    out +=
        fmt("ARG num_cpus %lld\nARG quantum %lld\nARG peek_interval %lld\nARG warmup_time %lld\nARG cache_size %lld\n",
            static_cast<long long>(p.ncpu), static_cast<long long>(p.quantum), static_cast<long long>(p.peek),
            static_cast<long long>(p.warmup), static_cast<long long>(p.cache_size));
    out += "ARG random_order " + py_bool(p.rand_order) + "\nARG trace " + py_bool(f.has("trace")) +
           "\nARG trace_time " + py_bool(p.trace_left) + "\nARG trace_cache " + py_bool(p.trace_cache) +
           "\nARG trace_sched " + py_bool(p.trace_sched) + "\nARG compute " + py_bool(p.solve) + "\n\n";

    std::string job_list = job_list_flag;
    if (job_list.empty()) {
        if (njobs > 100000) throw OstepError("-j: at most 100000 jobs");
        for (int64_t j = 0; j < njobs; j++) {
            const auto run = static_cast<int64_t>(rng.random() * static_cast<double>(max_run) / 10.0) * 10;
            const auto wset = static_cast<int64_t>(rng.random() * static_cast<double>(max_wset) / 10.0) * 10;
            job_list += fmt("%s%lld:%lld:%lld", j ? "," : "", static_cast<long long>(j), static_cast<long long>(run),
                            static_cast<long long>(wset));
        }
    }
    std::vector<Job> jobs;
    std::map<std::string, size_t> by_name;
    for (const std::string& entry : split(job_list, ',')) {
        const std::vector<std::string> w = split(entry, ':');
        if (w.size() != 3)
            throw OstepError("bad job description [" + entry + "]: needs triple of name:runtime:working_set_size");
        const int64_t run = parse_int(w[1], "-L"), wset = parse_int(w[2], "-L");
        out += fmt("Job name:%s run_time:%lld working_set_size:%lld\n", w[0].c_str(), static_cast<long long>(run),
                   static_cast<long long>(wset));
        if (by_name.count(w[0])) throw OstepError("repeated job name " + w[0]);
        by_name[w[0]] = jobs.size();
        jobs.push_back({w[0], run, wset, {}, run});
    }
    out += "\n";
    if (!affinity.empty()) {
        for (const std::string& entry : split(affinity, ',')) {
            const std::vector<std::string> w = split(entry, ':');
            if (w.size() != 2) throw OstepError("bad affinity spec " + affinity);
            auto it = by_name.find(w[0]);
            if (it == by_name.end()) throw OstepError("job name " + w[0] + " in affinity list does not exist");
            for (const std::string& c : split(w[1], '.')) {
                const int64_t cpu = parse_int(c, "-A");
                if (cpu < 0 || cpu >= p.ncpu)
                    throw OstepError(
                        fmt("bad cpu %lld specified in affinity %s", static_cast<long long>(cpu), affinity.c_str()));
                jobs[it->second].affinity.push_back(cpu);
            }
        }
    }
    Multi sim(std::move(jobs), p, rng);
    sim.place_jobs(out);
    sim.run(out);
}

}  // namespace schedsim::ostep
