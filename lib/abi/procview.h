// lib/abi/procview.h - the process list's columns, defined once.
//
// `ps` (user/ps.cc) and the kernel's ^P dump (kernel/proc/procdump.cc) print
// the same table through these two functions, so the two views cannot drift
// apart. Pure, freestanding and allocation-free: rows are written into a
// caller's buffer with right-aligned numbers (neither the user library's
// printf nor a lock-free dump wants field widths of its own). Units: CPU and
// wait time in milliseconds, worst wakeup latency in microseconds (the timer
// runs at 10 MHz: 1 cycle = 100 ns). USER is the process's real user: a
// name when the caller knows it (ps reads /etc/passwd), else the uid (^P:
// the kernel has no accounts).
#pragma once

#include "lib/abi/abi.h"

namespace q::procview {

constexpr int kRowMax = 136;  // longest row, NUL included
constexpr const char* kHeader =
    "  PID  PPID STATE  NICE WEIGHT  CPU_MS WAIT_MS  SCHED    VOL  INVOL MAXLAT_US  MIGR USER     NAME";
// `ps -T`: one row per thread, its TID after the PID.
constexpr const char* kHeaderThreads =
    "  PID   TID  PPID STATE  NICE WEIGHT  CPU_MS WAIT_MS  SCHED    VOL  INVOL MAXLAT_US  MIGR USER     NAME";

// `ps -m`: one row per process, its memory (KiB of user memory, sbrk(0))
// and page faults (minor: no disk read; major: one) (docs/memory.md).
constexpr const char* kHeaderMemory = "  PID STATE    SIZE_KB   MINFLT   MAJFLT NAME";

// `ps -s`: one row per thread, its scheduling parameters: nice, weight and
// EEVDF request size in us (sched_getrequest; `-` = the default slice).
constexpr const char* kHeaderSched = "  PID   TID STATE  NICE WEIGHT REQ_US NAME";

constexpr const char* state_name(int s) {
    constexpr const char* kNames[] = {"unused", "embryo", "sleep", "runble", "run", "zombie"};
    return s >= 0 && s < 6 ? kNames[s] : "?";
}

// Appends to a fixed buffer; stops quietly at its end.
class Row {
  public:
    explicit Row(char* out) : out_(out) { out_[0] = 0; }
    int length() const { return n_; }
    void text(const char* s, int width = 0) {  // left-aligned, padded to width
        int k = 0;
        for (; s[k]; k++) put(s[k]);
        for (; k < width; k++) put(' ');
    }
    void num(long v, int width) {  // right-aligned in width, then a space
        char digits[24];
        int k = 0;
        const bool neg = v < 0;
        unsigned long u = neg ? 0ul - static_cast<unsigned long>(v) : static_cast<unsigned long>(v);
        do {
            digits[k++] = static_cast<char>('0' + u % 10);
            u /= 10;
        } while (u != 0);
        if (neg) digits[k++] = '-';
        for (int pad = width - k; pad > 0; pad--) put(' ');
        while (k > 0) put(digits[--k]);
        put(' ');
    }

  private:
    void put(char c) {
        if (n_ + 1 >= kRowMax) return;
        out_[n_++] = c;
        out_[n_] = 0;
    }
    char* out_;
    int n_ = 0;
};

// One row for p (matching kHeader, or kHeaderThreads with tid) into
// out[kRowMax]; returns its length. user: the name for p.uid, or null to
// print the number.
inline int format_row(const procinfo& p, char* out, const char* user = nullptr, bool tid = false) {
    Row r(out);
    r.num(p.pid, 5);
    if (tid) r.num(p.tid, 5);
    r.num(p.ppid, 5);
    r.text(state_name(p.state), 6);
    r.text(" ");
    r.num(p.nice, 4);
    r.num(p.weight, 6);
    r.num(static_cast<long>(p.cpu_ticks / 10000), 7);
    r.num(static_cast<long>(p.wait_cycles / 10000), 7);
    r.num(static_cast<long>(p.switches), 6);
    r.num(static_cast<long>(p.voluntary), 6);
    r.num(static_cast<long>(p.involuntary), 6);
    r.num(static_cast<long>(p.max_wakeup_latency / 10), 9);
    r.num(static_cast<long>(p.migrations), 5);
    if (user != nullptr) {
        r.text(user, 8);
        r.text(" ");
    } else {
        const int before = r.length();
        r.num(p.uid, 1);
        for (int k = r.length() - before; k < 9; k++) r.text(" ");
    }
    r.text(p.name);
    return r.length();
}

// One `ps -m` row for p (matching kHeaderMemory) into out[kRowMax].
inline int format_memory_row(const procinfo& p, char* out) {
    Row r(out);
    r.num(p.pid, 5);
    r.text(state_name(p.state), 6);
    r.text(" ");
    r.num(static_cast<long>(p.size / 1024), 10);
    r.num(static_cast<long>(p.minflt), 8);
    r.num(static_cast<long>(p.majflt), 8);
    r.text(p.name);
    return r.length();
}

// One `ps -s` row for p (matching kHeaderSched) into out[kRowMax];
// request_us: its request, 0 for the default (printed `-`).
inline int format_sched_row(const procinfo& p, long request_us, char* out) {
    Row r(out);
    r.num(p.pid, 5);
    r.num(p.tid, 5);
    r.text(state_name(p.state), 6);
    r.text(" ");
    r.num(p.nice, 4);
    r.num(p.weight, 6);
    if (request_us > 0) {
        r.num(request_us, 6);
    } else {
        r.text("     - ");
    }
    r.text(p.name);
    return r.length();
}

}  // namespace q::procview
