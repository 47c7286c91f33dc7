"""tests/guest/hostile.py - a hostile user against the kernel (user/hostile).

    hostile.py [--cpus C] [--overcount N] [--only TEST...]

Design: builds a private disk image (every file of build/fs.img plus the
malformed ELFs that tools/mkbadelf.py derives from build/user/_echo), boots
it, and runs user/hostile's tests one shell line at a time, relaying their
`PASS`/`FAIL` lines with the hart count appended. The host adds what the
guest cannot judge:
  - a kernel panic, or a test that never prints `hostile: done`, fails;
  - badsys: the console may report at most one unknown system call per
    clock tick (plus one);
  - conswrite: the 100 lines four processes wrote at once all arrive whole;
  - oomhuge, oomrace, admitrace, mmapoom: the console shows no `oom: killed` line (a refused
    or impossible request kills nobody);
  - conskill, consshare: a marker line written during a 256 KiB write
    arrives whole and before half of it; nothing of the writer follows
    conskill's marker (written just after the kill);
  - forkbomb (in the background): each of the three bombers sees fork
    fail (the table filled, however long that took); while it is full the
    shell reports `sh: fork failed` and keeps its prompt, and init does not
    exit; afterwards the shell runs commands again;
  - memhog (in the background): a process holding every page is killed by
    the out-of-memory rule (`oom: killed pid`) once the shell cannot fork,
    and the shell comes back;
  - at the end QEMU is killed and fsck must find the image clean;
  - inodehog, filehog (in the background, as student): children hold
    every inode (or open file) the tables let a student take; meanwhile
    root's `ls /etc`, `echo` (exec) and `cat | wc` must work (the last
    entries of each table are root's);
  - orphans (two more boots of the image): root leaves a cwd and an open
    unlinked file in /tmp/rootv (the victim), then student removes two
    cwds (one and two levels deep) and an open file and tries root's
    files; the machine halts (`halt 0`), or QEMU is killed, while they are
    held. fsck must find the image clean with each one listed in the
    orphan table (a note), and the next boot must free exactly those
    (`fs: freed N orphaned inodes`), keep root's file, and check clean;
  - with --overcount N, QEMU also boots N harts (more than the kernel's
    limit of 8): the kernel must say it uses 8 and the shell must answer;
  - with --ioerror, QEMU also boots a disk whose writes to the first log
    data block fail (QEMU's blkdebug driver): no panic, the console reports
    the error, the file system turns read-only (mkdir fails, reads work),
    and fsck finds the disk clean with the failed transaction absent.
No randomness: the hart count is all a rerun needs (`make hostile CPUS=C`).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu import BUILD, ROOT, Guest, make_known_image, relay_results  # noqa: E402
from qemu import report as verdict  # noqa: E402

FOREGROUND = ["elf", "oom", "oomhuge", "oomuser", "oomrace", "admitrace", "traceuser", "conskill", "consshare",
              "forkuser", "sbrkkill", "sbrkshared", "sbrkrace", "rmcwd", "dirrace", "inoreuse", "renice", "badsys", "console", "conswrite", "pipeatomic"]
# threads and futexes (user/hostile_threads.c); also run on 8 harts (mk/tests.mk's GUEST_SUITES)
FOREGROUND += ["tbomb", "tfutex", "texitrace", "texecrace", "tkill", "tjoin", "tstack"]
FOREGROUND += ["protlink", "bigdir"]  # the file system's (user/hostile_fs.c)
# memory mappings and virtual memory (user/hostile_vm.c); also run on 8 harts (mk/tests.mk's GUEST_SUITES)
FOREGROUND += ["mmapgarbage", "mprotrace", "mmapoom", "copyrace", "cowbomb", "cowcount", "filecount", "touchall", "mmaptrunc", "lockorder"]
FOREGROUND += ["sigforge", "sigstorm", "sigstoplock", "sigstoppipe", "sigkillstopped", "sigperm"]  # user/hostile_sig.c


class Panic(Exception):
    pass


def memsz_total(path):
    """Sum of the PT_LOAD memory sizes of an ELF64 file."""
    import struct
    data = open(path, "rb").read()
    phoff, = struct.unpack_from("<Q", data, 32)
    phnum, = struct.unpack_from("<H", data, 56)
    total = 0
    for i in range(phnum):
        ptype, _, _, _, _, _, memsz, _ = struct.unpack_from("<IIQQQQQQ", data, phoff + 56 * i)
        if ptype == 1:
            total += memsz
    return total


def build_image(workdir):
    """build/fs.img's files plus the bad ELFs, as a new image; returns its path."""
    bigbss = os.path.join(BUILD, "user", "_bigbss")
    if memsz_total(bigbss) < 1 << 20:  # the oom test needs a real 1 MiB bss
        sys.exit("hostile: %s has no 1 MiB bss (optimised away?)" % bigbss)
    bad = os.path.join(workdir, "elves")
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mkbadelf.py"),
                    os.path.join(BUILD, "user", "_echo"), bad], check=True)
    return make_known_image(os.path.join(workdir, "hostile.img"), sorted(os.path.join(bad, f) for f in os.listdir(bad)))


