// kernel/fs/poll.cc - poll(fds, nfds, timeout_ms) over pipes, FIFOs,
// devices and files.
//
// A poll scans its descriptors (filepoll in kernel/fs/file.cc: the pipe's
// ring and side counts, a device's DevSw::poll, a regular file always
// ready) and returns at once if any is ready, or if the timeout is 0. Else
// it sleeps until something changes anywhere: one global sequence number,
// bumped by poll_notify() on every pipe, FIFO and console change, and one
// wait channel (its address). A woken poller scans again; a change that
// concerns none of its descriptors costs it a scan. A poller reads the
// sequence before it scans and sleeps only if the number is still the same
// once it has counted itself as waiting (under the poll lock); a notifier
// bumps the number before it looks at the waiting count, both sequentially
// consistent, so either the poller sees the bump or the notifier sees the
// poller (and takes the lock to wake it, which it can only do once the
// poller sleeps). So no change between a scan and the sleep is lost.
//
// Timeouts are in virtual time: the deadline (timer cycles) lowers
// g_poll.deadline, the earliest of any sleeping poller's (a lower bound,
// kernel/lib/deadline.h, as the futex's), and re-arms this hart's timer;
// every hart's timer is armed no later than it (kernel/trap.cc), and the
// interrupt that finds it passed calls poll_expire, which resets it and
// wakes every poller; each looks at its own deadline and, still waiting,
// lowers it again. A kill wakes a poller (sleep_killable) and the call
// fails, so the process dies.
// Descriptors are looked up afresh on every scan, each with a reference of
// its own (fd_ref), so a sibling thread's close cannot free a File under
// the scan; one closed meanwhile reads as POLLNVAL.
#include "kernel/fs/poll.h"

#include "kernel/fs/file.h"
#include "kernel/lib/deadline.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/syscall.h"
#include "kernel/trap.h"
#include "lib/abi/abi.h"

namespace q {

namespace {

// At most this many entries per call (duplicates allowed, as in POSIX).
constexpr int kMaxPollFds = 4 * param::kMaxOpenPerProc;
constexpr u64 kCyclesPerMs = param::kTimerHz / 1000;

struct PollState {
    SpinLock lock{"poll"};
    u64 seq = 0;                // bumped by every change (atomic)
    u32 waiting = 0;            // pollers about to sleep or asleep (atomic; changed under lock)
    EarliestDeadline deadline;  // earliest timed poller's (kernel/lib/deadline.h)
};
constinit PollState g_poll;

// The revents of one entry: what holds of what it asked, plus the states
// reported unasked.
u16 poll_one(int fd, u16 events) {
    if (fd < 0) return 0;
    auto f = fd_ref(fd);
    if (!f.ok()) return POLLNVAL;
    const u16 now = filepoll(f.value());
    fileclose(f.value());
    return static_cast<u16>(now & (events | POLLHUP | POLLERR | POLLNVAL));
}

// Scan every entry, writing its revents; returns how many have any.
Result<i64> scan(UserAddr fds, int nfds) {
    PageTable pt = myproc()->pagetable;
    i64 ready = 0;
    for (int i = 0; i < nfds; i++) {
        const UserAddr at = fds + static_cast<u64>(i) * sizeof(struct pollfd);
        struct pollfd pfd;
        TRY(copy_in(pt, &pfd, at, sizeof pfd));
        pfd.revents = static_cast<short>(poll_one(pfd.fd, static_cast<u16>(pfd.events)));
        TRY(copy_out(pt, at + __builtin_offsetof(struct pollfd, revents), &pfd.revents, sizeof pfd.revents));
        ready += pfd.revents != 0;
    }
    return ready;
}

// Sleep until the sequence moves past seq0, the deadline (0: none) passes
// or the caller is killed.
void wait_change(u64 seq0, u64 deadline) {
    Proc* p = myproc();
    LockGuard g(g_poll.lock);
    __atomic_add_fetch(&g_poll.waiting, 1, __ATOMIC_SEQ_CST);
    if (deadline != 0) {
        g_poll.deadline.lower(deadline);
        timer_rearm();  // interrupts are off: the poll lock is held
    }
    while (__atomic_load_n(&g_poll.seq, __ATOMIC_SEQ_CST) == seq0 && !killed(p) &&
           (deadline == 0 || now_cycles() < deadline))
        sleep_killable(&g_poll.seq, g_poll.lock);
    __atomic_sub_fetch(&g_poll.waiting, 1, __ATOMIC_SEQ_CST);
}

// The deadline of a timeout of ms milliseconds from now (0: none).
u64 deadline_after_ms(int ms) {
    if (ms <= 0) return 0;
    return now_cycles() + static_cast<u64>(ms) * kCyclesPerMs;
}

Result<i64> do_poll(UserAddr fds, int nfds, int timeout_ms) {
    if (nfds < 0 || nfds > kMaxPollFds) return Error::BadArgument;
    const u64 deadline = deadline_after_ms(timeout_ms);
    Proc* p = myproc();
    for (;;) {
        const u64 seq0 = __atomic_load_n(&g_poll.seq, __ATOMIC_SEQ_CST);
        auto ready = TRY(scan(fds, nfds));
        if (ready > 0 || timeout_ms == 0) return ready;
        if (deadline != 0 && now_cycles() >= deadline) return i64{0};
        if (killed(p)) return Error::Killed;
        wait_change(seq0, deadline);
    }
}

}  // namespace

void poll_notify() {
    __atomic_add_fetch(&g_poll.seq, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g_poll.waiting, __ATOMIC_SEQ_CST) == 0) return;
    LockGuard g(g_poll.lock);
    wakeup(&g_poll.seq);
}

u64 poll_next_deadline() { return g_poll.deadline.get(); }

void poll_expire() {
    g_poll.deadline.reset();
    poll_notify();
}

// poll(struct pollfd* fds, nfds, timeout_ms) -> entries with revents set,
// 0 when the timeout passed first, -1 (bad pointer, nfds < 0 or > 64,
// killed). timeout_ms < 0 waits for ever, 0 not at all.
SysResult sys_poll() { return sys_result(do_poll(arg_addr(0), arg_int(1), arg_int(2))); }

}  // namespace q
