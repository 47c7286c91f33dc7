// kernel/fs/sysfile.cc - the file-system system calls.
//
// Each handler fetches its arguments with the checked arg_* helpers (so a
// bad user pointer is Error::BadAddress, never a fault), does its work on
// Result/Status values, and turns the outcome into a0 with sys_result() only at
// the end. Every call that touches the disk is one log transaction (an FsOp
// around the whole body); fileclose and filewrite open their own. Each call
// that changes the file system first checks fs_writable() (false after a
// disk write error, kernel/fs/log.cc), inside its transaction. Inodes are
// held as InodeRef / InodeLock / LockedInode (kernel/fs/fs.h) declared after
// the FsOp, so every return, early or not, unlocks and drops them in the
// right order and inside the transaction; create's undo (nlink 0) frees the
// new inode that way. The order of unlocks and drops is xv6's throughout.
//
// Permissions (lib/fs/perm.h, checked under the inode's lock): a path walk
// needs search (x) on every directory it passes; create, mkdir, mknod, link
// and unlink need w+x on the directory they change (and unlink in a sticky
// directory ownership of the file or directory); link needs, unless the
// caller is root or owns the file, a regular file it may read and write
// (perm::may_hardlink, Linux's protected_hardlinks); open needs r and/or w on
// the file as its mode asks (O_TRUNC counts as writing; a FIFO too); mkfifo
// needs what create needs; chdir needs x on
// the directory; mknod is root's; chmod the owner's or root's; chown as
// perm::may_chown. A refused call changes nothing and returns -1.
//
// A FIFO's open attaches inside the transaction and waits for its peer
// after it (kernel/fs/fifo.cc), and only then takes a descriptor.
//
// Descriptors: the process's table (shared by its threads, kept in
// kernel/proc/tgroup.cc) maps fd to its File; fdalloc takes the lowest
// free slot. An fd is valid when 0 <= fd < kMaxOpenPerProc and its slot is
// set. Paths longer than kMaxPath - 1 bytes are refused by arg_str.
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"
#include "lib/fs/path.h"
#include "lib/params.h"

