# mk/user.mk - user/: the user library, user programs, the disk image and
# the C library port (user/libc/: picolibc, the sysroot, qcc; at the end).
#
# The table below is the one place a program is registered: a row names it
# (and its other source files), and make builds it, puts it in the image
# and asks docs/userland.md for its row (make docs-check). The source is
# user/NAME.c or user/NAME.cc and the binary is $(BUILD)/user/_NAME; mkfs
# drops the '_', so the program appears as /NAME in the image.
#
#   ULIB      the user library (start-up, system-call stubs, ulib, printf,
#             malloc, C++ run-time bits); crt0.o is linked first, separately
#   UPROGS    every built program ($(BUILD)/user/_NAME)
#   FS_IMG    the disk image: README.md, all programs, $(EXTRA_FILES)
#   IMG_PROGS the programs as the image holds them: $(BUILD)/image/_NAME,
#             a copy without debug sections (strip --strip-debug keeps the
#             symbols): a file holds at most 268 KiB (xv6's 12 direct and
#             256 indirect blocks) and _hostile's DWARF alone is over 200
#             KiB. gdb, qprof and mkbadelf read the full $(BUILD)/user/_NAME.
#             One cp and one strip make the copies of every program that
#             changed ($(BUILD)/image/.stamp), not one objcopy each.
#
# The system-call stubs are generated from lib/abi/abi.h by user/lib/usys.sh.

# A row is `UPROG_NAMES += NAME...` for programs of one source file, or
# $(call uprog,NAME,OTHER) for user/NAME.c(c) linked with user/OTHER.c(c,S)
# for each base name in OTHER (it sets UPROG_PARTS_NAME).
uprog = $(eval UPROG_NAMES += $(1))$(eval UPROG_PARTS_$(1) := $(2))

# The programs, by what they are for:
# xv6's shell and file utilities, users and permissions (docs/users-and-protection.md)
UPROG_NAMES += init sh cat echo grep kill ln ls mkdir rm wc halt sleep time
UPROG_NAMES += id whoami su chmod chown permtest
$(call uprog,usertests,usertests_fs testkit)
# scheduling (docs/scheduling.md): nice, ps, affinity, run-queue lock
# statistics, EEVDF's request size (chrt) and a periodic task's wake-up
# latency beside hogs (latbench); OSTEP chapter 8's experiments (mlfqtest)
UPROG_NAMES += nice renice sched ps hog sharetest storm lockstat taskset chrt latbench mlfqtest
# benchmarks (docs/benchmarks.md): schbench, frames, OS paths (benchos),
# disk and buffer-cache figures
UPROG_NAMES += schbench frames benchos diskstat
$(call uprog,bcstat,dumpfile)
# the recorders (docs/tracing.md, docs/profiling.md): /trace and /prof are
# links to obs (below)
$(call uprog,obs,dumpfile)
UPROG_NAMES += trace prof
# reliability (mk/tests.mk's fuzz, crashtest, ...): the fuzzer, crash workload, exhaustion,
# the hostile attacks (file system, threads, memory, signals)
$(call uprog,fuzz,fuzz_args fuzz_call fuzz_shape fuzz_thread fuzz_sig)
UPROG_NAMES += fsworkload exhaust bigbss
$(call uprog,hostile,hostile_proc hostile_mem hostile_io hostile_fs hostile_threads hostile_vm hostile_sig hostile_count)
# threads and futexes (docs/threads.md)
$(call uprog,threadtest,threadtest_proc testkit)
UPROG_NAMES += threadbench
# virtual memory (docs/memory.md): paging counters (vmstat), OSTEP chapter
# 21's memory toucher (mem)
$(call uprog,vmtest,testkit)
$(call uprog,mmaptest,testkit)
$(call uprog,vmstat,dumpfile)
UPROG_NAMES += mem
# named pipes and poll (docs/ipc.md)
UPROG_NAMES += mkfifo
$(call uprog,ipctest,testkit)
# signals, process groups and job control (docs/signals.md)
$(call uprog,sigtest,sigtest_regs sigtest_block testkit)
$(call uprog,jobtest,jobtest_stop testkit)
# Built for a test only, not put in the image: the FP checks
# (_fptest below, tests/guest/fp_tests.py)
UPROG_PARTS_fptest := fptest_regs

