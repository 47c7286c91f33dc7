// kernel/fs/file.h - open files: the system-wide file table, pipes, devices.
//
// A File is one open of an inode, a device or one end of a pipe; file
// descriptors (Proc::ofile) point at Files, and fork/dup share them, so `ref`
// counts descriptors (guarded by the file table's lock). The other fields are
// set once by the opener and read-only afterwards, except `off`, which is
// guarded by the inode's sleep lock (for a device, by its driver's lock).
//
// Devices are reached through g_devsw, indexed by major number; a driver
// (the console is CONSOLE = 1, the framebuffer FRAMEBUFFER = 2) fills its
// slot at boot. An empty slot or a
// major out of range makes read/write fail, never fault.
#pragma once

#include "lib/fs/fifo_rule.h"
#include "lib/params.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct Inode;
struct Pipe;

// Fifo: a FIFO inode opened by path; `pipe` is its inode's pipe
// (kernel/fs/fifo.cc) and `inode` the inode.
enum class FileType : u8 { None, Pipe, Inode, Device, Fifo };

struct File {
    FileType type = FileType::None;
    int ref = 0;  // descriptors naming this file; 0 = free table slot
    bool readable = false;
    bool writable = false;
    bool write_access = false;  // holds the inode's write access (get_write_access: ETXTBSY)
    Pipe* pipe = nullptr;       // FileType::Pipe and FileType::Fifo
    Inode* inode = nullptr;     // FileType::Inode, FileType::Device and FileType::Fifo
    u32 off = 0;                // read/write position (Inode; Device if the driver uses it)
    i16 major = 0;              // FileType::Device
};

// A driver's read/write move up to n bytes and return the count, or -1
// (a bad address), or dev_error(e) for another error (the console's EINTR
// and EIO).
// `off` is the File's offset; a driver that uses it guards it with its own
// lock (the console ignores it). poll returns the POLLIN/POLLOUT bits
// (lib/abi/abi.h) that hold now; a driver without one is always ready.
// A driver whose readiness changes calls poll_notify (kernel/fs/poll.h).
struct DevSw {
    i64 (*read)(bool user_dst, u64 dst, int n, u32* off);
    i64 (*write)(bool user_src, u64 src, int n, u32* off);
    u16 (*poll)();
};
extern DevSw g_devsw[param::kMaxDevices];
constexpr i64 dev_error(Error e) { return -2 - static_cast<i64>(e); }
constexpr Error dev_error_of(i64 r) { return r == -1 ? Error::BadAddress : static_cast<Error>(-2 - r); }
static_assert(dev_error_of(dev_error(Error::Killed)) == Error::Killed && dev_error_of(-1) == Error::BadAddress);

void file_table_init();
// A fresh File with ref 1, or NoFile when the table is full.
Result<File*> filealloc();
File* filedup(File* f);
// Drop a reference; the last one releases the pipe end or the inode.
void fileclose(File* f);
// Copy the file's struct stat to user address st.
Status filestat(File* f, UserAddr st);
Status filexstat(File* f, UserAddr st);  // struct xstat: stat plus owner and mode
Result<i64> fileread(File* f, UserAddr dst, int n);
Result<i64> filewrite(File* f, UserAddr src, int n);
// The poll(2) bits (POLLIN, POLLOUT, POLLHUP, POLLERR) that hold for f now.
u16 filepoll(File* f);

// Pipes (pipe.cc): a pair of Files, f0 the read end, f1 the write end.
void pipe_init();  // build the pipe pool (boot, before the first pipe)
Status pipealloc(File** f0, File** f1);
// Close one File on the pipe: its reading and/or writing side.
void pipeclose(Pipe* pi, bool reader, bool writer);
// Wait for data; 0 at end of file (empty, no writers). Returns bytes read.
Result<i64> piperead(Pipe* pi, UserAddr dst, int n);
// Write all n bytes, waiting for room; BrokenPipe with no readers.
Result<i64> pipewrite(Pipe* pi, UserAddr src, int n);

// FIFOs (fifo.cc). fifo_attach: in the open's transaction, with ip locked,
// attach f (its readable/writable set) to ip's pipe. fifo_wait: after the
// transaction, wait as POSIX's blocking open does (O_RDONLY for a writer,
// O_WRONLY for a reader; Killed if killed meanwhile).
Result<fs::FifoPeerSnapshot> fifo_attach(File* f, Inode* ip);
Status fifo_wait(File* f, fs::FifoPeerSnapshot at);

}  // namespace q
