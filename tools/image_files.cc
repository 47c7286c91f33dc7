// tools/image_files.cc - path lookup, log replay and split dumps in an
// image (see tools/image_files.h). Every access goes through Image, which
// range-checks blocks, so a damaged image reads as zeros, never out of
// bounds.
#include "tools/image_files.h"

#include <cstring>

#include "lib/fs/log_logic.h"

namespace q::tools {

Image replay_log(const Image& img) {
    Image copy = img;
    const fs::SuperBlock sb = copy.superblock();
    const fs::LogHeader lh = copy.get<fs::LogHeader>(sb.logstart, 0);
    if (lh.n == 0 || lh.n >= sb.nlog || !fs::log_header_valid(lh, param::kLogBlocks)) return copy;
    u64 sum = fs::kLogSumSeed;  // the last transaction counts only if whole (lib/fs/log_logic.h)
    for (u32 i = lh.prev; i < lh.n && lh.magic == fs::kLogMagic; i++) {
        const u8* src = copy.block(sb.logstart + 1 + i);
        if (!src) return copy;
        sum = fs::log_sum_slot(sum, lh.block[i], src);
    }
    const u32 count = fs::log_replay_count(lh, sum);
    for (u32 i = 0; i < count; i++) {
        const u8* src = copy.block(sb.logstart + 1 + i);
        u8* dst = copy.block(lh.block[i]);
        if (src && dst && lh.block[i] >= sb.inodestart) std::memcpy(dst, src, fs::kBlockSize);
    }
    return copy;
}

u32 lookup_path(const Image& img, const fs::SuperBlock& sb, const std::string& path) {
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

namespace {

// Why part `part` (named `name`) of the dump at `path` is not there, with
// `got` of `want` bytes read so far.
std::string missing_part(const std::string& path, const std::string& kind, int part, const std::string& name, u64 got,
                         u64 want) {
    if (part == 0) return "no " + kind + " dump " + path + " in the image (run `" + kind + " dump " + path + "`)";
    return "truncated " + kind + " dump: part " + name + " is missing (" + std::to_string(got) + " of " +
           std::to_string(want) + " bytes)";
}

}  // namespace

bool read_split_dump(const Image& raw, const std::string& path, const std::string& kind, const DumpSizeFn& size,
                     std::vector<u8>* out, std::string* err) {
    const fs::SuperBlock sb = raw.superblock();
    if (sb.magic != fs::kMagic || sb.size > raw.nblocks() || sb.ninodes == 0) {
        *err = "not a quanta file-system image (bad superblock)";
        return false;
    }
    const Image img = replay_log(raw);
    out->clear();
    u64 want = 0;
    for (int part = 0;; part++) {
        const std::string name = part == 0 ? path : path + "." + std::to_string(part);
        const u32 inum = lookup_path(img, sb, name);
        if (inum == 0) {
            *err = missing_part(path, kind, part, name, out->size(), want);
            return false;
        }
        const fs::DiskInode di = img.inode(sb, inum);
        if (di.type != fs::InodeType::File) {
            *err = name + " is not a file";
            return false;
        }
        const std::vector<u8> data = img.read_file(di);
        out->insert(out->end(), data.begin(), data.end());
        if (part == 0) {
            want = size(*out);
            if (want == 0) return true;  // the parser says why
        }
        if (out->size() >= want || part >= 999) return true;
    }
}

}  // namespace q::tools
