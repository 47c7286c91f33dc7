// tools/trace_reader.cc - dump parsing and extraction from a disk image.
//
// See tools/trace_reader.h. All bytes are copied with memcpy into the
// format's structs (no casts of the input buffer), sizes are compared
// before any multiplication can overflow, and the error texts name the
// first problem found.
#include "tools/trace_reader.h"

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
                                        "fork", "exec",   "exit",       "renice", "policy",  "proc"};
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

namespace {

// The image with a committed log copied to its home blocks.
Image replayed(const Image& img) {
    Image copy = img;
    const fs::SuperBlock sb = copy.superblock();
    const fs::LogHeader lh = copy.get<fs::LogHeader>(sb.logstart, 0);
    if (lh.n == 0 || lh.n >= sb.nlog || lh.n > static_cast<u32>(param::kLogBlocks)) return copy;
    for (u32 i = 0; i < lh.n; i++) {
        const u8* src = copy.block(sb.logstart + 1 + i);
        u8* dst = copy.block(lh.block[i]);
        if (src && dst && lh.block[i] >= sb.inodestart) std::memcpy(dst, src, fs::kBlockSize);
    }
    return copy;
}

// Inode number of an absolute path, 0 if absent.
u32 lookup(const Image& img, const fs::SuperBlock& sb, const std::string& path) {
    u32 inum = fs::kRootInode;
    size_t pos = 0;
    while (pos < path.size()) {
        while (pos < path.size() && path[pos] == '/') pos++;
        if (pos >= path.size()) break;
        const size_t end = path.find('/', pos);
        const std::string part = path.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? path.size() : end;
        const fs::DiskInode dir = img.inode(sb, inum);
        if (dir.type != fs::InodeType::Dir) return 0;
        u32 found = 0;
        for (const fs::DirEntry& de : img.read_dir(dir)) {
            if (de.inum != 0 && entry_name(de) == part && de.inum < sb.ninodes) {
                found = de.inum;
                break;
            }
        }
        if (!found) return 0;
        inum = found;
    }
    return inum;
}

}  // namespace

bool read_dump_from_image(const Image& raw, const std::string& path, std::vector<u8>* out, std::string* err) {
    const fs::SuperBlock sb = raw.superblock();
    if (sb.magic != fs::kMagic || sb.size > raw.nblocks() || sb.ninodes == 0)
        return fail(err, "not a quanta file-system image (bad superblock)");
    const Image img = replayed(raw);
    out->clear();
    u64 want = 0;
    for (int part = 0;; part++) {
        const std::string name = part == 0 ? path : path + "." + std::to_string(part);
        const u32 inum = lookup(img, sb, name);
        if (inum == 0) {
            if (part == 0) return fail(err, "no trace dump " + path + " in the image (run `trace dump " + path + "`)");
            return fail(err, "truncated trace dump: part " + name + " is missing (" + std::to_string(out->size()) +
                                 " of " + std::to_string(want) + " bytes)");
        }
        const fs::DiskInode di = img.inode(sb, inum);
        if (di.type != fs::InodeType::File) return fail(err, name + " is not a file");
        const std::vector<u8> data = img.read_file(di);
        out->insert(out->end(), data.begin(), data.end());
        if (part == 0) {
            if (out->size() < sizeof(trace::DumpHeader)) return true;  // parse_dump says why
            trace::DumpHeader h{};
            std::memcpy(&h, out->data(), sizeof(h));
            if (h.magic != trace::kMagic || h.harts > trace::kMaxHarts) return true;
            for (u32 i = 0; i < trace::kMaxHarts; i++)
                if (h.records[i] > kMaxRecordsPerHart) return true;  // (no overflow below)
            want = trace::dump_size(h);
        }
        if (out->size() >= want) return true;
        if (part >= 999) return true;
    }
}

}  // namespace q::tools
