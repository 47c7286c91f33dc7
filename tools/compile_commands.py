#!/usr/bin/env python3
"""tools/compile_commands.py - compile_commands.json from the build's own rules.

Usage: tools/compile_commands.py OUT MAKE-ARGS...

Runs `make -Bkn V=1 MAKE-ARGS...` (print every command of a full build,
run none: a second or two), keeps each compiler call that has `-c SOURCE`,
and writes the JSON compilation database clangd reads: one entry per
(source, output), with the exact flags the build uses (the kernel's cross
flags, the user programs', the host tools' and the sanitized tests'). A
source built in two flavours (plain and sanitized host objects) gets both
entries; clangd uses the first. The sources of a unity build (a host test
binary's files, compiled as one unit: the others through -include) get one
entry each, with the unit's flags. `make compile-commands` (mk/dev.mk) calls
this; nothing is compiled, so it is as fast as make can parse its rules.
"""
import json
import os
import shlex
import subprocess
import sys

SOURCE_EXTS = (".c", ".cc", ".cpp", ".S")


def compile_entries(lines, directory):
    entries = []
    for line in lines:
        try:
            words = shlex.split(line)
        except ValueError:
            continue  # not a simple command (an echo with odd quoting, say)
        if "-c" not in words or "-o" not in words:
            continue
        # Skip wrappers (ccache, time ...): the compiler is the first word
        # that looks like one; drop a leading `cd DIR &&` never used here.
        while words and not ("gcc" in words[0] or "g++" in words[0] or "clang" in words[0] or "cc" == words[0]):
            words = words[1:]
        if not words:
            continue
        src = words[words.index("-c") + 1] if words.index("-c") + 1 < len(words) else ""
        if not src.endswith(SOURCE_EXTS):
            continue
        out = words[words.index("-o") + 1]
        # A unity build (mk/tests.mk's host_test) compiles several sources as
        # one unit: the last with -c, the others with -include. Each gets its
        # own entry, compiled alone with the unit's flags.
        members, args = [], []
        i = 0
        while i < len(words):
            if words[i] == "-include" and i + 1 < len(words) and words[i + 1].endswith(SOURCE_EXTS):
                members.append(words[i + 1])
                i += 2
                continue
            args.append(words[i])
            i += 1
        c = args.index("-c") + 1
        for member in members + [src]:
            entries.append({"directory": directory, "arguments": args[:c] + [member] + args[c + 1:],
                            "file": member, "output": out})
    return entries


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out_path = sys.argv[1]
    make = os.environ.get("MAKE", "make")
    cmd = [make, "--no-print-directory", "-Bkn", "V=1"] + sys.argv[2:]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    lines = [line.strip() for line in p.stdout.splitlines()]
    entries = compile_entries(lines, os.getcwd())
    if not entries:
        print("compile_commands.py: make printed no compiler calls:\n" + p.stderr[-2000:], file=sys.stderr)
        return 1
    with open(out_path + ".tmp", "w") as f:
        json.dump(entries, f, indent=1)
    os.replace(out_path + ".tmp", out_path)
    print("%s: %d entries (%d sources)" % (out_path, len(entries), len({e["file"] for e in entries})))
    return 0


if __name__ == "__main__":
    sys.exit(main())
