#!/bin/sh
# qcc - compile and link C programs for quanta (installed as
# build/sysroot/bin/qcc by `make sysroot`; docs/userland.md).
#
#   qcc [gcc options] file.c... [-o prog]
#
# A wrapper over the bare-metal RISC-V gcc (riscv64-unknown-elf-gcc, or
# $QCC_CC) for rv64gc with the lp64d ABI, with the sysroot next to this
# script: picolibc's headers and libraries (libc.a, libm.a) and quanta's
# glue (libquanta.a: system calls, start-up, stdio streams). Linking adds
# crt0.o, the layout quanta.ld, the glue and the libraries, statically;
# the result runs on quanta (`make qemu EXTRA_FILES=prog`). -pthread is
# accepted (it defines _REENTRANT; the thread library comes later).
# Compiling only (-c, -S, -E, -M, -MM) adds no link options. Without -g
# the link drops debug sections (picolibc's alone would make a program
# larger than the file system's largest file, 268 KiB). The link asks
# for sbrk first (-u): libquanta's, over the system call, must win over
# picolibc's fixed-arena one, which malloc would pull in otherwise.
root=$(cd "$(dirname "$0")/.." && pwd)
cc=${QCC_CC:-riscv64-unknown-elf-gcc}
link=1
strip=-Wl,--strip-debug
for a do
    shift
    case $a in
        -pthread) set -- "$@" -D_REENTRANT ;;
        -g*) strip=; set -- "$@" "$a" ;;
        -c | -S | -E | -M | -MM) link=0; set -- "$@" "$a" ;;
        *) set -- "$@" "$a" ;;
    esac
done
arch="-march=rv64imafdc_zicsr_zifencei -mabi=lp64d -mcmodel=medany -ftls-model=local-exec"
# The POSIX options quanta provides, which picolibc's headers announce only
# for the systems they know (CLOCK_MONOTONIC, the CPU-time clocks;
# _POSIX_THREADS declares sched_yield and, for the coming thread library,
# pthread.h).
arch="$arch -D__quanta__ -D_POSIX_TIMERS=1 -D_POSIX_MONOTONIC_CLOCK=200112L -D_POSIX_CPUTIME=1"
arch="$arch -D_POSIX_THREAD_CPUTIME=1 -D_POSIX_THREADS=200112L"
if [ $link = 0 ]; then
    exec "$cc" $arch -isystem "$root/include" "$@"
fi
exec "$cc" $arch -isystem "$root/include" -static -nostdlib -nostartfiles \
    -T "$root/lib/quanta.ld" "$root/lib/crt0.o" "$@" \
    -L"$root/lib" -Wl,-u,sbrk -Wl,--wrap=fdopen -Wl,--wrap=fclose -Wl,--gc-sections \
    -Wl,--build-id=none -Wl,--no-warn-rwx-segments $strip \
    -Wl,--start-group -lquanta -lc -lm -lgcc -Wl,--end-group
