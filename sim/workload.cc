// sim/workload.cc - fixed task lists: the idealised workload and workload
// files. A file has one task a line: "arrival runtime level block_chance
// [cpus=LIST] [request=N]" (runtime 0 or "inf" = never finishes; LIST: the
// cores the task may run on, e.g. 0,2-3, honoured by --queues percpu; N: its
// EEVDF request size in ticks, 0 = --slice, ignored by other policies), '#'
// starts a comment. Lines are sorted by arrival (stable), so the file need
// not be.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "lib/sched/cpu_list.h"
#include "sim/sim.h"

namespace schedsim {

namespace {

std::vector<TaskSpec> idealised(const Config& cfg) {
    std::vector<TaskSpec> v(cfg.tasks);
    for (uint64_t pid = 0; pid < cfg.tasks; pid++) {
        v[pid].runtime = kForever;
        v[pid].level = static_cast<uint8_t>(pid % q::sched::kLevels);
    }
    return v;
}

TaskSpec parse_line(const std::string& line, const std::string& where) {
    std::istringstream in(line);
    std::string runtime;
    long long arrival = -1, level = -1;
    double chance = -1;
    TaskSpec s;
    if (!(in >> arrival >> runtime >> level >> chance))
        throw std::runtime_error(where + ": expected 'arrival runtime level block_chance'");
    std::vector<std::string> extra;
    for (std::string w; in >> w;) extra.push_back(w);
    const size_t used = parse_options(extra, 0, s, where);
    if (used < extra.size()) throw std::runtime_error(where + ": unexpected text '" + extra[used] + "'");
    if (arrival < 0) throw std::runtime_error(where + ": arrival must be >= 0");
    if (level < 0 || level >= static_cast<long long>(q::sched::kLevels))
        throw std::runtime_error(where + ": level must be 0..39");
    if (chance < 0 || chance > 1) throw std::runtime_error(where + ": block_chance must be in [0, 1]");
    if (runtime == "inf") {
        s.runtime = kForever;
    } else {
        size_t used = 0;
        long long rt = -1;
        try {
            rt = std::stoll(runtime, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != runtime.size() || rt < 0) throw std::runtime_error(where + ": runtime must be >= 0 or 'inf'");
        s.runtime = rt == 0 ? kForever : static_cast<uint64_t>(rt);
    }
    s.arrival = static_cast<uint64_t>(arrival);
    s.level = static_cast<uint8_t>(level);
    s.block_chance = chance;
    return s;
}

}  // namespace

uint64_t parse_cpus(const std::string& list, const std::string& where) {
    const auto bad = [&](const std::string& why) {
        return std::runtime_error(where + ": cpus=" + list + ": " + why + " (expected e.g. cpus=0,2-3)");
    };
    uint64_t mask = 0;
    size_t i = 0;
    const auto num = [&]() -> unsigned {
        size_t start = i;
        unsigned v = 0;
        while (i < list.size() && list[i] >= '0' && list[i] <= '9' && i - start < 3) v = v * 10 + (list[i++] - '0');
        if (i == start) throw bad("a core number is missing");
        if (v >= q::sched::kMaxCpus) throw bad("cores are 0.." + std::to_string(q::sched::kMaxCpus - 1));
        return v;
    };
    while (true) {
        const unsigned lo = num();
        unsigned hi = lo;
        if (i < list.size() && list[i] == '-') {
            i++;
            hi = num();
            if (hi < lo) throw bad("a range runs backwards");
        }
        for (unsigned c = lo; c <= hi; c++) mask |= uint64_t{1} << c;
        if (i == list.size()) return mask;
        if (list[i] != ',') throw bad("unexpected '" + std::string(1, list[i]) + "'");
        i++;
    }
}

uint64_t parse_request(const std::string& value, const std::string& where) {
    if (value.empty() || value.size() > 10 || value.find_first_not_of("0123456789") != std::string::npos ||
        std::stoull(value) > 1000000000ull)
        throw std::runtime_error(where + ": request=" + value + ": expected ticks in [0, 10^9] (0 = --slice)");
    return std::stoull(value);
}

size_t parse_options(const std::vector<std::string>& tok, size_t i, TaskSpec& s, const std::string& where) {
    bool cpus = false, request = false;
    for (; i < tok.size(); i++) {
        if (!cpus && tok[i].rfind("cpus=", 0) == 0) {
            s.affinity = parse_cpus(tok[i].substr(5), where);
            cpus = true;
        } else if (!request && tok[i].rfind("request=", 0) == 0) {
            s.request = parse_request(tok[i].substr(8), where);
            request = true;
        } else {
            break;
        }
    }
    return i;
}

std::vector<TaskSpec> read_task_file(const std::string& path, const char* what,
                                     TaskSpec (*parse)(const std::string& line, const std::string& where)) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(std::string("cannot open ") + what + " file '" + path + "'");
    std::vector<TaskSpec> v;
    std::string line;
    for (int n = 1; std::getline(in, line); n++) {
        const auto hash = line.find('#');
        if (hash != std::string::npos) line.erase(hash);
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        v.push_back(parse(line, path + ":" + std::to_string(n)));
        v.back().order = v.size() - 1;
        v.back().line = static_cast<size_t>(n);
    }
    std::stable_sort(v.begin(), v.end(), [](const TaskSpec& a, const TaskSpec& b) { return a.arrival < b.arrival; });
    return v;
}

namespace {

std::vector<TaskSpec> from_file(const std::string& path) { return read_task_file(path, "workload", parse_line); }

}  // namespace

namespace {

std::vector<TaskSpec> load(const Config& cfg) {
    switch (cfg.workload) {
        case WorkloadKind::Idealised:
            return idealised(cfg);
        case WorkloadKind::File:
            return from_file(cfg.workload_file);
        case WorkloadKind::Replay:
            return load_replay(cfg.workload_file);
        case WorkloadKind::Random:
            return {};
    }
    return {};
}

}  // namespace

// A task's cpus= and each "at TICK cpus LIST" follow the kernel's
// setaffinity (and Linux's sched_setaffinity): a list is refused only if it
// names no core below --cores; cores at or beyond it are kept in the mask
// and never used (a workload written for 4 cores runs on 2, a trace's mask
// set with taskset ff replays).
std::vector<TaskSpec> load_workload(const Config& cfg) {
    std::vector<TaskSpec> v = load(cfg);
    const uint64_t cores = q::sched::cpus_below(cfg.cores);
    const std::string below = " names no core below --cores " + std::to_string(cfg.cores);
    for (const TaskSpec& s : v) {
        const auto where = [&] { return cfg.workload_file + ":" + std::to_string(s.line) + ": "; };
        if ((s.affinity & cores) == 0)
            throw std::runtime_error(where() + "cpus=" + q::sched::cpu_list(s.affinity).s + below);
        for (const TaskChange& c : s.changes) {
            if (c.cpus && (c.cpus & cores) == 0)
                throw std::runtime_error(where() + "'at " + std::to_string(c.tick) + " cpus " +
                                         q::sched::cpu_list(c.cpus).s + "'" + below);
        }
    }
    return v;
}

}  // namespace schedsim
