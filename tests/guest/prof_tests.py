"""tests/guest/prof_tests.py - the sampling profiler end to end, in the guest.

Boots 2 harts under -icount (virtual time: sample counts do not depend on
the host's load) and checks, through `prof` in the guest and build/qprof
on the guest's image:
  - `prof hog 1` (a CPU-bound user loop for 1 s): about one sample per
    period on hog's hart (at least 700 of the 1000 expected), at least 90%
    of hog's samples are user-mode in hog's own pid, and they symbolise
    against build/user/_hog (a function name, not an address);
  - `prof benchos -q null` (a system-call loop): kernel samples appear in
    benchos's pid, and its kernel functions include the system-call path
    (usertrap, syscall_dispatch, sys_*), and most of them carry a call stack
    through usertrap or syscall_dispatch, every frame a kernel symbol;
  - the control program's errors: stop when not profiling, a bad period,
    starting twice, dumping a dump already read (the kernel freed it);
  - the shell still answers and the guest's image checks clean with fsck.
One `PASS name` / `FAIL name: why` line per check (tests/guest/qemu.py's
Suite: a failed boot keeps its console transcript).
"""
import os
import re
import subprocess

from qemu import BUILD, Suite

suite = Suite("prof", show=True)
report = suite.check


def samples(image, path):
    """qprof --samples: one dict per sample."""
    p = subprocess.run([os.path.join(BUILD, "qprof"), "-k", os.path.join(BUILD, "kernel.elf"), "-u",
                        os.path.join(BUILD, "user"), "--samples", "-p", path, image],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError("qprof --samples: " + p.stdout.strip())
    out = []
    for line in p.stdout.splitlines():
        f = line.split(None, 11)
        stack = f[11].split(" <- ")
        out.append({"hart": int(f[1]), "pid": int(f[3]), "name": f[5], "mode": f[7], "pc": f[9], "fn": stack[0],
                    "stack": stack})
    return out


def check_hog(ss):
    hog = [s for s in ss if s["name"] == "hog"]
    pids = {s["pid"] for s in hog}
    user = [s for s in hog if s["mode"] == "user"]
    named = [s for s in user if re.match(r"hog:[A-Za-z_]", s["fn"])]
    report(len(pids) == 1, "prof-hog-one-pid", "pids %s" % sorted(pids))
    report(len(hog) >= 700, "prof-hog-sample-rate", "%d samples of hog in 1 s at 1 ms" % len(hog))
    report(hog and len(user) >= 0.9 * len(hog), "prof-hog-user-mode", "%d of %d user" % (len(user), len(hog)))
    report(user and len(named) == len(user), "prof-hog-symbolised",
           "%d of %d named, e.g. %s" % (len(named), len(user), user[0]["fn"] if user else "-"))


def check_null(ss):
    bench = [s for s in ss if s["name"] == "benchos"]
    kern = [s for s in bench if s["mode"] == "kernel"]
    fns = {s["fn"] for s in kern}
    path = sorted(f for f in fns if re.search(r"usertrap|syscall|::sys_", f))
    in_path = [s for s in kern if any(re.search(r"usertrap|syscall_dispatch", f) for f in s["stack"])]
    report(len(kern) >= 0.2 * max(len(bench), 1) and len(kern) >= 20, "prof-null-kernel-samples",
           "%d of %d benchos samples in the kernel" % (len(kern), len(bench)))
    report(len(path) > 0, "prof-null-syscall-path", "functions: %s" % ", ".join(path[:6] or sorted(fns)[:6]))
    report(len(in_path) >= 0.5 * max(len(kern), 1), "prof-null-stacks",
           "%d of %d kernel samples with usertrap or syscall_dispatch on the stack" % (len(in_path), len(kern)))
    unknown = [s for s in kern if any(f.startswith("kernel:0x") for f in s["stack"])]
    report(not unknown, "prof-null-kernel-symbolised", "%d unsymbolised, e.g. %s" %
           (len(unknown), unknown[0]["pc"] if unknown else "-"))


def main():
    with suite.boot(2, icount=3, timeout=300, boot_timeout=120) as g:
        out = g.run("prof stop")
        report("not profiling" in out, "prof-stop-when-off", out.strip())
        out = g.run("prof start -p 5")
        report(out.startswith("usage:"), "prof-bad-period", out.strip())
        out = g.run("prof -h")
        report(out.startswith("usage:"), "prof-usage", out.strip())
        out = g.run("prof start; prof start")
        report("cannot start" in out, "prof-start-twice", out.strip())
        out = g.run("prof stop")
        report(re.search(r"prof: \d+ samples", out) is not None, "prof-stop", out.strip())
        out = g.run("prof -o /hog.dat hog 1", timeout=120)
        report("prof: wrote" in out, "prof-hog-dump", out.strip())
        out = g.run("prof dump /again.dat")
        report("no profile to dump" in out, "prof-dump-once", out.strip())
        out = g.run("prof -o /null.dat benchos -q null", timeout=200)
        report("prof: wrote" in out and "null" in out, "prof-null-dump", out.strip())
        suite.finish(g)  # QEMU stopped, fsck clean: qprof reads the image
        check_hog(samples(g.image, "/hog.dat"))
        check_null(samples(g.image, "/null.dat"))


if __name__ == "__main__":
    main()
