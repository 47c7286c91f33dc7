#!/usr/bin/env python3
"""tools/userland_check.py - every user program is documented in docs/userland.md.

Usage: tools/userland_check.py NAME...   (make docs-check passes UPROG_NAMES)

docs/userland.md's program table has one row per program whose first cell
starts with the program's name in backticks (`| `ls [path...]` | ...`). A
name given here with no row, or a row naming no program given here, is
reported as `docs/userland.md: ...` and the exit status is 1.
"""
import pathlib
import re
import sys

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "userland.md"
ROW = re.compile(r"^\|\s*`([A-Za-z_][\w-]*)")


def documented(text):
    """Program names of the rows of the table under the `## Programs` heading."""
    names, in_section = set(), False
    for line in text.splitlines():
        if line.startswith("## "):
            in_section = line.strip() == "## Programs"
            continue
        m = ROW.match(line) if in_section else None
        if m:
            names.add(m.group(1))
    return names


def main():
    programs = set(sys.argv[1:])
    if not programs:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rows = documented(DOC.read_text())
    errors = ["docs/userland.md: program `%s` (UPROG_NAMES) has no row in the Programs table" % p
              for p in sorted(programs - rows)]
    errors += ["docs/userland.md: the Programs table documents `%s`, which is not in UPROG_NAMES" % r
               for r in sorted(rows - programs)]
    for e in errors:
        print(e)
    if errors:
        return 1
    print("userland-check: all %d programs documented" % len(programs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
