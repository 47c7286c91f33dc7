// tools/fsbuild.cc - Builder: an in-memory mkfs (see fsbuild.h).
#include "tools/fsbuild.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "lib/fs/perm.h"
#include "lib/seam.h"

namespace q::tools {

Builder::Builder(u32 size, u32 ninodes) : sb_(fs::make_superblock(size, ninodes)), img_(size) {
    img_.set_superblock(sb_);
    next_block_ = fs::first_data_block(sb_);
    u32 root = 0;
    std::string err;
    // An empty image always has room for the root directory.
    bool ok =
        alloc_inode(fs::InodeType::Dir, &root, &err) && link(root, ".", root, &err) && link(root, "..", root, &err);
    Q_ASSERT(ok && root == fs::kRootInode);
}

bool Builder::alloc_inode(fs::InodeType type, u32* inum, std::string* err) {
    if (next_inode_ >= sb_.ninodes) {
        *err = "image full: no free inodes (" + std::to_string(sb_.ninodes) + " in all)";
        return false;
    }
    fs::DiskInode di{};
    di.type = type;
    di.nlink = 1;
    di.mode = type == fs::InodeType::Dir      ? perm::kDirMode
              : type == fs::InodeType::Device ? perm::kDevMode
                                              : perm::kFileMode;
    *inum = next_inode_++;
    img_.set_inode(sb_, *inum, di);
    return true;
}

bool Builder::alloc_block(u32* b, std::string* err) {
    if (next_block_ >= sb_.size) {
        *err = "image full: no free data blocks (" + std::to_string(sb_.nblocks) + " in all)";
        return false;
    }
    *b = next_block_++;
    return true;
}

bool Builder::map_block(fs::DiskInode& di, u32 fbn, u32* b, std::string* err) {
    if (fbn >= fs::kMaxFileBlocks) {
        *err = "file too big: more than " + std::to_string(fs::kMaxFileBlocks) + " blocks";
        return false;
    }
    if (fbn < fs::kDirect) {
        if (di.addrs[fbn] == 0 && !alloc_block(&di.addrs[fbn], err)) return false;
        *b = di.addrs[fbn];
        return true;
    }
    if (di.addrs[fs::kDirect] == 0 && !alloc_block(&di.addrs[fs::kDirect], err)) return false;
    const u32 ind = di.addrs[fs::kDirect], off = (fbn - fs::kDirect) * sizeof(u32);
    u32 addr = img_.get<u32>(ind, off);
    if (addr == 0) {
        if (!alloc_block(&addr, err)) return false;
        img_.put(ind, off, addr);
    }
    *b = addr;
    return true;
}

bool Builder::append(u32 inum, const void* data, size_t n, std::string* err) {
    fs::DiskInode di = img_.inode(sb_, inum);
    const u8* src = static_cast<const u8*>(data);
    bool ok = true;
    while (n > 0) {
        const u32 fbn = di.size / fs::kBlockSize, off = di.size % fs::kBlockSize;
        u32 b = 0;
        if (!map_block(di, fbn, &b, err)) {
            ok = false;
            break;
        }
        const u32 chunk = static_cast<u32>(std::min<size_t>(n, fs::kBlockSize - off));
        std::memcpy(img_.block(b) + off, src, chunk);
        di.size += chunk;
        src += chunk;
        n -= chunk;
    }
    img_.set_inode(sb_, inum, di);
    return ok;
}

bool Builder::has_name(u32 dir, const std::string& name) const {
    for (const fs::DirEntry& de : img_.read_dir(img_.inode(sb_, dir)))
        if (de.inum != 0 && entry_name(de) == name) return true;
    return false;
}

bool Builder::link(u32 dir, const std::string& name, u32 inum, std::string* err) {
    if (name.empty() || name.size() > fs::kNameLen || name.find('/') != std::string::npos) {
        *err = "bad name '" + name + "': names are 1 to " + std::to_string(fs::kNameLen) + " characters without '/'";
        return false;
    }
    if (has_name(dir, name)) {
        *err = "duplicate name '" + name + "'";
        return false;
    }
    fs::DirEntry de{};
    de.inum = static_cast<u16>(inum);
    std::memcpy(de.name, name.data(), name.size());
    return append(dir, &de, sizeof(de), err);
}

bool Builder::add_file(u32 dir, const std::string& name, const void* data, size_t n, u32* inum, std::string* err) {
    if (n > size_t{fs::kMaxFileBlocks} * fs::kBlockSize) {
        *err = "file too big: " + std::to_string(n) + " bytes, at most " +
               std::to_string(fs::kMaxFileBlocks * fs::kBlockSize);
        return false;
    }
    return alloc_inode(fs::InodeType::File, inum, err) && link(dir, name, *inum, err) && append(*inum, data, n, err);
}

bool Builder::add_link(u32 dir, const std::string& name, u32 inum, std::string* err) {
    if (!link(dir, name, inum, err)) return false;
    fs::DiskInode di = img_.inode(sb_, inum);
    di.nlink++;
    img_.set_inode(sb_, inum, di);
    return true;
}

bool Builder::add_dir(u32 dir, const std::string& name, u32* inum, std::string* err) {
    if (!alloc_inode(fs::InodeType::Dir, inum, err) || !link(dir, name, *inum, err) || !link(*inum, ".", *inum, err) ||
        !link(*inum, "..", dir, err))
        return false;
    fs::DiskInode parent = img_.inode(sb_, dir);
    parent.nlink++;
    img_.set_inode(sb_, dir, parent);
    return true;
}

bool Builder::add_device(u32 dir, const std::string& name, i16 major, i16 minor, u32* inum, std::string* err) {
    if (!alloc_inode(fs::InodeType::Device, inum, err) || !link(dir, name, *inum, err)) return false;
    fs::DiskInode di = img_.inode(sb_, *inum);
    di.major = major;
    di.minor = minor;
    img_.set_inode(sb_, *inum, di);
    return true;
}

bool Builder::add_fifo(u32 dir, const std::string& name, u32* inum, std::string* err) {
    return alloc_inode(fs::InodeType::Fifo, inum, err) && link(dir, name, *inum, err);
}

bool Builder::set_owner(u32 inum, u32 uid, u32 gid, u16 mode, std::string* err) {
    if (mode > perm::kModeMask || inum == 0 || inum >= next_inode_) {
        char buf[80];
        std::snprintf(buf, sizeof buf, "bad owner change: inode %u, mode 0%o", inum, static_cast<unsigned>(mode));
        *err = buf;
        return false;
    }
    fs::DiskInode di = img_.inode(sb_, inum);
    di.uid = uid;
    di.gid = gid;
    di.mode = mode;
    img_.set_inode(sb_, inum, di);
    return true;
}

Image Builder::finish() {
    for (u32 b = 0; b < next_block_; b++) img_.set_bitmap_bit(sb_, b, true);
    return img_;
}

}  // namespace q::tools
