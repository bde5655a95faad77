#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof compare on a compare-kernels directory, and the ladder's tables
# (rtproof compare-kernels --from, no boots): a ladder built from host runs,
# two runs per rung, where the "stock-none" rung ran beside a planted 2 ms
# spinner on CPU 0 and the "rt" rung did not.  The rt rung is the base; the
# planted rung must come out worse (RT better) on CPU 0's maxima over time.
. "$(dirname "$0")/tap.sh"
L=$TMP/ladder
for n in 1 2; do
	mkdir -p "$L/rt-run$n" "$L/stock-none-run$n"
	rtproof-cyclic -i 1000 -D 4s -q --json "$L/rt-run$n/cyclic.json" >/dev/null 2>&1
	rtp-spin --cpu 0 --prio 99 --spin 2ms --every 200ms --duration 5s >/dev/null 2>&1 &
	sp=$!
	rtproof-cyclic -i 1000 -D 4s -q --json "$L/stock-none-run$n/cyclic.json" >/dev/null 2>&1
	wait $sp
	echo 0 >"$L/rt-run$n/cyclic.rc"
done
rtproof-compare --json "$TMP/c.json" "$L" >"$TMP/c.txt" 2>&1
rc=$?
sed -n '/^verdict/,$p' "$TMP/c.txt" | sed 's/^/# /'
[ $rc -eq 2 ] && jq_ok "$TMP/c.json" '.base.label == "rt" and .base.runs == 2 and
	(.new | length) == 1 and .new[0].label == "stock-none" and .new[0].runs == 2 and
	any(.rows[]; .cpu == 0 and .figure == "max" and .verdict == "worse" and .base_spread != null)'
ok $? "a ladder directory alone: rt is the base, runs grouped, the planted rung worse on CPU 0 (exit $rc)"
BIN=$RTPROOF_BIN "$RTPROOF_ROOT/scripts/rtproof-compare-kernels" --from "$L" >"$TMP/k.txt" 2>"$TMP/k.err"
rc=$?
[ $rc -eq 0 ] && [ -s "$L/compare.json" ] && grep -q '^cyclic wakeup_latency cpu all thread all (us)' "$L/compare.txt" &&
	grep -Eq '^stock-none .*RT better' "$TMP/k.txt" && grep -q '^  stock-none: RT better on [1-9]' "$TMP/k.txt"
ok $? "compare-kernels --from: a table per measure and the verdict per rung (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/k.err" "$TMP/k.txt" | tail -n 20
sed -n '/^cyclic wakeup_latency cpu all/,/^$/p' "$TMP/k.txt" | sed 's/^/# /'
done_testing
