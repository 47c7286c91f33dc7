// kernel/fs/inode.cc - superblock, block allocation, inodes, file contents.
//
// The inode table caches up to param::kMaxInodes in-memory inodes. An entry
// with ref == 0 is free for reuse; one with ref > 0 names exactly one disk
// inode (dev, inum), and no two entries name the same one. An entry may
// outlive its disk inode briefly (iput frees the disk inode before it drops
// its reference), so ialloc reuses a number only once its old entry is
// gone, never sharing it with the new inode. The last
// param::kRootReservedInodes free entries are root's: an unprivileged
// process that would take one gets NoFile, as if the table were full, so a
// user holding inodes (open files, cwds) cannot keep root from running ls,
// exec or kill (Linux keeps the last files for root the same way). The
// table lock guards dev, inum and ref of every entry; each inode's sleep
// lock guards the copy of the disk inode (valid, type, size, addrs, ...).
// An inode whose last link goes while others hold it is listed in the
// on-disk orphan table (iunlinked, orphan.cc) until the iput that frees it.
//
// Blocks are found through bmap(): 12 direct addresses, then one indirect
// block of 256 more; the in-memory inode keeps a window of 16 indirect
// entries (Inode::map), so sequential reads do not lock the indirect block
// on every call. Only bmap and itrunc change an inode's indirect block, both
// under the inode's lock, and both keep the window in step. Free blocks are tracked in the bitmap; allocation scans
// it from the first data block and zeroes the block it hands out. Every
// change to a disk structure goes through log_write(), so callers must be in
// a transaction. Running out of blocks or disk inodes returns NoSpace.
// Blocks are held through BufRef and returned inodes through InodeRef
// (kernel/fs/fs.h); a block is released before the next one is read
// wherever the original order allowed (the bitmap before zeroing the block
// it gave out), so no path holds more buffers than it needs.
// The table is built at boot (inode_table_init; a host test's every boot):
// an inode's defaults (its lock's name, map_first) are not zero, so a
// constinit table put all 44 KiB of it in the image's .data; it is a
// BootBuilt (lib/in_place.h), zeros in .bss until then.
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/pcache.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"
#include "lib/abi/abi.h"
#include "lib/in_place.h"
#include "lib/params.h"

