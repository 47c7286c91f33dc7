// kernel/proc/futex.cc - futex wait and wake, with deadlines in virtual time.
//
// Waiters are records on their own kernel stacks, linked into one of 64
// buckets hashed by (process, address) (for a word in a MAP_SHARED page:
// its physical address, key_of), each bucket under its own lock. A
// waiter compares the word and links itself in under the bucket's lock,
// and sleep() releases that lock only once the waiter is Sleeping, so a
// wake that follows the user's change of the word cannot be missed: the
// waker takes the same lock, unlinks the record, marks it woken and makes
// its thread runnable. A kill wakes the thread too; the wait then unlinks
// its own record and fails. The wait sleeps with sleep_killable: a kill
// that lands between its test of killed and the sleep was lost before (a
// thread parked in an endless wait then never ended, and an exec waiting
// for it hung: hostile texecrace at 3 harts, once in a full make test).
//
// Deadlines: g_next_deadline is the earliest deadline of any timed waiter
// (a lower bound: a waiter woken early leaves it stale, which costs one
// scan). A timed waiter lowers it and re-arms its own hart's timer before
// sleeping; every hart's timer is armed no later than it (trap.cc), and the
// interrupt that finds it passed scans the buckets (futex_expire), ends the
// expired waits and recomputes it. futex_expire first sets it to "none"
// and then lowers it for each waiter still waiting, so a waiter linked in
// meanwhile (which lowers it after linking) is never lost.
#include "kernel/proc/futex.h"

#include "kernel/lib/deadline.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/internal.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"

namespace q {

namespace {

struct Waiter {
    const ThreadGroup* tg;
    u64 addr;
    Proc* proc;
    u64 deadline;  // timer cycles, 0: none
    bool woken;
    bool timed_out;
    Waiter* next;
};

struct Bucket {
    SpinLock lock{"futex"};
    Waiter* head = nullptr;  // in arrival order: wakes go first come, first served
};

// What a futex word is: (process, address), or for a word in a MAP_SHARED
// page (kPteShared, kernel/mm/mmap.cc) the page's physical address with no
// process, so threads of different processes sharing the page meet on it
// (a shared page is never copied or moved while mapped). Call after
// user_word found the word mapped.
struct Key {
    const ThreadGroup* tg;
    u64 addr;
};

Key key_of(const Proc* p, u64 addr) {
    const Pte* pte = walk(p->pagetable, page_round_down(addr), false);
    if (pte && (*pte & riscv::kPteV) && (*pte & kPteShared))
        return Key{nullptr, riscv::pte_to_pa(*pte) + addr % kPageSize};
    return Key{p->tg, addr};
}

constexpr int kBucketBits = 6;
constinit Bucket g_buckets[1 << kBucketBits];
constinit EarliestDeadline g_next_deadline;  // kernel/lib/deadline.h

Bucket& bucket_of(const ThreadGroup* tg, u64 addr) {
    const u64 h = ((reinterpret_cast<u64>(tg) >> 4) ^ (addr >> 2)) * 0x9e3779b97f4a7c15ull;
    return g_buckets[h >> (64 - kBucketBits)];
}

void link(Bucket& b, Waiter* w) {
    Waiter** pp = &b.head;
    while (*pp != nullptr) pp = &(*pp)->next;
    *pp = w;
}

void unlink(Bucket& b, Waiter* w) {
    for (Waiter** pp = &b.head; *pp != nullptr; pp = &(*pp)->next) {
        if (*pp == w) {
            *pp = w->next;
            return;
        }
    }
}

// ns in timer cycles, rounded up.
u64 ns_to_cycles(u64 ns) { return ns / param::kNsPerCycle + (ns % param::kNsPerCycle != 0); }

// timeout_ns from now, in timer cycles (rounded up); 0 means none.
u64 deadline_after(u64 timeout_ns) {
    if (timeout_ns == 0) return 0;
    const u64 cycles = ns_to_cycles(timeout_ns);
    const u64 now = now_cycles();
    return cycles > ~0ull - 1 - now ? ~0ull - 1 : now + cycles;
}

// at_ns on uptime_ns's clock (the timer's cycles since boot, in ns), in
// timer cycles (rounded up); 0 means none. One that has passed is
// returned as it is: the wait times out at once.
u64 deadline_at(u64 at_ns) { return at_ns == 0 ? 0 : ns_to_cycles(at_ns); }

// deadline: in timer cycles (0: none).
Result<int> futex_wait(u64 addr, u32 val, u64 deadline) {
    Proc* p = myproc();
    if (addr % sizeof(u32) != 0) return Error::BadArgument;
    // Pages of a process with other threads are never freed while it runs
    // (kernel/proc/proc.cc:grow_proc), so the word stays this process's;
    // but a sibling may page it out (kernel/mm/swap.h) before b.lock is
    // taken. So it is looked up again under the lock: a page-out frees the
    // frame only after every hart running this process took its shootdown
    // IPI, which this one does not while it holds the lock.
    volatile u32* word = user_word(p->pagetable, addr);
    if (word == nullptr) return Error::BadAddress;
    const Key k = key_of(p, addr);
    Waiter w{k.tg, k.addr, p, deadline, false, false, nullptr};
    Bucket& b = bucket_of(w.tg, w.addr);
    LockGuard g(b.lock);
    if (user_word(p->pagetable, addr) != word) return FUTEX_MISMATCH;  // moved: the caller looks again
    if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != val) return FUTEX_MISMATCH;
    if (deadline != 0 && deadline <= now_cycles()) return FUTEX_TIMEDOUT;
    link(b, &w);
    if (w.deadline != 0) {
        g_next_deadline.lower(w.deadline);
        timer_rearm();  // interrupts are off: b.lock is held
    }
    while (!w.woken && !w.timed_out && !killed(p)) sleep_killable(&w, b.lock);
    if (w.woken) return 0;
    if (w.timed_out) return FUTEX_TIMEDOUT;
    unlink(b, &w);
    return Error::Killed;
}

}  // namespace

