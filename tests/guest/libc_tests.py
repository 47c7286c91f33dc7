"""tests/guest/libc_tests.py - textbook C programs built with qcc, in the guest.

The programs under tests/libc/ are ordinary POSIX C (getopt, FILE* stdio
to files and stderr, qsort, strtol/strtod, snprintf with doubles, libm,
fork/exec/pipe/dup2/waitpid, clocks and sleeps, signals and ^C), compiled by
build/sysroot/bin/qcc against picolibc and quanta's glue (user/libc/,
mk/user.mk). This boots once per hart count given (make test: 1 and 3) on
an image with them and their data files added, runs each with good and
bad arguments, and matches the whole output. Timing checks (tests/libc/
timing.c) run under -icount, so they hold in virtual time however busy the
host is. The image must check clean with fsck afterwards.

Errors: a failed call's errno comes from SYS_errno (68). On a kernel
without it the library reports EIO ("I/O error") and the kernel logs the
unknown call once per process; the expected text follows lib/abi/abi.h.
"""
import os
import re
import tempfile

from extra_image import build_image
from qemu import BUILD, ROOT, Suite, report, run_cases

suite = Suite("libc", harts=(1, 3))

PROGS = ["wordfreq", "numstat", "timing", "fileio", "spawn", "lsdir", "ipcpoll", "mman", "signals", "catch"]
DATA = ["words.txt", "numbers.txt", "ints.txt"]
HAS_ERRNO = "SYS_errno" in open(os.path.join(ROOT, "lib", "abi", "abi.h")).read()
ENOENT = "No such file or directory" if HAS_ERRNO else "I/O error"
NOISE = re.compile(r"^pid \d+ \(\w+\): unknown system call 68 .*\n", re.M)

