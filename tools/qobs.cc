// tools/qobs.cc - the host's reports on a recorder dump (lib/obs/format.h):
// a scheduler trace's timelines and latency summary, a profile's flat
// profile and folded stacks.
//
//   qobs trace [-p PATH] [-o DIR] [--json F] [--summary F] [--replay F]
//              [--tick-us N] [--events] IMAGE
//   qobs prof [-p PATH] [-k KERNEL_ELF] [-u USER_DIR] [-o DIR] [--flat F]
//             [--folded F] [--top N] [--sort self|total] [--samples] IMAGE
//   either with --dump FILE in place of IMAGE
//
// build/qtrace and build/qprof are links to this program: run under those
// names it is `qobs trace` and `qobs prof` (docs/tracing.md,
// docs/profiling.md).
//
// It reads the dump that `trace dump PATH` or `prof dump PATH` wrote into a
// disk image (default /trace.dat, /prof.dat; parts joined), or a dump file
// on the host with --dump (tools/obs_reader.h), and writes what is asked:
//   trace: -o DIR: DIR/trace.json, DIR/summary.txt, DIR/replay.txt;
//     --json/--summary/--replay FILE each one of them; --events every record
//     as text on stdout; with no output named, the summary to stdout.
//     --tick-us sets the replay's tick (default 100 us). Formats:
//     tools/trace_output.h.
//   prof: symbolised against KERNEL_ELF (default build/kernel.elf) and
//     USER_DIR/_NAME (default build/user): -o DIR: DIR/flat.txt and
//     DIR/folded.txt; --flat/--folded FILE each one; with no output named
//     the flat profile to stdout; --top N prints only the first N
//     functions on stdout; --sort total orders by inclusive samples;
//     --samples prints every sample with its stack (tools/prof_output.h).
// '-' as a FILE is stdout. Bad input (no dump, a truncated, corrupt,
// other-kind or other-version dump, an unreadable image or kernel ELF):
// one line "TOOL: what" on stderr, exit 1; a bad command line: usage on
// stderr, exit 2.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lib/sched/cpu_list.h"
#include "tools/image_files.h"
#include "tools/prof_output.h"
#include "tools/trace_output.h"

namespace {

using namespace q::tools;
using q::u64;
using q::u8;

std::string g_tool = "qobs";  // the name errors start with

const char kTraceUsage[] =
    "[-p PATH] [-o DIR] [--json F] [--summary F] [--replay F] [--tick-us N] [--events] IMAGE|--dump FILE";
const char kProfUsage[] =
    "[-p PATH] [-k KERNEL_ELF] [-u USER_DIR] [-o DIR] [--flat F] [--folded F] [--top N]\n"
    "            [--sort self|total] [--samples] IMAGE|--dump FILE";

struct Options {
    std::string image, dump, path, dir;
    std::string json, summary, replay;  // trace
    u64 tick_us = 100;
    bool events = false;
    std::string kernel = "build/kernel.elf", user_dir = "build/user", flat, folded;  // prof
    u64 top = 0;                                                                     // 0: all
    bool samples = false, by_total = false;
};

enum Which : unsigned { kTrace = 1, kProf = 2, kBoth = 3 };

[[noreturn]] void fail(const std::string& msg) {
    std::fprintf(stderr, "%s: %s\n", g_tool.c_str(), msg.c_str());
    std::exit(1);
}

[[noreturn]] void usage(Which w, int status) {
    std::FILE* f = status ? stderr : stdout;
    const bool qobs = g_tool == "qobs";
    if (w & kTrace) std::fprintf(f, "usage: %s %s\n", qobs ? "qobs trace" : g_tool.c_str(), kTraceUsage);
    if (w & kProf) std::fprintf(f, "usage: %s %s\n", qobs ? "qobs prof" : g_tool.c_str(), kProfUsage);
    std::exit(status);
}

// The value of `flag` as an integer in [lo, hi], or fail() naming it.
u64 number(const std::string& flag, const std::string& v, u64 lo, u64 hi) {
    if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos || std::stoull(v) < lo ||
        std::stoull(v) > hi)
        fail(flag + " must be an integer " + std::to_string(lo) + ".." + std::to_string(hi) + ", got '" + v + "'");
    return std::stoull(v);
}

