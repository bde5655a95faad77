#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof compare's culprit diff (issue 26): when both sides ran --explain,
# the culprits that appeared, grew, shrank or vanished are named with
# their time and outliers (summed by name: hackbench's pids differ between
# runs), small ones left out, and a name's control bytes shown as '?';
# when one side has no culprit table there is no section; the verdict is
# the latencies' alone.
. "$(dirname "$0")/tap.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
COMPARE=$RTPROOF_BIN/rtproof-compare
[ -x "$RTPROOF_BIN/rtp-mkdoc" ] || { echo "1..0 # SKIP rtp-mkdoc not built"; exit 0; }
SRC=$TMP/doc.json
"$RTPROOF_BIN/rtp-mkdoc" --seed 1 --duration 2s --out "$SRC" || { echo "Bail out! rtp-mkdoc failed"; exit 1; }
mkdir -p "$TMP/base" "$TMP/new" "$TMP/plain"
row() { # name kind pid ns outliers
	echo "{\"name\": \"$1\", \"kind\": \"$2\", \"pid\": $3, \"ns\": $4, \"outliers\": $5, \"attributed\": $5, \"worst_ns\": 1000}"
}
jq --argjson r "[$(row hackbench task 300 2000000 20), $(row hackbench task 301 1000000 10),
	$(row qz-hog task 7 5000000 40), $(row RCU softirq 9 400000 8), $(row tiny task 9 1000 1)]" \
	'.events.explain = {"status": "on", "outliers": 80, "attributed": 78, "by_culprit": $r}' "$SRC" >"$TMP/base/cyclic.json"
jq --argjson r "[$(row hackbench task 800 1500000 15), $(row "ktimers/1" task 15 3100000 40),
	$(row RCU softirq 9 1600000 30), $(row "esc\u001b[2J" task 5 900000 9)]" \
	'.events.explain = {"status": "on", "outliers": 90, "attributed": 88, "by_culprit": $r}' "$SRC" >"$TMP/new/cyclic.json"
cp "$SRC" "$TMP/plain/cyclic.json"

"$COMPARE" "$TMP/base" "$TMP/new" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ]
ok $? "compare exits 0: the verdict is the latencies' ($rc)"
grep -q '^culprits (--explain' "$TMP/out"
ok $? "a culprit section"
grep -q "^  cyclic: ktimers/1 took 3.10 ms over 40 outliers in new, absent in base$" "$TMP/out"
ok $? "appeared: ktimers/1"
grep -q "^  cyclic: qz-hog took 5.00 ms over 40 outliers in base, absent in new$" "$TMP/out"
ok $? "vanished: qz-hog"
grep -q "^  cyclic: softirq RCU grew: 1.60 ms over 30 outliers in new, 400 us over 8 in base$" "$TMP/out"
ok $? "grew: softirq RCU"
grep -q "^  cyclic: hackbench shrank: 1.50 ms over 15 outliers in new, 3.00 ms over 30 in base$" "$TMP/out"
ok $? "shrank: hackbench, its two pids of base summed by name"
! grep -q "tiny" "$TMP/out" && grep -q "esc?\[2J took" "$TMP/out"
ok $? "a culprit under 5 % of both sides left out; control bytes as '?'"
# a user task may call itself ktimers/1: not the kernel thread of that name
mkdir -p "$TMP/kb" "$TMP/kn"
jq '.events.explain = {"status": "on", "outliers": 40, "attributed": 40, "by_culprit":
	[{"name": "ktimers/1", "kind": "task", "pid": 900, "kthread": false, "ns": 3000000, "outliers": 40, "worst_ns": 1000}]}' \
	"$SRC" >"$TMP/kb/cyclic.json"
jq '.events.explain = {"status": "on", "outliers": 40, "attributed": 40, "by_culprit":
	[{"name": "ktimers/1", "kind": "task", "pid": 15, "kthread": true, "ns": 3000000, "outliers": 40, "worst_ns": 1000}]}' \
	"$SRC" >"$TMP/kn/cyclic.json"
"$COMPARE" "$TMP/kb" "$TMP/kn" >"$TMP/out3" 2>&1
grep -q "^  cyclic: ktimers/1 (kernel thread) took 3.00 ms over 40 outliers in kn, absent in kb$" "$TMP/out3" &&
	grep -q "^  cyclic: ktimers/1 (user task) took 3.00 ms over 40 outliers in kb, absent in kn$" "$TMP/out3"
ok $? "a user task named ktimers/1 is not the kernel thread: two culprits, each said which ($(grep -c ktimers "$TMP/out3") lines)"
"$COMPARE" "$TMP/base" "$TMP/plain" >"$TMP/out2" 2>&1
! grep -q '^culprits' "$TMP/out2"
ok $? "one side without --explain: no culprit section"
done_testing
