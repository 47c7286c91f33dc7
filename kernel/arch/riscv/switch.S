# kernel/arch/riscv/switch.S - context_switch(Context* save, Context* load).
#
# Save the callee-saved registers (ra, sp, s0-s11) of the running kernel
# thread into *save and load those of another from *load; the caller-saved
# ones are already on the stack per the calling convention. Offsets follow
# struct Context in kernel/proc/proc.h.
        .section .text
        .global context_switch
context_switch:
        sd      ra, 0(a0)
        sd      sp, 8(a0)
        sd      s0, 16(a0)
        sd      s1, 24(a0)
        .irp n,2,3,4,5,6,7,8,9,10,11
        sd      s\n, (16 + \n * 8)(a0)
        .endr
        ld      ra, 0(a1)
        ld      sp, 8(a1)
        ld      s0, 16(a1)
        ld      s1, 24(a1)
        .irp n,2,3,4,5,6,7,8,9,10,11
        ld      s\n, (16 + \n * 8)(a1)
        .endr
        ret
