// tools/fsbuild.h - build a file-system image in memory (mkfs's engine).
//
// Builder lays out an empty file system with make_superblock() (the layout
// the kernel uses), a root directory holding "." and "..", and then adds
// directories and files. Inodes and data blocks are handed out in order;
// finish() marks every block below the first never-used one in the bitmap.
// Link counts follow xv6: a new file or directory has nlink 1 (its entry in
// the parent), and each subdirectory's ".." adds one to its parent; "."
// entries are not counted. New inodes belong to root (uid 0, gid 0) with
// the kernel's default modes (lib/fs/perm.h: 0644 files, 0755 directories,
// 0666 devices); set_owner() changes that. Every operation reports failure (image full,
// name too long, duplicate name, file too big) as false plus a message;
// the image is then partly built and the caller should give up on it.
#pragma once

#include <string>

#include "tools/image.h"

namespace q::tools {

class Builder {
  public:
    explicit Builder(u32 size = param::kFsBlocks, u32 ninodes = param::kFsInodes);

    const fs::SuperBlock& superblock() const { return sb_; }
    Image& image() { return img_; }
    u32 root() const { return fs::kRootInode; }

    // Add a regular file `name` holding data to directory dir.
    bool add_file(u32 dir, const std::string& name, const void* data, size_t n, u32* inum, std::string* err);
    // Add a subdirectory `name` of dir, with its "." and "..".
    bool add_dir(u32 dir, const std::string& name, u32* inum, std::string* err);
    // Add a device file (T_DEVICE) with the given major/minor.
    bool add_device(u32 dir, const std::string& name, i16 major, i16 minor, u32* inum, std::string* err);
    // Add a named pipe (T_FIFO): an inode with no data, mode 0644.
    bool add_fifo(u32 dir, const std::string& name, u32* inum, std::string* err);
    // Add another name for file inum in dir (a hard link: nlink + 1).
    bool add_link(u32 dir, const std::string& name, u32 inum, std::string* err);

    // Give inode inum an owner, group and mode (bits beyond perm::kModeMask are refused).
    bool set_owner(u32 inum, u32 uid, u32 gid, u16 mode, std::string* err);

    // Lower-level steps, public for tests that build unusual images.
    bool alloc_inode(fs::InodeType type, u32* inum, std::string* err);
    bool append(u32 inum, const void* data, size_t n, std::string* err);
    bool link(u32 dir, const std::string& name, u32 inum, std::string* err);

    u32 inodes_used() const { return next_inode_ - 1; }
    u32 data_blocks_used() const { return next_block_ - fs::first_data_block(sb_); }

    // Write the free bitmap and return the finished image.
    Image finish();

  private:
    bool alloc_block(u32* b, std::string* err);
    // Disk block for file block fbn of inode di, allocating as needed.
    bool map_block(fs::DiskInode& di, u32 fbn, u32* b, std::string* err);
    bool has_name(u32 dir, const std::string& name) const;

    fs::SuperBlock sb_;
    Image img_;
    u32 next_inode_ = 1;
    u32 next_block_ = 0;
};

}  // namespace q::tools
