// tools/trace_reader.cc - dump parsing and extraction from a disk image.
//
// See tools/trace_reader.h. All bytes are copied with memcpy into the
// format's structs (no casts of the input buffer), sizes are compared
// before any multiplication can overflow, and the error texts name the
// first problem found.
#include "tools/trace_reader.h"

#include "tools/image_files.h"

#include <algorithm>
#include <cstring>

namespace q::tools {

using trace::DumpHeader;
using trace::Event;
using trace::Record;

namespace {

// Sections larger than this are refused outright (the kernel's limit is
// 8 MiB per hart: 262144 records).
constexpr u64 kMaxRecordsPerHart = u64{1} << 24;

bool fail(std::string* err, const std::string& msg) {
    *err = msg;
    return false;
}

bool check_header(const DumpHeader& h, u64 size, std::string* err) {
    if (h.magic != trace::kMagic) return fail(err, "not a quanta trace dump (bad magic)");
    if (h.version != trace::kVersion)
        return fail(err, "trace dump version " + std::to_string(h.version) + ", this tool reads version " +
                             std::to_string(trace::kVersion) + " (use the qtrace built with that kernel)");
    if (h.header_size != sizeof(DumpHeader) || h.record_size != sizeof(Record))
        return fail(err, "corrupt trace dump: header or record size does not match the format");
    if (h.harts == 0 || h.harts > trace::kMaxHarts)
        return fail(err, "corrupt trace dump: " + std::to_string(h.harts) + " harts (1.." +
                             std::to_string(trace::kMaxHarts) + ")");
    if (h.capacity > kMaxRecordsPerHart) return fail(err, "corrupt trace dump: buffer capacity out of range");
    for (u32 i = 0; i < trace::kMaxHarts; i++) {
        if (h.records[i] > h.capacity || (i >= h.harts && (h.records[i] || h.dropped[i])))
            return fail(err, "corrupt trace dump: hart " + std::to_string(i) + " record count out of range");
    }
    if (h.stop_time < h.start_time) return fail(err, "corrupt trace dump: stops before it starts");
    const u64 want = trace::dump_size(h);
    if (size < want)
        return fail(
            err, "truncated trace dump: " + std::to_string(size) + " bytes, the header says " + std::to_string(want));
    if (size > want)
        return fail(err,
                    "corrupt trace dump: " + std::to_string(size) + " bytes, the header says " + std::to_string(want));
    return true;
}

bool check_record(const Record& r, const DumpHeader& h, u32 hart, u64 index, u64 prev_time, std::string* err) {
    const std::string where = "corrupt trace dump: hart " + std::to_string(hart) + " record " + std::to_string(index);
    if (r.type == 0 || r.type >= static_cast<u8>(Event::Count))
        return fail(err, where + ": unknown event type " + std::to_string(r.type));
    if (r.cpu != hart) return fail(err, where + ": written by hart " + std::to_string(r.cpu) + " in another's section");
    if (r.time < h.start_time || r.time > h.stop_time) return fail(err, where + ": time outside the trace");
    if (r.time < prev_time) return fail(err, where + ": time goes backwards");
    if (r.pid < 0) return fail(err, where + ": negative pid");
    return true;
}

}  // namespace

const char* event_name(u8 type) {
    static const char* const names[] = {"none", "switch", "deschedule", "wakeup", "enqueue", "pick", "migrate",
                                        "fork", "exec",   "exit",       "renice", "policy",  "proc", "thread"};
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<size_t>(Event::Count));
    return type < static_cast<u8>(Event::Count) ? names[type] : "?";
}

bool parse_dump(const std::vector<u8>& bytes, TraceDump* out, std::string* err) {
    DumpHeader h{};
    if (bytes.size() < sizeof(h))
        return fail(err, "truncated trace dump: " + std::to_string(bytes.size()) + " bytes, a header needs " +
                             std::to_string(sizeof(h)));
    std::memcpy(&h, bytes.data(), sizeof(h));
    if (!check_header(h, bytes.size(), err)) return false;
    struct Keyed {
        Record r;
        u32 hart;
        u64 index;
    };
    std::vector<Keyed> all;
    u64 off = sizeof(h);
    for (u32 hart = 0; hart < h.harts; hart++) {
        u64 prev = h.start_time;
        for (u64 i = 0; i < h.records[hart]; i++, off += sizeof(Record)) {
            Record r{};
            std::memcpy(&r, bytes.data() + off, sizeof(r));
            if (!check_record(r, h, hart, i, prev, err)) return false;
            prev = r.time;
            all.push_back({r, hart, i});
        }
    }
    std::stable_sort(all.begin(), all.end(), [](const Keyed& a, const Keyed& b) {
        if (a.r.time != b.r.time) return a.r.time < b.r.time;
        return a.hart < b.hart;
    });
    out->header = h;
    out->records.clear();
    out->records.reserve(all.size());
    for (const Keyed& k : all) out->records.push_back(k.r);
    return true;
}

bool read_dump_from_image(const Image& img, const std::string& path, std::vector<u8>* out, std::string* err) {
    auto size = [](const std::vector<u8>& first) -> u64 {
        if (first.size() < sizeof(trace::DumpHeader)) return 0;
        trace::DumpHeader h{};
        std::memcpy(&h, first.data(), sizeof(h));
        if (h.magic != trace::kMagic || h.harts > trace::kMaxHarts) return 0;
        for (u32 i = 0; i < trace::kMaxHarts; i++)
            if (h.records[i] > kMaxRecordsPerHart) return 0;  // (no overflow below)
        return trace::dump_size(h);
    };
    return read_split_dump(img, path, "trace", size, out, err);
}

}  // namespace q::tools
