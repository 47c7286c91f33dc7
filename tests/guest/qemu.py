"""tests/guest/qemu.py - boot the kernel under QEMU and talk to its console.

Used by the in-guest test runners. Each Guest boots from its own fresh
image, built by mkfs from the build's file list (build/fs.list, the files
build/fs.img holds) in a private directory: whatever booted or changed
build/fs.img before (`make qemu` boots its own copy, build/qemu.img, but a
hand-run QEMU may not), every suite starts from the same known disk. It
drives the shell with pexpect, and always kills QEMU on close. `icount` runs QEMU with
-icount (shift, sleep=off) so guest time is virtual and repeatable while a
hart runs. When every hart idles (waiting for the disk), sleep=off jumps
virtual time to the next timer deadline, and whether a disk wait loses that
race depends on the host: `icount_sleep=True` (sleep=on) lets idle time pass
with QEMU's clocks instead, which bench/os_bench.py uses for its disk rows.
`extra_args` are appended to QEMU's command line as given (e.g. a display
device and a monitor socket, tests/guest/fb_test.py). `blkdebug` names a
QEMU blkdebug configuration file: the disk then goes through QEMU's
error-injecting block driver (tests/guest/hostile.py's I/O-error test).
`swap_mb` attaches a zero-filled swap disk of that many MiB in virtio-mmio
slot 2 (kernel/dev/swap_disk.cc; `make qemu SWAP=MB` does the same).
"""
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The build directory: make's BUILD (exported as QUANTA_BUILD by mk/tests.mk
# and mk/bench.mk), else build/ in the tree.
BUILD = os.environ.get("QUANTA_BUILD") or os.path.join(ROOT, "build")
PROMPT = r"\$ "


def image_files():
    """The files of the build's image, as make gave them to mkfs (build/fs.list)."""
    with open(os.path.join(BUILD, "fs.list")) as f:
        return [p if os.path.isabs(p) else os.path.join(ROOT, p) for p in f.read().split()]


def make_known_image(path, extra=()):
    """Build a fresh image at path from the build's files (plus extra files),
    as make built build/fs.img before anything booted it."""
    subprocess.run([os.path.join(BUILD, "mkfs"), path] + image_files() + list(extra), check=True,
                   stdout=subprocess.DEVNULL)
    return path


