#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof-load: every part runs and gives a figure per round (ns per
# operation, with its unit), the document is rtproof/1 with "figures
# only", rtproof compare reads two of them part by part (throughput rows), SIGINT stops it
# with the rounds done, bad input is one line and exit 1.  Plumbing: no
# throughput is asserted (the host's speed is not the test's).
. "$(dirname "$0")/tap.sh"
L="rtproof-load -n 3 --round-time 20ms"
$L --json "$TMP/a.json" >"$TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$TMP/out"
[ $rc -eq 0 ]
ok $? "rtproof-load: exit $rc"
jq_ok "$TMP/a.json" '.schema == "rtproof/1" and .tool == "rtproof-load" and .verdict.status == "figures only"
	and ([.metrics[] | select(.name == "ns_per_op" and .unit == "ns" and .count == 3 and .min > 0
		and .max >= .min and .ops > 0 and .ops_per_s > 0)] | length == 5)
	and ([.metrics[].part] | sort == ["ctxsw", "futex-pi", "loopback", "spawn", "syscall"])
	and .events.parts_failed == {}'
ok $? "the document: five parts, three rounds each, ns per operation ($(jq -c '[.metrics[] | [.part, .percentiles["50"]]]' "$TMP/a.json" 2>/dev/null))"
for p in ctxsw futex-pi syscall loopback spawn; do
	grep -q "^$p  *3 " "$TMP/out" || { echo "# $p: no line"; false; }
done
ok $? "the summary: a line per part with its rounds, ops/s and ns/op"

$L --json "$TMP/b.json" >/dev/null 2>&1
rtproof-compare --json "$TMP/c.json" "$TMP/a.json" "$TMP/b.json" >"$TMP/co" 2>&1
rc=$?
{ [ $rc -eq 0 ] || [ $rc -eq 2 ]; } &&
	jq -e '[.rows[] | select(.bench == "load" and .metric == "ns_per_op")] as $r
		| ($r | map(.key) | unique | length == 5) and ($r | length == 5)
		and all($r[]; .figure == "throughput" and .unit == "ops/s" and .higher_is_worse == false
			and .base > 0 and .new > 0 and (.ratio_ci | length) == 2)' "$TMP/c.json" >/dev/null
ok $? "rtproof compare: a throughput row per part (exit $rc; $(jq -c '[.rows[] | select(.figure == "throughput") | [.key, .ratio]]' "$TMP/c.json" 2>/dev/null))"

# SIGINT: the rounds done stand
rtproof-load -n 1000 --round-time 20ms --parts syscall,ctxsw --json "$TMP/s.json" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 0 ] && jq_ok "$TMP/s.json" '.events.stopped_by == "signal" and (.metrics | length == 2)
	and all(.metrics[]; .count >= 5)'
ok $? "SIGINT after 1 s: exit $rc, the rounds done ($(jq -c '[.metrics[].count]' "$TMP/s.json" 2>/dev/null))"

bad() { # bad WHAT ARGS...: one line naming it, exit 1, no document
	_w=$1; shift
	rm -f "$TMP/x.json"
	rtproof-load "$@" --json "$TMP/x.json" >/dev/null 2>"$TMP/err"
	_rc=$?
	[ $_rc -eq 1 ] && grep -q -- "$_w" "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -e "$TMP/x.json" ]
	ok $? "rtproof-load $*: exit $_rc, $(head -1 "$TMP/err")"
}
bad "--parts fork" --parts fork
bad "--rounds 0" --rounds 0
bad "--round-time 5s5" --round-time 5s5
bad "--cpu 99999" --cpu 99999
done_testing