namespace q {
namespace {

using fs::InodeType;

// Install f in the lowest free descriptor of the current process.
Result<int> fdalloc(File* f) { return fd_install(f); }

// The open File behind argument n, taken as a descriptor.
Result<File*> arg_file(int n) { return fd_get(arg_int(n)); }

// Argument n as a path (at most kMaxPath - 1 bytes).
Status arg_path(int n, char (&path)[param::kMaxPath]) {
    TRY(arg_str(n, path, param::kMaxPath));
    return {};
}

// nameiparent for a call that makes, links or removes path's last entry. A
// path naming the root ("/", "//") has no last entry, so nameiparent says
// NotFound; but the root exists, and the caller gives the error that says
// so (Linux: open("/", O_CREAT) EISDIR, mkdir("/") and link(x, "/") EEXIST;
// unlink("/") EINVAL here, as for ".").
static Result<InodeRef> parent_of(const char* path, char* name, Error for_root) {
    if (*path != '\0' && fs::path_has_no_elem(path)) return for_root;
    return nameiparent(path, name);
}

// Create path as a new inode of the given type; returns it locked. Opening
// an existing plain file or device with type File succeeds (open O_CREATE).
// Caller is in a transaction.
Result<LockedInode> create(const char* path, InodeType type, i16 major, i16 minor) {
    if (!fs_writable()) return Error::IoError;
    char name[fs::kNameBuf];
    auto dp = TRY(parent_of(path, name, type == InodeType::File ? Error::IsDir : Error::Exists));
    InodeLock dp_lock(dp.get());
    auto existing = dirlookup(dp.get(), name, nullptr);
    if (existing.ok()) {
        // Let dp go before locking the entry: it may be dp itself (".").
        dp_lock.unlock();
        dp.reset();
        LockedInode ip(move(existing).value());
        if (type == InodeType::File && ip->type != InodeType::Dir) return ip;  // a file, device or FIFO
        if (type == InodeType::File) return Error::IsDir;  // open(dir, O_CREATE): EISDIR, as in Unix
        return Error::Exists;
    }
    if (existing.error() != Error::NotFound) return existing.error();
    TRY(check_access(dp.get(), perm::kWrite | perm::kExec));
    auto made = TRY(ialloc(dp->dev, type));
    LockedInode ip(move(made));
    ip->major = major;
    ip->minor = minor;
    ip->nlink = 1;
    ip->uid = current_cred().euid;
    ip->gid = current_cred().egid;
    ip->mode = type == InodeType::Dir ? perm::kDirMode : type == InodeType::Device ? perm::kDevMode : perm::kFileMode;
    // (a FIFO's mode is mkfifo's argument: sys_mkfifo sets it)
    iupdate(ip.get());

    Status st;
    if (type == InodeType::Dir) {  // "." and ".."; "." is not counted in nlink
        st = dirlink(ip.get(), ".", ip->inum);
        if (st.ok()) st = dirlink(ip.get(), "..", dp->inum);
    }
    if (st.ok()) st = dirlink(dp.get(), name, ip->inum);
    if (!st.ok()) {  // undo: with nlink 0, the inode is freed as ip is dropped
        ip->nlink = 0;
        iupdate(ip.get());
        return st.error();
    }
    if (type == InodeType::Dir) {  // the child's ".." names dp
        dp->nlink++;
        iupdate(dp.get());
    }
    return ip;
}

// The inode open(path, omode) names, locked: created, or looked up.
Result<LockedInode> open_inode(const char* path, int omode) {
    if (omode & O_CREATE) return create(path, InodeType::File, 0, 0);
    auto found = TRY(namei(path));
    LockedInode ip(move(found));
    if (ip->type == InodeType::Dir && (omode & (O_WRONLY | O_RDWR)) != 0) return Error::IsDir;
    return ip;
}

// The access bits open(omode) needs (O_TRUNC writes).
u16 open_access(int omode) {
    u16 want = 0;
    if (!(omode & O_WRONLY)) want |= perm::kRead;
    if ((omode & O_WRONLY) || (omode & O_RDWR) || (omode & O_TRUNC)) want |= perm::kWrite;
    return want;
}

// The File open(path, omode) makes, not yet in the descriptor table, and
// for a FIFO the peer as its attach saw it (*fifo_peer, *is_fifo).
Result<File*> open_file(const char* path, int omode, bool* is_fifo, fs::FifoPeerSnapshot* fifo_peer) {
    FsOp op;
    if ((omode & O_TRUNC) && !fs_writable()) return Error::IoError;
    auto ip = TRY(open_inode(path, omode));
    TRY(check_access(ip.get(), open_access(omode)));
    if (ip->type == InodeType::Device && (ip->major < 0 || ip->major >= param::kMaxDevices)) return Error::NotSupported;
    // A regular file opened to write or truncate: not while a process runs
    // it (ETXTBSY, as Linux); the File holds the write access until closed.
    const bool writes = ip->type == InodeType::File && (open_access(omode) & perm::kWrite);
    if (writes) TRY(get_write_access(ip.get()));
    auto made = filealloc();
    if (!made.ok()) {
        if (writes) put_write_access(ip.get());
        return made.error();
    }
    File* file = made.value();
    file->type = ip->type == InodeType::Device ? FileType::Device
                 : ip->type == InodeType::Fifo ? FileType::Fifo
                                               : FileType::Inode;
    file->major = ip->type == InodeType::Device ? ip->major : 0;
    file->off = 0;
    file->readable = !(omode & O_WRONLY);
    file->writable = (omode & O_WRONLY) || (omode & O_RDWR);
    if ((omode & O_TRUNC) && ip->type == InodeType::File) itrunc(ip.get());
    file->write_access = writes && file->writable;
    if (writes && !file->writable) put_write_access(ip.get());  // O_RDONLY | O_TRUNC: only the truncation
    *is_fifo = ip->type == InodeType::Fifo;
    if (*is_fifo) {
        auto at = fifo_attach(file, ip.get());
        if (!at.ok()) {
            fileclose(file);  // no inode yet: ip is dropped on return
            return at.error();
        }
        *fifo_peer = at.value();
    }
    file->inode = ip.ref.release();  // the File owns the reference; ip.lock unlocks on return
    return file;
}

// Open path with the given mode; returns the new descriptor. A FIFO's
// open waits for its peer here, outside the transaction (kernel/fs/fifo.cc).
Result<int> do_open(const char* path, int omode) {
    bool is_fifo = false;
    fs::FifoPeerSnapshot peer{};
    auto file = TRY(open_file(path, omode, &is_fifo, &peer));
    Status st = is_fifo ? fifo_wait(file, peer) : Status{};
    auto fd = st.ok() ? fdalloc(file) : Result<int>(st.error());
    if (!fd.ok()) fileclose(file);
    return fd;
}

Status do_unlink(const char* path) {
    FsOp op;
    if (!fs_writable()) return Error::IoError;
    char name[fs::kNameBuf];
    auto dp = TRY(parent_of(path, name, Error::BadArgument));
    InodeLock dp_lock(dp.get());
    if (fs::is_dot_or_dotdot(name)) return Error::BadArgument;
    u32 off = 0;
    auto ip = TRY(dirlookup(dp.get(), name, &off));
    if (ip.get() == dp.get()) return Error::BadArgument;  // only a damaged directory names itself other than "."
    InodeLock ip_lock(ip.get());
    if (!perm::may_unlink_from(current_cred(), owner_of(dp.get()), owner_of(ip.get()))) return Error::Permission;
    if (ip->nlink < 1) return Error::NotFound;  // damaged link count: refuse rather than underflow
    if (ip->type == InodeType::Dir) {
        auto empty = TRY(dir_is_empty(ip.get()));
        if (!empty) return Error::NotEmpty;
    }
    const fs::DirEntry blank{};
    auto cleared = TRY(writei(dp.get(), false, reinterpret_cast<u64>(&blank), off, sizeof blank));
    if (cleared != sizeof blank) return Error::NoSpace;
    if (ip->type == InodeType::Dir) {  // its ".." no longer names dp
        dp->nlink--;
        iupdate(dp.get());
    }
    dp_lock.unlock();  // as xv6: the parent goes before the child's link count drops
    dp.reset();
    ip->nlink--;
    iupdate(ip.get());
    if (ip->nlink == 0) iunlinked(ip.get());  // still open or a cwd: an orphan until its last iput
    return {};
}

// Add the entry name -> ip to the directory of new_path (ip unlocked).
Status link_into(const char* new_path, Inode* ip) {
    char name[fs::kNameBuf];
    auto dp = TRY(parent_of(new_path, name, Error::Exists));
    InodeLock dp_lock(dp.get());
    if (dp->dev != ip->dev) return Error::CrossDevice;
    TRY(check_access(dp.get(), perm::kWrite | perm::kExec));
    return dirlink(dp.get(), name, ip->inum);
}

Status do_link(const char* old_path, const char* new_path) {
    FsOp op;
    if (!fs_writable()) return Error::IoError;
    auto ip = TRY(namei(old_path));
    {
        InodeLock lock(ip.get());
        if (ip->type == InodeType::Dir) return Error::IsDir;
        if (!perm::may_hardlink(current_cred(), owner_of(ip.get()), ip->type == InodeType::File))
            return Error::Permission;
        if (ip->nlink >= 0x7fff) return Error::TooBig;
        ip->nlink++;
        iupdate(ip.get());
    }
    const Status st = link_into(new_path, ip.get());
    if (!st.ok()) {  // undo the extra link
        InodeLock lock(ip.get());
        ip->nlink--;
        iupdate(ip.get());
        // An unlink of old_path while the inode was unlocked leaves this
        // the last link: an orphan if others hold it, as do_unlink's.
        if (ip->nlink == 0) iunlinked(ip.get());
    }
    return st;
}

Status do_chdir(const char* path) {
    FsOp op;
    auto ip = TRY(namei(path));
    {
        InodeLock lock(ip.get());
        if (ip->type != InodeType::Dir) return Error::NotDir;
        TRY(check_access(ip.get(), perm::kExec));
    }
    InodeRef old(cwd_set(ip.release()));  // dropped on return, inside the transaction
    return {};
}

// Change the locked inode path names with change(ip) once allowed(owner) says so.
template <typename Allowed, typename Change>
Status change_inode(const char* path, Allowed allowed, Change change) {
    FsOp op;
    if (!fs_writable()) return Error::IoError;
    auto ip = TRY(namei(path));
    InodeLock lock(ip.get());
    if (!allowed(owner_of(ip.get()))) return Error::Permission;
    change(ip.get());
    iupdate(ip.get());
    return {};
}

Status do_chmod(const char* path, u32 mode) {
    return change_inode(
        path, [mode](const perm::Owner& o) { return perm::may_chmod(current_cred(), o, mode); },
        [mode](Inode* ip) { ip->mode = static_cast<u16>(mode); });
}

Status do_chown(const char* path, u32 uid, u32 gid) {
    return change_inode(
        path, [uid, gid](const perm::Owner& o) { return perm::may_chown(current_cred(), o, uid, gid); },
        [uid, gid](Inode* ip) {
            if (uid != perm::kKeep) ip->uid = uid;
            if (gid != perm::kKeep) ip->gid = gid;
        });
}

Status do_xstat(const char* path, UserAddr dst) {
    struct xstat st;
    {
        FsOp op;  // the walk may drop the last reference to a removed directory
        auto ip = TRY(namei(path));
        InodeLock lock(ip.get());
        xstati(ip.get(), &st);
    }
    return copy_out(myproc()->pagetable, dst, &st, sizeof st);
}

Status do_pipe(UserAddr fdarray) {
    File* rf = nullptr;
    File* wf = nullptr;
    TRY(pipealloc(&rf, &wf));
    auto fd0 = fdalloc(rf);
    auto fd1 = fd0.ok() ? fdalloc(wf) : Result<int>(Error::NoFile);
    int fds[2] = {fd0.value_or(-1), fd1.value_or(-1)};
    Status st = fd1.ok() ? copy_out(myproc()->pagetable, fdarray, fds, sizeof fds) : Status(Error::NoFile);
    if (!st.ok()) {
        if (fd0.ok()) (void)fd_take(fd0.value());
        if (fd1.ok()) (void)fd_take(fd1.value());
        fileclose(rf);
        fileclose(wf);
    }
    return st;
}

}  // namespace

SysResult sys_read() {
    File* f = TRY(arg_file(0));
    return sys_result(fileread(f, arg_addr(1), arg_int(2)));
}

SysResult sys_write() {
    File* f = TRY(arg_file(0));
    return sys_result(filewrite(f, arg_addr(1), arg_int(2)));
}

SysResult sys_close() {
    fileclose(TRY(fd_take(arg_int(0))));
    return 0;
}

SysResult sys_fstat() {
    File* f = TRY(arg_file(0));
    return sys_result(filestat(f, arg_addr(1)));
}

SysResult sys_dup() {
    File* copy = filedup(TRY(arg_file(0)));  // counted before a sibling thread can close the new fd
    auto fd = fdalloc(copy);
    if (!fd.ok()) fileclose(copy);
    return sys_result(fd);
}

SysResult sys_pipe() { return sys_result(do_pipe(arg_addr(0))); }

SysResult sys_open() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    return sys_result(do_open(path, arg_int(1)));
}

