"""tests/guest/shell_tests.py - acceptance tests through the shell.

Boots the kernel once per hart count, runs shell command lines and checks
their output; then the shell still answers and fsck finds the disk clean.
Prints one `PASS name` / `FAIL name: why` line per test, for
tests/run_tests.py to count (tests/guest/qemu.py's Suite: a failed boot
keeps its console transcript).
"""
import re
import sys

from qemu import Suite, run_cases

suite = Suite("shell")

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
    # after bg's output; the shell reports the job's end before the next prompt (user/sh.c)
    ("kill-bad-pid", "kill 9999", r"(?s).*kill: 9999: no such process\n(\[1\]\+ Done  echo bg\n)?"),
    ("exec-missing", "nosuchprog", r"exec nosuchprog failed: no such file or directory\n"),
    ("exec-not-executable", "README.md", r"exec README.md failed: permission denied\n"),
    # Errors say why (errno, lib/abi/errno.h).
    ("mkdir-exists", "mkdir twice; mkdir twice", r"mkdir: cannot create twice: file exists\n"),
    ("redirect-to-dir", "mkdir rd; echo x > rd", r"sh: cannot open rd: is a directory\n"),
    ("cat-through-file", "cat README.md/x", r"cat: cannot open README.md/x: not a directory\n"),
    ("ln-exists", "echo l > lk; ln lk lk", r"ln: cannot link lk to lk: file exists\n"),
    ("cd-missing", "cd nowhere", r"cannot cd nowhere: no such file or directory\n"),
    # "/" exists: making, linking or removing it says so (it said "no such
    # file or directory": the root has no parent entry).
    ("root-path-exists", "echo x > /; echo y >> //; mkdir /; mkfifo /; ln README.md /; rm /",
     r"sh: cannot open /: is a directory\nsh: cannot open //: is a directory\nmkdir: cannot create /: file exists\n"
     r"mkfifo: cannot create /: file exists\nln: cannot link / to README\.md: file exists\n"
     r"rm: cannot remove /: invalid argument\n"),
    ("wc-counts", "wc README.md", r"\d+ \d+ \d+ README.md\n"),
    # A command line as long as the shell reads (510 characters) arrives
    # whole; the console cut it at 127 (lib/console/line_edit.h).
    ("long-line", "echo " + " ".join(["w%02d" % i + "x" * 20 for i in range(21)]), r"w00x{20} .* w20x{20}\n"),
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
    ("usage-kill-h", "kill -h", r"usage: kill \[-SIG \| -s SIG\] pid\.\.\.\n"),
    ("usage-kill-bad", "kill 1x", r"usage: kill \[-SIG \| -s SIG\] pid\.\.\.\n"),
    ("usage-kill-option", "kill -x 5", r"usage: kill \[-SIG \| -s SIG\] pid\.\.\.\n"),
    # Without a signal kill is xv6's (SIGKILL); the Unix spellings of signals
    # reach sigsend (the pid names nobody); init takes no signal.
    ("kill-dash-9", "kill -9 9999", r"kill: 9999: no such process\n"),
    ("kill-dash-KILL", "kill -KILL 9999", r"kill: 9999: no such process\n"),
    ("kill-dash-SIGKILL", "kill -SIGKILL 9999", r"kill: 9999: no such process\n"),
    ("kill-s-KILL", "kill -s KILL 9999", r"kill: 9999: no such process\n"),
    ("kill-s-9", "kill -s 9 9999", r"kill: 9999: no such process\n"),
    ("kill-TERM", "kill -TERM 9999", r"kill: 9999: no such process\n"),
    ("kill-15-init", "kill -15 1", r"kill: 1: invalid argument\n"),
    ("kill-s-HUP", "kill -s HUP 9999", r"kill: 9999: no such process\n"),
    ("kill-unknown-signal", "kill -NOPE 9999", r"usage: kill \[-SIG \| -s SIG\] pid\.\.\.\n"),
    ("usage-halt-bad", "halt now", r"usage: halt \[status\]\n"),
    ("usage-sh-h", "sh -h", r"usage: sh \[file\]\n"),
    ("usage-nice-h", "nice -h", r"usage: nice -n N command \[args\.\.\.\]\n"),
    ("usage-renice-h", "renice -h", r"usage: renice -n N -p PID\n"),
    ("usage-hog-h", "hog -h", r"usage: hog \[-p\] \[-y\] \[seconds\]\n"),
    ("usage-hog-bad", "hog 1s", r"usage: hog \[-p\] \[-y\] \[seconds\]\n"),
    ("usage-schbench-h", "schbench -h", r"usage: schbench \[-t WORKERS\(1\.\.8\)\] .*\n"),
    ("usage-schbench-bad", "schbench -x", r"usage: schbench \[-t WORKERS\(1\.\.8\)\] .*\n"),
    ("usage-sharetest-h", "sharetest -h", r"usage: sharetest \[-t\] \[-w WARMUP_MS\] MS NICE \[NICE\.\.\.\] .*\n"),
    ("usage-sharetest-bad", "sharetest 100", r"usage: sharetest \[-t\] \[-w WARMUP_MS\] MS NICE \[NICE\.\.\.\] .*\n"),
    ("usage-storm-bad", "storm 1 1 1", r"usage: storm \[pairs<=30\] \[rounds\]\n"),
    ("usage-taskset-h", "taskset -h", r"usage: taskset MASK command \[args\.\.\.\] \| taskset -p \[MASK\] PID\n"),
    ("usage-taskset-bad", "taskset zz echo hi", r"usage: taskset MASK command \[args\.\.\.\] \| taskset -p \[MASK\] PID\n"),
    ("usage-lockstat-h", "lockstat -h", r"usage: lockstat \[command \[args\.\.\.\]\]\n"),
    ("usage-sched-h", "sched -h", r"usage: sched \[POLICY\]   policies:( \w+)+\n"),
    ("usage-sched-bad", "sched eevdf rr", r"usage: sched \[POLICY\]   policies:( \w+)+\n"),
    ("usage-ps-h", "ps -h", r"usage: ps \[-T \| -m \| -s\]\n"),
    ("usage-benchos-h", "benchos -h", r"usage: benchos \[-q\] \[-t TICK_MS\] \[NAME\.\.\.\]\n"),
    ("usage-benchos-bad", "benchos -z", r"usage: benchos \[-q\] \[-t TICK_MS\] \[NAME\.\.\.\]\n"),
    ("usage-ps-bad", "ps x", r"usage: ps \[-T \| -m \| -s\]\n"),
    ("usage-frames-h", "frames -h", r"usage: frames \[-t SECONDS\] \[-f FRAMES\]\n"),
    ("usage-exhaust-bad", "exhaust nosuch", r"usage: exhaust \[procs\|fds\|files\|inodes\|blocks\|memory\.\.\.\]\n"),
    ("usage-fsworkload-bad", "fsworkload 1", r"usage: fsworkload SEED STEPS \| fsworkload -v SEED STEPS DONE\n"),
    ("usage-fuzz-bad", "fuzz x 1", r"usage: fuzz SEED SECONDS \[WORKERS \[SKIPMASK \[v\|t\]\]\]\n"),
    ("usage-hostile-h", "hostile -h", r"usage: hostile TEST\.\.\.  \(tests:( \w+)+\)\n"),
    ("usage-bigbss-bad", "bigbss 1", r"usage: bigbss\n"),
    ("usage-sleep-bad", "sleep; sleep x; sleep -1; sleep 1.2.3; sleep .", r"(usage: sleep SECONDS\n){5}"),
    ("usage-time-h", "time -h", r"usage: time CMD \[ARGS\.\.\.\]\n"),
    # sleep takes seconds (fractions too); time prints the wall time on
    # stderr. Only lower bounds: a busy host makes a guest's second longer.
    ("sleep-seconds", "time sleep 1", r"real ([1-9]|\d\d+)\.\d{3}s\nuser \d+\.\d{3}s\nsys \d+\.\d{3}s\n"),
    ("sleep-fraction", "time sleep 0.5", r"real ([1-9]\d*\.\d{3}|0\.[5-9]\d\d)s\nuser \d+\.\d{3}s\nsys \d+\.\d{3}s\n"),
    ("time-output-and-status", "time echo hi", r"hi\nreal \d+\.\d{3}s\nuser \d+\.\d{3}s\nsys \d+\.\d{3}s\n"),
    ("time-missing", "time nosuchprog", r"time: cannot run nosuchprog: no such file or directory\nreal \d+\.\d{3}s\nuser \d+\.\d{3}s\nsys \d+\.\d{3}s\n"),
    # Normal arguments behave as before; a file named -x is reached as ./-x.
    ("dash-file-via-dot", "echo dash > ./-x; cat ./-x; rm ./-x; ls ./-x", r"dash\nls: cannot open \./-x: no such file or directory\n"),
    # Quoting as in a POSIX shell (user/sh.c:word): quotes are removed, what
    # they enclose is one argument (spaces kept), and a quoted symbol is an
    # ordinary character. 'a  b' keeps both spaces; "c d" names one file.
    ("quote-single-double", "echo x > 'c d'; echo 'a  b' \"c d\"; cat \"c d\"; rm c\\ d; ls 'c d'",
     r"a  b c d\nx\nls: cannot open c d: no such file or directory\n"),
    ("quote-redirect-is-text", "echo 'a > qr' \"| b ; c & (d) < e\"; ls qr",
     r"a > qr \| b ; c & \(d\) < e\nls: cannot open qr: no such file or directory\n"),
    ("quote-redirect-to-quoted-name", "echo hi > 'q f'; cat q\\ f; rm \"q f\"", r"hi\n"),
    # Inside "..." a backslash escapes only \ " $ and `; inside '...' nothing;
    # outside quotes any character. Adjacent parts make one word, '' an empty one.
    ("quote-backslash", "echo a\\ b \\'q\\' \"say \\\"hi\\\" \\\\ \\n\" 'it''s' '\\t'",
     r"a b 'q' say \"hi\" \\ \\n its \\t\n"),
    ("quote-adjacent-and-empty", "echo ab\"c d\"'e'f; echo '' x; echo \"\"", r"abc def\n x\n\n"),
    ("quote-grep-pattern-with-space", "echo 'x y' > gq; echo xy >> gq; grep 'x y' gq", r"x y\n"),
    ("quote-unterminated", "echo 'abc; echo \"def", r"sh: syntax error: unterminated quote\n"),
]