class Guest:
    def __init__(self, cpus=3, sched=None, icount=None, mem="128M", image=None, bootargs=None, timeout=60,
                 extra_args=None, blkdebug=None, kernel=None, icount_sleep=False, swap_mb=None):
        self.tmpdir = tempfile.mkdtemp(prefix="quanta-")
        self.image = os.path.join(self.tmpdir, "fs.img")
        if image:
            shutil.copyfile(image, self.image)
        else:
            make_known_image(self.image)
        args = ["-machine", "virt", "-bios", "none", "-kernel", kernel or os.path.join(BUILD, "kernel.elf"),
                "-m", mem, "-smp", str(cpus), "-nographic",
                "-global", "virtio-mmio.force-legacy=false",
                "-drive", ("file=%s,if=none,format=raw,id=x0" % self.image if not blkdebug else
                           "driver=raw,file.driver=blkdebug,file.config=%s,file.image.filename=%s,if=none,id=x0"
                           % (blkdebug, self.image)),
                "-device", "virtio-blk-device,drive=x0,bus=virtio-mmio-bus.0"]
        if swap_mb:
            swap = os.path.join(self.tmpdir, "swap.img")
            with open(swap, "wb") as f:
                f.truncate(swap_mb << 20)
            args += ["-drive", "file=%s,if=none,format=raw,id=x1" % swap,
                     "-device", "virtio-blk-device,drive=x1,bus=virtio-mmio-bus.2"]
        append = []
        # The spinlock's turn hand-off (kernel/arch/riscv/spin.h), for the
        # harts of an -icount guest, which take turns on one host thread:
        # without it 2-hart -icount guests stalled at boot (sched_tests: 5
        # of 68 failed, each a 60 s timeout). QUANTA_TURN_HANDOFF=0 or 1
        # overrides the default, to measure what it does.
        handoff = os.environ.get("QUANTA_TURN_HANDOFF", "1" if icount is not None else "")
        if handoff in ("0", "1"):
            append.append("turn_handoff=" + handoff)
        if sched:
            append.append("sched=" + sched)
        if bootargs:
            append.append(bootargs)
        if append:
            args += ["-append", " ".join(append)]
        if icount is not None:
            args += ["-icount", "shift=%d,sleep=%s" % (icount, "on" if icount_sleep else "off")]
        args += list(extra_args or [])
        self.started = time.time()
        self.child = pexpect.spawn("qemu-system-riscv64", args, encoding="utf-8", timeout=timeout,
                                   codec_errors="replace")
        self.log = []
        self.boot_seconds = None
        # Everything the console printed, whatever consumed it (a test's own
        # child.expect() adds nothing to self.log): kept in
        # $(BUILD)/test-logs when a verdict of this guest's life failed, or
        # the `with` block that used it raised.
        self.transcript = open(os.path.join(self.tmpdir, "console.txt"), "w", encoding="utf-8")
        self.child.logfile_read = self.transcript
        self.failures_before = _failures[0]

    def wait_prompt(self, timeout=None):
        self.child.expect(PROMPT, timeout=timeout)
        self.log.append(self.child.before)
        return self.child.before

    def boot(self, timeout=30):
        self.wait_prompt(timeout)
        self.boot_seconds = time.time() - self.started
        return self

    def run(self, line, timeout=None):
        """Send one shell line; return its output (without the echo of the line)."""
        self.child.sendline(line)
        out = self.wait_prompt(timeout)
        out = out.replace("\r\n", "\n")
        if out.startswith(line):
            out = out[len(line):]
        return out.lstrip("\n")

    def stop_and_fsck(self):
        """Kill QEMU, then check the guest's disk image with the host fsck.

        Returns (clean, report). A transaction committed but not yet
        installed is replayed by fsck itself (on a copy), so a guest killed
        at any moment must still check clean.
        """
        if self.child.isalive():
            self.child.terminate(force=True)
        p = subprocess.run([os.path.join(BUILD, "fsck"), self.image], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        keep = os.environ.get("QUANTA_KEEP_BAD_IMAGE")  # a directory: keep damaged images there
        if p.returncode != 0 and keep:
            os.makedirs(keep, exist_ok=True)
            kept = os.path.join(keep, "damaged-%d.img" % int(time.time() * 1000))
            shutil.copyfile(self.image, kept)
            p.stdout += "\n(image kept as %s)" % kept
        return p.returncode == 0, p.stdout

    def tail(self, n=800):
        """The last n characters the console printed."""
        self.transcript.flush()
        with open(self.transcript.name, encoding="utf-8", errors="replace") as f:
            return f.read()[-n:]

    def close(self, failed=False):
        try:
            if self.child.isalive():
                self.child.terminate(force=True)
        finally:
            self.transcript.close()
            if failed or _failures[0] != self.failures_before:  # keep the evidence of a failure
                logs = os.path.join(BUILD, "test-logs")
                os.makedirs(logs, exist_ok=True)
                kept = os.path.join(logs, "console-%d.txt" % int(time.time() * 1000))
                shutil.copyfile(self.transcript.name, kept)
                print("(the console transcript is kept as %s)" % kept)
            shutil.rmtree(self.tmpdir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        self.close(failed=exc_type is not None)  # a block that raised keeps its transcript too


def relay_results(out, prefix, tag, context=40):
    """Print a guest program's `PASS name ...` / `FAIL name: ...` lines as
    `PASS prefix-name-tag ...` for tests/run_tests.py. When one failed, the
    program's other console lines (its diagnostics, the kernel's `oom:`
    lines...) follow, the last `context` of them, indented under `  | ` so
    that no counter takes them for verdicts: an intermittent failure then
    says what the guest saw the one time it happens."""
    failed = False
    for m in re.finditer(r"^(PASS|FAIL) (\S+?)(:| |$)(.*)$", out, re.M):
        print("%s %s-%s-%s%s%s" % (m.group(1), prefix, m.group(2), tag, m.group(3), m.group(4)))
        failed = failed or m.group(1) == "FAIL"
    if failed:
        _failures[0] += 1  # the guest keeps its transcript, as for report()
        said = [ln.rstrip("\r") for ln in out.split("\n")]
        said = [ln for ln in said if ln.strip() and not re.match(r"^(PASS|FAIL) ", ln)]
        for ln in said[-context:]:
            print("  | " + ln)


_failures = [0]  # FAIL verdicts so far: a guest closed after a new one keeps its transcript


def report(ok, name, detail=""):
    """One verdict line: `PASS name`, or `FAIL name: detail`."""
    if not ok:
        _failures[0] += 1
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, detail)))


