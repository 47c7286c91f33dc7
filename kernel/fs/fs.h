// kernel/fs/fs.h - the file system: buffer cache, log, inodes, directories.
//
// Layers, bottom up (each in its own file):
//   bio.cc    buffer cache: one cached copy per disk block, sleep-locked
//   log.cc    write-ahead log: every FS system call is one transaction
//             between begin_op() and end_op() (or an FsOp), committed as a
//             group when the last concurrent operation ends
//   inode.cc  superblock, block and inode allocation, the inode table,
//             reading and writing file contents
//   dir.cc    directories and path lookup
//   orphan.cc the on-disk table of inodes unlinked while still in use,
//             freed by the next boot if the system stops first
//
// Inode locking protocol (as in xv6):
//   - ref (guarded by the inode table's spinlock) counts in-memory pointers;
//     an entry with ref > 0 stays in the table. iget/idup raise it, iput
//     drops it and, when the last reference to an unlinked inode goes,
//     frees its blocks and the disk inode (so iput must run in a transaction).
//   - the inode's sleep lock guards everything read from disk (type, size,
//     addrs, nlink, ...); ilock() loads them on first use.
// Locks are taken parent before child during path walks, and only one
// inode at a time in namei.
//
// Ownership (RAII): code holds blocks and inodes through these scope-bound
// types instead of pairing the primitive calls by hand:
//   BufRef       a locked block from bread(); brelse() when it dies
//   InodeRef     one counted reference to an inode; iput() when it dies
//   InodeLock    the inode's sleep lock (ilock/iunlock) for a scope
//   LockedInode  an InodeRef plus its InodeLock (xv6's iunlockput at the end)
// Every early return then releases what it holds, in reverse order of
// acquisition (lock before reference, as xv6's iunlockput). Because the last
// iput may free an unlinked inode, an InodeRef must die inside a
// transaction (declare the FsOp first, so it is destroyed last). A
// reference that outlives a call is kept raw where it is stored (File::inode,
// Proc::cwd: tables that must stay constant-initialised) and adopted back
// into an InodeRef to be dropped.
//
// Errors: allocation failures (no free block, no free disk inode, a full
// inode table) are Error::NoSpace / Error::NoFile results, never panics.
// Corrupt on-disk structures found at boot panic with a clear message.
#pragma once

#include "kernel/fs/buf.h"
#include "kernel/sync/sleeplock.h"
#include "lib/fs/layout.h"
#include "lib/fs/path.h"
#include "lib/fs/perm.h"
#include "lib/result.h"
#include "lib/types.h"

struct stat;
struct xstat;

