"""tests/guest/users_tests.py - users and file protection in the guest.

    users_tests.py [CPUS...]

Boots the kernel (3 harts unless told), and per boot:
  1. runs user/permtest as root: it becomes student in a child and checks
     every refusal (-1, nothing changed) and every permitted case, then
     checks as root that nothing changed and that root may do it all; its
     PASS/FAIL lines are relayed;
  2. drives the programs through the shell as student via `su` (id, whoami,
     ls -l, cat of a 0600 file, writing in a root 0755 directory, renice of
     init, halt, sched, nice up and down, xv6's programs in a home
     directory) and as root, matching each whole output;
  3. halts as root (QEMU must exit: halt still works for root), then runs
     fsck on the disk: it must be clean.
Everything is deterministic; no timing is measured.
"""

import pexpect

from qemu import Suite, relay_results, run_cases

suite = Suite("users", harts=(3,))

# (name, command line, regex the whole output must match), run in order in
# one guest; later cases rely on files made by earlier ones.
CASES = [
    ("root-id", "id", r"uid=0\(root\) gid=0\(root\)\n"),
    ("root-whoami", "whoami", r"root\n"),
    ("su-student-id", "su student id", r"uid=1000\(student\) gid=1000\(student\)\n"),
    ("su-student-whoami", "su student whoami", r"student\n"),
    ("su-unknown-user", "su nobody id", r"su: no user 'nobody' in /etc/passwd\n"),
    ("su-student-cannot-su-root", "su student su root id",
     r"su: permission denied: only root may become another user \(there are no passwords\)\n"),
    ("su-student-to-self", "su student su student whoami", r"student\n"),
    ("passwd-readable", "cat /etc/passwd", r"root:0:0:/:/sh\nstudent:1000:1000:/home/student:/sh\n"),
    ("ls-l-home", "ls -l /home", r"drwxr-xr-x +\d+ root +root +\d+ \.\n"
     r"drwxr-xr-x +\d+ root +root +\d+ \.\.\n"
     r"drwxr-xr-x +\d+ student +student +\d+ student\n"),
    ("ls-l-tmp-sticky", "ls -l /tmp", r"drwxrwxrwt +\d+ root +root +\d+ \.\n[\s\S]*"),
    ("ls-l-program", "ls -l /cat", r"-rwxr-xr-x +1 root +root +\d+ cat\n"),
    ("make-secret", "echo top secret > /secret; chmod 600 /secret; ls -l /secret",
     r"-rw------- +1 root +root +11 secret\n"),
    ("student-cannot-read-0600", "su student cat /secret", r"cat: cannot open /secret: permission denied\n"),
    ("student-can-stat-0600", "su student ls -l /secret", r"-rw------- +1 root +root +11 secret\n"),
    ("root-reads-0600", "cat /secret", r"top secret\n"),
    ("student-cannot-write-root-dir", "su student mkdir /sdir; su student ln /secret /slink; ls /sdir",
     r"mkdir: cannot create /sdir: permission denied\nln: cannot link /slink to /secret: permission denied\n"
     r"ls: cannot open /sdir: no such file or directory\n"),
    ("student-cannot-chmod", "su student chmod 644 /secret; ls -l /secret",
     r"chmod: cannot change /secret: permission denied\n-rw------- +1 root +root +11 secret\n"),
    ("student-cannot-chown", "su student chown student /secret",
     r"chown: cannot change /secret: permission denied\n"),
    ("student-cannot-rm", "su student rm /secret; cat /secret", r"rm: cannot remove /secret: permission denied\ntop secret\n"),
    # Refusals say why (errno): EPERM for another user's process, EACCES
    # for lowering a nice value, as Linux's setpriority/sched_setaffinity.
    ("student-cannot-renice-init", "su student renice -n 5 -p 1", r"renice: 1: operation not permitted\n"),
    ("student-cannot-taskset-init", "su student taskset -p 0x1 1", r"taskset: cannot set 0x1 on 1: operation not permitted\n"),
    ("init-nice-unchanged", "ps", r"(?s).*\n +1 +0 sleep +0 +1024 .* root +init\n.*"),
    ("student-cannot-halt", "su student halt; echo alive", r"halt: permission denied: only root may halt\nalive\n"),
    ("student-cannot-switch-policy", "su student sched rr; sched",
     r"sched: permission denied: only root may switch the policy\neevdf percpu\n"),
    ("student-raises-own-nice", "su student nice -n 5 echo ok", r"ok\n"),
    ("student-cannot-lower-nice", "su student nice -n -5 echo ok",
     r"nice: cannot set nice -5: permission denied \(only root may lower it\)\n"),
    ("student-ps-shows-user", "su student nice -n 5 ps", r"(?s).* root +init\n.* run +5 +\d+ .* student +ps\n"),
    ("root-renices-init", "renice -n 2 -p 1; renice -n 0 -p 1", r"1: nice 2\n1: nice 0\n"),
    ("root-lowers-nice", "nice -n -5 echo ok", r"ok\n"),
    ("root-switches-policy", "sched rr; sched eevdf", r"rr percpu\neevdf percpu\n"),
    # A student shell (su with no command) starts in student's home (the
    # files made next are found there below): xv6's own programs work
    # there, and the shell's redirections are refused outside.
    ("student-shell", "su student", r""),
    ("student-shell-whoami", "whoami", r"student\n"),
    ("student-xv6-programs", "echo hello > f; cat f; wc f > out; cat out; mkdir d; ln f d/g; cat d/g; rm d/g; ls d",
     r"hello\n1 1 6 f\nhello\n\. +1 \d+ \d+\n\.\. +1 \d+ \d+\n"),
    ("student-shell-redirect-refused", "echo x > /nope", r"sh: cannot open /nope: permission denied\n"),
    # cd alone goes home (it went to "/")
    ("student-shell-cd-home", "cd /; cd; cat f", r"hello\n"),
    ("student-shell-exit", "exit", r""),
    ("back-to-root", "whoami; cd /", r"root\n"),
    ("student-files-are-students", "ls -l /home/student/f /home/student/d",
     r"-rw-r--r-- +1 student +student +6 f\n"
     r"drwxr-xr-x +\d+ student +student +\d+ \.\n[\s\S]*"),
    # su runs CMD as the shell does (here, then from /) and says why it could
    # not: the first reason unless that was "not here" (f is not executable
    # and there is no /f).
    ("su-cannot-run-says-why", "cd /home/student; su student f; su student nosuch; cd /",
     r"su: cannot run f: permission denied\nsu: cannot run nosuch: no such file or directory\n"),
    # Programs that run a command find it as the shell does (here, then /):
    # away from / they said "cannot run echo: no such file or directory".
    ("runners-search-root", "cd /home/student; nice -n 1 echo n; taskset 0x1 echo t; chrt -r 300 echo c",
     r"n\nt\nc\n"),
    ("runners-search-root-2", "time echo tm; lockstat echo l | grep ^l; su student echo s; nice -n 1 f; cd /",
     r"tm\nreal \d+\.\d{3}s\nuser \d+\.\d{3}s\nsys \d+\.\d{3}s\nl\ns\nnice: cannot run f: permission denied\n"),
    ("root-chown-chmod", "chown root:root /home/student/f; chmod 1777 /home/student/d; "
     "ls -l /home/student/f; chmod 9 /home/student/f",
     r"-rw-r--r-- +1 root +root +6 f\nchmod: bad mode '9' \(octal, at most 1777\)\n"),
    ("usage-id", "id -h", r"usage: id\n"),
    ("usage-whoami", "whoami -h", r"usage: whoami\n"),
    ("usage-su", "su -h", r"usage: su NAME \[CMD ARGS\.\.\.\]\n"),
    ("usage-su-bad", "su", r"usage: su NAME \[CMD ARGS\.\.\.\]\n"),
    ("usage-chmod", "chmod -h", r"usage: chmod MODE PATH\.\.\.\n"),
    ("usage-chown", "chown 1", r"usage: chown USER\[:GROUP\] PATH\.\.\.\n"),
    ("usage-permtest", "permtest -h", r"usage: permtest\n"),
]

def run_suite(cpus):
    tag = "%dharts" % cpus
    # The disk must be clean after it all (verdict users-fsck-Nharts).
    with suite.boot(cpus, alive=False) as g:
        out = g.run("permtest", timeout=120)
        relay_results(out, "permtest", tag)
        suite.check("permtest: ok" in out, "permtest-done-" + tag, "no 'permtest: ok'")
        if not run_cases(g, CASES, "-" + tag, timeout=60):
            return
        # halt as root still powers off; then the disk must be clean.
        g.child.sendline("halt")
        try:
            g.child.expect(pexpect.EOF, timeout=30)
            suite.check(True, "root-halts-" + tag)
        except Exception as e:  # noqa: BLE001
            suite.check(False, "root-halts-" + tag, "QEMU still running (%s)" % type(e).__name__)


def main():
    for n in suite.harts():
        run_suite(n)


if __name__ == "__main__":
    main()
