// tests/host/kfs_env.cc - the host stand-in kernel for kernel/fs (see kfs_env.h).
#include "tests/host/kfs_env.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kernel/dev/disk.h"
#include "kernel/fs/buf.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/pcache.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/proc/runqueue.h"
#include "kernel/sync/sleeplock.h"
#include "kernel/sync/spinlock.h"
#include "kernel/syscall.h"
#include "lib/fs/layout.h"

KfsEnv g_env;

namespace q {

Cpu g_cpus[param::kMaxCpus];
volatile bool g_panicked = false;
static Proc g_proc;
static ThreadGroup g_tgroup;  // the test process's descriptors and cwd (kernel/proc/tgroup.cc)

void panic(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "kernel panic: ");
    std::vfprintf(stderr, fmt, ap);
    std::fprintf(stderr, "\n");
    va_end(ap);
    std::abort();
}
void kprintf(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
}

int strncmp(const char* a, const char* b, usize n) { return std::strncmp(a, b, n); }
usize strlen(const char* s) { return std::strlen(s); }
void safe_strcpy(char* dst, const char* src, usize n) {
    if (n == 0) return;
    std::strncpy(dst, src, n - 1);
    dst[n - 1] = '\0';
}

// Single hart: a lock is a flag; misuse panics as in the kernel.
void SpinLock::acquire() {
    if (locked_) panic("acquire: %s already held", name_);
    locked_ = 1;
}
void SpinLock::release() {
    if (!locked_) panic("release: %s not held", name_);
    locked_ = 0;
}
bool SpinLock::holding() const { return locked_ != 0; }
void push_off() {}
void pop_off() {}
void SleepLock::acquire() {
    if (locked_) panic("sleeplock %s: would sleep forever (single-threaded host)", name_);
    locked_ = true;
}
void SleepLock::release() {
    if (!locked_) panic("sleeplock %s: release of unheld lock", name_);
    locked_ = false;
    if (g_env.after_sleep_release != nullptr) g_env.after_sleep_release(name_);
}
bool SleepLock::holding() { return locked_; }

Proc* myproc() { return &g_proc; }
const perm::Cred& current_cred() { return g_proc.cred; }
Cpu* mycpu() { return &g_cpus[0]; }
int cpuid() { return 0; }
void sleep(const void*, SpinLock& lk) {
    panic("sleep with %s held: would block forever in the single-threaded host", lk.name());
}
void sleep_killable(const void* chan, SpinLock& lk, bool) {
    if (!g_proc.killed) sleep(chan, lk);
}
void wakeup(const void*, Wake) {}
bool killed(Proc* p) { return p->killed; }
bool dying(Proc* p) { return p->killed; }
void set_killed(Proc* p) { p->killed = true; }
void yield() {}
// The clock poll's timeouts read (kernel/trap.cc): a counter that moves a
// millisecond per look (a timed poll that would sleep panics in sleep()).
u64 now_cycles() {
    static u64 fake = 0;
    return fake += param::kTimerHz / 1000;
}
void timer_rearm() {}

static bool bad_user(u64 addr, u64 len) { return addr < 4096 || addr + len < addr; }

Status copy_out(u64*, UserAddr dst, const void* src, u64 len) {
    if (bad_user(dst.raw(), len)) return Error::BadAddress;
    std::memmove(reinterpret_cast<void*>(dst.raw()), src, len);
    return {};
}
Status copy_in(u64*, void* dst, UserAddr src, u64 len) {
    if (bad_user(src.raw(), len)) return Error::BadAddress;
    std::memmove(dst, reinterpret_cast<const void*>(src.raw()), len);
    return {};
}
// No page is ever left for later here: every host address is there.
bool vm_fault_later() { return false; }
bool vm_fault_later(LockGuard&) { return false; }
Status either_copyout(bool user_dst, u64 dst, const void* src, u64 len) {
    if (user_dst) return copy_out(nullptr, UserAddr(dst), src, len);
    std::memmove(reinterpret_cast<void*>(dst), src, len);
    return {};
}
Status either_copyin(void* dst, bool user_src, u64 src, u64 len) {
    if (user_src) return copy_in(nullptr, dst, UserAddr(src), len);
    std::memmove(dst, reinterpret_cast<const void*>(src), len);
    return {};
}

