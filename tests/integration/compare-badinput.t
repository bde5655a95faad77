#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof compare on bad input: a one-line error naming what is wrong, exit
# 1, and no --json output left behind.  Uses the reader's fuzz corpus and a
# short real run.
. "$(dirname "$0")/tap.sh"
C=$RTPROOF_ROOT/tests/fuzz/corpus/doc
rtproof-cyclic -t 1 -i 1000 -D 1s -q --json "$TMP/good.json" >/dev/null 2>&1 ||
	{ echo "Bail out! rtproof-cyclic did not run"; exit 1; }

bad() {	# bad DESCRIPTION PATTERN ARGS...
	_d=$1 _p=$2; shift 2
	rm -f "$TMP/out.json" "$TMP"/out.json.tmp.*
	rtproof-compare --json "$TMP/out.json" "$@" >"$TMP/o" 2>"$TMP/e"
	_rc=$?
	[ $_rc -eq 1 ] && [ "$(wc -l <"$TMP/e")" -eq 1 ] && grep -q -- "$_p" "$TMP/e" &&
		grep -q '^rtproof-compare: error: ' "$TMP/e" && [ ! -s "$TMP/o" ] &&
		[ -z "$(ls "$TMP"/out.json* 2>/dev/null)" ]
	ok $? "$_d: exit $_rc, $(cat "$TMP/e")"
}
bad "missing file" "No such file" "$TMP/good.json" "$TMP/nope.json"
bad "not rtproof/1" 'schema "rtproof/2"' "$TMP/good.json" "$C/other-schema.json"
bad "truncated JSON" "not JSON" "$C/truncated.json" "$TMP/good.json"
bad "garbage" "not JSON" "$TMP/good.json" "$C/garbage.bin"
bad "empty file" "empty file" "$TMP/good.json" "$C/empty.json"
bad "histogram that does not add up" "count says 3" "$TMP/good.json" "$C/count-mismatch.json"
jq '.metrics |= map(.name = "other_latency")' "$TMP/good.json" >"$TMP/renamed.json"
bad "metrics that do not match" "no metric matches" "$TMP/good.json" "$TMP/renamed.json"
mkdir "$TMP/empty"
bad "a directory with no documents" "no result documents" "$TMP/good.json" "$TMP/empty"
bad "NEW missing" "NEW missing" "$TMP/good.json"
bad "unknown option" "--frobnicate: unknown option" --frobnicate "$TMP/good.json" "$TMP/good.json"
bad "--confidence out of range" "--confidence 2" --confidence 2 "$TMP/good.json" "$TMP/good.json"
bad "--threshold not a number" "--threshold ten" --threshold ten "$TMP/good.json" "$TMP/good.json"
jq '.metrics[0].ops_per_s = -5' "$TMP/good.json" >"$TMP/rate.json"
bad "a negative throughput" "ops_per_s must be a positive number" "$TMP/good.json" "$TMP/rate.json"
jq '.metrics[0].ops_per_s = 1000 | .metrics[0].stddev = -1' "$TMP/good.json" >"$TMP/rate2.json"
bad "a throughput with a negative stddev" "needs mean > 0 and stddev >= 0" "$TMP/good.json" "$TMP/rate2.json"
jq '.load.name = "hackbench"' "$TMP/good.json" >"$TMP/loaded.json"
bad "different load refused" "different load" "$TMP/good.json" "$TMP/loaded.json"
jq '.command += ["-p", "80"]' "$TMP/good.json" >"$TMP/params.json"
bad "different bench command refused" "different bench commands" "$TMP/good.json" "$TMP/params.json"
# Suite directories (rtproof run): suite.json records the load; a different one is refused.
"$RTPROOF_ROOT/scripts/rtproof-run" --benches cyclic --duration 1s --out "$TMP/suiteA" >/dev/null 2>&1
"$RTPROOF_ROOT/scripts/rtproof-run" --benches cyclic --duration 1s --out "$TMP/suiteB" >/dev/null 2>&1
jq_ok "$TMP/suiteA/suite.json" '.schema == "rtproof-suite/1" and .load == "none" and .cpus_online >= 1
	and .benches[0].bench == "cyclic" and (.benches[0].command | index("--json")) != null and (.kernel_release | length) > 0'
ok $? "rtproof run writes suite.json: kernel, cmdline, load, CPUs, every bench's command"
rtproof-compare "$TMP/suiteA" "$TMP/suiteB" >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 2 ]
ok $? "two suite directories compare (exit $rc)"
jq '.load = "hackbench"' "$TMP/suiteB/suite.json" >"$TMP/s.json" && mv "$TMP/s.json" "$TMP/suiteB/suite.json"
bad "suites under different loads refused" "suite: different load" "$TMP/suiteA" "$TMP/suiteB"
rtproof-compare --allow-unfair "$TMP/good.json" "$TMP/loaded.json" >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^warning: cyclic: different load" "$TMP/o"
ok $? "--allow-unfair compares with a warning (exit $rc)"
rtproof-compare --json "$TMP/same.json" "$TMP/good.json" "$TMP/good.json" >"$TMP/o" 2>&1
rc=$?
[ $rc -eq 0 ] && jq_ok "$TMP/same.json" '.schema == "rtproof-compare/1" and .verdict.status == "pass"
	and ([.rows[] | select(.verdict == "worse" or .verdict == "better")] | length) == 0
	and ([.rows[] | select(.figure == "p50" and .ratio == 1)] | length) > 0'
ok $? "a document against itself: no difference, exit $rc"
done_testing