namespace q {
namespace {

constinit fs::SuperBlock g_sb = {};
constinit u32 g_root_dev = param::kRootDev;

struct InodeTable {
    SpinLock lock{"itable"};
    Inode inodes[param::kMaxInodes];
};
constinit BootBuilt<InodeTable> g_itable;

constexpr u64 kMaxFileBytes = u64(fs::kMaxFileBlocks) * fs::kBlockSize;
constexpr u8 kZeroBlock[fs::kBlockSize] = {};

void bzero(u32 dev, u32 blockno) {
    BufRef b(dev, blockno);
    memset(b.data(), 0, fs::kBlockSize);
    log_write(b.get());
}

// Mark the first free data block in use in the bitmap; NoSpace when full.
Result<u32> claim_block(u32 dev) {
    for (u32 blk = fs::first_data_block(g_sb); blk < g_sb.size;) {
        BufRef bp(dev, fs::bitmap_block(blk, g_sb));
        // Bits of this bitmap block, from blk up to the block's or disk's end.
        const u32 block_end = (blk / fs::kBitsPerBlock + 1) * fs::kBitsPerBlock;
        const u32 end = block_end < g_sb.size ? block_end : g_sb.size;
        for (; blk < end; blk++) {
            const u32 bit = blk % fs::kBitsPerBlock;
            const u8 mask = static_cast<u8>(1u << (bit % 8));
            if ((bp.data()[bit / 8] & mask) == 0) {
                bp.data()[bit / 8] |= mask;
                log_write(bp.get());
                return blk;
            }
        }
    }
    return Error::NoSpace;
}

// Allocate a zeroed data block; NoSpace when the disk is full.
Result<u32> balloc(u32 dev) {
    auto blk = TRY(claim_block(dev));  // the bitmap block is released here
    bzero(dev, blk);
    return blk;
}

void bfree(u32 dev, u32 blockno) {
    if (blockno < fs::first_data_block(g_sb) || blockno >= g_sb.size)
        panic("bfree: block %u outside the data area: corrupt file system", blockno);
    BufRef bp(dev, fs::bitmap_block(blockno, g_sb));
    const u32 bit = blockno % fs::kBitsPerBlock;
    const u8 mask = static_cast<u8>(1u << (bit % 8));
    if ((bp.data()[bit / 8] & mask) == 0) panic("bfree: block %u already free", blockno);
    bp.data()[bit / 8] &= static_cast<u8>(~mask);
    log_write(bp.get());
}

fs::DiskInode* disk_inode(const BufRef& bp, u32 inum) {
    return reinterpret_cast<fs::DiskInode*>(bp.data()) + inum % fs::kInodesPerBlock;
}

// The disk block holding the n'th block of the file. A missing block is
// allocated when `alloc`, else reported as 0 (a hole reads as zeros: only a
// damaged inode has one, and reads run outside transactions). Indirect
// entries come from the inode's map window when it holds them; a read that
// misses the window refills it from the indirect block.
Result<u32> bmap(Inode* ip, u32 bn, bool alloc) {
    if (bn < fs::kDirect) {
        if (ip->addrs[bn] == 0) {
            if (!alloc) return 0u;
            auto blk = TRY(balloc(ip->dev));
            ip->addrs[bn] = blk;
        }
        return ip->addrs[bn];
    }
    bn -= fs::kDirect;
    if (bn >= fs::kIndirect) return Error::TooBig;
    // The entry's place in the window; kMapWindow (outside) when there is no
    // window or bn is not in it (bn below map_first wraps to a huge slot).
    const u32 slot = ip->map_first == kNoMap ? kMapWindow : bn - ip->map_first;
    if (slot < kMapWindow && (ip->map[slot] != 0 || !alloc)) return ip->map[slot];
    if (ip->addrs[fs::kDirect] == 0) {
        if (!alloc) return 0u;
        auto ind = TRY(balloc(ip->dev));
        ip->addrs[fs::kDirect] = ind;
    }
    BufRef bp(ip->dev, ip->addrs[fs::kDirect]);
    u32* table = reinterpret_cast<u32*>(bp.data());
    if (table[bn] == 0 && alloc) {
        auto blk = TRY(balloc(ip->dev));
        table[bn] = blk;
        log_write(bp.get());
        if (slot < kMapWindow) ip->map[slot] = blk;
    }
    if (!alloc) {
        static_assert(fs::kIndirect % kMapWindow == 0, "windows tile the indirect block");
        ip->map_first = bn / kMapWindow * kMapWindow;
        memmove(ip->map, table + ip->map_first, sizeof ip->map);
    }
    return table[bn];
}

}  // namespace

const fs::SuperBlock& superblock() { return g_sb; }
u32 root_device() { return g_root_dev; }

void fs_init(u32 dev) {
    memmove(&g_sb, BufRef(dev, 1).data(), sizeof g_sb);
    if (g_sb.magic != fs::kMagic)
        panic("fs_init: bad superblock magic %x on device %u (expected %x): not a quanta file system", g_sb.magic, dev,
              fs::kMagic);
    if (g_sb.version < fs::kOldestFormatVersion || g_sb.version > fs::kFormatVersion)
        panic(
            "fs_init: device %u holds file-system format version %u, this kernel reads only versions %u-%u "
            "(inodes with owners and modes): rebuild the image with this tree's mkfs",
            dev, g_sb.version, fs::kOldestFormatVersion, fs::kFormatVersion);
    if (g_sb.size == 0 || g_sb.ninodes == 0 || g_sb.nblocks >= g_sb.size)
        panic("fs_init: inconsistent superblock (size %u, inodes %u, data %u)", g_sb.size, g_sb.ninodes, g_sb.nblocks);
    g_root_dev = dev;
    log_init(dev, g_sb);
    orphan_reclaim(dev);
}

// Every entry free (ref 0, nothing loaded); before the first iget.
void inode_table_init() {
    const InodeTable& t = g_itable.build();
    if (!t.lock.name()) panic("inode_table_init: the table kept no defaults");
    for (const Inode& ip : t.inodes)
        if (!ip.lock.name() || ip.map_first != kNoMap) panic("inode_table_init: an inode kept no defaults");
}

namespace {

// The table entry for (dev, inum), its ref raised, under the table lock;
// iget wraps it in an InodeRef only after the lock is released. With
// `fresh` (ialloc's number, just claimed on disk) an entry still
// referenced is TryAgain instead: see ialloc.
Result<Inode*> itable_ref(u32 dev, u32 inum, bool fresh) {
    LockGuard guard(g_itable->lock);
    Inode* empty = nullptr;
    int nfree = 0;
    for (Inode& ip : g_itable->inodes) {
        if (ip.ref > 0 && ip.dev == dev && ip.inum == inum) {
            if (fresh) return Error::TryAgain;
            ip.ref++;
            return &ip;
        }
        if (ip.ref == 0 && nfree++ == 0) empty = &ip;
    }
    if (empty == nullptr) return Error::NoFile;
    if (nfree <= param::kRootReservedInodes && !current_cred().root()) return Error::NoFile;  // root's reserve
    empty->dev = dev;
    empty->inum = inum;
    empty->ref = 1;
    empty->valid = false;
    return empty;
}

// Claim disk inode inum for a new inode of the given type, if it is free.
bool claim_disk_inode(u32 dev, u32 inum, fs::InodeType type) {
    BufRef bp(dev, fs::inode_block(inum, g_sb));
    fs::DiskInode* dip = disk_inode(bp, inum);
    if (dip->type != fs::InodeType::Free) return false;
    memset(dip, 0, sizeof *dip);
    dip->type = type;
    log_write(bp.get());
    return true;
}

// Give back a disk inode ialloc claimed but cannot use.
void unclaim_disk_inode(u32 dev, u32 inum) {
    BufRef bp(dev, fs::inode_block(inum, g_sb));
    disk_inode(bp, inum)->type = fs::InodeType::Free;
    log_write(bp.get());
}

}  // namespace

Result<InodeRef> iget(u32 dev, u32 inum) {
    auto ip = TRY(itable_ref(dev, inum, false));
    return InodeRef(ip);
}

// A number free on disk may still have a referenced table entry: iput marks
// the disk inode free before it drops its own reference, and a process
// preempted in between leaves the entry with ref 1 for a while. Sharing that
// entry, the new inode would count the stale reference as its own, and its
// last iput (create's undo, an unlink) would see 2 and free nothing: an
// allocated inode with no links, unlisted (the hostile dirrace failure,
// tests/host/kfs_race_test.cc). So such a number is given back and the next
// one tried; a number is reused only once its old entry is gone.
Result<InodeRef> ialloc(u32 dev, fs::InodeType type) {
    for (u32 inum = 1; inum < g_sb.ninodes; inum++) {
        if (!claim_disk_inode(dev, inum, type)) continue;
        auto ip = itable_ref(dev, inum, true);
        if (ip.ok()) return InodeRef(ip.value());
        unclaim_disk_inode(dev, inum);
        if (ip.error() != Error::TryAgain) return ip.error();  // the inode table is full
    }
    return Error::NoSpace;
}

void iupdate(Inode* ip) {
    BufRef bp(ip->dev, fs::inode_block(ip->inum, g_sb));
    fs::DiskInode* dip = disk_inode(bp, ip->inum);
    dip->type = ip->type;
    dip->major = ip->major;
    dip->minor = ip->minor;
    dip->nlink = ip->nlink;
    dip->size = ip->size;
    memmove(dip->addrs, ip->addrs, sizeof ip->addrs);
    dip->uid = ip->uid;
    dip->gid = ip->gid;
    dip->mode = ip->mode;
    log_write(bp.get());
}

Inode* idup(Inode* ip) {
    LockGuard guard(g_itable->lock);
    ip->ref++;
    return ip;
}

void ilock(Inode* ip) {
    if (ip == nullptr || ip->ref < 1) panic("ilock: inode not referenced");
    ip->lock.acquire();
    if (ip->valid) return;
    {
        BufRef bp(ip->dev, fs::inode_block(ip->inum, g_sb));
        const fs::DiskInode* dip = disk_inode(bp, ip->inum);
        ip->type = dip->type;
        ip->major = dip->major;
        ip->minor = dip->minor;
        ip->nlink = dip->nlink;
        ip->size = dip->size;
        memmove(ip->addrs, dip->addrs, sizeof ip->addrs);
        ip->uid = dip->uid;
        ip->gid = dip->gid;
        ip->mode = dip->mode;
    }
    ip->map_first = kNoMap;
    ip->pc_shared = false;  // no mapping holds it: every cached page is clean
    ip->valid = true;
    if (ip->type == fs::InodeType::Free) panic("ilock: inode %u is free on disk: corrupt directory entry", ip->inum);
}

void iunlock(Inode* ip) {
    if (ip == nullptr || !ip->lock.holding() || ip->ref < 1) panic("iunlock: inode not locked");
    ip->lock.release();
}

void iput(Inode* ip) {
    g_itable->lock.acquire();
    if (ip->ref == 1 && ip->valid && ip->nlink == 0 && fs_writable()) {
        // Last reference to an unlinked inode: no directory names it, so no
        // one else can find it; free it on disk without the table lock.
        // (After a disk write error it stays allocated on disk, which fsck
        // reports as a harmless orphan.)
        g_itable->lock.release();
        ip->lock.acquire();
        itrunc(ip);
        ip->type = fs::InodeType::Free;
        iupdate(ip);
        orphan_forget(ip);  // in the same transaction as the free
        ip->valid = false;
        ip->lock.release();
        g_itable->lock.acquire();
    }
    ip->ref--;
    g_itable->lock.release();
}

// The two counts change by atomic operations; a test of one and the raise
// of the other (deny_write, get_write_access) happen together under the
// table lock. Dropping one, or raising text_users where it is already
// above 0 (deny_write_again: fork), needs no lock.
Status deny_write(Inode* ip) {
    LockGuard guard(g_itable->lock);
    if (__atomic_load_n(&ip->write_users, __ATOMIC_RELAXED) > 0) return Error::TextBusy;
    __atomic_fetch_add(&ip->text_users, 1, __ATOMIC_RELAXED);
    return {};
}

void deny_write_again(Inode* ip) {
    if (__atomic_fetch_add(&ip->text_users, 1, __ATOMIC_RELAXED) <= 0)
        panic("deny_write_again: inode %u was not denied writes", ip->inum);
}

void allow_write(Inode* ip) {
    if (__atomic_fetch_sub(&ip->text_users, 1, __ATOMIC_RELAXED) <= 0)
        panic("allow_write: inode %u is not denied writes", ip->inum);
}

Status get_write_access(Inode* ip) {
    LockGuard guard(g_itable->lock);
    if (__atomic_load_n(&ip->text_users, __ATOMIC_RELAXED) > 0) return Error::TextBusy;
    __atomic_fetch_add(&ip->write_users, 1, __ATOMIC_RELAXED);
    return {};
}

void put_write_access(Inode* ip) {
    if (__atomic_fetch_sub(&ip->write_users, 1, __ATOMIC_RELAXED) <= 0)
        panic("put_write_access: inode %u has no writers", ip->inum);
}

bool iput_if_shared(Inode* ip) {
    LockGuard guard(g_itable->lock);
    if (ip->ref <= 1) return false;
    ip->ref--;
    return true;
}

void iunlinked(Inode* ip) {
    bool held;
    {
        LockGuard guard(g_itable->lock);
        held = ip->ref > 1;
    }
    // With the caller's the only reference, its iput frees the inode before
    // the transaction ends; nobody can take a new one (no name leads here).
    if (held) orphan_add(ip);
}

void itrunc(Inode* ip) {
    pcache_truncate(ip, ip->size);  // cached pages of the old contents go
    for (u32 i = 0; i < fs::kDirect; i++) {
        if (ip->addrs[i] != 0) {
            bfree(ip->dev, ip->addrs[i]);
            ip->addrs[i] = 0;
        }
    }
    if (ip->addrs[fs::kDirect] != 0) {
        {
            BufRef bp(ip->dev, ip->addrs[fs::kDirect]);
            const u32* table = reinterpret_cast<const u32*>(bp.data());
            for (u32 j = 0; j < fs::kIndirect; j++)
                if (table[j] != 0) bfree(ip->dev, table[j]);
        }
        bfree(ip->dev, ip->addrs[fs::kDirect]);
        ip->addrs[fs::kDirect] = 0;
    }
    ip->map_first = kNoMap;
    ip->size = 0;
    iupdate(ip);
}

void stati(Inode* ip, struct stat* st) {
    st->dev = static_cast<int>(ip->dev);
    st->ino = ip->inum;
    st->type = static_cast<short>(ip->type);
    st->nlink = ip->nlink;
    st->size = ip->size;
}

void xstati(Inode* ip, struct xstat* st) {
    *st = xstat{};
    st->dev = static_cast<int>(ip->dev);
    st->ino = ip->inum;
    st->type = static_cast<short>(ip->type);
    st->nlink = ip->nlink;
    st->mode = ip->mode;
    st->uid = ip->uid;
    st->gid = ip->gid;
    st->size = ip->size;
}

Result<u32> iblock(Inode* ip, u32 bn) { return bmap(ip, bn, false); }

Result<u32> readi(Inode* ip, bool user_dst, u64 dst, u32 off, u32 n) {
    if (off > ip->size || off + n < off) return 0u;
    if (off + n > ip->size) n = ip->size - off;
    u32 tot = 0;
    while (tot < n) {
        auto blk = bmap(ip, off / fs::kBlockSize, false);
        if (!blk.ok()) return tot > 0 ? Result<u32>(tot) : Result<u32>(blk.error());
        const u32 in_block = off % fs::kBlockSize;
        const u32 m = (n - tot) < (fs::kBlockSize - in_block) ? (n - tot) : (fs::kBlockSize - in_block);
        Status st;
        if (ip->pc_shared && pcache_read(ip, off, user_dst, dst, m, &st)) {
            // a shared mapping's stores are in the cached page, not yet on disk
        } else if (blk.value() == 0) {
            st = either_copyout(user_dst, dst, kZeroBlock + in_block, m);
        } else {
            st = either_copyout(user_dst, dst, BufRef(ip->dev, blk.value()).data() + in_block, m);
        }
        if (!st.ok()) return tot > 0 ? Result<u32>(tot) : Result<u32>(st.error());
        tot += m;
        off += m;
        dst += m;
    }
    return tot;
}

Result<u32> writei(Inode* ip, bool user_src, u64 src, u32 off, u32 n) {
    if (off > ip->size || off + n < off) return Error::BadArgument;
    if (n > 0 && u64(off) >= kMaxFileBytes) return Error::TooBig;
    if (u64(off) + n > kMaxFileBytes) n = static_cast<u32>(kMaxFileBytes - off);  // what fits: a short write
    u32 tot = 0;
    Error err = Error::Ok;
    while (tot < n) {
        auto blk = bmap(ip, off / fs::kBlockSize, true);
        if (!blk.ok()) {
            err = blk.error();
            break;
        }
        const u32 in_block = off % fs::kBlockSize;
        const u32 m = (n - tot) < (fs::kBlockSize - in_block) ? (n - tot) : (fs::kBlockSize - in_block);
        Status st;
        {
            BufRef bp(ip->dev, blk.value());
            st = either_copyin(bp.data() + in_block, user_src, src, m);
            // Logged even after a failed copy: the cached block may hold part
            // of the user's bytes, and cache and disk must not diverge. The
            // page cache gets the same bytes (kernel/mm/pcache.h).
            log_write(bp.get());
            pcache_wrote(ip, off, bp.data() + in_block, m);
        }
        if (!st.ok()) {
            err = st.error();
            break;
        }
        tot += m;
        off += m;
        src += m;
    }
    if (off > ip->size) ip->size = off;
    // Written even when the size is unchanged: bmap may have added blocks.
    iupdate(ip);
    if (tot == 0 && err != Error::Ok) return err;
    return tot;
}

}  // namespace q
