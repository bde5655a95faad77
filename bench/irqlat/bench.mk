# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-irqlat and its kernel module.
#
#   make module                    rtproof_irqlat.ko for every cached kernel
#                                  with headers, 6.1 and 6.12 (fetch first)
#   make module KERNEL=rt-6.12     one of them (stock, rt, stock-6.1, ...)
#   make module KDIR=/lib/modules/$(uname -r)/build   any header tree
#   make module-clean
#
# Each lands in build/module/<release>/rtproof_irqlat.ko; kernel/module/Makefile
# runs kbuild (the one recursive make) and explains the Debian header glue.

TSAN_UNITS += test_irqlat_stages
MODULE_KERNELS ?= $(if $(KERNEL),$(KERNEL),$(or $(shell for k in stock-6.1 rt-6.1 stock-6.12 rt-6.12; do \
	d=$$(scripts/rtproof-kernel path $$k 2>/dev/null) && [ -e "$$d/headers" ] && echo $$k; done),stock rt))

module:
ifneq ($(KDIR),)
	$(Q)$(MAKE) --no-print-directory -C kernel/module KDIR=$(abspath $(KDIR))
else
	$(Q)for k in $(MODULE_KERNELS); do \
		$(MAKE) --no-print-directory -C kernel/module KERNEL=$$k || exit 1; done
endif

module-clean:
	$(Q)rm -rf $(O)/module

.PHONY: module module-clean
