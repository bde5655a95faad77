#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest uses=module
# The module's read() API in the guest (issue 13 items 8-11), on one kernel
# of each generation (RTPROOF_VM_KERNELS, default "stock-6.1 rt-6.12"):
# two blocking readers on one file never see EOF and share the records; a
# buffer that faults returns what fitted and puts the rest back; a poll()
# waiter is not taken for a blocked reader and gets POLLIN; a planted 200 us
# delay moves irq_latency but not hardirq_entry (the real IRQ latency has its
# own figure). The module's run must leave no kernel warning (rtproof vm
# reads the guest's full dmesg).
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/kernel/vm/test-lib.sh"
vm_need_qemu
[ -x "$RTPROOF_BIN/rtproof-irqlat" ] || skip_all "rtproof-irqlat not built"
command -v cc >/dev/null || skip_all "no C compiler"
kernels=${RTPROOF_VM_KERNELS:-stock-6.1 rt-6.12}
vm_fetch $kernels

cc -O2 -Wall -Wextra -Werror -pthread -DPER_READER=3000 -I"$RTPROOF_ROOT/kernel/module" -o "$TMP/irqlat-readers" \
	"$RTPROOF_ROOT/kernel/vm/irqlat-readers.c"
ok $? "irqlat-readers builds"

cat >"$TMP/guest.sh" <<'EOF2'
#!/bin/sh
insmod /usr/bin/rtproof_irqlat.ko || exit 9
irqlat-readers fault poll >/res/readers.txt 2>&1; echo $? >/res/readers.rc
rtproof-irqlat -q --source module -l 1000 --json /res/mod.json >/res/mod.txt 2>&1; echo $? >/res/mod.rc
rtproof-irqlat -q --source module -l 1000 --delay 200 --json /res/delay.json >/res/delay.txt 2>&1
echo $? >/res/delay.rc
rmmod rtproof_irqlat
exit 0
EOF2
chmod +x "$TMP/guest.sh"
# Two readers racing for one record need two CPUs: a second boot, tcg -smp 2
# (on one vCPU the window between the wake-up and the queue lock is rarely hit).
cat >"$TMP/guest-two.sh" <<'EOF2'
#!/bin/sh
insmod /usr/bin/rtproof_irqlat.ko || exit 9
irqlat-readers two >/res/readers.txt 2>&1; echo $? >/res/readers.rc
rmmod rtproof_irqlat
exit 0
EOF2
chmod +x "$TMP/guest-two.sh"

fig() { jq -r ".metrics[] | select(.name == \"$2\") |
	\"p50 \(.percentiles[\"50\"] / 1000) us, p99 \(.percentiles[\"99\"] / 1000) us, max \(.max / 1000) us\"" "$1" 2>/dev/null; }
p50() { jq -r ".metrics[] | select(.name == \"$2\") | .percentiles[\"50\"]" "$1" 2>/dev/null; }

for k in $kernels; do
	kmake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$RTPROOF_ROOT/kernel/module" KERNEL=$k "$@"; }
	kmake >"$TMP/build-$k.log" 2>&1
	rc=$?
	ok $rc "$k: the module builds"
	[ $rc = 0 ] || { sed 's/^/# /' "$TMP/build-$k.log" | tail -n 10; continue; }
	ko=$(kmake -s print-ko 2>/dev/null | tail -n 1)
	mkdir -p "$TMP/$k.add"
	cp "$ko" "$TMP/$k.add/" && chmod +x "$TMP/$k.add/rtproof_irqlat.ko"
	v0=$(date +%s)
	"$VM" -q --kernel "$k" --timeout 240s --out "$TMP/$k" --add "$TMP/$k.add/rtproof_irqlat.ko" \
		--add "$TMP/irqlat-readers" -- "$TMP/guest.sh" >"$TMP/$k.out" 2>"$TMP/$k.err"
	rc=$?
	d=$TMP/$k
	ok $rc "$k: guest ran, no kernel warning ($(( $(date +%s) - v0 ))s wall; $(jq -r .kernel_warnings "$d/vm.json" 2>/dev/null) warning lines)"
	[ $rc = 0 ] || sed 's/^/# /' "$TMP/$k.err" | tail -n 12
	v0=$(date +%s)
	"$VM" -q --kernel "$k" --clock tcg --smp 2 --timeout 240s --out "$TMP/$k-two" \
		--add "$TMP/$k.add/rtproof_irqlat.ko" --add "$TMP/irqlat-readers" -- "$TMP/guest-two.sh" \
		>"$TMP/$k-two.out" 2>"$TMP/$k-two.err"
	rc=$?
	ok $rc "$k: second guest (tcg, 2 vCPUs) ran, no kernel warning ($(( $(date +%s) - v0 ))s wall)"
	[ $rc = 0 ] || sed 's/^/# /' "$TMP/$k-two.err" | tail -n 12
	cat "$d/readers.txt" "$TMP/$k-two/readers.txt" 2>/dev/null >"$d/all-readers.txt"
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok 0 "$k: ${line#ok - }" ;;
		"not ok - "*) ok 1 "$k: ${line#not ok - }" ;;
		esac
	done <"$d/all-readers.txt"
	[ "$(grep -c '^ok - ' "$d/all-readers.txt" 2>/dev/null)" = 3 ]
	ok $? "$k: all three reader checks passed"
	base=$(p50 "$d/mod.json" irq_latency) with=$(p50 "$d/delay.json" irq_latency)
	ebase=$(p50 "$d/mod.json" hardirq_entry) ewith=$(p50 "$d/delay.json" hardirq_entry)
	[ "$(cat "$d/delay.rc" 2>/dev/null)" = 0 ] && [ -n "$base" ] && [ -n "$with" ] && [ -n "$ebase" ] &&
		[ -n "$ewith" ] && [ "$ebase" != null ] && [ "$ewith" != null ] &&
		awk -v a="$base" -v b="$with" -v ea="$ebase" -v eb="$ewith" 'BEGIN {
			x = b - a; y = eb - ea; if (y < 0) y = -y
			exit !(x >= 180000 && x <= 220000 && y <= 20000) }'
	ok $? "$k: --delay 200 moves irq_latency p50 $base -> $with ns, not hardirq_entry p50 $ebase -> $ewith ns"
	diag "$k hardirq_entry (a->entry): no delay $(fig "$d/mod.json" hardirq_entry); delay 200 us $(fig "$d/delay.json" hardirq_entry)"
	diag "$k irq_latency (a->b):       no delay $(fig "$d/mod.json" irq_latency); delay 200 us $(fig "$d/delay.json" irq_latency)"
	diag "$k thread_wakeup $(fig "$d/mod.json" thread_wakeup); user_wakeup $(fig "$d/mod.json" user_wakeup); total $(fig "$d/mod.json" total)"
	diag "$k: $(grep -m1 '^uname' "$d/guest-info.txt" 2>/dev/null)"
	[ -z "${RTPROOF_KEEP:-}" ] || cp -r "$d" "$RTPROOF_KEEP/vm-irqlat-readers-$k"
done
done_testing
