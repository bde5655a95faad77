#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof_irqlat.ko and rtproof-irqlat in the guest, on the stock and the RT
# kernel (icount: the figures repeat): the module builds against each
# kernel's headers, loads, hands out records whose stages are ordered
# (a <= b <= c <= d), its handler runs in irq/N-rtproof (SCHED_FIFO 50), a
# planted 200 us primary-handler delay shows in a->b within 10 %, --irq-prio
# takes and is undone, unload leaves no device, no IRQ and no thread.  The
# timerlat and rtc sources run beside it, and rtla timerlat when the host
# has it, for the cross-check (figures printed as TAP diagnostics).
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
[ -x "$RTPROOF_BIN/rtproof-irqlat" ] || skip_all "rtproof-irqlat not built"
command -v make >/dev/null || skip_all "make not installed"
vm_fetch stock rt
for k in stock rt; do
	[ -d "$("$KERNEL" path $k)/headers/" ] ||
		skip_all "no kernel headers for $k in the cache (fetched with --no-headers? run: rtproof kernel fetch $k)"
done

DELAY_US=200
t0=$(date +%s)

# The guest's part: everything in one boot per kernel.
cat >"$TMP/guest.sh" <<EOF
#!/bin/sh
DELAY_US=$DELAY_US
EOF
cat >>"$TMP/guest.sh" <<'EOF'
insmod /usr/bin/rtproof_irqlat.ko >/res/insmod.txt 2>&1; echo $? >/res/insmod.rc
[ -c /dev/rtproof_irqlat ] && echo yes >/res/dev-before.txt
ps -o comm | grep -c '^irq/' >/res/irq-threads.txt
rtproof-irqlat -q -l 1000 --json /res/mod.json >/res/mod.txt 2>&1; echo $? >/res/mod.rc
rtproof-irqlat -q --source module -l 500 --delay $DELAY_US --json /res/delay.json >/res/delay.txt 2>&1
echo $? >/res/delay.rc
# --irq-prio, stopped by SIGINT while the reader is blocked in read()
rtproof-irqlat -q --source module -D 60s --irq-prio 70 --json /res/prio.json >/res/prio.txt 2>&1 &
rp=$!
# Until it holds the device (its signals are blocked by then: a SIGINT sent
# before that is lost, a background job ignores it): the start-up waits on
# 9p, and an idle icount guest runs its clock ahead meanwhile.
opened() { i=0; while [ $i -lt 100 ] && ! ls -l /proc/$1/fd 2>/dev/null | grep -q "$2"; do sleep 0.1; i=$((i + 1)); done; }
opened $rp rtproof_irqlat
sleep 0.3
kill -INT $rp
wait $rp
echo $? >/res/prio.rc
pid=$(ps -o pid,comm | awk '$2 ~ /^irq\/[0-9]+-rtproof$/ { print $1 }')
[ -n "$pid" ] && grep -E '^(policy|prio) ' /proc/$pid/sched | tr -s ' ' >/res/prio-after.txt 2>/dev/null
cat /sys/module/rtproof_irqlat/parameters/delay_us >/res/delay-after.txt
# The thread holds the line masked for 1.5 periods: every other expiry is busy.
echo 1500 >/sys/module/rtproof_irqlat/parameters/hold_us
rtproof-irqlat -q --source module -l 200 --json /res/busy.json >/res/busy.txt 2>&1; echo $? >/res/busy.rc
echo 0 >/sys/module/rtproof_irqlat/parameters/hold_us
# A reader that does not read: the queue (16 records) fills, the rest is
# dropped and counted, nothing hangs.
echo 16 >/sys/module/rtproof_irqlat/parameters/queue_len
exec 3</dev/rtproof_irqlat
sleep 0.3
dd bs=1536 count=1 <&3 >/res/raw.bin 2>/dev/null
dd bs=96 count=1 <&3 >>/res/raw.bin 2>/dev/null
exec 3<&-
echo 4096 >/sys/module/rtproof_irqlat/parameters/queue_len
rtproof-irqlat -q --source timerlat -l 1000 --json /res/tl.json >/res/tl.txt 2>&1; echo $? >/res/tl.rc
# The measuring thread's scheduling as /proc/TID/stat shows it during a run
# (rt_priority, policy: 1 = FIFO, then its name): the kernel's timerlat/0
# (6.1), or the suite's own timerlat_fd user thread timerlatu/0 (6.8+).
tl_sched() {
	for f in /proc/[0-9]*/task/[0-9]*/comm; do
		c=$(cat "$f" 2>/dev/null)
		case $c in timerlat/0|timerlatu/0)
			t=${f%/comm}
			echo "$(awk '{ print $40, $41 }' "$t/stat") $c"
			return ;;
		esac
	done
}
if grep -qw timerlat /sys/kernel/tracing/available_tracers 2>/dev/null; then
	rtproof-irqlat -q --source timerlat -D 3s >/dev/null 2>&1 &
	tp=$!
	opened $tp trace_pipe
	sleep 1
	tl_sched >/res/tl-sched.txt
	wait $tp
	rtproof-irqlat -q --source timerlat -D 3s --irq-prio 70 --json /res/tl-prio.json >/res/tl-prio.txt 2>&1 &
	tp=$!
	opened $tp trace_pipe
	sleep 1
	tl_sched >/res/tl-prio-sched.txt
	wait $tp
	echo $? >/res/tl-prio.rc
