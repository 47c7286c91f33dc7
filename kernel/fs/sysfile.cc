// kernel/fs/sysfile.cc - the file-system system calls.
//
// Each handler fetches its arguments with the checked arg_* helpers (so a
// bad user pointer is Error::BadAddress, never a fault), does its work on
// Result/Status values, and turns the outcome into a0 with to_user() only at
// the end. Every call that touches the disk is one log transaction (an FsOp
// around the whole body); fileclose and filewrite open their own. Each call
// that changes the file system first checks fs_writable() (false after a
// disk write error, kernel/fs/log.cc), inside its transaction.
//
// Descriptors: Proc::ofile[fd] is the File for fd; fdalloc takes the lowest
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
Result<int> fdalloc(File* f) {
    Proc* p = myproc();
    for (int fd = 0; fd < param::kMaxOpenPerProc; fd++) {
        if (p->ofile[fd] == nullptr) {
            p->ofile[fd] = f;
            return fd;
        }
    }
    return Error::NoFile;
}

// The open File behind argument n, taken as a descriptor.
Result<File*> arg_file(int n, int* pfd = nullptr) {
    const int fd = arg_int(n);
    if (fd < 0 || fd >= param::kMaxOpenPerProc) return Error::BadFd;
    File* f = myproc()->ofile[fd];
    if (f == nullptr) return Error::BadFd;
    if (pfd != nullptr) *pfd = fd;
    return f;
}

// Argument n as a path (at most kMaxPath - 1 bytes).
Status arg_path(int n, char (&path)[param::kMaxPath]) {
    auto r = arg_str(n, path, param::kMaxPath);
    if (!r.ok()) return r.error();
    return {};
}

// Create path as a new inode of the given type; returns it locked. Opening
// an existing plain file or device with type File succeeds (open O_CREATE).
// Caller is in a transaction.
Result<Inode*> create(const char* path, InodeType type, i16 major, i16 minor) {
    if (!fs_writable()) return Error::IoError;
    char name[fs::kNameBuf];
    Q_TRY(dp, nameiparent(path, name));
    ilock(dp);
    auto existing = dirlookup(dp, name, nullptr);
    if (existing.ok()) {
        iunlockput(dp);
        Inode* ip = existing.value();
        ilock(ip);
        if (type == InodeType::File && (ip->type == InodeType::File || ip->type == InodeType::Device))
            return ip;
        iunlockput(ip);
        return Error::Exists;
    }
    if (existing.error() != Error::NotFound) {
        iunlockput(dp);
        return existing.error();
    }
    auto made = ialloc(dp->dev, type);
    if (!made.ok()) {
        iunlockput(dp);
        return made.error();
    }
    Inode* ip = made.value();
    ilock(ip);
    ip->major = major;
    ip->minor = minor;
    ip->nlink = 1;
    iupdate(ip);

    Status st;
    if (type == InodeType::Dir) {  // "." and ".."; "." is not counted in nlink
        st = dirlink(ip, ".", ip->inum);
        if (st.ok()) st = dirlink(ip, "..", dp->inum);
    }
    if (st.ok()) st = dirlink(dp, name, ip->inum);
    if (!st.ok()) {  // undo: the inode is freed by iput with nlink 0
        ip->nlink = 0;
        iupdate(ip);
        iunlockput(ip);
        iunlockput(dp);
        return st.error();
    }
    if (type == InodeType::Dir) {  // the child's ".." names dp
        dp->nlink++;
        iupdate(dp);
    }
    iunlockput(dp);
    return ip;
}

