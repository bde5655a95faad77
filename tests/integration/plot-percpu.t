#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof plot's per-CPU merge of a document with more than 32 threads: a
# thread whose page went coarse (one bucket spanning a power of two) merged
# with threads holding fine buckets inside that page.  The merged buckets
# must not overlap and the percentiles must not understate (the coarse
# values are above every fine one here).  gnuplot is not run.
. "$(dirname "$0")/tap.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
export RTPROOF_GNUPLOT=

# synth OUT COARSE_LAST: 40 threads on CPU 0; one holds 100 values in the
# coarse page [65536, 131071] (min 70000), the others one value each in the
# fine bucket [65536, 66047] or [66048, 66559].
synth() {
	jq -n --argjson last "$2" '
	def m($t; $b; $n; $mn; $mx): { name: "wakeup_latency", unit: "ns", cpu: 0, thread: $t,
		count: $n, min: $mn, mean: $mn, max: $mx, stddev: 0, overflow: 0, missed: 0,
		percentiles: {}, histogram: { kind: "log-linear", sub_bucket_bits: 7, edges: "inclusive",
		limit: 68719476736, buckets: $b },
		series: { kind: "time-blocks", clock: "monotonic", t0_s: 0, block_s: 0.1, coarsened: 0,
		          blocks: [[0, $n, $mx]] } };
	(m(0; [[65536, 131071, 100]]; 100; 70000; 130000) + { histogram: { kind: "log-linear",
		sub_bucket_bits: 7, edges: "inclusive", limit: 68719476736, coarse: 100,
		buckets: [[65536, 131071, 100]] } }) as $c
	| [range(1; 40) as $t | if $t % 2 == 1 then m($t; [[65536, 66047, 1]]; 1; 65600; 65600)
	                        else m($t; [[66048, 66559, 1]]; 1; 66100; 66100) end] as $f
	| { schema: "rtproof/1", tool: "rtproof-cyclic", version: "0.1.0",
	    command: ["rtproof-cyclic"], start: "2026-12-04T10:00:00Z",
	    system: { hostname: "box", kernel_release: "6.1.0-57-rt-amd64", kernel_version: "#1 SMP",
	              preempt: "rt", cpus_online: 1, cpu_model: "Test CPU", cmdline: "", clocksource: "tsc",
	              virtualized: true },
	    params: {}, load: { name: "none" },
	    metrics: (if $last == 1 then $f + [$c] else [$c] + $f end),
	    events: {}, duration_s: 1.0, verdict: { status: "pass", reason: "", criteria: [] } }' >"$1"
}

for last in 0 1; do
	synth "$TMP/c$last.json" $last
	out=$TMP/p$last
	rtproof-plot -q -o "$out" "$TMP/c$last.json" >/dev/null 2>&1
	rc=$?
	ok $([ $rc = 0 ] || [ $rc = 4 ]; echo $?) "coarse thread $([ $last = 1 ] && echo last || echo first): plotted (exit $rc)"
	# the histogram's lines: lower_us count, then upper_us (exclusive) count, per bucket
	hist=$(awk '/^# index 0/ { on = 1; next } /^$/ { on = 0 } on && /^[0-9]/' "$out/cyclic-wakeup_latency-hist.dat")
	diag "merged buckets (us, count): $(echo $hist)"
	check "  the merged buckets hold all 139 values without overlapping, up to the coarse page's end" \
		awk 'NR % 2 == 1 { lo = $1; if (NR > 1 && lo < hi) bad = 1 } NR % 2 == 0 { hi = $1; n += $2 }
		     END { exit !(n == 139 && !bad && hi >= 131.072) }' <<<"$hist"
	# every percentile from p50 up lies among the 100 coarse values (>= 70 us)
	pct=$(awk '/^# index 0/ { on = 1; next } /^$/ { on = 0 } on && /^[0-9]/ { print $2 }' \
		"$out/cyclic-wakeup_latency-percentiles.dat")
	diag "merged percentiles (us): $(echo $pct)"
	check "  no percentile understates (all >= 70 us, none above the max 130 us)" \
		awk '{ n++; if ($1 < 70 || $1 > 130) bad = 1 } END { exit !(n > 0 && !bad) }' <<<"$pct"
done

# The first thread of the CPU (a fine one) has no block series, the others
# have one: the merged series is made of theirs (not an error with an empty
# message).
jq '.metrics[0] |= del(.series)' "$TMP/c1.json" >"$TMP/noseries.json"
rtproof-plot -q -o "$TMP/p2" "$TMP/noseries.json" >"$TMP/p2.out" 2>&1
rc=$?
ok $([ $rc = 0 ] || [ $rc = 4 ]; echo $?) "first thread without a series: plotted (exit $rc)"
grep -q error "$TMP/p2.out" && diag "$(cat "$TMP/p2.out")"
diag "merged series (start_s, max_us): $(awk '/^# index 0/ { on = 1; next } /^$/ { on = 0 } on && /^[0-9-]/' \
	"$TMP/p2/cyclic-wakeup_latency-over-time.dat" 2>/dev/null | tr '\n' ' ')"
check "  the merged series is the others' (block max 130 us)" \
	awk '/^# index 0/ { on = 1; next } /^$/ { on = 0 } on && /^[0-9]/ { n++; if ($2 != 130) bad = 1 }
	     END { exit !(n > 0 && !bad) }' \
	"$TMP/p2/cyclic-wakeup_latency-over-time.dat"
# One thread's series was coarsened twice (0.4 s blocks), the others' not:
# the merged series is on 0.4 s blocks, and says it was coarsened twice.
jq '.metrics[5].series.block_s = 0.4 | .metrics[5].series.coarsened = 2' "$TMP/c0.json" >"$TMP/coarsened.json"
rtproof-plot -q -o "$TMP/p3" "$TMP/coarsened.json" >/dev/null 2>&1
h=$(grep -m1 "^# index 0" "$TMP/p3/cyclic-wakeup_latency-over-time.dat")
diag "${h#\# }"
echo "$h" | grep -q "block 0.4 s, coarsened 2 times"
ok $? "a series coarsened in one thread: the merged one's block length and coarsening agree"
done_testing