# The console's line editor (lib/console/line_edit.h), typed as a terminal
# sends the keys: (name, keys, then Enter; regex for the output after the
# echoed line). Each runs after the one before (the history cases need it).
LEFT, RIGHT, UP, DOWN, HOME, END = "\x1b[D", "\x1b[C", "\x1b[A", "\x1b[B", "\x1b[H", "\x1b[F"
CTRL_LEFT, CTRL_RIGHT = "\x1b[1;5D", "\x1b[1;5C"
KEY_CASES = [
    ("keys-left-insert", "echo bc" + LEFT + LEFT + "a", r"abc\n"),
    ("keys-home-end", "cho x" + HOME + "e" + END + "!", r"x!\n"),
    ("keys-backspace-middle", "echo abxc" + LEFT + "\x7f", r"abc\n"),
    ("keys-history-up", UP + UP, r"x!\n"),  # the line before the last
    ("keys-history-down", UP + UP + DOWN, r"x!\n"),
    ("keys-history-edit", UP + "?", r"x!\?\n"),
    ("keys-tab-is-space", "echo\tt", r"t\n"),
    ("keys-ctrl-u", "junk\x15echo u", r"u\n"),
    ("keys-arrows-not-typed", RIGHT + "echo" + RIGHT + " r" + DOWN + DOWN, r"r\n"),
    # xterm's Ctrl-Left/Right (ESC [ 1 ; 5 D/C) move by a word
    # (before, the ";" ended the sequence and "5D" was typed in); Esc then
    # Enter still runs the line (the Enter was swallowed).
    ("keys-ctrl-arrows-words", "echo ab cd" + CTRL_LEFT + CTRL_LEFT + "x" + CTRL_RIGHT + "y", r"xaby cd\n"),
    ("keys-esc-then-enter", "echo esc\x1b", r"esc\n"),
]