def failures():
    """How many FAIL verdicts were printed so far (a suite's exit status)."""
    return _failures[0]


def judge_program(out, program, prefix, harts):
    """What the run of an in-guest test program (user/testkit.c) must show:
    no kernel panic, its PASS/FAIL lines (relayed as prefix-name-Nharts),
    and its summary line `PROGRAM: N passed, 0 failed`."""
    tag = "%dharts" % harts
    if "panic" in out:
        report(False, "%s-panic-%s" % (prefix, tag), repr(out[out.index("panic"):][:300]))
    relay_results(out, prefix, tag)
    if not re.search(r"%s: \d+ passed, 0 failed" % re.escape(program), out):
        report(False, "%s-summary-%s" % (prefix, tag), "no clean summary line; output ends %r" % out[-500:])


class Suite:
    """What every in-guest suite does around its own checks, written once:

        suite = Suite("ipc")                        # verdicts ipc-...
        for harts in suite.harts():                 # the command line's, else 1 3 8
            with suite.boot(harts, icount=3) as g:  # Guest(cpus=harts, ...), booted
                out = g.run("ipctest", timeout=600)
                suite.program(out, "ipctest", harts)
                suite.check("x" in out, "ipc-x-%dharts" % harts, repr(out))

    When the block ends, `echo alive` must still get an answer (verdict
    NAME-shell-TAG) and, QEMU killed, the host fsck must find the disk
    clean (NAME-fsck-TAG; a damaged image is kept, see Guest.stop_and_fsck).
    A command in the block that gets no prompt back, or any other exception,
    ends the boot with one verdict instead, FAIL NAME-TAG, and the console's
    tail (a guest that does not boot is stopped at once, so the block's
    first command fails and the verdict says "at boot"). TAG is "Nharts"
    unless given; alive=False and fsck=False leave
    out those two checks, and fsck_ok(report) can ask more of fsck's report
    than a clean exit (usertests: no orphan left). suite.finish(g) makes
    those end checks at once, inside the block: QEMU is stopped and the
    image stays for the host tools to read (qtrace, qprof) until the block
    ends. show=True prints a passing check's detail too (figures)."""

    def __init__(self, name, harts=(1, 3, 8), show=False):
        self.name = name
        self.default_harts = list(harts)
        self.show = show

    def harts(self, args=None):
        """The hart counts given on the command line, else the default."""
        given = [int(a) for a in (sys.argv[1:] if args is None else args)]
        return given or self.default_harts

    def check(self, ok, test, detail="", show=None):
        """One verdict: PASS test (with detail when show), or FAIL test: detail."""
        if ok and (self.show if show is None else show) and detail:
            print("PASS %s %s" % (test, detail))
        else:
            report(ok, test, detail)
        sys.stdout.flush()

    def program(self, out, program, harts, prefix=None):
        """An in-guest test program's verdicts (judge_program): its PASS/FAIL
        lines as PREFIX-name-Nharts, no panic, and its summary line."""
        judge_program(out, program, prefix or self.name, harts)

    @contextlib.contextmanager
    def boot(self, harts, tag=None, alive=True, fsck=True, fsck_ok=None, boot_timeout=30, **guest_args):
        tag = tag or "%dharts" % harts
        with Guest(cpus=harts, **guest_args) as g:
            g.suite_end = (tag, alive, fsck, fsck_ok)
            where = ""
            try:
                g.boot(timeout=boot_timeout)
            except Exception:  # noqa: BLE001 - the block's first command then fails at once
                where = " at boot"
                g.child.terminate(force=True)
            try:
                yield g
                self.finish(g)
            except Exception as e:  # noqa: BLE001 - any failure to get a prompt ends this boot
                why = ("no prompt%s (%s)" % (where, type(e).__name__) if isinstance(e, (pexpect.TIMEOUT, pexpect.EOF))
                       else "%s: %s" % (type(e).__name__, e))
                self.check(False, "%s-%s" % (self.name, tag), "%s; console ends %r" % (why, g.tail(800)))

    def finish(self, g, alive=True):
        """The end of a boot's block (once): the shell still answers, then,
        QEMU stopped, fsck finds the disk clean. The image stays until the
        block ends. alive=False skips the shell's check (the kernel
        panicked: a verdict said so already), not fsck's."""
        if g.suite_end is None:
            return
        tag, answers, fsck, fsck_ok = g.suite_end
        g.suite_end = None
        if alive and answers:
            after = g.run("echo alive", timeout=60)
            self.check("alive" in after, "%s-shell-%s" % (self.name, tag), "the shell does not answer (%r)" % after,
                       show=False)
        if fsck:
            clean, said = g.stop_and_fsck()
            ok = clean and (fsck_ok is None or fsck_ok(said))
            self.check(ok, "%s-fsck-%s" % (self.name, tag), said.replace("\n", " | ")[-2000:], show=False)


