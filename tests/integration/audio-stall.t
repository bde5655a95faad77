#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest guest=rt
# rtproof-audio, planted truth: a SCHED_FIFO 99 spinner on the audio
# thread's CPU that runs longer than the whole buffer must be seen as one
# xrun per stall, starting inside the stall, lasting about the stall minus
# what the buffer held, and the late wake-up must show in the histogram.
. "$(dirname "$0")/tap.sh"
# In the icount guest (rule a of tests/README.md): this host's own stalls
# (5-35 ms) would come close to the margins below; guest time cannot see them.
. "$(dirname "$0")/guest.sh"
in_guest rt

# 256 frames x 2 periods at 48 kHz: P = 5.33 ms, B = 10.67 ms; stalls of 40 ms.
S=40000000 P=5333334 B=10666667
rtproof-audio --backend timer --period 256 -n 2 -D 3.4 --plant-stall 40ms,1s --json "$TMP/st.json" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ]
ok $? "planted stalls: verdict fail, exit 2 (got $rc)"
[ $rc -eq 2 ] || sed 's/^/#   /' "$TMP/out" "$TMP/err"
jq_ok "$TMP/st.json" '.events.stalls_planted == 3 and all(.events.stall_list[]; .duration_ns >= 40000000)'
ok $? "three stalls of 40 ms were planted (at 0.5, 1.5, 2.5 s)"
jq_ok "$TMP/st.json" '.events.xruns >= 1'
ok $? "at least one xrun was seen ($(jq .events.xruns "$TMP/st.json"))"
# Each stall is covered by exactly one xrun: the one whose silence (from the
# end of the queued audio to the restart) overlaps it.
OVL='. as $s | [$e.xrun_list[] | select(.time_s <= $s.time_s + $s.duration_ns / 1e9 + 0.001 and
	.time_s + .gap_ns / 1e9 >= $s.time_s)]'
jq_ok "$TMP/st.json" ".events as \$e | all(\$e.stall_list[]; $OVL | length == 1 and
	.[0].time_s <= \$s.time_s + ($B + 1000000) / 1e9)"
ok $? "exactly one xrun per stall, starting within the buffer time of the stall's start"
# Its gap: the stall less what was queued (0..B), plus a little wake-up time;
# the timer device reports the same figure as its duration.
jq_ok "$TMP/st.json" ".events as \$e | all(\$e.stall_list[]; $OVL | .[0] |
	.gap_ns >= \$s.duration_ns - $B - 1000000 and .gap_ns <= \$s.duration_ns + 5000000 and
	.duration_ns <= .gap_ns and .duration_ns >= .gap_ns - 1000000)"
ok $? "each xrun lasted the stall minus the buffered audio (29..45 ms)"
jq_ok "$TMP/st.json" ".events as \$e | all(\$e.stall_list[]; $OVL | .[0] |
	.lateness_ns >= \$s.duration_ns - $P - 1000000)"
ok $? "the wake-up that found each xrun was late by at least the stall minus a period"
jq_ok "$TMP/st.json" ".events as \$e | all(\$e.stall_list[]; $OVL | .[0].cause == \"late-wakeup\")"
ok $? "each stall's xrun is put down to a late wake-up, not to the work: $(jq -c '[.events.xrun_list[].cause]' "$TMP/st.json")"
jq_ok "$TMP/st.json" ".metrics[0].max >= $S - $P - 1000000 and
	([.metrics[0].histogram.buckets[] | select(.[0] >= $S - $P - 1000000) | .[2]] | add) >= 3"
ok $? "the lateness histogram holds the planted delays (>= 3 samples above 33.7 ms)"
jq_ok "$TMP/st.json" '.events.xrun_total_ns == ([.events.xrun_list[].duration_ns] | add) and
	.events.xrun_gap_total_ns == ([.events.xrun_list[].gap_ns] | add) and .metrics[1].min == 0 and
	.events.xruns_unreported == 0'
