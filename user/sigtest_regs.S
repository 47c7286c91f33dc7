# user/sigtest_regs.S - sig_regs_survive(pid, sig) for user/sigtest.c.
#
# Loads every integer register but sp, a0 and a1 with 0x5a5a0000 + its
# number, sends itself sig with the raw sigsend ecall (a0 = pid, a1 = sig,
# a7 = SYS_sigsend), so the handler runs on the way back from that call,
# and checks every register after: returns 0 if all hold their values (a0
# is the call's 0, a1 still sig), otherwise the number of the first
# register that changed (100 for a0). Callee-saved registers, ra, gp and
# tp are saved on the stack and restored.
        .text
        .global sig_regs_survive
sig_regs_survive:
        addi    sp, sp, -128
        sd      ra, 0(sp)
        sd      gp, 8(sp)
        sd      tp, 16(sp)
        sd      s0, 24(sp)
        sd      s1, 32(sp)
        .irp n,18,19,20,21,22,23,24,25,26,27
        sd      x\n, (40 + (\n - 18) * 8)(sp)
        .endr
        sd      a1, 120(sp)
        .irp n,1,3,4,5,6,7,8,9,12,13,14,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        li      x\n, 0x5a5a0000 + \n
        .endr
        li      a7, 80                  # SYS_sigsend
        ecall
        bnez    a0, 9f
        .irp n,1,3,4,5,6,7,8,9,12,13,14,15,16,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        li      a0, 0x5a5a0000 + \n
        beq     x\n, a0, 1f
        li      a0, \n
        j       8f
1:
        .endr
        li      a0, 80
        bne     a7, a0, 7f
        ld      a0, 120(sp)
        bne     a1, a0, 6f
        li      a0, 0
        j       8f
6:      li      a0, 11
        j       8f
7:      li      a0, 17
        j       8f
9:      li      a0, 100
8:      ld      ra, 0(sp)
        ld      gp, 8(sp)
        ld      tp, 16(sp)
        ld      s0, 24(sp)
        ld      s1, 32(sp)
        .irp n,18,19,20,21,22,23,24,25,26,27
        ld      x\n, (40 + (\n - 18) * 8)(sp)
        .endr
        addi    sp, sp, 128
        ret
