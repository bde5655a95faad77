#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest guest=rt
# pi-chain: the boost propagates down a chain; a planted deadlock is caught by the watchdog in time.
# In the icount guest (rule a of tests/README.md): a working chain must
# stay within 5 ms of the holder's section, less than this host's own
# stalls (5-35 ms); guest time counts instructions and cannot see them.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/guest.sh"
in_guest rt

J=$TMP/p.json
rtproof-lockstress --scenario pi-chain --hold 2ms --burn 30ms --iterations 10 --margin 5ms -q \
	--json "$J" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ]; ok $? "a working chain passes: exit 0 (got $rc)"
sed 's/^/# /' "$TMP/out" | grep -vE '^# $'
check "the bottom ran at the top's priority (boost propagated through the chain)" jq_ok "$J" '
	.scenarios["pi-chain"] | .boost_propagated >= 1 and .bottom_prio_max == .priorities[0]'
check "the top waited for the holder, not for the 30 ms burner" jq_ok "$J" '
	.metrics[] | select(.name == "pi_chain_wait") | .count > 0 and .percentiles["50"] < 10000000'
check "no stall" jq_ok "$J" '.scenarios["pi-chain"] | (.stalled | not) and (.deadlock | not)'

for n in 3 4; do
	start=$(now_ms)
	rtproof-lockstress --scenario pi-chain --chain $n --hold 2ms --burn 30ms --iterations 50 \
		--watchdog 300ms --test-plant-deadlock -q --json "$TMP/d$n.json" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	ms=$(( $(now_ms) - start ))
	[ $rc -eq 2 ]; ok $? "chain of $n, planted deadlock: exit 2 (got $rc)"
	grep "watchdog:" "$TMP/out" | sed 's/^/# /'
	check "chain of $n: reported as a deadlock with its cycle" jq_ok "$TMP/d$n.json" '
		.scenarios["pi-chain"] | .stalled and .deadlock and (.wait_graph | test("a cycle"))'
	check "chain of $n: detected within the watchdog timeout (+ 100 ms ticks)" jq_ok "$TMP/d$n.json" '
		.scenarios["pi-chain"] | .cycle_age_ns <= .watchdog_ns + 100000000 and .detected_after_ns <= .watchdog_ns + 100000000'
	check "chain of $n: the verdict names it" jq_ok "$TMP/d$n.json" '.verdict.status == "fail" and (.verdict.reason | test("deadlock"))'
	[ $ms -le 5000 ]; ok $? "chain of $n: the process still ends quickly ($ms ms for 50 rounds)"
done
done_testing