SysResult sys_mknod() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    const int major = arg_int(1);
    const int minor = arg_int(2);
    if (major < -0x8000 || major > 0x7fff || minor < -0x8000 || minor > 0x7fff) return Error::BadArgument;
    if (!current_cred().root()) return Error::Permission;  // device files are root's to make, as in Unix
    FsOp op;
    TRY(create(path, InodeType::Device, static_cast<i16>(major), static_cast<i16>(minor)));
    return 0;
}

// mkfifo(path, mode) -> 0 or -1. Anyone may make one where they may
// create a file (w+x on the directory); mode's rwx and sticky bits are kept.
SysResult sys_mkfifo() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    const u32 mode = static_cast<u32>(arg_int(1));
    if (mode > perm::kModeMask) return Error::BadArgument;
    FsOp op;
    LockedInode ip = TRY(create(path, InodeType::Fifo, 0, 0));
    ip->mode = static_cast<u16>(mode);
    iupdate(ip.get());
    return 0;
}

SysResult sys_mkdir() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    FsOp op;
    TRY(create(path, InodeType::Dir, 0, 0));
    return 0;
}

SysResult sys_unlink() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    return sys_result(do_unlink(path));
}

SysResult sys_link() {
    char old_path[param::kMaxPath];
    char new_path[param::kMaxPath];
    TRY(arg_path(0, old_path));
    TRY(arg_path(1, new_path));
    return sys_result(do_link(old_path, new_path));
}

