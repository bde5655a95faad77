#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# JUnit XML and LAVA log extraction, without a VM: rtproof run --junit and
# rtproof-junit validate against the common JUnit schema with a broken
# budget reported as a failure; the LAVA reporter's documents come back
# from a console log byte for byte, and a damaged one is refused.
. "$(dirname "$0")/tap.sh"
command -v xmllint >/dev/null || { echo "1..0 # SKIP xmllint not installed (apt-get install libxml2-utils)"; exit 0; }
command -v python3 >/dev/null || { echo "1..0 # SKIP python3 not installed"; exit 0; }
XSD=$RTPROOF_ROOT/tests/integration/data/junit.xsd
S=$RTPROOF_ROOT/scripts

rtproof run --duration 300ms --benches cyclic,audio --out "$TMP/suite" --junit "$TMP/suite.xml" >"$TMP/run.out" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 2 ] || [ $rc -eq 4 ]
ok $? "rtproof run --junit: runs (exit $rc)"
xmllint --noout --schema "$XSD" "$TMP/suite.xml" 2>"$TMP/xsd.err"
ok $? "rtproof run --junit: valid against the JUnit schema$(head -c 200 "$TMP/xsd.err" | tr '\n' ' ')"
n=$(xmllint --xpath 'count(//testcase[@name="verdict" and (@classname="rtproof.cyclic" or @classname="rtproof.audio")])' "$TMP/suite.xml" 2>/dev/null)
[ "$n" = 2 ]
ok $? "one verdict test case per bench ($n)"
if jq -e '.verdict.status == "figures only"' "$TMP/suite/cyclic.json" >/dev/null 2>&1; then
	f=$(xmllint --xpath 'count(//testcase[@classname="rtproof.cyclic" and @name="verdict"]/*[self::failure or self::error or self::skipped])' "$TMP/suite.xml" 2>/dev/null)
	o=$(xmllint --xpath 'string(//testcase[@classname="rtproof.cyclic" and @name="verdict"]/system-out)' "$TMP/suite.xml" 2>/dev/null)
	[ "$f" = 0 ] && case $o in "figures only: no latency budget given"*) true ;; *) false ;; esac
	ok $? "cyclic without a budget: a passing case that says figures only ($o)"
else
	skip "cyclic without a budget" "cyclic did not measure here"
fi
if [ -s "$TMP/suite/check.json" ]; then
	c=$(xmllint --xpath 'count(//testcase[@classname="rtproof.check"])' "$TMP/suite.xml" 2>/dev/null)
	f=$(xmllint --xpath 'count(//testcase[@classname="rtproof.check"]/failure)' "$TMP/suite.xml" 2>/dev/null)
	[ "$c" -gt 1 ] && [ "$f" = 0 ]
	ok $? "rtproof check's settings listed ($c cases), none a failure (they explain, as in the exit status)"
fi

# A planted budget failure: 1 us cannot be met.
mkdir -p "$TMP/fail"
rtproof-cyclic -D 300ms -q --max-latency 1 --json "$TMP/fail/cyclic.json" >/dev/null 2>&1
[ $? -eq 2 ]
ok $? "rtproof-cyclic --max-latency 1 fails (the planted budget)"
"$S/rtproof-junit" --out "$TMP/fail.xml" "$TMP/fail" &&
	xmllint --noout --schema "$XSD" "$TMP/fail.xml" 2>/dev/null
ok $? "rtproof-junit: valid XML for the failed run"
f=$(xmllint --xpath 'count(//testcase[starts-with(@name,"criterion: max wakeup_latency")]/failure)' "$TMP/fail.xml" 2>/dev/null)
v=$(xmllint --xpath 'count(//testcase[@name="verdict"]/failure)' "$TMP/fail.xml" 2>/dev/null)
a=$(xmllint --xpath 'string(/testsuites/@failures)' "$TMP/fail.xml" 2>/dev/null)
[ "$f" = 1 ] && [ "$v" = 1 ] && [ "$a" = 2 ]
ok $? "the broken budget is a failed criterion case and a failed verdict (failures=$a)"
"$S/rtproof-junit" --out "$TMP/nodir/x.xml" "$TMP/fail" 2>"$TMP/err"
[ $? -eq 1 ] && grep -q 'rtproof-junit: error: --out' "$TMP/err" && [ ! -e "$TMP/nodir" ]
ok $? "rtproof-junit: an unwritable --out is a one-line error"
"$S/rtproof-junit" --out "$TMP/e.xml" "$TMP/nodir" 2>"$TMP/err"
[ $? -eq 1 ] && [ ! -e "$TMP/e.xml" ]
ok $? "rtproof-junit: a missing directory is an error, nothing written"

# The LAVA reporter outside LAVA prints its cases and the documents; the
# log read back gives the same bytes.
"$RTPROOF_ROOT/lava/rtproof-lava-guest" --duration 300ms --benches cyclic \
	--budgets 'cyclic-*-max=1ns cyclic-*-p99=10s nothing-*=1' --out "$TMP/guest" >"$TMP/console.log" 2>&1