CASES = [
    ("wordfreq-top3", "wordfreq -n 3 words.txt", r"3 dog\n3 fox\n3 the\ntotal 22 words, 16 distinct\n"),
    ("wordfreq-fold-to-file", "wordfreq -i -n 4 -o top.txt words.txt; cat top.txt",
     r"5 the\n3 dog\n3 fox\n2 a\ntotal 22 words, 13 distinct\n"),
    ("wordfreq-stdin-pipe", "wordfreq -n 2 words.txt | wordfreq",
     r"2 3\n1 16\n1 22\n1 distinct\n1 dog\n1 fox\n1 total\n1 words\ntotal 9 words, 8 distinct\n"),
    ("wordfreq-bad-option", "wordfreq -x",
     r"wordfreq: invalid option -- \S*x\S*\nusage: wordfreq \[-i\] \[-n TOP\] \[-o OUTFILE\] \[FILE\.\.\.\]\n"),
    ("wordfreq-bad-count", "wordfreq -n 0 words.txt", r"wordfreq: bad count '0'\n"),
    ("wordfreq-missing-file", "wordfreq nofile", r"wordfreq: nofile: %s\n" % ENOENT),
    ("numstat-doubles", "numstat numbers.txt",
     r"numstat: line 7: not a number: abc\ncount  6\nsum    181\.251\n"
     r"range      -4\.250    100\.000    104\.250\nmean   30\.209\nmedian 7\.750\nstddev 43\.836\n"
     r"sci    3\.020850e\+01 43\.836\n"),
    ("numstat-strtol-base0", "numstat -p 1 -b 0 ints.txt",
     r"count  4\nsum    40\.0\nrange       -16\.0       31\.0       47\.0\nmean   10\.0\nmedian 12\.5\n"
     r"stddev 19\.5\nsci    1\.000000e\+01 19\.5107\n"),
    ("numstat-bad-precision", "numstat -p x", r"numstat: bad precision 'x'\n"),
    ("numstat-nothing", "echo x | numstat", r"numstat: line 1: not a number: x\nnumstat: no numbers\n"),
    ("fileio", "fileio d; cat d/unclosed.txt",
     r"   42\|ab   \|003\.1\|ff\|z\|%%\nconsole append\nno-such-file: %s\nfileio: ok\natexit handler ran\nflushed at exit\n"
     % ENOENT),
    ("spawn", "spawn",
     r"1 3 14 ?\nwc: exit 0\necho: exit 0\nexit3: exit 3\nno-such-program: %s\nmissing: exit 127\n"
     r"nohang: 0\nsleeper: exit 0\nparent has a parent\ngetppid past a free row: right\n" % ENOENT),
    ("timing", "timing",
     r"usleep     ok\ntod        ok\nusleep cpu ok\nnanosleep  ok\nnanosleep cpu ok\nsleep      ok\ncputime    ok\nclock      ok\ntime       ok\n"
     r"resolution 100 ns\n"),
    # The shell's sleep (user/sleep.c) waits in a futex with a timeout, so
    # in virtual time it ends within 10 ms of the deadline (it overshot by
    # up to a 100 ms tick when it slept in the kernel's ticks). The first
    # `time sleep` warms the buffer cache: under -icount sleep=off a hart
    # idle on a disk read lets the virtual clock jump from timer deadline
    # to timer deadline while the host does the read, so a cold exec of
    # /time and /sleep measured 0.350 s, and 3.044 s on a loaded host
    # (tests/guest/qemu.py: what is and is not virtual time).
    # time's user and sys lines (SYS_times): a sleeper uses almost no CPU.
    ("sleep-exact", "time sleep 0; time sleep 0.25",
     r"real \d+\.\d+s\nuser \d+\.\d{3}s\nsys \d+\.\d{3}s\nreal 0\.25\ds\nuser 0\.00\ds\nsys 0\.0[0-4]\ds\n"),
    # A CPU hog's second is user time, less the timer ticks' handling
    # (measured: user 1.000 s, sys 0.011 s at 1 hart), also when it is a
    # grandchild: sh reaped it, and time reaped sh. `hog -h` reads in the
    # hog's text first, so no disk wait falls inside its second.
    ("time-user-sys", "hog -h; time hog 1",
     r"usage: hog \[-p\] \[-y\] \[seconds\]\nreal \d+\.\d{3}s\nuser (0\.9[5-9]\d|1\.0\d\d)s\nsys 0\.0[0-4]\ds\n"),
    ("time-grandchild", "echo hog 1 > th.sh; time sh th.sh",
     r"real \d+\.\d{3}s\nuser (0\.9[5-9]\d|1\.0\d\d)s\nsys 0\.0[0-4]\ds\n"),
    ("lsdir", "mkdir w; echo hello > w/b; mkdir w/a; echo x > w/c; cd w/a; /lsdir -p ..; cd /",
     r"cwd /w/a\na d\nb f 6\nc f 2\n3 entries\n"),
    ("lsdir-root-cwd", "lsdir -p w/a", r"cwd /\n0 entries\n"),
    ("lsdir-missing", "lsdir nodir", r"nodir: %s\n" % ENOENT),
    ("timing-usage", "timing -s 0", r"usage: timing \[-s MS\]\n"),
    # Named pipes and poll (docs/ipc.md): one server polling two FIFOs.
    ("ipcpoll", "ipcpoll",
     r"S_ISFIFO 1\nmkfifo again: EEXIST\nlines a 5 b 9\nwriter 0: exit 0\nwriter 1: exit 0\ntimeout: 0\n"
     r"closed: 1 POLLNVAL\nipcpoll: ok\n"),
    ("mman", "mman", r"anon 0\nzero length: MAP_FAILED errno EINVAL\nmsync 0\nfile \.\.mmap\.\.\n"),
    # POSIX signals through <signal.h> (docs/signals.md "The C library"):
    # the numbers as the kernel treats them, then each call. The kernel's
    # line is the SA_RESETHAND child's second fault.
    ("signals", "signals",
     r"defaults: HUP=term INT=term QUIT=term USR1=term USR2=term PIPE=term ALRM=term TERM=term CHLD=ignore "
     r"URG=ignore WINCH=ignore STOP=stop TSTP=stop TTIN=stop TTOU=stop SYS=term; KILL/STOP uncatchable\n"
     r"raise: handler ran 1 time\(s\) for User defined signal 1, old action SIG_DFL\n"
     r"siginfo: signo SIGUSR2, code SI_USER, pid mine\n"
     r"segv: the handler saw address 0x1238\n"
     r"pid \d+ \(signals\): page fault: write at 0x1238 \(protection\), scause=f sepc=0x[0-9a-f]+: killed\n"
     r"segv with SA_RESETHAND: handler once, then killed by SIGSEGV\n"
     r"mask: ran 0 while blocked, pending 1, ran 1 after\n"
     r"sets: full has SIGSYS 1, SIGKILL 1; 0 and 32 rejected 1\n"
     r"alarm: sigsuspend -1 EINTR after 1\.0 s, handler 1\n"
     r"pause: -1 EINTR, handler 1\n"
     r"itimer: 4 ticks of 50 ms in 0\.2\d s\n"
     r"nanosleep: -1 EINTR, 4 s left\n"
     r"waitpid: Stopped \(signal\), continued, Terminated\n"
     r"killpg: own group 1, Hangup\n"
     r"sigaltstack: stack overflow caught\n"
     r"abort: SIGABRT\n"
     r"sigpipe: default killed by SIGPIPE, ignored -1 EPIPE, exec'd killed by SIGPIPE, exec'd ignored -1 EPIPE\n"
     r"names: Interrupt, Segmentation fault, Killed, SIGUSR1, CHLD=17, 15=15, Unknown signal 99\n"
     r"psignal: Broken pipe\n"),
    # A C program that SIGPIPE ends in the foreground: the shell says
    # nothing (as bash; it printed "[1]+ Killed (SIGPIPE)").
    ("sigpipe-foreground-quiet", "signals -pipe; echo after", r"after\n"),
]


