#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# --explain, planted truth in the guest on the stock and the RT kernel
# (icount, one vCPU: the reader swaps once and reads after the run):
#  - cyclic beside a FIFO 99 spinner (rtp-spin, 2 ms every 100 ms): every
#    explained outlier names rtp-spin (FIFO 99) first, by its pid and as a
#    user task (kthread false: a comm proves nothing, docs/security.md),
#    its time in the window within 10 % of the latency, its stretch never
#    longer than the planted 2 ms + 10 %, the longest within 10 % of it,
#    and the thread woken by the timer vector (woken_by);
#  - irqlat with 300 us planted in the module's primary handler: the hard
#    IRQ "rtproof" first, within 10 % of 300 us;
#  - audio with planted 40 ms stalls: each explained xrun names rtp-stall
#    (real-time 99) first, for at least half the xrun's lateness, its
#    stretch never longer than 40 ms + 10 % (read after the run, the stall
#    thread is gone: the trace's prio says RT 99, FIFO or RR is no longer
#    known);
#  A planted spin is not always one stretch: 6.12's fair server lends CFS
#  tasks (kworker, kcompactd, rcu_preempt) the CPU while a FIFO 99 task
#  spins, and migration/0 runs the soft-lockup watchdog every 4 s: a 9 s
#  FIFO 99 spin in the stock guest was switched out 22 times.  So a stretch
#  is bounded above for every outlier, and the whole planted length is
#  asserted on the longest one (cyclic: >= 10 outliers, one whole).
#  - under hackbench, beside a FIFO 99 hog of a name nobody knows (a copy of
#    rtp-spin, 1.1 ms every 50 ms), cyclic --explain=20us: every outlier
#    counted once (attributed + not_explained_by = outliers), >= 95 %
#    attributed to a culprit, and the run's culprit table (by_culprit)
#    names the hog (its pid, FIFO 99, user; hackbench's own rows, a
#    couple of windows a run on stock, are printed), and on PREEMPT_RT no
#    time is charged to a softirq vector (the thread that ran it has it);
#  - an IRQ-heavy load (9p I/O: the virtio IRQ) beside cyclic at FIFO 10:
#    on PREEMPT_RT the culprit table names the IRQ's thread irq/N-virtio...
#    as a kernel thread at FIFO 50 (its handler runs there), on the stock
#    kernel the hard IRQ virtio... and no irq/ thread, each in >= 20
#    windows and half of them (8 us: the windows of the IRQ run 8-11 us
#    since the local timer's events are not written, 10-12.5 us before;
#    a naming check, not an attribution one), over 2 rounds of 4 MiB
#    written and read back;
#  - the overhead: cyclic p50/p99 with and without --explain (diagnostics).
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
for p in rtproof-cyclic rtproof-irqlat rtproof-audio rtp-spin; do
	[ -x "$RTPROOF_BIN/$p" ] || skip_all "$p not built"
done
command -v make >/dev/null || skip_all "make not installed"
vm_fetch stock rt
KERNELS=${EXPLAIN_KERNELS:-stock rt}

cat >"$TMP/guest.sh" <<'EOF'
#!/bin/sh
# the spinner outlives the run: its policy is read after the run (one vCPU)
rtp-spin --cpu 0 --prio 99 --spin 2ms --every 100ms --duration 60s --delay 300ms >/res/spin.txt 2>&1 &
sp=$!
echo $sp >/res/spin.pid
rtproof-cyclic -q -p 80 -i 1000 -D 2s -a 0 --explain=500us --json /res/cyc.json >/res/cyc.txt 2>&1
echo $? >/res/cyc.rc
kill $sp
wait $sp
if insmod /usr/bin/rtproof_irqlat.ko >/res/insmod.txt 2>&1; then
	rtproof-irqlat -q --source module -l 300 --delay 300 --explain=200us --json /res/irq.json \
		>/res/irq.txt 2>&1
	echo $? >/res/irq.rc
	rmmod rtproof_irqlat
fi
rtproof-audio --backend timer --period 256 -n 2 -D 2.4 --plant-stall 40ms,1s --explain=20ms \
	--json /res/aud.json >/res/aud.txt 2>&1
