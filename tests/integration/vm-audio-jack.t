#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof-audio --backend jack in the icount guest (Debian's 6.12 RT
# kernel, one vCPU), with jackd (-R -d dummy, 256 frames at 48 kHz)
# started by --start-server (issue 27):
#  - a light run: 0 xruns, and the wake-up lateness is the cycle's real
#    start (jack_frames_since_cycle_start), not the server's filtered
#    one: the filtered start is off by milliseconds in such a run
#    (recorded, filter_off_max_ns), the lateness must stay under 1 ms;
#  - a SCHED_FIFO 7 spinner (above the client's FIFO 5, below jackd's
#    FIFO 10), 100 ms every 500 ms: xruns put down to late wake-ups,
#    about 100 ms late, and --explain names the spinner in every window;
#  - --plant-stall 100ms (a FIFO 99 thread on the one CPU): the server's
#    driver is held too, so the xruns are the server's (its cycles began
#    ~95 ms late), and --explain names the planted thread.
# Latencies asserted in the icount guest: rule (a) of tests/README.md.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
for p in rtproof-audio rtp-spin; do
	[ -x "$RTPROOF_BIN/$p" ] || skip_all "$p not built"
done
command -v jackd >/dev/null && command -v jack_lsp >/dev/null || skip_all "jackd not installed (apt-get install jackd2)"
drv=$(ls /usr/lib/*/jack/jack_dummy.so 2>/dev/null | head -n 1)
[ -n "$drv" ] || skip_all "jackd2's dummy driver (jack/jack_dummy.so) not found"
vm_fetch rt-6.12

# jackd loads its driver from JACK_DRIVER_DIR; --add takes executables
mkdir -p "$TMP/drv" && install -m 755 "$drv" "$TMP/drv/" || echo "not ok - cannot stage the driver"
cat >"$TMP/guest.sh" <<'EOF'
#!/bin/sh
export JACK_DRIVER_DIR=/usr/bin
rtproof-audio -q --backend jack --start-server --period 256 -D 5 --json /res/light.json >/res/light.txt 2>&1
echo $? >/res/light.rc
# the spinner outlives the run: its policy is read after it
rtp-spin --cpu 0 --prio 7 --spin 100ms --every 500ms --duration 30s --delay 1s >/res/spin.txt 2>&1 &
sp=$!
echo $sp >/res/spin.pid
rtproof-audio -q --backend jack --start-server --period 256 -D 3 --explain=1ms --json /res/spin.json >/res/spin.out 2>&1
echo $? >/res/spin.rc
kill $sp
wait $sp
rtproof-audio -q --backend jack --start-server --period 256 -D 2.2 --plant-stall 100ms,500ms --explain=1ms \
	--json /res/st.json >/res/st.txt 2>&1
echo $? >/res/st.rc
exit 0
EOF
chmod +x "$TMP/guest.sh"
v0=$(date +%s)
# jack_lsp brings libjack.so.0 (rtproof-audio loads it with dlopen)
"$VM" -q --kernel rt-6.12 --timeout 300s --out "$TMP/g" --add jackd --add jack_lsp --add "$TMP/drv/${drv##*/}" \
	-- "$TMP/guest.sh" >"$TMP/vm.out" 2>"$TMP/vm.err"
rc=$?
ok $rc "guest ran ($(($(date +%s) - v0)) s)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/vm.err" | tail -n 20
d=$TMP/g
for f in light spin st; do
	[ -f "$d/$f.txt" ] && sed "s/^/# $f: /" "$d/$f.txt" | grep -v ' \.\. '
	[ -f "$d/$f.out" ] && sed "s/^/# $f: /" "$d/$f.out" | grep -v ' \.\. '
done

lat() { jq -r '.metrics[0] | "p50 \(.percentiles["50"] / 1000) us, max \(.max / 1000) us"' "$1" 2>/dev/null; }
jq_ok "$d/light.json" '.events.xruns == 0 and .events.periods_written > 800 and .params.granted.period_frames == 256'
ok $? "light run: 0 xruns, $(jq .events.periods_written "$d/light.json" 2>/dev/null) periods of 256 frames in 5 s (exit $(cat "$d/light.rc" 2>/dev/null))"
jq_ok "$d/light.json" '.metrics[0].max < 1000000 and .metrics[0].percentiles["50"] <= 3 * .events.jack.frame_resolution_ns'
ok $? "light run: lateness from the cycle's real start, p50 within 3 frames, max under 1 ms ($(lat "$d/light.json")); the server's filtered start was off by $(jq '.events.jack.filter_off_max_ns / 1e6' "$d/light.json" 2>/dev/null) ms"

sp=$(cat "$d/spin.pid" 2>/dev/null)
[ "$(cat "$d/spin.rc" 2>/dev/null)" = 2 ] && jq_ok "$d/spin.json" '.events.xruns >= 4
	and .events.xrun_causes["late-wakeup"] == .events.xruns
	and ([.events.xrun_list[].lateness_ns] | min >= 80000000 and max <= 130000000)'
ok $? "FIFO 7 spinner, 100 ms every 500 ms: $(jq .events.xruns "$d/spin.json" 2>/dev/null) xruns, all late wake-ups, $(jq -c '[.events.xrun_list[].lateness_ns / 1e6 | floor]' "$d/spin.json" 2>/dev/null) ms late"
jq_ok "$d/spin.json" '.events.explain.outliers >= .events.xruns and .events.explain.attributed == .events.explain.outliers
	and all(.events.explained[]; .culprits[0] as $c | $c.name == "rtp-spin" and $c.pid == '"${sp:-0}"'
		and $c.policy == "FIFO" and $c.prio == 7 and $c.ns >= .latency_ns * 0.9)'
ok $? "--explain names the spinner (FIFO 7, pid ${sp:-?}) in every window: $(jq -c '.events.explain | {outliers, attributed}' "$d/spin.json" 2>/dev/null)"

[ "$(cat "$d/st.rc" 2>/dev/null)" = 2 ] && jq_ok "$d/st.json" '.events.stalls_planted >= 3 and .events.xruns >= .events.stalls_planted
	and .events.xrun_causes.server == .events.xruns
	and .events.jack.server_late_max_ns >= 80000000 and .events.jack.server_late_max_ns <= 130000000
	and ([.events.xrun_list[] | select(.lateness_ns >= 80000000)] | length) >= 3'
ok $? "FIFO 99 plant on the one CPU: the server's driver held too, xruns the server's: $(jq -c '.events.xrun_causes' "$d/st.json" 2>/dev/null), its cycles up to $(jq '.events.jack.server_late_max_ns / 1e6' "$d/st.json" 2>/dev/null) ms late, the xruns' lateness from when the cycle was due $(jq -c '[.events.xrun_list[].lateness_ns / 1e6 | floor]' "$d/st.json" 2>/dev/null) ms"
jq_ok "$d/st.json" '.events.explain.attributed == .events.explain.outliers and .events.explain.outliers >= .events.stalls_planted
	and all(.events.explained[]; .culprits[0].name == "rtp-stall" and .culprits[0].prio == 99 and .latency_ns >= 80000000)'
ok $? "--explain names the planted FIFO 99 thread for each, from when the cycle was due: $(jq -c '[.events.explained[] | .latency_ns / 1e6 | floor]' "$d/st.json" 2>/dev/null) ms"
done_testing
