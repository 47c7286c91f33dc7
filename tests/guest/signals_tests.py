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
are relayed with the hart count appended), then `jobtest` (user/jobtest.c:
process groups, sessions, the console's foreground group, SIGTTIN/SIGTTOU,
stop and continue of every thread, waitpid's selection and status words,
a stopped process holding no lock, a student kept out of root's group;
names relayed as job-NAME-Nharts). The host adds: no kernel panic, the
summary lines, Ctrl-C at the shell killing a runaway `hog` and the shell
prompting again, ^C reaching only the foreground group (`jobtest -g`),
^\\ (SIGQUIT) ending a hog, and fsck finding the disk clean once QEMU is
killed.
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


def ctrl_c_foreground_only(g, harts):
    """jobtest -g: a foreground parent and its child in a group of its own;
    ^C ends the parent (the foreground group) and not the child, which
    says "bg alive" once its parent has gone. (Before process groups ^C
    signalled every process but init.)"""
    name = "signals-ctrl-c-foreground-group-%dharts" % harts
    try:
        g.child.sendline("jobtest -g")
        g.child.expect("bg ready", timeout=60)
        g.child.send("\x03")
        g.child.expect("bg alive", timeout=60)
        g.wait_prompt(timeout=60)
        report(True, name)
    except Exception as e:  # noqa: BLE001
        report(False, name, "%s; console ends %r" % (type(e).__name__, "".join(g.log)[-500:]))


def ctrl_backslash(g, harts):
    """^\\ sends SIGQUIT to the foreground group: a runaway hog ends and the
    shell prompts again (before, ^\\ was an ordinary character)."""
    name = "signals-ctrl-backslash-quit-%dharts" % harts
    try:
        g.child.sendline("hog -p 100000")
        g.child.expect("hog -p 100000", timeout=30)
        g.child.expect(r"\.", timeout=60)
        g.child.send("\x1c")
        g.wait_prompt(timeout=120)
        g.child.sendline("echo alive")
        g.child.expect("\nalive\r?\n", timeout=60)
        g.wait_prompt(timeout=60)
        report(True, name)
    except Exception as e:  # noqa: BLE001
        report(False, name, "no prompt after ^\\ (%s); console ends %r" % (type(e).__name__, "".join(g.log)[-500:]))


def run(harts):
    with Guest(cpus=harts, timeout=60, icount=3) as g:
        try:
            g.boot()
            out = g.run("sigtest", timeout=600)
        except Exception as e:  # noqa: BLE001 - any failure to get a prompt
            return no_prompt(g, "signals", harts, e)
        judge_program(out, "sigtest", "sig", harts)
        try:
            out = g.run("jobtest", timeout=600)
        except Exception as e:  # noqa: BLE001
            return no_prompt(g, "signals-jobtest", harts, e)
        judge_program(out, "jobtest", "job", harts)
        ctrl_c(g, harts)
        ctrl_c_foreground_only(g, harts)
        ctrl_backslash(g, harts)
        clean, fsck = g.stop_and_fsck()
        report(clean, "signals-fsck-%dharts" % harts, fsck.replace("\n", " | "))


def main():
    harts = [int(a) for a in sys.argv[1:]] or [1, 3, 8]
    for h in harts:
        run(h)


if __name__ == "__main__":
    main()