// One command-line flag: which subcommands take it, and what it sets
// (`set` gets the value, or "" for a flag without one).
struct Flag {
    const char* name;
    Which which;
    bool has_value;
    void (*set)(Options& o, const std::string& v);
};

const Flag kFlags[] = {
    {"-p", kBoth, true, [](Options& o, const std::string& v) { o.path = v; }},
    {"-o", kBoth, true, [](Options& o, const std::string& v) { o.dir = v; }},
    {"--dump", kBoth, true, [](Options& o, const std::string& v) { o.dump = v; }},
    {"--json", kTrace, true, [](Options& o, const std::string& v) { o.json = v; }},
    {"--summary", kTrace, true, [](Options& o, const std::string& v) { o.summary = v; }},
    {"--replay", kTrace, true, [](Options& o, const std::string& v) { o.replay = v; }},
    {"--tick-us", kTrace, true,
     [](Options& o, const std::string& v) { o.tick_us = number("--tick-us", v, 1, 9999999); }},
    {"--events", kTrace, false, [](Options& o, const std::string&) { o.events = true; }},
    {"-k", kProf, true, [](Options& o, const std::string& v) { o.kernel = v; }},
    {"-u", kProf, true, [](Options& o, const std::string& v) { o.user_dir = v; }},
    {"--flat", kProf, true, [](Options& o, const std::string& v) { o.flat = v; }},
    {"--folded", kProf, true, [](Options& o, const std::string& v) { o.folded = v; }},
    {"--top", kProf, true, [](Options& o, const std::string& v) { o.top = number("--top", v, 0, 999999); }},
    {"--samples", kProf, false, [](Options& o, const std::string&) { o.samples = true; }},
    {"--sort", kProf, true,
     [](Options& o, const std::string& v) {
         if (v != "self" && v != "total") fail("--sort must be self or total, got '" + v + "'");
         o.by_total = v == "total";
     }},
};

Options parse(Which w, int argc, char** argv, int first) {
    Options o;
    o.path = w == kTrace ? "/trace.dat" : "/prof.dat";
    for (int i = first; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "-h" || a == "--help") usage(w, 0);
        const Flag* flag = nullptr;
        for (const Flag& f : kFlags)
            if (a == f.name && (f.which & w)) flag = &f;
        if (flag) {
            if (flag->has_value && i + 1 >= argc) usage(w, 2);
            flag->set(o, flag->has_value ? argv[++i] : "");
        } else if (a.empty() || a[0] == '-' || !o.image.empty()) {
            usage(w, 2);
        } else {
            o.image = a;
        }
    }
    if (o.image.empty() == o.dump.empty()) usage(w, 2);
    return o;
}

