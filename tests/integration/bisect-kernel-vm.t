#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof bisect's kernel mode with real guests: a fake Linux tree of two
# commits whose build (the test's hook, RTPROOF_BISECT_KBUILD_CMD) gives
# Debian's PREEMPT_RT 6.12 kernel at GOOD and its stock kernel at BAD, each
# with its modules tree and rtproof_irqlat.ko built against its headers.
# Each side boots once (icount) under the ladder's mixed load and runs
# rtproof-cyclic and irqlat's module there: BAD's worst case is worse, and
# BAD, the one candidate, is the first bad commit.  bisect-kernel.t covers
# the rest of kernel mode without guests.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need rtproof-cyclic stock rt
BISECT=$RTPROOF_ROOT/scripts/rtproof-bisect
for k in rt stock; do
	vm_module "$k" "$TMP/mod-$k" >/dev/null || skip_all "rtproof_irqlat.ko does not build for $k ($(tail -n 1 "$TMP/build-$k.log"))"
done
export MODS=$TMP KERNEL
export RTPROOF_BISECT_KBUILD_CMD='k=$(cat kernel) && d=$("$KERNEL" path "$k") && cp "$d/vmlinux" "$KOUT/vmlinux" &&
	rm -rf "$KOUT/rtproof-modroot" && ln -s "$d/root" "$KOUT/rtproof-modroot" &&
	mkdir -p "$KOUT/rtproof-module" && cp "$MODS/mod-$k/rtproof_irqlat.ko" "$KOUT/rtproof-module/"'
r=$TMP/r
git init -q "$r" && git -C "$r" config user.email t@example.org && git -C "$r" config user.name t &&
	mkdir -p "$r/scripts/kconfig" "$r/arch/x86" && : >"$r/Kbuild" && : >"$r/Kconfig" && : >"$r/arch/x86/Kconfig" &&
	: >"$r/scripts/kconfig/merge_config.sh" &&
	echo rt >"$r/kernel" && git -C "$r" add -A && git -C "$r" commit -qm "PREEMPT_RT" &&
	echo stock >"$r/kernel" && git -C "$r" commit -qam "back to the stock kernel" || echo "# the repository failed"
start=$(date +%s)
"$BISECT" --repo "$r" --good HEAD~1 --bad HEAD --runs 1 --max-runs 1 --loops 2000 --irq-loops 500 \
	--build-dir "$TMP/kb" --out "$TMP/o" >"$TMP/o.txt" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
sed "s/^/# /" "$TMP/o.txt"; [ $rc = 0 ] || tail -n 5 "$TMP"/o/step-00/*.log | sed "s/^/# /"
bad=$(git -C "$r" rev-parse HEAD)
[ $rc -eq 0 ] && grep -q "^first bad commit: $bad back to the stock kernel$" "$TMP/o.txt"
ok $? "GOOD (rt) against BAD (stock), each booted once: BAD named (exit $rc, $took s)"
jq -e '.status == "found" and .mode == "kernel"' "$TMP/o/bisect.json" >/dev/null &&
	for s in good-1 bad-1; do
		jq -e '.outcome == "exited"' "$TMP/o/step-00/$s/vm.json" >/dev/null &&
			jq -e '.schema == "rtproof/1"' "$TMP/o/step-00/$s/cyclic.json" "$TMP/o/step-00/$s/irqlat.json" >/dev/null || exit 1
	done
ok $? "each boot: rtproof vm's record, cyclic.json and irqlat.json (the module loaded in the guest)"
jq -e '.system.preempt == "rt"' "$TMP/o/step-00/good-1/cyclic.json" >/dev/null &&
	jq -e '.system.preempt != "rt" and .load.name == "mixed"' "$TMP/o/step-00/bad-1/cyclic.json" >/dev/null
ok $? "GOOD's guest ran the RT kernel, BAD's the stock one, under the mixed load"
done_testing
