// tools/qtrace.cc - turn a scheduler trace dump into timelines and reports.
//
//   qtrace [-p PATH] [-o DIR] [--json F] [--summary F] [--replay F]
//          [--tick-us N] [--events] IMAGE
//   qtrace --dump FILE [same outputs]
//
// Reads the dump `trace dump PATH` wrote into a disk image (default
// /trace.dat, parts joined; tools/trace_reader.h), or a dump file on the
// host with --dump, and writes: -o DIR: DIR/trace.json, DIR/summary.txt,
// DIR/replay.txt; --json/--summary/--replay FILE each one of them ('-' is
// stdout); --events every record as text on stdout. With no output named,
// the summary goes to stdout. --tick-us sets the replay's tick (default
// 100 us). Bad input (no dump, a truncated, corrupt or other-version dump,
// an unreadable image): one line on stderr, exit 1; a bad command line:
// usage on stderr, exit 2.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "tools/dump_cli.h"
#include "tools/trace_output.h"

namespace {

using namespace q::tools;

const char kUsage[] =
    "usage: qtrace [-p PATH] [-o DIR] [--json F] [--summary F] [--replay F] [--tick-us N] [--events] IMAGE\n"
    "       qtrace --dump FILE [-o DIR] [--json F] [--summary F] [--replay F] [--tick-us N] [--events]\n";

struct Options {
    std::string image, dump, path = "/trace.dat", dir, json, summary, replay;
    q::u64 tick_us = 100;
    bool events = false;
};

[[noreturn]] void usage(int status) {
    std::fputs(kUsage, status ? stderr : stdout);
    std::exit(status);
}

constexpr DumpCli cli("qtrace");

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
        else if (a == "-o") o.dir = value();
        else if (a == "--dump") o.dump = value();
        else if (a == "--json") o.json = value();
        else if (a == "--summary") o.summary = value();
        else if (a == "--replay") o.replay = value();
        else if (a == "--events") o.events = true;
        else if (a == "--tick-us") o.tick_us = cli.number("--tick-us", value(), 1, 9999999);
        else if (!a.empty() && a[0] == '-') {
            usage(2);
        } else if (o.image.empty()) {
            o.image = a;
        } else {
            usage(2);
        }
    }
    if (o.image.empty() == o.dump.empty()) usage(2);
    if (!o.dir.empty()) {
        if (o.json.empty()) o.json = o.dir + "/trace.json";
        if (o.summary.empty()) o.summary = o.dir + "/summary.txt";
        if (o.replay.empty()) o.replay = o.dir + "/replay.txt";
    }
    if (o.json.empty() && o.summary.empty() && o.replay.empty() && !o.events) o.summary = "-";
    return o;
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
        else std::printf(" other %d a %u b %u arg %u key %" PRId64 "\n", r.other, r.a, r.b, r.arg, r.key);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const std::vector<q::u8> bytes = cli.load(o.dump, o.image, o.path, read_dump_from_image);
    TraceDump d;
    std::string err;
    if (!parse_dump(bytes, &d, &err)) fail((o.dump.empty() ? o.image + ":" + o.path : o.dump) + ": " + err);
    if (o.events) print_events(d);
    const Model m = build_model(d);
    const q::u64 tick = o.tick_us * (d.header.timer_hz / 1'000'000 ? d.header.timer_hz / 1'000'000 : 1);
    cli.to_file(o.json, [&](std::FILE* f) { write_json(m, f); });
    cli.to_file(o.summary, [&](std::FILE* f) { write_summary(m, f); });
    cli.to_file(o.replay, [&](std::FILE* f) { write_replay(m, tick, f); });
    return 0;
}
