// kernel/fs/file.cc - the system-wide file table and I/O on open files.
//
// param::kMaxFiles Files in one table; a slot with ref == 0 is free, and the
// last param::kRootReservedFiles free slots are root's (an unprivileged
// process gets NoFile instead, as if the table were full). The
// table lock guards every ref; closing the last reference copies the File,
// frees the slot, and only then releases the pipe end or the inode (which
// may sleep and needs a transaction). Inode reads and writes hold the inode
// lock, which also serialises updates of the shared offset. Writes to an
// inode are split into transactions small enough for the log (kMaxWrite
// bytes each: the inode, an indirect block, bitmap blocks and the data).
// A FIFO's File (FileType::Fifo, kernel/fs/fifo.cc) reads and writes as a
// pipe end and holds its inode too: its last close detaches from the pipe
// and then drops the inode. filepoll answers poll (kernel/fs/poll.cc).
// The table is built at boot (file_table_init; a host test's every boot):
// its lock's name is not zero, so a constinit table put all 16 KiB of it
// in the image's .data; it is a BootBuilt (lib/in_place.h), zeros in .bss.
#include "kernel/fs/file.h"

#include "kernel/fs/fs.h"
#include "kernel/fs/pipe.h"
#include "kernel/lib/kprintf.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"
#include "lib/abi/abi.h"
#include "lib/in_place.h"