fi
if command -v rtla >/dev/null && grep -qw timerlat /sys/kernel/tracing/available_tracers; then
	rtla timerlat hist -d 1 -p 1000 -n -E 1000 -b 100 -P f:95 >/res/rtla.txt 2>&1
	echo $? >/res/rtla.rc
fi
rtproof-irqlat -q --source rtc -l 500 --json /res/rtc.json >/res/rtc.txt 2>&1; echo $? >/res/rtc.rc
rmmod rtproof_irqlat >/res/rmmod.txt 2>&1; echo $? >/res/rmmod.rc
{
	ls /dev/rtproof_irqlat 2>/dev/null
	grep rtproof /proc/interrupts
	ps -o comm | grep rtproof
	ls -d /sys/module/rtproof_irqlat 2>/dev/null
} >/res/leftovers.txt
dmesg >/res/dmesg.txt
exit 0
EOF
chmod +x "$TMP/guest.sh"

adds=()
command -v rtla >/dev/null && adds+=(--add "$(command -v rtla)")

p50() { jq -r ".metrics[] | select(.name == \"$2\") | .percentiles[\"50\"]" "$1" 2>/dev/null; }
fig() { # fig FILE METRIC: "p50/p99/max us"
	jq -r ".metrics[] | select(.name == \"$2\") |
		\"\(.percentiles[\"50\"] / 1000)/\(.percentiles[\"99\"] / 1000)/\(.max / 1000) us\"" "$1" 2>/dev/null
}

