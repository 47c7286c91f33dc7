// kernel/fs/orphan.cc - the on-disk orphan table: inodes unlinked while in use.
//
// POSIX lets a file be removed while it is open and a directory while it is
// some process's cwd; the inode lives on, with no name (nlink 0), until the
// last reference goes (iput frees it then). If the system halts or crashes
// first, the disk would keep an allocated inode nobody can reach: for a
// file, leaked blocks; for a removed directory, a '..' entry that may name
// a directory freed since. So the unlink that removes the last link of an
// inode others still hold lists it in the orphan table (lib/fs/layout.h:
// OrphanTable, in the superblock's block), in the unlink's own transaction;
// the iput that frees it clears its slot, in the freeing transaction. At
// boot, after the log is recovered, orphan_reclaim frees every listed inode
// as that last iput would have, and empties the table. Both changes go
// through the log, so at every commit point an allocated inode with nlink 0
// is listed, and a listed inode is allocated with nlink 0 (fsck checks both).
//
// An unlink whose caller holds the only reference frees the inode before
// its transaction ends, so it lists nothing: only inodes that really stay
// in use cost a slot (and a write of the superblock's block).
//
// `g_orphans.inum` mirrors the table's slots since boot. Its sleep lock
// serialises updates of the table and the mirror (a write of block 1 may
// sleep). Lock order: an inode's lock, then this lock, then buffers.
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/sync/sleeplock.h"

namespace q {
namespace {

struct Orphans {
    SleepLock lock{"orphans"};
    u32 dev = 0;
    u32 listed = 0;  // nonzero slots
    u16 inum[fs::kOrphanSlots] = {};
};
constinit Orphans g_orphans;

fs::OrphanTable* table_of(const BufRef& b) {
    return reinterpret_cast<fs::OrphanTable*>(b.data() + fs::kOrphanTableOffset);
}

// Set slot i of the table on disk (through the log) and in the mirror
// (orphan lock held, in a transaction).
void set_slot(u32 i, u16 inum) {
    BufRef b(g_orphans.dev, fs::kSuperBlockNo);
    fs::OrphanTable* t = table_of(b);
    t->magic = fs::kOrphanMagic;
    t->inum[i] = inum;
    // The image may list orphans from now on: a kernel that cannot free
    // them must refuse it (lib/fs/layout.h, format versions).
    reinterpret_cast<fs::SuperBlock*>(b.data())->version = fs::kFormatVersion;
    log_write(b.get());
    if (g_orphans.inum[i] == 0 && inum != 0) g_orphans.listed++;
    if (g_orphans.inum[i] != 0 && inum == 0) g_orphans.listed--;
    g_orphans.inum[i] = inum;
}

// The slot holding inum, or kOrphanSlots (orphan lock held).
u32 slot_of(u16 inum) {
    for (u32 i = 0; i < fs::kOrphanSlots; i++)
        if (g_orphans.inum[i] == inum) return i;
    return fs::kOrphanSlots;
}

// Is disk inode inum allocated with no links (what a listed inode must be)?
bool unlinked_on_disk(u32 dev, u32 inum) {
    const fs::SuperBlock& sb = superblock();
    if (inum == 0 || inum >= sb.ninodes) return false;
    BufRef b(dev, fs::inode_block(inum, sb));
    const fs::DiskInode* di = reinterpret_cast<const fs::DiskInode*>(b.data()) + inum % fs::kInodesPerBlock;
    return di->type != fs::InodeType::Free && di->nlink == 0;
}

// Load the table into the mirror (boot); false if it lists nothing.
bool load_table(u32 dev) {
    g_orphans.dev = dev;
    g_orphans.listed = 0;
    BufRef b(dev, fs::kSuperBlockNo);
    const fs::OrphanTable* t = table_of(b);
    for (u32 i = 0; i < fs::kOrphanSlots; i++) {
        g_orphans.inum[i] = t->magic == fs::kOrphanMagic ? t->inum[i] : 0;
        g_orphans.listed += g_orphans.inum[i] != 0;
    }
    return g_orphans.listed > 0;
}

}  // namespace

void orphan_add(Inode* ip) {
    SleepGuard guard(g_orphans.lock);
    const u16 inum = static_cast<u16>(ip->inum);
    if (slot_of(inum) != fs::kOrphanSlots) return;  // listed already
    const u32 free = slot_of(0);
    if (free == fs::kOrphanSlots) {  // cannot happen: a slot per in-memory inode (layout.h)
        kprintf("fs: orphan table full; inode %u is leaked if the system stops before its last close\n", ip->inum);
        return;
    }
    set_slot(free, inum);
}

void orphan_forget(Inode* ip) {
    SleepGuard guard(g_orphans.lock);
    if (g_orphans.listed == 0) return;
    const u32 i = slot_of(static_cast<u16>(ip->inum));
    if (i != fs::kOrphanSlots) set_slot(i, 0);
}

void orphan_reclaim(u32 dev) {
    if (!load_table(dev)) return;
    u32 freed = 0, dropped = 0;
    for (u32 i = 0; i < fs::kOrphanSlots; i++) {
        const u16 inum = g_orphans.inum[i];
        if (inum == 0) continue;
        FsOp op;
        if (unlinked_on_disk(dev, inum)) {
            auto ip = iget(dev, inum);  // its last reference: iput frees it and clears the slot
            if (ip.ok()) {
                InodeLock lock(ip.value().get());
                freed++;
                continue;
            }
        }
        SleepGuard guard(g_orphans.lock);  // a damaged entry: drop it, free nothing
        set_slot(i, 0);
        dropped++;
    }
    kprintf("fs: freed %u orphaned inodes (unlinked while in use when the system stopped)", freed);
    if (dropped > 0) kprintf("; dropped %u orphan-table entries naming no unlinked inode", dropped);
    kprintf("\n");
}

}  // namespace q
