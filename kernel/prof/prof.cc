// kernel/prof/prof.cc - per-hart sample buffers and the profiler's system
// calls (the scheduler tracer's design, kernel/trace/trace.cc, with one
// kind of record).
//
// Each hart owns one buffer: pages from kalloc (32 Samples of 128 bytes
// each), allocated by prof_start and freed by the next prof_start or once
// the dump has been read to its end, never wrapped: when it is full, new
// samples are counted as dropped, so a dump holds each hart's first
// samples. Only the owning hart writes its buffer, from its timer
// interrupt (interrupts off), so a sample needs no lock.
//
// Kernel call stacks: RISC-V frames built with frame pointers keep the
// return address at fp-8 and the caller's fp at fp-16. The walk starts at
// the interrupted s0 and follows the chain while each fp is 8-aligned,
// grows towards the stack's top and stays inside the page holding the
// trap's saved registers (a process's kernel stack is one page; a boot
// stack is larger, so its outer frames may be cut): it never reads
// outside the interrupted stack, whatever garbage s0 holds (a function
// interrupted in its prologue, or assembly that uses s0 otherwise).
//
// Stopping must not race with a hart in the middle of a sample: the
// sampler sets its hart's `writing` flag, then (full fence) checks g_on;
// prof_stop clears g_on, then (full fence) waits for every `writing` flag
// to clear (Dekker's pattern, as in the tracer). The buffers are then
// quiescent until the next prof_start. g_ctl serialises the system calls;
// it is never taken from the interrupt path.
#include "kernel/prof/prof.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/plic.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/proc/internal.h"
#include "kernel/syscall.h"

extern "C" char etext[];  // kernel/arch/riscv/kernel.ld: end of kernel text

