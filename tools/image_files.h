// tools/image_files.h - find files in a disk image as the kernel would see
// them after boot, and join a dump written in parts.
//
// Shared by the host tools that read a dump the guest left in its image
// (qtrace and qprof: tools/obs_reader.cc). A committed
// but not installed log is replayed first (on a copy), as the kernel would
// at boot. user/dumpfile.c splits a dump larger than one file can hold
// into FILE, FILE.1, FILE.2, ...; read_split_dump joins them, asking the
// caller's format for the total size once the first part is in. Nothing is
// trusted: a missing part, a non-file or a bad superblock is one error line.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tools/image.h"

namespace q::tools {

// The image with a committed log copied to its home blocks.
Image replay_log(const Image& img);

// Inode number of an absolute path, 0 if absent.
u32 lookup_path(const Image& img, const fs::SuperBlock& sb, const std::string& path);

// Total bytes of the dump whose first part is `first`, or 0 when the first
// part cannot say (too short, bad magic, absurd counts): the caller's parser
// then reports why.
using DumpSizeFn = std::function<u64(const std::vector<u8>& first)>;

// The bytes of the dump at `path` (absolute) in img, parts joined. `kind`
// names the dump and its guest command in errors ("trace" -> "no trace dump
// /t.dat in the image (run `trace dump /t.dat`)").
bool read_split_dump(const Image& img, const std::string& path, const std::string& kind, const DumpSizeFn& size,
                     std::vector<u8>* out, std::string* err);

}  // namespace q::tools
