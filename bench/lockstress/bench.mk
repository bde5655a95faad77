# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-lockstress: its parser tests also run under ThreadSanitizer.
TSAN_UNITS += test_lockstress_opts