echo $? >/res/aud.rc
# under hackbench, beside a FIFO 99 hog of a name nobody knows
if command -v hackbench >/dev/null; then
	cp /usr/bin/rtp-spin /tmp/qz-hog
	/tmp/qz-hog --cpu 0 --prio 99 --spin 1100us --every 50ms --duration 60s --delay 300ms >/res/hog.txt 2>&1 &
	hg=$!
	echo $hg >/res/hog.pid
	# short rounds: their forks and exits are where a stock kernel holds the CPU longest
	(while [ ! -e /tmp/hb.stop ]; do hackbench -g 4 -l 200 >/dev/null 2>&1; done) &
	hl=$!
	sleep 0.3
	rtproof-cyclic -q -p 80 -i 1000 -D 2s -a 0 --explain=20us --json /res/hb.json >/res/hb.txt 2>&1 &
	cy=$!
	# the load stops with the measurement: the after-run read then has the CPU to itself
	n=0
	while [ $n -lt 200 ] && ! ls /sys/kernel/tracing/instances | grep -q explain; do
		sleep 0.05
		n=$((n + 1))
	done
	sleep 2.1
	touch /tmp/hb.stop
	killall hackbench
	wait $cy
	echo $? >/res/hb.rc
	kill $hg
	wait $hg
	wait $hl
fi
# an IRQ-heavy load (9p writes and reads: the virtio IRQ), cyclic at FIFO 10, below the IRQ threads
# a fixed amount of I/O, not of time: the guest's clock jumps while it
# waits for the host (icount, sleep=off), so a second of guest time holds
# from none to many rounds, by the host's speed and load
rtproof-cyclic -q -p 10 -i 1000 -D 20s -a 0 --explain=8us --json /res/io.json >/res/io.txt 2>&1 &
cy=$!
sleep 0.3
n=0
while [ $n -lt 2 ]; do
	dd if=/dev/zero of=/res/io.tmp bs=64k count=64 conv=fsync 2>/dev/null
	cat /res/io.tmp >/dev/null
	n=$((n + 1))
done
echo $n >/res/io.rounds
kill -INT $cy
wait $cy
rm -f /res/io.tmp
# the overhead: the same run without and with --explain (nothing above its threshold)
rtproof-cyclic -q -p 80 -i 1000 -l 3000 -a 0 --json /res/ov0.json >/res/ov0.txt 2>&1
rtproof-cyclic -q -p 80 -i 1000 -l 3000 -a 0 --explain=1s --json /res/ov1.json >/res/ov1.txt 2>&1
rtproof-cyclic -q -p 80 -i 1000 -l 3000 -a 0 --json /res/ov2.json >/res/ov2.txt 2>&1
ls /sys/kernel/tracing/instances >/res/instances.txt
exit 0
EOF
chmod +x "$TMP/guest.sh"

fig() { jq -r '.metrics[0] | "\(.percentiles["50"] / 1000)/\(.percentiles["99"] / 1000)/\(.max / 1000) us"' "$1" 2>/dev/null; }

