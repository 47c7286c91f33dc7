#!/usr/bin/env python3
"""tools/exercise_check.py - do each newcomer exercise on a scratch copy.

Usage: tools/exercise_check.py [--keep] [--build DIR] [--seed BUILD] [docs/exercises/NN-*.md ...]

Each exercise under docs/exercises/ carries its steps twice: as prose and
code blocks for the reader, and as `<!-- check: ... -->` comments (invisible
when rendered) that say what the step does to the tree. This tool copies the
working tree (every file git knows, plus untracked ones it does not ignore)
to DIR/NN/ (default build/exercise-check), starts its build/ from the
tree's build objects (BUILD, default build/: make then rebuilds only what
the exercise changes, as in a reader's tree that was built once), performs
the steps there in order with the code blocks exactly as the page shows
them, and reports
`PASS exercise-NN` or `FAIL exercise-NN: step: why`. So a page that names a
number that moved, a file or line that is gone, or code that no longer
compiles, is formatted wrongly or behaves otherwise, fails here
(`make exercises-check`, part of `make test`).

Steps (one comment each; BLOCK is the next code block after the comment,
fenced or indented, dedented; $NAME in a block or command is a `let`):
  let NAME = SHELL-COMMAND      NAME := the command's output, stripped
  create PATH                   write BLOCK to PATH (a new file)
  append PATH                   add BLOCK at the end of PATH, after a blank line
  insert PATH after /REGEX/     insert BLOCK after the first line matching
  insert PATH before /REGEX/    ... or before it; `before last /REGEX/`
                                takes the last matching line
  replace PATH /REGEX/          BLOCK replaces the first matching line
                                (inserted lines take the matched line's
                                indentation, as a reader would type them)
  run SHELL-COMMAND             must exit 0 (cwd: the copy; $JOBS is set)
  guest [@BOOTARGS] CMD => RE   boot the copy's kernel and image (QEMU, 1
                                hart; BOOTARGS as `-append`), run CMD in
                                the shell: its whole output must match RE
                                (\\n for newlines)
A step that fails stops its exercise. Nothing outside DIR is touched.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
STEP = re.compile(r"^\s*<!--\s*check:\s*(.*?)\s*-->\s*$")


class StepFailed(Exception):
    pass


def code_block(lines, start):
    """The first code block at or after lines[start]: fenced (```) or a run of
    lines indented deeper than the text around it. Returns (text, next index)."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines):
        raise StepFailed("no code block after the step")
    if lines[i].lstrip().startswith("```"):
        j = i + 1
        while j < len(lines) and not lines[j].lstrip().startswith("```"):
            j += 1
        return textwrap.dedent("\n".join(lines[i + 1:j])) + "\n", j + 1
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i
    while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) >= indent):
        j += 1
    while j > i and not lines[j - 1].strip():
        j -= 1
    return textwrap.dedent("\n".join(lines[i:j])) + "\n", j


def expand(text, env):
    """$JOBS and the like from the environment; a `let` NAME as a whole word."""
    for name, value in env.get("_LETS", {}).items():
        text = re.sub(r"\b%s\b" % re.escape(name), value, text)
    return re.sub(r"\$([A-Z_][A-Z0-9_]*)", lambda m: env.get(m.group(1), m.group(0)), text)


def find_line(lines, regex, last=False):
    hits = [n for n, line in enumerate(lines) if re.search(regex, line)]
    if not hits:
        raise StepFailed("no line matches /%s/" % regex)
    return hits[-1] if last else hits[0]


def edit(path, how, regex, block, last):
    if not path.is_file():
        raise StepFailed("%s: no such file" % path.name)
    lines = path.read_text().split("\n")
    n = find_line(lines, regex, last)
    # The block goes in at the matched line's indentation, as a reader types it.
    indent = lines[n][:len(lines[n]) - len(lines[n].lstrip())]
    new = [indent + line if line.strip() else "" for line in block.rstrip("\n").split("\n")]
    if how == "after":
        lines[n + 1:n + 1] = new
    elif how == "before":
        lines[n:n] = new
    else:
        lines[n:n + 1] = new
    path.write_text("\n".join(lines))


def plain(env):
    return {k: v for k, v in env.items() if isinstance(v, str)}