u64 arg_raw(int n) { return g_env.args[n]; }
int arg_int(int n) { return static_cast<int>(g_env.args[n]); }
UserAddr arg_addr(int n) { return UserAddr(g_env.args[n]); }
Result<int> arg_str(int n, char* buf, int max) {
    const u64 a = g_env.args[n];
    if (bad_user(a, 1)) return Error::BadAddress;
    const char* s = reinterpret_cast<const char*>(a);
    for (int i = 0; i < max; i++) {
        buf[i] = s[i];
        if (s[i] == '\0') return i;
    }
    return Error::TooBig;
}

// One block. Each block write is a crash point and may fail: a multi-block
// request or a batch can be cut anywhere between its blocks, as on a real
// disk that writes them in some order (here: in order).
static Status disk_block(u32 blockno, u8* data, bool write) {
    const usize at = usize(blockno) * fs::kBlockSize;
    if (at + fs::kBlockSize > g_env.disk.size()) panic("disk: block %u beyond the disk", blockno);
    if (!write) {
        g_env.stats.blocks_read++;
        std::memcpy(data, &g_env.disk[at], fs::kBlockSize);
        return {};
    }
    if (g_env.fail_writes_from >= 0 && g_env.write_attempts++ >= g_env.fail_writes_from) return Error::IoError;
    g_env.stats.blocks_written++;
    std::memcpy(&g_env.disk[at], data, fs::kBlockSize);
    g_env.writes++;
    if (g_env.writes == g_env.crash_after) g_env.crash_image = g_env.disk;
    return {};
}

static const Lender* g_lender = nullptr;

static void* pool_take() {
    if (g_env.pages_out >= g_env.pool_pages) return nullptr;
    void* p = std::aligned_alloc(4096, 4096);
    if (p == nullptr) panic("kalloc: host out of memory");
    std::memset(p, 0, 4096);
    g_env.pages_out++;
    return p;
}
static void pool_put(void* page) {
    if (page == nullptr || reinterpret_cast<u64>(page) % 4096 != 0) panic("kfree %p: bad page", page);
    if (g_env.pages_out == 0) panic("kfree: more pages freed than allocated");
    std::memset(page, 0x01, 4096);
    std::free(page);
    g_env.pages_out--;
}
// One allocator step done: the free count as a reader would see it now.
static void note_free() {
    if (!g_env.watch_free) return;
    const u64 n = kalloc_free_pages();
    g_env.free_low = n < g_env.free_low ? n : g_env.free_low;
    g_env.free_high = n > g_env.free_high ? n : g_env.free_high;
}
static void* take_page() {
    void* p = pool_take();
    while (!p && g_lender && g_lender->give_back(1) > 0) p = pool_take();
    return p;
}
void* kalloc() {
    void* p = take_page();
    note_free();
    return p;
}
void kfree(void* page) {
    pool_put(page);
    note_free();
}
void* kalloc_for_lender() {
    void* p = take_page();
    if (p) g_env.copying++;
    note_free();
    return p;
}
void kalloc_copy_dropped(void* copy) {
    if (g_env.copying == 0) panic("kalloc_copy_dropped: no copy");
    pool_put(copy);
    g_env.copying--;
    note_free();
}
void kalloc_lender_to_copies(u64 n, void (*publish)()) {
    g_env.copying += n;
    publish();
    note_free();
}
void kalloc_copies_to_lender(u64 n, void (*publish)()) {
    if (n > g_env.copying) panic("kalloc_copies_to_lender: %lu of %lu copies", n, g_env.copying);
    g_env.copying -= n;
    publish();
    note_free();
}
u64 kalloc_pool_pages() { return g_env.pages_out >= g_env.pool_pages ? 0 : g_env.pool_pages - g_env.pages_out; }
u64 kalloc_total_pages() { return g_env.pool_pages; }
u64 kalloc_free_pages() { return kalloc_pool_pages() + g_env.copying + (g_lender ? g_lender->borrowed() : 0); }
void kalloc_set_lender(const Lender* lender) { g_lender = lender; }
// kernel/stats.cc's rqstat: no run queues here.
bool rq_stat(int, RqStat&) { return false; }

// The page cache (kernel/mm/pcache.h) is the kernel's: on the host no page
// is ever cached, so writes have nothing to copy into and reads take the
// disk's blocks.
void pcache_wrote(const Inode*, u32, const void*, u32) {}
bool pcache_read(const Inode*, u32, bool, u64, u32, Status*) { return false; }
void pcache_truncate(const Inode*, u32) {}

