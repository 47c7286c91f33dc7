// kernel/fs/dir.cc - directories and path lookup.
//
// A directory is a file of fs::DirEntry records; inum 0 marks a free slot.
// Every directory holds "." (itself) and ".." (its parent; the root's is
// itself), which is why a directory's nlink counts its own "." plus its
// children's "..". Names are compared over at most 14 bytes
// (lib/fs/path.h), and a longer path element is truncated to 14.
//
// A removed directory (nlink 0, still open as some process's cwd or in a
// walk) is dead: it names only itself ("."; its ".." may name a freed
// inode), and dirlink refuses to add to it, so nothing can be created in
// it. Both tests run under the directory's lock, the lock do_unlink holds
// while it checks emptiness and drops nlink, so a create racing an unlink
// either lands first (and the unlink fails: not empty) or fails.
//
// Lookups and inserts scan the directory once, a block at a time (scan):
// O(entries) per call, one cached block read per 64 entries. A directory
// holds at most kMaxFileBlocks * 64 = 17,152 entries (the largest file).
//
// Path walks lock one inode at a time: the current directory is unlocked
// (and released) before the next is locked, so a walk through ".." cannot
// deadlock with a walk the other way. Every returned inode is referenced and
// unlocked (an InodeRef). Walks may drop the last reference to a removed
// directory, so callers run them inside a transaction.
//
// Search permission: a walk looks a name up in a directory only if the
// caller may execute (search) it (lib/fs/perm.h); otherwise the walk fails
// with Permission, as in Unix. Stopping at the parent checks nothing more:
// the caller checks what it means to do there.
#include "kernel/fs/fs.h"
#include "kernel/lib/string.h"
#include "kernel/proc/proc.h"
#include "lib/fs/path.h"

namespace q {
namespace {

constexpr u32 kEntrySize = sizeof(fs::DirEntry);
constexpr u32 kEntriesPerBlock = fs::kBlockSize / kEntrySize;

// Call f(entry, offset) for each whole entry of the locked directory dp, in
// order, a block at a time (one bread per 64 entries, the names compared in
// the cached block), until f returns true. Returns whether it did. A hole
// (only in a damaged directory) reads as free entries.
template <typename F>
Result<bool> scan(Inode* dp, F f) {
    static constexpr fs::DirEntry kFree{};
    for (u32 base = 0; base + kEntrySize <= dp->size; base += fs::kBlockSize) {
        const u32 left = dp->size - base;
        const u32 n = left / kEntrySize < kEntriesPerBlock ? left / kEntrySize : kEntriesPerBlock;
        auto blk = TRY(iblock(dp, base / fs::kBlockSize));
        if (blk == 0) {
            for (u32 i = 0; i < n; i++)
                if (f(kFree, base + i * kEntrySize)) return true;
            continue;
        }
        BufRef b(dp->dev, blk);
        const auto* e = reinterpret_cast<const fs::DirEntry*>(b.data());
        for (u32 i = 0; i < n; i++)
            if (f(e[i], base + i * kEntrySize)) return true;
    }
    return false;
}

// The inode a walk starts from: the root for absolute paths, else the cwd.
Result<InodeRef> walk_start(const char* path) {
    if (*path == '/') return iget(root_device(), fs::kRootInode);
    Inode* cwd = cwd_get();  // the process's, shared by its threads
    if (cwd == nullptr) return Error::NotFound;
    return InodeRef(cwd);
}

// Resolve path; with `parent`, stop one element early and copy the last
// element to name (fs::kNameBuf bytes).
Result<InodeRef> namex(const char* path, bool parent, char* name) {
    auto ip = TRY(walk_start(path));
    char elem[fs::kNameBuf];
    while ((path = fs::next_elem(path, elem)) != nullptr) {
        InodeRef next;
        {
            InodeLock lock(ip.get());
            if (ip->type != fs::InodeType::Dir) return Error::NotDir;
            TRY(check_access(ip.get(), perm::kExec));
            if (parent && *path == '\0') {
                memmove(name, elem, fs::kNameBuf);
                return ip;  // unlocked on the way out, still referenced
            }
            auto found = TRY(dirlookup(ip.get(), elem, nullptr));
            next = move(found);
        }
        ip = move(next);  // ip was unlocked above; this drops its reference
    }
    if (parent) return Error::NotFound;  // the path had no last element ("" or "/")
    return ip;
}

}  // namespace

Result<InodeRef> dirlookup(Inode* dp, const char* name, u32* poff) {
    if (dp->type != fs::InodeType::Dir) return Error::NotDir;
    if (dp->nlink == 0 && !fs::name_equal(".", name)) return Error::NotFound;  // dead
    u32 inum = 0, at = 0;
    auto named = [&](const fs::DirEntry& de, u32 off) {
        if (de.inum == 0 || !fs::name_equal(de.name, name)) return false;
        inum = de.inum;
        at = off;
        return true;
    };
    auto found = TRY(scan(dp, named));
    if (!found) return Error::NotFound;
    if (poff != nullptr) *poff = at;
    return iget(dp->dev, inum);  // (the block is released: iget takes only the table lock anyway)
}

Status dirlink(Inode* dp, const char* name, u32 inum) {
    if (inum == 0 || inum > 0xffff) return Error::BadArgument;
    if (dp->nlink == 0) return Error::NotFound;  // dead directory
    // One pass: the name must not be there; remember the first free slot
    // (else the entry goes at the end).
    u32 off = dp->size;
    bool have_free = false;
    auto taken = [&](const fs::DirEntry& de, u32 at) {
        if (de.inum == 0) {
            if (!have_free) off = at;
            have_free = true;
            return false;
        }
        return fs::name_equal(de.name, name);
    };
    auto exists = TRY(scan(dp, taken));
    if (exists) return Error::Exists;
    fs::DirEntry de{};
    de.inum = static_cast<u16>(inum);
    fs::name_store(de.name, name);
    auto written = TRY(writei(dp, false, reinterpret_cast<u64>(&de), off, kEntrySize));
    if (written != kEntrySize) return Error::NoSpace;
    return {};
}

Result<bool> dir_is_empty(Inode* dp) {
    auto entry = [](const fs::DirEntry& de, u32 off) { return off >= 2 * kEntrySize && de.inum != 0; };
    auto used = TRY(scan(dp, entry));
    return !used;
}

Result<InodeRef> namei(const char* path) {
    char name[fs::kNameBuf];
    return namex(path, false, name);
}

Result<InodeRef> nameiparent(const char* path, char* name) { return namex(path, true, name); }

}  // namespace q
