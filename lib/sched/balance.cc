// lib/sched/balance.cc - placement and balancing decisions (see balance.h).
#include "lib/sched/balance.h"

namespace q::sched {

namespace {

// Lighter: less load, then fewer tasks (ties keep the earlier one).
bool lighter(const QueueLoad& a, const QueueLoad& b) { return a.load < b.load || (a.load == b.load && a.nr < b.nr); }

}  // namespace

int select_cpu(const QueueLoad* q, unsigned n, int prev, CpuMask allowed, bool warm, u32 weight, CpuMask preempts,
               int sync) {
    if (n > kMaxCpus) n = kMaxCpus;
    const bool prev_ok = prev >= 0 && static_cast<unsigned>(prev) < n && mask_has(allowed, static_cast<unsigned>(prev));
    // The sync cpu is not taken for empty: its waker is there (schedsim's
    // replay delivers the wake-up after the waker left; the kernel's waker
    // still runs), so both choose alike.
    if (prev_ok && prev != sync && q[prev].nr == 0) return prev;
    const unsigned start = prev_ok ? static_cast<unsigned>(prev) + 1 : 0;
    for (unsigned i = 0; i < n; i++) {
        const unsigned c = (start + i) % n;
        if (mask_has(allowed, c) && q[c].nr == 0 && static_cast<int>(c) != sync) return static_cast<int>(c);
    }
    if (sync >= 0 && static_cast<unsigned>(sync) < n && mask_has(allowed, static_cast<unsigned>(sync))) return sync;
    preempts &= allowed;
    if (prev_ok && mask_has(preempts, static_cast<unsigned>(prev))) return prev;
    for (unsigned i = 0; preempts && i < n; i++) {
        const unsigned c = (start + i) % n;
        if (mask_has(preempts, c)) return static_cast<int>(c);
    }
    int least = -1;
    for (unsigned c = 0; c < n; c++) {
        if (!mask_has(allowed, c)) continue;
        if (least < 0 || lighter(q[c], q[least])) least = static_cast<int>(c);
    }
    if (least < 0) return prev_ok ? prev : 0;  // nothing allowed: the caller's mask is empty
    if (prev_ok && warm && q[prev].load <= q[least].load + weight) return prev;
    return least;
}

int steal_victim(const QueueLoad* q, unsigned n, unsigned self) {
    if (n > kMaxCpus) n = kMaxCpus;
    int best = -1;
    u32 most = 0;
    for (unsigned c = 0; c < n; c++) {
        if (c == self) continue;
        const u32 waiting = q[c].nr > q[c].running ? q[c].nr - q[c].running : 0;
        if (waiting > most || (waiting == most && best >= 0 && waiting > 0 && q[c].load > q[best].load)) {
            most = waiting;
            best = static_cast<int>(c);
        }
    }
    return most > 0 ? best : -1;
}

int busiest(const QueueLoad* q, unsigned n, unsigned self) {
    if (n > kMaxCpus) n = kMaxCpus;
    int best = -1;
    for (unsigned c = 0; c < n; c++) {
        if (c == self || q[c].nr <= q[c].running) continue;  // nothing waiting to move
        if (best < 0 || lighter(q[best], q[c])) best = static_cast<int>(c);
    }
    if (best < 0 || self >= n || q[best].load <= q[self].load) return -1;
    return best;
}

}  // namespace q::sched
