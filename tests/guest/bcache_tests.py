"""tests/guest/bcache_tests.py - the growing buffer cache, in the guest.

Boots 2 harts under -icount and checks, through `bcstat` (SYS_bcstat):
  - growth: reading programs of about 700 KiB the first time goes to the
    disk and the cache borrows slabs (more buffers than the fixed floor);
  - the hit path: reading them again reads no block from the disk;
  - give-back: a process that grows with sbrk until it fails (`bcstat -m`)
    gets as many pages after the cache grew as it did right after boot
    (within 2 pages: page-table pages), the cache gave its slabs back (at
    least as many as the reads borrowed), and
    freepages() counted the borrowed pages as free all along;
  - after that the cache grows again and the files read correctly (the
    same `wc` output as before);
  - pinned blocks: after a workload that fills the cache and then leaves
    the log holding committed, not yet installed blocks (pinned in the
    cache), sbrk-until-failure still gets as many pages as right after
    boot (xv6's usertests' free-page check; the log's pinned blocks once
    kept their 9-page slabs);
  - usage on -h and on a bad flag; the shell still answers and the image
    checks clean with fsck (after each boot);
  - count race (a second boot, 3 harts, no -icount: the race needs harts
    really running at once): `bcstat -c` reads freepages() for 5 s while
    one child rereads the files (the cache borrows slabs) and another
    promises every free page and gives it back (the cache gives its slabs
    back). No reading may exceed the most read while both were idle: one
    that does counted a page twice, as borrowed and as free. With the
    lent count read before kalloc's lock (3ca0eee) 3 runs of 6 of 10 s
    read a slab's 9 pages (once 216) above it; since b252dab none has.
One `PASS name` / `FAIL name: why` line per check (tests/guest/qemu.py's
Suite: a failed boot keeps its console transcript).
"""
import re

from qemu import Suite

suite = Suite("bcache", show=True)
report = suite.check

WANT_BYTES = 700 * 1024  # more than the 40 fixed buffers and the first slabs hold
SIZE = re.compile(r"bcstat: bufs (\d+) fixed (\d+) pages (\d+)")
COUNTS = re.compile(r"hits (\d+) misses (\d+) disk_reads (\d+) disk_writes (\d+) grows (\d+) shrinks (\d+)")
PROBE = re.compile(r"bcstat: sbrk got (\d+) pages; (\d+) were free before")
RACE = re.compile(r"free quiet (\d+), churning (\d+) at most; (\d+) readings, (\d+) above quiet; (\d+) slabs given back")


def stat(out):
    """bcstat output -> dict of the size and count fields (raises if absent)."""
    s, c = SIZE.search(out), COUNTS.search(out)
    if not s or not c:
        raise RuntimeError("no bcstat figures in %r" % out[-300:])
    keys = ["bufs", "fixed", "pages", "hits", "misses", "disk_reads", "disk_writes", "grows", "shrinks"]
    return dict(zip(keys, [int(x) for x in s.groups() + c.groups()]))


def probe(g):
    out = g.run("bcstat -m", timeout=600)
    m = PROBE.search(out)
    if not m:
        raise RuntimeError("bcstat -m: %r" % out[-300:])
    return int(m.group(1)), int(m.group(2))


def wc_lines(out):
    return [l for l in out.splitlines() if l.strip() and not l.startswith("bcstat:")]


PINNED = re.compile(r"log commits \d+ installs \d+ slots (\d+) pinned (\d+)")
WRITES = "mkdir /bcw; echo a > /bcw/a; echo b > /bcw/b; ln /bcw/a /bcw/c; mkdir /bcw/d; echo e > /bcw/d/e"


def pinned_probe(g, got0):
    """Write after the cache grew (new blocks land in slabs), leave them
    pinned by the log, then probe memory: every page must come back."""
    g.run(WRITES, timeout=120)
    pinned = 0
    for i in range(3):
        # When the last write filled the log it was installed and nothing
        # is pinned; the next small transaction pins its blocks again.
        m = PINNED.search(g.run("diskstat"))
        pinned = int(m.group(2)) if m else 0
        if pinned > 0:
            break
        g.run("echo %d > /bcw/more%d" % (i, i))
    got, _ = probe(g)
    report(pinned > 0 and got >= got0, "bcache-gives-back-pinned",
           "sbrk got %d pages after boot, %d with %d blocks pinned by the log" % (got0, got, pinned))


SCRIPT = "/bcfiles.sh"