def key_cases(g, suffix):
    """KEY_CASES, then ^C: the line is dropped (the shell prompts again and
    runs nothing of it), and the next line runs alone."""
    for name, keys, pattern in KEY_CASES:
        try:
            g.child.send(keys + "\r")
            out = g.wait_prompt(timeout=20).replace("\r\n", "\n")
        except Exception as e:  # noqa: BLE001
            suite.check(False, name + suffix, "no prompt after %r (%s)" % (keys, type(e).__name__))
            return
        rest = out.split("\n", 1)[1] if "\n" in out else ""
        suite.check(re.fullmatch(pattern, rest) is not None, name + suffix, "%r printed %r" % (keys, out))
    name = "ctrl-c-drops-line" + suffix
    try:
        g.child.send("echo dropped\x03")
        out = g.wait_prompt(timeout=20).replace("\r\n", "\n")
        after = g.run("echo next", timeout=20)
        ok = out == "echo dropped^C\n" and after == "next\n"
        suite.check(ok, name, "^C printed %r, then %r" % (out, after))
    except Exception as e:  # noqa: BLE001
        suite.check(False, name, "no prompt after ^C (%s)" % type(e).__name__)


def time_ctrl_c_case(g, suffix):
    """^C during `time CMD` ends CMD and time still reports (it was killed
    with CMD: no `real`, `user` and `sys` lines). hog -p's first dot says CMD runs, so time
    has forked. The console echoes ^C before it signals, so hog, running
    on another hart, may print dots after the echo until the signal lands;
    time's report then follows them on their line ('^C\n.real ...', seen
    once on 3 harts). Inside the echo they were a bug ('^.C', once on 8
    harts): the echo now holds the UART's ring (kernel/dev/uart.h)."""
    name = "time-ctrl-c-still-reports" + suffix
    try:
        g.child.send("time hog -p 60\r")
        g.child.expect(r"\.", timeout=60)
        g.child.sendcontrol("c")
        out = g.wait_prompt(timeout=30).replace("\r\n", "\n")
        after = g.run("echo next", timeout=20)
        ok = re.search(r"\^C\n(.*\n)?\.*real \d+\.\d{3}s\nuser \d+\.\d{3}s\nsys \d+\.\d{3}s\n$", out) is not None
        ok = ok and after == "next\n"
        suite.check(ok, name, "printed %r, then %r" % (out[-200:], after))
    except Exception as e:  # noqa: BLE001
        suite.check(False, name, "no prompt (%s)" % type(e).__name__)


