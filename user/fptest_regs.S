# user/fptest_regs.S - fptest's register-level checks (F and D enabled here).
#
# Each routine loads or stores all 32 FP registers and fcsr, so no compiled
# code can touch them in between. A state is 33 words: f0..f31, then fcsr.
# fs0-fs11 (f8, f9, f18-f27) are callee-saved: saved on the stack and put
# back, so the C caller's own FP values survive.
        .option arch, +f, +d
        .equ    SYS_fork, 1
        .equ    SYS_getpid, 11
        .equ    SYS_sigsend, 80

        .macro  save_fs
        addi    sp, sp, -96
        .irp n,8,9,18,19,20,21,22,23,24,25,26,27
        fsd     f\n, (((\n < 18) * (\n - 8) + (\n >= 18) * (\n - 16)) * 8)(sp)
        .endr
        .endm
        .macro  restore_fs
        .irp n,8,9,18,19,20,21,22,23,24,25,26,27
        fld     f\n, (((\n < 18) * (\n - 8) + (\n >= 18) * (\n - 16)) * 8)(sp)
        .endr
        addi    sp, sp, 96
        .endm
        .macro  load_all base
        .irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        fld     f\n, (\n * 8)(\base)
        .endr
        ld      t0, 256(\base)
        fscsr   t0
        .endm
        .macro  store_all base
        frcsr   t0
        sd      t0, 256(\base)
        .irp n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
        fsd     f\n, (\n * 8)(\base)
        .endr
        .endm

# fp_hold(const u64 in[33], u64 out[33], u64 iters): load in, spin iters
# times (a getpid system call every 1024), store to out.
        .global fp_hold
fp_hold:
        save_fs
        load_all a0
        mv      t1, a2
1:      beqz    t1, 3f
        addi    t1, t1, -1
        andi    t2, t1, 1023
        bnez    t2, 1b
        li      a7, SYS_getpid
        ecall
        j       1b
3:      store_all a1
        restore_fs
        ret

# fp_peek(u64 out[33]): store the registers as they are (fptest -z: the
# first FP instruction of a new image must find zeros).
        .global fp_peek
fp_peek:
        store_all a0
        ret

# fp_fork(const u64 in[33], u64 out[33]) -> fork's result: load in, fork,
# store to out in both processes.
        .global fp_fork
fp_fork:
        save_fs
        load_all a0
        li      a7, SYS_fork
        ecall
        store_all a1
        restore_fs
        ret

# fp_signal(const u64 in[33], u64 out[33], int pid, int sig) -> sigsend's
# result: load in, send sig to pid (itself: its handler runs on the way
# back and clobbers every FP register, fp_clobber), store to out. sigreturn
# puts back every register, the integer ones too, so out waits in t3.
        .global fp_signal
fp_signal:
        save_fs
        load_all a0
        mv      t3, a1
        mv      a0, a2
        mv      a1, a3
        li      a7, SYS_sigsend
        ecall
        store_all t3
        restore_fs
        ret

# fp_clobber(const u64 in[33]): load all 32 registers and fcsr from in,
# the callee-saved ones too (a signal handler's last act: sigreturn must
# put the interrupted ones back).
        .global fp_clobber
fp_clobber:
        load_all a0
        ret
