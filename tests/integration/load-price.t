#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=serial
# rtproof compare's throughput rows against planted truth: three runs of
# rtproof-load on CPU 0 alone, three beside a SCHED_FIFO 1 spinner on the
# same CPU that takes 9 ms of every 10 (the parts, SCHED_OTHER, get about
# a tenth of it: the CPU-bound ones do x0.1 to x0.2 the work per second),
# taken in turns so that the machine's drift falls on both sides.  The
# planted effect is x5 or more: a whole run on this shared machine moves
# by tens of percent, and under full load by x2 (seen beside two busy
# guests).  compare must call the CPU-bound parts worse with the whole
# ratio interval below 1, and the reverse order better.  Then one run a
# side, beside a SCHED_OTHER busy loop (x0.5): no row may be called worse
# unless its interval lies below x0.5 (the one-run rule).
. "$(dirname "$0")/tap.sh"
mkdir -p "$TMP/idle" "$TMP/busy" "$TMP/half"
L="rtproof-load -q --cpu 0 -n 6 --round-time 25ms"
for i in 1 2 3; do
	mkdir -p "$TMP/idle/r$i" "$TMP/busy/r$i"
	$L --json "$TMP/idle/r$i/load.json" >/dev/null 2>&1 || echo "# idle run $i failed"
	rtp-spin --cpu 0 --prio 1 --spin 9ms --every 10ms --duration 20s >/dev/null 2>&1 &
	spin=$!
	sleep 0.1
	$L --json "$TMP/busy/r$i/load.json" >/dev/null 2>&1 || echo "# busy run $i failed"
	kill $spin 2>/dev/null
	wait $spin 2>/dev/null
done
rtproof-compare --json "$TMP/c.json" "$TMP/idle/r1,$TMP/idle/r2,$TMP/idle/r3" \
	"$TMP/busy/r1,$TMP/busy/r2,$TMP/busy/r3" >"$TMP/co" 2>&1
rc=$?
sed -n '/^load ns_per_op/,/^$/p' "$TMP/co" | sed 's/^/# /'
rows() { jq -c '[.rows[] | select(.figure == "throughput") | {part: (.key | sub(".*part "; "")), ratio: (.ratio * 1000 | round / 1000),
	ci: [.ratio_ci[] | . * 1000 | round / 1000], verdict}]' "$1" 2>/dev/null; }
# CPU-bound parts: syscall, ctxsw, futex-pi, loopback (spawn waits on exec, not only the CPU)
n=$(jq '[.rows[] | select(.figure == "throughput" and (.key | test("part (syscall|ctxsw|futex-pi|loopback)$"))
	and .verdict == "worse" and .ratio < 0.5 and .ratio_ci[1] < 1)] | length' "$TMP/c.json" 2>/dev/null)
[ $rc -eq 2 ] && [ "${n:-0}" -ge 3 ]
ok $? "a FIFO spinner on the CPU: at least 3 of the 4 CPU-bound parts worse, ratio < 0.5, interval below 1 (exit $rc, $n parts; $(rows "$TMP/c.json"))"
jq -e 'all(.rows[] | select(.figure == "throughput"); .method | test("over 3 and 3 run"))' "$TMP/c.json" >/dev/null
ok $? "the interval is over the runs ($(jq -r '[.rows[] | select(.figure == "throughput")][0].method' "$TMP/c.json" 2>/dev/null))"

rtproof-compare --json "$TMP/r.json" "$TMP/busy/r1,$TMP/busy/r2,$TMP/busy/r3" \
	"$TMP/idle/r1,$TMP/idle/r2,$TMP/idle/r3" >/dev/null 2>&1
n=$(jq '[.rows[] | select(.figure == "throughput" and (.key | test("part (syscall|ctxsw|futex-pi|loopback)$"))
	and .verdict == "better" and .ratio > 2 and .ratio_ci[0] > 1)] | length' "$TMP/r.json" 2>/dev/null)
[ "${n:-0}" -ge 3 ]
ok $? "the other way round: better ($n parts; $(rows "$TMP/r.json"))"

# One run a side beside a SCHED_OTHER busy loop (about x0.5): the rounds
# alone cannot tell a day from a change under x2.
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
$L --json "$TMP/half/load.json" >/dev/null 2>&1
kill $hog
wait $hog 2>/dev/null
rtproof-compare --json "$TMP/o.json" "$TMP/idle/r1" "$TMP/half" >/dev/null 2>&1
jq -e '[.rows[] | select(.figure == "throughput")] | length == 5
	and all(.[]; (.verdict != "worse" and .verdict != "better") or .ratio_ci[1] <= 0.5 or .ratio_ci[0] >= 2)' \
	"$TMP/o.json" >/dev/null
ok $? "one run a side: no change under x2 is called ($(rows "$TMP/o.json"))"
done_testing