def sh(cmd, cwd, env, timeout=1800):
    p = subprocess.run(cmd, shell=True, cwd=cwd, env=plain(env), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace", timeout=timeout)
    return p.returncode, p.stdout


def guest(copy, spec, env):
    m = re.match(r"^(?:@(\S+)\s+)?(.*?)\s+=>\s+(.*)$", spec)
    if not m:
        raise StepFailed("bad guest step (want: guest [@ARGS] CMD => REGEX)")
    bootargs, cmd, pattern = m.groups()
    # The copy's own tests/guest/qemu.py, on the copy's build.
    script = ("import sys\nfrom qemu import Guest\nwith Guest(cpus=1, bootargs=sys.argv[1] or None) as g:\n"
              "    g.boot(timeout=120)\n    sys.stdout.write(g.run(sys.argv[2], timeout=120))\n")
    genv = dict(plain(env), QUANTA_BUILD=str(copy / "build"))
    p = subprocess.run([sys.executable, "-c", script, bootargs or "", expand(cmd, env)], cwd=copy / "tests" / "guest",
                       env=genv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                       timeout=300)
    if p.returncode != 0:
        raise StepFailed("the guest failed (exit %d): %s" % (p.returncode, p.stdout[-1500:]))
    want = pattern.replace("\\n", "\n")
    if not re.fullmatch(want, p.stdout):
        raise StepFailed("%r printed %r, want /%s/" % (cmd, p.stdout, pattern))


def do_step(step, lines, i, copy, env):
    """Perform one step; returns the index to go on from."""
    word, _, rest = step.partition(" ")
    if word == "let":
        name, _, cmd = rest.partition("=")
        rc, out = sh(cmd.strip(), copy, env)
        if rc != 0 or not out.strip():
            raise StepFailed("%s printed %r (exit %d)" % (cmd.strip(), out[-500:], rc))
        env.setdefault("_LETS", {})[name.strip()] = out.strip()
        return i
    if word == "create":
        block, i = code_block(lines, i)
        path = copy / rest
        if path.exists():
            raise StepFailed("%s exists already" % rest)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(expand(block, env))
        return i
    if word == "append":
        block, i = code_block(lines, i)
        path = copy / rest
        if not path.is_file():
            raise StepFailed("%s: no such file" % rest)
        text = path.read_text()
        path.write_text(text.rstrip("\n") + "\n\n" + expand(block, env))
        return i
    if word in ("insert", "replace"):
        m = re.match(r"^(\S+)\s+(?:(after|before)\s+)?(last\s+)?/(.*)/$", rest)
        if not m or (word == "insert") != bool(m.group(2)):
            raise StepFailed("bad %s step: %s" % (word, rest))
        block, i = code_block(lines, i)
        edit(copy / m.group(1), m.group(2) or "replace", m.group(4), expand(block, env), bool(m.group(3)))
        return i
    if word == "run":
        rc, out = sh(expand(rest, env), copy, env)
        if rc != 0:
            raise StepFailed("`%s` exited %d:\n%s" % (rest, rc, out[-3000:]))
        return i
    if word == "guest":
        guest(copy, rest, env)
        return i
    raise StepFailed("unknown step '%s'" % word)


def copy_tree(dst):
    if dst.exists():
        shutil.rmtree(dst)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           stdout=subprocess.PIPE, check=True).stdout.decode().split("\0")
    for f in files:
        src = ROOT / f
        if f and src.is_file():
            (dst / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / f)


# What the tree's own build/ holds that an exercise's make would build again:
# the objects and tools, not test binaries, logs, images or scratch copies.
SEED_SKIP = {"exercise-check", "test-logs", "bad-images", "tests", "qemu.img"}


def seed_build(copy, build):
    """Start the copy's build/ from the tree's, modification times kept (the
    sources were copied with theirs): make then rebuilds what the
    exercise's own edits touch, as it does in a reader's tree that has
    been built once, instead of the whole system three times (each
    exercise's copy starts from nothing otherwise: minutes of CPU without
    a compiler cache)."""
    if not build.is_dir():
        return
    for entry in build.iterdir():
        if entry.name in SEED_SKIP:
            continue
        if entry.is_dir():
            shutil.copytree(entry, copy / "build" / entry.name, symlinks=True)
        elif entry.is_file():
            (copy / "build").mkdir(parents=True, exist_ok=True)
            shutil.copy2(entry, copy / "build" / entry.name)


def check(page, scratch, keep, seed):
    name = "exercise-" + page.name.split("-")[0]
    copy = scratch / page.name.split("-")[0]
    copy_tree(copy)
    seed_build(copy, seed)
    env = dict(os.environ, JOBS=os.environ.get("JOBS", str(os.cpu_count() or 2)))
    env.pop("QUANTA_BUILD", None)
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    lines = page.read_text().split("\n")
    i, steps = 0, 0
    try:
        while i < len(lines):
            m = STEP.match(lines[i])
            i += 1
            if m:
                steps += 1
                where = "%s:%d: %s" % (page.name, i, m.group(1))
                try:
                    i = do_step(m.group(1), lines, i, copy, env)
                except StepFailed as e:
                    raise StepFailed("%s: %s" % (where, e)) from None
                except Exception as e:  # noqa: BLE001 - a guest that does not boot, a timeout
                    raise StepFailed("%s: %s: %s" % (where, type(e).__name__, e)) from None
        if steps == 0:
            raise StepFailed("%s has no check steps" % page.name)
        print("PASS %s (%d steps)" % (name, steps))
        ok = True
    except StepFailed as e:
        print("FAIL %s: %s" % (name, e))
        ok = False
    sys.stdout.flush()
    if ok and not keep:
        shutil.rmtree(copy, ignore_errors=True)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="*")
    ap.add_argument("--build", default=str(ROOT / "build" / "exercise-check"), help="scratch directory")
    ap.add_argument("--keep", action="store_true", help="keep the copies of passed exercises too")
    ap.add_argument("--seed", default=str(ROOT / "build"), help="the build directory the copies start from")
    a = ap.parse_args()
    pages = [pathlib.Path(p).resolve() for p in a.pages] or sorted((ROOT / "docs" / "exercises").glob("[0-9]*.md"))
    scratch = pathlib.Path(a.build).resolve()
    results = [check(p, scratch, a.keep, pathlib.Path(a.seed).resolve()) for p in pages]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
