# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-irqlat and its kernel module.
#
#   make module                    rtproof_irqlat.ko for the cached stock and RT
#                                  kernels (scripts/rtproof-kernel fetch first)
#   make module KERNEL=rt          one of them
#   make module KDIR=/lib/modules/$(uname -r)/build   any header tree
#   make module-clean
#
# Each lands in build/module/<release>/rtproof_irqlat.ko; kernel/module/Makefile
# runs kbuild (the one recursive make) and explains the Debian header glue.

TSAN_UNITS += test_irqlat_stages
MODULE_KERNELS ?= $(if $(KERNEL),$(KERNEL),stock rt)

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
