#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof compare on a compare-kernels directory, and the ladder's tables
# (rtproof compare-kernels --from, no boots): a ladder of synthetic
# documents with known truth (tests/tools/rtp-mkdoc: heavy-tailed, bursty
# noise alike on both rungs; fixed seeds), two runs per rung, where the
# "stock-none" rung carries a planted 2 ms stall on CPU 0 every 50 ms and
# the "rt" rung does not.  The rt rung is the base; the planted rung must
# come out worse (RT better) on CPU 0's maxima over time.  The host's own
# stalls cannot enter these figures.
. "$(dirname "$0")/tap.sh"
L=$TMP/ladder
for n in 1 2; do
	mkdir -p "$L/rt-run$n" "$L/stock-none-run$n"
	rtp-mkdoc --seed $((10 + n)) --duration 4s --kernel 6.12.0-rt --preempt rt \
		--out "$L/rt-run$n/cyclic.json" &&
	rtp-mkdoc --seed $((20 + n)) --duration 4s --kernel 6.12.0 --preempt none \
		--stall 0:2ms:50ms:$((n * 7))ms --out "$L/stock-none-run$n/cyclic.json" ||
		echo "not ok - rtp-mkdoc failed"
	echo 0 >"$L/rt-run$n/cyclic.rc"
	echo 0 >"$L/stock-none-run$n/cyclic.rc"
done
rtproof-compare --json "$TMP/c.json" "$L" >"$TMP/c.txt" 2>&1
rc=$?
sed -n '/^verdict/,$p' "$TMP/c.txt" | sed 's/^/# /'
[ $rc -eq 2 ] && jq_ok "$TMP/c.json" '.base.label == "rt" and .base.runs == 2 and
	(.new | length) == 1 and .new[0].label == "stock-none" and .new[0].runs == 2 and
	any(.rows[]; .cpu == 0 and .figure == "max" and .verdict == "worse" and .base_spread != null)'
ok $? "a ladder directory alone: rt is the base, runs grouped, the planted rung worse on CPU 0 (exit $rc)"
jq_ok "$TMP/c.json" 'all(.rows[]; .cpu != 1 or .verdict != "worse")'
ok $? "CPU 1, without the planted stall, is not called worse"
BIN=$RTPROOF_BIN "$RTPROOF_ROOT/scripts/rtproof-compare-kernels" --from "$L" >"$TMP/k.txt" 2>"$TMP/k.err"
rc=$?
[ $rc -eq 0 ] && [ -s "$L/compare.json" ] && grep -q '^cyclic wakeup_latency cpu all thread all (us)' "$L/compare.txt" &&
	grep -Eq '^stock-none .*RT better' "$TMP/k.txt" && grep -q '^  stock-none: RT better on [1-9]' "$TMP/k.txt"
ok $? "compare-kernels --from: a table per measure and the verdict per rung (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/k.err" "$TMP/k.txt" | tail -n 20
sed -n '/^cyclic wakeup_latency cpu all/,/^$/p' "$TMP/k.txt" | sed 's/^/# /'
done_testing
