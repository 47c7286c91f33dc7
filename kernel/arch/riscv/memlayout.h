// kernel/arch/riscv/memlayout.h - QEMU virt's physical memory map and the
// kernel's virtual layout.
//
// Physical (QEMU virt): PLIC at 0x0c000000, UART0 (16550) at 0x10000000
// (IRQ 10), virtio-mmio slot 0 at 0x10001000 (IRQ 1), slot 1 at 0x10002000,
// fw_cfg at 0x10100000 (kernel/arch/riscv/fw_cfg.h), RAM from 0x80000000.
// The kernel maps RAM and devices at their physical addresses (identity),
// and, at the top of every address space, the trampoline page; below it,
// each process slot's kernel stack with an unmapped guard page beneath. User
// address spaces have, under the trampoline, one trapframe page per process
// slot that may run in them: slot i's at trapframe_va(i), so the threads of
// one process (slots sharing a page table) each have their own. User memory
// ends below the lowest of them (kUserTop).
#pragma once

#include "kernel/arch/riscv/csr.h"
#include "lib/params.h"
#include "lib/types.h"

namespace q::layout {

constexpr u64 kVirtTest = 0x10'0000;  // sifive_test: a write powers QEMU off
constexpr u64 kClint = 0x200'0000;    // msip[hart] words first (IPIs)
constexpr u64 kClintSize = 0x1'0000;
constexpr u64 kUart0 = 0x1000'0000;
constexpr u32 kUart0Irq = 10;
constexpr u64 kVirtio0 = 0x1000'1000;
constexpr u32 kVirtio0Irq = 1;
constexpr u64 kVirtio1 = 0x1000'2000;  // virtio-mmio slot 1: the GPU, if any (polled, no IRQ)
constexpr u64 kVirtio2 = 0x1000'3000;  // virtio-mmio slot 2: the swap disk, if any (polled, no IRQ)
constexpr u64 kPlic = 0x0c00'0000;
constexpr u64 kPlicSize = 0x40'0000;
constexpr u64 kKernBase = 0x8000'0000;

constexpr u64 kTrampoline = riscv::kMaxVa - kPageSize;
// Trapframe of process slot i in a user page table (slot 0's is xv6's
// TRAPFRAME). All of them share the trampoline's last-level page table
// (the top 2 MiB), so mapping one never allocates.
constexpr u64 trapframe_va(int i) { return kTrampoline - (static_cast<u64>(i) + 1) * kPageSize; }
// The signal trampoline (kernel/proc/signal.cc): one page of code mapped
// user-executable (PTE_U|R|X) in every address space, just below the
// lowest trapframe; a handler returns into it and it calls sigreturn.
constexpr u64 kSigTramp = trapframe_va(param::kMaxProcs);
constexpr u64 kUserTop = kSigTramp;  // user memory is [0, kUserTop)
// mmap places mappings (without MAP_FIXED) first-fit in [kMmapBase, kMmapTop):
// 128 GiB above the program, far from any heap, and 4 GiB below the trapframes.
constexpr u64 kMmapBase = 1ull << 37;
constexpr u64 kMmapTop = (1ull << 38) - (4ull << 30);
static_assert(kMmapTop < kUserTop, "mmap's window is user memory");
static_assert(param::kMaxProcs + 2 <= 512, "trapframes and trampoline must fit one last-level table");
// Kernel stack of process slot i, with a guard page below each.
constexpr u64 kstack(int i) { return kTrampoline - (static_cast<u64>(i) + 1) * 2 * kPageSize; }

}  // namespace q::layout
