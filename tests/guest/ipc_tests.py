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
import sys

from qemu import Guest, end_guest, judge_program, no_prompt, report


def shell_view(g, harts):
    sfx = "-%dharts" % harts
    out = g.run("mkfifo /shf", timeout=30)
    report(out.strip() == "", "ipc-mkfifo" + sfx, repr(out))
    out = g.run("ls -l /shf", timeout=30)
    report(re.search(r"^prw-r--r-- +1 root +root +0 shf$", out, re.M) is not None, "ipc-ls-l-fifo" + sfx, repr(out))
    out = g.run("ls /shf", timeout=30)
    report(re.search(r"^shf +4 \d+ 0$", out, re.M) is not None, "ipc-ls-type4" + sfx, repr(out))
    out = g.run("mkfifo /shf", timeout=30)
    report("mkfifo: cannot create /shf" in out, "ipc-mkfifo-exists" + sfx, repr(out))
    # A writer in the background, a reader in the foreground: each open
    # waits for the other, and cat ends at the writer's close.
    out = g.run("echo through the fifo > /shf & cat /shf", timeout=60)
    report("through the fifo" in out, "ipc-shell-fifo-pipeline" + sfx, repr(out))
    out = g.run("rm /shf; ls /shf", timeout=30)
    report("shf" in out and "cannot" in out, "ipc-rm-fifo" + sfx, repr(out))


def run(harts):
    with Guest(cpus=harts, timeout=60, icount=3) as g:
        try:
            g.boot()
            out = g.run("ipctest", timeout=600)
            shell_view(g, harts)
            after = g.run("echo alive", timeout=30)
        except Exception as e:  # noqa: BLE001 - any failure to get a prompt
            return no_prompt(g, "ipc", harts, e)
        judge_program(out, "ipctest", "ipc", harts)
        end_guest(g, after, "ipc", harts)


def main():
    harts = [int(a) for a in sys.argv[1:]] or [1, 3, 8]
    for h in harts:
        run(h)


if __name__ == "__main__":
    main()
