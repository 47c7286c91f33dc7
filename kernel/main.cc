// kernel/main.cc - supervisor-mode start: hart 0 initialises, the rest join.
//
// Boot path: entry.S (machine mode, stacks) -> machine_start (start.cc:
// delegation, PMP, timer, mret) -> kmain here, in supervisor mode with
// paging off. Hart 0 reads the device tree, brings up the console, memory,
// paging, processes, traps, interrupts, the disk, the framebuffer (if QEMU
// has a display) and the first process, in that order (each step needs the
// previous ones); then it releases the other harts, which only switch on
// paging and their own trap/interrupt state. Every hart then enters its scheduler loop and never returns.
#include "kernel/arch/riscv/csr.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/plic.h"
#include "kernel/boot.h"
#include "kernel/dev/console.h"
#include "kernel/dev/disk.h"
#include "kernel/dev/fb.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/swap.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"
#include "kernel/proc/signal.h"
#include "kernel/prof/prof.h"
#include "kernel/trace/trace.h"
#include "lib/fdt.h"
#include "lib/sched/weights.h"

namespace q {

void trap_init_hart();
extern u64 g_slice_cycles;

namespace {

constinit volatile bool g_started = false;
constinit fdt::BootInfo g_boot;

// Value of `key=` in the boot arguments, copied into out (empty if absent).
void boot_arg(const char* args, const char* key, char* out, usize n) {
    out[0] = 0;
    const usize klen = strlen(key);
    for (const char* s = args; *s;) {
        while (*s == ' ') s++;
        if (strncmp(s, key, klen) == 0 && s[klen] == '=') {
            s += klen + 1;
            usize i = 0;
            for (; s[i] && s[i] != ' ' && i + 1 < n; i++) out[i] = s[i];
            out[i] = 0;
            return;
        }
        while (*s && *s != ' ') s++;
    }
}

u64 parse_u64(const char* s) {
    u64 v = 0;
    for (; *s >= '0' && *s <= '9'; s++) v = v * 10 + static_cast<u64>(*s - '0');
    return *s ? 0 : v;
}

// mlfq_boost=US (0: never; default 10 slices) and mlfq_reset=1 (mlfq.py -S).
void mlfq_args() {
    char boost[16], reset[4];
    boot_arg(g_boot.bootargs, "mlfq_boost", boost, sizeof(boost));
    boot_arg(g_boot.bootargs, "mlfq_reset", reset, sizeof(reset));
    u64 cycles = sched::kMlfqBoostDefault;
    if (boost[0]) {
        const u64 us = parse_u64(boost);
        if (us <= 100'000'000 && (us != 0 || strncmp(boost, "0", 2) == 0)) cycles = us * (param::kTimerHz / 1'000'000);
        else kprintf("quanta: ignoring mlfq_boost=%s (0..100000000 us)\n", boost);
    }
    rq_set_mlfq(cycles, reset[0] == '1');
}

void read_device_tree() {
    const bool ok = g_dtb_pa != 0 && fdt::parse(reinterpret_cast<const void*>(g_dtb_pa), 1 << 20, &g_boot);
    if (!ok || g_boot.mem_size == 0) {
        g_boot = fdt::BootInfo{};
        g_boot.mem_base = layout::kKernBase;
        g_boot.mem_size = param::kDefaultRamBytes;
        g_boot.ncpus = param::kDefaultCpus;
    }
}

// entry.S parks harts past param::kMaxCpus; the rest of the kernel must not
// count them either (run queues, IPIs, PLIC contexts).
void clamp_harts() {
    if (g_boot.ncpus <= param::kMaxCpus) return;
    kprintf("quanta: %d harts found, using %d (the kernel's limit)\n", g_boot.ncpus, param::kMaxCpus);
    g_boot.ncpus = param::kMaxCpus;
}

void boot_hart0() {
    read_device_tree();
    console_init();
    kprintf("\nquanta: %d harts, %lu MiB RAM, bootargs '%s'\n", g_boot.ncpus, g_boot.mem_size >> 20, g_boot.bootargs);
    clamp_harts();
    kalloc_init(g_boot.mem_base + g_boot.mem_size);
    kvm_init();
    proc_map_stacks(g_kernel_pagetable);
    kvm_init_hart();
    proc_init();
    sigtramp_init();
    trap_init_hart();
    plic_init();
    plic_init_hart();
    bcache_init();
    inode_table_init();
    file_table_init();
    disk_init();
    fb_init();
    char vm_policy[16];
    boot_arg(g_boot.bootargs, "vm", vm_policy, sizeof(vm_policy));
    swap_init(vm_policy);  // the swap disk, if any, and the replacement policy (docs/memory.md "Swap")
    char policy[16];
    boot_arg(g_boot.bootargs, "sched", policy, sizeof(policy));
    char slice[16];
    boot_arg(g_boot.bootargs, "slice", slice, sizeof(slice));
    g_slice_cycles = param::default_slice_cycles(g_boot.ncpus);
    if (slice[0]) {
        const u64 us = parse_u64(slice);
        if (us >= 100 && us <= 1'000'000) g_slice_cycles = us * (param::kTimerHz / 1'000'000);
        else kprintf("quanta: ignoring slice=%s (100..1000000 us)\n", slice);
    }
    char rq_mode[16];
    boot_arg(g_boot.bootargs, "rq", rq_mode, sizeof(rq_mode));
    mlfq_args();
    rq_init(policy, rq_mode, g_slice_cycles, g_boot.ncpus);
    trace::init(g_boot.ncpus);
    prof::init(g_boot.ncpus);
    kprintf("quanta: scheduler %s (%s queues), slice %lu us\n", rq_policy_name(), rq_mode_name(),
            g_slice_cycles / (param::kTimerHz / 1'000'000));
    user_init();
    __atomic_store_n(&g_started, true, __ATOMIC_RELEASE);
}

}  // namespace

extern "C" void kmain() {
    if (cpuid() >= param::kMaxCpus) {
        for (;;) riscv::wfi();
    }
    if (cpuid() == 0) {
        boot_hart0();
    } else {
        while (!__atomic_load_n(&g_started, __ATOMIC_ACQUIRE)) {}
        kvm_init_hart();
        trap_init_hart();
        plic_init_hart();
    }
    riscv::w_scounteren(riscv::r_scounteren() | 2);  // user mode may read `time`
    scheduler();
}

}  // namespace q
