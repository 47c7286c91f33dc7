// sim/ostep.cc - `schedsim ostep`: dispatch to the homework simulators, and
// the flag syntax and number formatting they share (see ostep.h and
// ostep_flags.h).
#include "sim/ostep.h"

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "sim/ostep_flags.h"

namespace schedsim::ostep {

std::string Flags::str(const std::string& name, const std::string& dflt) const {
    auto it = values.find(name);
    return it == values.end() ? dflt : it->second;
}

int64_t Flags::integer(const std::string& name, int64_t dflt) const {
    auto it = values.find(name);
    return it == values.end() ? dflt : parse_opt_int(it->second, "--" + name);
}

namespace {

const FlagSpec* find_long(const std::string& name, const std::vector<FlagSpec>& spec) {
    for (const FlagSpec& f : spec) {
        if (name == f.long_name) return &f;
    }
    const FlagSpec* hit = nullptr;
    for (const FlagSpec& f : spec) {
        const std::string l = f.long_name;
        if (!name.empty() && l.compare(0, name.size(), name) == 0) {
            if (hit) throw OstepError("ambiguous option: --" + name);
            hit = &f;
        }
    }
    if (!hit) throw OstepError("no such option: --" + name);
    return hit;
}

}  // namespace

Flags parse_flags(const std::vector<std::string>& args, const std::vector<FlagSpec>& spec) {
    Flags out;
    for (size_t i = 0; i < args.size(); i++) {
        const std::string& a = args[i];
        if (a == "-h" || a == "--help") {
            out.help = true;
            continue;
        }
        if (a.size() < 2 || a[0] != '-') throw OstepError("unexpected argument: " + a);
        const FlagSpec* f = nullptr;
        std::string value;
        bool attached = false;
        if (a[1] == '-') {
            std::string name = a.substr(2);
            const size_t eq = name.find('=');
            if (eq != std::string::npos) {
                value = name.substr(eq + 1);
                name.resize(eq);
                attached = true;
            }
            f = find_long(name, spec);
            if (attached && !f->takes_value) throw OstepError("--" + std::string(f->long_name) + " takes no value");
        } else {
            // "-tc" sets two boolean flags; "-tq5" also gives -q the value 5.
            for (size_t k = 1; k < a.size() && !attached; k++) {
                f = nullptr;
                for (const FlagSpec& s : spec) {
                    if (s.short_name == a[k]) f = &s;
                }
                if (!f) throw OstepError(std::string("no such option: -") + a[k]);
                if (f->takes_value && k + 1 < a.size()) {
                    value = a.substr(k + 1);
                    attached = true;
                } else if (!f->takes_value && k + 1 < a.size()) {
                    out.values[f->long_name] = "";
                }
            }
        }
        if (!f) throw OstepError("no such option: " + a);  // not reached: a has a flag letter
        if (f->takes_value && !attached) {
            if (i + 1 >= args.size()) throw OstepError(std::string("-") + f->short_name + " needs a value");
            value = args[++i];
        }
        out.values[f->long_name] = f->takes_value ? value : "";
    }
    return out;
}

int64_t parse_int(const std::string& text, const std::string& what) {
    const char* s = text.c_str();
    while (*s == ' ' || *s == '\t') s++;
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s, &end, 10);
    while (*end == ' ' || *end == '\t') end++;  // strtoll/strtod always set end
    if (end == s || *end != '\0' || errno == ERANGE || (*s != '-' && *s != '+' && (*s < '0' || *s > '9')))
        throw OstepError(what + ": invalid integer value: '" + text + "'");
    return v;
}

int64_t parse_opt_int(const std::string& text, const std::string& what) {
    std::string digits = text;
    int base = 10;
    if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        digits = text.substr(2);
    } else if (text.size() >= 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
        base = 2;
        digits = text.size() == 2 ? "0" : text.substr(2);
    } else if (!text.empty() && text[0] == '0') {
        base = 8;
    }
    if (base == 10) return parse_int(text, what);
    const char* s = digits.c_str();
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s, &end, base);
    if (digits.empty() || end == s || *end != '\0' || errno == ERANGE || *s == '-' || *s == '+' || *s == ' ')
        throw OstepError(what + ": invalid integer value: '" + text + "'");
    return v;
}

