"""tests/guest/swap_tests.py - swap and page replacement (docs/memory.md "Swap").

    swap_tests.py HARTS...

Boots a 24 MiB guest (about 19 MiB free) with a 32 MiB swap disk
(Guest(swap_mb=...): virtio-mmio slot 2) once per hart count (default 1,
3 and 8), and checks, through `mem` (user/mem.c: OSTEP chapter 21's memory
toucher) and `vmstat` (SYS_vmstat):
  - the console names the swap area and the replacement policy (clock);
  - the cliff: `mem 24 2` writes a pattern over 24 MiB, more than is free,
    and reads every word of it back right; vmstat during it shows
    page-outs and page-ins, and afterwards every free page and every swap
    slot is back;
  - fork of a partly swapped process: `mem -f 20` forks after writing 20
    MiB (some of it in swap), and parent and child each read it all back
    and write their own (copy-on-write over swap slots shared by fork);
    `mem -F 20` the same with both at once: every resident page is shared
    by the two, so each pages out its own mappings of shared frames (the
    scan fallback) until frames come free (before it: the parent was
    killed, `page fault: ... (out of memory)`);
  - several harts faulting the same swapped pages: `mem -t 4 22` writes
    22 MiB, then 4 threads read all of it back at once, 8 pages apart
    (they meet on every page), and every word is right;
  - system calls copying swapped pages: `mem -s 22` writes 22 MiB, then
    write()s all of it into a pipe (a child checks every word) and 256
    KiB of it to a file, read back elsewhere: all arrive (before the
    pipe's copies faulted swapped pages in with its lock dropped, a pipe
    write from a swapped page failed with EFAULT);
  - a kill during page-out and page-in: `mem -k 24 200` kills a child
    touching 24 MiB for ever once 200 pages were read back from swap (a
    condition, not a time: 20 ticks of real time saw no page-out on a
    loaded host); its pages and slots must all come back
    (free less swap used as before: the parent's own pages may have gone
    to swap), and once mem exits every page and slot (the leak check);
  - memory and swap exhausted: `mem 64 1` (more than RAM plus swap) is
    refused by sbrk, nobody is killed;
  - then the shell answers and fsck finds the file-system disk clean (swap
    traffic never touches it).
A crash during page-out (1 hart): `mem 24 100` runs in the background,
writing its lines to a file, and once vmstat shows page-outs QEMU is
killed; fsck must find the disk clean and no word of mem's pattern may be
anywhere on the file-system disk (swap traffic goes to the swap disk only).
On 1 hart the guest also boots with vm=fifo: the console says fifo and
the cliff passes the same way; and on both 1-hart boots `mem -w 20 2048 2`
(a 2 MiB hot set touched between the pages of a 20 MiB sweep) must read
fewer pages back under clock than under fifo (clock keeps the pages whose
accessed bit is set: 11,027 page-ins against 11,776).
Before swap these fail: `mem 24` cannot get 24 MiB of a 19 MiB machine.
"""
import re

from qemu import Suite, report

suite = Suite("swap")

MEM = "24M"
SWAP_MB = 32
NOW = re.compile(r"vmstat: free (\d+) total (\d+) swap (\d+)/(\d+)")
COUNTS = re.compile(r"vmstat: during minflt (\d+) majflt (\d+) cow (\d+) pgin (\d+) pgout (\d+)")


def vm_now(out):
    m = NOW.search(out)
    return (int(m.group(1)), int(m.group(3)), int(m.group(4))) if m else None


def check_cliff(g, name, baseline):
    out = g.run("vmstat mem 24 2", timeout=600)
    c = COUNTS.search(out)
    ok = "mem: 24 MiB ok" in out and c is not None and int(c.group(5)) > 0 and int(c.group(4)) > 0
    report(ok, name, "no clean 24 MiB pass with page-outs and page-ins: %r" % out[-600:])
    after = vm_now(g.run("vmstat", timeout=30))
    report(after is not None and after[0] == baseline[0] and after[1] == 0, name + "-all-back",
           "free/swap used %r, baseline %r" % (after, baseline))


def hot_set(g, name):
    """Page-ins of the hot-set workload, or None after a FAIL line."""
    out = g.run("vmstat mem -w 20 2048 2", timeout=600)
    c = COUNTS.search(out)
    ok = "mem: hot 512 pages cold 5120 pages passes 2 ok" in out and c is not None and int(c.group(4)) > 0
    report(ok, name, repr(out[-400:]))
    return int(c.group(4)) if ok else None


def pattern_word(i, pazz=0):
    """user/mem.c's word_of(i, pass), as the 8 bytes the guest stores."""
    return (((i * 0x9e3779b97f4a7c15) & (2 ** 64 - 1)) ^ pazz).to_bytes(8, "little")


