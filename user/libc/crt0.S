# user/libc/crt0.S - the entry point of programs built with qcc.
#
# exec starts a program at address 0 (quanta.ld puts .text.start first)
# with argc in a0, argv in a1 and sp at the top of the argument block. Set
# the global pointer (the linker relaxes accesses near __global_pointer$
# into gp-relative ones), end the frame chain and call the C start-up.
        .section .text.start, "ax", @progbits
        .global _start
        .type   _start, @function
_start:
        .option push
        .option norelax
        la      gp, __global_pointer$
        .option pop
        andi    sp, sp, -16
        li      s0, 0
        li      ra, 0
        tail    __qstart
        .size   _start, .-_start