// Open path with the given mode; returns the new descriptor.
Result<int> do_open(const char* path, int omode) {
    FsOp op;
    if ((omode & O_TRUNC) && !fs_writable()) return Error::IoError;
    Inode* ip = nullptr;
    if (omode & O_CREATE) {
        Q_TRY(made, create(path, InodeType::File, 0, 0));
        ip = made;
    } else {
        Q_TRY(found, namei(path));
        ip = found;
        ilock(ip);
        if (ip->type == InodeType::Dir && (omode & (O_WRONLY | O_RDWR)) != 0) {
            iunlockput(ip);
            return Error::IsDir;
        }
    }
    if (ip->type == InodeType::Device && (ip->major < 0 || ip->major >= param::kMaxDevices)) {
        iunlockput(ip);
        return Error::NotSupported;
    }
    auto f = filealloc();
    if (!f.ok()) {
        iunlockput(ip);
        return f.error();
    }
    auto fd = fdalloc(f.value());
    if (!fd.ok()) {
        iunlockput(ip);  // before fileclose: the File does not own ip yet
        fileclose(f.value());
        return fd.error();
    }
    File* file = f.value();
    file->type = ip->type == InodeType::Device ? FileType::Device : FileType::Inode;
    file->major = ip->type == InodeType::Device ? ip->major : 0;
    file->inode = ip;
    file->off = 0;
    file->readable = !(omode & O_WRONLY);
    file->writable = (omode & O_WRONLY) || (omode & O_RDWR);
    if ((omode & O_TRUNC) && ip->type == InodeType::File) itrunc(ip);
    iunlock(ip);
    return fd;
}

Status do_unlink(const char* path) {
    FsOp op;
    if (!fs_writable()) return Error::IoError;
    char name[fs::kNameBuf];
    Q_TRY(dp, nameiparent(path, name));
    ilock(dp);
    if (fs::is_dot_or_dotdot(name)) {
        iunlockput(dp);
        return Error::BadArgument;
    }
    u32 off = 0;
    auto found = dirlookup(dp, name, &off);
    if (!found.ok()) {
        iunlockput(dp);
        return found.error();
    }
    Inode* ip = found.value();
    if (ip == dp) {  // only a damaged directory names itself other than "."
        iput(ip);
        iunlockput(dp);
        return Error::BadArgument;
    }
    ilock(ip);
    Error err = Error::Ok;
    if (ip->nlink < 1) {
        err = Error::NotFound;  // damaged link count: refuse rather than underflow
    } else if (ip->type == InodeType::Dir) {
        auto empty = dir_is_empty(ip);
        if (!empty.ok()) err = empty.error();
        else if (!empty.value()) err = Error::NotEmpty;
    }
    if (err == Error::Ok) {
        const fs::DirEntry blank{};
        auto w = writei(dp, false, reinterpret_cast<u64>(&blank), off, sizeof blank);
        if (!w.ok() || w.value() != sizeof blank) err = w.ok() ? Error::NoSpace : w.error();
    }
    if (err != Error::Ok) {
        iunlockput(ip);
        iunlockput(dp);
        return err;
    }
    if (ip->type == InodeType::Dir) {  // its ".." no longer names dp
        dp->nlink--;
        iupdate(dp);
    }
    iunlockput(dp);
    ip->nlink--;
    iupdate(ip);
    iunlockput(ip);
    return {};
}

Status do_link(const char* old_path, const char* new_path) {
    FsOp op;
    if (!fs_writable()) return Error::IoError;
    Q_TRY(ip, namei(old_path));
    ilock(ip);
    if (ip->type == InodeType::Dir || ip->nlink >= 0x7fff) {
        const Error e = ip->type == InodeType::Dir ? Error::IsDir : Error::TooBig;
        iunlockput(ip);
        return e;
    }
    ip->nlink++;
    iupdate(ip);
    iunlock(ip);

    char name[fs::kNameBuf];
    Status st;
    auto dp = nameiparent(new_path, name);
    if (!dp.ok()) {
        st = dp.error();
    } else {
        ilock(dp.value());
        if (dp.value()->dev != ip->dev) st = Error::CrossDevice;
        else st = dirlink(dp.value(), name, ip->inum);
        iunlockput(dp.value());
    }
    if (st.ok()) {
        iput(ip);
        return {};
    }
    ilock(ip);  // undo the extra link
    ip->nlink--;
    iupdate(ip);
    iunlockput(ip);
    return st;
}

Status do_chdir(const char* path) {
    FsOp op;
    Q_TRY(ip, namei(path));
    ilock(ip);
    if (ip->type != InodeType::Dir) {
        iunlockput(ip);
        return Error::NotDir;
    }
    iunlock(ip);
    Proc* p = myproc();
    if (p->cwd != nullptr) iput(p->cwd);
    p->cwd = ip;
    return {};
}

Status do_pipe(UserAddr fdarray) {
    File* rf = nullptr;
    File* wf = nullptr;
    Q_CHECK(pipealloc(&rf, &wf));
    Proc* p = myproc();
    auto fd0 = fdalloc(rf);
    auto fd1 = fd0.ok() ? fdalloc(wf) : Result<int>(Error::NoFile);
    int fds[2] = {fd0.value_or(-1), fd1.value_or(-1)};
    Status st = fd1.ok() ? copy_out(p->pagetable, fdarray, fds, sizeof fds) : Status(Error::NoFile);
    if (!st.ok()) {
        if (fd0.ok()) p->ofile[fd0.value()] = nullptr;
        if (fd1.ok()) p->ofile[fd1.value()] = nullptr;
        fileclose(rf);
        fileclose(wf);
    }
    return st;
}

}  // namespace

i64 sys_read() {
    auto f = arg_file(0);
    if (!f.ok()) return -1;
    return to_user(fileread(f.value(), arg_addr(1), arg_int(2)));
}

i64 sys_write() {
    auto f = arg_file(0);
    if (!f.ok()) return -1;
    return to_user(filewrite(f.value(), arg_addr(1), arg_int(2)));
}

i64 sys_close() {
    int fd = -1;
    auto f = arg_file(0, &fd);
    if (!f.ok()) return -1;
    myproc()->ofile[fd] = nullptr;
    fileclose(f.value());
    return 0;
}

i64 sys_fstat() {
    auto f = arg_file(0);
    if (!f.ok()) return -1;
    return to_user(filestat(f.value(), arg_addr(1)));
}

i64 sys_dup() {
    auto f = arg_file(0);
    if (!f.ok()) return -1;
    auto fd = fdalloc(f.value());
    if (!fd.ok()) return -1;
    filedup(f.value());
    return fd.value();
}

i64 sys_pipe() { return to_user(do_pipe(arg_addr(0))); }

i64 sys_open() {
    char path[param::kMaxPath];
    if (!arg_path(0, path).ok()) return -1;
    return to_user(do_open(path, arg_int(1)));
}

i64 sys_mknod() {
    char path[param::kMaxPath];
    if (!arg_path(0, path).ok()) return -1;
    const int major = arg_int(1);
    const int minor = arg_int(2);
    if (major < -0x8000 || major > 0x7fff || minor < -0x8000 || minor > 0x7fff) return -1;
    FsOp op;
    auto ip = create(path, InodeType::Device, static_cast<i16>(major), static_cast<i16>(minor));
    if (!ip.ok()) return -1;
    iunlockput(ip.value());
    return 0;
}

i64 sys_mkdir() {
    char path[param::kMaxPath];
    if (!arg_path(0, path).ok()) return -1;
    FsOp op;
    auto ip = create(path, InodeType::Dir, 0, 0);
    if (!ip.ok()) return -1;
    iunlockput(ip.value());
    return 0;
}

i64 sys_unlink() {
    char path[param::kMaxPath];
    if (!arg_path(0, path).ok()) return -1;
    return to_user(do_unlink(path));
}

i64 sys_link() {
    char old_path[param::kMaxPath];
    char new_path[param::kMaxPath];
    if (!arg_path(0, old_path).ok() || !arg_path(1, new_path).ok()) return -1;
    return to_user(do_link(old_path, new_path));
}

i64 sys_chdir() {
    char path[param::kMaxPath];
    if (!arg_path(0, path).ok()) return -1;
    return to_user(do_chdir(path));
}

}  // namespace q
