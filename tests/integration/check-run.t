#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# rtproof run records rtproof check's result beside the measurements, and
# its table names the settings that were off.
. "$(dirname "$0")/tap.sh"

rtproof run --duration 1s --benches cyclic --out "$TMP/r" >"$TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$TMP/out"
[ -s "$TMP/r/check.json" ] && [ -s "$TMP/r/cyclic.json" ]; ok $? "check.json beside cyclic.json (run exit $rc)"
jq_ok "$TMP/r/check.json" '.tool == "rtproof-check" and .params.profile == "latency"'
ok $? "check.json is rtproof-check's document, latency profile"
want=$(jq -r '[.verdict.criteria[] | select(.status == "fail") | .name] | join(",")' "$TMP/r/check.json")
if [ -n "$want" ]; then
	grep -q "^check  *fail  *settings off: fail $want;" "$TMP/out"
	ok $? "the table names the failing settings: $want"
else
	grep -q "^check  *pass" "$TMP/out"; ok $? "the table says check passed"
fi
crc=$(jq -r '.verdict.status' "$TMP/r/check.json")
brc=$(jq -r '.verdict.status' "$TMP/r/cyclic.json")
case $brc in "figures only") brc0=pass ;; *) brc0=$brc ;; esac	# no budget: exit 0 as a pass
{ [ "$brc0" = pass ] && [ $rc -eq 0 ]; } || { [ "$brc0" != pass ] && [ $rc -ne 0 ]; }
ok $? "the exit ($rc) follows the bench ($brc), not the check ($crc)"
done_testing