int futex_wake(const ThreadGroup* tg, u64 addr, int n) {
    Bucket& b = bucket_of(tg, addr);
    LockGuard g(b.lock);
    int woken = 0;
    for (Waiter** pp = &b.head; *pp != nullptr && woken < n;) {
        Waiter* w = *pp;
        if (w->tg != tg || w->addr != addr) {
            pp = &w->next;
            continue;
        }
        *pp = w->next;
        w->woken = true;
        wakeup_proc(w->proc, w);
        woken++;
    }
    return woken;
}

u64 futex_next_deadline() { return g_next_deadline.get(); }

void futex_expire(u64 now) {
    g_next_deadline.reset();
    for (Bucket& b : g_buckets) {
        LockGuard g(b.lock);
        for (Waiter** pp = &b.head; *pp != nullptr;) {
            Waiter* w = *pp;
            if (w->deadline == 0 || w->deadline > now) {
                if (w->deadline != 0) g_next_deadline.lower(w->deadline);
                pp = &w->next;
                continue;
            }
            *pp = w->next;
            w->timed_out = true;
            wakeup_proc(w->proc, w);
        }
    }
}

// futex(int* addr, op, val, timeout_ns):
//   FUTEX_WAIT: if *addr == val, sleep until a FUTEX_WAKE on addr by a
//     thread of this process (-> 0), timeout_ns of virtual time (0: no
//     limit; -> FUTEX_TIMEDOUT, 2) or a kill (-> -1). If *addr != val, at
//     once FUTEX_MISMATCH (1). A return of 0 may also be spurious: callers
//     re-check their condition.
//   FUTEX_WAIT_UNTIL: the same until uptime_ns reads the fourth argument
//     (0: no limit; one that has passed: FUTEX_TIMEDOUT at once).
//   FUTEX_WAKE: wake up to val waiters on addr, first come first served;
//     -> how many (val < 0: -1).
// Both: -1 if addr is not 4-byte aligned, or not a word of this process's
// memory that the process may write (unmapped, kernel, read-only), or op
// is unknown.
SysResult sys_futex() {
    const u64 addr = arg_raw(0);
    const int op = arg_int(1);
    const u32 val = static_cast<u32>(arg_raw(2));
    if (op == FUTEX_WAIT) return sys_result(futex_wait(addr, val, deadline_after(arg_raw(3))));
    if (op == FUTEX_WAIT_UNTIL) return sys_result(futex_wait(addr, val, deadline_at(arg_raw(3))));
    if (op != FUTEX_WAKE || static_cast<int>(val) < 0) return Error::BadArgument;
    Proc* p = myproc();
    if (user_word(p->pagetable, addr) == nullptr) return Error::BadArgument;
    const Key k = key_of(p, addr);
    return futex_wake(k.tg, k.addr, static_cast<int>(val));
}

}  // namespace q