namespace q {

// ---- buffer cache (bio.cc) -------------------------------------------------
void bcache_init();
// Return the block locked, with its contents loaded. May sleep.
Buf* bread(u32 dev, u32 blockno);
// Keep a locked buffer's contents in memory for good: the disk will never
// get them (the log gave up after a write error).
void bkeep(Buf* b);
// Unlock and drop a reference; the block stays cached.
void brelse(Buf* b);
// Drop the cached copy of a block nobody holds: something wrote the disk
// behind the cache (the log's recovery at boot replays the superblock's
// block, which fs_init read before it).
void bforget(u32 dev, u32 blockno);
// Keep a block cached while the log holds it (reference without the lock).
void bpin(Buf* b);
void bunpin(Buf* b);
// Sizes now, counts since boot (bcstat's, kernel/stats.cc).
struct BcacheStats {
    u64 bufs;   // the fixed floor plus the slabs'
    u64 fixed;  // the floor (param::kBufs)
    u64 pages;  // borrowed from the allocator
    u64 hits, misses;
    u64 grows, shrinks;  // slabs borrowed, given back
};
BcacheStats bcache_stats();
// Is free memory below the cache's reserve (so it no longer grows)? The log
// then installs after every commit, unpinning its blocks so their slabs can
// go back to kalloc.
bool bcache_memory_short();

// ---- log (log.cc) ----------------------------------------------------------
void log_init(u32 dev, const fs::SuperBlock& sb);
void begin_op();
void end_op();
// Record a modified, locked buffer in the current transaction. The block
// reaches its home location after the commit.
void log_write(Buf* b);
// False once a disk write error made the file system read-only: every call
// that would change it then fails with IoError before changing anything.
bool fs_writable();
// Since boot: groups committed, log installs; now: slots used, blocks pinned.
struct LogStats {
    u64 commits;
    u64 installs;
    u32 slots;
    u32 pinned;
};
LogStats log_stats();

// One file-system operation: a transaction for the object's lifetime.
class FsOp {
  public:
    FsOp() { begin_op(); }
    ~FsOp() { end_op(); }
    FsOp(const FsOp&) = delete;
    FsOp& operator=(const FsOp&) = delete;
};

// ---- inodes (inode.cc) -----------------------------------------------------
// bmap's copy of part of an inode's indirect block (see Inode::map).
constexpr u32 kMapWindow = 16;
constexpr u32 kNoMap = ~0u;

struct Inode {
    u32 dev = 0;
    u32 inum = 0;
    int ref = 0;                    // guarded by the inode table lock
    SleepLock lock{"inode", true};  // guards the fields below
    bool valid = false;             // fields below loaded from disk
    fs::InodeType type = fs::InodeType::Free;
    i16 major = 0;
    i16 minor = 0;
    i16 nlink = 0;
    u32 size = 0;
    u32 addrs[fs::kDirect + 1] = {};
    u32 uid = 0;  // owner, group and mode (lib/fs/perm.h)
    u32 gid = 0;
    u16 mode = 0;
    // A copy of kMapWindow entries of the indirect block from entry
    // map_first (kNoMap: none), so sequential reads walk the block once
    // per window, not once per call. Kept in step by bmap; dropped by
    // itrunc and when ilock loads the inode (inode.cc).
    u32 map_first = kNoMap;
    u32 map[kMapWindow] = {};
    // A MAP_SHARED mapping that may write was made of this file since it
    // was loaded: its page-cache pages may be newer than the disk, so
    // readi reads cached pages (kernel/mm/pcache.h). Reset when loaded.
    bool pc_shared = false;
    // Linux's write-access rule (ETXTBSY; atomic counts, tested and raised
    // under the inode table lock: inode.cc): text_users counts the exec images and processes running this file
    // (deny_write), write_users the open files that may write it
    // (get_write_access); one of them is always 0.
    int text_users = 0;
    int write_users = 0;
};

// What the permission rules need of a locked inode.
inline perm::Owner owner_of(const Inode* ip) {
    return perm::Owner{ip->uid, ip->gid, ip->mode, ip->type == fs::InodeType::Dir};
}
// The current process's credentials (kernel/proc; a stand-in in host tests).
const perm::Cred& current_cred();
// Is the current process allowed `want` (perm::Access bits) on locked ip?
inline Status check_access(const Inode* ip, u16 want) {
    return perm::may_access(current_cred(), owner_of(ip), want) ? Status{} : Status(Error::Permission);
}

// Read the superblock (panic on a bad magic number) and recover the log.
// Runs in the first process (it sleeps on disk I/O).
void fs_init(u32 dev);
void inode_table_init();
const fs::SuperBlock& superblock();
u32 root_device();  // the device fs_init() mounted as "/"

class InodeRef;
// Allocate a disk inode of the given type (caller in a transaction).
Result<InodeRef> ialloc(u32 dev, fs::InodeType type);
Result<InodeRef> iget(u32 dev, u32 inum);
Inode* idup(Inode* ip);
void ilock(Inode* ip);
void iunlock(Inode* ip);
void iput(Inode* ip);
// Drop ip's reference if it is not the last one, and say so; false (nothing
// done) if it is: the caller then iputs it in a transaction. A reference
// that others still hold frees nothing, so this needs no transaction (exit
// drops its program file's and cwd's references this way: no begin_op and
// end_op, whose wakeup alone scans every process slot).
bool iput_if_shared(Inode* ip);
// ETXTBSY (Linux's i_writecount): a file being executed may not be opened
// for writing (or truncated), and a file open for writing may not be
// executed. deny_write: one more image runs ip (TextBusy if a file open
// for writing has it); allow_write undoes one. get_write_access: a file
// opened to write ip (TextBusy if a process runs it); put_write_access
// when that file closes. Inode table lock at most: callable anywhere.
Status deny_write(Inode* ip);
void deny_write_again(Inode* ip);  // another image of a file denied already (fork)
void allow_write(Inode* ip);
Status get_write_access(Inode* ip);
void put_write_access(Inode* ip);
// Write the in-memory copy of a locked inode to disk (in a transaction).
void iupdate(Inode* ip);
// The locked inode just lost its last link (in a transaction): if others
// still hold it, list it as an orphan, so that the next boot frees it if the
// system stops before its last iput does.
void iunlinked(Inode* ip);
// Free all of a locked inode's data blocks (in a transaction).
void itrunc(Inode* ip);
void stati(Inode* ip, struct stat* st);
void xstati(Inode* ip, struct xstat* st);  // stat plus owner and mode
// Read/write file contents of a locked inode. Short counts at end of file
// (read) or when the disk fills or the largest file size is reached
// (write); an error only if nothing moved.
Result<u32> readi(Inode* ip, bool user_dst, u64 dst, u32 off, u32 n);
// The disk block holding file block bn of a locked inode (0: a hole, which
// reads as zeros); allocates nothing.
Result<u32> iblock(Inode* ip, u32 bn);
Result<u32> writei(Inode* ip, bool user_src, u64 src, u32 off, u32 n);

// ---- orphans (orphan.cc): inodes unlinked while in use ---------------------
// List the locked inode in the on-disk orphan table (in a transaction).
void orphan_add(Inode* ip);
// Unlist the locked inode if it is listed (in the transaction that frees it).
void orphan_forget(Inode* ip);
// Boot, after log recovery: free every listed inode and empty the table.
void orphan_reclaim(u32 dev);

// ---- owning handles (see the top of the file) -----------------------------
class BufRef {
  public:
    BufRef() = default;
    explicit BufRef(u32 dev, u32 blockno) : b_(bread(dev, blockno)) {}
    ~BufRef() { reset(); }
    BufRef(BufRef&& o) : b_(o.b_) { o.b_ = nullptr; }
    BufRef& operator=(BufRef&&) = delete;
    BufRef(const BufRef&) = delete;
    BufRef& operator=(const BufRef&) = delete;

