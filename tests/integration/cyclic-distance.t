#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# -d/--distance means what it means in cyclictest: thread n runs with
# interval + n * distance (so ported command lines sample the same);
# --offset only staggers the threads' first release.
. "$(dirname "$0")/tap.sh"

# Three threads on CPU 0: 1000, 1500 and 2000 us for 1.2 s.
rtproof-cyclic -t 3 -a 0 -i 1000 -d 500 -D 1.2s -q --json "$TMP/d.json" >"$TMP/out" 2>&1
rc=$?
ok $rc "-t 3 -i 1000 -d 500: exit 0 (got $rc)"
jq_ok "$TMP/d.json" '.params.distance_us == 500 and .params.interval_us == 1000 and
	[.metrics[:-1][].interval_us] == [1000, 1500, 2000]'
ok $? "thread n's interval is 1000 + n * 500 us: $(jq -c '[.metrics[:-1][].interval_us]' "$TMP/d.json")"
# Every release in 1.2 s is a sample or a missed period: 1200, 800 and 600.
jq_ok "$TMP/d.json" '[.metrics[:-1][] | .count + .missed] as $n |
	[1200, 800, 600] as $want | all(range(0; 3); $n[.] >= $want[.] - 2 and $n[.] <= $want[.] + 1)'
ok $? "releases per thread in 1.2 s follow the intervals (want 1200, 800, 600): $(jq -c '[.metrics[:-1][] | .count + .missed]' "$TMP/d.json")"
grep -Eq 'interval 1\.0+ ms \+ 500(\.0)? us per thread' "$TMP/out"
ok $? "the summary states the distance: $(grep -o 'interval [^,]*' "$TMP/out" | head -n 1)"

# -l: every thread makes its own loops, the slowest sets the run time.
rtproof-cyclic -t 2 -a 0 -i 1000 -d 1000 -l 100 -q --json "$TMP/l.json" >/dev/null 2>&1
jq_ok "$TMP/l.json" '[.metrics[:-1][].count] == [100, 100] and .duration_s >= 0.19'
ok $? "-l 100 with intervals 1 and 2 ms: 100 samples each, the run lasts >= 0.2 s ($(jq .duration_s "$TMP/l.json") s)"

# --offset: same interval everywhere, first releases staggered.
rtproof-cyclic -t 2 -a 0 -i 1000 --offset 300 -D 0.5s -q --json "$TMP/o.json" >/dev/null 2>&1
jq_ok "$TMP/o.json" '.params.offset_us == 300 and .params.distance_us == 0 and
	[.metrics[:-1][].interval_us] == [1000, 1000]'
ok $? "--offset 300: params.offset_us 300, both threads at 1000 us"

# -S is cyclictest's standard SMP test: distance 0 even after -d.
rtproof-cyclic -d 500 -S -l 10 -q --json "$TMP/s.json" >/dev/null 2>&1
jq_ok "$TMP/s.json" '.params.distance_us == 0 and all(.metrics[:-1][]; .interval_us == 1000)'
ok $? "-d 500 -S: distance 0, every thread at the base interval"

rtproof-cyclic --help | grep -q -- '-d, --distance US .*interval + n\*US'
ok $? "--help describes -d as cyclictest's: $(rtproof-cyclic --help | grep -- '--distance')"
rtproof-cyclic -d 20s -l 1 >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "^rtproof-cyclic: error: -d 20s: " "$TMP/err"
ok $? "-d 20s: a one-line error, exit 1 ($(cat "$TMP/err"))"

# The reference: cyclictest itself, where it is installed.
if command -v cyclictest >/dev/null; then
	cyclictest -t 3 -a 0 -i 1000 -d 500 -l 20 -q -m >"$TMP/ct.out" 2>&1
	ref=$(sed -n 's/^T: *[0-9]* .* I: *\([0-9]*\) .*/\1/p' "$TMP/ct.out" | tr '\n' ' ')
	[ "$ref" = "1000 1500 2000 " ]
	ok $? "cyclictest -t 3 -i 1000 -d 500 runs its threads at the same intervals: $ref"
else
	skip "cyclictest reference" "cyclictest not installed (Debian: rt-tests)"
fi
done_testing
