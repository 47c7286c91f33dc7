# Developer tools: documentation check, editor support, formatting, linting.
#   make docs-check        every `path:function` / `path:line` / `path` /
#                          `name()` in README.md and docs/**/*.md, and every path
#                          and name() in a source file's comments, resolves
#                          (tools/docs_check.py, after its self-test; outside
#                          names: tools/docs_check.allow), and every program in
#                          UPROG_NAMES has its row in docs/userland.md
#                          (tools/userland_check.py); in make test
#   make exercises-check   do docs/exercises/*.md's steps on a scratch copy of the
#                          tree and check each builds and behaves as the page
#                          says (tools/exercise_check.py); in make test
#   make compile-commands  compile_commands.json for clangd from the build's
#                          own rules, in seconds (kernel with the cross flags,
#                          host code with the host flags, the C library port
#                          with picolibc's); builds nothing
#   make format            clang-format -i over our C/C++ sources (.clang-format)
#   make format-check      lists the files clang-format would change and fails
#                          if there is any; in make test
#   make lint              clang-tidy (.clang-tidy) and cppcheck over kernel/,
#                          lib/, tools/, sim/; fails on any finding
# Debugging: make qemu-gdb (mk/qemu.mk), then gdb-multiarch -x tools/gdbinit.

CLANG_FORMAT ?= clang-format
CLANG_TIDY ?= clang-tidy
CPPCHECK ?= cppcheck

HOST_CHECKS += docs-check format-check exercises-check

# Our sources (generated files live under build/ and are never formatted).
FORMAT_SRCS = $(shell find kernel lib user tools sim tests bench \
  -name '*.cc' -o -name '*.h' -o -name '*.c' 2>/dev/null | sort)
LINT_KERNEL_SRCS = $(shell find kernel -name '*.cc' | sort)
LINT_LIB_SRCS = $(shell find lib -name '*.cc' | sort)
LINT_HOST_SRCS = $(shell find tools sim -name '*.cc' | sort)

# clang cannot take gcc's RISC-V flags verbatim; this is the same language
# and target (rv64imac, freestanding, no exceptions/RTTI) in clang's spelling.
LINT_K_FLAGS := --target=riscv64-unknown-elf -march=rv64imac -mabi=lp64 -mcmodel=medany \
  -std=c++20 -ffreestanding -fno-exceptions -fno-rtti -nostdinc++ -I.
LINT_HOST_FLAGS := -std=c++20 -I.

.PHONY: docs-check exercises-check compile-commands format format-check lint lint-tidy lint-cppcheck

docs-check:
	@python3 tools/docs_check.py --self-test
	@python3 tools/docs_check.py
	@python3 tools/userland_check.py $(sort $(UPROG_NAMES))

# Each exercise in docs/exercises/ done on a scratch copy of the tree, from
# the page's own steps and code (tools/exercise_check.py): a page that went
# stale fails here. Builds in $(BUILD)/exercise-check/NN (kept on failure),
# starting from $(BUILD)'s objects.
exercises-check:
	@python3 tools/exercise_check.py --build $(abspath $(BUILD))/exercise-check --seed $(abspath $(BUILD))

# The database comes from the build's own rules: make prints every command
# of a full build without running any (make -Bn V=1), and
# tools/compile_commands.py keeps the compiler calls. Nothing is built; it
# takes as long as make takes to read its rules.
compile-commands:
	@python3 tools/compile_commands.py compile_commands.json BUILD=$(BUILD) all $(HOST_TESTS) $(GUEST_DEPS)

format:
	$(CLANG_FORMAT) -i $(FORMAT_SRCS)

format-check:
	@command -v $(CLANG_FORMAT) >/dev/null || { echo "clang-format missing: run tools/install-deps.sh"; exit 1; }
	@bad=$$($(CLANG_FORMAT) --dry-run $(FORMAT_SRCS) 2>&1 | grep 'code should be clang-formatted' | cut -d: -f1 | sort -u); \
	if [ -n "$$bad" ]; then echo "$$bad"; echo "format-check: these files differ from .clang-format: run make format"; exit 1; fi

lint: lint-tidy lint-cppcheck

lint-tidy:
	@fail=0; \
	for f in $(LINT_KERNEL_SRCS); do \
	  $(CLANG_TIDY) --quiet --warnings-as-errors='*' $$f -- $(LINT_K_FLAGS) 2>/dev/null || fail=1; done; \
	for f in $(LINT_LIB_SRCS) $(LINT_HOST_SRCS); do \
	  $(CLANG_TIDY) --quiet --warnings-as-errors='*' $$f -- $(LINT_HOST_FLAGS) 2>/dev/null || fail=1; done; \
	if [ $$fail = 0 ]; then echo "clang-tidy: clean"; else echo "clang-tidy: findings above"; exit 1; fi

# cppcheck: bug classes only (warning, portability, performance); style is
# clang-tidy's job. System headers are not cppcheck's business (missingInclude*).
# -D__attribute__(x)= : cppcheck misparses '[[noreturn]] void panic(...) __attribute__(...)'
# and then reports every check-then-panic as a possible null/out-of-bounds use.
# A justified one-off is suppressed inline: // cppcheck-suppress <id> with a reason.
CPPCHECK_FLAGS = --quiet --error-exitcode=1 --inline-suppr --std=c++20 --language=c++ \
  --enable=warning,portability,performance -I. "-D__attribute__(x)=" \
  --suppress=missingIncludeSystem --suppress=missingInclude $(CPPCHECK_SUPPRESS)
# False positives, each checked by hand:
#   lib/fs/path.h name_equal: stops at the shorter name's NUL, never reads past "." or ".."
#   kernel/proc/proc.cc user_init: initcode_end - initcode_start are two linker
#     labels around one blob (initcode.S), not two objects
#   sim/rng.h Rng: the constructor fills every element of s_ in a range-for
#   tools/fscheck.cc fmt: passes three spare arguments to snprintf on purpose
#     (formats use 0 to 3 of them)
CPPCHECK_SUPPRESS := --suppress=arrayIndexOutOfBounds:lib/fs/path.h \
  --suppress=comparePointers:kernel/proc/proc.cc --suppress=uninitMemberVar:sim/rng.h \
  --suppress=wrongPrintfScanfArgNum:tools/fscheck.cc
lint-cppcheck:
	@$(CPPCHECK) $(CPPCHECK_FLAGS) kernel lib tools sim && echo "cppcheck: clean"