    Buf* get() const { return b_; }
    Buf* operator->() const { return b_; }
    u8* data() const { return b_->data; }
    void reset() {
        if (b_ != nullptr) brelse(b_);
        b_ = nullptr;
    }

  private:
    Buf* b_ = nullptr;
};

class InodeRef {
  public:
    InodeRef() = default;
    explicit InodeRef(Inode* ip) : ip_(ip) {}  // adopts a reference the caller holds
    ~InodeRef() { reset(); }
    InodeRef(InodeRef&& o) : ip_(o.ip_) { o.ip_ = nullptr; }
    InodeRef& operator=(InodeRef&& o) {
        if (this != &o) {
            reset();
            ip_ = o.ip_;
            o.ip_ = nullptr;
        }
        return *this;
    }
    InodeRef(const InodeRef&) = delete;
    InodeRef& operator=(const InodeRef&) = delete;

    Inode* get() const { return ip_; }
    Inode* operator->() const { return ip_; }
    // Hand the reference on (to a File, a cwd): no iput here.
    Inode* release() {
        Inode* ip = ip_;
        ip_ = nullptr;
        return ip;
    }
    void reset() {
        // The analyzer loses ip_ through TRY's moved-from Result (every
        // constructor sets it).
        if (ip_ != nullptr) iput(ip_);  // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult)
        ip_ = nullptr;
    }

  private:
    Inode* ip_ = nullptr;
};

class InodeLock {
  public:
    InodeLock() = default;
    explicit InodeLock(Inode* ip) : ip_(ip) { ilock(ip); }
    ~InodeLock() { unlock(); }
    InodeLock(InodeLock&& o) : ip_(o.ip_) { o.ip_ = nullptr; }
    InodeLock& operator=(InodeLock&&) = delete;
    InodeLock(const InodeLock&) = delete;
    InodeLock& operator=(const InodeLock&) = delete;

    // Unlock before the end of the scope (no-op if already unlocked).
    void unlock() {
        // The analyzer loses ip_ through TRY's moved-from Result (every
        // constructor sets it).
        if (ip_ != nullptr) iunlock(ip_);  // NOLINT(clang-analyzer-core.UndefinedBinaryOperatorResult)
        ip_ = nullptr;
    }

  private:
    Inode* ip_ = nullptr;
};

struct LockedInode {
    InodeRef ref;  // declared first: destroyed last
    InodeLock lock;

    LockedInode() = default;
    explicit LockedInode(InodeRef r) : ref(move(r)), lock(ref.get()) {}
    LockedInode(LockedInode&&) = default;
    LockedInode& operator=(LockedInode&&) = delete;

    Inode* get() const { return ref.get(); }
    Inode* operator->() const { return ref.get(); }
};

// ---- directories and paths (dir.cc) ----------------------------------------
// Look `name` up in the locked directory dp; the result is unlocked.
// *poff (if given) receives the entry's byte offset.
Result<InodeRef> dirlookup(Inode* dp, const char* name, u32* poff);
// Add the entry (name, inum) to the locked directory dp.
Status dirlink(Inode* dp, const char* name, u32 inum);
// Is the locked directory empty apart from "." and ".."?
Result<bool> dir_is_empty(Inode* dp);
// Resolve a path (relative paths start at myproc()->cwd). Unlocked result.
Result<InodeRef> namei(const char* path);
// Resolve all but the last element, copied into name (fs::kNameBuf bytes).
Result<InodeRef> nameiparent(const char* path, char* name);

}  // namespace q
