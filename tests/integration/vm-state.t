#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# State left behind (docs/security.md), in the guest, where tracefs
# and the module are real: rtproof-cyclic --explain and rtproof-irqlat
# --source module --delay 300 are killed by SIGKILL in the middle of their
# runs, leaving the tracing instance and the planted delay; the next bench
# run says what it restored (stderr and events.restored[]) and the system
# is as before: no rtproof instance, delay_us back, current_tracer as it
# was, no state file left.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
for p in rtproof-cyclic rtproof-irqlat; do
	[ -x "$RTPROOF_BIN/$p" ] || skip_all "$p not built"
done
command -v make >/dev/null || skip_all "make not installed"
KERNELS=${STATE_KERNELS:-stock}
vm_fetch $KERNELS

cat >"$TMP/guest.sh" <<'EOF'
#!/bin/sh
T=/sys/kernel/tracing
P=/sys/module/rtproof_irqlat/parameters
# wait_for FILE-TEST PATH: up to 30 s
wait_for() { i=0; while [ $i -lt 300 ] && ! test "$1" "$2"; do sleep 0.1; i=$((i + 1)); done; }
insmod /usr/bin/rtproof_irqlat.ko >/res/insmod.txt 2>&1 && echo 1 >/res/module
cat $T/current_tracer >/res/tracer0.txt
cat $P/delay_us >/res/delay0.txt 2>/dev/null
ls $T/instances >/res/inst0.txt

# both at once: the second one started sees the first alive (its lock held)
# and leaves it alone; then both are killed
rtproof-cyclic -q -p 80 -i 1000 -D 120s -a 0 --explain=500us >/res/k1.txt 2>&1 &
p1=$!
wait_for -d $T/instances/rtproof-explain-$p1
sleep 1
p2=
if [ -f /res/module ]; then
	rtproof-irqlat -q --source module -D 120s --delay 300 >/res/k2.txt 2>&1 &
	p2=$!
	wait_for -f /run/rtproof/state/$p2.state
	sleep 1
	cat /run/rtproof/state/$p2.state >/res/state-k2.txt 2>&1
	cat $P/delay_us >/res/delay1.txt
fi
cat /run/rtproof/state/$p1.state >/res/state-k1.txt 2>&1
ls $T/instances >/res/inst-mid.txt
kill -9 $p1 $p2
wait $p1 $p2
ls $T/instances >/res/inst1.txt

rtproof-cyclic -q -p 80 -i 1000 -l 200 -a 0 --json /res/second.json >/res/second.txt 2>/res/second.err
echo $? >/res/second.rc
ls $T/instances >/res/inst2.txt
cat $T/current_tracer >/res/tracer2.txt
cat $P/delay_us >/res/delay2.txt 2>/dev/null
ls -A /run/rtproof/state >/res/state2.txt 2>&1
rtproof cleanup >/res/cleanup.txt 2>&1
echo $? >/res/cleanup.rc
[ -f /res/module ] && rmmod rtproof_irqlat
exit 0
EOF
chmod +x "$TMP/guest.sh"

for k in $KERNELS; do
	adds=()
	ko=$(vm_module "$k" "$TMP/$k.add") && adds+=(--add "$ko")
	v0=$(date +%s)
	"$VM" -q --kernel $k --clock tcg --timeout 300s --out "$TMP/$k" "${adds[@]}" -- "$TMP/guest.sh" \
		>"$TMP/$k.out" 2>"$TMP/$k.err"
	rc=$?
	ok $rc "$k: guest ran ($(( $(date +%s) - v0 ))s)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/$k.err" | tail -n 20
	d=$TMP/$k
	sed 's/^/# state file of the killed cyclic: /' "$d/state-k1.txt" 2>/dev/null
	sed 's/^/# state file of the killed irqlat: /' "$d/state-k2.txt" 2>/dev/null
	sed 's/^/# second run: /' "$d/second.err" 2>/dev/null

	# the killed runs left their changes
	grep -q '^rtproof-explain-' "$d/inst1.txt" 2>/dev/null
	ok $? "$k: the killed cyclic --explain left its tracing instance ($(tr '\n' ' ' <"$d/inst1.txt" 2>/dev/null))"
	grep -q "^rmdir /sys/kernel/tracing/instances/rtproof-explain-" "$d/state-k1.txt" 2>/dev/null
	ok $? "$k: ... recorded in its state file"

	grep -q '^rtproof-explain-' "$d/inst-mid.txt" 2>/dev/null && ! grep -q 'restored\|removed' "$d/k2.txt" 2>/dev/null
	ok $? "$k: irqlat started beside the live cyclic left its instance alone"

	# the second run repairs and says so
	[ "$(cat "$d/second.rc" 2>/dev/null)" = 0 ]
	ok $? "$k: the second run exits 0 ($(cat "$d/second.rc" 2>/dev/null))"
	grep -q "^rtproof-cyclic: removed tracing instance /sys/kernel/tracing/instances/rtproof-explain-[0-9]* (left by pid [0-9]*)$" "$d/second.err"
	ok $? "$k: it says it removed the instance"
	jq_ok "$d/second.json" 'any(.events.restored[]; .action == "removed" and (.path | test("/instances/rtproof-explain-")))'
	ok $? "$k: events.restored[] lists it ($(jq -c '.events.restored' "$d/second.json" 2>/dev/null))"
	! grep -q rtproof "$d/inst2.txt" 2>/dev/null && [ -f "$d/inst2.txt" ]
	ok $? "$k: no rtproof tracing instance is left"
	cmp -s "$d/tracer0.txt" "$d/tracer2.txt"
	ok $? "$k: current_tracer as before ($(cat "$d/tracer2.txt" 2>/dev/null))"
	[ -f "$d/state2.txt" ] && [ ! -s "$d/state2.txt" ]
	ok $? "$k: no state file left ($(tr '\n' ' ' <"$d/state2.txt" 2>/dev/null))"
	[ "$(cat "$d/cleanup.rc" 2>/dev/null)" = 0 ] && grep -qx 'nothing to restore' "$d/cleanup.txt"
	ok $? "$k: rtproof cleanup afterwards: nothing to restore ($(cat "$d/cleanup.txt" 2>/dev/null))"

	if [ -f "$d/module" ]; then
		[ "$(cat "$d/delay1.txt")" = 300 ]
		ok $? "$k: the killed irqlat left delay_us planted ($(cat "$d/delay1.txt"))"
		grep -q "^rtproof-cyclic: restored /sys/module/rtproof_irqlat/parameters/delay_us to '$(cat "$d/delay0.txt")' (left by pid [0-9]*)$" "$d/second.err"
		ok $? "$k: the second run says it restored delay_us to '$(cat "$d/delay0.txt")'"
		cmp -s "$d/delay0.txt" "$d/delay2.txt"
		ok $? "$k: delay_us as before ($(cat "$d/delay2.txt"))"
	else
		skip "$k: the module's delay_us" "the module did not build or load: $(tail -n 1 "$TMP/build-$k.log" "$d/insmod.txt" 2>/dev/null | tr '\n' ' ')"
	fi
done
done_testing
