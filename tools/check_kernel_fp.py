#!/usr/bin/env python3
"""tools/check_kernel_fp.py - the kernel's only FP instructions are fpu.S's.

Usage: check_kernel_fp.py OBJDUMP KERNEL_ELF

The kernel is compiled for rv64imac and stays FP-free; kernel/arch/riscv/
fpu.S alone enables F and D to save and load user FP state. This
disassembles the linked image and fails (exit 1, one line per offender) if
any FP instruction - an f-prefixed mnemonic other than fence, or a CSR
access to fcsr, frm or fflags - lies outside fpu_save and fpu_load. It also
fails if those two hold fewer than the 66 it expects (32 registers and
fcsr each way): a check that found nothing would prove nothing.
"""
import re
import subprocess
import sys

ALLOWED = {"fpu_save", "fpu_load"}
EXPECTED = 66
FUNC = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
FP_CSR = re.compile(r"\b(fcsr|frm|fflags)\b")


def is_fp(mnemonic, operands):
    if mnemonic.startswith("f") and not mnemonic.startswith("fence"):
        return True
    return mnemonic.startswith("csr") and FP_CSR.search(operands) is not None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_kernel_fp.py OBJDUMP KERNEL_ELF")
    out = subprocess.run([sys.argv[1], "-d", "--no-show-raw-insn", sys.argv[2]], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    func, allowed, bad = None, 0, []
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            func = m.group(1)
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if not m or not is_fp(m.group(2), m.group(3)):
            continue
        if func in ALLOWED:
            allowed += 1
        else:
            bad.append("%s: %s %s in %s" % (m.group(1), m.group(2), m.group(3), func))
    for b in bad:
        print("check_kernel_fp: FP instruction outside fpu.S: " + b)
    if allowed < EXPECTED:
        print("check_kernel_fp: found %d FP instructions in %s, expected %d" % (allowed, sorted(ALLOWED), EXPECTED))
    if bad or allowed < EXPECTED:
        sys.exit(1)
    print("check_kernel_fp: %d FP instructions, all in %s" % (allowed, ", ".join(sorted(ALLOWED))))


if __name__ == "__main__":
    main()
