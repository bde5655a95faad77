#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof compare against known truth.  compare's statistics are tested on
# synthetic documents (tests/tools/rtp-mkdoc: a lognormal body, a Pareto
# tail, bursts on every CPU at once; fixed seeds, so the same documents on
# every machine): idle I1..I3 and J1..J3 from the same model, and P1..P3
# with a planted 2 ms stall on CPU 0 every 50 ms (so every 0.1 s block of
# CPU 0 holds one: the max row's episode test sees every block of CPU 0
# above the base's max).  Idle against idle must be no significant difference
# (exit 0); idle against planted a regression (exit 2) that names CPU 0.
# Two short host runs then check the plumbing only (a verdict and a
# well-formed compare document; no latency asserted): this host's own
# stalls would decide any latency verdict drawn from them.
. "$(dirname "$0")/tap.sh"
for n in 1 2 3; do
	rtp-mkdoc --seed $((100 + n)) --duration 6s --out "$TMP/I$n.json" &&
	rtp-mkdoc --seed $((200 + n)) --duration 6s --out "$TMP/J$n.json" &&
	rtp-mkdoc --seed $((300 + n)) --duration 6s --stall 0:2ms:50ms:$((n * 7))ms --out "$TMP/P$n.json" ||
		echo "not ok - rtp-mkdoc failed"
done
diag "truth: I, J: $(jq -c '[.metrics[] | .max]' "$TMP/I1.json") ns max per CPU; P: $(jq -c '[.metrics[] | .max]' "$TMP/P1.json")"
rtproof-compare --json "$TMP/idle.json" "$TMP/I1.json,$TMP/I2.json,$TMP/I3.json" \
	"$TMP/J1.json,$TMP/J2.json,$TMP/J3.json" >"$TMP/idle.txt" 2>&1
rc=$?
sed -n '/^verdict/,$p' "$TMP/idle.txt" | sed 's/^/# /'
[ $rc -eq 0 ] && jq_ok "$TMP/idle.json" '.verdict.status == "pass" and .verdict.regressions == []'
ok $? "idle against idle (3 runs each, same model): no significant regression, exit $rc"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/idle.txt"

rtproof-compare --json "$TMP/plant.json" "$TMP/I1.json,$TMP/I2.json,$TMP/I3.json" \
	"$TMP/P1.json,$TMP/P2.json,$TMP/P3.json" >"$TMP/plant.txt" 2>&1
rc=$?
sed -n '/^verdict/,$p' "$TMP/plant.txt" | sed 's/^/# /'
[ $rc -eq 2 ]
ok $? "idle against a planted 2 ms stall: exit 2 (got $rc)"
grep -q '^  regression: cyclic wakeup_latency cpu 0 thread 0 ' "$TMP/plant.txt" &&
	jq_ok "$TMP/plant.json" 'any(.rows[]; .cpu == 0 and .verdict == "worse") and
		any(.verdict.regressions[]; test("cpu 0 thread 0")) and
		all(.rows[]; .cpu != 1 or .verdict != "worse")'
ok $? "the regression names CPU 0, and CPU 1 is not called worse"
jq_ok "$TMP/plant.json" 'any(.rows[]; .cpu == 0 and .figure == "max" and .verdict == "worse"
	and .episodes_new_above_base_max >= 10 and .p_holm < 0.05)'
ok $? "CPU 0's episodes above the base max: $(jq -r '[.rows[] | select(.cpu == 0 and .figure == "max")][0] | "\(.episodes_new_above_base_max) episodes, p \(.p), Holm p \(.p_holm), per-run max \(.base_spread) -> \(.new_spread) ns: \(.verdict)"' "$TMP/plant.json" 2>/dev/null)"

# The plumbing on real documents from this host: a verdict, a document.
rtproof-cyclic -i 1000 -D 1s -q --json "$TMP/h1.json" >/dev/null 2>&1
rtproof-cyclic -i 1000 -D 1s -q --json "$TMP/h2.json" >/dev/null 2>&1
rtproof-compare --json "$TMP/host.json" "$TMP/h1.json" "$TMP/h2.json" >"$TMP/host.txt" 2>&1
rc=$?
{ [ $rc -eq 0 ] || [ $rc -eq 2 ]; } && jq_ok "$TMP/host.json" '.schema == "rtproof-compare/1" and
	(.rows | length) > 0 and (.verdict.status == "pass" or .verdict.status == "fail")'
ok $? "two host runs: a verdict and a compare document (exit $rc; latencies not asserted)"
[ -n "${RTPROOF_KEEP:-}" ] && cp "$TMP"/*.txt "$TMP"/idle.json "$TMP"/plant.json "$RTPROOF_KEEP/" 2>/dev/null
done_testing
