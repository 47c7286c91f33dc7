"""tests/guest/shell_tests.py - acceptance tests through the shell.

Boots the kernel once per hart count, runs shell command lines and checks
their output. Prints one `PASS name` / `FAIL name: why` line per test, for
tests/run_tests.py to count.
"""
import sys

from qemu import Guest, run_cases

# (name, command line, regex the whole output must match)
CASES = [
    ("echo-wc", "echo hello | wc", r"1 1 6 ?\n"),
    ("mkdir-redirect-cat", "mkdir d; echo hi > d/f; cat d/f", r"hi\n"),
    ("ls-lists-image", "ls", r"(?s)\.\s+1 1 \d+\n\.\.\s+1 1 \d+\n.*\binit\s+2 \d+ \d+\n.*\bsh\s+2 .*\bwc\s+2 .*console\s+3 .*"),
    ("link-survives-rm", "echo data > a; ln a b; rm a; cat b", r"data\n"),
    ("rm-removes", "echo x > gone; rm gone; cat gone", r"cat: cannot open gone: no such file or directory\n"),
    ("pipeline-3", "echo one two three | grep two | wc", r"1 3 14 ?\n"),
    ("subshell-semicolon", "(echo a; echo b) | wc", r"2 2 4 ?\n"),
    ("redirect-in", "echo abc > in; wc < in", r"1 1 4 ?\n"),
    ("grep-regex", "echo hello > g1; echo world >> g1; grep ^w g1", r"(world\n)|(.*)"),
    ("cd-and-relative", "mkdir dd; cd dd; /echo z > f; /cat /dd/f; cd ..", r"z\n"),
    ("dotdot", "mkdir p; mkdir p/q; cd p/q; /cat ../../README.md | /wc; cd /", r"\d+ \d+ \d+ ?\n"),
    ("rmdir-nonempty-fails", "mkdir ne; echo 1 > ne/x; rm ne; ls ne", r"(?s)rm: cannot remove ne: directory not empty\n.*x\s+2 .*"),
    ("background-job", "echo bg &", r"(?s).*"),
    ("kill-bad-pid", "kill 9999", r"(?s).*kill: 9999: no such process\n"),  # after bg's output
    ("exec-missing", "nosuchprog", r"exec nosuchprog failed: no such file or directory\n"),
    ("exec-not-executable", "README.md", r"exec README.md failed: permission denied\n"),
    # Errors say why (errno, lib/abi/errno.h).
    ("mkdir-exists", "mkdir twice; mkdir twice", r"mkdir: cannot create twice: file exists\n"),
    ("redirect-to-dir", "mkdir rd; echo x > rd", r"sh: cannot open rd: is a directory\n"),
    ("cat-through-file", "cat README.md/x", r"cat: cannot open README.md/x: not a directory\n"),
    ("ln-exists", "echo l > lk; ln lk lk", r"ln: cannot link lk to lk: file exists\n"),
    ("cd-missing", "cd nowhere", r"cannot cd nowhere: no such file or directory\n"),
    ("wc-counts", "wc README.md", r"\d+ \d+ \d+ README.md\n"),
    # Every program prints one `usage: ...` line on -h, and on a bad argument
    # prints it instead of running (the whole output is that line: nothing
    # else ran, no fault was reported, and the shell answered again).
    ("usage-cat-h", "cat -h", r"usage: cat \[file\.\.\.\]\n"),
    ("usage-cat-bad", "cat -x README.md", r"usage: cat \[file\.\.\.\]\n"),
    ("usage-grep-h", "grep -h", r"usage: grep pattern \[file\.\.\.\]\n"),
    ("usage-grep-bad", "grep", r"usage: grep pattern \[file\.\.\.\]\n"),
    ("usage-wc-h", "wc -h", r"usage: wc \[file\.\.\.\]\n"),
    ("usage-wc-bad", "wc -l README.md", r"usage: wc \[file\.\.\.\]\n"),
    ("usage-ls-h", "ls -h", r"usage: ls \[-l\] \[path\.\.\.\]\n"),
    ("usage-ls-bad", "ls -x", r"usage: ls \[-l\] \[path\.\.\.\]\n"),
    ("usage-rm-bad", "rm", r"usage: rm file\.\.\.\n"),
    ("usage-ln-bad", "ln a", r"usage: ln old new\n"),
    ("usage-kill-h", "kill -h", r"usage: kill pid\.\.\.\n"),
    ("usage-kill-bad", "kill 1x", r"usage: kill pid\.\.\.\n"),
    ("usage-halt-bad", "halt now", r"usage: halt \[status\]\n"),
    ("usage-sh-h", "sh -h", r"usage: sh \[file\]\n"),
    ("usage-nice-h", "nice -h", r"usage: nice -n N command \[args\.\.\.\]\n"),
    ("usage-renice-h", "renice -h", r"usage: renice -n N -p PID\n"),
    ("usage-hog-h", "hog -h", r"usage: hog \[-p\] \[seconds\]\n"),
    ("usage-hog-bad", "hog 1s", r"usage: hog \[-p\] \[seconds\]\n"),
    ("usage-schbench-h", "schbench -h", r"usage: schbench \[-t WORKERS\(1\.\.8\)\] .*\n"),
    ("usage-schbench-bad", "schbench -x", r"usage: schbench \[-t WORKERS\(1\.\.8\)\] .*\n"),
    ("usage-sharetest-h", "sharetest -h", r"usage: sharetest \[-w WARMUP_MS\] MS NICE \[NICE\.\.\.\] .*\n"),
    ("usage-sharetest-bad", "sharetest 100", r"usage: sharetest \[-w WARMUP_MS\] MS NICE \[NICE\.\.\.\] .*\n"),
    ("usage-storm-bad", "storm 1 1 1", r"usage: storm \[pairs<=30\] \[rounds\]\n"),
    ("usage-taskset-h", "taskset -h", r"usage: taskset MASK command \[args\.\.\.\] \| taskset -p \[MASK\] PID\n"),
    ("usage-taskset-bad", "taskset zz echo hi", r"usage: taskset MASK command \[args\.\.\.\] \| taskset -p \[MASK\] PID\n"),
    ("usage-lockstat-h", "lockstat -h", r"usage: lockstat \[command \[args\.\.\.\]\]\n"),
    ("usage-sched-h", "sched -h", r"usage: sched \[POLICY\]   policies:( \w+)+\n"),
    ("usage-sched-bad", "sched eevdf rr", r"usage: sched \[POLICY\]   policies:( \w+)+\n"),
    ("usage-ps-h", "ps -h", r"usage: ps\n"),
    ("usage-benchos-h", "benchos -h", r"usage: benchos \[-q\] \[-t TICK_MS\] \[NAME\.\.\.\]\n"),
    ("usage-benchos-bad", "benchos -z", r"usage: benchos \[-q\] \[-t TICK_MS\] \[NAME\.\.\.\]\n"),
    ("usage-ps-bad", "ps x", r"usage: ps\n"),
    ("usage-frames-h", "frames -h", r"usage: frames \[-t SECONDS\] \[-f FRAMES\]\n"),
    ("usage-exhaust-bad", "exhaust nosuch", r"usage: exhaust \[procs\|fds\|files\|inodes\|blocks\|memory\.\.\.\]\n"),
    ("usage-fsworkload-bad", "fsworkload 1", r"usage: fsworkload SEED STEPS \| fsworkload -v SEED STEPS DONE\n"),
    ("usage-fuzz-bad", "fuzz x 1", r"usage: fuzz SEED SECONDS \[WORKERS \[SKIPMASK \[v\|t\]\]\]\n"),
    ("usage-hostile-h", "hostile -h", r"usage: hostile TEST\.\.\.  \(tests:( \w+)+\)\n"),
    ("usage-bigbss-bad", "bigbss 1", r"usage: bigbss\n"),
    # Normal arguments behave as before; a file named -x is reached as ./-x.
    ("dash-file-via-dot", "echo dash > ./-x; cat ./-x; rm ./-x; ls ./-x", r"dash\nls: cannot open \./-x: no such file or directory\n"),
]


