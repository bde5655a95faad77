#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=serial
# rtproof run --load hackbench: the runner starts hackbench beside each
# bench (through the shared loader) and every bench's document says so,
# skipped ones included, but for the price (load), which runs alone.  Alone (serial phase): hackbench would starve the
# other tests' guests.  Lockstress is left out: its default scenarios take
# half a minute, and its document's load comes the same way as the others'.
. "$(dirname "$0")/tap.sh"

command -v hackbench >/dev/null || { skip "rtproof run --load hackbench" "hackbench (rt-tests) not installed"; done_testing; exit 0; }
mark=RTPROOF_RUN_LOAD_T=$$.$(date +%s%N)
env "$mark" "$RTPROOF_ROOT/scripts/rtproof" run --duration 1s --benches cyclic,irqlat,audio,load --load hackbench --out "$TMP/r" \
	>"$TMP/out" 2>&1
rc=$?
sed -n '/^== rtproof run/,$p' "$TMP/out" | sed 's/^/# /'
[ $rc -eq 0 ] || [ $rc -eq 2 ] || [ $rc -eq 4 ]
ok $? "rtproof run --load hackbench: a verdict for the suite (exit $rc)"
for b in cyclic irqlat audio; do
	jq_ok "$TMP/r/$b.json" '.load.name == "hackbench"'
	ok $? "$b.json says load hackbench ($(jq -r '.load.name' "$TMP/r/$b.json" 2>/dev/null), $(jq -r '.verdict.status' "$TMP/r/$b.json" 2>/dev/null))"
done
# the price (rtproof-load) runs alone, in its own phase: never beside the load
jq_ok "$TMP/r/load.json" '.load.name == "none" and (.metrics | length) == 5' &&
	jq_ok "$TMP/r/suite.json" '.benches[] | select(.bench == "load") | .load_work == null and .document == "load.json"'
ok $? "load.json: the price measured with no load beside it ($(jq -c '[.load.name, [.metrics[] | [.part, .count]]]' "$TMP/r/load.json" 2>/dev/null))"
grep -q "The price in work done (rtproof-load, run alone): ctxsw [0-9]* ops/s, " "$TMP/out"
ok $? "the answer names the price, each part in ops/s ($(grep -o 'The price in work done[^;]*' "$TMP/out" | head -c 200))"
# what the load did beside each bench: hackbench rounds over the interval it ran
for b in cyclic irqlat audio; do
	jq_ok "$TMP/r/suite.json" '.benches[] | select(.bench == "'$b'") | .load_work
		| .where == "host" and .load == "hackbench" and .interval_s > 1
		and (.parts | length == 1) and (.parts[0] | .kind == "hackbench" and (.counted | test("hackbench runs"))
			and ((.rounds > 0 and .per_s > 0) or (.rounds == 0 and .per_s == null and (.why | length) > 0)))'
	ok $? "suite.json: $b's load_work ($(jq -c '.benches[] | select(.bench == "'$b'") | .load_work | {interval_s, parts}' "$TMP/r/suite.json" 2>/dev/null))"
done
sleep 0.5
left=0
for p in $(pgrep -x hackbench); do
	{ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qx "$mark" && left=$((left + 1))
done
[ $left -eq 0 ]
ok $? "none of the suite's hackbench processes is left running ($left)"
bad() { # bad WHAT ARGS...: a one-line error naming it, exit 1
	_w=$1; shift
	"$RTPROOF_ROOT/scripts/rtproof" run "$@" >/dev/null 2>"$TMP/err"
	_rc=$?
	[ $_rc -eq 1 ] && grep -q "error: $_w" "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ]
	ok $? "rtproof run $*: one line, exit 1 ($_rc: $(head -1 "$TMP/err"))"
}
bad "--load disk" --load disk
bad "--duration 5x" --duration 5x
done_testing
