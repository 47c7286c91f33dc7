// kernel/obs/recorder.cc - the recorder's control side: budget, start,
// stop, the dump's read-out and the counters (design: recorder.h).
#include "kernel/obs/recorder.h"

#include "kernel/mm/kalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/syscall.h"
#include "kernel/trap.h"
#include "lib/fs/perm.h"
#include "lib/oom.h"

namespace q::obs {

static_assert(kMaxHarts == param::kMaxCpus, "a dump has one section per hart");

namespace {

constinit int g_harts = 1;

constexpr u32 kMinKb = 4;
constexpr u64 kMaxReadBytes = 1u << 20;  // per call: bounds the time ctl_ is held

}  // namespace

void init(int ncpus) { g_harts = ncpus < 1 ? 1 : (ncpus > param::kMaxCpus ? param::kMaxCpus : ncpus); }
int harts() { return g_harts; }

// All harts' streams together at most 1/8 of the machine's pages, and never
// so many that fewer than the out-of-memory rule's low watermark would be
// left free (lib/oom.h). Called with the previous streams freed.
bool Recorder::fits(u32 pages) const {
    const u64 want = u64{pages} * static_cast<u64>(g_harts);
    const u64 total = kalloc_total_pages();
    return want <= total / 8 && want + oom::low_water(total) <= kalloc_free_pages();
}

// `pages` per hart with the counts zeroed; false (nothing allocated) when
// memory runs out or the request is over budget.
bool Recorder::alloc(u32 pages) {
    if (!fits(pages)) return false;
    for (int h = 0; h < g_harts; h++) {
        for (u32 i = 0; i < pages; i++) {
            streams_[h].pages[i] = static_cast<u8*>(kalloc());
            if (!streams_[h].pages[i]) {
                free();
                return false;
            }
        }
        streams_[h].count = streams_[h].dropped = 0;
    }
    capacity_ = u64{pages} * (kPageSize / cfg_.record_size);
    return true;
}

// The streams and the sealed header (the dump can no longer be read).
void Recorder::free() {
    for (int h = 0; h < g_harts; h++) {
        for (u8*& page : streams_[h].pages) {
            if (page) kfree(page);
            page = nullptr;
        }
    }
    capacity_ = 0;
    __builtin_memset(static_cast<void*>(&header_), 0, cfg_.header_size);
}

// Clears `on` and waits until no hart is writing.
void Recorder::quiesce() {
    __atomic_store_n(&on_, false, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    for (int h = 0; h < g_harts; h++)
        while (__atomic_load_n(&streams_[h].writing, __ATOMIC_ACQUIRE)) {}
}

SysResult Recorder::start(i64 kb, u64 arg) {
    if (kb == 0) kb = cfg_.default_kb;
    if (kb < kMinKb || kb > cfg_.max_kb) return Error::BadArgument;
    if (!perm::may_admin(current_cred())) return Error::NotPermitted;
    LockGuard g(ctl_);
    if (is_on()) return Error::BadArgument;
    free();
    if (!alloc(static_cast<u32>(kb) / (kPageSize / 1024))) return Error::NoMemory;
    const u64 now = now_cycles();
    header_.start_time = now;
    cfg_.hooks.starting(now, arg);
    __atomic_store_n(&on_, true, __ATOMIC_SEQ_CST);
    cfg_.hooks.started();
    return 0;
}

SysResult Recorder::stop() {
    if (!perm::may_admin(current_cred())) return Error::NotPermitted;
    LockGuard g(ctl_);
    if (!is_on()) return Error::BadArgument;
    quiesce();
    Sections& d = header_;
    d.magic = kMagic;
    d.version = cfg_.version;
    d.kind = static_cast<u16>(cfg_.kind);
    d.header_size = cfg_.header_size;
    d.record_size = cfg_.record_size;
    d.harts = static_cast<u32>(g_harts);
    d.timer_hz = param::kTimerHz;
    d.stop_time = now_cycles();
    d.capacity = capacity_;
    u64 total = 0;
    for (int h = 0; h < g_harts; h++) {
        d.counts[h] = streams_[h].count;
        d.dropped[h] = streams_[h].dropped;
        total += d.counts[h];
    }
    cfg_.hooks.sealing(d);
    return static_cast<i64>(total);
}

// Copies bytes [off, off + len) of the sealed dump (the header, then each
// hart's records) to dst: the bytes copied, or BadAddress.
Result<u64> Recorder::copy_out(u64 off, UserAddr dst, u64 len) const {
    const u64 header_size = cfg_.header_size, rec = cfg_.record_size;
    const u64 per_page = kPageSize / rec;
    u64 done = 0;
    while (done < len) {
        const u64 pos = off + done;
        const u8* src = nullptr;
        u64 avail = 0;
        if (pos < header_size) {
            src = reinterpret_cast<const u8*>(&header_) + pos;
            avail = header_size - pos;
        } else {
            u64 rel = pos - header_size;
            int h = 0;
            while (rel >= header_.counts[h] * rec) rel -= header_.counts[h++] * rec;
            const u64 idx = rel / rec;
            const u64 in_page = (idx % per_page) * rec + rel % rec;
            src = streams_[h].pages[idx / per_page] + in_page;
            avail = kPageSize - in_page;
            const u64 left_in_section = header_.counts[h] * rec - rel;
            if (avail > left_in_section) avail = left_in_section;
        }
        const u64 n = avail < len - done ? avail : len - done;
        TRY(q::copy_out(myproc()->pagetable, dst + done, src, n));
        done += n;
    }
    return done;
}

SysResult Recorder::sys_read() {
    if (!perm::may_admin(current_cred())) return Error::NotPermitted;
    const u64 off = arg_raw(0);
    const UserAddr dst = arg_addr(1);
    const i64 len_arg = static_cast<i64>(arg_raw(2));
    if (len_arg < 0) return Error::BadArgument;
    LockGuard g(ctl_);
    if (is_on() || !sealed()) return Error::BadArgument;
    const u64 total = dump_size();
    if (off >= total) {  // read to its end
        if (cfg_.free_after_read) free();
        return 0;
    }
    u64 len = static_cast<u64>(len_arg);
    if (len > total - off) len = total - off;
    if (len > kMaxReadBytes) len = kMaxReadBytes;
    return sys_result(copy_out(off, dst, len));
}

tracestat Recorder::counters() {
    tracestat c{};
    LockGuard g(ctl_);
    c.on = is_on() ? 1 : 0;
    c.harts = g_harts;
    for (int h = 0; h < g_harts; h++) {
        c.records += __atomic_load_n(&streams_[h].count, __ATOMIC_RELAXED);
        c.dropped += __atomic_load_n(&streams_[h].dropped, __ATOMIC_RELAXED);
    }
    c.bytes = c.on ? 0 : dump_size();
    c.capacity = capacity_;
    return c;
}

}  // namespace q::obs
