// kernel/trace/trace.cc - per-hart trace buffers and the trace system calls.
//
// Each hart owns one buffer: an array of pages from kalloc (128 records of
// 32 bytes each), filled in order and never wrapped: when it is full, new
// records are counted as dropped, so a dump always holds a complete prefix
// of each hart's events. Only the owning hart writes its buffer, with
// interrupts off, so a record needs no lock and no atomic read-modify-write.
//
// Stopping must not race with a hart in the middle of a record: a writer
// sets its hart's `writing` flag, then (full fence) checks g_on; trace_stop
// clears g_on, then (full fence) waits for every `writing` flag to clear.
// Either the writer sees g_on false, or the stopper sees it writing and
// waits (Dekker's pattern). After that the buffers are quiescent until the
// next trace_start, which is the only place they are freed and reallocated.
// g_ctl serialises the system calls (start, stop, read, stat); it is taken
// before any process lock (the start-up snapshot takes each p->lock) and
// never by a trace point.
#include "kernel/trace/trace.h"

#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"

namespace q {

extern u64 g_slice_cycles;

namespace trace {

static_assert(kMaxHarts == static_cast<u32>(param::kMaxCpus), "one dump section per possible hart");
static_assert(kPageSize % sizeof(Record) == 0);

constinit bool g_on = false;

namespace {

constexpr u64 kPerPage = kPageSize / sizeof(Record);
constexpr u32 kDefaultKb = 1024;  // per hart
constexpr u32 kMaxKb = 8192;      // per hart
constexpr u32 kMaxPages = kMaxKb / (kPageSize / 1024);

struct HartBuf {
    Record* pages[kMaxPages] = {};
    u64 count = 0;    // records kept (only this hart writes it while on)
    u64 dropped = 0;  // records lost (likewise)
    u32 writing = 0;  // 1 while this hart is writing a record
    int last_pid = 0;
    u8 last_state = 0;
};

constinit HartBuf g_bufs[kMaxHarts];
constinit u32 g_pages = 0;  // pages per hart currently allocated
constinit u64 g_capacity = 0;
constinit int g_ncpus = 1;
constinit SpinLock g_ctl("trace");
constinit DumpHeader g_header{};  // valid for reading once magic is set (after a stop)

void put(Record& r) {
    push_off();
    const int cpu = cpuid();
    HartBuf& h = g_bufs[cpu];
    __atomic_store_n(&h.writing, 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g_on, __ATOMIC_RELAXED)) {
        r.time = now_cycles();
        r.cpu = static_cast<u8>(cpu);
        if (h.count < g_capacity) {
            h.pages[h.count / kPerPage][h.count % kPerPage] = r;
            h.count++;
        } else {
            h.dropped++;
        }
    }
    __atomic_store_n(&h.writing, 0, __ATOMIC_RELEASE);
    pop_off();
}

Record make(Event e, int pid) {
    Record r{};
    r.type = static_cast<u8>(e);
    r.pid = pid;
    return r;
}

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
            g_bufs[h].pages[i] = static_cast<Record*>(kalloc());
            if (!g_bufs[h].pages[i]) {
                free_buffers();
                return false;
            }
        }
    }
    g_capacity = u64{pages} * kPerPage;
    return true;
}

// One Proc record per existing process (tracing is already on).
void snapshot() {
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.state == ProcState::Unused) continue;
        Record r = make(Event::Proc, p.pid);
        r.a = static_cast<u8>(p.state);
        r.b = static_cast<u8>(p.nice + 20);
        put_name(r, p.name);
        put(r);
    }
}

}  // namespace

void init(int ncpus) { g_ncpus = ncpus < 1 ? 1 : (ncpus > param::kMaxCpus ? param::kMaxCpus : ncpus); }

void emit(Event e, int pid, int other, u8 a, u8 b, u32 arg, i64 key) {
    Record r = make(e, pid);
    r.other = other;
    r.a = a;
    r.b = b;
    r.arg = arg;
    r.key = key;
    put(r);
}

void emit_name(Event e, int pid, const char* name) {
    Record r = make(e, pid);
    put_name(r, name);
    put(r);
}

void emit_sched(Event e, const Proc* p, int queue, u32 nr) {
    Record r = make(e, p->pid);
    r.a = static_cast<u8>(queue);
    r.b = static_cast<u8>(nr > 255 ? 255 : nr);
    r.other = static_cast<i32>(p->se.weight);
    r.key = p->se.vruntime;
    const i64 d = p->se.deadline - p->se.vruntime;
    r.arg = d <= 0 ? 0 : (d > 0xffffffffll ? 0xffffffffu : static_cast<u32>(d));
    put(r);
}

void emit_wake(const Proc* p, int queue) {
    const Proc* waker = myproc();
    emit(Event::Wakeup, p->pid, waker ? waker->pid : 0, static_cast<u8>(queue), p->woken ? 1 : 0, 0, 0);
}

