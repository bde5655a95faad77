#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel uses=timerlat quick
# rtproof-irqlat on the host, where it usually has no IRQ source (no module,
# no timerlat tracer, no /dev/rtc0): it says why for each source and exits 4,
# with a skip document; bad options are one-line errors with exit 1; the
# user-space fallback is labelled and never passes for an IRQ latency;
# SIGINT stops a run with a complete document.
. "$(dirname "$0")/tap.sh"
P=rtproof-irqlat
NONE="--device $TMP/no-device --rtc $TMP/no-rtc --tracefs $TMP/no-tracefs"

# With every source pointed at nothing: deterministic on any machine.
$P $NONE --json "$TMP/skip.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 4 ]
ok $? "no source: exit $rc (want 4)"
grep -q "error: cannot measure here: no IRQ latency source can run" "$TMP/err" &&
	grep -q "^  module: $TMP/no-device absent (load rtproof_irqlat.ko)" "$TMP/err" &&
	grep -q "^  timerlat: $TMP/no-tracefs/available_tracers: No such file or directory" "$TMP/err" &&
	grep -q "^  rtc: $TMP/no-rtc absent" "$TMP/err" &&
	grep -q "^  user: not chosen automatically" "$TMP/err"
rc=$?
ok $rc "no source: each source's reason is given"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err"
jq_ok "$TMP/skip.json" '.schema == "rtproof/1" and .tool == "rtproof-irqlat" and .verdict.status == "skip"
	and (.verdict.reason | test("module: .*absent")) and .params.source == "none"
	and (.params.sources.module | test("load rtproof_irqlat.ko")) and .metrics == []'
ok $? "no source: a skip document with the reasons"

# This host as it is.
$P -D 1s >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ]; then
	grep -q "^  module: /dev/rtproof_irqlat absent (load rtproof_irqlat.ko)" "$TMP/err"
	ok $? "this host: module: $(sed -n 's/^  module: //p' "$TMP/err")"
	grep -q "^  timerlat: " "$TMP/err"
	ok $? "this host: timerlat: $(sed -n 's/^  timerlat: //p' "$TMP/err")"
	grep -q "^  rtc: " "$TMP/err"
	ok $? "this host: rtc: $(sed -n 's/^  rtc: //p' "$TMP/err")"
else
	skip "this host: reasons" "a source can run here (exit $rc): $(head -n 1 "$TMP/out")"
fi

$P --source module --device "$TMP/no-device" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 4 ] && grep -qx "rtproof-irqlat: error: cannot measure here: module: $TMP/no-device absent (load rtproof_irqlat.ko)" "$TMP/err"
ok $? "--source module without the module: exit $rc, $(cat "$TMP/err")"
$P --source timerlat --tracefs "$TMP/no-tracefs" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 4 ] && grep -q "cannot measure here: timerlat: " "$TMP/err"
ok $? "--source timerlat without the tracer: exit $rc"

bad() { # bad WANT ARGS...: exit 1, one line naming the option and value, no document
	want=$1; shift
	$P "$@" --json "$TMP/bad.json" >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$want" "$TMP/err" && [ ! -e "$TMP/bad.json" ]
	ok $? "bad input $*: exit $rc, $(cat "$TMP/err")"
}
bad "rtproof-irqlat: error: --source foo: source must be auto, module, timerlat, rtc or user" --source foo
bad "error: -i 10: interval must be 50 us .. 1 s" -i 10
bad "error: --delay 2000: delay must be 0 .. 1000 us" --delay 2000
bad "error: --irq-prio 0: IRQ thread priority must be 1..99" --irq-prio 0
bad "error: -p 120: priority must be 0..99" -p 120
bad "error: --delay: only the module source can plant a delay" --source rtc --delay 10
bad "error: extra: unexpected argument" extra

# The user-space fallback: labelled, and no IRQ metric.
$P --source user -p 0 -l 200 -q --json "$TMP/user.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ]
ok $? "--source user runs (exit $rc)"
jq_ok "$TMP/user.json" '.params.source == "user" and .params.irq_latency == false
	and (.params.measures | test("not an IRQ latency"))
	and ([.metrics[].name] == ["user_timer_wakeup"]) and .metrics[0].count == 200 and .metrics[0].unit == "ns"'
ok $? "--source user: labelled as not an IRQ latency, one metric user_timer_wakeup"
grep -q "not an IRQ latency" "$TMP/out" && grep -q "^user_timer_wakeup .* 200 " "$TMP/out" && ! grep -q "^irq_latency" "$TMP/out"
ok $? "--source user: the summary says so too"
# --osnoise where the noise cannot be recorded (no timerlat tracer on this
# host, or another source): the document and the summary say why, plainly.
jq_ok "$TMP/user.json" '.osnoise == {"recorded": false, "reason": "not asked for (--osnoise, with the timerlat source)"}'
ok $? "without --osnoise: osnoise not recorded, not asked for"
$P --source user --osnoise -p 0 -l 50 --json "$TMP/osn.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && jq_ok "$TMP/osn.json" '.osnoise.recorded == false and (.osnoise.reason | test("^not available"))' &&
	grep -q "^osnoise: not available" "$TMP/out"
ok $? "--osnoise on the user source: $(grep '^osnoise:' "$TMP/out")"
$P --source user -p 0 -l 10 --irq-prio 60 >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "error: --irq-prio 60: no IRQ thread for the user source" "$TMP/err"
ok $? "--irq-prio with no IRQ thread: exit $rc, $(cat "$TMP/err")"

# A budget that cannot hold: verdict fail, exit 2.
$P --source user -p 0 -l 50 -q --max-latency 1 --json "$TMP/fail.json" >"$TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] && jq_ok "$TMP/fail.json" '.verdict.status == "fail"
	and (.verdict.criteria[] | select(.name == "max user_timer_wakeup") | .pass == false)'
ok $? "--max-latency exceeded: exit $rc, $(grep verdict: "$TMP/out")"

# SIGINT: a clean stop with a complete document.
$P --source user -p 0 -D 60s -q --json "$TMP/sig.json" >"$TMP/out" 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 0 ]
ok $? "SIGINT: exit $rc"
jq_ok "$TMP/sig.json" '.events.stopped_by == "signal" and .metrics[0].count > 100 and .duration_s < 30'
ok $? "SIGINT: complete document, stopped by signal"
done_testing
