# kernel/arch/riscv/kernelvec.S - traps taken while in supervisor mode.
#
# Save every register but sp on the current kernel stack, call
# kernel_trap(regs) (trap.cc) with a0 = the saved registers (x[n] at
# regs[n]: the profiler walks the interrupted frame pointers from them),
# restore and sret. A timer interrupt handled here
# may yield, so the trap can resume on a different hart: tp is therefore
# not restored (it must keep naming the hart we now run on).
        .section .text
        .global kernelvec
        .align 4
kernelvec:
        addi    sp, sp, -256
        .irp n,1,3,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        sd      x\n, (\n * 8)(sp)
        .endr
        mv      a0, sp
        call    kernel_trap
        .irp n,1,3,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        ld      x\n, (\n * 8)(sp)
        .endr
        addi    sp, sp, 256
        sret
