# kernel/arch/riscv/trampoline.S - the user/kernel crossing.
#
# This page is mapped at the same virtual address (kTrampoline) in the kernel
# and in every process, so execution continues across the satp switch.
# uservec: stvec points here while in user mode. Save every user register in
# the process's trapframe (mapped at kTrapFrame, see trapframe.h for the
# offsets), load the kernel's stack, hart id and page table, jump to usertrap.
# userret(satp): switch to the user page table, restore registers, sret.
        .section trampsec
        .global trampoline
        .global uservec
        .global userret
        .equ    TRAPFRAME, (1 << 38) - 2 * 4096
        .align 4
uservec:
        csrw    sscratch, a0            # park user a0
        li      a0, TRAPFRAME
        .irp n,1,2,3,4,5,6,7,8,9,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        sd      x\n, (40 + (\n - 1) * 8)(a0)
        .endr
        csrr    t0, sscratch
        sd      t0, (40 + 9 * 8)(a0)    # user a0 (x10)
        ld      sp, 8(a0)               # kernel_sp
        ld      tp, 32(a0)              # kernel_hartid
        ld      t0, 16(a0)              # kernel_trap
        ld      t1, 0(a0)               # kernel_satp
        sfence.vma zero, zero
        csrw    satp, t1
        sfence.vma zero, zero
        jr      t0

userret:
        sfence.vma zero, zero
        csrw    satp, a0
        sfence.vma zero, zero
        li      a0, TRAPFRAME
        .irp n,1,2,3,4,5,6,7,8,9,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        ld      x\n, (40 + (\n - 1) * 8)(a0)
        .endr
        ld      a0, (40 + 9 * 8)(a0)
        sret
