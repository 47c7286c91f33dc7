# user/lib/crt0.S - the entry point of every user program.
#
# The kernel's exec starts a program here with argc in a0, argv in a1 and sp
# at the top of the argument block. _start sits in .text.start, which the
# linker script (user/user.ld) places first, so a program's entry is
# address 0. It clears the frame pointer (ending backtraces) and tail-calls
# the C start-up code, which runs constructors, main(argc, argv) and then
# exit(main's result).
.section .text.start, "ax", @progbits
.global _start
.type _start, @function
_start:
  li s0, 0
  li ra, 0
  tail __ustart
.size _start, .-_start