SysResult sys_chdir() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    return sys_result(do_chdir(path));
}

// chmod(path, mode) -> 0, or -1 (no such path, mode beyond 01777, not the
// owner or root).
SysResult sys_chmod() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    return sys_result(do_chmod(path, static_cast<u32>(arg_int(1))));
}

// chown(path, uid, gid) -> 0 or -1 (perm::may_chown); an id of -1 is kept.
SysResult sys_chown() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    return sys_result(do_chown(path, static_cast<u32>(arg_int(1)), static_cast<u32>(arg_int(2))));
}

// xstat(path, struct xstat*) -> 0 or -1. Needs search permission on the
// path's directories only, as stat(2).
namespace {

// The new offset of f: base (0, the current offset or the size, by whence)
// plus off, which must land in 0..size (a write may not start past the end
// of a file: writei). Pipes and devices cannot seek.
Result<i64> fileseek(File* f, i64 off, int whence) {
    if (f->type != FileType::Inode) return Error::NotSupported;
    InodeLock lock(f->inode);
    const i64 size = f->inode->size;
    const i64 base = whence == 0 ? 0 : whence == 1 ? static_cast<i64>(f->off) : whence == 2 ? size : -1;
    if (base < 0 || off < -base || off > size - base) return Error::BadArgument;
    f->off = static_cast<u32>(base + off);
    return static_cast<i64>(f->off);
}

}  // namespace

// lseek(fd, offset, whence) -> the new offset, or -1.
SysResult sys_lseek() {
    File* f = TRY(arg_file(0));
    return sys_result(fileseek(f, static_cast<i64>(arg_raw(1)), arg_int(2)));
}

SysResult sys_xstat() {
    char path[param::kMaxPath];
    TRY(arg_path(0, path));
    return sys_result(do_xstat(path, arg_addr(1)));
}

// fxstat(fd, struct xstat*) -> 0 or -1.
SysResult sys_fxstat() {
    File* f = TRY(arg_file(0));
    return sys_result(filexstat(f, arg_addr(1)));
}

}  // namespace q
