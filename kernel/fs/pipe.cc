// kernel/fs/pipe.cc - pipes: a bounded byte ring shared by Files.
//
// Pipes come from a fixed pool (param::kMaxFiles / 2: each needs two
// Files), each with a 512-byte ring (lib/fs/pipe_ring.h); kernel/fs/pipe.h
// has the object and its locks. Readers sleep on the channel `can_read`
// while the ring is empty and a writer exists; writers sleep on `can_write`
// while it is full and a reader exists; each side wakes the other after
// moving bytes and when its last File closes, but only if somebody sleeps
// there: each side counts its sleepers under the lock (a wakeup scans the
// process table, and a pipe round trip found nobody asleep in half of its
// four). Every change a poller could see (bytes moved, a side opened or
// closed) also calls poll_notify (kernel/fs/poll.cc). A slot returns to the
// pool once no File is open on either side: nothing can reach it then.
// Both sides give up when their process is killed or a signal interrupts
// them (they sleep with sleep_killable, so a kill just before the sleep is
// not lost); a write cut after some bytes returns their count, as POSIX
// says, so that a restart after a stop or an SA_RESTART handler cannot
// write them twice (docs/signals.md). A write of at most 512 bytes is
// atomic: it waits for room for all of it and commits it in one step, so
// no other writer's bytes land inside it. The copies run under the pipe's
// lock; one that stops at a page to be read in first (a file mapping's, a
// swapped one) commits nothing, drops the lock while the page is faulted
// in, and copies again (kernel/mm/uaccess.h).
// The pool is built at boot (pipe_init): a pipe's defaults (its lock's
// name) are not zero, so a constinit pool put all 116 KiB of it in the
// image's .data; it is a BootBuilt (lib/in_place.h), zeros in .bss.
#include "kernel/fs/pipe.h"

#include "kernel/fs/file.h"
#include "kernel/fs/poll.h"
#include "kernel/lib/kprintf.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "lib/abi/abi.h"
#include "lib/in_place.h"

