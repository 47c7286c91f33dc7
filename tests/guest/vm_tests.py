"""tests/guest/vm_tests.py - virtual memory in the guest (user/vmtest.c).

    vm_tests.py HARTS...

Boots the kernel once per hart count (default 1, 3 and 8) and runs
`vmtest -t N` (N threads fault the same fresh heap pages at once: 8 on 8
harts, else 4), which prints `PASS name` / `FAIL name: why` per test (each
also checks that every page came back); the names are relayed with the
hart count appended. The host adds: no kernel panic, a summary line, the
console's kill lines naming the faulting address and cause for the stack
guard, the kernel, program text and the heap's missing execute permission,
`ps -m` showing a process's size, its 32 minor faults and its demand-paged text's major ones, the shell still
answering, and fsck finding the disk clean. Then `mmaptest` (user/mmaptest.c:
mmap, munmap, mprotect, msync, the growable stack) runs the same way: its
names are relayed, its kill lines checked (a write to a page mprotect made
read-only and a touch after munmap, each naming the address the program
printed; a stack past its 128 KiB limit hitting the guard page), and fsck
after its file tests. `vmstat` (SYS_vmstat) must show sane page counts and
no swap area, and `vmstat vmtest cow_fork` a copy-on-write copy per page
the child wrote and a minor fault for each page touched.
"""
import re

from qemu import Suite, judge_program

suite = Suite("vm")

# (what, a regex the console must show) for the fault tests' kills.
KILL_LINES = [
    ("guard", r"pid \d+ \(vmtest\): page fault: write at 0x[0-9a-f]+ \(stack guard page\), scause=f .*: killed"),
    # KERNBASE is a user address nothing maps (user space is 256 GiB); the
    # trapframe and trampoline pages above kUserTop are not user memory.
    ("kernbase", r"pid \d+ \(vmtest\): page fault: read at 0x80000000 \(unmapped address\), scause=d .*: killed"),
    ("trapframe", r"pid \d+ \(vmtest\): page fault: write at 0x3fffffe000 \(not user memory\), scause=f .*: killed"),
    ("trampoline-exec", r"pid \d+ \(vmtest\): page fault: exec at 0x3ffffff000 \(not user memory\), scause=c"),
    ("text", r"pid \d+ \(vmtest\): page fault: write at 0x[0-9a-f]+ \(protection\), scause=f"),
    ("heap-exec", r"pid \d+ \(vmtest\): page fault: exec at 0x[0-9a-f]+ \(protection\), scause=c"),
    ("unmapped", r"pid \d+ \(vmtest\): page fault: read at 0x[0-9a-f]+ \(unmapped address\), scause=d"),
]


def check_mmaptest(out, harts):
    judge_program(out, "mmaptest", "vm-mmap", harts)
    for what, cause, kind in (("read-only", "protection", "write"), ("unmapped", "unmapped address", "read"),
                              ("past the end", "past end of file", "read")):
        m = re.search(r"mmaptest: %s at (0x[0-9a-f]+)" % what, out)
        ok = m is not None and re.search(r"pid \d+ \(mmaptest\): page fault: %s at %s \(%s\), scause=.*: killed"
                                         % (kind, m.group(1), re.escape(cause)), out) is not None
        suite.check(ok, "vm-mmap-killmsg-%s-%dharts" % (what.replace(" ", "-"), harts), "no kill line for %s" % what)
    ok = re.search(r"pid \d+ \(mmaptest\): page fault: write at 0x[0-9a-f]+ \(stack guard page\)", out) is not None
    suite.check(ok, "vm-mmap-killmsg-stack-limit-%dharts" % harts, "no guard-page kill for the deep stack")


VMSTAT_NOW = re.compile(r"vmstat: free (\d+) total (\d+) swap (\d+)/(\d+)")
VMSTAT_COUNTS = re.compile(r"vmstat: (\S+) minflt (\d+) majflt (\d+) cow (\d+) pgin (\d+) pgout (\d+)")


COW_PAGES = 64  # user/vmtest.c kCowPages


def check_vmstat(now, cow, harts):
    n = VMSTAT_NOW.search(now)
    c = VMSTAT_COUNTS.search(now)
    ok = (n is not None and c is not None and 0 < int(n.group(1)) <= int(n.group(2)) and
          n.group(4) == "0" and int(c.group(2)) > 0 and int(c.group(3)) > 0)
    suite.check(ok, "vm-vmstat-boot-%dharts" % harts, repr(now))
    c = VMSTAT_COUNTS.search(cow)
    # cow_fork touches its COW_PAGES heap pages (minor faults), and its
    # child writes every other one (a copy each).
    ok = (c is not None and c.group(1) == "during" and int(c.group(4)) >= COW_PAGES // 2 and
          int(c.group(2)) >= COW_PAGES + COW_PAGES // 2 and "PASS cow_fork" in cow)
    suite.check(ok, "vm-vmstat-cow-%dharts" % harts, repr(cow))


def run(harts):
    threads = 8 if harts >= 8 else 4
    with suite.boot(harts, timeout=60) as g:
        out = g.run("vmtest -t %d" % threads, timeout=600)
        ps = g.run("vmtest -m", timeout=30)
        mm = g.run("mmaptest", timeout=600)
        vs_now = g.run("vmstat", timeout=30)
        vs_cow = g.run("vmstat vmtest cow_fork", timeout=60)
        suite.program(out, "vmtest", harts)
        for what, pattern in KILL_LINES:
            ok = re.search(pattern, out) is not None
            suite.check(ok, "vm-killmsg-%s-%dharts" % (what, harts), "no console line matching %r" % pattern)
        # vmtest -m touches 32 heap pages and execs ps -m: its row counts them.
        # Its text is demand-paged: every text page it runs is a major fault.
        m = re.search(r"^\s+\d+ run\s+(\d+)\s+(\d+)\s+(\d+) ps\r?$", ps, re.M)
        ok = ("  PID STATE    SIZE_KB   MINFLT   MAJFLT NAME" in ps and m and int(m.group(1)) > 0 and
              int(m.group(2)) >= 32 and int(m.group(3)) > 0)
        suite.check(ok, "vm-ps-faults-%dharts" % harts, repr(ps))
        check_mmaptest(mm, harts)
        check_vmstat(vs_now, vs_cow, harts)


def main():
    for h in suite.harts():
        run(h)


if __name__ == "__main__":
    main()
