#!/usr/bin/env python3
"""tools/docs_check.py - check that the docs still point at real code.

Scans README.md and docs/**/*.md for code references written in backticks:

    `kernel/proc/sched.cc:scheduler`        file + function (or any identifier)
    `kernel/trap.cc:usertrap`               ...
    `lib/sched/eevdf.h:Eevdf::pick`         qualified names: every part must appear
    `kernel/arch/riscv/entry.S:12`          file + line
    `kernel/fs/log.cc:40-75`                file + line range

and for relative Markdown links ([text](other.md), ![plot](img/x.png)).
It also reads the opening comment of every source file (kernel/, lib/,
user/, tools/, sim/, tests/, bench/, mk/: the comment each file starts with
to explain its design) and checks every repository path it names, with or
without a `:identifier`, the same way: a header that names a file that was
renamed or deleted is caught like a stale doc.

A reference resolves when the file exists (relative to the repository root),
the identifier appears in it as a whole word, and a line number is within the
file. Prints every broken reference as `doc:line: reference: reason` and exits
1 if there is any; otherwise prints a one-line summary and exits 0.

Usage: tools/docs_check.py [--root DIR] [FILE.md ...]
"""
import argparse
import pathlib
import re
import sys

# `path:line`, `path:line-line` or `path:identifier` (C++ qualified names allowed).
REF_FULL = re.compile(
    r"^((?:[\w.-]+/)*[\w.-]+\.(?:cc|h|S|c|py|mk|ld|sh|md|txt)|Makefile)"
    r":(\d+(?:-\d+)?|[A-Za-z_~][\w]*(?:::~?[A-Za-z_]\w*)*)(?:\(\))?$"
)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def check_ref(root, target, where):
    m = REF_FULL.match(target)
    if not m:
        return None  # not a path:thing reference
    path, what = m.group(1), m.group(2)
    f = root / path
    if not f.is_file():
        return f"{path}: no such file"
    text = f.read_text(errors="replace")
    if what[0].isdigit():
        nlines = text.count("\n") + (0 if text.endswith("\n") else 1)
        lo, _, hi = what.partition("-")
        lo, hi = int(lo), int(hi or lo)
        if not (1 <= lo <= hi <= nlines):
            return f"line {what} outside 1..{nlines}"
        return ""
    for part in what.split("::"):
        if not re.search(r"(?<![\w])" + re.escape(part) + r"(?![\w])", text):
            return f"'{part}' does not appear in {path}"
    return ""


def check_doc(root, doc):
    errors, count = [], 0
    in_fence = False
    for n, line in enumerate(doc.read_text(errors="replace").splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for span in CODE_SPAN.findall(line):
            res = check_ref(root, span.strip(), doc)
            if res is None:
                continue
            count += 1
            if res:
                errors.append(f"{doc.relative_to(root)}:{n}: `{span}`: {res}")
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue  # URL or in-page anchor
            rel = target.split("#", 1)[0]
            if not rel:
                continue
            count += 1
            if not (doc.parent / rel).exists():
                errors.append(f"{doc.relative_to(root)}:{n}: link ({target}): no such file")
    return errors, count


HEADER_REF = re.compile(
    r"(?<![\w/.-])((?:kernel|lib|user|tools|sim|tests|bench|docs|mk)/[\w./-]*[\w-]\.(?:cc|h|S|c|py|mk|ld|sh|md))"
    r"(?::([A-Za-z_~]\w*(?:::~?[A-Za-z_]\w*)*))?"
)
SOURCE_DIRS = ("kernel", "lib", "user", "tools", "sim", "tests", "bench", "mk")
PREPROCESSOR = re.compile(r"#\s*(include|pragma|define|if|ifdef|ifndef|endif|else|elif|undef)\b")
# User programs include xv6-style paths ("kernel/types.h", "user/user.h")
# that resolve under user/include/.
INCLUDE_ROOTS = ("", "user/include/")
SOURCE_EXTS = {".cc", ".h", ".c", ".S", ".py", ".mk", ".ld", ".sh"}


def header_lines(text):
    """The file's opening comment block (after a #! line), as (number, line)."""
    out = []
    in_block = False
    for n, line in enumerate(text.splitlines(), 1):
        t = line.strip()
        if n == 1 and t.startswith("#!"):
            continue
        if in_block:
            out.append((n, line))
            if "*/" in t or t.endswith('"""'):
                break
            continue
        if t.startswith(("//", "*")) or (t.startswith("#") and not PREPROCESSOR.match(t)):
            out.append((n, line))
        elif t.startswith("/*") or t.startswith('"""'):
            out.append((n, line))
            in_block = not ("*/" in t[2:] or (t.startswith('"""') and t.count('"""') > 1))
        else:
            break
    return out


def check_headers(root):
    errors, count = [], 0
    for d in SOURCE_DIRS:
        for f in sorted((root / d).rglob("*")):
            if f.suffix not in SOURCE_EXTS or not f.is_file():
                continue
            for n, line in header_lines(f.read_text(errors="replace")):
                for m in HEADER_REF.finditer(line):
                    path = m.group(1)
                    if re.search(r"/[A-Z]+\.", path):
                        continue  # a placeholder such as user/NAME.c
                    ref = path + (":" + m.group(2) if m.group(2) else "")
                    count += 1
                    found = [r + path for r in INCLUDE_ROOTS if (root / (r + path)).is_file()]
                    if found:
                        path = found[0]
                    if not found:
                        errors.append(f"{f.relative_to(root)}:{n}: `{path}`: no such file (file header)")
                    elif m.group(2):
                        res = check_ref(root, f"{path}:{m.group(2)}", f)
                        if res:
                            errors.append(f"{f.relative_to(root)}:{n}: `{ref}`: {res} (file header)")
    return errors, count


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent)
    ap.add_argument("docs", nargs="*")
    args = ap.parse_args()
    root = pathlib.Path(args.root).resolve()
    if args.docs:
        docs = [pathlib.Path(d).resolve() for d in args.docs]
    else:
        docs = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    errors, total = [], 0
    if not args.docs:
        errors, total = check_headers(root)
    for doc in docs:
        if doc.is_file():
            e, c = check_doc(root, doc)
            errors += e
            total += c
    for e in errors:
        print(e)
    if errors:
        print(f"docs-check: {len(errors)} broken of {total} references in {len(docs)} files")
        return 1
    print(f"docs-check: {total} references in {len(docs)} files OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