double parse_float(const std::string& text, const std::string& what) {
    const char* s = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    while (*end == ' ' || *end == '\t') end++;  // strtoll/strtod always set end
    if (end == s || *end != '\0' || !std::isfinite(v)) throw OstepError(what + ": invalid number: '" + text + "'");
    return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t at = s.find(sep, start);
        out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return out;
        start = at + 1;
    }
}

std::string py_float(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e16) return fmt("%.1f", v);
    for (int p = 1; p <= 17; p++) {
        std::string s = fmt("%.*g", p, v);
        if (std::strtod(s.c_str(), nullptr) == v) return s;
    }
    return fmt("%.17g", v);
}

std::string fmt(const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    const int n = std::vsnprintf(small, sizeof small, format, ap);
    va_end(ap);
    std::string out;
    if (n < static_cast<int>(sizeof small)) {
        out = small;
    } else {
        out.resize(static_cast<size_t>(n) + 1);
        std::vsnprintf(out.data(), out.size(), format, ap2);
        out.resize(static_cast<size_t>(n));
    }
    va_end(ap2);
    return out;
}

namespace {

const char kUsage[] =
    "usage: schedsim ostep SIMULATOR [FLAGS...]\n"
    "  OSTEP's homework simulators, with the scripts' own flags and output:\n"
    "  scheduler  cpu-sched/scheduler.py (chapter 7): -p FIFO|SJF|RR -l LENGTHS -q N -j N -s N -m N -c\n"
    "  mlfq       cpu-sched-mlfq/mlfq.py (chapter 8): -n -q -Q -a -A -l x,y,z:... -B -i -S -I -j -m -M -s -c\n"
    "  batch      chapter 7 with arrival times (not a script): -p FIFO|SJF|STCF|RR -l LEN[@ARRIVAL],... -q -c\n"
    "  lottery    cpu-sched-lottery/lottery.py (chapter 9): -l len:tickets,... -j -m -T -q -s -c\n"
    "  lottery-unfairness  chapter 9's U against job length: lottery.py, lib lottery, lib stride\n"
    "  multi      cpu-sched-multi/multi.py (chapter 10): -n -L name:run:wset,... -M -q -p -P -w -r -A -o -t -T -C -S "
    "-c\n"
    "  Output matches the scripts' exactly, random jobs (-s) included: draws come\n"
    "  from Python's generator (MT19937). SIMULATOR -h lists its flags.\n";

}  // namespace

int run(const std::vector<std::string>& args, std::string& out, std::string& err) {
    if (args.empty()) {
        err +=
            "schedsim ostep: name a simulator (scheduler, batch, mlfq, lottery, lottery-unfairness, multi); schedsim "
            "ostep -h "
            "for help\n";
        return 2;
    }
    if (args[0] == "-h" || args[0] == "--help") {
        out += kUsage;
        return 0;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
        if (args[0] == "scheduler") {
            scheduler(rest, out);
        } else if (args[0] == "mlfq") {
            mlfq(rest, out);
        } else if (args[0] == "multi") {
            multi(rest, out);
        } else if (args[0] == "batch") {
            batch(rest, out);
        } else if (args[0] == "lottery") {
            lottery(rest, out);
        } else if (args[0] == "lottery-unfairness") {
            lottery_unfairness(rest, out);
        } else {
            err += "schedsim ostep: unknown simulator '" + args[0] +
                   "' (scheduler, batch, mlfq, lottery, lottery-unfairness, multi)\n";
            return 2;
        }
    } catch (const OstepError& e) {
        err += "schedsim ostep " + args[0] + ": " + e.what() + "\n";
        return 2;
    }
    return 0;
}

}  // namespace schedsim::ostep
