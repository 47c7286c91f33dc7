# mk/libc.mk - user floating point checks, and the C library port: picolibc
# (Debian's picolibc-riscv64-unknown-elf, rv64imafdc/lp64d) with quanta's
# glue in user/libc/ (POSIX threads included: pthread.h, semaphore.h), a
# sysroot and the compiler wrapper qcc.
#
#   make sysroot         build/sysroot/{bin/qcc,include,lib}: picolibc's
#                        headers and libc.a/libm.a, libquanta.a (the glue),
#                        crt0.o and quanta.ld (docs/userland.md)
#   build/libc-tests/_*  the textbook test programs (tests/libc/*.c), built
#                        with qcc only for tests/guest/libc_tests.py
#
#   build/user/_fptest   the FP test program (xv6 library, D instructions,
#                        lp64 ABI); built only for tests/guest/fp_tests.py
#                        (GUEST_DEPS), not put in build/fs.img
#   check-kernel-fp      the kernel image has FP instructions only in
#                        kernel/arch/riscv/fpu.S's routines (fp_tests.py
#                        runs the same check first, so make test-host
#                        needs no kernel)

FPTEST := $(BUILD)/user/_fptest
UPROG_PARTS_fptest := fptest_regs
$(BUILD)/user/fptest.o: U_EXTRA_FLAGS += -march=rv64imafdc_zicsr
GUEST_DEPS += $(FPTEST)
GUEST_SUITES += tests/guest/fp_tests.py 1 3

.PHONY: check-kernel-fp
check-kernel-fp: $(KERNEL)
	@python3 tools/check_kernel_fp.py $(K_OBJDUMP) $(KERNEL)

# --- the C library ---------------------------------------------------------
LIBC_CC ?= riscv64-unknown-elf-gcc
PICOLIBC ?= /usr/lib/picolibc/riscv64-unknown-elf
PICOLIBC_LIB := $(PICOLIBC)/lib/rv64imafdc/lp64d
SYSROOT := $(BUILD)/sysroot
QCC := $(SYSROOT)/bin/qcc
LIBC_ARCH := -march=rv64imafdc_zicsr_zifencei -mabi=lp64d -mcmodel=medany -ftls-model=local-exec
# As in qcc (user/libc/qcc.sh): the POSIX options quanta has.
LIBC_POSIX := -D__quanta__ -D_POSIX_TIMERS=1 -D_POSIX_MONOTONIC_CLOCK=200112L -D_POSIX_CPUTIME=1 \
  -D_POSIX_THREAD_CPUTIME=1 -D_POSIX_THREADS=200112L
LIBC_CFLAGS := $(LIBC_ARCH) $(LIBC_POSIX) -O2 -g -Wall -Wextra -Werror=implicit-function-declaration \
  -isystem user/libc/include -isystem $(PICOLIBC)/include -I$(BUILD)/libc -MMD -MP