def run_cases(guest, cases, suffix="", timeout=30):
    """Run (name, command line, regex) cases in a booted guest's shell.

    Prints `PASS name+suffix` when the whole output matches the regex, else
    a FAIL line with the output. Stops at the first command that gets no
    prompt back (the guest is then unusable) and returns False; True when
    every case ran.
    """
    for name, line, pattern in cases:
        name += suffix
        try:
            out = guest.run(line, timeout=timeout)
        except Exception as e:  # noqa: BLE001 - any failure to get a prompt
            report(False, name, "no prompt after %r (%s)" % (line, type(e).__name__))
            return False
        report(re.fullmatch(pattern, out) is not None, name, "%r printed %r" % (line, out))
    return True


def run_and_keep_image(tool, guest_args, steps, out_dir, what):
    """Boots Guest(**guest_args), calls steps(g, mark) - mark(name) names
    the step under way; a step fails by raising -, types `halt 0`, checks
    the image with fsck and copies it to OUT_DIR/fs.img. Returns that path,
    or None after printing one line `TOOL: STEP failed: WHY` (or the fsck
    report) on stderr. Used by `make profile` and `make trace`."""
    state = {"step": "boot"}

    def mark(name):
        state["step"] = name

    os.makedirs(out_dir, exist_ok=True)
    with Guest(**guest_args) as g:
        try:
            g.boot(timeout=120)
            steps(g, mark)
            mark("halt")
            g.child.sendline("halt 0")
            g.child.expect(pexpect.EOF, timeout=60)
        except Exception as e:  # noqa: BLE001 - one line, whatever failed
            why = str(e).splitlines()[0] if str(e) else type(e).__name__
            print("%s: %s failed: %s" % (tool, state["step"], why), file=sys.stderr)
            return None
        clean, report = g.stop_and_fsck()
        image = os.path.join(out_dir, "fs.img")
        shutil.copyfile(g.image, image)
    if not clean:
        print("%s: fsck found errors in the %s guest's image:\n%s" % (tool, what, report), file=sys.stderr)
        return None
    return image
