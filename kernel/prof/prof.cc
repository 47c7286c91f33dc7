// kernel/prof/prof.cc - per-hart sample buffers and the profiler's system
// calls (the scheduler tracer's design, kernel/trace/trace.cc, with one
// kind of record).
//
// Each hart owns one buffer of Samples (128 bytes each) in
// kernel/lib/hart_records.h, which also holds the stop handshake and the
// dump read-out: samples are written only by the owning hart, from its timer
// interrupt (interrupts off), so a sample needs no lock; a full buffer
// counts new samples as dropped. The buffers are freed by the next
// prof_start or once the dump has been read to its end.
//
// Kernel call stacks: RISC-V frames built with frame pointers keep the
// return address at fp-8 and the caller's fp at fp-16. The walk starts at
// the interrupted s0 and follows the chain while each fp is 8-aligned,
// grows towards the stack's top and stays inside the page holding the
// trap's saved registers (a process's kernel stack is one page; a boot
// stack is larger, so its outer frames may be cut): it never reads
// outside the interrupted stack, whatever garbage s0 holds (a function
// interrupted in its prologue, or assembly that uses s0 otherwise).
// Who may: all three system calls are root's (samples name every user's
// processes, their user PCs and the kernel stacks they were in). A
// profile takes at most 1/8 of memory (hart_records.h: fits()).
// g_ctl serialises the system calls; it is never taken from the interrupt
// path.
#include "kernel/prof/prof.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/plic.h"
#include "kernel/lib/hart_records.h"
#include "kernel/lib/string.h"
#include "kernel/proc/internal.h"
#include "kernel/syscall.h"
#include "kernel/trap.h"

extern "C" char etext[];  // kernel/arch/riscv/kernel.ld: end of kernel text

