#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# A short real run: the result document parses and holds the schema's fields.
. "$(dirname "$0")/tap.sh"

rtproof-cyclic -D 2s -q --json "$TMP/c.json" -h 200 --histfile "$TMP/c.hist" --spike 50 >"$TMP/out" 2>&1
rc=$?
ok $rc "a 2 s run exits 0 (got $rc)"
check "the document parses" jq_ok "$TMP/c.json" .
check "schema, tool, version, command, start, duration" jq_ok "$TMP/c.json" \
	'.schema == "rtproof/1" and .tool == "rtproof-cyclic" and (.version|type) == "string" and
	 (.command|length) > 1 and (.start|test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T")) and .duration_s >= 1.9'
check "system fields" jq_ok "$TMP/c.json" \
	'.system | (.kernel_release|length) > 0 and (.kernel_version|length) > 0 and
	 (.preempt|IN("rt","full","voluntary","none","lazy","unknown")) and .cpus_online >= 1 and
	 (.cpu_model|type) == "string" and (.cmdline|type) == "string" and (.clocksource|length) > 0 and
	 (.virtualized|type) == "boolean"'
ncpu=$(jq '.system.cpus_online' "$TMP/c.json")
check "one metric per online CPU plus the merged one" jq_ok "$TMP/c.json" \
	"(.metrics|length) == $ncpu + 1 and (.metrics[-1].thread == \"all\")"
check "each metric has count/min/mean/max/stddev/percentiles/missed/histogram in ns" jq_ok "$TMP/c.json" \
	'all(.metrics[]; .name == "wakeup_latency" and .unit == "ns" and .count > 1500 and
	 .min <= .mean and .mean <= .max and .stddev >= 0 and .missed >= 0 and .overflow == 0 and
	 (.percentiles | ."50" <= ."90" and ."90" <= ."99" and ."99" <= ."99.9" and ."99.9" <= ."99.99"
	  and ."99.99" <= ."99.999") and .percentiles."99.999" <= .max and .percentiles."50" >= .min and
	 .histogram.kind == "log-linear" and ([.histogram.buckets[][2]]|add) == .count)'
check "the merged metric is the sum of the threads" jq_ok "$TMP/c.json" \
	'(.metrics[-1].count == ([.metrics[:-1][].count]|add)) and
	 (.metrics[-1].max == ([.metrics[:-1][].max]|max)) and (.metrics[-1].min == ([.metrics[:-1][].min]|min))'
check "no budget, no pass: figures only, exit 0" jq_ok "$TMP/c.json" '.verdict.status == "figures only" and .verdict.criteria == [] and (.verdict.reason | test("no latency budget given .*: max [0-9.]+ us"))'
check "params record the defaults" jq_ok "$TMP/c.json" \
	'.params.policy == "fifo" and .params.priority == 95 and .params.interval_us == 1000 and
	 .params.mlockall == true and .events.stopped_by == "duration"'
check "summary table printed with units" grep -q "p99.99" "$TMP/out"
grep -q "^ *us *us" "$TMP/out"; ok $? "summary header carries the unit"
# cyclictest's text format
check "histfile: 200 '%06d ' rows of tab-separated counts" sh -c "grep -c '^[0-9]\{6\} [0-9]\{6\}	[0-9]' '$TMP/c.hist' | grep -qx 200"
check "histfile: Min/Avg/Max and overflow lines" sh -c \
	"grep -q '^# Min Latencies:' '$TMP/c.hist' && grep -q '^# Avg Latencies:' '$TMP/c.hist' &&
	 grep -q '^# Max Latencies:' '$TMP/c.hist' && grep -q '^# Histogram Overflows:' '$TMP/c.hist'"
# The text histogram's counts plus its overflows add up to the samples of thread 0.
t0=$(awk '/^[0-9]/ { s += $2 } /^# Histogram Overflows:/ { split($0, a, " "); s += a[4] } END { print s }' "$TMP/c.hist")
c0=$(jq '.metrics[0].count' "$TMP/c.json")
[ "$t0" = "$c0" ]; ok $? "histfile thread 0 counts + overflows = $c0 samples (got $t0)"
max_us=$(awk '/^# Max Latencies:/ { print $4 }' "$TMP/c.hist" | sed 's/^0*//')
max_ns=$(jq '.metrics[0].max' "$TMP/c.json")
[ $(( (max_ns + 999) / 1000 )) -eq "${max_us:-0}" ]; ok $? "histfile max ($max_us us) matches the JSON max ($max_ns ns)"

# Loops: an exact number of samples per thread
rtproof-cyclic -l 300 -i 500 -t 1 -a 0 -q --json "$TMP/l.json" >/dev/null 2>&1
check "-l 300 gives exactly 300 samples" jq_ok "$TMP/l.json" '.metrics[0].count == 300 and .events.stopped_by == "loops"'
# Duration: every release within it is either measured or counted missed.
for t in "" "--timer timerfd"; do
	# shellcheck disable=SC2086
	rtproof-cyclic -D 1s -i 1000 -t 1 -a 0 -q $t --json "$TMP/d.json" >/dev/null 2>&1
	check "-D 1s $t: samples + missed = the 1001 releases in [start, start + 1 s]" jq_ok "$TMP/d.json" \
		'.metrics[0].count + .metrics[0].missed == 1001 and .events.stopped_by == "duration"'
done
for t in "--timer timerfd" "-r" "--policy rr -p 50" "-N"; do
	# shellcheck disable=SC2086
	rtproof-cyclic -l 200 -i 500 -q $t --json "$TMP/t.json" >/dev/null 2>&1
	check "$t: runs and records samples" jq_ok "$TMP/t.json" '.metrics[0].count == 200'
done
# A budget met: the "how long" line, -ln(0.05) / 1 s = 1.08e4 an hour
# (1.0e4 to 1.2e4 for the 0.9 to 1.08 s a loaded host may stretch the run
# to), 3.0 h for fewer than one; a 10 s budget no host stall reaches
rtproof-cyclic -D 1s -i 1000 -t 1 -a 0 --max-latency 10s >"$TMP/h.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^how long: max wakeup_latency <= 10000000.0 us in 1\.[01] s: at 95 % confidence fewer than 1\.[01][0-9]*e+04 misses an hour; fewer than one an hour needs 3\.0 h with none$' "$TMP/h.txt"
ok $? "a budget met: how long the run was against a confident answer (exit $rc: $(grep -m1 '^how long' "$TMP/h.txt"))"
rtproof-cyclic -D 1s -i 1000 -t 1 -a 0 >"$TMP/h.txt" 2>&1
! grep -q '^how long' "$TMP/h.txt"
ok $? "no budget: no how-long line"
done_testing
