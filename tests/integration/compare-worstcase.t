#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# compare sees the worst case (issue 25), on synthetic documents of known
# truth (tests/tools/rtp-mkdoc, fixed seeds): 30 s at 200 us on 2 CPUs,
# idle I and J, and S with a 50 ms stall on CPU 1 every 2.5 s (12 stalls
# against an idle max of a few ms), and L with one lone 50 ms stall.
. "$(dirname "$0")/tap.sh"
M="--duration 30s --interval 200us"
# shellcheck disable=SC2086
{ rtp-mkdoc --seed 1 $M --out "$TMP/I.json" &&
  rtp-mkdoc --seed 2 $M --out "$TMP/J.json" &&
  rtp-mkdoc --seed 3 $M --stall 1:50ms:2500ms:700ms --out "$TMP/S.json" &&
  rtp-mkdoc --seed 4 $M --stall 1:50ms:60s:12s --out "$TMP/L.json"; } || echo "not ok - rtp-mkdoc failed"

rtproof-compare --json "$TMP/s.json" "$TMP/I.json" "$TMP/S.json" >"$TMP/s.txt" 2>&1
rc=$?
sed -n '/^verdict/,$p' "$TMP/s.txt" | sed 's/^/# /'
[ $rc -eq 2 ] && grep -q '^  regression: cyclic wakeup_latency cpu 1 thread 1 max ' "$TMP/s.txt" &&
	jq_ok "$TMP/s.json" 'any(.rows[]; .cpu == 1 and .figure == "max" and .verdict == "worse"
		and .episodes_new_above_base_max >= 12 and .p_holm < 0.05 and (.method | test("episode")))
		and all(.rows[]; .cpu != 0 or .verdict != "worse")'
ok $? "12 stalls of 50 ms on CPU 1: a regression of CPU 1's max, p and method in the row (exit $rc)"
head -n 1 "$TMP/s.txt" | grep -q '^answer: FAIL: the new side (S.json) is worse than the base (I.json) in [0-9]* figure' &&
	sed -n '2,/^$/p' "$TMP/s.txt" | grep -q '^  regression: cyclic wakeup_latency cpu 1 thread 1 max '
ok $? "the answer first: FAIL and the regression above the tables ($(head -n 1 "$TMP/s.txt"))"

rtproof-compare --json "$TMP/b.json" "$TMP/S.json" "$TMP/I.json" >"$TMP/b.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && jq_ok "$TMP/b.json" 'any(.rows[]; .cpu == 1 and .figure == "max" and .verdict == "better")' &&
	head -n 1 "$TMP/b.txt" | grep -q '^answer: PASS: no figure of the new side (I.json) is'
ok $? "the stalled run as base: no regression, its max row is better for the new side, the answer PASS first (exit $rc)"

rtproof-compare -q "$TMP/I.json" "$TMP/J.json" >"$TMP/i.txt" 2>&1
rc=$?
sed -n '/^verdict/p' "$TMP/i.txt" | sed 's/^/# /'
[ $rc -eq 0 ]
ok $? "idle against idle: no regression (exit $rc)"

rtproof-compare --json "$TMP/l.json" "$TMP/I.json" "$TMP/L.json" >"$TMP/l.txt" 2>&1
rc=$?
jq_ok "$TMP/l.json" '[.rows[] | select(.figure == "max" and .ratio >= 5)] as $g |
	($g | length) > 0 and all($g[]; .verdict == "worse" or .verdict == "undecided")'
ok $? "one lone stall, max >= 5x: never same or better for the larger side ($(jq -r '[.rows[] | select(.cpu == 1 and .figure == "max")][0] | "x\(.ratio): \(.verdict)"' "$TMP/l.json" 2>/dev/null))"
rtproof-compare --strict -q "$TMP/I.json" "$TMP/L.json" >"$TMP/l2.txt" 2>&1
rc=$?
{ [ $rc -eq 3 ] && grep -q '^  undecided: ' "$TMP/l2.txt"; } || { [ $rc -eq 2 ] && grep -q '^  regression: ' "$TMP/l2.txt"; }
ok $? "--strict: an undecided figure exits 3, named (exit $rc)"

rtproof-compare --budget cyclic.wakeup_latency=10ms --json "$TMP/g.json" "$TMP/I.json" "$TMP/S.json" >"$TMP/g.txt" 2>&1
jq_ok "$TMP/g.json" 'any(.rows[]; .cpu == 1 and .figure == ">10ms" and .unit == "/h" and .verdict == "worse"
	and .new > 1000 and .base_ci[0] == 0)'
ok $? "--budget 10ms: CPU 1's episodes per hour, worse ($(jq -r '[.rows[] | select(.cpu == 1 and .figure == ">10ms")][0] | "\(.base)/h -> \(.new)/h"' "$TMP/g.json" 2>/dev/null))"

rtproof-compare --budget cyclic.wakeup_latency=soon --json "$TMP/e.json" "$TMP/I.json" "$TMP/S.json" >"$TMP/e.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/e.txt")" -eq 1 ] && grep -q 'error: --budget cyclic.wakeup_latency=soon' "$TMP/e.txt" &&
	[ ! -e "$TMP/e.json" ]
ok $? "a bad --budget: one line naming it, exit 1, nothing written ($(cat "$TMP/e.txt"))"
# run length is not what is compared; priority is
jq -c '.command += ["-D", "10m"]' "$TMP/J.json" >"$TMP/Jd.json" &&
	jq -c '.command += ["-p", "80"]' "$TMP/J.json" >"$TMP/Jp.json" || echo "not ok - jq failed"
rtproof-compare -q "$TMP/I.json" "$TMP/Jd.json" >"$TMP/d.txt" 2>&1
rc=$?
rtproof-compare -q "$TMP/I.json" "$TMP/Jp.json" >"$TMP/p.txt" 2>&1
rcp=$?
[ $rc -ne 1 ] && [ $rcp -eq 1 ] && grep -q 'not like for like' "$TMP/p.txt"
ok $? "another -D compares (exit $rc); another -p is refused (exit $rcp)"
done_testing
