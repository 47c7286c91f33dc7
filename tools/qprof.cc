// tools/qprof.cc - turn a sampling profiler dump into a flat profile and
// folded stacks.
//
//   qprof [-p PATH] [-k KERNEL_ELF] [-u USER_DIR] [-o DIR] [--flat F]
//         [--folded F] [--top N] [--sort self|total] [--samples] IMAGE
//   qprof --dump FILE [same options]
//
// Reads the dump `prof dump PATH` wrote into a disk image (default
// /prof.dat, parts joined; tools/prof_reader.h), or a dump file on the host
// with --dump, and symbolises each sample: a kernel PC against KERNEL_ELF
// (default build/kernel.elf), a user PC against USER_DIR/_NAME (default
// build/user) for the program name the sample carries, or "NAME:0x..." if
// that file is missing or has no symbol there. Writes the flat profile
// (self samples, self %, total % - samples with the function anywhere on
// the stack -, where, function; most self samples first, or most total
// with --sort total) and the folded stacks for flame graphs
// ("PROCESS[PID];kernel|user;OUTERMOST;...;FUNCTION COUNT": kernel samples
// carry their frame-pointer call stack, user samples one frame; idle harts
// are the process "idle"),
// -o DIR: DIR/flat.txt and DIR/folded.txt; --flat/--folded FILE each one
// ('-' is stdout); with no output named the flat profile goes to stdout.
// --top N prints only the first N functions on stdout. --samples prints
// every sample (hart, pid, name, mode, pc, function). Bad input (no dump,
// a truncated, corrupt or other-version dump, an unreadable image or
// kernel ELF): one line on stderr, exit 1; a bad command line: usage on
// stderr, exit 2.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "tools/dump_cli.h"
#include "tools/prof_reader.h"

namespace {

using namespace q::tools;
using q::prof::Mode;
using q::prof::Sample;

const char kUsage[] =
    "usage: qprof [-p PATH] [-k KERNEL_ELF] [-u USER_DIR] [-o DIR] [--flat F] [--folded F] [--top N]\n"
    "             [--sort self|total] [--samples] IMAGE\n"
    "       qprof --dump FILE [same options]\n";

struct Options {
    std::string image, dump, path = "/prof.dat", kernel = "build/kernel.elf", user_dir = "build/user", dir, flat,
                             folded;
    size_t top = 0;  // 0: all
    bool samples = false, by_total = false;
};

[[noreturn]] void usage(int status) {
    std::fputs(kUsage, status ? stderr : stdout);
    std::exit(status);
}

constexpr DumpCli cli("qprof");

[[noreturn]] void fail(const std::string& msg) { cli.fail(msg); }

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage(2);
            return argv[++i];
        };
        if (a == "-h" || a == "--help") usage(0);
        else if (a == "-p") o.path = value();
        else if (a == "-k") o.kernel = value();
        else if (a == "-u") o.user_dir = value();
        else if (a == "-o") o.dir = value();
        else if (a == "--dump") o.dump = value();
        else if (a == "--flat") o.flat = value();
        else if (a == "--folded") o.folded = value();
        else if (a == "--samples") o.samples = true;
        else if (a == "--sort") {
            const std::string v = value();
            if (v != "self" && v != "total") fail("--sort must be self or total, got '" + v + "'");
            o.by_total = v == "total";
        } else if (a == "--top") {
            o.top = cli.number("--top", value(), 0, 999999);
        } else if (!a.empty() && a[0] == '-') {
            usage(2);
        } else if (o.image.empty()) {
            o.image = a;
        } else {
            usage(2);
        }
    }
    if (o.image.empty() == o.dump.empty()) usage(2);
    if (!o.dir.empty()) {
        if (o.flat.empty()) o.flat = o.dir + "/flat.txt";
        if (o.folded.empty()) o.folded = o.dir + "/folded.txt";
    }
    if (o.flat.empty() && o.folded.empty() && !o.samples) o.flat = "-";
    return o;
}

// Symbolises samples: the kernel's table, and each user program's, loaded
// once (an unreadable user ELF is remembered as empty).
class Symboliser {
  public:
    explicit Symboliser(const Options& o) : user_dir_(o.user_dir) {
        std::string err;
        if (!kernel_.load(o.kernel, &err)) fail("kernel symbols: " + err);
    }

    std::string function(const Sample& s) { return function(s, s.pc); }

    // A kernel return address names the call instruction's function: look
    // up ra - 2 (the smallest call, c.jalr, is 2 bytes), so a call that is
    // the last instruction of a function is not charged to the next one.
    std::string caller(q::u64 ra) {
        const std::string f = kernel_.lookup(ra - 2);
        return f.empty() ? kernel_hex(ra) : f;
    }

