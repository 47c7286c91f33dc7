// tools/obs_reader.cc - see tools/obs_reader.h. One walk over a dump's
// sections for both kinds; what differs is a row of kKinds and a record
// check.
#include "tools/obs_reader.h"

#include <algorithm>
#include <cstring>

#include "tools/image_files.h"

namespace q::tools {

using obs::Kind;
using prof::Sample;
using trace::Event;
using trace::Record;

namespace {

struct KindRules {
    Kind kind;
    const char* noun;     // "trace", "profile": the messages' "corrupt trace dump"
    const char* item;     // "record", "sample"
    const char* command;  // the guest program that dumps it ("run `trace dump FILE`")
    const char* tool;     // the reader of this kind built with each kernel
    u16 version;
    u32 header_size;
    u32 record_size;
    bool needs_period;  // the period is the profile's sampling rate: never 0
};

// Sections longer than this are refused outright (the kernel's limit is
// 8 MiB per hart: 262,144 trace records, 65,536 samples).
constexpr u64 kMaxPerHart = u64{1} << 24;

constexpr KindRules kTrace{
    Kind::Trace,    "trace", "record", "trace", "qtrace", trace::kVersion, sizeof(trace::DumpHeader),
    sizeof(Record), false};
constexpr KindRules kProfile{
    Kind::Profile,  "profile", "sample", "prof", "qprof", prof::kVersion, sizeof(prof::DumpHeader),
    sizeof(Sample), true};

const KindRules* rules_of(u16 kind) {
    if (kind == static_cast<u16>(Kind::Trace)) return &kTrace;
    if (kind == static_cast<u16>(Kind::Profile)) return &kProfile;
    return nullptr;
}

bool fail(std::string* err, const std::string& msg) {
    *err = msg;
    return false;
}

std::string n(u64 v) { return std::to_string(v); }

bool check_sections(const obs::Sections& h, u64 size, const KindRules& k, std::string* err) {
    const std::string dump = std::string(k.noun) + " dump";
    const std::string corrupt = "corrupt " + dump + ": ";
    if (h.magic != obs::kMagic) return fail(err, "not a quanta " + dump + " (bad magic)");
    if (h.kind != static_cast<u16>(k.kind)) {
        const KindRules* other = rules_of(h.kind);
        if (!other) return fail(err, corrupt + "unknown kind " + n(h.kind));
        return fail(err,
                    std::string("a ") + other->noun + " dump, not a " + dump + " (read it with " + other->tool + ")");
    }
    if (h.version != k.version)
        return fail(err, dump + " version " + n(h.version) + ", this tool reads version " + n(k.version) +
                             " (use the " + k.tool + " built with that kernel)");
    if (h.header_size != k.header_size || h.record_size != k.record_size)
        return fail(err, corrupt + "header or " + k.item + " size does not match the format");
    if (h.harts == 0 || h.harts > obs::kMaxHarts)
        return fail(err, corrupt + n(h.harts) + " harts (1.." + n(obs::kMaxHarts) + ")");
    if (h.capacity > kMaxPerHart) return fail(err, corrupt + "buffer capacity out of range");
    for (u32 i = 0; i < obs::kMaxHarts; i++) {
        if (h.counts[i] > h.capacity || (i >= h.harts && (h.counts[i] || h.dropped[i])))
            return fail(err, corrupt + "hart " + n(i) + " " + k.item + " count out of range");
    }
    if (h.stop_time < h.start_time) return fail(err, corrupt + "stops before it starts");
    if (k.needs_period && (h.period_cycles == 0 || h.timer_hz == 0))
        return fail(err, corrupt + "zero period or timer rate");
    const u64 want = obs::dump_size(h);
    if (size < want) return fail(err, "truncated " + dump + ": " + n(size) + " bytes, the header says " + n(want));
    if (size > want) return fail(err, corrupt + n(size) + " bytes, the header says " + n(want));
    return true;
}

// The header and each section's records, checked; check(r, hart, index,
// err) is the kind's rule for one record.
template <typename Header, typename Rec, typename Check>
bool read_sections(const std::vector<u8>& bytes, const KindRules& k, Header* h, std::vector<Rec>* out, Check check,
                   std::string* err) {
    if (bytes.size() < sizeof(Header))
        return fail(err, std::string("truncated ") + k.noun + " dump: " + n(bytes.size()) + " bytes, a header needs " +
                             n(sizeof(Header)));
    std::memcpy(static_cast<void*>(h), bytes.data(), sizeof(Header));
    if (!check_sections(*h, bytes.size(), k, err)) return false;
    out->clear();
    u64 off = sizeof(Header);
    for (u32 hart = 0; hart < h->harts; hart++) {
        for (u64 i = 0; i < h->counts[hart]; i++, off += sizeof(Rec)) {
            Rec r{};
            std::memcpy(&r, bytes.data() + off, sizeof(r));
            if (!check(r, hart, i, err)) return false;
            out->push_back(r);
        }
    }
    return true;
}

// The length a reader joining a dump's parts expects (by the format's
// sizes, not the header's: a header that lies about them is read whole
// and then refused with its reason), 0 when `first` cannot start one.
u64 split_size(const std::vector<u8>& first, const KindRules& k) {
    obs::Sections h{};
    if (first.size() < k.header_size) return 0;
    std::memcpy(&h, first.data(), sizeof(h));
    if (h.magic != obs::kMagic || h.harts > obs::kMaxHarts) return 0;
    for (u32 i = 0; i < obs::kMaxHarts; i++)
        if (h.counts[i] > kMaxPerHart) return 0;  // (no overflow below)
    h.header_size = k.header_size;
    h.record_size = k.record_size;
    return obs::dump_size(h);
}

bool read_from_image(const Image& img, const std::string& path, const KindRules& k, std::vector<u8>* out,
                     std::string* err) {
    auto size = [&k](const std::vector<u8>& first) { return split_size(first, k); };
    return read_split_dump(img, path, k.command, size, out, err);
}

}  // namespace

const char* event_name(u8 type) {
    static const char* const names[] = {"none",   "switch",  "deschedule", "wakeup", "enqueue",
                                        "pick",   "migrate", "fork",       "exec",   "exit",
                                        "renice", "policy",  "proc",       "thread", "affinity"};
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(Event::Count));
    return type < static_cast<u8>(Event::Count) ? names[type] : "?";
}

