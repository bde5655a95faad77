#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof-audio: bad parameters, missing devices and privileges give clear
# errors and the documented exit codes (1 error, 4 skip).
. "$(dirname "$0")/tap.sh"

# expect CODE PATTERN DESCRIPTION -- ARGS...: exit code and a stderr line
expect() {
	_code=$1 _pat=$2 _d=$3; shift 4
	rtproof-audio "$@" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	if [ "$_rc" -eq "$_code" ] && grep -q -- "$_pat" "$TMP/err"; then
		ok 0 "$_d"
	else
		ok 1 "$_d"
		diag "exit $_rc (want $_code); stderr:"; sed 's/^/#   /' "$TMP/err"
	fi
}

expect 1 'error: --period 0: period must be 16..65536 frames' "period 0 is refused" -- --period 0 -D 1
expect 1 'error: --rate 1: rate must be 8000..384000 Hz' "rate 1 is refused" -- --rate 1 -D 1
expect 1 'error: --rate 0: rate must be' "--rate 0 is refused" -- --rate 0
expect 1 'error: -n 1: periods must be 2..64' "one period is refused" -- -n 1
expect 1 'error: -f S17_XX: unknown sample format' "unknown format is refused" -- -f S17_XX
expect 1 'error: --dsp-load 150: DSP load must be 0..100' "DSP load over 100 % is refused" -- --dsp-load 150
expect 1 'drop --duration' "--sweep with --duration is refused" -- --sweep -D 5
expect 1 'unknown option' "unknown option is refused" -- --frobnicate
expect 1 'error: --hide-xruns: only the virtual device' "--hide-xruns without the timer backend is refused" -- --hide-xruns -D 1
expect 1 'error: --hide-xruns: playback only' "--hide-xruns with capture is refused" -- --backend timer -C --hide-xruns -D 1

expect 4 "cannot open ALSA device 'no-such-pcm'" "unknown ALSA device: exit 4 with ALSA's reason" \
	-- --backend alsa --device no-such-pcm -D 1
grep -q "Unknown PCM no-such-pcm" "$TMP/err"
ok $? "ALSA's own error text is shown"

if [ -e /proc/asound/Dummy ]; then
	skip "an explicit --device without a card exits 4" "a Dummy card is present here"
else
	expect 4 "no sound card: cannot open ALSA device 'hw:Dummy'" \
		"explicit --device hw:Dummy without the card: exit 4, no silent fallback" -- --device hw:Dummy -D 1
	rtproof-audio --device hw:Dummy -D 1 --json "$TMP/skip.json" >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 4 ] && jq_ok "$TMP/skip.json" \
		'.verdict.status == "skip" and (.verdict.reason | test("hw:Dummy")) and .schema == "rtproof/1"'
	ok $? "the skip is written as a result document with the reason"
fi

expect 4 "duplex: cannot open ALSA device 'no-such-cap'" "--duplex with an unknown capture device: exit 4" \
	-- --device null --duplex no-such-cap -D 1
expect 1 '--duplex: needs the ALSA backend' "--duplex with the timer backend is refused" \
	-- --backend timer --duplex hw:1

rtproof-audio -D 1 --json /nonexistent-dir/r.json >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'cannot create' "$TMP/err" && [ ! -e /nonexistent-dir/r.json ]
ok $? "unwritable --json fails before the run with exit 1"
[ ! -s "$TMP/out" ]
ok $? "and nothing was measured"

# The null plugin swallows audio at thousands of times real time: caught.
rtproof-audio --backend alsa --device null -D 0.5 -q --json "$TMP/null.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q 'does not play or record in real time' "$TMP/out"
ok $? "ALSA's null plugin is detected as not real time (exit 1)"
jq_ok "$TMP/null.json" '.verdict.status == "error" and .params.backend == "alsa" and .events.audio_written_s > 50'
ok $? "its document says error and how much audio it swallowed"

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups rtproof-audio --backend timer -D 1 \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq 4 ] && grep -q 'cannot measure here' "$TMP/err"
	ok $? "without real-time privileges: exit 4 with the reason"
	[ "$rc" -eq 4 ] || { diag "exit $rc"; sed 's/^/#   /' "$TMP/err"; }
else
	skip "without real-time privileges: exit 4" "needs root and setpriv to drop privileges"
fi

rtproof-audio --help >"$TMP/out" 2>&1
[ $? -eq 0 ] && grep -q -- '--plant-stall' "$TMP/out" && grep -q -- '--backend' "$TMP/out"
ok $? "--help exits 0 and documents the options"

done_testing