UPROGS = $(patsubst %,$(BUILD)/user/_%,$(sort $(UPROG_NAMES)))
FS_IMG := $(BUILD)/fs.img
EXTRA_FILES ?=
IMG_PROGS = $(patsubst $(BUILD)/user/_%,$(BUILD)/image/_%,$(UPROGS))
FS_FILES = $(wildcard README.md) $(IMG_PROGS) $(EXTRA_FILES)

U_EXTRA_FLAGS := -fno-tree-loop-distribute-patterns
# Programs are linked by ld itself, not through gcc (which starts collect2
# and then ld: two processes more per program, for the same bytes); gcc is
# asked once for libgcc's path, when a link needs it.
U_LD := $(CROSS)ld
U_LDFLAGS := -static --build-id=none --no-warn-rwx-segments -T user/user.ld
U_LIBGCC = $(eval U_LIBGCC := $$(shell $(U_CC) $(U_ARCH) -print-libgcc-file-name))$(U_LIBGCC)

ULIB_SRCS := user/lib/start.c user/lib/ulib.c user/lib/printf.c user/lib/umalloc.c user/lib/cxxrt.cc user/lib/passwd.c \
  user/lib/thread.c
ULIB_OBJS := $(patsubst %,$(BUILD)/%.o,$(basename $(ULIB_SRCS))) $(BUILD)/user/lib/usys.o
ULIB := $(BUILD)/user/libulib.a
UCRT0 := $(BUILD)/user/lib/crt0.o

$(BUILD)/user/lib/usys.S: lib/abi/abi.h user/lib/usys.sh | $$(@D)/.
	$(call say,GEN,$@)sh user/lib/usys.sh $< > $@.tmp && mv $@.tmp $@

$(BUILD)/user/lib/usys.o: $(BUILD)/user/lib/usys.S
	$(call say,UAS,$<)$(U_CC) $(U_ARCH) -c $< -o $@

$(BUILD)/user/%.o: user/%.S | $$(@D)/.
	$(call say,UAS,$<)$(U_CC) $(U_ARCH) -I. -MMD -MP -c $< -o $@

$(BUILD)/user/%.o: user/%.c | $$(@D)/.
	$(call say,UCC,$<)$(U_CC) $(U_CFLAGS) $(U_EXTRA_FLAGS) -c $< -o $@

$(BUILD)/user/%.o: user/%.cc | $$(@D)/.
	$(call say,UCXX,$<)$(U_CXX) $(U_CXXFLAGS) $(U_EXTRA_FLAGS) -c $< -o $@

$(ULIB): $(ULIB_OBJS)
	$(call say,UAR,$@)rm -f $@ && $(CROSS)ar rcs $@ $^

# A program's other files: UPROG_PARTS_NAME (the table above). (A
# function, because a literal % in a pattern rule's prerequisites would be
# replaced by the stem.)
uprog_parts = $(patsubst %,$(BUILD)/user/%.o,$(UPROG_PARTS_$(1)))
$(BUILD)/user/_%: $(BUILD)/user/%.o $$(call uprog_parts,$$*) $(UCRT0) $(ULIB) user/user.ld
	$(call say,ULD,$@)$(U_LD) $(U_LDFLAGS) -o $@ $(UCRT0) $< $(call uprog_parts,$*) $(ULIB) $(U_LIBGCC)

# The image's copies of the programs that changed ($?). A symbolic link
# (/trace -> obs, UPROG_LINKS) stays a link, which mkfs makes a hard link.
IMG_STAMP := $(BUILD)/image/.stamp
img_strip = $(patsubst $(BUILD)/user/%,$(BUILD)/image/%,$(filter-out $(UPROG_LINKS),$(1)))
$(IMG_STAMP): $$(UPROGS) | $$(@D)/.
	$(call say,STRIP,$(BUILD)/image/)cp -P $? $(@D)/ $(if $(call img_strip,$?),&& $(CROSS)strip --strip-debug $(call img_strip,$?)) \
	  && touch $@

# Rebuild the image when the list of files changes (e.g. EXTRA_FILES).
$(BUILD)/fs.list: user-fs-list-force | $$(@D)/.
	@echo '$(FS_FILES)' | cmp -s - $@ || echo '$(FS_FILES)' > $@

$(FS_IMG): $(BUILD)/mkfs $(BUILD)/fs.list $(IMG_STAMP) $$(filter-out $$(IMG_PROGS),$$(FS_FILES))
	$(call say,MKFS,$@)$(BUILD)/mkfs $@ $(FS_FILES)

.PHONY: user user-fs-list-force
user: $$(UPROGS)

ALL_TARGETS += $(FS_IMG)