def crash_mid_pageout():
    # QEMU is killed mid-workload: no shell check, and fsck is this test's own verdict.
    with suite.boot(1, tag="crash-1harts", alive=False, fsck=False, mem=MEM, swap_mb=SWAP_MB, timeout=60) as g:
        g.run("mem 24 100 > memout &", timeout=30)
        out = ""
        for _ in range(30):
            out = g.run("vmstat", timeout=30)
            m = re.search(r"pgout (\d+)", out)
            if m and int(m.group(1)) > 1000:
                break
            g.run("sleep 5", timeout=30)
        m = re.search(r"pgout (\d+)", out)
        report(m is not None and int(m.group(1)) > 1000, "swap-crash-paging-1harts", repr(out))
        clean, fsck = g.stop_and_fsck()  # QEMU killed while mem pages out and in
        report(clean, "swap-crash-fsck-1harts", fsck.replace("\n", " | "))
        with open(g.image, "rb") as f:
            disk = f.read()
        found = [i for i in (1000, 2345, 100000, 1000000) if pattern_word(i) in disk or pattern_word(i, 1) in disk]
        report(not found, "swap-crash-no-pattern-on-fs-disk-1harts", "words of indexes %r on the fs disk" % found)


def run(harts, policy=None):
    """The suite on one boot; returns the hot-set page-ins on 1 hart."""
    pgin = None
    tag = "%dharts%s" % (harts, "-" + policy if policy else "")
    prefix = "swap"
    with suite.boot(harts, tag=tag, mem=MEM, swap_mb=SWAP_MB, timeout=60,
                    bootargs="vm=" + policy if policy else None) as g:
        boot = "".join(g.log)
        want = r"quanta: swap %d MiB \(%d pages\), replacement %s" % (SWAP_MB, SWAP_MB * 256, policy or "clock")
        report(re.search(want, boot) is not None, "%s-boot-%s" % (prefix, tag), "no %r in %r" % (want, boot))
        baseline = vm_now(g.run("vmstat", timeout=30))
        report(baseline is not None and baseline[2] == SWAP_MB * 256 and baseline[1] == 0,
               "%s-vmstat-%s" % (prefix, tag), "vmstat said %r" % (baseline,))
        check_cliff(g, "%s-cliff-%s" % (prefix, tag), baseline)
        if policy is None:
            out = g.run("mem -f 20", timeout=600)
            report("mem: 20 MiB ok (fork)" in out, "%s-fork-%s" % (prefix, tag), repr(out[-600:]))
            out = g.run("mem -F 20", timeout=600)
            report("mem: 20 MiB ok (fork)" in out and "killed" not in out, "%s-fork-together-%s" % (prefix, tag),
                   repr(out[-600:]))
            out = g.run("vmstat mem -t 4 22", timeout=600)
            c = COUNTS.search(out)
            report("mem: 4 threads read 22 MiB ok" in out and c is not None and int(c.group(4)) > 0,
                   "%s-threads-%s" % (prefix, tag), repr(out[-400:]))
            out = g.run("vmstat mem -s 22", timeout=600)
            c = COUNTS.search(out)
            report("mem: syscalls over 22 MiB ok" in out and c is not None and int(c.group(4)) > 0,
                   "%s-syscalls-%s" % (prefix, tag), repr(out[-400:]))
            out = g.run("mem -k 24 200", timeout=600)
            # The parent's own pages may go to swap meanwhile (a frame
            # freed, a slot used): free less swap used must be as before.
            m = re.search(r"mem: killed: free (\d+) of (\d+), swap used (\d+) of (\d+), pgout (\d+) pgin (\d+)", out)
            ok = (m is not None and int(m.group(1)) - int(m.group(3)) == int(m.group(2)) - int(m.group(4)) and
                  int(m.group(5)) > 0 and int(m.group(6)) >= 200)
            report(ok, "%s-kill-%s" % (prefix, tag), repr(out[-400:]))
            out = g.run("mem 64 1", timeout=60)
            report("mem: sbrk of 64 MiB failed" in out, "%s-exhausted-%s" % (prefix, tag), repr(out[-300:]))
            after = vm_now(g.run("vmstat", timeout=30))
            report(after is not None and after[0] == baseline[0] and after[1] == 0, "%s-leak-%s" % (prefix, tag),
                   "free/swap used %r, baseline %r" % (after, baseline))
        if harts == 1:
            pgin = hot_set(g, "%s-hotset-%s" % (prefix, tag))
        console = "".join(g.log)
        report("panic" not in console and "oom: killed" not in console, "%s-no-panic-%s" % (prefix, tag),
               repr(console[-400:]))
    return pgin


def main():
    harts = suite.harts()
    clock = None
    for h in harts:
        got = run(h)
        if h == 1:
            clock = got
    if 1 in harts:
        crash_mid_pageout()
        fifo = run(1, "fifo")
        report(clock is not None and fifo is not None and clock < fifo, "swap-clock-beats-fifo-1harts",
               "hot-set page-ins: clock %r, fifo %r" % (clock, fifo))


if __name__ == "__main__":
    main()
