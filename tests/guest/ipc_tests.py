"""tests/guest/ipc_tests.py - named pipes and poll in the guest (user/ipctest.c).

    ipc_tests.py [HARTS...]

Boots the kernel once per hart count (default 1, 3 and 8) under -icount
(virtual time: ipctest's bounds on how long a poll timeout takes do not
depend on how busy the host is) and runs `ipctest` as root, which prints
`PASS name` / `FAIL name: why` per test (blocking FIFO opens in both
orders, the open/close race of lib/fs/fifo_rule.h, O_RDWR, end of file,
poll on pipes, FIFOs and the console with and without timeouts, POLLHUP,
POLLNVAL, bad arguments, the student refused, a process killed in poll and
in open); the names are relayed with the hart count appended. The host
adds: no kernel panic, a summary line, the shell's view (mkfifo, `ls -l`
showing a `p` type, a pipeline through a FIFO, rm), the shell still
answering, and fsck finding the disk clean once QEMU is killed.
"""
import re

from qemu import Suite

suite = Suite("ipc")


def shell_view(g, harts):
    sfx = "-%dharts" % harts
    out = g.run("mkfifo /shf", timeout=30)
    suite.check(out.strip() == "", "ipc-mkfifo" + sfx, repr(out))
    out = g.run("ls -l /shf", timeout=30)
    suite.check(re.search(r"^prw-r--r-- +1 root +root +0 shf$", out, re.M) is not None, "ipc-ls-l-fifo" + sfx, repr(out))
    out = g.run("ls /shf", timeout=30)
    suite.check(re.search(r"^shf +4 \d+ 0$", out, re.M) is not None, "ipc-ls-type4" + sfx, repr(out))
    out = g.run("mkfifo /shf", timeout=30)
    suite.check("mkfifo: cannot create /shf" in out, "ipc-mkfifo-exists" + sfx, repr(out))
    # A writer in the background, a reader in the foreground: each open
    # waits for the other, and cat ends at the writer's close.
    out = g.run("echo through the fifo > /shf & cat /shf", timeout=60)
    suite.check("through the fifo" in out, "ipc-shell-fifo-pipeline" + sfx, repr(out))
    out = g.run("rm /shf; ls /shf", timeout=30)
    suite.check("shf" in out and "cannot" in out, "ipc-rm-fifo" + sfx, repr(out))


def main():
    for harts in suite.harts():
        with suite.boot(harts, timeout=60, icount=3) as g:
            suite.program(g.run("ipctest", timeout=600), "ipctest", harts)
            shell_view(g, harts)


if __name__ == "__main__":
    main()