class Quiet:
    """A Guest whose run() drops the kernel's unknown-call lines (above)."""

    def __init__(self, g):
        self.g = g

    def run(self, line, timeout=None):
        return NOISE.sub("", self.g.run(line, timeout=timeout))


def ctrl_c_catch(g, tag):
    """OSTEP chapter 5's exercise as a course sets it (tests/libc/catch.c):
    ^C typed at the console reaches the program's SIGINT handler, which
    only sets a flag; the program cleans up (its scratch file is gone)
    and says so, and the shell prompts again."""
    name = "libc-ctrl-c-catch" + tag
    try:
        g.child.sendline("catch")
        g.child.expect("working; press Ctrl-C to stop", timeout=60)
        g.child.expect("\n", timeout=10)  # the message comes once the first line is in the file
        g.child.send("\x03")
        out = g.wait_prompt(timeout=60).replace("\r\n", "\n")
        ok = re.search(r"caught SIGINT after \d+ lines?; catch\.tmp removed, bye\n", out) is not None
        report(ok, name, "after ^C the program printed %r" % out)
        out = g.run("ls catch.tmp")
        gone = re.fullmatch(r"ls: cannot open catch\.tmp: no such file or directory\n", out)
        report(gone, name + "-cleaned-up", "ls catch.tmp printed %r" % out)
    except Exception as e:  # noqa: BLE001
        report(False, name, "no prompt after ^C (%s): %r" % (type(e).__name__, g.tail(400)))


def main():
    cpus_list = suite.harts()
    extra = [os.path.join(BUILD, "libc-tests", "_" + p) for p in PROGS]
    extra += [os.path.join(ROOT, "tests", "libc", d) for d in DATA]
    with tempfile.TemporaryDirectory(prefix="quanta-libc-") as work:
        image = build_image(work, extra)
        for cpus in cpus_list:
            tag = "-%dharts" % cpus
            with suite.boot(cpus, alive=False, icount=3, image=image, timeout=120) as g:
                run_cases(Quiet(g), CASES, suffix=tag, timeout=120)
                ctrl_c_catch(g, tag)


if __name__ == "__main__":
    main()