Status disk_rw(Buf* b, bool write) {
    g_env.stats.round_trips++;
    (write ? g_env.stats.write_requests : g_env.stats.read_requests)++;
    return disk_block(b->blockno, b->data, write);
}

Status disk_batch(const DiskIo* ios, u32 n) {
    if (n > 0) g_env.stats.round_trips++;
    Status result;
    for (u32 j = 0; j < n; j++) {
        const u32 i = g_env.reverse_batches ? n - 1 - j : j;
        (ios[i].write ? g_env.stats.write_requests : g_env.stats.read_requests)++;
        for (u32 k = 0; k < ios[i].nblocks; k++) {
            const Status s = disk_block(ios[i].blockno + k, ios[i].data + usize(k) * fs::kBlockSize, ios[i].write);
            if (!s.ok() && result.ok()) result = s;
        }
    }
    return result;
}

DiskStats disk_stats() { return g_env.stats; }

}  // namespace q

using namespace q;

u64 kfs_give_back(u64 pages) { return g_lender ? g_lender->give_back(pages) : 0; }

std::vector<u8> kfs_mkfs(u32 blocks, u32 inodes) {
    std::vector<u8> img(usize(blocks) * fs::kBlockSize, 0);
    const fs::SuperBlock sb = fs::make_superblock(blocks, inodes);
    std::memcpy(&img[fs::kBlockSize], &sb, sizeof sb);
    const u32 root_data = fs::first_data_block(sb);
    fs::DiskInode root{};
    root.type = fs::InodeType::Dir;
    root.nlink = 1;
    root.size = 2 * sizeof(fs::DirEntry);
    root.addrs[0] = root_data;
    root.mode = perm::kDirMode;
    std::memcpy(&img[usize(fs::inode_block(fs::kRootInode, sb)) * fs::kBlockSize +
                     (fs::kRootInode % fs::kInodesPerBlock) * sizeof root],
                &root, sizeof root);
    fs::DirEntry de[2] = {{static_cast<u16>(fs::kRootInode), "."}, {static_cast<u16>(fs::kRootInode), ".."}};
    std::memcpy(&img[usize(root_data) * fs::kBlockSize], de, sizeof de);
    for (u32 b = 0; b <= root_data; b++)
        img[usize(fs::bitmap_block(b, sb)) * fs::kBlockSize + (b % fs::kBitsPerBlock) / 8] |=
            static_cast<u8>(1u << (b % 8));
    return img;
}

std::vector<u8> kfs_settled(const std::vector<u8>& image) {
    std::vector<u8> out = image;
    fs::SuperBlock sb;
    std::memcpy(&sb, &out[fs::kBlockSize], sizeof sb);
    fs::LogHeader lh;
    std::memcpy(&lh, &out[usize(sb.logstart) * fs::kBlockSize], sizeof lh);
    for (u32 i = 0; i < lh.n && i + 1 < sb.nlog; i++)
        std::memcpy(&out[usize(lh.block[i]) * fs::kBlockSize], &out[usize(sb.logstart + 1 + i) * fs::kBlockSize],
                    fs::kBlockSize);
    std::memset(&out[usize(sb.logstart) * fs::kBlockSize], 0, usize(sb.nlog) * fs::kBlockSize);
    return out;
}

void kfs_boot(const std::vector<u8>& image) {
    g_env.disk = image;
    g_env.writes = 0;
    g_env.crash_after = -1;
    g_env.fail_writes_from = -1;
    g_env.write_attempts = 0;
    g_env.stats = {};
    g_env.after_sleep_release = nullptr;
    g_env.watch_free = false;
    Proc* p = myproc();
    p->tg = &g_tgroup;
    g_tgroup.live = 1;
    for (auto& f : g_tgroup.ofile) f = nullptr;
    g_tgroup.cwd = nullptr;
    p->killed = false;
    bcache_init();
    g_env.pool_pages = 4096;
    inode_table_init();
    file_table_init();
    pipe_init();
    fs_init(param::kRootDev);
    auto root = namei("/");
    if (!root.ok()) panic("kfs_boot: no root");
    g_tgroup.cwd = std::move(root).value().release();
}

void kfs_args(u64 a0, u64 a1, u64 a2) {
    g_env.args[0] = a0;
    g_env.args[1] = a1;
    g_env.args[2] = a2;
}

u64 kfs_ptr(const void* p) { return reinterpret_cast<u64>(p); }