def run_suite(cpus):
    with Guest(cpus=cpus) as g:
        try:
            g.boot()
            print("PASS boot-%dharts (%.2fs)" % (cpus, g.boot_seconds))
        except Exception as e:  # noqa: BLE001 - report any boot failure
            print("FAIL boot-%dharts: %s" % (cpus, e))
            return
        if not run_cases(g, CASES, "-%dharts" % cpus):
            return
        # ^P prints the process list (kernel procdump) in ps's columns
        # (lib/abi/procview.h), and the shell goes on.
        name = "ctrl-p-procdump-%dharts" % cpus
        try:
            g.child.sendcontrol("p")
            g.child.expect(r"policy \w+ (percpu|single)\r?\n  PID  PPID STATE  NICE WEIGHT  CPU_MS WAIT_MS  SCHED"
                           r"    VOL  INVOL MAXLAT_US  MIGR USER     NAME\r?\n    1     0 sleep .* init", timeout=10)
            ok = g.run("echo alive", timeout=10) .endswith("alive\n")
        except Exception as e:  # noqa: BLE001
            ok = False
        print(("PASS %s" if ok else "FAIL %s: no process list or no shell after ^P") % name)


def main():
    harts = [int(a) for a in sys.argv[1:]] or [1, 3, 8]
    for n in harts:
        run_suite(n)


if __name__ == "__main__":
    main()