void emit_switch(const Proc* next, u64 waited) {
    push_off();
    HartBuf& h = g_bufs[cpuid()];
    Record r = make(Event::Switch, next->pid);
    r.other = h.last_pid;
    r.a = h.last_state;
    r.key = static_cast<i64>(waited);
    put(r);
    pop_off();
}

void emit_deschedule(const Proc* p, int state, u64 ran) {
    push_off();
    HartBuf& h = g_bufs[cpuid()];
    h.last_pid = p->pid;
    h.last_state = static_cast<u8>(state);
    Record r = make(Event::Deschedule, p->pid);
    r.a = static_cast<u8>(state);
    r.key = static_cast<i64>(ran);
    put(r);
    pop_off();
}

// trace_start(kb) -> 0; -1 if already tracing, kb outside 4..8192 (0 means
// the default, 1024 KiB per hart), or out of memory. Frees the previous
// trace's buffers (its dump can no longer be read), allocates kb KiB per
// hart, and writes one Proc record for every existing process.
i64 sys_trace_start() {
    const int kb = arg_int(0) == 0 ? static_cast<int>(kDefaultKb) : arg_int(0);
    if (kb < 4 || kb > static_cast<int>(kMaxKb)) return -1;
    LockGuard g(g_ctl);
    if (__atomic_load_n(&g_on, __ATOMIC_RELAXED)) return -1;
    free_buffers();
    if (!alloc_buffers(static_cast<u32>(kb) / 4)) return -1;
    for (int h = 0; h < g_ncpus; h++) {
        g_bufs[h].count = g_bufs[h].dropped = 0;
        g_bufs[h].last_pid = 0;
        g_bufs[h].last_state = 0;
    }
    g_header.start_time = now_cycles();
    __atomic_store_n(&g_on, true, __ATOMIC_SEQ_CST);
    snapshot();
    return 0;
}

// trace_stop() -> records kept (all harts), or -1 if not tracing. The dump
// can then be read with trace_read until the next trace_start.
i64 sys_trace_stop() {
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
    d.record_size = sizeof(Record);
    d.harts = static_cast<u32>(g_ncpus);
    d.timer_hz = param::kTimerHz;
    d.slice_cycles = g_slice_cycles;
    d.stop_time = now_cycles();
    d.capacity = g_capacity;
    u64 total = 0;
    for (int h = 0; h < g_ncpus; h++) {
        d.records[h] = g_bufs[h].count;
        d.dropped[h] = g_bufs[h].dropped;
        total += d.records[h];
    }
    safe_strcpy(d.policy, rq_policy_name(), sizeof(d.policy));
    safe_strcpy(d.rq_mode, rq_mode_name(), sizeof(d.rq_mode));
    return static_cast<i64>(total);
}

// trace_read(offset, buf, len) -> bytes of the dump (header, then each
// hart's records) copied from `offset` into buf, 0 at or past its end; -1
// while tracing, before the first stop, or for a bad pointer.
i64 sys_trace_read() {
    const u64 off = arg_raw(0);
    const UserAddr dst = arg_addr(1);
    const i64 len_arg = static_cast<i64>(arg_raw(2));
    if (len_arg < 0) return -1;
    LockGuard g(g_ctl);
    if (__atomic_load_n(&g_on, __ATOMIC_RELAXED) || g_header.magic != kMagic) return -1;
    const u64 total = dump_size(g_header);
    if (off >= total) return 0;
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
            while (rel >= g_header.records[h] * sizeof(Record)) rel -= g_header.records[h++] * sizeof(Record);
            const u64 rec = rel / sizeof(Record);
            const u64 in_page = (rec % kPerPage) * sizeof(Record) + rel % sizeof(Record);
            src = reinterpret_cast<const u8*>(g_bufs[h].pages[rec / kPerPage]) + in_page;
            avail = kPageSize - in_page;
            const u64 left_in_section = g_header.records[h] * sizeof(Record) - rel;
            if (avail > left_in_section) avail = left_in_section;
        }
        const u64 n = avail < len - done ? avail : len - done;
        if (!copy_out(myproc()->pagetable, dst + done, src, n).ok()) return -1;
        done += n;
    }
    return static_cast<i64>(done);
}

// trace_stat(struct tracestat*) -> 0, or -1 for a bad pointer. Counts read
// while tracing are a moment's snapshot.
i64 sys_trace_stat() {
    tracestat st{};
    {
        LockGuard g(g_ctl);
        st.on = __atomic_load_n(&g_on, __ATOMIC_RELAXED) ? 1 : 0;
        st.harts = g_ncpus;
        for (int h = 0; h < g_ncpus; h++) {
            st.records += __atomic_load_n(&g_bufs[h].count, __ATOMIC_RELAXED);
            st.dropped += __atomic_load_n(&g_bufs[h].dropped, __ATOMIC_RELAXED);
        }
        st.bytes = !st.on && g_header.magic == kMagic ? dump_size(g_header) : 0;
        st.capacity = g_capacity;
    }
    return to_user(copy_out(myproc()->pagetable, arg_addr(0), &st, sizeof(st)));
}

}  // namespace trace
}  // namespace q