namespace q {

constexpr int kMaxPipes = param::kMaxFiles / 2;

namespace {

struct PipePool {
    SpinLock lock{"pipepool"};
    Pipe pipes[kMaxPipes];
};
constinit BootBuilt<PipePool> g_pipes;

// A free slot, reset, keyed to (dev, inum); caller holds the pool lock.
Pipe* pipe_take(u32 dev, u32 inum) {
    if (!g_pipes.built()) panic("pipe_take: the pool was never built (pipe_init)");
    for (Pipe& p : g_pipes->pipes) {
        if (p.in_use) continue;
        p.in_use = true;
        p.dev = dev;
        p.inum = inum;
        p.readers = p.writers = 0;
        p.ring.reset_counters(0);
        return &p;
    }
    return nullptr;
}

// The FIFO pipe keyed (dev, inum); caller holds the pool lock.
Pipe* pipe_find(u32 dev, u32 inum) {
    for (Pipe& p : g_pipes->pipes)
        if (p.in_use && p.inum == inum && p.dev == dev) return &p;
    return nullptr;
}

// Caller holds pi->lock.
void wake_readers(Pipe* pi, Wake how = Wake::Async) {
    if (pi->nread_waiting) wakeup(&pi->can_read, how);
}
void wake_writers(Pipe* pi) {
    if (pi->nwrite_waiting) wakeup(&pi->can_write);
}
void sleep_reader(Pipe* pi) {
    pi->nread_waiting++;
    sleep_killable(&pi->can_read, pi->lock);
    pi->nread_waiting--;
}
void sleep_writer(Pipe* pi) {
    pi->nwrite_waiting++;
    sleep_killable(&pi->can_write, pi->lock);
    pi->nwrite_waiting--;
}

// Count one more File on the chosen sides; caller holds both locks.
void count_open(Pipe* pi, bool reader, bool writer) {
    if (reader) {
        pi->readers++;
        pi->reader_opens++;
    }
    if (writer) {
        pi->writers++;
        pi->writer_opens++;
    }
    if (pi->nopen_waiting) wakeup(&pi->can_open);
}

// Copy up to `want` bytes from src into the ring's free space, both of its
// pieces when it wraps, committing nothing (*got: the bytes to commit). A
// failed copy commits nothing, so a write of at most the ring's size,
// which goes in whole, stays whole while the lock is dropped to fault a
// page in.
Status copy_into_ring(Pipe* pi, const Proc* pr, UserAddr src, u32 want, u32* got) {
    const fs::Span a = pi->ring.write_span(want);
    TRY(copy_in(pr->pagetable, a.data, src, a.len));
    const fs::Span b = pi->ring.write_span_after(a.len, want - a.len);
    if (b.len > 0) TRY(copy_in(pr->pagetable, b.data, src + a.len, b.len));
    *got = a.len + b.len;
    return {};
}

}  // namespace

// Before the first pipe or FIFO open (kernel/main.cc, at boot; a host
// test's every boot, tests/host/kfs_env.cc: no pipe outlives its files).
void pipe_init() {
    PipePool& pool = g_pipes.build();
    if (!pool.lock.name()) panic("pipe_init: the pool kept no defaults");
    for (const Pipe& p : pool.pipes)
        if (!p.lock.name()) panic("pipe_init: a pipe kept no defaults");
}

Pipe* pipe_attach(u32 dev, u32 inum, bool reader, bool writer, fs::FifoPeerSnapshot* peer) {
    Pipe* pi = nullptr;
    {
        LockGuard pool(g_pipes->lock);
        pi = pipe_find(dev, inum);
        if (pi == nullptr) pi = pipe_take(dev, inum);
        if (pi == nullptr) return nullptr;
        LockGuard guard(pi->lock);
        *peer = reader ? fs::fifo_snapshot(pi->writers, pi->writer_opens)
                       : fs::fifo_snapshot(pi->readers, pi->reader_opens);
        count_open(pi, reader, writer);
    }
    poll_notify();
    return pi;
}

Status pipealloc(File** f0, File** f1) {
    auto rd = TRY(filealloc());
    auto r1 = filealloc();
    if (!r1.ok()) {
        fileclose(rd);
        return r1.error();
    }
    File* wr = r1.value();
    Pipe* pi = nullptr;
    {
        LockGuard pool(g_pipes->lock);
        pi = pipe_take(0, 0);
        if (pi != nullptr) {
            LockGuard guard(pi->lock);
            count_open(pi, true, true);
        }
    }
    if (pi == nullptr) {
        fileclose(rd);
        fileclose(wr);
        return Error::NoFile;
    }
    rd->type = FileType::Pipe;
    rd->readable = true;
    rd->writable = false;
    rd->pipe = pi;
    wr->type = FileType::Pipe;
    wr->readable = false;
    wr->writable = true;
    wr->pipe = pi;
    *f0 = rd;
    *f1 = wr;
    return {};
}

void pipeclose(Pipe* pi, bool reader, bool writer) {
    {
        LockGuard pool(g_pipes->lock);
        LockGuard guard(pi->lock);
        if (writer && --pi->writers == 0) wake_readers(pi);
        if (reader && --pi->readers == 0) wake_writers(pi);
        if (pi->readers == 0 && pi->writers == 0) pi->in_use = false;
    }
    poll_notify();
}

u16 pipe_poll(Pipe* pi, bool reader, bool writer) {
    LockGuard guard(pi->lock);
    u16 r = 0;
    if (reader && !pi->ring.empty()) r |= POLLIN;
    if (reader && pi->writers == 0) r |= POLLHUP;
    if (writer && pi->readers == 0) r |= POLLERR;
    else if (writer && !pi->ring.full()) r |= POLLOUT;
    return r;
}

Result<i64> pipewrite(Pipe* pi, UserAddr src, int n) {
    if (n < 0) return Error::BadArgument;
    Proc* pr = myproc();
    u32 done = 0;
    Error err = Error::Ok;
    {
        LockGuard guard(pi->lock);
        while (done < static_cast<u32>(n)) {
            if (pi->readers == 0) {
                err = Error::BrokenPipe;
                break;
            }
            if (killed(pr)) {
                err = Error::Killed;
                break;
            }
            if (!pi->ring.writer_may_copy(static_cast<u32>(n), done)) {  // (writes of <= 512 bytes go in whole)
                // Sync: this writer sleeps at once.
                wake_readers(pi, Wake::Sync);
                sleep_writer(pi);
                continue;
            }
            u32 got = 0;
            if (copy_into_ring(pi, pr, src + done, static_cast<u32>(n) - done, &got).ok()) {
                pi->ring.commit_write(got);
                done += got;
                continue;
            }
            if (!vm_fault_later(guard)) {
                err = Error::BadAddress;
                break;
            }
        }
        // Sync: a writer usually goes on to wait for the reply (Linux's
        // pipe_write wakes its readers the same way).
        wake_readers(pi, Wake::Sync);
    }
    if (done > 0) poll_notify();
    if (done == 0 && err != Error::Ok) return err;
    return static_cast<i64>(done);
}

Result<i64> piperead(Pipe* pi, UserAddr dst, int n) {
    if (n < 0) return Error::BadArgument;
    if (n == 0) return i64{0};
    Proc* pr = myproc();
    u32 done = 0;
    Error err = Error::Ok;
    {
        LockGuard guard(pi->lock);
        for (;;) {
            while (done == 0 && pi->ring.empty() && pi->writers > 0) {
                if (killed(pr)) return Error::Killed;
                sleep_reader(pi);
            }
            if (pi->ring.empty() || done == static_cast<u32>(n)) break;
            fs::Span s = pi->ring.read_span(static_cast<u32>(n) - done);
            if (copy_out(pr->pagetable, dst + done, s.data, s.len).ok()) {
                pi->ring.commit_read(s.len);
                done += s.len;
                continue;
            }
            if (!vm_fault_later(guard)) {
                err = Error::BadAddress;
                break;
            }
        }
        wake_writers(pi);
    }
    if (done > 0) poll_notify();
    if (done == 0 && err != Error::Ok) return err;
    return static_cast<i64>(done);
}

}  // namespace q