def expect(g, pattern, timeout):
    """Wait for pattern; raise Panic on a kernel panic. Returns the text before it."""
    i = g.child.expect([pattern, r"panic:"], timeout=timeout)
    before = (g.child.before or "").replace("\r\n", "\n")
    if i == 1:
        try:
            g.child.expect(pexpect.TIMEOUT, timeout=2)
        except pexpect.EOF:
            pass
        raise Panic(before[-2000:] + "panic:" + (g.child.before or ""))
    return before


def check(ok, name, why=""):
    """One verdict (qemu.report: a failure keeps the console's transcript)."""
    verdict(ok, name, why)
    return ok


def run_foreground(g, test, tag):
    g.child.sendline("hostile " + test)
    if test == "console":
        expect(g, r"console: type a line\r?\n", 60)
        time.sleep(0.5)
        g.child.sendline("abc")
    out = expect(g, r"hostile: done[^\n]*\n", 240)
    relay_results(out, "hostile", tag)
    if test == "badsys":
        reports = len(re.findall(r"unknown system call", out))
        m = re.search(r"badsys: 20000 calls in (\d+) ticks", out)
        ticks = int(m.group(1)) if m else 0
        check(m is not None and 1 <= reports <= ticks + 2, "hostile-badsys-ratelimit-%s" % tag,
              "%d console reports in %d ticks" % (reports, ticks))
    if test in ("oomhuge", "oomrace", "admitrace", "mmapoom"):
        check("oom: killed" not in out, "hostile-%s-nokill-%s" % (test, tag),
              "the out-of-memory rule killed somebody: %r" % re.findall(r"oom: killed[^\n]*", out))
    if test in ("conskill", "consshare"):
        check_big_write(out, test, tag)
    if test == "conswrite":
        lines = [ln.strip("\r") for ln in out.split("\n")]
        digits = [ln for ln in lines if ln and set(ln) <= set("1234")]
        whole = [ln for ln in digits if len(ln) == 100 and len(set(ln)) == 1]
        check(len(whole) == 100 and len(digits) == 100, "hostile-conswrite-lines-%s" % tag,
              "%d whole lines of 100 expected, %d lines of digits, %d whole" % (100, len(digits), len(whole)))
    g.wait_prompt(timeout=30)


BIG_WRITE = 256 * 1024  # user/hostile_io.c:big_writer, lines of 100 'z's


def check_big_write(out, test, tag):
    """Where the marker line landed in a 256 KiB console write, in bytes
    (a loaded host or more harts change only how far the writer got, never
    in which direction a check goes): whole on a line of its own, before
    half of the big write; for conskill (kill, then marker) none of the
    writer's bytes after it."""
    mark = {"conskill": "conskill: the writer is killed",
            "consshare": "consshare: a line between the big writer's lines"}[test]
    m = re.search(r"^" + re.escape(mark) + r"\r?$", out, re.M)
    if not check(m is not None, "hostile-%s-whole-%s" % (test, tag), "the marker line did not arrive whole"):
        return
    before, after = out[:m.start()].count("z"), out[m.end():].count("z")
    check(before < BIG_WRITE // 2, "hostile-%s-early-%s" % (test, tag),
          "the marker came after %d of the big write's bytes" % before)
    if test == "conskill":
        check(after == 0, "hostile-%s-stopped-%s" % (test, tag),
              "the killed writer wrote %d bytes after a line written after its kill" % after)