ok $? "xrun totals add up, all reported by the device; the margin reached 0"
grep -q '^verdict: fail: [0-9]* xruns in 3.4 s at 256 frames x 2 periods, 48 kHz (10.67 ms latency)' "$TMP/out"
ok $? "headline counts the xruns"
jq -r '.events.xrun_list[] | "# xrun at \(.time_s) s, \(.duration_ns / 1e6) ms (gap \(.gap_ns / 1e6) ms), wake-up \(.lateness_ns / 1e6) ms late"' "$TMP/st.json"

# A stall longer than a period but shorter than the margin (256 x 8: P = 5.33
# ms, 37 ms queued at each wake-up): seen as lateness, and no xrun invented.
rtproof-audio --backend timer --period 256 -n 8 -D 1.2 --plant-stall 15ms,1s --json "$TMP/short.json" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
jq_ok "$TMP/short.json" ".events.stalls_planted == 1 and .events.xruns == 0 and
	.metrics[0].max >= 15000000 - $P - 1000000 and .metrics[1].min <= 37333334 - 15000000 + $P"
ok $? "a 15 ms stall against 37 ms of margin: lateness >= 8.7 ms, margin dips, no xrun (exit $rc)"
jq -r '"# short stall: worst wake-up \(.metrics[0].max / 1e6) ms, smallest margin \(.metrics[1].min / 1e6) ms"' "$TMP/short.json"

# Xruns a sound server's plugin (pulse, pipewire) would hide: the virtual
# device plays silence and runs on (--hide-xruns), so only this program's
# own count can see them. 8 ms stalls against about 6.7 ms of queued audio
# leave gaps of about 1.3 ms, a quarter of a period: each must be counted,
# as many as the device hid (the planted truth), and no more.
rtproof-audio --backend timer --period 256 -n 2 -D 3.4 --hide-xruns --plant-stall 8ms,1s \
	--json "$TMP/hid.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
jq_ok "$TMP/hid.json" '.events.stalls_planted == 3 and .events.hidden_by_device.xruns >= 1 and
	.events.xruns_unreported == .events.hidden_by_device.xruns and .events.xruns == .events.xruns_unreported'
ok $? "hidden xruns: the device hid $(jq .events.hidden_by_device.xruns "$TMP/hid.json"), $(jq .events.xruns_unreported "$TMP/hid.json") counted as unreported (exit $rc)"
jq_ok "$TMP/hid.json" ".events as \$e | all(\$e.xrun_list[]; .reported == false and .gap_ns > 0 and
	.gap_ns <= \$e.hidden_by_device.longest_ns) and \$e.unreported_slack_ns < $P / 2"
ok $? "their gaps ($(jq -c '[.events.xrun_list[].gap_ns]' "$TMP/hid.json") ns) are below half a period; detection limit $(jq .events.unreported_slack_ns "$TMP/hid.json") ns"
rtproof-audio --backend timer --period 256 -n 2 -D 1 --hide-xruns --json "$TMP/hid0.json" >/dev/null 2>&1
jq_ok "$TMP/hid0.json" '.events.xruns_unreported == .events.hidden_by_device.xruns'
ok $? "no stall: as many counted as hidden ($(jq -c '[.events.xruns_unreported, .events.hidden_by_device.xruns]' "$TMP/hid0.json")), none invented"

# Capture, the mirror: a stall longer than the buffer is one overrun.
rtproof-audio --backend timer -C --period 256 -n 2 -D 1.3 --plant-stall 40ms,1s --json "$TMP/cap.json" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
jq_ok "$TMP/cap.json" ".params.stream == \"capture\" and .events.stalls_planted == 1 and
	.events as \$e | (\$e.stall_list[0] | $OVL | length == 1 and
	.[0].gap_ns >= \$s.duration_ns - $B - 1000000 and .[0].gap_ns <= \$s.duration_ns + 5000000)"
ok $? "capture: a 40 ms stall is one overrun of the stall minus the buffer (exit $rc)"
[ $rc -eq 2 ]
ok $? "capture with an overrun: exit 2"

done_testing
