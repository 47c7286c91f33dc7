// tools/trace_reader.cc - dump parsing and extraction from a disk image.
//
// See tools/trace_reader.h. All bytes are copied with memcpy into the
// format's structs (no casts of the input buffer), sizes are compared
// before any multiplication can overflow, and the error texts name the
// first problem found.
#include "tools/trace_reader.h"

#include "tools/dump_sections.h"
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

constexpr DumpKind kTrace{"trace",         "record",           "qtrace",       trace::kMagic,
                          trace::kVersion, sizeof(DumpHeader), sizeof(Record), kMaxRecordsPerHart};

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
    if (!copy_header(bytes, kTrace, &h, err) || !check_sections(h, bytes.size(), kTrace, err)) return false;
    struct Keyed {
        Record r;
        u32 hart;
        u64 index;
    };
    std::vector<Keyed> all;
    u64 off = sizeof(h);
    for (u32 hart = 0; hart < h.harts; hart++) {
        u64 prev = h.start_time;
        for (u64 i = 0; i < h.counts[hart]; i++, off += sizeof(Record)) {
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
    auto size = [](const std::vector<u8>& first) { return split_dump_size(first, kTrace); };
    return read_split_dump(img, path, "trace", size, out, err);
}

}  // namespace q::tools