for k in $KERNELS; do
	adds=()
	ko=$(vm_module "$k" "$TMP/$k.add") && adds+=(--add "$ko")
	hb=$(command -v hackbench) && adds+=(--add "$hb")
	v0=$(date +%s)
	"$VM" -q --kernel $k --timeout 300s --out "$TMP/$k" "${adds[@]}" -- "$TMP/guest.sh" \
		>"$TMP/$k.out" 2>"$TMP/$k.err"
	rc=$?
	ok $rc "$k: guest ran ($(( $(date +%s) - v0 ))s)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/$k.err" | tail -n 20
	d=$TMP/$k

	# cyclic beside the spinner
	[ "$(cat "$d/cyc.rc" 2>/dev/null)" = 0 ]
	ok $? "$k: cyclic --explain exits 0 as without it"
	jq_ok "$d/cyc.json" '.events.explain.status == "on" and .events.explain.explained >= 10
		and .events.explain.outliers == .events.explain.explained + .events.explain.not_explained'
	ok $? "$k: cyclic: outliers explained ($(jq -c '.events.explain | {outliers, explained, not_explained_by}' "$d/cyc.json" 2>/dev/null))"
	sp=$(cat "$d/spin.pid" 2>/dev/null)
	jq_ok "$d/cyc.json" 'all(.events.explained[]; .culprits[0] as $c |
		$c.name == "rtp-spin" and $c.policy == "FIFO" and $c.prio == 99
		and $c.pid == '"${sp:-0}"' and $c.kthread == false
		and $c.stretch_ns <= 2200000
		and ($c.ns - .latency_ns | fabs) <= .latency_ns * 0.1
		and .late_by == "woken-late")
		and ([.events.explained[].culprits[0].stretch_ns] | max - 2000000 | fabs) <= 200000'
	ok $? "$k: cyclic: rtp-spin[$sp] (FIFO 99, user) first every time, its window time within 10 % of the latency, stretches <= 2.2 ms, the longest within 10 % of 2 ms"
	jq_ok "$d/cyc.json" '.events.explained | length > 0 and
		all(.[]; .woken_by.kind == "vector" and .woken_by.name == "local_timer")'
	ok $? "$k: cyclic: every window says the timer vector woke the thread ($(jq -c '[.events.explained[].woken_by] | unique' "$d/cyc.json" 2>/dev/null))"
	diag "$k: $(grep -m1 'late on CPU' "$d/cyc.txt")"
	diag "$k: cyclic stretches: $(jq -c '[.events.explained[].culprits[0].stretch_ns] | [min, max]' "$d/cyc.json" 2>/dev/null) ns (planted 2000000)"
	grep -q "late on CPU 0: rtp-spin\[${sp:-0}\] (FIFO 99, user) ran [0-9.]* ms" "$d/cyc.txt"
	ok $? "$k: cyclic: the console names the spinner per outlier, with its pid, as a user task"

	# irqlat with a planted primary-handler delay
	if [ -f "$d/irq.rc" ]; then
		jq_ok "$d/irq.json" '.events.explain.explained >= 10 and
			all(.events.explained[]; .culprits[0] as $c | $c.kind == "irq" and $c.name == "rtproof"
				and $c.kthread == null and ($c.ns - 300000 | fabs) <= 30000)'
		ok $? "$k: irqlat: the hard IRQ rtproof first, within 10 % of the planted 300 us ($(jq -c '[.events.explained[].culprits[0].ns] | [min, max]' "$d/irq.json" 2>/dev/null) ns)"
		diag "$k: $(grep -m1 'late on CPU' "$d/irq.txt")"
		diag "$k: irqlat: woken by $(jq -c '[.events.explained[].woken_by] | unique' "$d/irq.json" 2>/dev/null)"
	else
		skip "$k: irqlat planted IRQ" "the module did not build or load: $(tail -n 1 "$TMP/build-$k.log" "$d/insmod.txt" 2>/dev/null | tr '\n' ' ')"
	fi

	# audio with planted stalls
	jq_ok "$d/aud.json" '.events.explain.explained >= 1 and
		all(.events.explained[] | select(.metric == "xrun"); .culprits[0] as $c |
			$c.name == "rtp-stall" and ($c.policy == "FIFO" or $c.policy == "RT") and $c.prio == 99
			and ($c.kthread == false or $c.kthread == null)
			and $c.ns >= .latency_ns * 0.5
			and $c.stretch_ns <= 44000000)
		and ([.events.explained[] | select(.metric == "xrun")] | length) >= 1'
	ok $? "$k: audio: each explained xrun names rtp-stall (RT 99) first, for >= half its lateness, its stretch <= 44 ms (lateness, ran, stretch ns: $(jq -c '[.events.explained[] | select(.metric == "xrun") | [.latency_ns, .culprits[0].ns, .culprits[0].stretch_ns]]' "$d/aud.json" 2>/dev/null))"
	diag "$k: $(grep -m1 'late on CPU' "$d/aud.txt")"

	# under hackbench, beside a hog of a name nobody knows
	if [ -f "$d/hb.rc" ]; then
		hp=$(cat "$d/hog.pid" 2>/dev/null)
		jq_ok "$d/hb.json" '.events.explain as $e | $e.status == "on" and $e.outliers >= 20
			and $e.attributed + ($e.not_explained_by | add) == $e.outliers
			and $e.explained + $e.not_explained == $e.outliers'
		ok $? "$k: hackbench: every outlier counted once ($(jq -c '.events.explain | {outliers, attributed, not_explained_by}' "$d/hb.json" 2>/dev/null))"
		jq_ok "$d/hb.json" 'any(.events.explain.by_culprit[]; .name == "qz-hog" and .pid == '"${hp:-0}"'
				and .policy == "FIFO" and .prio == 99 and .kthread == false and .attributed >= 10)'
		ok $? "$k: hackbench: the culprit table names qz-hog[$hp] (FIFO 99, user) ($(jq -c '[.events.explain.by_culprit[0:6][] | [.name, .pid, .ns, .outliers, .attributed]]' "$d/hb.json" 2>/dev/null))"
		# hackbench itself, on the stock kernel, holds the thread off in a
		# couple of windows a run (2 in 49 seen, 0 in 40 another time): a
		# count that small is printed, not asserted
		diag "$k: hackbench: the table's hackbench rows: $(jq -c '[.events.explain.by_culprit[] | select(.name == "hackbench") | [.pid, .outliers, .attributed]]' "$d/hb.json" 2>/dev/null)"
		grep -q "qz-hog\[${hp:-0}\] (FIFO 99, user)" "$d/hb.txt"
		ok $? "$k: hackbench: the console's table names the hog"
		diag "$k: $(grep -m1 '^explain:' "$d/hb.txt")"
		jq_ok "$d/hb.json" '.events.explain.attributed >= .events.explain.outliers * 0.95'
		ok $? "$k: hackbench: >= 95 % of the outliers attributed ($(jq -r '.events.explain | "\(.attributed) of \(.outliers)"' "$d/hb.json" 2>/dev/null))"
		if [ "$k" = rt ]; then
			jq_ok "$d/hb.json" '(.events.explain.softirq_charged_to | startswith("task"))
				and all(.events.explain.by_culprit[]; .kind != "softirq")'
			ok $? "$k: hackbench: PREEMPT_RT: softirq work charged to the threads that ran it ($(jq -c '[.events.explain.by_culprit[] | select(.softirq_ns) | [.name, .policy, .prio, .softirq_ns]]' "$d/hb.json" 2>/dev/null))"
		else
			jq_ok "$d/hb.json" '.events.explain.softirq_charged_to | startswith("softirq")'
			ok $? "$k: hackbench: stock: softirqs charged to the vector"
		fi
	else
		skip "$k: hackbench" "hackbench not installed here (Debian: rt-tests)"
	fi

	# an IRQ-heavy load: the right context
	if [ "$k" = rt ]; then
		jq_ok "$d/io.json" '.events.explain as $e | any($e.by_culprit[]; .kind == "task" and (.name | startswith("irq/"))
			and (.name | test("virtio")) and .kthread == true and .policy == "FIFO" and .prio == 50
			and .outliers >= 20 and .outliers * 2 >= $e.outliers)'
		ok $? "$k: IRQ load: the table names the IRQ thread (FIFO 50, kernel thread) in >= 20 windows and >= half the outliers ($(jq -c '[.events.explain.by_culprit[0:3][] | [.name, .kind, .policy, .prio, .kthread, .outliers]]' "$d/io.json" 2>/dev/null))"
	else
		jq_ok "$d/io.json" '.events.explain as $e | any($e.by_culprit[]; .kind == "irq" and (.name | startswith("virtio"))
			and .outliers >= 20 and .outliers * 2 >= $e.outliers) and all($e.by_culprit[]; .name | startswith("irq/") | not)'
		ok $? "$k: IRQ load: the table names the hard IRQ virtio... in >= 20 windows and >= half the outliers, no IRQ thread ($(jq -c '[.events.explain.by_culprit[0:3][] | [.name, .kind, .outliers]]' "$d/io.json" 2>/dev/null))"
	fi
	diag "$k: IRQ load: $(cat "$d/io.rounds" 2>/dev/null) rounds of 4 MiB; $(grep -m1 '^explain:' "$d/io.txt")"

	# overhead, and nothing left behind
	diag "$k: overhead, p50/p99/max: without $(fig "$d/ov0.json"), with --explain $(fig "$d/ov1.json"), without again $(fig "$d/ov2.json")"
	jq_ok "$d/ov1.json" '.events.explain.status == "on" and .events.explain.outliers == 0'
	ok $? "$k: --explain=1s: tracing on, no outlier"
	[ -f "$d/instances.txt" ] && ! grep -q rtproof "$d/instances.txt"
	ok $? "$k: no tracing instance left behind"
done
done_testing