    std::string function(const Sample& s, q::u64 pc) {
        char hex[32];
        std::snprintf(hex, sizeof(hex), "0x%" PRIx64, pc);
        if (s.mode == static_cast<q::u8>(Mode::Kernel)) {
            const std::string f = kernel_.lookup(pc);
            return f.empty() ? kernel_hex(pc) : f;
        }
        const std::string prog = sample_name(s);
        auto it = users_.find(prog);
        if (it == users_.end()) {
            Symbols syms;
            std::string err;
            if (prog.empty() || prog.find('/') != std::string::npos || !syms.load(user_dir_ + "/_" + prog, &err))
                syms = Symbols();
            it = users_.emplace(prog, std::move(syms)).first;
        }
        const std::string f = it->second.lookup(pc);
        return prog + ":" + (f.empty() ? std::string(hex) : f);
    }

    static std::string kernel_hex(q::u64 pc) {
        char hex[40];
        std::snprintf(hex, sizeof(hex), "kernel:0x%" PRIx64, pc);
        return hex;
    }

  private:
    std::string user_dir_;
    Symbols kernel_;
    std::map<std::string, Symbols> users_;
};

const char* where(const Sample& s) {
    if (s.mode == static_cast<q::u8>(Mode::User)) return "user";
    return s.pid == 0 ? "idle" : "kernel";
}

struct Row {
    std::string where, function;
    q::u64 self = 0, total = 0;
};

void write_flat(const ProfDump& d, const std::vector<Row>& rows, size_t top, std::FILE* f) {
    const q::u64 total = d.samples.size();
    q::u64 dropped = 0, kernel = 0, user = 0, idle = 0;
    for (q::u32 h = 0; h < d.header.harts; h++) dropped += d.header.dropped[h];
    for (const Sample& s : d.samples) {
        const std::string w = where(s);
        (w == "user" ? user : w == "idle" ? idle : kernel)++;
    }
    const double us = static_cast<double>(d.header.period_cycles) * 1e6 / static_cast<double>(d.header.timer_hz);
    std::fprintf(f,
                 "# %" PRIu64 " samples on %u harts every %.0f us (%" PRIu64 " kernel, %" PRIu64 " user, %" PRIu64
                 " idle; %" PRIu64 " dropped)\n",
                 total, d.header.harts, us, kernel, user, idle, dropped);
    std::fprintf(f, "%8s %7s %7s  %-6s  %s\n", "self", "self%", "total%", "where", "function");
    auto pct = [total](q::u64 v) { return total ? 100.0 * static_cast<double>(v) / static_cast<double>(total) : 0.0; };
    size_t n = 0;
    for (const Row& r : rows) {
        if (top && n++ >= top) break;
        std::fprintf(f, "%8" PRIu64 " %6.2f%% %6.2f%%  %-6s  %s\n", r.self, pct(r.self), pct(r.total), r.where.c_str(),
                     r.function.c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const std::vector<q::u8> bytes = cli.load(o.dump, o.image, o.path, read_prof_from_image);
    ProfDump d;
    std::string err;
    if (!parse_prof_dump(bytes, &d, &err)) fail((o.dump.empty() ? o.image + ":" + o.path : o.dump) + ": " + err);
    Symboliser sym(o);
    std::map<std::pair<std::string, std::string>, Row> flat;  // by (where, function)
    std::map<std::string, q::u64> folded;                     // "process;mode;outermost;...;function"
    for (const Sample& s : d.samples) {
        const std::string w = where(s);
        std::vector<std::string> stack{sym.function(s)};  // innermost first
        for (q::u32 i = 0; i < s.depth; i++) stack.push_back(sym.caller(s.callers[i]));
        if (o.samples) {
            std::printf("hart %u pid %d name %s mode %s pc 0x%" PRIx64 " fn %s", s.cpu, s.pid,
                        s.pid ? sample_name(s).c_str() : "-", w.c_str(), s.pc, stack[0].c_str());
            for (size_t i = 1; i < stack.size(); i++) std::printf(" <- %s", stack[i].c_str());
            std::printf("\n");
        }
        Row& self = flat[{w, stack[0]}];
        self.self++;
        std::vector<std::string> seen;
        for (const std::string& fn : stack) {
            if (std::find(seen.begin(), seen.end(), fn) != seen.end()) continue;  // recursion counts once
            seen.push_back(fn);
            flat[{w, fn}].total++;
        }
        std::string line = s.pid == 0 ? "idle" : sample_name(s) + "[" + std::to_string(s.pid) + "]";
        line += s.mode == static_cast<q::u8>(Mode::User) ? ";user" : ";kernel";
        for (size_t i = stack.size(); i-- > 0;) line += ";" + stack[i];
        folded[line]++;
    }
    std::vector<Row> rows;
    for (auto& [k, r] : flat) {
        r.where = k.first;
        r.function = k.second;
        rows.push_back(r);
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        if (o.by_total) return a.total != b.total ? a.total > b.total : a.self > b.self;
        return a.self != b.self ? a.self > b.self : a.total > b.total;
    });
    cli.to_file(o.flat, [&](std::FILE* f) { write_flat(d, rows, o.flat == "-" ? o.top : 0, f); });
    cli.to_file(o.folded, [&](std::FILE* f) {
        for (const auto& [k, n] : folded) std::fprintf(f, "%s %" PRIu64 "\n", k.c_str(), n);
    });
    if (!o.dir.empty() && o.top) write_flat(d, rows, o.top, stdout);
    return 0;
}
