// tools/dump_sections.h - the checks every dump reader makes on the part
// of the header the trace and profile formats share (lib/obs/dump.h), so
// tools/trace_reader.cc and tools/prof_reader.cc keep one copy of them.
//
// check_sections() trusts nothing: magic, version, header and record
// sizes, the hart count, the buffer capacity and each hart's count (a hart
// past `harts` must have none), the times, and the exact length; it says
// the first problem in one line, worded for the dump's kind ("corrupt
// trace dump: hart 1 record count out of range"). split_dump_size() is
// the length a reader joining a dump's parts in a disk image expects (by
// the format's sizes), 0 when the first part cannot be the start of one.
#pragma once

#include <string>
#include <vector>

#include "lib/obs/dump.h"

namespace q::tools {

struct DumpKind {
    const char* noun;  // "trace", "profile": the messages' "corrupt trace dump"
    const char* item;  // "record", "sample"
    const char* tool;  // the reader of this kind built with each kernel
    u64 magic;
    u32 version;
    u32 header_size;
    u32 record_size;
    u64 max_per_hart;  // a section longer than this is refused outright
};

bool check_sections(const obs::Sections& h, u64 size, const DumpKind& k, std::string* err);

u64 split_dump_size(const std::vector<u8>& first, const DumpKind& k);

// The header at the start of bytes, copied out (no cast of the input), or
// false with the "truncated" message.
template <typename Header>
bool copy_header(const std::vector<u8>& bytes, const DumpKind& k, Header* h, std::string* err) {
    if (bytes.size() < sizeof(Header)) {
        *err = std::string("truncated ") + k.noun + " dump: " + std::to_string(bytes.size()) +
               " bytes, a header needs " + std::to_string(sizeof(Header));
        return false;
    }
    __builtin_memcpy(static_cast<void*>(h), bytes.data(), sizeof(Header));
    return true;
}

}  // namespace q::tools
