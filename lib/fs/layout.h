// lib/fs/layout.h - the on-disk layout of the file system.
//
// One definition used by the kernel, mkfs and fsck. The disk is an array of
// 1024-byte blocks:
//
//   [ boot | super, orphans | log header + log | inodes | bitmap | data ... ]
//
// Block 0 is unused, block 1 the superblock, which records where every other
// region starts, and in its second sector the orphan table (inodes unlinked
// while still in use, which the next boot frees if the system stops
// first). Inodes have 12 direct block numbers and one singly indirect
// block, and an owner (uid, gid) and a mode (rwx bits for owner, group,
// others, plus sticky; lib/fs/perm.h decides what they allow). Directories
// are files of 16-byte entries (inode number + 14-byte name, not
// necessarily NUL-terminated). All integers are little endian, as on
// RISC-V and x86-64 hosts; static_asserts pin every size.
//
// Format versions: 1 (no version field, read as 0) had 64-byte inodes with
// no owner or mode; 2 added SuperBlock::version and the 128-byte inode; 3
// the orphan table. A version-2 image has zeros where the table goes (an
// empty table), so the kernel and fsck read versions 2 and 3; the kernel
// writes 3 into the superblock whenever it writes the table, so an older
// kernel refuses an image that may list orphans. Any other version is
// refused with a message saying so.
#pragma once

#include "lib/params.h"
#include "lib/types.h"

namespace q::fs {

constexpr u32 kBlockSize = 1024;
constexpr u32 kMagic = 0x10203040;
constexpr u32 kRootInode = 1;
constexpr u32 kDirect = 12;
constexpr u32 kIndirect = kBlockSize / sizeof(u32);
constexpr u32 kMaxFileBlocks = kDirect + kIndirect;
constexpr u32 kNameLen = 14;
constexpr u32 kFormatVersion = 3;
constexpr u32 kOldestFormatVersion = 2;  // read as well (no orphan table yet)
constexpr u32 kSuperBlockNo = 1;

// Inode types, as struct stat reports them (xv6-riscv ABI).
// Fifo: a named pipe (mkfifo); it never holds data blocks.
enum class InodeType : i16 { Free = 0, Dir = 1, File = 2, Device = 3, Fifo = 4 };

struct SuperBlock {
    u32 magic;       // kMagic
    u32 size;        // total blocks in the image
    u32 nblocks;     // data blocks
    u32 ninodes;     // inodes
    u32 nlog;        // log blocks (header included)
    u32 logstart;    // first log block (the header)
    u32 inodestart;  // first inode block
    u32 bmapstart;   // first free-bitmap block
    u32 version;     // kFormatVersion (0 on version-1 images: the field was not there)
};
static_assert(sizeof(SuperBlock) == 36);

struct DiskInode {
    InodeType type;
    i16 major;  // device files only
    i16 minor;
    i16 nlink;               // directory entries naming this inode
    u32 size;                // bytes
    u32 addrs[kDirect + 1];  // direct blocks, then the indirect block
    u32 uid;                 // owner
    u32 gid;                 // group
    u16 mode;                // rwx x3 and sticky (perm::kModeMask); the type is separate
    u16 pad;
    u8 reserved[52];  // zero; room for times and the like without another format change
};
static_assert(sizeof(DiskInode) == 128 && __builtin_offsetof(DiskInode, uid) == 64);
static_assert(kBlockSize % sizeof(DiskInode) == 0);

struct DirEntry {
    u16 inum;             // 0 = free slot
    char name[kNameLen];  // NUL-padded, not terminated when 14 long
};
static_assert(sizeof(DirEntry) == 16);
static_assert(kBlockSize % sizeof(DirEntry) == 0);

// The log's header block: how many blocks (slots) are committed, and their
// homes; slot i is log block logstart + 1 + i. The last transaction's slots
// [prev, n) are written together with this header, so the header carries
// their checksum (lib/fs/log_logic.h): recovery replays them only if it
// matches, else only the slots before prev. A header without kLogMagic
// (written before checksums existed) has every slot trusted.
constexpr u32 kLogMagic = 0x31474f4c;  // "LOG1"
struct LogHeader {
    u32 n;
    u32 block[param::kLogBlocks];
    u32 magic;  // kLogMagic, or 0 on older images
    u32 prev;   // slots committed before the last transaction
    u64 sum;    // log checksum of slots [prev, n) with their homes
};
static_assert(__builtin_offsetof(LogHeader, magic) == 4 + 4 * param::kLogBlocks &&
              __builtin_offsetof(LogHeader, sum) % 8 == 0);
static_assert(sizeof(LogHeader) <= 512, "the header is one sector: its write is atomic (the commit point)");

// The orphan table, in the superblock's block after the superblock's sector
// (so a write of the table rewrites that sector with the same bytes: the
// superblock never tears). A slot holds the number of an inode whose last
// link was removed while it was still in use (an open file, a process's
// cwd, a path walk); the last reference frees the inode and clears its
// slot, in one transaction. Whatever is listed when the system stops is
// freed by the next boot; fsck counts a listed inode with nlink 0 as one
// the next boot frees, not as damage. 0 marks an empty slot. Every orphan
// holds an in-memory inode, so the table never needs more slots than the
// kernel's inode table has entries.
constexpr u32 kOrphanMagic = 0x4e414850;  // "PHAN"
constexpr u32 kOrphanTableOffset = 512;
constexpr u32 kOrphanSlots = 252;
struct OrphanTable {
    u32 magic;  // kOrphanMagic once the kernel wrote the table; 0 before
    u32 pad;    // zero
    u16 inum[kOrphanSlots];
};
static_assert(sizeof(OrphanTable) == 512 && kOrphanTableOffset + sizeof(OrphanTable) == kBlockSize);
static_assert(kOrphanTableOffset >= sizeof(SuperBlock) && kOrphanTableOffset % 512 == 0,
              "the table has a sector of its own, after the superblock's");
static_assert(kOrphanSlots >= static_cast<u32>(param::kMaxInodes), "every in-memory inode can be an orphan at once");

constexpr u32 kInodesPerBlock = kBlockSize / sizeof(DiskInode);
constexpr u32 kBitsPerBlock = kBlockSize * 8;

constexpr u32 inode_block(u32 inum, const SuperBlock& sb) { return inum / kInodesPerBlock + sb.inodestart; }
constexpr u32 bitmap_block(u32 b, const SuperBlock& sb) { return b / kBitsPerBlock + sb.bmapstart; }

// Compute a superblock for an image of `size` blocks with `ninodes` inodes.
constexpr SuperBlock make_superblock(u32 size, u32 ninodes) {
    const u32 nlog = param::kLogBlocks;
    const u32 ninodeblocks = ninodes / kInodesPerBlock + 1;
    const u32 nbitmap = size / kBitsPerBlock + 1;
    const u32 nmeta = 2 + nlog + ninodeblocks + nbitmap;
    SuperBlock sb{};
    sb.magic = kMagic;
    sb.size = size;
    sb.nblocks = size - nmeta;
    sb.ninodes = ninodes;
    sb.nlog = nlog;
    sb.logstart = 2;
    sb.inodestart = 2 + nlog;
    sb.bmapstart = 2 + nlog + ninodeblocks;
    sb.version = kFormatVersion;
    return sb;
}
constexpr u32 first_data_block(const SuperBlock& sb) { return sb.size - sb.nblocks; }

}  // namespace q::fs