def prompt_tolerant(text, typed=""):
    """A regex for a line printed by a background process while the shell may
    print its prompt and the host may type `typed`. "$ " between any two
    characters dates from when user printf wrote a character at a time (seen:
    "memhog:$  full"); a line is one write now, and the console writes it
    whole, but the kernel echoes typed characters the moment they arrive, so
    they can land anywhere in it (seen: "forkbomb: done, tableche o filled")."""
    gap = r"(?:\$ )?"
    if typed:
        gap = r"(?:\$ |[%s\r\n])*" % re.escape("".join(sorted(set(typed))))
    return gap.join(re.escape(c) for c in text)


def shell_answers(g, tries=20, seen=None):
    """True once `echo alive` prints alive (retrying while forks fail).
    Everything printed meanwhile is appended to the list `seen`."""
    for _ in range(tries):
        g.child.sendline("echo alive")
        out = expect(g, r"\$ ", 30)
        if seen is not None:
            seen.append(out)
        if re.search(r"^alive\r?$", out, re.M):
            return True
        time.sleep(1)
    return False


def run_forkbomb(g, tag):
    """The bomb fills the table, then holds it full for 3 s. The shell is pinged from the start
    until the bomb's "forkbomb: done" line has come, and that line is looked
    for in everything the pings' waits consumed: each wait for "$ " consumes
    the text before it, and the line may come before any of the prompts.
    (Four pings and then a wait for the line timed out, the line already
    consumed, whenever the fourth prompt came after it: 1 run in 7-10 at 1
    hart, more on a loaded host, as the bomb slows the shell's commands.)"""
    g.child.sendline("hostile forkbomb &")
    seen = [g.wait_prompt(timeout=30)]
    done = re.compile(prompt_tolerant("forkbomb: done", typed="echo ping\n") + r"[^\n]*\n")
    deadline = time.time() + 120
    while not done.search("".join(seen)) and time.time() < deadline:
        time.sleep(0.5)
        g.child.sendline("echo ping")
        seen.append(expect(g, r"\$ ", 30))
    out = "".join(seen)
    check(done.search(out) is not None, "hostile-forkbomb-done-%s" % tag,
          "no 'forkbomb: done' line in 120 s of pings: %r" % out[-1500:])
    filled = re.compile(prompt_tolerant("forkbomb: done, table filled by 3 of 3 bombers", typed="echo ping\n"))
    check(filled.search(out) is not None, "hostile-forkbomb-filled-%s" % tag,
          "the bombers did not all see fork fail (the table never filled): %r" % out[-1500:])
    check("init exiting" not in out, "hostile-forkbomb-init-%s" % tag, "init exited")
    check(shell_answers(g), "hostile-forkbomb-shell-%s" % tag,
          "shell does not answer after the process table was full (%d failed forks seen)" %
          out.count("sh: fork failed"))


def run_memhog(g, tag):
    g.child.sendline("hostile memhog &")
    # The hog may fill memory before the shell prints its prompt, or after.
    seen = [expect(g, prompt_tolerant("memhog: full") + r"[^\n]*\n", 120)]
    if "$ " not in seen[0]:
        seen.append(g.wait_prompt(timeout=60))
    ok = shell_answers(g, tries=30, seen=seen)
    log = "".join(seen)
    check(ok, "hostile-memhog-shell-%s" % tag, "shell never answered while a process held every page")
    check("oom: killed pid" in log and "memhog: not killed" not in log, "hostile-memhog-oomkill-%s" % tag,
          "no oom kill of the hog reported")


def boot_overcount(n):
    """Boot n harts (> the kernel's 8): it must park the extra ones and run."""
    name = "hostile-overcount-%dharts" % n
    with Guest(cpus=n, timeout=60) as g:
        try:
            g.boot(timeout=90)
            out = g.run("echo alive", timeout=30)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            return check(False, name, "no shell (%s): %s" % (type(e).__name__, (g.child.before or "")[-1500:]))
        said = "".join(g.log)
        check("alive" in out and ("%d harts found, using 8" % n) in said, name, "console: %r" % said[-800:])


