// kernel/fs/fifo.cc - named pipes: FIFO inodes and their blocking open.
//
// A FIFO is an inode of type Fifo (lib/fs/layout.h) that never holds data
// blocks (size 0; fsck calls a FIFO with blocks damage). Its bytes live in
// a pipe from kernel/fs/pipe.cc's pool, found by the inode's (dev, inum):
// the first open attaches a fresh pipe, later opens the same one, and the
// last close gives it back (unread bytes are dropped, as in POSIX). A File
// on a FIFO is FileType::Fifo: it reads and writes as a pipe and holds a
// reference to the inode, so fstat works and an unlinked FIFO stays alive
// while open.
//
// Opening (POSIX): O_RDONLY waits until a writer has it open, O_WRONLY
// until a reader has, O_RDWR never waits (it is both). The opener attaches
// inside the open's transaction and with the inode locked, and waits only
// after both are let go: a peer's open needs that lock, and a transaction
// that sleeps would hold up every commit. It returns under the rule of
// lib/fs/fifo_rule.h (the peer was open at attach, is open now, or has
// opened since), so a peer that opened and closed while the opener was
// waking does not leave it waiting for ever. A kill ends the wait with
// Killed; the caller then closes the File, detaching it again. Permissions
// are the inode's mode, checked by open as for any file.
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/pipe.h"
#include "kernel/proc/proc.h"

namespace q {

Result<fs::FifoPeerSnapshot> fifo_attach(File* f, Inode* ip) {
    fs::FifoPeerSnapshot at{};
    Pipe* pi = pipe_attach(ip->dev, ip->inum, f->readable, f->writable, &at);
    if (pi == nullptr) return Error::NoFile;
    f->pipe = pi;
    return at;
}

Status fifo_wait(File* f, fs::FifoPeerSnapshot at) {
    if (f->readable && f->writable) return {};
    Pipe* pi = f->pipe;
    Proc* p = myproc();
    LockGuard guard(pi->lock);
    for (;;) {
        const u32 open = f->readable ? pi->writers : pi->readers;
        const u32 opens = f->readable ? pi->writer_opens : pi->reader_opens;
        if (fs::fifo_open_may_return(at, open, opens)) return {};
        if (killed(p)) return Error::Killed;
        pi->nopen_waiting++;
        sleep_killable(&pi->can_open, pi->lock);
        pi->nopen_waiting--;
    }
}

}  // namespace q
