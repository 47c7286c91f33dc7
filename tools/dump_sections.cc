// tools/dump_sections.cc - see tools/dump_sections.h. Sizes are compared
// before any multiplication can overflow.
#include "tools/dump_sections.h"

#include <cstring>

namespace q::tools {

namespace {

bool fail(std::string* err, const std::string& msg) {
    *err = msg;
    return false;
}

std::string n(u64 v) { return std::to_string(v); }

}  // namespace

bool check_sections(const obs::Sections& h, u64 size, const DumpKind& k, std::string* err) {
    const std::string dump = std::string(k.noun) + " dump";
    const std::string corrupt = "corrupt " + dump + ": ";
    if (h.magic != k.magic) return fail(err, "not a quanta " + dump + " (bad magic)");
    if (h.version != k.version)
        return fail(err, dump + " version " + n(h.version) + ", this tool reads version " + n(k.version) +
                             " (use the " + k.tool + " built with that kernel)");
    if (h.header_size != k.header_size || h.record_size != k.record_size)
        return fail(err, corrupt + "header or " + k.item + " size does not match the format");
    if (h.harts == 0 || h.harts > obs::kMaxHarts)
        return fail(err, corrupt + n(h.harts) + " harts (1.." + n(obs::kMaxHarts) + ")");
    if (h.capacity > k.max_per_hart) return fail(err, corrupt + "buffer capacity out of range");
    for (u32 i = 0; i < obs::kMaxHarts; i++) {
        if (h.counts[i] > h.capacity || (i >= h.harts && (h.counts[i] || h.dropped[i])))
            return fail(err, corrupt + "hart " + n(i) + " " + k.item + " count out of range");
    }
    if (h.stop_time < h.start_time) return fail(err, corrupt + "stops before it starts");
    const u64 want = obs::dump_size(h);
    if (size < want) return fail(err, "truncated " + dump + ": " + n(size) + " bytes, the header says " + n(want));
    if (size > want) return fail(err, corrupt + n(size) + " bytes, the header says " + n(want));
    return true;
}

u64 split_dump_size(const std::vector<u8>& first, const DumpKind& k) {
    obs::Sections h{};
    if (first.size() < k.header_size || k.header_size < sizeof(h)) return 0;
    std::memcpy(&h, first.data(), sizeof(h));
    if (h.magic != k.magic || h.harts > obs::kMaxHarts) return 0;
    for (u32 i = 0; i < obs::kMaxHarts; i++)
        if (h.counts[i] > k.max_per_hart) return 0;  // (no overflow below)
    // The format's sizes, not the header's: a header that lies about them
    // is read whole and then refused by check_sections with its reason.
    h.header_size = k.header_size;
    h.record_size = k.record_size;
    return obs::dump_size(h);
}

}  // namespace q::tools
