#!/usr/bin/env python3
"""tools/docs_check.py - check that the docs still point at real code.

Scans README.md and docs/**/*.md for code references written in backticks:

    `kernel/proc/sched.cc:scheduler`        file + function (or any identifier)
    `kernel/trap.cc:usertrap`               ...
    `lib/sched/eevdf.h:Eevdf::pick`         qualified names: every part must appear
    `kernel/arch/riscv/entry.S:12`          file + line
    `kernel/fs/log.cc:40-75`                file + line range

    `kernel/obs/recorder.h`                 a file alone
    `sleep()`                               a function (or any identifier)

and for relative Markdown links ([text](other.md), ![plot](img/x.png)).
It also reads every comment of every source file (kernel/, lib/, user/,
tools/, sim/, tests/, bench/, mk/) and checks every repository path it
names, with or without a `:identifier`, the same way, and every `name()`
it names: a comment that names a file or a function that was renamed or
deleted is caught like a stale doc.

A reference resolves when the file exists (relative to the repository root),
the identifier appears in it as a whole word, and a line number is within the
file. A `name()` resolves when name is an identifier in the tree's code
(comments and docs do not count: a name only another stale comment still
uses is stale too). Names and paths that are real but not in this tree
(Linux's functions, a file an exercise has you create) are listed in
tools/docs_check.allow, one per line with the reason after a '#'.
Prints every broken reference as `doc:line: reference: reason` and exits
1 if there is any; otherwise prints a one-line summary and exits 0.
--self-test checks the checker on a small tree of its own (run by make
docs-check first).

Usage: tools/docs_check.py [--root DIR] [--self-test] [FILE.md ...]
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
# `path` alone, and `name()` (qualified names allowed; the last part is
# the one looked up).
PLAIN_PATH = re.compile(r"^((?:[\w.-]+/)+[\w.-]+\.(?:cc|h|S|c|py|mk|ld|sh|md|txt))$")
CALL_SPAN = re.compile(r"^((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*)\(\)$")
CALL_IN_TEXT = re.compile(r"(?<![\w.>$-])((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*)\(\)")
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


def call_name(ref):
    """`q::Foo::bar` -> "bar", the part looked up."""
    return ref.split("::")[-1].lstrip("~")


def check_call(ref, tree):
    """A `name()` reference: "" when it resolves, else the reason."""
    name = call_name(ref)
    if name in tree.identifiers or name in tree.allowed:
        return ""
    return f"no function or identifier '{name}' in the tree's code (tools/docs_check.allow lists outside names)"


def check_path(root, path, tree, near=None):
    """A plain path: "" when the file exists (from the root, user/include/, or beside `near`)."""
    if re.search(r"/[A-Z]+\.", path) or path in tree.allowed:
        return ""  # a placeholder such as user/NAME.c, or listed as outside the tree
    if path.startswith("build/"):
        return ""  # made by the build or a make target (build/trace/replay.txt): absent from a fresh clone
    roots = [root / r for r in INCLUDE_ROOTS] + ([near] if near else [])
    return "" if any((r / path).is_file() for r in roots) else f"{path}: no such file"


def check_doc(root, doc, tree):
    errors, count = [], 0
    in_fence = False
    for n, line in enumerate(doc.read_text(errors="replace").splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for span in CODE_SPAN.findall(line):
            target = span.strip()
            res = check_ref(root, target, doc)
            if res is None and PLAIN_PATH.match(target):
                res = check_path(root, target, tree, doc.parent)
            elif res is None and CALL_SPAN.match(target):
                res = check_call(CALL_SPAN.match(target).group(1), tree)
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


def split_comments(text, suffix):
    """(the code with comments blanked, [(line number, comment text)]).
    C-like files: // and /* */ (string literals skipped), and in assembly
    (.S) lines starting with a # that is not a preprocessor directive;
    Python, make and shell: # to the end of the line (a Python docstring is
    code here)."""
    comments = []
    if suffix == ".S":
        lines = text.split("\n")
        for n, line in enumerate(lines, 1):
            t = line.strip()
            if t.startswith("#") and not PREPROCESSOR.match(t):
                comments.append((n, line))
                lines[n - 1] = ""
        code, more = split_comments("\n".join(lines), ".c")
        return code, comments + more
    if suffix in (".py", ".mk", ".sh"):
        code = []
        for n, line in enumerate(text.splitlines(), 1):
            at = line.find("#") if suffix != ".py" else py_comment_start(line)
            if at >= 0 and not (suffix != ".py" and at > 0 and line[at - 1] == "\\"):
                comments.append((n, line[at:]))
                line = line[:at]
            code.append(line)
        return "\n".join(code), comments
    out, i, n, end = [], 0, 1, len(text)
    while i < end:
        if text.startswith("//", i) or text.startswith("/*", i):
            if text[i + 1] == "/":  # to the end of the line
                close = text.find("\n", i)
            else:  # past the */
                close = text.find("*/", i + 2)
                close = close + 2 if close >= 0 else -1
            close = end if close < 0 else close
            for k, part in enumerate(text[i:close].split("\n")):
                comments.append((n + k, part))
            n += text.count("\n", i, close)
            out.append("\n" * text.count("\n", i, close))
            i = close
        elif text[i] in "\"'":  # a literal, to its close or the line's end (C++'s 1'000 too)
            j = i + 1
            while j < end and text[j] not in (text[i], "\n"):
                j += 2 if text[j] == "\\" else 1
            n += text.count("\n", i, j + 1)
            out.append(text[i : j + 1])
            i = j + 1
        else:
            n += text[i] == "\n"
            out.append(text[i])
            i += 1
    return "".join(out), comments


def py_comment_start(line):
    """Where a Python line's # comment starts (outside quotes), or -1."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == "#":
            return i
    return -1