grep -q 'rtproof-lava-case: cyclic --result unknown' "$TMP/console.log"
ok $? "guest: the bench's verdict case: unknown, since rtproof run gave cyclic no budget (figures only)"
grep -Eq 'rtproof-lava-case: cyclic-cpu0-max --result fail --measurement [0-9]+ --units ns' "$TMP/console.log"
ok $? "guest: the max over a 1 ns budget is a failed case with its measurement in ns"
grep -Eq 'rtproof-lava-case: cyclic-cpu0-p99 --result pass --measurement [0-9]+ --units ns' "$TMP/console.log"
ok $? "guest: p99 within a 10 s budget passes"
grep -Eq 'rtproof-lava-case: cyclic-cpu0-p99.9 --result unknown --measurement [0-9]+ --units ns' "$TMP/console.log"
ok $? "guest: a figure without a budget is measured, not judged (unknown)"
grep -q 'rtproof-lava-case: budget-nothing-_ --result fail' "$TMP/console.log"
ok $? "guest: a budget that matches no figure fails"
"$RTPROOF_ROOT/lava/rtproof-lava-guest" --budgets 'cyclic-max' >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && grep -q 'rtproof-lava-guest: error: --budgets cyclic-max' "$TMP/err"
ok $? "guest: a malformed budget is a one-line error before any run"

"$S/rtproof-lava" results --out "$TMP/back" "$TMP/console.log" >"$TMP/res.out" 2>&1
cmp -s "$TMP/guest/cyclic.json" "$TMP/back/cyclic.json" && cmp -s "$TMP/guest/cyclic.hist" "$TMP/back/cyclic.hist"
ok $? "rtproof lava results: the documents are byte-identical to the guest's"
# Damage one base64 line of cyclic.json: refused, not written.
awk '/RTPROOF-DOC-BEGIN cyclic.json/ { inside = 1; print; next }
     inside && !done && /^[A-Za-z0-9+\/=]+$/ { n++; if (n == 3) { $0 = "AAAA" substr($0, 5); done = 1 } }
     { print }' "$TMP/console.log" >"$TMP/bad.log"
"$S/rtproof-lava" results --out "$TMP/bad" "$TMP/bad.log" >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && [ ! -e "$TMP/bad/cyclic.json" ] && grep -q 'cyclic.json' "$TMP/err"
ok $? "rtproof lava results: a damaged document is refused (exit 1)"
# A gzip bomb: 300 MB of zeros (300 KB packed) said to be 1000 bytes. The
# reader inflates no more than it was told, under a 200 MB memory cap.
{
	echo "RTPROOF-DOC-BEGIN bomb.json 1000 $(printf '%064d' 0) gzip+base64"
	head -c 300000000 /dev/zero | gzip -1 | base64 -w 76
	echo "RTPROOF-DOC-END bomb.json"
} >"$TMP/bomb.log"
(ulimit -v 200000; "$S/rtproof-lava" results --out "$TMP/bomb" "$TMP/bomb.log") >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$TMP/bomb/bomb.json" ] && grep -q 'bomb.json: size or sha256 differs' "$TMP/err" &&
	! grep -q 'Traceback\|MemoryError' "$TMP/err"
ok $? "rtproof lava results: a gzip bomb is refused without inflating it (exit $rc: $(grep bomb "$TMP/err" | head -n 1))"
# A document name from the log is a plain file name or refused: "../x" and
# an absolute path never steer a write out of --out.
printf '{"planted": 1}\n' >"$TMP/pl.json"
plsize=$(wc -c <"$TMP/pl.json") plsha=$(sha256sum "$TMP/pl.json" | cut -d' ' -f1)
mkdir -p "$TMP/pl/out"
{
	for n in ../escape.json "$TMP/pl/abs.json"; do
		echo "RTPROOF-DOC-BEGIN $n $plsize $plsha gzip+base64"
		gzip -c "$TMP/pl.json" | base64 -w 76
		echo "RTPROOF-DOC-END $n"
	done
} >"$TMP/pl.log"
"$S/rtproof-lava" results --out "$TMP/pl/out" "$TMP/pl.log" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$TMP/pl/escape.json" ] && [ ! -e "$TMP/pl/abs.json" ] &&
	grep -q 'escape.json: refused (not a plain file name)' "$TMP/err" && grep -q 'abs.json: refused' "$TMP/err"
ok $? "rtproof lava results: ../ and absolute document names are refused, nothing written outside --out (exit $rc)"
"$S/rtproof-lava" results "$TMP/none.log" 2>"$TMP/err"
[ $? -eq 1 ] && grep -q 'rtproof-lava: error: .*none.log: no such file' "$TMP/err"
ok $? "rtproof lava results: a missing log is a one-line error"
done_testing
