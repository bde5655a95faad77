#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=serial
# rtproof-audio --backend pipewire against a PipeWire of the test's own:
# `pipewire -c` with a minimal configuration (native protocol, profiler,
# a Dummy-Driver at 48 kHz, quantum 1024), a private XDG_RUNTIME_DIR and
# PIPEWIRE_RUNTIME_DIR and a remote name of its own, stopped by pid; no
# session manager, no D-Bus. A clean run's document; a second, slow node
# (tests/tools/rtp-pw-slow) named for the cycles it left incomplete;
# 100 % DSP load put down to this node's own work; no PipeWire and no
# server are skips; bad input is one line, exit 1; SIGINT and the server
# gone mid-run keep the document.
#
# What is asserted is who is to blame, from the profiler's records and the
# node's own work figures, and counts, not a latency: the planted stall
# (100 ms every 25 cycles of 21.3 ms) is not 10x this host's own stalls
# (5-35 ms). The clean run is not promised 0 xruns (this host stalls
# mid-run too): each xrun it claims must be an incomplete cycle of its own
# call held up 1 ms or more, each printed.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/audio-servers.sh"

if ! command -v jq >/dev/null; then
	echo "1..0 # SKIP jq not installed"
	exit 0
fi

one_line_skip() {	# one_line_skip PATTERN DESCRIPTION -- ARGS...: exit 4, one line, a skip document
	_pat=$1 _d=$2; shift 3
	rm -f "$TMP/skip.json"
	"$@" --json "$TMP/skip.json" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	[ $_rc -eq 4 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$_pat" "$TMP/err" &&
		jq_ok "$TMP/skip.json" '.verdict.status == "skip" and .params.backend == "pipewire"'
	ok $? "$_d: one line, exit 4, a skip document (got $_rc: $(cat "$TMP/err"))"
}

# Private runtime and configuration directories: no user's session is seen or touched.
RUN=$TMP/run
mkdir -m 700 "$RUN" "$TMP/config"
REMOTE=rtproof-t$(basename "$TMP" | sed "s/.*\.//" | tr -cd "A-Za-z0-9")
export XDG_RUNTIME_DIR="$RUN" PIPEWIRE_RUNTIME_DIR="$RUN" XDG_CONFIG_HOME="$TMP/config"
unset PIPEWIRE_REMOTE PIPEWIRE_DEBUG PIPEWIRE_LATENCY PIPEWIRE_QUANTUM PIPEWIRE_PROPS

# ---- built without PipeWire's headers, or no PipeWire installed ---------------
if rtp-pw-slow 2>&1 | grep -q "built without"; then
	one_line_skip "built without PipeWire's headers" "a build without libpipewire-0.3-dev" -- \
		rtproof-audio --backend pipewire -D 1
	diag "the rest skipped: built without PipeWire's headers (make deps, then rebuild)"
	done_testing
	exit
fi
LIB=$(ldconfig -p 2>/dev/null | awk '/libpipewire-0\.3\.so\.0 /{ print $NF; exit }')
if [ -z "$LIB" ] || ! command -v pipewire >/dev/null; then
	one_line_skip "cannot load libpipewire-0.3\|no PipeWire server" "no PipeWire" -- \
		rtproof-audio --backend pipewire -D 1
	diag "the rest skipped: PipeWire is not installed (packages pipewire, libpipewire-0.3-dev)"
	done_testing
	exit
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "1..0 # SKIP the data thread and the audio thread need real-time privileges (root)"
	exit 0
fi
# Its library hidden (an empty file bound over it, in a mount namespace of its own).
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	LIBF=$(readlink -f "$LIB")
	one_line_skip "cannot load libpipewire-0.3 (package libpipewire-0.3-0)" "libpipewire missing" -- \
		unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$LIBF" \
		rtproof-audio --backend pipewire -D 1
else
	skip "libpipewire missing: one line, exit 4" "no unshare -m here to hide the library"
fi

# ---- no server, then a server of its own ---------------------------------------
PWPID= SPID=
trap '[ -n "$SPID" ] && kill "$SPID" 2>/dev/null; [ -n "$PWPID" ] && kill "$PWPID" 2>/dev/null; wait; rm -rf "$TMP"' EXIT

one_line_skip "no PipeWire server '$REMOTE' running" "no server" -- \
	rtproof-audio --backend pipewire --server "$REMOTE" -D 1

pw_server_conf "$TMP/pw.conf" "$REMOTE" 1024 88
pipewire -c "$TMP/pw.conf" >"$TMP/pw.log" 2>&1 &
PWPID=$!
up=1
for _ in $(seq 100); do
	[ -S "$RUN/$REMOTE" ] && { up=0; break; }
	kill -0 "$PWPID" 2>/dev/null || break
	sleep 0.1
done
ok $up "pipewire -c (remote $REMOTE, Dummy-Driver, 48 kHz, quantum 1024) is up (pid $PWPID)"
if [ $up -ne 0 ]; then
	sed 's/^/# pipewire: /' "$TMP/pw.log"
	done_testing
	exit
fi
PW="rtproof-audio --backend pipewire --server $REMOTE"

# ---- bad input: one line, exit 1, no document --------------------------------
BENCH=$PW
expect1 "error: --rate 44100: the PipeWire graph runs at 48000 Hz" "a rate the graph does not run" -- --rate 44100
expect1 "error: --period 4096: the PipeWire graph runs 2048-frame quanta" "a quantum over the server's max-quantum" -- --period 4096
expect1 'error: -n 3: the PipeWire graph has one quantum a cycle' "periods are the graph's" -- -n 3
expect1 "error: -p 70: PipeWire's module-rt sets the data thread's priority" "priority is module-rt's" -- -p 70
expect1 'error: -f S16_LE: this PipeWire stream carries 32-bit float only' "one format" -- -f S16_LE
expect1 'error: --access rw: PipeWire hands the stream its buffers' "no access mode" -- --access rw
expect1 'error: --device hw:0: a PipeWire stream here is not linked to a device' "no device" -- --device hw:0
expect1 'error: --start-server: needs --backend jack' "no server of its own" -- --start-server
expect1 'error: --dsp-load 150: DSP load must be 0..100' "a load over 100 %" -- --dsp-load 150

# ---- (a) a clean run ------------------------------------------------------------
stall0=$(host_stall_us 0)
$PW -D 3 --json "$TMP/light.json" >"$TMP/light.out" 2>&1
rc=$?
stall1=$(host_stall_us 0)
jq_ok "$TMP/light.json" '.params.backend == "pipewire" and .params.granted.rate == 48000 and
	.params.granted.period_frames == 1024 and .params.granted.resolution_ns == 0 and
	.metrics[0].name == "wakeup_lateness" and .metrics[0].unit == "ns" and
	.metrics[0].count >= 100 and .metrics[0].count == .events.periods_written and
	.metrics[0].percentiles["50"] > 0 and .metrics[0].percentiles["50"] < 21333334 and
	.events.pipewire.driver == "Dummy-Driver" and .events.pipewire.driver_clock == "clock.system.monotonic" and
	.events.pipewire.profiler and .events.pipewire.profiler_records >= .metrics[0].count'
ok $? "clean run: $(jq .metrics[0].count "$TMP/light.json") cycles of 1024 frames at 48000 Hz in 3 s under Dummy-Driver, lateness p50 $(jq '.metrics[0].percentiles["50"]' "$TMP/light.json") ns, max $(jq '.metrics[0].max' "$TMP/light.json") ns, $(jq .events.pipewire.profiler_records "$TMP/light.json") profiler records (exit $rc)"
jq_ok "$TMP/light.json" '.events.pipewire.realtime and .events.pipewire.data_thread.policy == "SCHED_FIFO" and
	.events.pipewire.data_thread.priority == 88'
ok $? "the data thread, read back: $(jq -c .events.pipewire.data_thread "$TMP/light.json") (client-rt.conf's module-rt)"
# No xrun claimed falsely: each is an incomplete cycle the profiler
# reported, and in this graph of one node the node named is this one,
# its own call held up past its deadline by 1 ms or more (5x its p99
# lateness), or a cycle the driver itself began over half a cycle late
# and this node finished past its deadline (the server's): a stall of this host (5-35 ms now
# and then), printed. A 0 here is not asserted: the host's stalls come
# mid-run too (rule (b) of tests/README.md samples them only before and
# after).
jq_ok "$TMP/light.json" '.events.xruns == .events.pipewire.incomplete_cycles + .events.pipewire.late_complete_cycles and
	.events.xruns == (.events.xrun_list | length) and
	all(.events.xrun_list[]; (.culprit == "rtproof-audio" or (.cause == "server" and .culprit == "Dummy-Driver")) and
		(.lateness_ns >= 1000000 or .gap_ns >= 1000000))'
ok $? "clean run: $(jq .events.xruns "$TMP/light.json") xruns, none claimed falsely: each an incomplete cycle of this node's own call 1 ms late or more (host stalls ${stall0} and ${stall1} us around the run; [culprit, cause, lateness, gap]: $(jq -c '[.events.xrun_list[] | [.culprit, .cause, .lateness_ns, .gap_ns]]' "$TMP/light.json"))"
grep -q "^verdict: .* at 1024 frames per cycle, 48 kHz (21.33 ms cycle) \[PipeWire\]" "$TMP/light.out"
ok $? "the verdict speaks of cycles: $(grep '^verdict' "$TMP/light.out")"

# ---- (b) a second, slow node ------------------------------------------------------
# rtp-pw-slow spins 100 ms (4.7 cycles) every 25th cycle: each spin leaves
# 4 or 5 cycles incomplete, the profiler naming 'slowpoke' as not finished.
rtp-pw-slow slowpoke "$REMOTE" 100000 25 >"$TMP/slow.out" 2>&1 &
SPID=$!
for _ in $(seq 50); do grep -q ready "$TMP/slow.out" && break; sleep 0.1; done
$PW -D 4 --json "$TMP/slow.json" >"$TMP/slow.txt" 2>&1
rc=$?
kill "$SPID"
wait "$SPID"
SPID=
slow=$(sed -n 's/^rtp-pw-slow: \([0-9]*\) slow cycles.*/\1/p' "$TMP/slow.out")
named=$(jq '[.events.xrun_list[] | select(.cause == "other-client" and .culprit == "slowpoke")] | length' "$TMP/slow.json")
[ $rc -eq 2 ] && [ "${named:-0}" -ge 12 ] && jq_ok "$TMP/slow.json" \
	'.events.xrun_causes["other-client"] >= 0.8 * .events.xruns and
	 ([.events.pipewire.incomplete_by_node[] | select(.node == "slowpoke") | .cycles] | add) >= 12 and
	 all(.events.xrun_list[] | select(.cause == "work-overran-margin"); .work_ns >= 1000000)'
ok $? "slow node: $named incomplete cycles put down to 'slowpoke' by name (of $(jq .events.xruns "$TMP/slow.json"); it spun ${slow:-?} times), none on this node's work but host stalls in it: $(jq -c .events.xrun_causes "$TMP/slow.json")"
# a 100 ms spin straddles at most 6 cycle ends of 21.3 ms
[ "${named:-0}" -le $(( 6 * ${slow:-0} )) ] && [ "${named:-0}" -ge $(( 3 * (${slow:-0} - 2) )) ]
ok $? "between 3 and 6 incomplete cycles a spin: $named named for ${slow:-?} spins (2 spins may fall outside the run)"
grep -q "^verdict: fail: .*another client [0-9]* (slowpoke)" "$TMP/slow.txt"
ok $? "the verdict names it: $(grep '^verdict' "$TMP/slow.txt")"

# ---- (c) 100 % DSP load: this node's own work ---------------------------------------
$PW --dsp-load 100 -D 2 --json "$TMP/d100.json" >"$TMP/d100.txt" 2>&1
rc=$?
# The count depends on how the DSP's calibration matched this host's speed
# during the run (90 of 91 cycles usually, 19 once beside other work): 10
# or more, the attribution is what is checked.
[ $rc -eq 2 ] && jq_ok "$TMP/d100.json" '.events.xruns >= 10 and
	.events.xrun_causes["work-overran-margin"] >= 0.9 * .events.xruns and
	([.events.xrun_list[] | select(.culprit == "rtproof-audio")] | length) >= 0.9 * (.events.xrun_list | length) and
	([.events.xrun_list[] | select(.cause == "work-overran-margin")] | all(.work_ns >= .margin_ns))'
ok $? "--dsp-load 100: xruns put down to this node's own work, its work past its margin, the profiler naming it: $(jq -c .events.xrun_causes "$TMP/d100.json") of $(jq .events.xruns "$TMP/d100.json"), named $(jq -c .events.pipewire.incomplete_by_node "$TMP/d100.json")"

# ---- SIGINT: a clean stop, the profiler's last records read ---------------------------
$PW -D 30 --json "$TMP/sig.json" >"$TMP/sig.out" 2>&1 &
apid=$!
await_rt "$apid" || diag "no SCHED_FIFO thread of $apid within 30 s"
sleep 1.5
stop_wait INT "$apid"
[ $rc -eq 0 ] || [ $rc -eq 2 ]
ok $? "SIGINT: exit $rc, ended ${ms} ms after the signal"
jq_ok "$TMP/sig.json" '.events.stopped_by == "signal" and .duration_s > 1 and .duration_s < 10 and
	.metrics[0].count > 40 and .events.pipewire.profiler_records >= .metrics[0].count'
ok $? "SIGINT: complete document, stopped_by $(jq .events.stopped_by "$TMP/sig.json"), $(jq .metrics[0].count "$TMP/sig.json") cycles, $(jq .events.pipewire.profiler_records "$TMP/sig.json") profiler records"
[ "$ms" -le 3000 ]
ok $? "SIGINT: the wait for the profiler's last records is bounded: ${ms} ms (<= 3000)"

# ---- the server gone mid-run -------------------------------------------------------
$PW -D 20 --json "$TMP/gone.json" >"$TMP/gone.out" 2>"$TMP/gone.err" &
apid=$!
await_rt "$apid" || diag "no SCHED_FIFO thread of $apid within 30 s"
sleep 1
kill "$PWPID"
wait "$PWPID"
PWPID=
wait "$apid"
rc=$?
server_gone_ok "the PipeWire server '$REMOTE' went away mid-run"

done_testing
