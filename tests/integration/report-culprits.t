#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof report's culprit table (issue 26): a document with
# events.explain.by_culprit[] gets a "What delayed the threads" section,
# its rows largest first with a bar each (the largest full width), at most
# 15 rows and how many more; a comm is a task's own text, so markup in a
# culprit's name reaches the page as text.  Without by_culprit: no section.
. "$(dirname "$0")/tap.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
REPORT=$RTPROOF_BIN/rtproof-report
SRC=$RTPROOF_ROOT/tests/fuzz/corpus/doc/valid-cyclic.json

mkdir -p "$TMP/a" "$TMP/b"
jq '.events.explain = {"threshold_ns": 20000, "status": "on", "outliers": 50, "attributed": 48,
	"by_culprit": ([{"name": "<script>x</script>", "kind": "task", "pid": 7, "policy": "FIFO", "prio": 99,
			"kthread": false, "ns": 4000000, "outliers": 40, "attributed": 40, "worst_ns": 300000}]
		+ [range(1; 20) | {"name": "hackbench", "kind": "task", "pid": (100 + .), "policy": "OTHER",
			"prio": 0, "kthread": false, "ns": (100000 - . * 1000), "outliers": 1, "attributed": 1,
			"worst_ns": 50000}])}' "$SRC" >"$TMP/a/cyclic.json"
"$REPORT" -q -o "$TMP/a/report.html" "$TMP/a/cyclic.json" 2>"$TMP/a.err"
ok $? "report written ($(head -n 1 "$TMP/a.err"))"
grep -q '<h2 id="culprits">What delayed the threads' "$TMP/a/report.html"
ok $? "the culprit section is there"
grep -q '48 attributed to a culprit (96.0 %)' "$TMP/a/report.html"
ok $? "the attributed share"
[ "$(grep -c '^<tr><td>hackbench\[' "$TMP/a/report.html")" -eq 14 ] && grep -q '5 more in the document' "$TMP/a/report.html"
ok $? "15 rows at most, then how many more"
grep -q '^<tr><td>&lt;script&gt;x&lt;/script&gt;\[7\] (user)</td><td>task</td><td>FIFO 99</td><td class="num">4.00 ms</td>.*width:100.0%' "$TMP/a/report.html" &&
	! grep -q '<script>' "$TMP/a/report.html"
ok $? "the first row: the name as text, FIFO 99, 4.00 ms, the full bar"
grep -q '^<tr><td>hackbench\[101\] (user)</td><td>task</td><td>OTHER nice 0</td><td class="num">99.0 &micro;s</td>.*width:2.5%' "$TMP/a/report.html"
ok $? "a SCHED_OTHER row: its nice value, its bar in proportion"

cp "$SRC" "$TMP/b/cyclic.json"
"$REPORT" -q -o "$TMP/b/report.html" "$TMP/b/cyclic.json" 2>/dev/null && ! grep -q 'id="culprits"' "$TMP/b/report.html"
ok $? "without --explain: no culprit section"
done_testing