namespace q {

void timer_rearm();  // kernel/trap.cc

namespace prof {

static_assert(kMaxHarts == static_cast<u32>(param::kMaxCpus), "one dump section per possible hart");
static_assert(kPageSize % sizeof(Sample) == 0);

constinit bool g_on = false;

namespace {

constexpr u64 kPerPage = kPageSize / sizeof(Sample);
constexpr u32 kDefaultKb = 1024;  // per hart: 8192 samples, 8 s at 1 ms
constexpr u32 kMaxKb = 8192;      // per hart
constexpr u32 kMaxPages = kMaxKb / (kPageSize / 1024);
constexpr u64 kCyclesPerUs = param::kTimerHz / 1'000'000;
constexpr u64 kDefaultPeriodUs = 1000;
constexpr u64 kMinPeriodUs = 20;  // below this QEMU spends its time in the handler
constexpr u64 kMaxPeriodUs = 1'000'000;

struct HartBuf {
    Sample* pages[kMaxPages] = {};
    u64 count = 0;     // samples kept (only this hart writes it while on)
    u64 dropped = 0;   // samples lost (likewise)
    u64 next_due = 0;  // when this hart's next sample is due
    u32 writing = 0;   // 1 while this hart is writing a sample
};

constinit HartBuf g_bufs[kMaxHarts];
constinit u32 g_pages = 0;  // pages per hart currently allocated
constinit u64 g_capacity = 0;
constinit u64 g_period = kDefaultPeriodUs * kCyclesPerUs;
constinit int g_ncpus = 1;
constinit SpinLock g_ctl("prof");
constinit DumpHeader g_header{};  // valid for reading once magic is set (after a stop)

void free_buffers() {
    for (int h = 0; h < g_ncpus; h++) {
        for (u32 i = 0; i < g_pages; i++) {
            if (g_bufs[h].pages[i]) kfree(g_bufs[h].pages[i]);
            g_bufs[h].pages[i] = nullptr;
        }
    }
    g_pages = 0;
    g_capacity = 0;
    g_header = DumpHeader{};
}

bool alloc_buffers(u32 pages) {
    g_pages = pages;
    for (int h = 0; h < g_ncpus; h++) {
        for (u32 i = 0; i < pages; i++) {
            g_bufs[h].pages[i] = static_cast<Sample*>(kalloc());
            if (!g_bufs[h].pages[i]) {
                free_buffers();
                return false;
            }
        }
    }
    g_capacity = u64{pages} * kPerPage;
    return true;
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

void record(HartBuf& h, int cpu, u64 pc, const u64* kregs) {
    if (h.count >= g_capacity) {
        h.dropped++;
        return;
    }
    Sample& s = h.pages[h.count / kPerPage][h.count % kPerPage];
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
    h.count++;
}

}  // namespace

void init(int ncpus) { g_ncpus = ncpus < 1 ? 1 : (ncpus > param::kMaxCpus ? param::kMaxCpus : ncpus); }

u64 next_due() { return g_bufs[cpuid()].next_due; }

void on_timer(u64 now, u64 pc, const u64* kregs) {
    const int cpu = cpuid();
    HartBuf& h = g_bufs[cpu];
    if (now < h.next_due) return;  // a slice or tick interrupt between samples
    __atomic_store_n(&h.writing, 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g_on, __ATOMIC_RELAXED)) {
        h.next_due = now + g_period;
        record(h, cpu, pc, kregs);
    }
    __atomic_store_n(&h.writing, 0, __ATOMIC_RELEASE);
}

// prof_start(period_us, kb) -> 0; -1 if already profiling, period_us
// outside 20..1000000 or kb outside 4..8192 (0 means the default: 1000 us,
// 1024 KiB per hart), or out of memory. Frees the previous profile's
// buffers, allocates kb KiB per hart and arms every hart's timer for its
// first sample (the others through an IPI).
i64 sys_prof_start() {
    const u64 us = arg_raw(0) == 0 ? kDefaultPeriodUs : arg_raw(0);
    const int kb = arg_int(1) == 0 ? static_cast<int>(kDefaultKb) : arg_int(1);
    if (us < kMinPeriodUs || us > kMaxPeriodUs || kb < 4 || kb > static_cast<int>(kMaxKb)) return -1;
    LockGuard g(g_ctl);
    if (__atomic_load_n(&g_on, __ATOMIC_RELAXED)) return -1;
    free_buffers();
    if (!alloc_buffers(static_cast<u32>(kb) / 4)) return -1;
    g_period = us * kCyclesPerUs;
    const u64 now = now_cycles();
    for (int h = 0; h < g_ncpus; h++) {
        g_bufs[h].count = g_bufs[h].dropped = 0;
        g_bufs[h].next_due = now + g_period;
    }
    g_header.start_time = now;
    __atomic_store_n(&g_on, true, __ATOMIC_SEQ_CST);
    // Every hart arms its timer for the period: this one now, the others
    // when the IPI arrives (kernel/trap.cc re-arms on an IPI while
    // profiling), not up to a slice later at their next timer interrupt.
    push_off();
    timer_rearm();
    for (int h = 0; h < g_ncpus; h++)
        if (h != cpuid()) send_ipi(h);
    pop_off();
    return 0;
}

// prof_stop() -> samples kept (all harts), or -1 if not profiling. The
// dump can then be read with prof_read.
i64 sys_prof_stop() {
    LockGuard g(g_ctl);
    if (!__atomic_load_n(&g_on, __ATOMIC_RELAXED)) return -1;
    __atomic_store_n(&g_on, false, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int h = 0; h < g_ncpus; h++) {
        while (__atomic_load_n(&g_bufs[h].writing, __ATOMIC_ACQUIRE)) {}
    }
    DumpHeader& d = g_header;
    d.magic = kMagic;
    d.version = kVersion;
    d.header_size = sizeof(DumpHeader);
    d.sample_size = sizeof(Sample);
    d.harts = static_cast<u32>(g_ncpus);
    d.timer_hz = param::kTimerHz;
    d.period_cycles = g_period;
    d.stop_time = now_cycles();
    d.capacity = g_capacity;
    u64 total = 0;
    for (int h = 0; h < g_ncpus; h++) {
        d.samples[h] = g_bufs[h].count;
        d.dropped[h] = g_bufs[h].dropped;
        total += d.samples[h];
    }
    return static_cast<i64>(total);
}

// prof_read(offset, buf, len) -> bytes of the dump (header, then each
// hart's samples) copied from `offset` into buf; 0 at or past its end,
// which also frees the buffers (the dump has been read: a later prof_read
// returns -1); -1 while profiling, with no dump, or for a bad pointer.
i64 sys_prof_read() {
    const u64 off = arg_raw(0);
    const UserAddr dst = arg_addr(1);
    const i64 len_arg = static_cast<i64>(arg_raw(2));
    if (len_arg < 0) return -1;
    LockGuard g(g_ctl);
    if (__atomic_load_n(&g_on, __ATOMIC_RELAXED) || g_header.magic != kMagic) return -1;
    const u64 total = dump_size(g_header);
    if (off >= total) {
        free_buffers();
        return 0;
    }
    u64 len = static_cast<u64>(len_arg);
    if (len > total - off) len = total - off;
    if (len > (1u << 20)) len = 1u << 20;  // bounds the time spent with g_ctl held
    u64 done = 0;
    while (done < len) {
        const u64 pos = off + done;
        const u8* src = nullptr;
        u64 avail = 0;
        if (pos < sizeof(DumpHeader)) {
            src = reinterpret_cast<const u8*>(&g_header) + pos;
            avail = sizeof(DumpHeader) - pos;
        } else {
            u64 rel = pos - sizeof(DumpHeader);
            int h = 0;
            while (rel >= g_header.samples[h] * sizeof(Sample)) rel -= g_header.samples[h++] * sizeof(Sample);
            const u64 idx = rel / sizeof(Sample);
            const u64 in_page = (idx % kPerPage) * sizeof(Sample) + rel % sizeof(Sample);
            src = reinterpret_cast<const u8*>(g_bufs[h].pages[idx / kPerPage]) + in_page;
            avail = kPageSize - in_page;
            const u64 left_in_section = g_header.samples[h] * sizeof(Sample) - rel;
            if (avail > left_in_section) avail = left_in_section;
        }
        const u64 n = avail < len - done ? avail : len - done;
        if (!copy_out(myproc()->pagetable, dst + done, src, n).ok()) return -1;
        done += n;
    }
    return static_cast<i64>(done);
}

}  // namespace prof
}  // namespace q
