# kernel/arch/riscv/machinevec.S - the only machine-mode trap handler.
#
# Supervisor mode cannot take the CLINT's software interrupt directly, so an
# inter-processor interrupt arrives here: clear this hart's msip word in the
# CLINT and raise the supervisor software interrupt (mip.SSIP) instead. All
# other traps are delegated to supervisor mode and never reach this vector.
# mscratch holds a per-hart save area (g_mscratch); sp is not touched, since
# in machine mode it may hold a user virtual address.
        .section .text
        .align 4
        .global machine_vector
machine_vector:
        csrrw   a0, mscratch, a0        # a0 = save area, mscratch = old a0
        sd      a1, 0(a0)
        sd      a2, 8(a0)
        csrr    a1, mhartid
        slli    a1, a1, 2
        la      a2, g_clint_base        # CLINT msip[hart] (layout::kClint, start.cc)
        ld      a2, 0(a2)
        add     a1, a1, a2
        sw      zero, 0(a1)
        li      a1, 2                   # mip.SSIP
        csrs    mip, a1
        ld      a1, 0(a0)
        ld      a2, 8(a0)
        csrrw   a0, mscratch, a0        # restore a0 and the save area pointer
        mret
