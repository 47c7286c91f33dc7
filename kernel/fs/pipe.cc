// kernel/fs/pipe.cc - pipes: a bounded byte ring shared by two Files.
//
// Pipes come from a fixed pool (param::kMaxFiles / 2: each needs two
// Files), each with a 512-byte ring (lib/fs/pipe_ring.h). The pipe's
// spinlock guards the ring and the two open flags. Readers sleep on the
// channel `can_read` while the ring is empty and a writer exists; writers
// sleep on `can_write` while it is full and a reader exists; each side wakes
// the other after moving bytes and when it closes, but only if somebody
// sleeps there: each side counts its sleepers under the lock (a wakeup
// scans the process table, and a pipe round trip found nobody asleep in
// half of its four). A slot returns to the pool (under
// the pool lock) once both ends are closed: nothing can reach it then.
// Both sides give up when their process is killed (they sleep with
// sleep_killable, so a kill just before the sleep is not lost). A write of at most
// 512 bytes is atomic: it waits for room for all of it, and the lock is
// held while it copies, so no other writer's bytes land inside it.
#include "kernel/fs/file.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"
#include "lib/fs/pipe_ring.h"

namespace q {

constexpr u32 kPipeSize = 512;
constexpr int kMaxPipes = param::kMaxFiles / 2;

// A sleep channel: only its address matters (sleep/wakeup key on it); it
// holds no data. Each one is a distinct object, so distinct channels never
// share an address.
struct SleepChannel {};

struct Pipe {
    SpinLock lock{"pipe"};
    fs::PipeRing<kPipeSize> ring;
    bool readopen = false;   // the read end is open
    bool writeopen = false;  // the write end is open
    bool in_use = false;     // guarded by the pool lock
    SleepChannel can_read;   // readers wait here for bytes or the write end's close
    SleepChannel can_write;  // writers wait here for room or the read end's close
    u32 nread_waiting = 0;   // processes asleep on can_read
    u32 nwrite_waiting = 0;  // processes asleep on can_write
};

namespace {

struct PipePool {
    SpinLock lock{"pipepool"};
    Pipe pipes[kMaxPipes];
};
constinit PipePool g_pipes;

Pipe* pipe_get() {
    LockGuard guard(g_pipes.lock);
    for (Pipe& p : g_pipes.pipes) {
        if (p.in_use) continue;
        p.in_use = true;
        p.readopen = p.writeopen = true;
        p.ring.reset_counters(0);
        return &p;
    }
    return nullptr;
}

void pipe_put(Pipe* p) {
    LockGuard guard(g_pipes.lock);
    p->in_use = false;
}

// Caller holds pi->lock.
void wake_readers(Pipe* pi) {
    if (pi->nread_waiting) wakeup(&pi->can_read);
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

}  // namespace

Status pipealloc(File** f0, File** f1) {
    Q_TRY(rd, filealloc());
    auto r1 = filealloc();
    if (!r1.ok()) {
        fileclose(rd);
        return r1.error();
    }
    File* wr = r1.value();
    Pipe* pi = pipe_get();
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

void pipeclose(Pipe* pi, bool writable_end) {
    bool both_closed = false;
    {
        LockGuard guard(pi->lock);
        if (writable_end) {
            pi->writeopen = false;
            wake_readers(pi);
        } else {
            pi->readopen = false;
            wake_writers(pi);
        }
        both_closed = !pi->readopen && !pi->writeopen;
    }
    if (both_closed) pipe_put(pi);
}

Result<i64> pipewrite(Pipe* pi, UserAddr src, int n) {
    if (n < 0) return Error::BadArgument;
    Proc* pr = myproc();
    u32 done = 0;
    Error err = Error::Ok;
    LockGuard guard(pi->lock);
    while (done < static_cast<u32>(n)) {
        if (!pi->readopen) {
            err = Error::BrokenPipe;
            break;
        }
        if (killed(pr)) return Error::Killed;
        if (!pi->ring.writer_may_copy(static_cast<u32>(n), done)) {  // (writes of <= 512 bytes go in whole)
            wake_readers(pi);
            sleep_writer(pi);
            continue;
        }
        fs::Span s = pi->ring.write_span(static_cast<u32>(n) - done);
        if (!copy_in(pr->pagetable, s.data, src + done, s.len).ok()) {
            err = Error::BadAddress;
            break;
        }
        pi->ring.commit_write(s.len);
        done += s.len;
    }
    wake_readers(pi);
    if (done == 0 && err != Error::Ok) return err;
    return static_cast<i64>(done);
}

Result<i64> piperead(Pipe* pi, UserAddr dst, int n) {
    if (n < 0) return Error::BadArgument;
    if (n == 0) return i64{0};
    Proc* pr = myproc();
    LockGuard guard(pi->lock);
    while (pi->ring.empty() && pi->writeopen) {
        if (killed(pr)) return Error::Killed;
        sleep_reader(pi);
    }
    u32 done = 0;
    Error err = Error::Ok;
    while (done < static_cast<u32>(n) && !pi->ring.empty()) {
        fs::Span s = pi->ring.read_span(static_cast<u32>(n) - done);
        if (!copy_out(pr->pagetable, dst + done, s.data, s.len).ok()) {
            err = Error::BadAddress;
            break;
        }
        pi->ring.commit_read(s.len);
        done += s.len;
    }
    wake_writers(pi);
    if (done == 0 && err != Error::Ok) return err;
    return static_cast<i64>(done);
}

}  // namespace q
