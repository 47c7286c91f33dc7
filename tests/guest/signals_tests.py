"""tests/guest/signals_tests.py - signals in the guest (user/sigtest.c, docs/signals.md).

    signals_tests.py [HARTS...]

Boots the kernel once per hart count (default 1, 3 and 8) under -icount
(virtual time: sigtest's sleeps order processes and do not depend on host
load) and runs `sigtest`, which prints `PASS name` / `FAIL name: why` per
test (a handler runs and returns, every integer register survives a
handler, SIGKILL can be neither caught nor blocked, a blocked signal stays
pending until unblocked, a SIGSEGV handler gets the fault address, a pipe
read interrupted with EINTR and restarted with SA_RESTART, the default
action's status -1, ignored signals, bad arguments, a forged sigreturn
killing only its caller, a handler signalling itself 1000 times); names
are relayed with the hart count appended. The host adds: no kernel panic,
a summary line, Ctrl-C at the shell killing a runaway `hog` and the shell
prompting again, and fsck finding the disk clean once QEMU is killed.
"""
import sys

from qemu import Guest, judge_program, no_prompt, report


def ctrl_c(g, harts):
    """A runaway hog in the foreground; ^C (SIGINT) ends it, the shell
    (which ignores SIGINT) prompts again and runs the next line."""
    name = "signals-ctrl-c-hog-%dharts" % harts
    try:
        g.child.sendline("hog -p 100000")
        g.child.expect("hog -p 100000", timeout=30)  # the echo of the line
        g.child.expect(r"\.", timeout=60)  # hog runs (a ^C before its exec finds the shell's SIG_IGN)
        g.child.send("\x03")
        g.wait_prompt(timeout=120)
        g.child.sendline("echo alive")
        g.child.expect("\nalive\r?\n", timeout=60)  # the output, not the echo of the line
        echoed = g.child.before
        g.wait_prompt(timeout=60)
        report(True, name)
        # One prompt: the ^C's line is not also read as an empty command.
        report("$" not in echoed, name.replace("hog", "one-prompt"), "a second prompt after ^C: %r" % echoed)
    except Exception as e:  # noqa: BLE001
        report(False, name, "no prompt after ^C (%s); console ends %r" % (type(e).__name__, "".join(g.log)[-500:]))


def run(harts):
    with Guest(cpus=harts, timeout=60, icount=3) as g:
        try:
            g.boot()
            out = g.run("sigtest", timeout=600)
        except Exception as e:  # noqa: BLE001 - any failure to get a prompt
            return no_prompt(g, "signals", harts, e)
        judge_program(out, "sigtest", "sig", harts)
        ctrl_c(g, harts)
        clean, fsck = g.stop_and_fsck()
        report(clean, "signals-fsck-%dharts" % harts, fsck.replace("\n", " | "))


def main():
    harts = [int(a) for a in sys.argv[1:]] or [1, 3, 8]
    for h in harts:
        run(h)


if __name__ == "__main__":
    main()