namespace q {

namespace prof {

constinit bool g_on = false;

namespace {

constexpr u32 kDefaultKb = 1024;  // per hart: 8192 samples, 8 s at 1 ms
constexpr u32 kMaxKb = 8192;      // per hart
constexpr u32 kMaxPages = kMaxKb / (kPageSize / 1024);
constexpr u64 kCyclesPerUs = param::kTimerHz / 1'000'000;
constexpr u64 kDefaultPeriodUs = 1000;
constexpr u64 kMinPeriodUs = 20;  // below this QEMU spends its time in the handler
constexpr u64 kMaxPeriodUs = 1'000'000;

constinit HartRecords<Sample, kMaxPages> g_rec{g_on};
constinit u64 g_next_due[kMaxHarts] = {};  // when each hart's next sample is due (its own)
constinit u64 g_period = kDefaultPeriodUs * kCyclesPerUs;
constinit SpinLock g_ctl("prof");
constinit DumpHeader g_header{};  // valid for reading once magic is set (after a stop)

void free_buffers() {
    g_rec.free();
    g_header = DumpHeader{};
}

// Return addresses of the frame chain from the interrupted s0 (kregs[8]).
u8 walk(const u64* kregs, u64* out) {
    const u64 lo = reinterpret_cast<u64>(kregs) & ~(kPageSize - 1);
    const u64 hi = lo + kPageSize;
    u64 fp = kregs[8];
    u8 n = 0;
    while (n < kMaxCallers && fp % 8 == 0 && fp >= lo + 16 && fp <= hi) {
        const u64* frame = reinterpret_cast<const u64*>(fp);
        const u64 ra = frame[-1];
        const u64 prev = frame[-2];
        // usertrap's frame holds the user's ra and s0 (the trampoline
        // jumps, it does not call): the chain ends at the first return
        // address outside kernel text.
        if (ra < layout::kKernBase || ra >= reinterpret_cast<u64>(etext)) break;
        out[n++] = ra;
        if (prev <= fp) break;  // the chain must move towards the top
        fp = prev;
    }
    return n;
}

void record(int cpu, u64 pc, const u64* kregs) {
    Sample* slot = g_rec.slot(cpu);
    if (!slot) return;
    Sample& s = *slot;
    const Proc* p = myproc();
    s.pc = pc;
    s.pid = p ? p->pid : 0;
    s.cpu = static_cast<u8>(cpu);
    s.mode = static_cast<u8>(kregs ? Mode::Kernel : Mode::User);
    s.reserved = 0;
    for (u32 i = 0; i < kMaxCallers; i++) s.callers[i] = 0;
    s.depth = kregs ? walk(kregs, s.callers) : 0;
    // p->name changes only in exec, which p itself runs: not concurrently.
    for (u32 i = 0; i < kNameLen; i++) s.name[i] = 0;
    if (p) safe_strcpy(s.name, p->name, kNameLen);
}

}  // namespace

void init(int ncpus) { g_rec.set_harts(ncpus); }

u64 next_due() { return g_next_due[cpuid()]; }

void on_timer(u64 now, u64 pc, const u64* kregs) {
    const int cpu = cpuid();
    if (now < g_next_due[cpu]) return;  // a slice or tick interrupt between samples
    if (g_rec.enter(cpu)) {
        g_next_due[cpu] = now + g_period;
        record(cpu, pc, kregs);
    }
    g_rec.leave(cpu);
}

// prof_start(period_us, kb) -> 0; -1 if the caller is not root, already
// profiling, period_us outside 20..1000000 or kb outside 4..8192 (0 means
// the default: 1000 us, 1024 KiB per hart), all harts' buffers together
// over 1/8 of memory, or out of memory. Frees the previous profile's
// buffers, allocates kb KiB per hart and arms every hart's timer for its
// first sample (the others through an IPI).
i64 sys_prof_start() {
    const u64 us = arg_raw(0) == 0 ? kDefaultPeriodUs : arg_raw(0);
    const int kb = arg_int(1) == 0 ? static_cast<int>(kDefaultKb) : arg_int(1);
    if (us < kMinPeriodUs || us > kMaxPeriodUs || kb < 4 || kb > static_cast<int>(kMaxKb)) return -1;
    if (!perm::may_admin(current_cred())) return -1;
    LockGuard g(g_ctl);
    if (g_rec.is_on()) return -1;
    free_buffers();
    if (!g_rec.alloc(static_cast<u32>(kb) / 4)) return -1;
    g_period = us * kCyclesPerUs;
    const u64 now = now_cycles();
    for (int h = 0; h < g_rec.harts(); h++) g_next_due[h] = now + g_period;
    g_header.start_time = now;
    g_rec.turn_on();
    // Every hart arms its timer for the period: this one now, the others
    // when the IPI arrives (kernel/trap.cc re-arms on an IPI while
    // profiling), not up to a slice later at their next timer interrupt.
    push_off();
    timer_rearm();
    for (int h = 0; h < g_rec.harts(); h++)
        if (h != cpuid()) send_ipi(h);
    pop_off();
    return 0;
}

// prof_stop() -> samples kept (all harts), or -1 if the caller is not root
// or not profiling. The dump can then be read with prof_read.
i64 sys_prof_stop() {
    if (!perm::may_admin(current_cred())) return -1;
    LockGuard g(g_ctl);
    if (!g_rec.is_on()) return -1;
    g_rec.stop();
    return static_cast<i64>(g_rec.seal(g_header, kMagic, kVersion, g_period, now_cycles()));
}

// prof_read(offset, buf, len) -> bytes of the dump (header, then each
// hart's samples) copied from `offset` into buf; 0 at or past its end,
// which also frees the buffers (the dump has been read: a later prof_read
// returns -1); -1 for a caller who is not root, while profiling, with no
// dump, or for a bad pointer.
i64 sys_prof_read() {
    if (!perm::may_admin(current_cred())) return -1;
    const u64 off = arg_raw(0);
    const UserAddr dst = arg_addr(1);
    const i64 len_arg = static_cast<i64>(arg_raw(2));
    if (len_arg < 0) return -1;
    LockGuard g(g_ctl);
    if (g_rec.is_on() || g_header.magic != kMagic) return -1;
    if (off >= obs::dump_size(g_header)) {  // read to its end
        free_buffers();
        return 0;
    }
    const auto done = g_rec.read(g_header, off, dst, static_cast<u64>(len_arg));
    return done.ok() ? static_cast<i64>(done.value()) : -1;
}

}  // namespace prof
}  // namespace q