def boot_ioerror(workdir):
    """The disk fails every write to the first log data block."""
    import struct
    name = "hostile-ioerror"
    image = os.path.join(BUILD, "fs.img")
    logstart = struct.unpack_from("<8I", open(image, "rb").read(), 1024)[5]
    conf = os.path.join(workdir, "blkdebug.conf")
    with open(conf, "w") as f:  # 1 KiB blocks are 2 sectors each
        f.write('[inject-error]\nevent = "write_aio"\niotype = "write"\nerrno = "5"\n'
                'sector = "%d"\nonce = "off"\n' % (2 * (logstart + 1)))
    with Guest(cpus=1, timeout=60, blkdebug=conf) as g:
        try:
            g.boot(timeout=60)
            out = "".join(g.log)
            for line in ("mkdir /iox", "echo hi > /iof", "cat README.md | wc", "ls /iox"):
                out += g.run(line, timeout=30)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            return check(False, name, "no shell (%s): %s" % (type(e).__name__, (g.child.before or "")[-1500:]))
        reported = "I/O error" in out and "read-only until reboot" in out
        refused = "mkdir: cannot create /iox" in out and "cannot open /iof" in out and "cannot open /iox" in out
        reads = re.search(r"^\d+ \d+ \d+ $", out, re.M) is not None
        check(reported and refused and reads and "panic" not in out, name, "console: %r" % out[-1500:])
        clean, report = g.stop_and_fsck()
        check(clean, name + "-fsck", report[-2000:])


def run_tablehog(g, test, tag):
    """A student holds every inode (or open file) the table lets it take;
    root's exec (of programs the hog does not hold), ls (a stat per entry)
    and reading a file nobody holds must still work (the root reserve).
    (Creating needs a free disk inode too, which the hog may have used up:
    a different resource.)"""
    g.child.sendline("su student hostile %s &" % test)
    out = expect(g, prompt_tolerant("%s: full" % test) + r"[^\n]*kill (\d+) to end", 240)
    pid = g.child.match.group(1)
    g.child.sendline("echo hog-synced")
    expect(g, r"(?<!echo )hog-synced\r?\n", 60)
    g.wait_prompt(timeout=60)
    said = {}
    for line in ("ls /etc", "echo rootok", "cat /etc/passwd | wc"):
        said[line] = g.run(line, timeout=60)
    ok = (re.search(r"^passwd +2 ", said["ls /etc"], re.M) is not None and said["echo rootok"] == "rootok\n" and
          re.search(r"^2 2 \d+\s*$", said["cat /etc/passwd | wc"], re.M) is not None)
    check(ok, "hostile-%s-root-%s" % (test, tag), "root's commands while a student held the table: %r" % said)
    g.run("kill " + pid, timeout=60)  # its kids let go and clean up
    relay_results(out.replace("$ ", "\n"), "hostile", tag)
    for _ in range(30):  # until the kids are gone
        if "c0" not in g.run("ls /tmp/th", timeout=60):
            break
        time.sleep(1)