class Tree:
    """What the checks look names up in: every identifier in the code of
    the source files (comments left out), their comments, and the names
    tools/docs_check.allow lists as real but outside the tree."""

    def __init__(self, root, allow_file=None):
        self.identifiers, self.comments, self.allowed = set(), [], set()
        for d in SOURCE_DIRS:
            for f in sorted((root / d).rglob("*")):
                if f.suffix not in SOURCE_EXTS or not f.is_file():
                    continue
                code, comments = split_comments(f.read_text(errors="replace"), f.suffix)
                self.identifiers.update(re.findall(r"[A-Za-z_]\w*", code))
                self.comments.append((f, comments))
        allow_file = allow_file or root / "tools" / "docs_check.allow"
        if allow_file.is_file():
            for line in allow_file.read_text().splitlines():
                word = line.split("#", 1)[0].strip()
                if word:
                    self.allowed.add(word)


def check_sources(root, tree):
    """Every path and `name()` in every source file's comments."""
    errors, count = [], 0
    for f, comments in tree.comments:
        for n, line in comments:
            for m in HEADER_REF.finditer(line):
                path = m.group(1)
                count += 1
                res = check_path(root, path, tree)
                if not res and m.group(2):
                    found = next(r + path for r in INCLUDE_ROOTS if (root / (r + path)).is_file())
                    res = check_ref(root, f"{found}:{m.group(2)}", f)
                if res:
                    ref = path + (":" + m.group(2) if m.group(2) else "")
                    errors.append(f"{f.relative_to(root)}:{n}: `{ref}`: {res} (comment)")
            for m in CALL_IN_TEXT.finditer(line):
                count += 1
                res = check_call(m.group(1), tree)
                if res:
                    errors.append(f"{f.relative_to(root)}:{n}: `{m.group(1)}()`: {res} (comment)")
    return errors, count


def run_checks(root, docs, check_tree):
    tree = Tree(root)
    errors, total = check_sources(root, tree) if check_tree else ([], 0)
    for doc in docs:
        if doc.is_file():
            e, c = check_doc(root, doc, tree)
            errors += e
            total += c
    return errors, total


SELF_TEST_FILES = {
    "kernel/a.cc": "// kernel/a.cc - see kernel/b.h:helper, kernel/gone.h and helper(), vanished(), outside().\n"
    "// \"kernel/quoted.h\" in a comment is a path too; user/NAME.c is a placeholder.\n"
    "void helper() { const char* s = \"stale_only_in_a_string()\"; }\n",
    "kernel/b.h": "/* kernel/b.h - declares helper().\n * only_in_comments() is named by comments alone. */\n"
    "void helper();\n",
    "tools/t.py": "# tools/t.py - calls run() (a Python function) and lost().\ndef run():\n    return '#not_a_comment()'\n",
    "mk/m.mk": "# mk/m.mk - builds tools/t.py and mk/none.mk.\nall:\n",
    "kernel/e.S": "# kernel/e.S - calls helper() and stale_asm(); see kernel/absent.S.\n#include \"kernel/b.h\"\n"
    "call helper // helper() is real, lost_too() is not\n",
    "docs/d.md": "`kernel/a.cc:helper` `kernel/a.cc` `kernel/none.cc` `helper()` `only_in_comments()` "
    "`outside()` `lib/made_by_reader.h` [b](b.md)\n",
    "docs/b.md": "# fine\n",
    "tools/docs_check.allow": "outside  # a name from outside the tree\nlib/made_by_reader.h  # an exercise's file\n",
}
SELF_TEST_WANT = [
    "docs/d.md:1: `kernel/none.cc`",
    "docs/d.md:1: `only_in_comments()`",
    "kernel/a.cc:1: `kernel/gone.h`",
    "kernel/a.cc:1: `vanished()`",
    "kernel/a.cc:2: `kernel/quoted.h`",
    "kernel/b.h:2: `only_in_comments()`",
    "kernel/e.S:1: `kernel/absent.S`",
    "kernel/e.S:1: `stale_asm()`",
    "kernel/e.S:3: `lost_too()`",
    "mk/m.mk:1: `mk/none.mk`",
    "tools/t.py:1: `lost()`",
]


def self_test():
    """The checks on SELF_TEST_FILES find exactly SELF_TEST_WANT."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="docs-check-") as tmp:
        root = pathlib.Path(tmp)
        for name, text in SELF_TEST_FILES.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        errors, _ = run_checks(root, [root / "docs" / "d.md"], True)
    got = sorted(e.split(": ", 2)[0] + ": " + e.split(": ", 2)[1] for e in errors)
    if got != SELF_TEST_WANT:
        print("docs-check self-test failed:\n  want %s\n  got  %s" % (SELF_TEST_WANT, got))
        return 1
    print("docs-check self-test: %d broken references found, as planted" % len(got))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=pathlib.Path(__file__).resolve().parent.parent)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("docs", nargs="*")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    root = pathlib.Path(args.root).resolve()
    if args.docs:
        docs = [pathlib.Path(d).resolve() for d in args.docs]
    else:
        docs = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    errors, total = run_checks(root, docs, not args.docs)
    for e in errors:
        print(e)
    if errors:
        print(f"docs-check: {len(errors)} broken of {total} references in {len(docs)} files")
        return 1
    print(f"docs-check: {total} references in {len(docs)} files OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