.PRECIOUS: $(BUILD)/user/%.o
-include $(wildcard $(BUILD)/user/*.d $(BUILD)/user/lib/*.d)

# /trace and /prof, the recorders (docs/tracing.md, docs/profiling.md), are
# links to obs: symbolic links here, hard links in the image (tools/mkfs.cc).
UPROG_LINKS := $(BUILD)/user/_trace $(BUILD)/user/_prof
$(UPROG_LINKS): $(BUILD)/user/_obs
	$(call say,LN,$@)ln -sf $(notdir $<) $@

# build/user/_fptest: the FP test program (xv6 library, D instructions, lp64
# ABI); built only for tests/guest/fp_tests.py (GUEST_DEPS), not put in
# build/fs.img.
FPTEST := $(BUILD)/user/_fptest
$(BUILD)/user/fptest.o: U_EXTRA_FLAGS += -march=rv64imafdc_zicsr

# --- the C library -----------------------------------------------------------
# picolibc (Debian's picolibc-riscv64-unknown-elf, rv64imafdc/lp64d) with
# quanta's glue in user/libc/ (POSIX threads included: pthread.h,
# semaphore.h), a sysroot and the compiler wrapper qcc.
#
#   make sysroot         build/sysroot/{bin/qcc,include,lib}: picolibc's
#                        headers and libc.a/libm.a, libquanta.a (the glue),
#                        crt0.o and quanta.ld (docs/userland.md)
# Programs built with qcc: the textbook tests (mk/tests.mk).
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
$(BUILD)/libc/sysnum.h: lib/abi/abi.h | $$(@D)/.
	$(call say,GEN,$@)sed -n 's/^ *SYS_\([a-z_0-9]*\) *= *\([0-9][0-9]*\),.*/#define QSYS_\1 \2/p' $< > $@.tmp && mv $@.tmp $@

# abi_check.c includes the kernel's ABI header instead of picolibc's.
$(BUILD)/libc/abi_check.o: LIBC_CFLAGS := $(LIBC_ARCH) $(LIBC_POSIX) -O2 -Wall -I. -I$(BUILD)/libc -MMD -MP
$(BUILD)/libc/%.o: user/libc/%.c $(BUILD)/libc/sysnum.h | $$(@D)/.
	$(call say,LIBCC,$<)$(LIBC_CC) $(LIBC_CFLAGS) -c $< -o $@

$(BUILD)/libc/crt0.o: user/libc/crt0.S | $$(@D)/.
	$(call say,LIBCAS,$<)$(LIBC_CC) $(LIBC_ARCH) -c $< -o $@

$(LIBQUANTA): $(LIBC_OBJS) | $$(@D)/.
	$(call say,AR,$@)rm -f $@ && riscv64-unknown-elf-ar rcs $@ $^

$(SYSROOT)/lib/crt0.o: $(BUILD)/libc/crt0.o | $$(@D)/.
	@cp $< $@
$(SYSROOT)/lib/quanta.ld: user/libc/quanta.ld | $$(@D)/.
	@cp $< $@
# POSIX threads are in libquanta.a; -lpthread finds an empty archive.
$(SYSROOT)/lib/libpthread.a: | $$(@D)/.
	$(call say,AR,$@)rm -f $@ && riscv64-unknown-elf-ar rcs $@
$(SYSROOT)/lib/libc.a $(SYSROOT)/lib/libm.a: $(SYSROOT)/lib/%: $(PICOLIBC_LIB)/% | $$(@D)/.
	@cp $< $@
# picolibc's headers, then quanta's over them (user/libc/include: the
# headers picolibc leaves to the system, such as sys/dirent.h).
$(SYSROOT)/include/.stamp: $(PICOLIBC)/include/picolibc.h $(wildcard user/libc/include/*.h user/libc/include/*/*.h) | $$(@D)/.
	$(call say,COPY,$(SYSROOT)/include)cp -r $(PICOLIBC)/include/. $(SYSROOT)/include/ && \
	  cp -r user/libc/include/. $(SYSROOT)/include/ && touch $@
$(QCC): user/libc/qcc.sh | $$(@D)/.
	$(call say,GEN,$@)cp $< $@ && chmod +x $@

# make sysroot installs what is missing first (picolibc: tools/install-deps.sh).
.PHONY: sysroot sysroot-files
sysroot:
	@tools/install-deps.sh
	@$(MAKE) --no-print-directory sysroot-files
sysroot-files: $(SYSROOT_FILES)

-include $(wildcard $(BUILD)/libc/*.d)
