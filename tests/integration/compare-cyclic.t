#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof compare against planted truth.  Three sets of short rtproof-cyclic
# runs, interleaved so that the shared machine's own drift falls on every
# side alike: idle I1..I3, idle J1..J3, and P1..P3 beside a SCHED_FIFO 99
# spinner on CPU 0 that busy-spins 2 ms every 50 ms.  The max row's verdict
# rests on the 0.1 s block maxima, per run by their median: a spin in every
# block moves that median; one every 200 ms would hit only half the blocks
# and leave each run's median on the edge between spun and idle blocks.  Idle against idle
# must be no significant difference (exit 0); idle against planted must be a
# regression (exit 2) that names CPU 0.
. "$(dirname "$0")/tap.sh"
D=${COMPARE_RUN:-6s}
run() {	# run NAME [spin]
	if [ "${2:-}" = spin ]; then
		rtp-spin --cpu 0 --prio 99 --spin 2ms --every 50ms --duration 7s >"$TMP/$1.spin" 2>&1 &
		_sp=$!
	fi
	rtproof-cyclic -i 1000 -D "$D" -q --json "$TMP/$1.json" >"$TMP/$1.out" 2>&1
	_rc=$?
	[ "${2:-}" = spin ] && wait $_sp
	[ $_rc -eq 0 ] || { diag "$1: rtproof-cyclic exit $_rc"; sed 's/^/# /' "$TMP/$1.out"; }
}
for n in 1 2 3; do
	run I$n
	run J$n
	run P$n spin
done
rtproof-compare --json "$TMP/idle.json" "$TMP/I1.json,$TMP/I2.json,$TMP/I3.json" \
	"$TMP/J1.json,$TMP/J2.json,$TMP/J3.json" >"$TMP/idle.txt" 2>&1
rc=$?
sed -n '/^verdict/,$p' "$TMP/idle.txt" | sed 's/^/# /'
[ $rc -eq 0 ] && jq_ok "$TMP/idle.json" '.verdict.status == "pass" and .verdict.regressions == []'
ok $? "idle against idle (3 runs each): no significant regression, exit $rc"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/idle.txt"

rtproof-compare --json "$TMP/plant.json" "$TMP/I1.json,$TMP/I2.json,$TMP/I3.json" \
	"$TMP/P1.json,$TMP/P2.json,$TMP/P3.json" >"$TMP/plant.txt" 2>&1
rc=$?
sed -n '/^verdict/,$p' "$TMP/plant.txt" | sed 's/^/# /'
[ $rc -eq 2 ]
ok $? "idle against a planted 2 ms spinner: exit 2 (got $rc)"
grep -q '^  regression: cyclic wakeup_latency cpu 0 thread 0 ' "$TMP/plant.txt" &&
	jq_ok "$TMP/plant.json" 'any(.rows[]; .cpu == 0 and .verdict == "worse") and
		any(.verdict.regressions[]; test("cpu 0 thread 0"))'
ok $? "the regression names CPU 0"
jq_ok "$TMP/plant.json" 'any(.rows[]; .cpu == 0 and .figure == "max" and .verdict == "worse"
	and .block_max_median_ratio > 5)'
ok $? "CPU 0's maxima over time moved: $(jq -r '[.rows[] | select(.cpu == 0 and .figure == "max")][0] | "block maxima median x\(.block_max_median_ratio), per-run medians \(.base_spread) -> \(.new_spread) ns: \(.verdict)"' "$TMP/plant.json" 2>/dev/null)"
[ -n "${RTPROOF_KEEP:-}" ] && cp "$TMP"/*.txt "$TMP"/idle.json "$TMP"/plant.json "$RTPROOF_KEEP/" 2>/dev/null
done_testing
