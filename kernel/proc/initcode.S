# kernel/proc/initcode.S - the first user program, copied to address 0 of
# the first process by user_init(): exec("/init", {"/init", 0}); if that
# fails, exit(-1) (the kernel then panics: init must not exit).
# Position independent: only pc-relative addressing is used.
        .section .rodata.initcode, "a"
        .global initcode_start
        .global initcode_end
        .balign 16
initcode_start:
        lla     a0, init_path
        lla     a1, init_argv
        li      a7, 7                   # SYS_exec
        ecall
        li      a0, -1
        li      a7, 2                   # SYS_exit
        ecall
1:      j       1b
        .balign 8
init_argv:
        .dword  init_path - initcode_start
        .dword  0
init_path:
        .string "/init"
initcode_end:
