// kernel/main.cc - supervisor-mode start: hart 0 initialises, the rest join.
//
// Boot path: entry.S (machine mode, stacks) -> machine_start (start.cc:
// delegation, PMP, timer, mret) -> kmain here, in supervisor mode with
// paging off. Harts past param::kMaxCpus park. Hart 0 reads the device
// tree, starts the console and parses the boot arguments (once,
// lib/boot_args.h, before anything uses them), then brings up, in the order
// boot_hart0 lists them with a comment each (each step needs the ones
// before it): the page pool, the kernel page table and kernel stacks,
// paging, the process table and the signal trampoline, traps, the
// interrupt controller, the buffer cache, inodes and open files, the disk,
// the framebuffer (if QEMU has a display), swap, the run queues, the
// tracer's and the profiler's streams, and the first process. Then it
// releases the other harts, which only switch on paging and their own
// trap/interrupt state. Every hart lets user mode read `time` and enters
// its scheduler loop, never to return.
#include "kernel/arch/riscv/csr.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/plic.h"
#include "kernel/arch/riscv/spin.h"
#include "kernel/boot.h"
#include "kernel/dev/console.h"
#include "kernel/dev/disk.h"
#include "kernel/dev/fb.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/swap.h"
#include "kernel/obs/prof.h"
#include "kernel/obs/recorder.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"
#include "kernel/proc/signal.h"
#include "kernel/trap.h"
#include "lib/boot_args.h"
#include "lib/fdt.h"

namespace q {

namespace {

constinit volatile bool g_started = false;
constinit fdt::BootInfo g_boot;

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

// The boot arguments, parsed once (lib/boot_args.h); a rejected word is
// said on the console and leaves its default.
boot::Config read_boot_args() {
    const boot::Parsed parsed = boot::parse(g_boot.bootargs);
    const int kept = parsed.nrejected < boot::Parsed::kMaxRejected ? parsed.nrejected : boot::Parsed::kMaxRejected;
    for (int i = 0; i < kept; i++) {
        kprintf("quanta: ignoring %s (%s)\n", parsed.rejected[i].word, parsed.rejected[i].range);
    }
    if (parsed.nrejected > kept) kprintf("quanta: ignoring %d more boot arguments\n", parsed.nrejected - kept);
    return parsed.config;
}

// The scheduler's set-up from the boot arguments and the hart count.
RqSetup scheduler_setup(const boot::Config& cfg) {
    RqSetup s;
    s.policy = cfg.sched;
    s.mode = cfg.rq;
    s.ncpus = g_boot.ncpus;
    s.slice_cycles = cfg.slice_cycles(g_boot.ncpus);
    s.knobs = cfg.knobs.scaled(param::kCyclesPerUs);  // the policies read their own
    s.sync_wakes = cfg.sync_wake;
    s.pick_forfeit = cfg.pick_forfeit;
    return s;
}

// Hart 0 brings the machine up; each step needs the ones before it.
void boot_hart0() {
    read_device_tree();  // memory, harts and boot arguments from QEMU
    console_init();      // UART: kprintf works from here on
    kprintf("\nquanta: %d harts, %lu MiB RAM, bootargs '%s'\n", g_boot.ncpus, g_boot.mem_size >> 20, g_boot.bootargs);
    clamp_harts();
    const boot::Config cfg = read_boot_args();
    arch::g_turn_handoff = cfg.turn_handoff;  // spinlocks (kernel/arch/riscv/spin.h)
    if (cfg.turn_handoff && g_boot.ncpus > 1) arch::g_turn_cycles = cfg.turn_us * param::kCyclesPerUs;
    kalloc_init(g_boot.mem_base + g_boot.mem_size);  // physical page pool
    kvm_init();                                      // kernel page table
    proc_map_stacks(g_kernel_pagetable);             // a kernel stack per process slot
    kvm_init_hart();                                 // paging on for hart 0
    proc_init();                                     // process table
    tgroup_init();                                   // thread groups (what a process's threads share)
    sigtramp_init();                                 // the signal trampoline page
    trap_init_hart();                                // stvec, FP
    plic_init();                                     // interrupt controller
    plic_init_hart();
    bcache_init();       // buffer cache
    inode_table_init();  // in-memory inodes
    file_table_init();   // open files
    pipe_init();         // the pipe pool
    disk_init();         // virtio disk
    fb_init();           // framebuffer, if QEMU has a display
    swap_init(cfg.vm);   // the swap disk, if any, and vm= (docs/memory.md "Swap")
    const RqSetup rq = scheduler_setup(cfg);
    g_slice_cycles = rq.slice_cycles;
    g_tick_cycles = cfg.tick_us * param::kCyclesPerUs;
    rq_init(rq);              // run queues and the policy
    obs::init(g_boot.ncpus);  // the tracer's and the profiler's per-hart streams
    trace::init();            // the tracer's recorder
    prof::init();             // the profiler's recorder
    kprintf("quanta: scheduler %s (%s queues), slice %lu us\n", rq_policy_name(), rq_mode_name(),
            g_slice_cycles / param::kCyclesPerUs);
    user_init();  // the first process (initcode, which execs /init)
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
    riscv::w_scounteren(riscv::r_scounteren() | riscv::kCounterenTm);  // user mode may read `time`
    scheduler();
}

}  // namespace q
