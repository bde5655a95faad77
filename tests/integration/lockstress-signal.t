#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# SIGINT/SIGTERM half-way through: a clean stop with a complete document.
. "$(dirname "$0")/tap.sh"

for sig in INT TERM; do
	rtproof-lockstress --scenario contention,percpu -D 30s -q --json "$TMP/$sig.json" >"$TMP/$sig.out" 2>&1 &
	pid=$!
	sleep 1.5
	stop_wait $sig $pid
	[ $rc -eq 0 ]; ok $? "SIG$sig: exits 0 with its results (got $rc) in $ms ms"
	[ $ms -le 3000 ]; ok $? "SIG$sig: stops promptly ($ms ms)"
	check "SIG$sig: complete document, stopped by the signal" jq_ok "$TMP/$sig.json" '
		.schema == "rtproof/1" and .events.stopped_by == "signal" and .events.signal == "'$sig'"
		and .scenarios.contention.cases[0].ran and .scenarios.contention.cases[0].lost_updates == 0
		and (.verdict.reason | test("stopped early")) and .duration_s < 10'
	ls "$TMP" | grep -q '\.tmp\.'; [ $? -ne 0 ]; ok $? "SIG$sig: no temporary file left"
done

# In the middle of an inversion round with a long burner: the RT threads stop too.
rtproof-lockstress --scenario inversion --burn 2s --hold 20ms --iterations 50 -q --json "$TMP/inv.json" >"$TMP/inv.out" 2>&1 &
pid=$!
sleep 1.5
stop_wait INT $pid
[ $rc -le 2 ]; ok $? "inversion: SIGINT mid-round ends the run (exit $rc) in $ms ms"
[ $ms -le 2000 ]; ok $? "inversion: within 2 s, sleeping threads see the stop ($ms ms)"
check "inversion: the document is complete" jq_ok "$TMP/inv.json" '.events.stopped_by == "signal" and (.scenarios.inversion.protocols | length) >= 1'
done_testing
