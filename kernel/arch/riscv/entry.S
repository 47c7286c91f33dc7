# kernel/arch/riscv/entry.S - the first instructions every hart runs.
#
# QEMU (-bios none) jumps to 0x80000000 in machine mode on every hart with
# a0 = hart id and a1 = the device tree's physical address. A hart whose id
# is at or past g_max_harts (start.cc) parks here at once, before it touches
# any per-hart array (QEMU can start more harts than the kernel supports).
# Every other hart gets its own boot stack of g_boot_stack_bytes
# (g_boot_stacks, in start.cc) and calls machine_start(hartid, dtb), which never returns.
        .section .text.entry
        .global _entry
_entry:
        la      t2, g_max_harts
        ld      t2, 0(t2)
        bgeu    a0, t2, 1f
        la      sp, g_boot_stacks
        la      t0, g_boot_stack_bytes
        ld      t0, 0(t0)
        addi    t1, a0, 1
        mul     t0, t0, t1
        add     sp, sp, t0
        call    machine_start
1:      wfi
        j       1b
