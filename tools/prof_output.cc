// tools/prof_output.cc - a profile's symbolised rows, folded stacks and
// flat text (see tools/prof_output.h).
#include "tools/prof_output.h"

#include <algorithm>
#include <cinttypes>

namespace q::tools {

using prof::Mode;
using prof::Sample;

namespace {

std::string hex(const char* prefix, u64 pc) {
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%s0x%" PRIx64, prefix, pc);
    return buf;
}

bool user_mode(const Sample& s) { return s.mode == static_cast<u8>(Mode::User); }

const char* where(const Sample& s) {
    if (user_mode(s)) return "user";
    return s.pid == 0 ? "idle" : "kernel";
}

}  // namespace

bool Symboliser::load(const std::string& kernel_elf, const std::string& user_dir, std::string* err) {
    user_dir_ = user_dir;
    if (kernel_.load(kernel_elf, err)) return true;
    *err = "kernel symbols: " + *err;
    return false;
}

std::vector<std::string> Symboliser::stack(const Sample& s) {
    std::vector<std::string> out{function(s, s.pc)};
    for (u32 i = 0; i < s.depth; i++) out.push_back(caller(s.callers[i]));
    return out;
}

std::string Symboliser::caller(u64 ra) const {
    const std::string f = kernel_.lookup(ra - 2);
    return f.empty() ? hex("kernel:", ra) : f;
}

std::string Symboliser::function(const Sample& s, u64 pc) {
    if (!user_mode(s)) {
        const std::string f = kernel_.lookup(pc);
        return f.empty() ? hex("kernel:", pc) : f;
    }
    const std::string prog = sample_name(s);
    auto it = users_.find(prog);
    if (it == users_.end()) {  // an unreadable program is remembered as empty
        Symbols syms;
        std::string err;
        if (prog.empty() || prog.find('/') != std::string::npos || !syms.load(user_dir_ + "/_" + prog, &err))
            syms = Symbols();
        it = users_.emplace(prog, std::move(syms)).first;
    }
    const std::string f = it->second.lookup(pc);
    return prog + ":" + (f.empty() ? hex("", pc) : f);
}

Profile build_profile(const ProfDump& d, Symboliser& sym, bool by_total, std::FILE* samples) {
    std::map<std::pair<std::string, std::string>, ProfileRow> flat;  // by (where, function)
    Profile p;
    for (const Sample& s : d.samples) {
        const std::string w = where(s);
        const std::vector<std::string> stack = sym.stack(s);
        if (samples) {
            std::fprintf(samples, "hart %u pid %d name %s mode %s pc 0x%" PRIx64 " fn %s", s.cpu, s.pid,
                         s.pid ? sample_name(s).c_str() : "-", w.c_str(), s.pc, stack[0].c_str());
            for (size_t i = 1; i < stack.size(); i++) std::fprintf(samples, " <- %s", stack[i].c_str());
            std::fprintf(samples, "\n");
        }
        // cppcheck-suppress constStatement ; it counts: operator[] inserts, ++ adds
        flat[{w, stack[0]}].self++;
        std::vector<std::string> seen;
        for (const std::string& fn : stack) {
            if (std::find(seen.begin(), seen.end(), fn) != seen.end()) continue;  // recursion counts once
            seen.push_back(fn);
            flat[{w, fn}].total++;
        }
        std::string line = s.pid == 0 ? "idle" : sample_name(s) + "[" + std::to_string(s.pid) + "]";
        line += user_mode(s) ? ";user" : ";kernel";
        for (size_t i = stack.size(); i-- > 0;) line += ";" + stack[i];
        p.folded[line]++;
    }
    for (auto& [k, r] : flat) {
        r.where = k.first;
        r.function = k.second;
        p.rows.push_back(r);
    }
    std::stable_sort(p.rows.begin(), p.rows.end(), [by_total](const ProfileRow& a, const ProfileRow& b) {
        if (by_total) return a.total != b.total ? a.total > b.total : a.self > b.self;
        return a.self != b.self ? a.self > b.self : a.total > b.total;
    });
    return p;
}

void write_flat(const ProfDump& d, const Profile& p, size_t top, std::FILE* f) {
    const u64 total = d.samples.size();
    u64 dropped = 0, kernel = 0, user = 0, idle = 0;
    for (u32 h = 0; h < d.header.harts; h++) dropped += d.header.dropped[h];
    for (const Sample& s : d.samples) (user_mode(s) ? user : s.pid == 0 ? idle : kernel)++;
    const double us = static_cast<double>(d.header.period_cycles) * 1e6 / static_cast<double>(d.header.timer_hz);
    std::fprintf(f,
                 "# %" PRIu64 " samples on %u harts every %.0f us (%" PRIu64 " kernel, %" PRIu64 " user, %" PRIu64
                 " idle; %" PRIu64 " dropped)\n",
                 total, d.header.harts, us, kernel, user, idle, dropped);
    std::fprintf(f, "%8s %7s %7s  %-6s  %s\n", "self", "self%", "total%", "where", "function");
    auto pct = [total](u64 v) { return total ? 100.0 * static_cast<double>(v) / static_cast<double>(total) : 0.0; };
    size_t n = 0;
    for (const ProfileRow& r : p.rows) {
        if (top && n++ >= top) break;
        std::fprintf(f, "%8" PRIu64 " %6.2f%% %6.2f%%  %-6s  %s\n", r.self, pct(r.self), pct(r.total), r.where.c_str(),
                     r.function.c_str());
    }
}

void write_folded(const Profile& p, std::FILE* f) {
    for (const auto& [k, n] : p.folded) std::fprintf(f, "%s %" PRIu64 "\n", k.c_str(), n);
}

}  // namespace q::tools