LIBC_SRCS := $(wildcard user/libc/*.c)
LIBC_OBJS := $(patsubst user/libc/%.c,$(BUILD)/libc/%.o,$(LIBC_SRCS))
LIBQUANTA := $(SYSROOT)/lib/libquanta.a
SYSROOT_FILES := $(LIBQUANTA) $(SYSROOT)/lib/crt0.o $(SYSROOT)/lib/quanta.ld $(SYSROOT)/lib/libc.a \
  $(SYSROOT)/lib/libm.a $(SYSROOT)/lib/libpthread.a $(SYSROOT)/include/.stamp $(QCC)

# QSYS_name N for every SYS_name = N of lib/abi/abi.h (sys.h).
$(BUILD)/libc/sysnum.h: lib/abi/abi.h
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)sed -n 's/^ *SYS_\([a-z_0-9]*\) *= *\([0-9][0-9]*\),.*/#define QSYS_\1 \2/p' $< > $@.tmp && mv $@.tmp $@

# abi_check.c includes the kernel's ABI header instead of picolibc's.
$(BUILD)/libc/abi_check.o: LIBC_CFLAGS := $(LIBC_ARCH) $(LIBC_POSIX) -O2 -Wall -I. -I$(BUILD)/libc -MMD -MP
$(BUILD)/libc/%.o: user/libc/%.c $(BUILD)/libc/sysnum.h
	@mkdir -p $(dir $@)
	$(call say,LIBCC,$<)$(LIBC_CC) $(LIBC_CFLAGS) -c $< -o $@

$(BUILD)/libc/crt0.o: user/libc/crt0.S
	@mkdir -p $(dir $@)
	$(call say,LIBCAS,$<)$(LIBC_CC) $(LIBC_ARCH) -c $< -o $@

$(LIBQUANTA): $(LIBC_OBJS)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && riscv64-unknown-elf-ar rcs $@ $^

$(SYSROOT)/lib/crt0.o: $(BUILD)/libc/crt0.o
	@mkdir -p $(dir $@)
	@cp $< $@
$(SYSROOT)/lib/quanta.ld: user/libc/quanta.ld
	@mkdir -p $(dir $@)
	@cp $< $@
# POSIX threads are in libquanta.a; -lpthread finds an empty archive.
$(SYSROOT)/lib/libpthread.a:
	@mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && riscv64-unknown-elf-ar rcs $@
$(SYSROOT)/lib/libc.a $(SYSROOT)/lib/libm.a: $(SYSROOT)/lib/%: $(PICOLIBC_LIB)/%
	@mkdir -p $(dir $@)
	@cp $< $@
# picolibc's headers, then quanta's over them (user/libc/include: the
# headers picolibc leaves to the system, such as sys/dirent.h).
$(SYSROOT)/include/.stamp: $(PICOLIBC)/include/picolibc.h $(wildcard user/libc/include/*.h user/libc/include/*/*.h)
	@mkdir -p $(SYSROOT)/include
	$(call say,COPY,$(SYSROOT)/include)cp -r $(PICOLIBC)/include/. $(SYSROOT)/include/ && \
	  cp -r user/libc/include/. $(SYSROOT)/include/ && touch $@
$(QCC): user/libc/qcc.sh
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)cp $< $@ && chmod +x $@

# make sysroot installs what is missing first (picolibc: tools/install-deps.sh).
.PHONY: sysroot sysroot-files
sysroot:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory sysroot-files
sysroot-files: $(SYSROOT_FILES)

-include $(wildcard $(BUILD)/libc/*.d)

# --- textbook programs built with qcc, for tests/guest/libc_tests.py --------
LIBC_TEST_NAMES := wordfreq numstat timing fileio spawn lsdir ipcpoll mman signals catch
LIBC_TESTS := $(patsubst %,$(BUILD)/libc-tests/_%,$(LIBC_TEST_NAMES))
$(BUILD)/libc-tests/_%: tests/libc/%.c $(SYSROOT_FILES)
	@mkdir -p $(dir $@)
	$(call say,QCC,$<)$(QCC) -O2 -Wall -Wextra -Werror=implicit-function-declaration $(QCC_FLAGS) -o $@ $< -lm
GUEST_DEPS += $(LIBC_TESTS)
GUEST_SUITES += tests/guest/libc_tests.py 1 3

# POSIX threads: tests/libc/pthreads.c, the benchmarks pthreadbench.c and
# pschbench.c (docs/benchmarks.md) and the OSTEP concurrency programs of
# tests/libc/ostep/ (docs/concurrency.md), for tests/guest/pthread_tests.py.
OSTEP_CONC_NAMES := counter locks cvjoin pc sem vecadd
PTHREAD_TESTS := $(BUILD)/libc-tests/_pthreads $(BUILD)/libc-tests/_pthreadbench $(BUILD)/libc-tests/_pschbench \
  $(patsubst %,$(BUILD)/libc-tests/_%,$(OSTEP_CONC_NAMES))
$(PTHREAD_TESTS): QCC_FLAGS := -pthread
$(BUILD)/libc-tests/_%: tests/libc/ostep/%.c tests/libc/ostep/common.h $(SYSROOT_FILES)
	@mkdir -p $(dir $@)
	$(call say,QCC,$<)$(QCC) -O2 -Wall -Wextra -Werror=implicit-function-declaration -pthread -o $@ $<
GUEST_DEPS += $(PTHREAD_TESTS)
GUEST_SUITES += tests/guest/pthread_tests.py 1 3 8
# make bench-os also runs tests/libc/pthreadbench.c (bench/os_bench.py).
bench-os: $(BUILD)/libc-tests/_pthreadbench $(BUILD)/mkfs