def largest_first(g):
    """(size, /name) of the regular files of /, one name per inode (/trace
    and /prof are /obs), largest first."""
    files, seen = [], set()
    for line in g.run("ls /").splitlines():
        f = line.split()
        if len(f) == 4 and f[1] == "2" and f[2] not in seen:
            seen.add(f[2])
            files.append((int(f[3]), "/" + f[0]))
    return sorted(files, reverse=True)


def biggest_files(g):
    """Write SCRIPT: `wc` of the largest regular files of / (one name per
    inode: /trace and /prof are /obs) adding up to WANT_BYTES, a few files
    a line (a console line holds 127 characters). The image's programs are
    stripped of debug sections, so a fixed list shrinks with every change;
    returns the command that runs the script."""
    picked, total = [], 0
    for size, name in largest_first(g):
        if total >= WANT_BYTES:
            break
        picked.append(name)
        total += size
    for i in range(0, len(picked), 6):
        g.run("echo wc %s >%s %s" % (" ".join(picked[i:i + 6]), ">" if i else "", SCRIPT))
    return "sh " + SCRIPT


def main():
    with suite.boot(2, icount=3, timeout=600, boot_timeout=120) as g:
        files = biggest_files(g)
        out = g.run("bcstat -h")
        report(out.startswith("usage:"), "bcstat-usage", out.strip())
        out = g.run("bcstat -m extra")
        report(out.startswith("usage:"), "bcstat-bad-args", out.strip())
        got0, free0 = probe(g)
        base = stat(g.run("bcstat"))
        first_out = g.run("bcstat " + files, timeout=300)
        first = stat(first_out)
        report(first["disk_reads"] > 500 and first["grows"] > 0, "bcache-grows",
               "first read: %d blocks from the disk, %d slabs borrowed" % (first["disk_reads"], first["grows"]))
        report(first["bufs"] > first["fixed"] + 500, "bcache-holds-files",
               "%d buffers (%d fixed), %d pages" % (first["bufs"], first["fixed"], first["pages"]))
        again_out = g.run("bcstat " + files, timeout=300)
        again = stat(again_out)
        report(again["disk_reads"] == 0 and again["misses"] == 0 and again["hits"] > 500, "bcache-hit-path",
               "second read: %d disk reads, %d misses, %d hits" % (again["disk_reads"], again["misses"],
                                                                    again["hits"]))
        report(wc_lines(again_out) == wc_lines(first_out), "bcache-same-contents",
               "%d wc lines, e.g. %r then %r" % (len(wc_lines(again_out)), wc_lines(first_out)[:1],
                                                  wc_lines(again_out)[:1]))
        got1, free1 = probe(g)
        report(abs(got1 - got0) <= 2, "bcache-gives-back",
               "sbrk got %d pages after boot, %d with %d cache pages" % (got0, got1, first["pages"]))
        report(abs(free1 - free0) <= 2, "bcache-counts-as-free",
               "freepages %d after boot, %d with the cache grown" % (free0, free1))
        after = stat(g.run("bcstat"))
        # (running bcstat itself reads its ELF again: a slab or two)
        report(after["shrinks"] >= first["grows"] and after["pages"] <= 18, "bcache-shrank",
               "%d slabs given back, %d pages left" % (after["shrinks"] - base["shrinks"], after["pages"]))
        third_out = g.run("bcstat " + files, timeout=300)
        third = stat(third_out)
        report(third["grows"] > 0 and wc_lines(third_out) == wc_lines(first_out), "bcache-regrows",
               "%d slabs borrowed again" % third["grows"])
        pinned_probe(g, got0)
    count_race()


def count_race():
    """The free count never reads above its quiet figure while the cache
    borrows and gives back slabs (a page counted as borrowed and as free)."""
    with suite.boot(3, tag="count-race-3harts", timeout=120) as g:
        line = "bcstat -c 50"  # the largest files that fit on a console line (127 characters)
        for _, name in largest_first(g):
            if len(line) + 1 + len(name) <= 120:
                line += " " + name
        out = g.run(line, timeout=120)
        m = RACE.search(out)
        if not m:
            report(False, "bcache-count-race", "no figures: %r" % out[-300:])
        else:
            quiet, most, readings, above, shrinks = (int(x) for x in m.groups())
            report(most <= quiet and shrinks > 0 and readings > 1000, "bcache-count-race",
                   "quiet %d, %d at most while churning (%d readings, %d above; %d slabs given back)" %
                   (quiet, most, readings, above, shrinks))

if __name__ == "__main__":
    main()
