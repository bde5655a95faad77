#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# The module's read() API in the guest (issue 13 items 8-11), on one kernel
# of each generation (RTPROOF_VM_KERNELS, default "stock-6.1 rt-6.12"):
# two blocking readers on one file never see EOF and share the records; a
# buffer that faults returns what fitted and puts the rest back; a poll()
# waiter is not taken for a blocked reader and gets POLLIN.  One boot per
# kernel on plain TCG with two vCPUs (two readers racing for one record
# need two CPUs; no figure is asserted here: the planted delay that moves
# irq_latency and not hardirq_entry is vm-irqlat.t's, in the icount guest).
# The module's run must leave no kernel warning (rtproof vm reads the
# guest's full dmesg).
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
[ -x "$RTPROOF_BIN/rtproof-irqlat" ] || skip_all "rtproof-irqlat not built"
command -v cc >/dev/null || skip_all "no C compiler"
kernels=${RTPROOF_VM_KERNELS:-stock-6.1 rt-6.12}
vm_fetch $kernels

cc -O2 -Wall -Wextra -Werror -pthread -DPER_READER=1000 -I"$RTPROOF_ROOT/kernel/module" -o "$TMP/irqlat-readers" \
	"$RTPROOF_ROOT/tests/vm/irqlat-readers.c"
ok $? "irqlat-readers builds"

cat >"$TMP/guest.sh" <<'EOF2'
#!/bin/sh
insmod /usr/bin/rtproof_irqlat.ko || exit 9
irqlat-readers fault poll two >/res/readers.txt 2>&1; echo $? >/res/readers.rc
rmmod rtproof_irqlat
exit 0
EOF2
chmod +x "$TMP/guest.sh"

for k in $kernels; do
	vm_module "$k" "$TMP/$k.add" >/dev/null
	rc=$?
	ok $rc "$k: the module builds"
	[ $rc = 0 ] || { sed 's/^/# /' "$TMP/build-$k.log" | tail -n 10; continue; }
	v0=$(date +%s)
	"$VM" -q --kernel "$k" --clock tcg --smp 2 --timeout 240s --out "$TMP/$k" \
		--add "$TMP/$k.add/rtproof_irqlat.ko" --add "$TMP/irqlat-readers" -- "$TMP/guest.sh" \
		>"$TMP/$k.out" 2>"$TMP/$k.err"
	rc=$?
	d=$TMP/$k
	ok $rc "$k: guest (tcg, 2 vCPUs) ran, no kernel warning ($(( $(date +%s) - v0 ))s wall; $(jq -r .kernel_warnings "$d/vm.json" 2>/dev/null) warning lines)"
	[ $rc = 0 ] || sed 's/^/# /' "$TMP/$k.err" | tail -n 12
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok 0 "$k: ${line#ok - }" ;;
		"not ok - "*) ok 1 "$k: ${line#not ok - }" ;;
		esac
	done <"$d/readers.txt"
	[ "$(grep -c '^ok - ' "$d/readers.txt" 2>/dev/null)" = 3 ]
	ok $? "$k: all three reader checks passed"
	diag "$k: $(grep -m1 '^uname' "$d/guest-info.txt" 2>/dev/null)"
	[ -z "${RTPROOF_KEEP:-}" ] || cp -r "$d" "$RTPROOF_KEEP/vm-irqlat-readers-$k"
done
done_testing
