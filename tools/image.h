// tools/image.h - a disk image held in memory, seen through lib/fs/layout.h.
//
// Shared by mkfs, fsck and their tests. The image is a vector of bytes,
// block-addressed; every structured access copies through memcpy, so a
// corrupt or misaligned image never causes undefined behaviour, and every
// block number is range-checked (out of range reads give zeros, writes are
// ignored) so that fsck can walk a damaged image safely.
#pragma once

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lib/fs/layout.h"

namespace q::tools {

class Image {
  public:
    explicit Image(u32 nblocks = 0) : bytes_(static_cast<size_t>(nblocks) * fs::kBlockSize, 0) {}
    explicit Image(std::vector<u8> bytes) : bytes_(std::move(bytes)) {}

    u32 nblocks() const { return static_cast<u32>(bytes_.size() / fs::kBlockSize); }
    bool valid_block(u32 b) const { return b < nblocks(); }

    // Raw bytes of block b; null when b is out of range.
    u8* block(u32 b) { return valid_block(b) ? &bytes_[offset(b)] : nullptr; }
    const u8* block(u32 b) const { return valid_block(b) ? &bytes_[offset(b)] : nullptr; }

    template <typename T>
    T get(u32 b, u32 off) const {
        T v{};
        if (valid_block(b) && off + sizeof(T) <= fs::kBlockSize) std::memcpy(&v, &bytes_[offset(b) + off], sizeof(T));
        return v;
    }
    template <typename T>
    void put(u32 b, u32 off, const T& v) {
        if (valid_block(b) && off + sizeof(T) <= fs::kBlockSize) std::memcpy(&bytes_[offset(b) + off], &v, sizeof(T));
    }

    fs::SuperBlock superblock() const { return get<fs::SuperBlock>(1, 0); }
    void set_superblock(const fs::SuperBlock& sb) { put(1, 0, sb); }

    fs::DiskInode inode(const fs::SuperBlock& sb, u32 inum) const {
        return get<fs::DiskInode>(fs::inode_block(inum, sb), inode_offset(inum));
    }
    void set_inode(const fs::SuperBlock& sb, u32 inum, const fs::DiskInode& di) {
        put(fs::inode_block(inum, sb), inode_offset(inum), di);
    }

    bool bitmap_bit(const fs::SuperBlock& sb, u32 b) const {
        const u8 byte = get<u8>(fs::bitmap_block(b, sb), (b % fs::kBitsPerBlock) / 8);
        return (byte >> (b % 8)) & 1;
    }
    void set_bitmap_bit(const fs::SuperBlock& sb, u32 b, bool used) {
        const u32 bb = fs::bitmap_block(b, sb), off = (b % fs::kBitsPerBlock) / 8;
        u8 byte = get<u8>(bb, off);
        byte = used ? (byte | (1u << (b % 8))) : (byte & ~(1u << (b % 8)));
        put(bb, off, byte);
    }

    // Disk block holding file block i of an inode (0 when unmapped).
    u32 file_block(const fs::DiskInode& di, u32 i) const {
        if (i < fs::kDirect) return di.addrs[i];
        if (i >= fs::kMaxFileBlocks || di.addrs[fs::kDirect] == 0) return 0;
        return get<u32>(di.addrs[fs::kDirect], (i - fs::kDirect) * sizeof(u32));
    }

    // A file's contents up to its size (unmapped or bad blocks read as zeros).
    std::vector<u8> read_file(const fs::DiskInode& di) const {
        const u64 size = std::min<u64>(di.size, u64{fs::kMaxFileBlocks} * fs::kBlockSize);
        std::vector<u8> out(size, 0);
        for (u64 off = 0; off < size; off += fs::kBlockSize) {
            const u8* src = block(file_block(di, static_cast<u32>(off / fs::kBlockSize)));
            const u64 n = std::min<u64>(fs::kBlockSize, size - off);
            if (src && file_block(di, static_cast<u32>(off / fs::kBlockSize)) != 0) std::memcpy(&out[off], src, n);
        }
        return out;
    }

    // A directory's entries (whole entries only).
    std::vector<fs::DirEntry> read_dir(const fs::DiskInode& di) const {
        const std::vector<u8> data = read_file(di);
        std::vector<fs::DirEntry> out(data.size() / sizeof(fs::DirEntry));
        if (!out.empty()) std::memcpy(out.data(), data.data(), out.size() * sizeof(fs::DirEntry));
        return out;
    }

    // Load a whole image file; false (with a reason) if unreadable or not a
    // whole number of blocks.
    bool load(const std::string& path, std::string* err) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            *err = "cannot open " + path;
            return false;
        }
        std::vector<u8> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (in.bad()) {
            *err = "cannot read " + path;
            return false;
        }
        if (data.size() % fs::kBlockSize != 0 || data.size() < 2 * fs::kBlockSize) {
            *err = path + ": size " + std::to_string(data.size()) + " is not a whole number (>= 2) of " +
                   std::to_string(fs::kBlockSize) + "-byte blocks";
            return false;
        }
        bytes_ = std::move(data);
        return true;
    }

    bool save(const std::string& path, std::string* err) const {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(bytes_.data()), static_cast<std::streamsize>(bytes_.size()));
        out.close();
        if (!out) {
            *err = "cannot write " + path;
            return false;
        }
        return true;
    }

  private:
    static size_t offset(u32 b) { return static_cast<size_t>(b) * fs::kBlockSize; }
    static u32 inode_offset(u32 inum) { return (inum % fs::kInodesPerBlock) * sizeof(fs::DiskInode); }

    std::vector<u8> bytes_;
};

// A directory entry's name as a string (at most 14 characters).
inline std::string entry_name(const fs::DirEntry& de) {
    size_t n = 0;
    while (n < fs::kNameLen && de.name[n] != 0) n++;
    return std::string(de.name, n);
}

}  // namespace q::tools