def run_suite(cpus):
    with suite.boot(cpus) as g:
        boot = g.boot_seconds
        suite.check(boot is not None, "boot-%dharts" % cpus, "(%.2fs)" % boot if boot else "no prompt", show=True)
        if not run_cases(g, CASES, "-%dharts" % cpus):
            return
        key_cases(g, "-%dharts" % cpus)
        time_ctrl_c_case(g, "-%dharts" % cpus)
        # ^P prints the process list (kernel procdump) in ps's columns
        # (lib/abi/procview.h), and the shell goes on.
        name = "ctrl-p-procdump-%dharts" % cpus
        try:
            g.child.sendcontrol("p")
            g.child.expect(r"policy \w+ (percpu|single)\r?\n  PID  PPID STATE  NICE WEIGHT  CPU_MS WAIT_MS  SCHED"
                           r"    VOL  INVOL MAXLAT_US  MIGR USER     NAME\r?\n    1     0 sleep .* init", timeout=10)
            ok = g.run("echo alive", timeout=10).endswith("alive\n")
        except Exception:  # noqa: BLE001
            ok = False
        suite.check(ok, name, "no process list or no shell after ^P; console ends %r" % g.tail(600))


def known_image_case():
    """A suite boots from a known image whatever happened to build/fs.img
    (`make test` after a `make qemu` that booted it used to fail): a build
    directory whose fs.img is garbage still boots to a working shell."""
    import os
    import subprocess
    import tempfile

    from qemu import BUILD
    name = "known-image-despite-used-fs-img"
    with tempfile.TemporaryDirectory(prefix="quanta-known-") as d:
        for f in ("kernel.elf", "mkfs", "fsck", "fs.list", "user"):
            os.symlink(os.path.join(BUILD, f), os.path.join(d, f))
        with open(os.path.join(d, "fs.img"), "wb") as f:
            f.write(b"used" * 1024)
        script = ("from qemu import Guest\nwith Guest(cpus=1) as g:\n    g.boot()\n"
                  "    print(g.run('cat README.md | wc'))\n")
        env = dict(os.environ, QUANTA_BUILD=d)
        p = subprocess.run([sys.executable, "-c", script], cwd=os.path.dirname(os.path.abspath(__file__)), env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    ok = p.returncode == 0 and re.search(r"^\d+ \d+ \d+ ?$", p.stdout, re.M) is not None
    suite.check(ok, name, repr(p.stdout[-800:]))


def main():
    for n in suite.harts():
        run_suite(n)
    known_image_case()


if __name__ == "__main__":
    main()