const char* affinity_source_name(u8 source) {
    static const char* const names[] = {"setaffinity", "inherited", "snapshot"};
    return source < sizeof(names) / sizeof(names[0]) ? names[source] : "?";
}

bool parse_dump(const std::vector<u8>& bytes, TraceDump* out, std::string* err) {
    trace::DumpHeader h{};
    std::vector<Record> all;
    u64 prev = 0;
    auto check = [&h, &prev](const Record& r, u32 hart, u64 i, std::string* e) {
        const std::string where = "corrupt trace dump: hart " + n(hart) + " record " + n(i);
        if (i == 0) prev = h.start_time;
        if (r.type == 0 || r.type >= static_cast<u8>(Event::Count))
            return fail(e, where + ": unknown event type " + n(r.type));
        if (r.cpu != hart) return fail(e, where + ": written by hart " + n(r.cpu) + " in another's section");
        if (r.time < h.start_time || r.time > h.stop_time) return fail(e, where + ": time outside the trace");
        if (r.time < prev) return fail(e, where + ": time goes backwards");
        if (r.pid < 0) return fail(e, where + ": negative pid");
        prev = r.time;
        return true;
    };
    if (!read_sections(bytes, kTrace, &h, &all, check, err)) return false;
    // Sections are in hart order and each is sorted: a stable sort by time
    // keeps hart order, then section order, for equal times.
    std::stable_sort(all.begin(), all.end(), [](const Record& a, const Record& b) { return a.time < b.time; });
    out->header = h;
    out->records = std::move(all);
    return true;
}

bool parse_prof_dump(const std::vector<u8>& bytes, ProfDump* out, std::string* err) {
    prof::DumpHeader h{};
    std::vector<Sample> all;
    auto check = [](const Sample& s, u32 hart, u64 i, std::string* e) {
        const std::string where = "corrupt profile dump: hart " + n(hart) + " sample " + n(i);
        if (s.cpu != hart) return fail(e, where + ": taken by hart " + n(s.cpu) + " in another's section");
        if (s.mode > static_cast<u8>(prof::Mode::User)) return fail(e, where + ": unknown mode " + n(s.mode));
        if (s.pid < 0) return fail(e, where + ": negative pid");
        if (s.reserved != 0) return fail(e, where + ": reserved bits set");
        if (s.depth > prof::kMaxCallers) return fail(e, where + ": call stack deeper than the format allows");
        return true;
    };
    if (!read_sections(bytes, kProfile, &h, &all, check, err)) return false;
    out->header = h;
    out->samples = std::move(all);
    return true;
}

bool read_dump_from_image(const Image& img, const std::string& path, std::vector<u8>* out, std::string* err) {
    return read_from_image(img, path, kTrace, out, err);
}

bool read_prof_from_image(const Image& img, const std::string& path, std::vector<u8>* out, std::string* err) {
    return read_from_image(img, path, kProfile, out, err);
}

std::string sample_name(const Sample& s) {
    size_t len = 0;
    while (len < prof::kNameLen && s.name[len] != 0) len++;
    return std::string(s.name, len);
}

}  // namespace q::tools
