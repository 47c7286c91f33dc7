// tools/trace_reader.h - read a scheduler trace dump (lib/trace/format.h).
//
// parse_dump() trusts nothing: it checks the header (magic, version, sizes,
// hart count, per-hart counts against the buffer capacity), the exact
// length, and every record (known type, the hart of its section, time
// inside the trace and non-decreasing within a section), and on any
// failure returns false with one line saying what is wrong. On success the
// records of all harts are merged by time (ties: hart order, then the
// order within the section), so each hart's own order is kept.
// read_dump_from_image() finds the dump file in a disk image and joins its
// parts (tools/image_files.h).
#pragma once

#include <string>
#include <vector>

#include "lib/trace/format.h"
#include "tools/image.h"

namespace q::tools {

struct TraceDump {
    trace::DumpHeader header{};
    std::vector<trace::Record> records;  // merged by time
};

bool parse_dump(const std::vector<u8>& bytes, TraceDump* out, std::string* err);

// The bytes of the dump at `path` (absolute, from the root) in img.
bool read_dump_from_image(const Image& img, const std::string& path, std::vector<u8>* out, std::string* err);

// A record's type name ("switch", "wakeup", ...), "?" if unknown.
const char* event_name(u8 type);

}  // namespace q::tools
