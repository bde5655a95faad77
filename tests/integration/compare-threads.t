#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof compare with more threads than CPUs (cyclic -t 8): a thread's
# place in its CPU's wake-up order is the run's own, so per-thread rows
# are not compared and a warning says so; the CPU-wide rows are.  Plumbing
# on short host runs: no latency is asserted.
. "$(dirname "$0")/tap.sh"
n=$(nproc)
rtproof-cyclic -t $((4 * n)) -i 1000 -D 1s -q --json "$TMP/a.json" >/dev/null 2>&1 &&
	rtproof-cyclic -t $((4 * n)) -i 1000 -D 1s -q --json "$TMP/b.json" >/dev/null 2>&1 ||
	{ echo "Bail out! rtproof-cyclic did not run"; exit 1; }
rtproof-compare --json "$TMP/c.json" "$TMP/a.json" "$TMP/b.json" >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 2 ]
ok $? "compared: exit $rc ($(grep '^verdict' "$TMP/o"))"
grep -q "^warning: cyclic: $((4 * n)) threads share their CPUs: .* not compared" "$TMP/o" &&
	jq -e '.warnings | any(test("threads share their CPUs"))' "$TMP/c.json" >/dev/null
ok $? "a warning in the text and the JSON: $(grep -m1 '^warning' "$TMP/o")"
jq -e '[.rows[] | select(.bench == "cyclic" and .thread != null and .thread != "all")] | length == 0' "$TMP/c.json" >/dev/null &&
	jq -e 'any(.rows[]; .key == "cpu all thread all" and .figure == "max")' "$TMP/c.json" >/dev/null
ok $? "no per-thread row; the CPU-wide max is compared ($(jq -c '[.rows[] | .key] | unique' "$TMP/c.json" 2>/dev/null))"
# one thread per CPU: per-thread rows as before
rtproof-cyclic -t "$n" -i 1000 -D 1s -q --json "$TMP/p.json" >/dev/null 2>&1 &&
	rtproof-compare --json "$TMP/d.json" "$TMP/p.json" "$TMP/p.json" >/dev/null 2>&1
jq -e 'any(.rows[]; .key == "cpu 0 thread 0") and (.warnings | all(test("share") | not))' "$TMP/d.json" >/dev/null
ok $? "a thread per CPU: its rows are compared, no warning"
done_testing
