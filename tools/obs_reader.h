// tools/obs_reader.h - the host's one reader of the recorders' dumps
// (lib/obs/format.h): scheduler traces and profiles.
//
// A parser trusts nothing. It checks the shared header (magic, kind,
// version, header and record sizes, the hart count, the buffer capacity
// and each hart's count, a hart past `harts` must have none, the times,
// the exact length), then every record by its kind's rules (a trace
// record: known type, the hart of its section, time inside the trace and
// non-decreasing within a section, pid >= 0; a sample: the hart of its
// section, a known mode, pid >= 0, reserved bytes 0, call-stack depth in
// range), and on any failure returns false with one line naming the first
// problem, worded for the dump's kind ("corrupt trace dump: hart 1 record
// count out of range"). All bytes are copied with memcpy into the
// format's structs (no casts of the input), and sizes are compared before
// any multiplication can overflow.
//
// A trace's records of all harts are merged by time (ties: hart order,
// then the order within the section), so each hart's own order is kept; a
// profile's samples stay in section order. The read_*_from_image
// functions find a dump in a disk image and join its parts
// (tools/image_files.h).
#pragma once

#include <string>
#include <vector>

#include "lib/obs/format.h"
#include "tools/image.h"

namespace q::tools {

struct TraceDump {
    trace::DumpHeader header{};
    std::vector<trace::Record> records;  // merged by time
};

struct ProfDump {
    prof::DumpHeader header{};
    std::vector<prof::Sample> samples;  // hart 0's, then hart 1's, ...
};

bool parse_dump(const std::vector<u8>& bytes, TraceDump* out, std::string* err);
bool parse_prof_dump(const std::vector<u8>& bytes, ProfDump* out, std::string* err);

// The bytes of the dump at `path` (absolute, from the root) in img.
bool read_dump_from_image(const Image& img, const std::string& path, std::vector<u8>* out, std::string* err);
bool read_prof_from_image(const Image& img, const std::string& path, std::vector<u8>* out, std::string* err);

// A trace record's type name ("switch", "wakeup", ...), "?" if unknown.
const char* event_name(u8 type);
// An Affinity record's source (its `a`: trace::AffinitySource) as one word
// ("setaffinity", "inherited", "snapshot"), "?" if unknown.
const char* affinity_source_name(u8 source);

// A sample's process name, NUL-terminated.
std::string sample_name(const prof::Sample& s);

}  // namespace q::tools
