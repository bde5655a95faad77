# SPDX-License-Identifier: GPL-2.0-or-later
#
# rtproof: one non-recursive Makefile.  Objects mirror the tree under
# $(O) (build/, or build/san-<list>/ with SANITIZE=...), programs land in
# $(O)/bin.  `make V=1` shows the commands.  Per-bench extras (libraries,
# tests) live in bench/<name>/bench.mk and kernel/kernel.mk, included here.

.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDARY:
.DEFAULT_GOAL := all

ifeq ($(origin CC),default)
CC := gcc
endif
comma := ,
SANITIZE ?=
ifeq ($(SANITIZE),)
O ?= build
SAN_FLAGS :=
else
O ?= build/san-$(subst $(comma),-,$(SANITIZE))
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
BIN := $(O)/bin

PREFIX ?= /usr/local
DESTDIR ?=
# The installed tree mirrors the source tree under $(RTP_HOME): scripts/
# beside kernel/, so every script finds what it finds in the sources.
RTP_HOME := $(PREFIX)/lib/rtproof
LIBEXEC := $(RTP_HOME)/scripts
DOCDIR := $(PREFIX)/share/doc/rtproof
MANDIR := $(PREFIX)/share/man/man1

CFLAGS ?= -O2 -g
# snprintf truncation is how the code bounds text; the warning is noise.
RTP_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Wno-format-truncation -pthread $(SAN_FLAGS)
CPPFLAGS += -D_GNU_SOURCE -Ilib
DEPFLAGS = -MMD -MP
# Hardening (tests/integration/hardening.t): a stack protector, format
# strings that are never data, full RELRO with BIND_NOW, and FORTIFY level 3
# (gcc 12) where it means something: optimised builds without a sanitizer,
# whose runtime replaces the checked functions.  CFLAGS, not CPPFLAGS: the
# clang fuzz builds and hdr-check's -fsyntax-only see neither.
RTP_CFLAGS += -fstack-protector-strong -Wformat -Wformat-security -Werror=format-security
ifeq ($(SANITIZE),)
ifneq ($(filter-out -O0,$(filter -O%,$(CFLAGS))),)
override CFLAGS += -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3
endif
endif
override LDFLAGS += -Wl,-z,relro,-z,now
LDLIBS += -lz -lm -pthread

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2);
endif

