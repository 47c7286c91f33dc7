# kernel/arch/riscv/fpu.S - the kernel's only floating-point instructions.
#
# The kernel is built for rv64imac; this file alone enables F and D (with
# .option arch, so its object keeps the kernel's soft-float ABI) to move
# user FP state between the registers and an FpState (kernel/arch/fpu.h):
# f0..f31 at offsets 0..248, fcsr at 256. Both need sstatus.FS != Off:
# fpu_save runs when FS is Dirty; fpu_load first sets FS to Clean.
        .section .text
        .option push
        .option arch, +f, +d

# fpu_save(FpState* a0)
        .global fpu_save
fpu_save:
        .irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        fsd     f\n, (\n * 8)(a0)
        .endr
        frcsr   t0
        sd      t0, 256(a0)
        ret

# fpu_load(const FpState* a0): leaves sstatus.FS = Clean
        .global fpu_load
fpu_load:
        li      t0, (3 << 13)
        csrc    sstatus, t0
        li      t0, (2 << 13)
        csrs    sstatus, t0
        .irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        fld     f\n, (\n * 8)(a0)
        .endr
        ld      t0, 256(a0)
        fscsr   t0
        ret

        .option pop