for k in stock rt; do
	b0=$(date +%s)
	# a clean make: nothing from an enclosing make (CC=, CFLAGS=, -j) reaches kbuild
	vm_kmake $k >"$TMP/build-$k.log" 2>&1
	rc=$?
	ko=$(vm_kmake $k -s print-ko 2>/dev/null)
	ok $rc "$k: rtproof_irqlat.ko builds against the kernel's headers ($(( $(date +%s) - b0 ))s)"
	if [ $rc -ne 0 ] || [ ! -f "$ko" ]; then
		sed 's/^/# /' "$TMP/build-$k.log" | tail -n 15
		continue
	fi
	rel=$(jq -Rr 'select(startswith("release=")) | sub("release="; "")' "$("$KERNEL" path $k)/info")
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null)
	case $vm in "$rel "*) true ;; *) false ;; esac
	ok $? "$k: vermagic '$vm' matches $rel"
	mkdir -p "$TMP/$k.add"
	cp "$ko" "$TMP/$k.add/" && chmod +x "$TMP/$k.add/rtproof_irqlat.ko"

	v0=$(date +%s)
	"$VM" -q --kernel $k --timeout 150s --out "$TMP/$k" --add "$TMP/$k.add/rtproof_irqlat.ko" \
		"${adds[@]}" -- "$TMP/guest.sh" >"$TMP/$k.out" 2>"$TMP/$k.err"
	rc=$?
	ok $rc "$k: guest ran ($(( $(date +%s) - v0 ))s)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/$k.err" "$TMP/$k/serial.log" 2>/dev/null | tail -n 20
	d=$TMP/$k

	[ "$(cat "$d/insmod.rc" 2>/dev/null)" = 0 ] && grep -qx yes "$d/dev-before.txt" 2>/dev/null
	ok $? "$k: module loads, /dev/rtproof_irqlat appears $(head -c 200 "$d/insmod.txt" 2>/dev/null)"
	[ "$(cat "$d/mod.rc" 2>/dev/null)" = 0 ] && jq_ok "$d/mod.json" '
		.params.source == "module" and .params.source_requested == "auto"
		and .events.records == 1000 and .events.unordered == 0
		and ([.metrics[] | select(.name == "irq_latency" or .name == "thread_wakeup") | .count] == [1000, 1000])
		and ([.metrics[] | select(.name == "user_wakeup") | .count] | .[0] >= 990)
		and ([.metrics[] | select(.unit == "ns" and .min >= 0)] | length) == 5
		and ([.metrics[] | select(.name == "hardirq_entry") | .count] == [1000])'
	rc=$?
	ok $rc "$k: auto picks the module; 1000 records, stages ordered (a<=entry<=b<=c<=d), four stage histograms and hardirq_entry"
	[ $rc -eq 0 ] || sed 's/^/# /' "$d/mod.txt" 2>/dev/null | tail -n 15
	jq_ok "$d/mod.json" '.params.irq_thread | .found and (.name | test("^irq/[0-9]+-rtproof$"))
		and .policy == "fifo" and .priority == 50 and .primary_in_hardirq and .timer_in_hardirq
		and .handler_in_kthread and .handler_pid == .pid'
	ok $? "$k: handler threaded in $(jq -r '.params.irq_thread | "\(.name) \(.policy) \(.priority)"' "$d/mod.json" 2>/dev/null), primary in hard IRQ"
	thr=$(jq -r .params.irq_thread.threading "$d/mod.json" 2>/dev/null)
	if [ $k = rt ]; then
		[ "$thr" = "forced (PREEMPT_RT)" ] && jq_ok "$d/mod.json" '.params.module.kernel_forces_threading == true'
	else
		[ "$thr" = "not forced" ] && jq_ok "$d/mod.json" '.params.module.kernel_forces_threading == false'
	fi
	ok $? "$k: IRQ threading reported as '$thr'"

	base=$(p50 "$d/mod.json" irq_latency)
	with=$(p50 "$d/delay.json" irq_latency)
	[ "$(cat "$d/delay.rc" 2>/dev/null)" = 0 ] && [ -n "$base" ] && [ -n "$with" ] &&
		awk -v a="$base" -v b="$with" -v d=$((DELAY_US * 1000)) \
			'BEGIN { x = b - a; exit !(x >= 0.9 * d && x <= 1.1 * d) }'
	ok $? "$k: planted ${DELAY_US} us delay shows in irq_latency p50: $base -> $with ns (within 10 %)"
	# the delay sits in the primary handler, after its entry: the real IRQ
	# latency (a -> entry) keeps its figure
	ebase=$(p50 "$d/mod.json" hardirq_entry)
	ewith=$(p50 "$d/delay.json" hardirq_entry)
	[ -n "$ebase" ] && [ -n "$ewith" ] && [ "$ebase" != null ] && [ "$ewith" != null ] &&
		awk -v a="$ebase" -v b="$ewith" -v d=$((DELAY_US * 1000)) \
			'BEGIN { y = b - a; if (y < 0) y = -y; exit !(y <= 0.1 * d) }'
	ok $? "$k: the delay leaves hardirq_entry p50 where it was: $ebase -> $ewith ns (within 10 % of the delay)"
	jq_ok "$d/delay.json" '.params.delay_us == '$DELAY_US' and .events.unordered == 0' &&
		[ "$(cat "$d/delay-after.txt" 2>/dev/null)" = 0 ]
	ok $? "$k: delay recorded in params and reset to 0 after the run"

	[ "$(cat "$d/prio.rc" 2>/dev/null)" = 0 ] &&
		jq_ok "$d/prio.json" '.events.stopped_by == "signal" and .events.records > 100 and .duration_s < 30' &&
		jq_ok "$d/prio.json" '.params.irq_thread | .priority_set and .priority == 70 and .original_priority == 50' &&
		grep -qx 'prio : 49' "$d/prio-after.txt" 2>/dev/null
	ok $? "$k: SIGINT stops a module run cleanly ($(jq -r .events.records "$d/prio.json" 2>/dev/null) records); --irq-prio 70 sets the IRQ thread ($(jq -c '.params.irq_thread | [.policy, .priority, .original_priority]' "$d/prio.json" 2>/dev/null)) and restores it ($(tr '\n' ' ' <"$d/prio-after.txt" 2>/dev/null))"

	[ "$(cat "$d/busy.rc" 2>/dev/null)" = 0 ] && jq_ok "$d/busy.json" '.params.module.hold_us == 1500
		and .events.unordered == 0 and .events.records == 200
		and .events.busy >= 180 and .events.busy <= 220 and .events.dropped == 0'
	ok $? "$k: a thread holding the line masked for 1.5 periods: $(jq -r '.events | "\(.busy) busy expiries for \(.records) events"' "$d/busy.json" 2>/dev/null) (want about one each)"
	# raw records, 12 u64 each: 1 seq, 2 a, 5 c, 6 d, 9 dropped (0-based)
	od -A n -t u8 -v -w96 "$d/raw.bin" 2>/dev/null >"$d/raw.txt"
	awk 'NR <= 16 && $2 != NR - 1 { bad = 1 } NR <= 16 && $7 != 0 { bad = 1 } $3 > $6 { bad = 1 }
	     NR == 17 { seq = $2; drop = $10 }
	     END { exit !(NR == 17 && !bad && drop >= 100 && seq == 16 + drop) }' "$d/raw.txt"
	ok $? "$k: a full queue keeps 16 records (seq 0..15, no wake stamp: nobody waited), drops and counts the rest: next record seq $(awk 'NR == 17 { print $2 ", dropped " $10 }' "$d/raw.txt" 2>/dev/null)"
	[ "$(cat "$d/rmmod.rc" 2>/dev/null)" = 0 ] && [ -f "$d/leftovers.txt" ] && [ ! -s "$d/leftovers.txt" ]
	ok $? "$k: rmmod leaves no device, IRQ, thread or sysfs entry $(head -c 200 "$d/leftovers.txt" 2>/dev/null)"

	grep -q "rtproof_irqlat: irq [0-9]*, thread irq/[0-9]*-rtproof" "$d/dmesg.txt" 2>/dev/null &&
		! grep -qE "WARNING:|BUG:|Call Trace" "$d/dmesg.txt"
	rc=$?
	ok $rc "$k: the kernel log has the module's line and no warning, BUG or call trace"
	[ $rc -eq 0 ] || grep -E -B2 -A8 "WARNING:|BUG:|Call Trace" "$d/dmesg.txt" 2>/dev/null | head -n 20 | sed 's/^/# /'
	if grep -q timerlat "$d/guest-info.txt" 2>/dev/null; then
		[ "$(cat "$d/tl.rc" 2>/dev/null)" = 0 ] && jq_ok "$d/tl.json" '.params.source == "timerlat"
			and ([.metrics[] | select(.name == "irq_latency" or .name == "thread_latency") | .count >= 950] == [true, true])'
		rc=$?
		ok $rc "$k: timerlat source: irq and thread latency ($(jq -r '.events | "\(.irq_samples) irq, \(.thread_samples) thread samples"' "$d/tl.json" 2>/dev/null))"
		[ $rc -eq 0 ] || sed 's/^/# /' "$d/tl.txt" 2>/dev/null | tail -n 5
		# Where timerlat_fd exists (6.8+) the measuring thread is the
		# suite's own user thread timerlatu/0, created at SCHED_FIFO 95 (or
		# --irq-prio); else the kernel thread timerlat/0, which raises
		# itself to FIFO after it starts. The document must say which, and
		# what it ran at, as /proc showed it during the run.
		read -r tprio tpol tcomm <"$d/tl-sched.txt" 2>/dev/null
		wl=$(jq -r .params.workload "$d/tl.json" 2>/dev/null)
		case $(jq -r .params.user_return_offered "$d/tl.json" 2>/dev/null) in
		true) want_wl="user threads (timerlat_fd)" want_comm=timerlatu/0 ;;
		*) want_wl="kernel threads (timerlat/N)" want_comm=timerlat/0 ;;
		esac
		[ "$wl" = "$want_wl" ] && [ "$tcomm" = "$want_comm" ] && [ "$tpol" = 1 ] &&
			jq_ok "$d/tl.json" '.params.irq_thread | .found and .name == "'"$want_comm"'"
			and .policy == "fifo" and .priority == '"${tprio:-0}"
		ok $? "$k: timerlat source ($wl) reports its thread as $(jq -r '.params.irq_thread | "\(.name) \(.policy) \(.priority)"' "$d/tl.json" 2>/dev/null); /proc during a run: ${tcomm:-?} policy ${tpol:-?} (1 = FIFO) priority ${tprio:-?}"
		read -r tprio tpol tcomm <"$d/tl-prio-sched.txt" 2>/dev/null
		[ "$(cat "$d/tl-prio.rc" 2>/dev/null)" = 0 ] && [ "$tcomm" = "$want_comm" ] && [ "$tpol" = 1 ] && [ "$tprio" = 70 ] &&
			jq_ok "$d/tl-prio.json" '.params.irq_thread | .name == "'"$want_comm"'" and .policy == "fifo" and .priority == 70
				and .priority_set and .original_policy == "fifo" and .original_priority == '"$(jq .params.irq_thread.priority "$d/tl.json" 2>/dev/null)"
		ok $? "$k: timerlat --irq-prio 70 holds: /proc during the run: ${tcomm:-?} policy ${tpol:-?} priority ${tprio:-?}; document $(jq -c '.params.irq_thread | [.name, .policy, .priority, .original_policy, .original_priority]' "$d/tl-prio.json" 2>/dev/null)"
	else
		skip "$k: timerlat source" "the guest kernel has no timerlat tracer"
	fi
	[ "$(cat "$d/rtc.rc" 2>/dev/null)" = 0 ] && jq_ok "$d/rtc.json" '.params.source == "rtc"
		and (.params.measures | test("hrtimer")) and ([.metrics[] | select(.name == "rtc_interval_error") | .count] == [500])'
	ok $? "$k: rtc source runs, labelled as hrtimer-emulated, and the machine survives PIE_OFF"

	diag "$k stage table (p50/p99/max): irq_latency $(fig "$d/mod.json" irq_latency)," \
		"thread_wakeup $(fig "$d/mod.json" thread_wakeup), user_wakeup $(fig "$d/mod.json" user_wakeup)," \
		"total $(fig "$d/mod.json" total)"
	diag "$k delay ${DELAY_US} us: irq_latency $(fig "$d/delay.json" irq_latency)"
	diag "$k: $(cat "$d/irq-threads.txt" 2>/dev/null) irq/ threads in the guest with the module loaded"
	[ ! -f "$d/tl.json" ] || ! jq_ok "$d/tl.json" '.metrics | length > 0' ||
		diag "$k timerlat source: irq $(fig "$d/tl.json" irq_latency), thread $(fig "$d/tl.json" thread_latency)"
	diag "$k rtc: interval error $(fig "$d/rtc.json" rtc_interval_error)"
	if [ "$(cat "$d/rtla.rc" 2>/dev/null)" = 0 ]; then
		diag "$k rtla timerlat hist (ns):"
		grep -E '^(count|min|avg|max):' "$d/rtla.txt" | sed "s/^/#   /"
	elif [ -f "$d/rtla.txt" ]; then
		diag "$k rtla timerlat: did not run: $(head -n 1 "$d/rtla.txt")"
	elif command -v rtla >/dev/null; then
		diag "$k rtla timerlat: not run (no timerlat tracer in this kernel)"
	else
		diag "$k rtla timerlat: not on the host (Debian: apt-get install rtla)"
	fi
	[ -z "${RTPROOF_KEEP:-}" ] || cp -r "$d" "$RTPROOF_KEEP/vm-irqlat-$k"
