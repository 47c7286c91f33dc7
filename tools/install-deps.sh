#!/bin/sh
# tools/install-deps.sh - install what `make qemu` and `make test` need on
# Debian 12 when it is missing: the RISC-V cross compiler, QEMU, GoogleTest,
# Google Benchmark, pexpect, gnuplot, valgrind, clang-format (make test's
# format-check) and picolibc with its bare-metal RISC-V gcc (the C library
# of qcc programs: make sysroot, docs/userland.md); with the argument `dev`,
# also gdb-multiarch, clang-tidy and cppcheck; with `gfx`,
# also qemu-system-gui (make qemu-gfx's window); with `qemu`, only what
# make qemu needs (the cross compiler, QEMU, g++ for mkfs): the other checks
# start Python and cost make qemu half a second of CPU before it builds
# anything. As root it runs apt-get; otherwise
# it prints the one command to run. Never installs gcc-multilib (it would
# remove the cross compilers).
set -e
need=""
command -v riscv64-linux-gnu-g++ >/dev/null 2>&1 || need="$need g++-riscv64-linux-gnu"
command -v qemu-system-riscv64 >/dev/null 2>&1 || need="$need qemu-system-misc"
command -v g++ >/dev/null 2>&1 || need="$need g++"
if [ "${1:-}" != qemu ]; then
    [ -f /usr/include/gtest/gtest.h ] || need="$need libgtest-dev"
    [ -f /usr/include/benchmark/benchmark.h ] || need="$need libbenchmark-dev"
    python3 -c "import pexpect" >/dev/null 2>&1 || need="$need python3-pexpect"
    command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
    command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
    command -v clang-format >/dev/null 2>&1 || need="$need clang-format"
    [ -f /usr/lib/picolibc/riscv64-unknown-elf/lib/rv64imafdc/lp64d/libc.a ] || need="$need picolibc-riscv64-unknown-elf"
fi
# `install-deps.sh dev`: also the debugger and the lint/format tools.
if [ "${1:-}" = dev ]; then
    command -v gdb-multiarch >/dev/null 2>&1 || need="$need gdb-multiarch"
    command -v clang-tidy >/dev/null 2>&1 || need="$need clang-tidy"
    command -v cppcheck >/dev/null 2>&1 || need="$need cppcheck"
fi
# `install-deps.sh gfx` (make qemu-gfx): QEMU's gtk/sdl/vnc front ends.
if [ "${1:-}" = gfx ]; then
    dpkg -s qemu-system-gui >/dev/null 2>&1 || need="$need qemu-system-gui"
fi
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "installing:$need"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
else
    echo "missing packages. Run:  sudo apt-get install -y$need" >&2
    exit 1
fi