// The dump's bytes: the host file --dump, or the file at -p in IMAGE.
std::vector<u8> load(const Options& o,
                     bool (*from_image)(const Image&, const std::string&, std::vector<u8>*, std::string*)) {
    if (!o.dump.empty()) {
        std::ifstream in(o.dump, std::ios::binary);
        if (!in) fail("cannot open " + o.dump);
        return std::vector<u8>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
    Image img;
    std::string err;
    if (!img.load(o.image, &err)) fail(err);
    std::vector<u8> bytes;
    if (!from_image(img, o.path, &bytes, &err)) fail(o.image + ": " + err);
    return bytes;
}

std::string source(const Options& o) { return o.dump.empty() ? o.image + ":" + o.path : o.dump; }

// Calls write(FILE*) on the file `name` ('-': stdout; "": nothing).
template <typename F>
void to_file(const std::string& name, F write) {
    if (name.empty()) return;
    if (name == "-") return write(stdout);
    std::FILE* f = std::fopen(name.c_str(), "w");
    if (!f) fail("cannot create " + name);
    write(f);
    if (std::fclose(f) != 0) fail("cannot write " + name);
}

// The rest of an Affinity record's line: who set it and how, the mask as
// set and the harts of this trace it names.
void print_affinity(const TraceDump& d, const q::trace::Record& r) {
    const u64 mask = static_cast<u64>(r.key);
    const q::sched::CpuListText cpus = q::sched::cpu_list(mask & q::sched::cpus_below(d.header.harts));
    std::printf(" by %d how %s mask 0x%" PRIx64 " cpus %s\n", r.other, affinity_source_name(r.a), mask,
                cpus.s[0] ? cpus.s : "none");
}

void print_events(const TraceDump& d) {
    for (const q::trace::Record& r : d.records) {
        char name[q::trace::kNameLen + 1];
        q::trace::get_name(r, name);
        const auto e = static_cast<q::trace::Event>(r.type);
        const bool named = e == q::trace::Event::Exec || e == q::trace::Event::Policy || e == q::trace::Event::Proc;
        std::printf("%12" PRIu64 " hart %u %-10s pid %d", r.time - d.header.start_time, r.cpu, event_name(r.type),
                    r.pid);
        if (named) std::printf(" a %u b %u name %s\n", r.a, r.b, name);
        else if (e == q::trace::Event::Affinity) print_affinity(d, r);
        else std::printf(" other %d a %u b %u arg %u key %" PRId64 "\n", r.other, r.a, r.b, r.arg, r.key);
    }
}

int run_trace(Options o) {
    if (!o.dir.empty()) {
        if (o.json.empty()) o.json = o.dir + "/trace.json";
        if (o.summary.empty()) o.summary = o.dir + "/summary.txt";
        if (o.replay.empty()) o.replay = o.dir + "/replay.txt";
    }
    if (o.json.empty() && o.summary.empty() && o.replay.empty() && !o.events) o.summary = "-";
    TraceDump d;
    std::string err;
    if (!parse_dump(load(o, read_dump_from_image), &d, &err)) fail(source(o) + ": " + err);
    if (o.events) print_events(d);
    const Model m = build_model(d);
    const u64 tick = o.tick_us * (d.header.timer_hz / 1'000'000 ? d.header.timer_hz / 1'000'000 : 1);
    to_file(o.json, [&](std::FILE* f) { write_json(m, f); });
    to_file(o.summary, [&](std::FILE* f) { write_summary(m, f); });
    to_file(o.replay, [&](std::FILE* f) { write_replay(m, tick, f); });
    return 0;
}

int run_prof(Options o) {
    if (!o.dir.empty()) {
        if (o.flat.empty()) o.flat = o.dir + "/flat.txt";
        if (o.folded.empty()) o.folded = o.dir + "/folded.txt";
    }
    if (o.flat.empty() && o.folded.empty() && !o.samples) o.flat = "-";
    ProfDump d;
    std::string err;
    if (!parse_prof_dump(load(o, read_prof_from_image), &d, &err)) fail(source(o) + ": " + err);
    Symboliser sym;
    if (!sym.load(o.kernel, o.user_dir, &err)) fail(err);
    const Profile p = build_profile(d, sym, o.by_total, o.samples ? stdout : nullptr);
    to_file(o.flat, [&](std::FILE* f) { write_flat(d, p, o.flat == "-" ? o.top : 0, f); });
    to_file(o.folded, [&](std::FILE* f) { write_folded(p, f); });
    if (!o.dir.empty() && o.top) write_flat(d, p, o.top, stdout);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string self = argv[0];
    g_tool = self.substr(self.find_last_of('/') + 1);
    Which w = g_tool == "qtrace" ? kTrace : g_tool == "qprof" ? kProf : kBoth;
    int first = 1;
    if (w == kBoth) {
        g_tool = "qobs";
        const std::string sub = argc > 1 ? argv[1] : "";
        if (sub == "-h" || sub == "--help") usage(kBoth, 0);
        if (sub != "trace" && sub != "prof") usage(kBoth, 2);
        w = sub == "trace" ? kTrace : kProf;
        first = 2;
    }
    const Options o = parse(w, argc, argv, first);
    return w == kTrace ? run_trace(o) : run_prof(o);
}