done
# Stock with threadirqs: the kernel forces threading, and the tool says so.
if [ -f "$TMP/stock.add/rtproof_irqlat.ko" ]; then
	cat >"$TMP/guest-ti.sh" <<'EOF'
#!/bin/sh
insmod /usr/bin/rtproof_irqlat.ko || exit 9
rtproof-irqlat -q -l 500 --json /res/mod.json >/res/mod.txt 2>&1; echo $? >/res/mod.rc
ps -o comm | grep -c '^irq/' >/res/irq-threads.txt
rmmod rtproof_irqlat
exit 0
EOF
	chmod +x "$TMP/guest-ti.sh"
	v0=$(date +%s)
	"$VM" -q --kernel stock --clock tcg --append threadirqs --timeout 120s --out "$TMP/ti" \
		--add "$TMP/stock.add/rtproof_irqlat.ko" -- "$TMP/guest-ti.sh" >/dev/null 2>"$TMP/ti.err"
	rc=$?
	ok $rc "stock threadirqs: guest ran ($(( $(date +%s) - v0 ))s)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/ti.err" | tail -n 10
	thr=$(jq -r .params.irq_thread.threading "$TMP/ti/mod.json" 2>/dev/null)
	[ "$thr" = "forced (threadirqs)" ] && jq_ok "$TMP/ti/mod.json" '.events.records == 500 and .events.unordered == 0
		and .params.irq_thread.found and .params.irq_thread.primary_in_hardirq'
	ok $? "stock threadirqs: threading reported as '$thr' ($(cat "$TMP/ti/irq-threads.txt" 2>/dev/null) irq/ threads in the guest)"
	diag "stock threadirqs stage table (p50/p99/max): irq_latency $(fig "$TMP/ti/mod.json" irq_latency)," \
		"thread_wakeup $(fig "$TMP/ti/mod.json" thread_wakeup), user_wakeup $(fig "$TMP/ti/mod.json" user_wakeup)," \
		"total $(fig "$TMP/ti/mod.json" total)"
	[ -z "${RTPROOF_KEEP:-}" ] || cp -r "$TMP/ti" "$RTPROOF_KEEP/vm-irqlat-threadirqs"
fi
diag "total $(( $(date +%s) - t0 ))s"
done_testing
