#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=serial
# rtproof compare's throughput rows against planted truth: three runs of
# rtproof-load on CPU 0 alone, three beside a SCHED_OTHER busy loop pinned
# to the same CPU (the parts get half of it, so the CPU-bound ones do half
# the work per second), taken in turns so that the machine's drift falls
# on both sides.  compare must call the CPU-bound parts worse with the
# whole ratio interval below 1, and the reverse order better.  The planted
# effect is x2; a run is 5 parts x 4 rounds of 25 ms, so one host stall
# of 10-35 ms moves one part of one run, which the three runs a side see.
. "$(dirname "$0")/tap.sh"
mkdir -p "$TMP/idle" "$TMP/busy"
L="rtproof-load -q --cpu 0 -n 4 --round-time 25ms"
for i in 1 2 3; do
	$L --json "$TMP/idle/load.json.$i" >/dev/null 2>&1 || echo "# idle run $i failed"
	taskset -c 0 sh -c 'while :; do :; done' &
	hog=$!
	$L --json "$TMP/busy/load.json.$i" >/dev/null 2>&1 || echo "# busy run $i failed"
	kill $hog
	wait $hog 2>/dev/null
done
for i in 1 2 3; do mkdir -p "$TMP/idle/r$i" "$TMP/busy/r$i"
	mv "$TMP/idle/load.json.$i" "$TMP/idle/r$i/load.json"; mv "$TMP/busy/load.json.$i" "$TMP/busy/r$i/load.json"
done
rtproof-compare --json "$TMP/c.json" "$TMP/idle/r1,$TMP/idle/r2,$TMP/idle/r3" \
	"$TMP/busy/r1,$TMP/busy/r2,$TMP/busy/r3" >"$TMP/co" 2>&1
rc=$?
sed -n '/^load ns_per_op/,/^$/p' "$TMP/co" | sed 's/^/# /'
rows() { jq -c '[.rows[] | select(.figure == "throughput") | {part: (.key | sub(".*part "; "")), ratio: (.ratio * 1000 | round / 1000),
	ci: [.ratio_ci[] | . * 1000 | round / 1000], verdict}]' "$1" 2>/dev/null; }
# CPU-bound parts: syscall, ctxsw, futex-pi, loopback (spawn waits on exec, not only the CPU)
n=$(jq '[.rows[] | select(.figure == "throughput" and (.key | test("part (syscall|ctxsw|futex-pi|loopback)$"))
	and .verdict == "worse" and .ratio < 0.8 and .ratio_ci[1] < 1)] | length' "$TMP/c.json" 2>/dev/null)
[ $rc -eq 2 ] && [ "${n:-0}" -ge 3 ]
ok $? "busy loop on the CPU: at least 3 of the 4 CPU-bound parts worse, ratio < 0.8, interval below 1 (exit $rc, $n parts; $(rows "$TMP/c.json"))"
jq -e 'all(.rows[] | select(.figure == "throughput"); .method | test("over 3 and 3 run"))' "$TMP/c.json" >/dev/null
ok $? "the interval is over the runs ($(jq -r '[.rows[] | select(.figure == "throughput")][0].method' "$TMP/c.json" 2>/dev/null))"

rtproof-compare --json "$TMP/r.json" "$TMP/busy/r1,$TMP/busy/r2,$TMP/busy/r3" \
	"$TMP/idle/r1,$TMP/idle/r2,$TMP/idle/r3" >/dev/null 2>&1
n=$(jq '[.rows[] | select(.figure == "throughput" and (.key | test("part (syscall|ctxsw|futex-pi|loopback)$"))
	and .verdict == "better" and .ratio > 1.25 and .ratio_ci[0] > 1)] | length' "$TMP/r.json" 2>/dev/null)
[ "${n:-0}" -ge 3 ]
ok $? "the other way round: better ($n parts; $(rows "$TMP/r.json"))"

# One run a side: the rounds alone cannot tell a day from a change under x2
rtproof-compare --json "$TMP/o.json" "$TMP/idle/r1" "$TMP/busy/r1" >/dev/null 2>&1
jq -e 'all(.rows[] | select(.figure == "throughput"); (.verdict == "worse" and .ratio_ci[1] <= 0.5)
	or .verdict == "undecided" or .verdict == "same")
	and any(.rows[] | select(.figure == "throughput"); .note | test("one run a side"))' "$TMP/o.json" >/dev/null
ok $? "one run a side: a change under x2 is undecided, said why ($(rows "$TMP/o.json"))"
done_testing
