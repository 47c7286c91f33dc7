# kernel/arch/riscv/trampoline.S - the user/kernel crossing.
#
# This page is mapped at the same virtual address (kTrampoline) in the kernel
# and in every process, so execution continues across the satp switch.
# While a thread runs in user mode, sscratch holds the virtual address of its
# own trapframe (each thread of a process has one, at trapframe_va(slot) in
# the shared page table; see trapframe.h for the offsets).
# uservec: stvec points here while in user mode. Swap a0 with sscratch to
# reach the trapframe, save every user register there, load the kernel's
# stack, hart id and page table, jump to usertrap.
# userret(satp, trapframe va): switch to the user page table, leave the
# trapframe's address in sscratch for the next uservec, restore registers,
# sret.
        .section trampsec
        .global trampoline
        .global uservec
        .global userret
        .align 4
uservec:
        csrrw   a0, sscratch, a0        # a0 = trapframe, sscratch = user a0
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
        csrw    sscratch, a1
        .irp n,1,2,3,4,5,6,7,8,9,10,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        ld      x\n, (40 + (\n - 1) * 8)(a1)
        .endr
        ld      a1, (40 + 10 * 8)(a1)   # user a1 (x11), last
        sret