# ---- librtproof --------------------------------------------------------
LIB_SRCS := $(wildcard lib/*.c lib/explain/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
LIBA := $(O)/lib/librtproof.a

$(LIBA): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(RTP_CFLAGS) $(CFLAGS) $(CFLAGS_$(word 2,$(subst /, ,$<))) $(DEPFLAGS) -c -o $@ $<

# ---- benches: bench/<name>/*.c -> $(BIN)/rtproof-<name> -----------------
# main.c holds main() alone, so unit tests can link the rest of a bench.
BENCHES := $(sort $(notdir $(patsubst %/,%,$(wildcard bench/*/))))
# Unit tests run again under -fsanitize=thread; bench.mk files append theirs.
TSAN_UNITS := test_hist
-include $(wildcard bench/*/bench.mk)

define bench_rule
SRCDIR_$(1) := bench/$(1)
$(1)_SRCS := $$(wildcard bench/$(1)/*.c)
$(1)_OBJS := $$($(1)_SRCS:%.c=$(O)/%.o)
$(1)_LIBOBJS := $$(filter-out $(O)/bench/$(1)/main.o,$$($(1)_OBJS))
PROGS += $(BIN)/rtproof-$(1)
$(BIN)/rtproof-$(1): $$($(1)_OBJS) $(LIBA)
	@mkdir -p $$(@D)
	$$(call msg,LD,$$@)
	$$(Q)$$(CC) $$(RTP_CFLAGS) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$($(1)_OBJS) $(LIBA) $$(LDLIBS_$(1)) $$(LDLIBS)
endef
$(foreach b,$(BENCHES),$(eval $(call bench_rule,$(b))))

# rtproof check: the machine's real-time settings (check/, docs/check.md).
# Its objects but main.o link into test_check and fuzz_check, as a bench's do.
SRCDIR_check := check
check_SRCS := $(wildcard check/*.c)
check_OBJS := $(check_SRCS:%.c=$(O)/%.o)
check_LIBOBJS := $(filter-out $(O)/check/main.o,$(check_OBJS))
$(BIN)/rtproof-check: $(check_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(call msg,LD,$@)
	$(Q)$(CC) $(RTP_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lz $(LDLIBS)
PROGS += $(BIN)/rtproof-check
LDLIBS_test_check := -lz
fuzz: LDLIBS += -lz
# ---- tools: rtproof-plot and rtproof-report (tools/plot, jansson) --------
PLOT_SRCS := $(filter-out %_main.c,$(wildcard tools/plot/*.c))
PLOT_OBJS := $(PLOT_SRCS:%.c=$(O)/%.o)
$(BIN)/rtproof-plot: $(O)/tools/plot/plot_main.o $(PLOT_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(call msg,LD,$@)
	$(Q)$(CC) $(RTP_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)
$(BIN)/rtproof-report: $(O)/tools/plot/report_main.o $(PLOT_OBJS) $(LIBA)
	@mkdir -p $(@D)
	$(call msg,LD,$@)
	$(Q)$(CC) $(RTP_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)
PROGS += $(BIN)/rtproof-plot $(BIN)/rtproof-report
# ---- tools: tools/<name>/*.c -> $(BIN)/rtproof-<name> ------------------
# Programs that read results rather than measure (rtproof-compare); they
# link jansson, which the benches do not need.
# tools/plot has two programs and rules of its own, above.
TOOLS := $(filter-out plot,$(sort $(notdir $(patsubst %/,%,$(wildcard tools/*/)))))
LDLIBS_tool_compare := -ljansson
define tool_rule
$(1)_TOOL_OBJS := $$(patsubst %.c,$(O)/%.o,$$(wildcard tools/$(1)/*.c))
PROGS += $(BIN)/rtproof-$(1)
$(BIN)/rtproof-$(1): $$($(1)_TOOL_OBJS) $(LIBA)
	@mkdir -p $$(@D)
	$$(call msg,LD,$$@)
	$$(Q)$$(CC) $$(RTP_CFLAGS) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$($(1)_TOOL_OBJS) $(LIBA) $$(LDLIBS_tool_$(1)) $$(LDLIBS)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))
# compare's objects but main (compare.c), for its unit tests and fuzz target
COMPARE_LIBOBJS := $(filter-out $(O)/tools/compare/compare.o,$(compare_TOOL_OBJS))

$(BIN)/rtproof: scripts/rtproof
	@mkdir -p $(@D)
	$(call msg,GEN,$@)
	$(Q)cp $< $@ && chmod +x $@
PROGS += $(BIN)/rtproof

all: $(PROGS)
MANS := $(PROGS:$(BIN)/%=$(O)/man/%.1)

# ---- unit tests: tests/unit/test_*.c, TAP ------------------------------
# A test named test_<bench>_*.c also links that bench's objects (test_check
# and fuzz_check: the check program's).
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/unit/%)
TAP_OBJ := $(O)/tests/unit/tap.o
bench_of = $(firstword $(filter $(BENCHES) check,$(word 2,$(subst _, ,$(notdir $(1))))))

define unit_rule
$(O)/tests/unit/$(1).o: CPPFLAGS += $(if $(call bench_of,$(1)),-I$(SRCDIR_$(call bench_of,$(1))))
$(O)/tests/unit/$(1): $(O)/tests/unit/$(1).o $(TAP_OBJ) $$($(call bench_of,$(1))_LIBOBJS) $(LIBA)
	$$(call msg,LD,$$@)
	$$(Q)$$(CC) $$(RTP_CFLAGS) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS_$(call bench_of,$(1))) $$(LDLIBS_$(1)) $$(LDLIBS)
endef
$(foreach t,$(UNIT_SRCS:tests/unit/%.c=%),$(eval $(call unit_rule,$(t))))

LDLIBS_test_json := -ljansson
LDLIBS_test_result := -ljansson
LDLIBS_fuzz_doc := $(LIBA) -ljansson
# test_compare_*.c: compare's code (tools/compare) but its main
COMPARE_UNITS := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_compare_*.c))
$(foreach t,$(COMPARE_UNITS),$(eval $(O)/tests/unit/$(t).o: CPPFLAGS += -Itools/compare))
$(foreach t,$(COMPARE_UNITS),$(eval $(O)/tests/unit/$(t): $$(COMPARE_LIBOBJS)))
$(foreach t,$(COMPARE_UNITS),$(eval LDLIBS_$(t) := $(LIBA) -ljansson))

# Helper programs the integration tests use (planted-latency spinner...).
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(BIN)/%)
$(BIN)/rtp-%: $(O)/tests/tools/rtp-%.o $(LIBA)
	@mkdir -p $(@D)
	$(call msg,LD,$@)
	$(Q)$(CC) $(RTP_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Two at a time: the unit tests mostly sleep (test_lockstress_clock waits
# 7 s of timed lock waits), their CPU is a tenth of their wall time.
unit: $(UNIT_BINS)
	$(Q)prove -e '' -j2 $(if $(V),-v) $(UNIT_BINS)

# ---- fuzz targets: libFuzzer entry points, replayed over the corpus ----
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(O)/tests/fuzz/%)
# fuzz_<bench>_*.c links that bench's objects; fuzz_opts.c is cyclic's.
fuzz_bench = $(or $(call bench_of,$(1)),cyclic)
define fuzz_rule
$(O)/tests/fuzz/$(1).o: CPPFLAGS += -I$(SRCDIR_$(call fuzz_bench,$(1)))
$(O)/tests/fuzz/$(1): $(O)/tests/fuzz/$(1).o $(O)/tests/fuzz/replay.o $$($(call fuzz_bench,$(1))_LIBOBJS) $(LIBA)
	$$(call msg,LD,$$@)
	$$(Q)$$(CC) $$(RTP_CFLAGS) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$^ $$(LDLIBS_$(call fuzz_bench,$(1))) $$(LDLIBS_$(1)) $$(LDLIBS)
endef
$(foreach t,$(FUZZ_SRCS:tests/fuzz/%.c=%),$(eval $(call fuzz_rule,$(t))))

# fuzz_doc: compare's document reader (tools/compare/doc.c)
$(O)/tests/fuzz/fuzz_doc.o: CPPFLAGS += -Itools/compare
$(O)/tests/fuzz/fuzz_doc: $(COMPARE_LIBOBJS)
FUZZ_EXTRA_doc := -Itools/compare $(filter-out tools/compare/compare.c,$(wildcard tools/compare/*.c))

# fuzz_plot_doc: the plot and report code over one document (jansson)
$(O)/tests/fuzz/fuzz_plot_doc.o: CPPFLAGS += -Itools/plot
$(O)/tests/fuzz/fuzz_plot_doc: $(PLOT_OBJS)
$(O)/tests/fuzz/fuzz_plot_doc: LDLIBS := $(LIBA) -ljansson $(LDLIBS)
FUZZ_EXTRA_plot_doc := -Itools/plot $(PLOT_SRCS) -ljansson

fuzz-replay: $(FUZZ_BINS)
	$(Q)for f in $(FUZZ_BINS); do n=$${f##*/}; \
		$$f tests/fuzz/corpus/$${n#fuzz_}/* || exit 1; done

# clang + libFuzzer + ASan/UBSan for real fuzzing, one target at a time:
#   make fuzz FUZZ=cpulist FUZZ_TIME=60
# or all of them one after another, printing executions and crashes per
# target (crash inputs are copied into tests/fuzz/corpus/<target>/, so
# fuzz-replay, part of make test, replays them from then on):
#   make fuzz-all FUZZ_TIME=120 [FUZZ_RUNS=1000000] [FUZZ_TARGETS="cpulist opts"]
# A new parser gets tests/fuzz/fuzz_<name>.c (fuzz_<bench>_*.c links that
# bench's objects) and a seed corpus in tests/fuzz/corpus/<name>/: both
# rules pick it up (the compare document reader is meant to land so).
FUZZ ?= cpulist
FUZZ_TIME ?= 30
FUZZ_RUNS ?= -1
FUZZ_TARGETS ?= $(FUZZ_SRCS:tests/fuzz/fuzz_%.c=%)
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
define fuzz_clang_rule
build/fuzz/fuzz_$(1): tests/fuzz/fuzz_$(1).c $(LIB_SRCS) $$(filter-out %/main.c,$$($(call fuzz_bench,fuzz_$(1))_SRCS))
	@mkdir -p $$(@D)
	$$(call msg,CLANG,$$@)
	$$(Q)clang -I$(SRCDIR_$(call fuzz_bench,fuzz_$(1))) $$(FUZZ_CFLAGS) $$(CPPFLAGS) -o $$@ $$(filter %.c,$$^) \
		$$(FUZZ_EXTRA_$(1)) $$(LDLIBS_$(call fuzz_bench,fuzz_$(1))) -ljansson $$(LDLIBS)
endef
$(foreach t,$(FUZZ_SRCS:tests/fuzz/fuzz_%.c=%),$(eval $(call fuzz_clang_rule,$(t))))

fuzz: build/fuzz/fuzz_$(FUZZ)
	$(Q)mkdir -p build/fuzz/corpus-$(FUZZ)
	build/fuzz/fuzz_$(FUZZ) -artifact_prefix=build/fuzz/ -max_total_time=$(FUZZ_TIME) build/fuzz/corpus-$(FUZZ) tests/fuzz/corpus/$(FUZZ)

fuzz-all: $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)
	$(Q)tests/fuzz/fuzz-all $(FUZZ_TIME) $(FUZZ_RUNS) $(FUZZ_TARGETS)

# ---- integration tests: tests/integration/*.t, TAP shell via prove -----
INTEG ?= $(sort $(filter-out tests/integration/tsan-%,$(wildcard tests/integration/*.t)))
# The man pages too, when help2man is here: options.t checks them against --help.
# tests/run runs them in phases (parallel plumbing, guests, then the tests
# that assert a host latency, alone), a log per test in build/test-logs/.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
integration: all $(TOOL_BINS) $(if $(shell command -v help2man),$(MANS))
	$(Q)RTPROOF_BIN=$(abspath $(BIN)) tests/run -j $(TEST_JOBS) $(INTEG)

# ---- header check: every header compiles alone --------------------------
HDRS := $(wildcard lib/*.h lib/explain/*.h check/*.h bench/*/*.h kernel/module/*.h tools/*/*.h tests/fuzz/*.h)
hdr-check:
	$(Q)for h in $(HDRS); do \
		printf '#include "%s"\n' $$h | $(CC) $(CPPFLAGS) -I. $(RTP_CFLAGS) -fsyntax-only -x c - \
			|| { echo "hdr-check: $$h does not compile alone"; exit 1; }; done
	@echo "hdr-check: $(words $(HDRS)) headers compile alone"

# ---- test: everything CI runs ------------------------------------------

# make deps installs every package (scripts/deps); make run and make test
# install what is missing first when root, and say what is missing when not.
deps:
	$(Q)scripts/deps
deps-auto:
	$(Q)scripts/deps --auto

# Each step's wall time is printed.  The sanitizer builds and runs
# (nothing there is timed) go beside the integration tests at nice 10: they
# fill the pool's idle slots instead of adding a minute after it.
test:
	$(Q)set -e; T0=$$(date +%s); t0=$$T0; $(MAKE) --no-print-directory deps-auto; \
	echo "test: package installation $$(( $$(date +%s) - t0 )) s"; t0=$$(date +%s); T1=$$t0; \
	$(MAKE) --no-print-directory -j$(TEST_JOBS) test-build; \
	echo "test: build $$(( $$(date +%s) - t0 )) s"; t0=$$(date +%s); \
	$(MAKE) --no-print-directory unit fuzz-replay; \
	echo "test: unit and fuzz replay $$(( $$(date +%s) - t0 )) s"; t0=$$(date +%s); \
	rm -f $(O)/sanitizers.rc; \
	( set +e; s=$$(date +%s); nice -n 10 $(MAKE) --no-print-directory sanitizers >$(O)/sanitizers.log 2>&1; \
	  rc=$$?; echo "sanitizers: $$(( $$(date +%s) - s )) s, exit $$rc" >>$(O)/sanitizers.log; echo $$rc >$(O)/sanitizers.rc ) & \
	irc=0; $(MAKE) --no-print-directory integration || irc=$$?; \
	echo "test: integration $$(( $$(date +%s) - t0 )) s"; t0=$$(date +%s); \
	wait; src=$$(cat $(O)/sanitizers.rc 2>/dev/null || echo 1); \
	echo "test: ASan/UBSan and TSan ($$(tail -n 1 $(O)/sanitizers.log | sed 's/^sanitizers: //'), beside the integration tests), $$(( $$(date +%s) - t0 )) s after them"; \
	[ "$$src" = 0 ] || { grep -v '^ok ' $(O)/sanitizers.log | tail -n 40; echo "FAILED: sanitizers ($(O)/sanitizers.log)"; }; \
	if [ "$$irc" != 0 ] || [ "$$src" != 0 ]; then exit 1; fi; \
	echo "test: all passed in $$(( $$(date +%s) - T0 )) s, $$(( $$(date +%s) - T1 )) s after the package installation (the kernel download is in integration's log)"

# the sanitizer builds and their runs: ASan/UBSan over the unit tests and
# fuzz replay, TSan over the threaded code.  At -O1 (the sanitizers' own
# advice): their compile took 40 % more CPU at -O2, a sixth of make test's.
SAN_CFLAGS ?= -O1 -g
sanitizers:
	$(Q)$(MAKE) --no-print-directory -j$(TEST_JOBS) SANITIZE=address,undefined CFLAGS="$(SAN_CFLAGS)" unit-bins fuzz-bins && \
	$(MAKE) --no-print-directory SANITIZE=address,undefined CFLAGS="$(SAN_CFLAGS)" unit fuzz-replay && \
	$(MAKE) --no-print-directory -j$(TEST_JOBS) SANITIZE=thread CFLAGS="$(SAN_CFLAGS)" tsan-progs tsan-bins && \
	$(MAKE) --no-print-directory SANITIZE=thread CFLAGS="$(SAN_CFLAGS)" tsan-check

# The edit loop (<= 2 min): unit, fuzz replay, the quick integration tests
# (their header says quick; no guest boots).
check-quick: all hdr-check $(TOOL_BINS)
	$(Q)$(MAKE) --no-print-directory unit fuzz-replay
	$(Q)RTPROOF_BIN=$(abspath $(BIN)) tests/run --quick -j $(TEST_JOBS) $(INTEG)
test-build: all hdr-check $(TOOL_BINS) $(UNIT_BINS) $(FUZZ_BINS) $(if $(shell command -v help2man),$(MANS))
unit-bins: $(UNIT_BINS)
fuzz-bins: $(FUZZ_BINS)
tsan-bins: $(addprefix $(O)/tests/unit/,$(TSAN_UNITS))

# the threaded programs tests/integration/tsan-*.t run (not every program)
TSAN_PROGS := $(BIN)/rtproof-cyclic $(BIN)/rtproof-lockstress
tsan-progs: $(TSAN_PROGS)
tsan-check: $(addprefix $(O)/tests/unit/,$(TSAN_UNITS)) $(TSAN_PROGS)
	$(Q)prove -e '' $(addprefix $(O)/tests/unit/,$(TSAN_UNITS))
	$(Q)RTPROOF_BIN=$(abspath $(BIN)) RTPROOF_ROOT=$(CURDIR) prove -v tests/integration/tsan-*.t

# ---- benchmarks (figures, not pass/fail): benchmarks/ ---------------------
bench: bench-hist bench-driver
bench-hist: $(O)/benchmarks/bench_hist
	$(O)/benchmarks/bench_hist
$(O)/benchmarks/%: $(O)/benchmarks/%.o $(LIBA)
	$(call msg,LD,$@)
	$(Q)$(CC) $(RTP_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
bench-cyclic: all $(O)/benchmarks/bench_hist
	benchmarks/bench-cyclic $(BENCH_ARGS)
# Random SIGINT/SIGTERM/SIGHUP kill points, SIGNAL_RUNS per bench, with the tally.
SIGNAL_RUNS ?= 500
bench-signals: all
	SIGNAL_RUNS=$(SIGNAL_RUNS) RTPROOF_BIN=$(abspath $(BIN)) RTPROOF_ROOT=$(CURDIR) prove -v tests/integration/signals-random.t
# 1 hour of rtproof-cyclic at 100 us on every CPU: RSS, counts, validity.
SOAK_S ?= 3600
bench-soak: all
	SOAK_S=$(SOAK_S) RTPROOF_BIN=$(abspath $(BIN)) benchmarks/bench-soak
# Per thread, 1 to 1024 threads, beside cyclictest: CPU per wake-up, RSS and locked
# memory per thread, samples against releases, the document (docs/scale.md).
bench-scale: all $(BIN)/rtp-measure
	RTPROOF_BIN=$(abspath $(BIN)) benchmarks/bench-scale
# The driver's fixed cost: rtproof-cyclic -l 100 -i 200 (20 ms of work) in wall time.
bench-driver: all
	RTPROOF_BIN=$(abspath $(BIN)) benchmarks/bench-driver

# rtproof compare on synthetic documents of known truth, fixed seeds: false
# alarms and power per case (docs/compare.md records the figures).
BENCH_COMPARE_PAIRS ?= 200
bench-compare: all $(BIN)/rtp-mkdoc
	tools/compare/bench-compare.sh $(abspath $(BIN)) $(BENCH_COMPARE_PAIRS)
# The same on this host's own runs: idle pairs (false alarms) and pairs
# beside a FIFO 99 spinner (power); about 10 minutes (docs/compare.md).
bench-compare-host: all $(BIN)/rtp-spin
	RTPROOF_BIN=$(abspath $(BIN)) benchmarks/bench-compare-host

# ---- the main job --------------------------------------------------------
DURATION ?= 30s
# the budgets the run is judged by (docs/plots.md "First screen"): audio,
# latency, or empty for figures only
PROFILE ?= audio
run: deps-auto
	$(Q)$(MAKE) --no-print-directory -j$(TEST_JOBS) all
	RTPROOF_BIN=$(abspath $(BIN)) scripts/rtproof run --duration $(DURATION) $(if $(PROFILE),--profile $(PROFILE))

# ---- man pages: from each program's --help (help2man), so they stay in step
MAN_NAME_rtproof := the rtproof suite: benches, suite runs, kernels in QEMU
MAN_NAME_rtproof-cyclic := timer wake-up latency per CPU
MAN_NAME_rtproof-irqlat := interrupt latency by stage, to user space
MAN_NAME_rtproof-audio := audio xruns and their causes
MAN_NAME_rtproof-lockstress := what lock choices mean for a real-time thread
MAN_NAME_rtproof-load := the throughput a kernel lets through, the price of its latency
MAN_NAME_rtproof-cleanup := restore what killed runs left changed
$(O)/man/%.1: $(BIN)/%
	@mkdir -p $(@D)
	$(call msg,MAN,$@)
	$(Q)help2man --no-info --no-discard-stderr -N -n "$(MAN_NAME_$*)" -o $@ $<
man: $(MANS)

# ---- the suite as a LAVA job (docs/lava.md) ------------------------------
LAVA_KERNEL ?= rt
LAVA_DURATION ?= 10s
lava: all
	RTPROOF_BIN=$(abspath $(BIN)) scripts/rtproof lava run --kernel $(LAVA_KERNEL) --duration $(LAVA_DURATION)

# ---- install: make install [PREFIX=/usr/local] [DESTDIR=] -------------------
# bin/: the programs and the rtproof front end; $(RTP_HOME)/scripts: the
# runners (rtproof run, vm, kernel, compare-kernels...) and their library;
# $(RTP_HOME)/kernel: the VM's initramfs builder, the kernel configs and the
# module's sources; the docs and the man pages.
INST_SCRIPTS := $(filter-out scripts/rtproof scripts/rtproof-lib.sh,$(wildcard scripts/rtproof-*))
install: all man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBEXEC) $(DESTDIR)$(RTP_HOME)/kernel/vm \
		$(DESTDIR)$(RTP_HOME)/kernel/config $(DESTDIR)$(RTP_HOME)/kernel/module \
		$(DESTDIR)$(DOCDIR)/docs/measurements $(DESTDIR)$(MANDIR)
	install -m 755 $(PROGS) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(INST_SCRIPTS) $(DESTDIR)$(LIBEXEC)/
	install -m 644 scripts/rtproof-lib.sh $(DESTDIR)$(LIBEXEC)/
	$(if $(wildcard scripts/*.gp),install -m 644 $(wildcard scripts/*.gp) $(DESTDIR)$(LIBEXEC)/)
	install -m 755 kernel/vm/init kernel/vm/mkinitramfs $(DESTDIR)$(RTP_HOME)/kernel/vm/
	install -m 755 kernel/check-config $(DESTDIR)$(RTP_HOME)/kernel/
	install -m 644 kernel/config/*.config $(DESTDIR)$(RTP_HOME)/kernel/config/
	install -m 644 kernel/module/* $(DESTDIR)$(RTP_HOME)/kernel/module/
	install -m 644 README.md LICENSE $(DESTDIR)$(DOCDIR)/
	install -m 644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	install -m 644 docs/measurements/*.md $(DESTDIR)$(DOCDIR)/docs/measurements/
	install -m 644 $(MANS) $(DESTDIR)$(MANDIR)/
	sed -i 's|^RTPROOF_LIBEXEC_DEFAULT=.*|RTPROOF_LIBEXEC_DEFAULT=$(LIBEXEC)|' $(DESTDIR)$(PREFIX)/bin/rtproof

clean:
	rm -rf build

-include kernel/kernel.mk

.PHONY: all unit fuzz fuzz-all fuzz-replay integration hdr-check test tsan-check sanitizers bench bench-hist bench-compare bench-compare-host \
	deps deps-auto check-quick test-build unit-bins fuzz-bins tsan-bins \
	bench-cyclic bench-driver bench-scale bench-signals bench-soak run man lava install clean

-include $(shell find $(O) -name '*.d' 2>/dev/null)
