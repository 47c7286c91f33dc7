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

// Read the entry at byte offset off of the locked directory dp.
Status read_entry(Inode* dp, u32 off, fs::DirEntry* de) {
    Q_TRY(got, readi(dp, false, reinterpret_cast<u64>(de), off, kEntrySize));
    if (got != kEntrySize) return Error::BadArgument;  // torn directory
    return {};
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
    Q_TRY(ip, walk_start(path));
    char elem[fs::kNameBuf];
    while ((path = fs::next_elem(path, elem)) != nullptr) {
        InodeRef next;
        {
            InodeLock lock(ip.get());
            if (ip->type != fs::InodeType::Dir) return Error::NotDir;
            Q_CHECK(check_access(ip.get(), perm::kExec));
            if (parent && *path == '\0') {
                memmove(name, elem, fs::kNameBuf);
                return ip;  // unlocked on the way out, still referenced
            }
            Q_TRY(found, dirlookup(ip.get(), elem, nullptr));
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
    fs::DirEntry de;
    for (u32 off = 0; off + kEntrySize <= dp->size; off += kEntrySize) {
        Q_CHECK(read_entry(dp, off, &de));
        if (de.inum == 0 || !fs::name_equal(de.name, name)) continue;
        if (poff != nullptr) *poff = off;
        return iget(dp->dev, de.inum);
    }
    return Error::NotFound;
}

Status dirlink(Inode* dp, const char* name, u32 inum) {
    if (inum == 0 || inum > 0xffff) return Error::BadArgument;
    if (dp->nlink == 0) return Error::NotFound;  // dead directory
    {
        const auto existing = dirlookup(dp, name, nullptr);  // dropped at once
        if (existing.ok()) return Error::Exists;
        if (existing.error() != Error::NotFound) return existing.error();
    }

    // First free slot, or a new one at the end.
    fs::DirEntry de;
    u32 off = 0;
    for (; off + kEntrySize <= dp->size; off += kEntrySize) {
        Q_CHECK(read_entry(dp, off, &de));
        if (de.inum == 0) break;
    }
    de.inum = static_cast<u16>(inum);
    fs::name_store(de.name, name);
    Q_TRY(written, writei(dp, false, reinterpret_cast<u64>(&de), off, kEntrySize));
    if (written != kEntrySize) return Error::NoSpace;
    return {};
}

Result<bool> dir_is_empty(Inode* dp) {
    fs::DirEntry de;
    for (u32 off = 2 * kEntrySize; off + kEntrySize <= dp->size; off += kEntrySize) {
        Q_CHECK(read_entry(dp, off, &de));
        if (de.inum != 0) return false;
    }
    return true;
}

Result<InodeRef> namei(const char* path) {
    char name[fs::kNameBuf];
    return namex(path, false, name);
}

Result<InodeRef> nameiparent(const char* path, char* name) { return namex(path, true, name); }

}  // namespace q
