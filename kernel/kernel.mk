# SPDX-License-Identifier: GPL-2.0-or-later
# kernel/kernel.mk: kernel-side targets, included by the top-level Makefile.
#
#   make kernels          fetch Debian's stock and PREEMPT_RT kernels of the
#                         default generation (6.12) into the cache
#                         (RTPROOF_KERNEL_CACHE, default ~/.cache/rtproof/kernels);
#                         KERNELS="all-6.1" or "everything" for the others
#   make compare          the stock-vs-RT ladder in QEMU instruction-count mode
#                         (COMPARE_ARGS="--runs 2 --loops 5000" to change it)
#   make kernel-config KSRC=/path/to/linux [FLAVOUR=rt|stock] [BASE=defconfig]
#   make kernel-build  KSRC=/path/to/linux [FLAVOUR=rt|stock] [BASE=defconfig]
#                         merge kernel/config/*.config onto a defconfig, check
#                         every requested symbol took, build (kernel/Makefile)
#   make bisect-demo      rtproof bisect builds and boots Debian's 6.12 source
#                         imported as a history with a planted delay (opt-in)
#
# The VM integration tests (tests/integration/vm-*.t) need the suite's
# binaries and nothing else built: VM_TESTS_DEPS names them.

VM_TESTS_DEPS := all
COMPARE_ARGS ?=
KERNELS ?=

kernels:
	$(Q)scripts/rtproof-kernel fetch $(KERNELS)

compare: all
	$(Q)BIN=$(abspath $(BIN)) scripts/rtproof-compare-kernels $(COMPARE_ARGS)

kernel-config:
	$(Q)$(MAKE) --no-print-directory -C kernel config KSRC=$(abspath $(KSRC))

kernel-build:
	$(Q)$(MAKE) --no-print-directory -C kernel build KSRC=$(abspath $(KSRC))

# rtproof bisect's kernel mode on Debian's linux-source-6.12 with a planted
# timer-interrupt delay (docs/bisect.md): opt-in, never part of make test.
bisect-demo: all
	$(Q)RTPROOF_BIN=$(abspath $(BIN)) scripts/rtproof-bisect-demo

# Benchmark, not a test: the whole default ladder's wall time against its
# 6-minute target (docs/kernels.md).
bench-ladder: all
	$(Q)s=$$(date +%s); BIN=$(abspath $(BIN)) scripts/rtproof-compare-kernels $(COMPARE_ARGS); rc=$$?; \
		t=$$(( $$(date +%s) - s )); \
		echo "bench-ladder: whole ladder in $$t s of wall time (target <= 360 s: $$([ $$t -le 360 ] && echo met || echo missed)), $$(nproc) CPUs, exit $$rc"

.PHONY: kernels compare kernel-config kernel-build bench-ladder bisect-demo
