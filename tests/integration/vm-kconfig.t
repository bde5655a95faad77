#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# The kernel build recipe's config step against a real tree (Debian's
# linux-source-6.1): the fragments merge onto defconfig with the tree's
# merge_config.sh, and a requested symbol that does not take fails loudly
# (PREEMPT_RT on plain 6.1; a made-up symbol).
# With RTPROOF_KERNEL_BUILD=1 it also builds a tinyconfig-based PREEMPT_RT
# guest kernel from linux-source-6.12 and boots it (several minutes).
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
command -v apt-get >/dev/null || skip_all "not a Debian system (no apt-get)"
for t in make gcc flex bison bc; do
	command -v $t >/dev/null || skip_all "$t not installed (needed to configure a kernel)"
done

source_tree() { # source_tree SERIES: fetch through rtproof kernel source
	if "$KERNEL" source -q "$1" 2>"$TMP/src.err"; then return 0; fi
	if grep -qE 'could not be reached|not known to apt' "$TMP/src.err"; then
		skip_all "Debian archive unreachable: $(head -n 1 "$TMP/src.err")"
	fi
	sed 's/^/# /' "$TMP/src.err"
	return 1
}
ksrc=$(source_tree 6.1)
ok $? "rtproof kernel source 6.1 ($ksrc)"
kmake() { make -s --no-print-directory -C "$RTPROOF_ROOT/kernel" "$@" KSRC="$ksrc"; }

kmake config FLAVOUR=stock KOUT="$TMP/stock" >"$TMP/out" 2>&1
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$TMP/out"
ok $rc "6.1 stock + trace + vm onto defconfig: every symbol took"
grep -q '^CONFIG_PREEMPT_DYNAMIC=y' "$TMP/stock/.config" && grep -q '^CONFIG_9P_FS=y' "$TMP/stock/.config" &&
	grep -q '^CONFIG_TIMERLAT_TRACER=y' "$TMP/stock/.config" && grep -q '^CONFIG_PVH=y' "$TMP/stock/.config"
ok $? "6.1 stock .config: PREEMPT_DYNAMIC, 9p built in, timerlat, PVH"

# from a copy of the stock tree: the config step starts over from
# defconfig, and kconfig's programs are built already (a third less time)
cp -a "$TMP/stock" "$TMP/rt"
kmake config FLAVOUR=rt KOUT="$TMP/rt" >"$TMP/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'rt.config:[0-9]*: CONFIG_PREEMPT_RT=y requested, not set' "$TMP/out" &&
	grep -q 'PREEMPT_RT needs Linux 6.12+ on x86' "$TMP/out"
ok $? "6.1 rt: fails loudly, PREEMPT_RT did not take (exit $rc)"

printf '# a symbol no kernel has\nCONFIG_RTPROOF_NO_SUCH_SYMBOL=y\n' >"$TMP/bogus.config"
# the check step alone, on the .config made above
make -s --no-print-directory -C "$RTPROOF_ROOT/kernel" check FLAVOUR=stock FRAGMENTS="$TMP/bogus.config" KOUT="$TMP/stock" >"$TMP/out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'bogus.config:2: CONFIG_RTPROOF_NO_SUCH_SYMBOL=y requested, not set' "$TMP/out"
ok $? "an unknown symbol in FRAGMENTS fails the check (exit $rc)"

make -s --no-print-directory -C "$RTPROOF_ROOT/kernel" config FLAVOUR=rt KSRC= KOUT="$TMP/noksrc" >"$TMP/out" 2>&1
[ $? -ne 0 ] && grep -q 'error: KSRC=' "$TMP/out"
ok $? "no KSRC: $(grep error "$TMP/out")"
make -s --no-print-directory -C "$RTPROOF_ROOT/kernel" config FLAVOUR=lazy KSRC="$ksrc" KOUT="$TMP/lazy" >"$TMP/out" 2>&1
[ $? -ne 0 ] && grep -q 'FLAVOUR=lazy: must be rt or stock' "$TMP/out" && [ ! -e "$TMP/lazy" ]
ok $? "FLAVOUR=lazy: $(grep -o 'FLAVOUR=lazy.*' "$TMP/out" | head -n 1)"

cache=$(dirname "$ksrc")
if [ "${RTPROOF_KERNEL_BUILD:-0}" = 1 ] || [ -f "$cache/linux-source-6.12/.rtproof-source" ]; then
	ksrc12=$(source_tree 6.12)
	ok $? "rtproof kernel source 6.12"
	make -s --no-print-directory -C "$RTPROOF_ROOT/kernel" config KSRC="$ksrc12" FLAVOUR=rt BASE=tinyconfig KOUT="$TMP/rt12" >"$TMP/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && sed 's/^/# /' "$TMP/out"
	ok $rc "6.12 rt + trace + vm onto tinyconfig: PREEMPT_RT takes"
else
	skip "6.12 rt config" "linux-source-6.12 not cached (rtproof kernel source 6.12, or RTPROOF_KERNEL_BUILD=1)"
fi

if [ "${RTPROOF_KERNEL_BUILD:-0}" = 1 ]; then
	start=$(date +%s)
	make -s --no-print-directory -C "$RTPROOF_ROOT/kernel" build KSRC="$ksrc12" FLAVOUR=rt BASE=tinyconfig KOUT="$TMP/rt12" >"$TMP/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && tail -n 20 "$TMP/out" | sed 's/^/# /'
	ok $rc "6.12 PREEMPT_RT tinyconfig guest kernel builds ($(( $(date +%s) - start ))s)"
	"$VM" -q --kernel "$TMP/rt12/vmlinux" --timeout 120s --out "$TMP/boot12" -- \
		rtproof-cyclic -q -p 90 -l 300 --json /res/cyclic.json >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -ne 0 ] && sed 's/^/# /' "$TMP/err"
	ok $rc "the self-built kernel boots in the VM (no modules) and runs rtproof-cyclic"
	p=$(jq -r .system.preempt "$TMP/boot12/cyclic.json" 2>/dev/null)
	[ "$p" = rt ]
	ok $? "self-built kernel: system.preempt is '$p'"
else
	skip "build and boot a 6.12 PREEMPT_RT guest kernel" "RTPROOF_KERNEL_BUILD=1 not set (a kernel build takes minutes)"
fi
done_testing