namespace q {

constinit DevSw g_devsw[param::kMaxDevices] = {};

namespace {

struct FileTable {
    SpinLock lock{"ftable"};
    File files[param::kMaxFiles];
};
constinit BootBuilt<FileTable> g_ftable;

// Bytes of file data one transaction may write: of kMaxOpBlocks, one is the
// inode, one the indirect block, two bitmap blocks; half the rest for data
// when writes are unaligned (as xv6 budgets it).
constexpr u32 kMaxWrite = ((param::kMaxOpBlocks - 1 - 1 - 2) / 2) * fs::kBlockSize;
static_assert(kMaxWrite >= fs::kBlockSize, "log too small for a one-block write");

// The device's switch entry, or null for a bad major or a missing driver.
const DevSw* device(const File* f) {
    if (f->major < 0 || f->major >= param::kMaxDevices) return nullptr;
    return &g_devsw[f->major];
}

// Reads and writes copy user memory under the inode's lock: a copy that
// stops at a page which must be read in first (a file mapping's, a
// swapped one) goes on after that page is faulted in with the locks
// dropped (kernel/mm/fault.h: vm_fault_later; docs/memory.md "Lock order").
Result<i64> inode_read(File* f, UserAddr dst, int n) {
    u32 done = 0;
    for (;;) {
        Result<u32> r = 0u;
        {
            InodeLock lock(f->inode);
            r = readi(f->inode, true, dst.raw() + done, f->off, static_cast<u32>(n) - done);
            if (r.ok()) f->off += r.value();
        }
        if (r.ok()) done += r.value();
        if (done == static_cast<u32>(n) || !vm_fault_later()) {
            if (done == 0 && !r.ok()) return r.error();
            return static_cast<i64>(done);
        }
    }
}

Result<i64> inode_write(File* f, UserAddr src, int n) {
    i64 done = 0;
    Error err = Error::Ok;
    while (done < n) {
        const u32 chunk = static_cast<u32>(n - done) < kMaxWrite ? static_cast<u32>(n - done) : kMaxWrite;
        Result<u32> r = 0u;
        {
            FsOp op;
            if (!fs_writable()) {
                err = Error::IoError;
                break;
            }
            InodeLock lock(f->inode);
            r = writei(f->inode, true, src.raw() + static_cast<u64>(done), f->off, chunk);
            if (r.ok()) f->off += r.value();
        }
        if (r.ok()) done += r.value();
        if (r.ok() && r.value() == chunk) continue;
        if (vm_fault_later()) continue;  // a page to read in first: the rest after it
        if (!r.ok()) err = r.error();
        break;  // disk full or bad address part way
    }
    if (done == 0 && err != Error::Ok) return err;
    if (done == 0 && n > 0) return Error::NoSpace;
    return done;
}

}  // namespace

// Every slot free; before the first filealloc.
void file_table_init() {
    if (!g_ftable.build().lock.name()) panic("file_table_init: the table kept no defaults");
}

Result<File*> filealloc() {
    const bool root = current_cred().root();
    LockGuard guard(g_ftable->lock);
    File* empty = nullptr;
    int nfree = 0;
    for (File& f : g_ftable->files) {
        if (f.ref == 0 && nfree++ == 0) empty = &f;
        if (nfree > param::kRootReservedFiles) break;  // enough to know
    }
    if (empty == nullptr || (nfree <= param::kRootReservedFiles && !root)) return Error::NoFile;
    *empty = File{};
    empty->ref = 1;
    return empty;
}

File* filedup(File* f) {
    LockGuard guard(g_ftable->lock);
    if (f->ref < 1) panic("filedup: file not open");
    f->ref++;
    return f;
}

void fileclose(File* f) {
    File closed;
    {
        LockGuard guard(g_ftable->lock);
        if (f->ref < 1) panic("fileclose: file not open");
        if (--f->ref > 0) return;
        closed = *f;
        *f = File{};
    }
    switch (closed.type) {
        case FileType::Pipe:
            pipeclose(closed.pipe, closed.readable, closed.writable);
            break;
        case FileType::Fifo:
            if (closed.pipe != nullptr) pipeclose(closed.pipe, closed.readable, closed.writable);
            [[fallthrough]];  // and drop the inode
        case FileType::Inode:
        case FileType::Device: {
            if (closed.write_access) put_write_access(closed.inode);
            FsOp op;
            InodeRef last(closed.inode);  // dropped inside the transaction
            break;
        }
        case FileType::None:
            break;
    }
}

// Does f hold an inode (a file, a device or a FIFO opened by path)?
static bool has_inode(const File* f) { return f->type != FileType::Pipe && f->type != FileType::None; }

Status filestat(File* f, UserAddr addr) {
    if (!has_inode(f)) return Error::NotSupported;
    struct stat st;
    {
        InodeLock lock(f->inode);
        stati(f->inode, &st);
    }
    return copy_out(myproc()->pagetable, addr, &st, sizeof st);
}

Status filexstat(File* f, UserAddr addr) {
    if (!has_inode(f)) return Error::NotSupported;
    struct xstat st;
    {
        InodeLock lock(f->inode);
        xstati(f->inode, &st);
    }
    return copy_out(myproc()->pagetable, addr, &st, sizeof st);
}

Result<i64> fileread(File* f, UserAddr dst, int n) {
    if (!f->readable) return Error::BadFd;
    if (n < 0) return Error::BadArgument;
    switch (f->type) {
        case FileType::Pipe:
        case FileType::Fifo:
            return piperead(f->pipe, dst, n);
        case FileType::Device: {
            const DevSw* dev = device(f);
            if (dev == nullptr || dev->read == nullptr) return Error::NotSupported;
            const i64 r = dev->read(true, dst.raw(), n, &f->off);
            if (r < 0) return dev_error_of(r);
            return r;
        }
        case FileType::Inode:
            return inode_read(f, dst, n);
        case FileType::None:
            break;
    }
    return Error::BadFd;
}

Result<i64> filewrite(File* f, UserAddr src, int n) {
    if (!f->writable) return Error::BadFd;
    if (n < 0) return Error::BadArgument;
    switch (f->type) {
        case FileType::Pipe:
        case FileType::Fifo:
            return pipewrite(f->pipe, src, n);
        case FileType::Device: {
            const DevSw* dev = device(f);
            if (dev == nullptr || dev->write == nullptr) return Error::NotSupported;
            const i64 r = dev->write(true, src.raw(), n, &f->off);
            if (r < 0) return Error::BadAddress;
            return r;
        }
        case FileType::Inode:
            return inode_write(f, src, n);
        case FileType::None:
            break;
    }
    return Error::BadFd;
}

u16 filepoll(File* f) {
    switch (f->type) {
        case FileType::Pipe:
        case FileType::Fifo:
            return pipe_poll(f->pipe, f->readable, f->writable);
        case FileType::Device: {
            const DevSw* dev = device(f);
            const u16 ready = dev != nullptr && dev->poll != nullptr ? dev->poll() : POLLIN | POLLOUT;
            return static_cast<u16>(ready & ((f->readable ? POLLIN : 0) | (f->writable ? POLLOUT : 0)));
        }
        case FileType::Inode:  // a regular file never blocks (POSIX)
            return static_cast<u16>((f->readable ? POLLIN : 0) | (f->writable ? POLLOUT : 0));
        case FileType::None:
            break;
    }
    return POLLNVAL;
}

}  // namespace q