def boot_orphans(image, cpus, tag, stop):
    """Removed cwds and open unlinked files (a student's, with a root victim)
    when the machine stops (`halt 0`, or QEMU killed): fsck must find the
    image clean (each listed in the orphan table, a note), and the next
    boot frees them: clean, nothing listed, root's file intact."""
    name = "hostile-orphans-%s-%s" % (stop, tag)
    with Guest(cpus=cpus, image=image, timeout=60) as g:
        try:
            g.boot()
            g.child.sendline("hostile orphanroot &")
            out = expect(g, prompt_tolerant("orphanroot: ready"), 60)
            g.child.sendline("su student hostile orphans &")
            out += expect(g, prompt_tolerant("orphans: ready"), 60)
            relay_results(out.replace("$ ", "\n"), "hostile", "%s-%s" % (stop, tag))  # (prompts land mid-output)
            if stop == "halt":
                g.child.sendline("halt 0")
                g.child.expect(pexpect.EOF, timeout=60)
        except (Panic, pexpect.TIMEOUT, pexpect.EOF) as e:
            return check(False, name, "setup (%s): %s" % (type(e).__name__, (g.child.before or "")[-1500:]))
        clean, report = g.stop_and_fsck()
        listed = report.count("[orphan-listed]")
        check(clean and listed == 4, name + "-fsck",
              "%d orphans listed (want 4: 2 cwds, student's file, root's file):\n%s" % (listed, report[-2500:]))
        with Guest(cpus=cpus, image=g.image, timeout=60) as g2:
            try:
                g2.boot()
                said = "".join(g2.log)
                kept = g2.run("cat /tmp/rootv/keep; ls /tmp/ho", timeout=30)
            except (pexpect.TIMEOUT, pexpect.EOF) as e:
                return check(False, name + "-reboot", "no shell (%s): %s" % (type(e).__name__, g2.child.before))
            freed = re.search(r"fs: freed (\d+) orphaned inodes", said)
            check(freed is not None and int(freed.group(1)) == listed and "root's file" in kept, name + "-reboot",
                  "boot said %r; /tmp/rootv/keep and /tmp/ho: %r" % (said[-600:], kept))
            clean, report = g2.stop_and_fsck()
            check(clean and "[orphan-listed]" not in report, name + "-reboot-fsck", report[-2500:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpus", type=int, default=3)
    ap.add_argument("--overcount", type=int, default=0)
    ap.add_argument("--ioerror", action="store_true")
    ap.add_argument("--only", nargs="*", default=None, help="run just these tests (forkbomb, memhog: background)")
    a = ap.parse_args()
    want = set(a.only) if a.only is not None else set(FOREGROUND +
                                                      ["inodehog", "filehog", "forkbomb", "memhog", "orphans"])
    tag = "%dharts" % a.cpus
    if a.overcount:
        boot_overcount(a.overcount)
    with tempfile.TemporaryDirectory(prefix="quanta-hostile-") as work:
        if a.ioerror:
            boot_ioerror(work)
        image = build_image(work)
        with Guest(cpus=a.cpus, image=image, timeout=60) as g:
            try:
                g.boot()
                for test in FOREGROUND:
                    if test in want:
                        run_foreground(g, test, tag)
                for test in ("inodehog", "filehog"):
                    if test in want:
                        run_tablehog(g, test, tag)
                if "forkbomb" in want:
                    run_forkbomb(g, tag)
                if "memhog" in want:
                    run_memhog(g, tag)
                alive = shell_answers(g)
            except Panic as e:
                check(False, "hostile-run-%s" % tag, "kernel panic (rerun: make hostile CPUS=%d)\n%s" % (a.cpus, e))
                return 1
            except (pexpect.TIMEOUT, pexpect.EOF) as e:
                # The console as it printed it, whatever consumed it: the
                # tail of g.log once showed `[1] PID` as the last words while
                # the pings' waits had consumed the bomb's line, its
                # "[1]+ Done" and the prompt (a console that looked silent).
                tail = g.tail(3000)
                try:  # the kernel's process list (Ctrl-P), if the console still listens
                    g.child.send("\x10")
                    g.child.expect(pexpect.TIMEOUT, timeout=3)
                    tail += "\n--- after Ctrl-P:\n" + (g.child.before or "")[-2000:]
                except pexpect.EOF:
                    pass
                check(False, "hostile-run-%s" % tag, "no answer (%s) (rerun: make hostile CPUS=%d)\n%s" % (
                    type(e).__name__, a.cpus, tail))
                return 1
            check(alive, "hostile-alive-%s" % tag, "shell dead at the end")
            clean, report = g.stop_and_fsck()
            check(clean, "hostile-fsck-%s" % tag, "fsck found the image damaged:\n" + report[-3000:])
            # Every test has ended, so nothing may still hold an unlinked inode
            # (a listed orphan now is a reference the kernel never dropped).
            check(clean and "[orphan-listed]" not in report, "hostile-no-orphans-left-%s" % tag, report[-3000:])
        if "orphans" in want:
            for stop in ("halt", "crash"):
                boot_orphans(image, a.cpus, tag, stop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
