// kernel/obs/prof.cc - the sampling profiler: what a timer interrupt
// records (a 128-byte Sample, lib/obs/format.h) and the profiler's
// system calls. The streams, their budget and root-only control are the
// recorder's (kernel/obs/recorder.h); samples are written from each hart's
// own timer interrupt. A profile is freed by the next prof_start or once
// its dump has been read to the end.
//
// Kernel call stacks: RISC-V frames built with frame pointers keep the
// return address at fp-8 and the caller's fp at fp-16. The walk starts at
// the interrupted s0 and follows the chain while each fp is 8-aligned,
// grows towards the stack's top and stays inside the page holding the
// trap's saved registers (a process's kernel stack is one page; a boot
// stack is larger, so its outer frames may be cut): it never reads
// outside the interrupted stack, whatever garbage s0 holds (a function
// interrupted in its prologue, or assembly that uses s0 otherwise).
#include "kernel/obs/prof.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/plic.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/obs/recorder.h"
#include "kernel/proc/internal.h"
#include "kernel/syscall.h"
#include "kernel/trap.h"
#include "lib/in_place.h"

extern "C" char etext[];  // kernel/arch/riscv/kernel.ld: end of kernel text

namespace q {

namespace prof {

constinit bool g_on = false;

namespace {

constexpr u64 kDefaultPeriodUs = 1000;
constexpr u64 kMinPeriodUs = 20;  // below this QEMU spends its time in the handler
constexpr u64 kMaxPeriodUs = 1'000'000;

constinit u64 g_next_due[kMaxHarts] = {};  // when each hart's next sample is due (its own)
constinit u64 g_period = kDefaultPeriodUs * param::kCyclesPerUs;
constinit DumpHeader g_header{};

// Every hart's first sample is one period from now.
void starting(u64 now, u64 period) {
    g_period = period;
    for (u64& due : g_next_due) due = now + period;
}

// Every hart arms its timer for the period: this one now, the others when
// the IPI arrives (kernel/trap.cc re-arms on an IPI while profiling), not
// up to a slice later at their next timer interrupt.
void started() {
    push_off();
    timer_rearm();
    for (int h = 0; h < obs::harts(); h++)
        if (h != cpuid()) send_ipi(h);
    pop_off();
}

void sealing(obs::Sections& h) { h.period_cycles = g_period; }

// 1024 KiB per hart by default: 8192 samples, 8 s at 1 ms.
constexpr obs::Config kConfig{
    "prof", obs::Kind::Profile,          kVersion, sizeof(Sample), sizeof(DumpHeader), 1024, 8192,
    true,   {starting, started, sealing}};
// Built by init (boot): a Recorder's defaults (its Config, its lock's
// name) are not zero, so a constinit one put all 128 KiB of it (mostly
// empty page lists) in the image's .data; a BootBuilt (lib/in_place.h)
// is zeros in .bss until then.
constinit BootBuilt<obs::Recorder> g_rec;

// The recorder, for the system calls (the first to reach it: nothing is
// recorded before a start).
obs::Recorder& rec() {
    if (!g_rec.built()) panic("prof: the recorder was never built (prof::init)");
    return *g_rec;
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
    void* slot = g_rec->slot(cpu);
    if (!slot) return;
    Sample& s = *static_cast<Sample*>(slot);
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

// Boot, before the first system call (kernel/main.cc).
void init() {
    if (!g_rec.build(kConfig, g_on, g_header).name()) panic("prof::init: the recorder kept no defaults");
}

u64 next_due() { return g_next_due[cpuid()]; }

void on_timer(u64 now, u64 pc, const u64* kregs) {
    const int cpu = cpuid();
    if (now < g_next_due[cpu]) return;  // a slice or tick interrupt between samples
    if (g_rec->enter(cpu)) {
        g_next_due[cpu] = now + g_period;
        record(cpu, pc, kregs);
    }
    g_rec->leave(cpu);
}

// prof_start(period_us, kb) -> 0; -1 if the caller is not root, already
// profiling, period_us outside 20..1000000 or kb outside 4..8192 (0 means
// the default: 1000 us, 1024 KiB per hart), all harts' buffers together
// over 1/8 of memory, or out of memory. Frees the previous profile's
// buffers, allocates kb KiB per hart and arms every hart's timer for its
// first sample (the others through an IPI).
SysResult sys_prof_start() {
    const u64 us = arg_raw(0) == 0 ? kDefaultPeriodUs : arg_raw(0);
    if (us < kMinPeriodUs || us > kMaxPeriodUs) return Error::BadArgument;
    return rec().start(arg_int(1), us * param::kCyclesPerUs);
}

// prof_stop() -> samples kept (all harts), or -1 if the caller is not root
// or not profiling. The dump can then be read with prof_read.
SysResult sys_prof_stop() { return rec().stop(); }

// prof_read(offset, buf, len) -> bytes of the dump (header, then each
// hart's samples) copied from `offset` into buf; 0 at or past its end,
// which also frees the buffers (the dump has been read: a later prof_read
// returns -1); -1 for a caller who is not root, while profiling, with no
// dump, or for a bad pointer.
SysResult sys_prof_read() { return rec().sys_read(); }

}  // namespace prof
}  // namespace q
