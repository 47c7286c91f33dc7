"""tests/guest/fp_tests.py - user floating point across preemption, fork, exec.

Boots once per hart count given (make test: 1 and 3) with a 1 ms slice
under -icount, on an image with build/user/_fptest added, and runs
`fptest` (user/fptest.c): worker processes hold all 32 FP registers and
fcsr live across preemptions and system calls and compute under their own
rounding modes, while a checker forks (the child must see the parent's
registers) and execs (the new image must start with FP zeroed); first the
parent checks that a signal handler clobbering every FP register and fcsr
leaves them as they were after sigreturn. Asserts
`fptest: ok ...` with preemptions that actually happened (at least one per
worker on 1 hart), the usage line, and a clean fsck. First, on the host:
tools/check_kernel_fp.py, the kernel image's only FP instructions are
kernel/arch/riscv/fpu.S's (also `make check-kernel-fp`).
"""
import os
import re
import subprocess
import sys
import tempfile

from extra_image import build_image
from qemu import BUILD, ROOT, Suite

suite = Suite("fp", harts=(1, 3))

OK = re.compile(r"fptest: ok (\d+) procs (\d+) rounds (\d+) preemptions (\d+) exec checks\n")


def check(name, out, procs, min_preempt):
    m = OK.search(out)
    if not m:
        return suite.check(False, name, "printed %r" % out[-2000:])
    rounds, preempt, checks = int(m.group(2)), int(m.group(3)), int(m.group(4))
    if int(m.group(1)) != procs or rounds < procs or preempt < min_preempt or checks < 1:
        return suite.check(False, name, "%s (want >= %d preemptions)" % (m.group(0).strip(), min_preempt))
    suite.check(True, name, "%d rounds %d preemptions %d exec checks" % (rounds, preempt, checks), show=True)


def run(cpus, image):
    tag = "%dharts" % cpus
    with suite.boot(cpus, alive=False, icount=3, bootargs="slice=1000", image=image, timeout=120) as g:
        out = g.run("fptest -h")
        suite.check(out == "usage: fptest [-n PROCS] [-t MS] | fptest -z\n", "fp-usage-" + tag, repr(out))
        out = g.run("fptest -n 4 -t 800", timeout=300)
        check("fp-regs-4procs-" + tag, out, 4, 4 if cpus == 1 else 1)
        out = g.run("fptest -n 9 -t 500", timeout=300)
        check("fp-regs-9procs-" + tag, out, 9, 9)
        out = g.run("fptest -z")
        suite.check(out == "", "fp-fresh-zero-" + tag, repr(out))


def kernel_fp_check():
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "check_kernel_fp.py"), "riscv64-linux-gnu-objdump",
                        os.path.join(BUILD, "kernel.elf")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    suite.check(p.returncode == 0, "kernel-fp-only-in-fpu.S", p.stdout.strip().replace("\n", "; "), show=True)


def main():
    kernel_fp_check()
    with tempfile.TemporaryDirectory(prefix="quanta-fp-") as work:
        image = build_image(work, [BUILD + "/user/_fptest"])
        for cpus in suite.harts():
            run(cpus, image)


if __name__ == "__main__":
    main()
