#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# A real LAVA job: Debian's lava-run boots the RT kernel under QEMU TCG with
# the rtproof ramdisk and runs the suite's test definition (short benches).
# Asserts on the lava-test-case results LAVA itself reports: each bench's
# case, measurements with units, a planted budget that cannot be met (1 ns)
# reported as fail, a generous one as pass; the documents gathered from the
# job log identical to the guest's (sha256 printed by the guest) and to what
# `rtproof lava results` extracts again; JUnit XML valid.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
LAVA=$RTPROOF_ROOT/scripts/rtproof-lava

# Without lava-run: a clear skip naming the package (no job is attempted).
mkdir -p "$TMP/nopath"
PATH=$TMP/nopath "$LAVA" run --kernel rt --out "$TMP/none" >/dev/null 2>"$TMP/skip.err"
rc=$?
[ $rc -eq 4 ] && grep -q 'rtproof-lava: skip: lava-run is not installed (Debian: apt-get install lava-dispatcher)' "$TMP/skip.err"
ok $? "no lava-run: skip (exit $rc) naming lava-dispatcher"
"$LAVA" run --budget 'cyclic-max' 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "rtproof-lava: error: --budget cyclic-max" "$TMP/err"
ok $? "a malformed --budget is a one-line error"

command -v lava-run >/dev/null || { skip "a real lava-run job" "lava-run not installed (apt-get install lava-dispatcher)"; done_testing; exit; }
python3 -c 'import jinja2, yaml' 2>/dev/null || { skip "a real lava-run job" "python3-jinja2/python3-yaml not installed"; done_testing; exit; }
vm_need_qemu
vm_fetch rt

start=$(date +%s)
"$LAVA" run --kernel rt --duration 2s --benches cyclic,irqlat,audio \
	--budget 'cyclic-*-max=1ns' --budget 'cyclic-*-p99=10s' \
	--out "$TMP/job" --junit "$TMP/job.xml" --timeout 600s >"$TMP/run.out" 2>"$TMP/run.err"
rc=$?
took=$(( $(date +%s) - start ))
[ $rc -eq 2 ]
ok $? "rtproof lava run: the job ran and the planted budget makes it fail (exit $rc, ${took}s)"
[ $rc -eq 2 ] || { sed 's/^/# /' "$TMP/run.err" | tail -n 20; }
sed 's/^/# /' "$TMP/run.out"
R=$TMP/job/lava-results.json
jq_ok "$R" '.job.result == "pass"'
ok $? "LAVA's own job result is pass (the infrastructure worked)"
for b in cyclic irqlat audio; do
	jq_ok "$R" '[.cases[] | select(.case == "'$b'" and (.result | IN("pass", "fail", "skip", "unknown")))] | length == 1'
	ok $? "LAVA case for bench $b: $(jq -r '.cases[] | select(.case == "'$b'") | .result' "$R" 2>/dev/null)"
done
jq_ok "$R" '[.cases[] | select(.case | test("^cyclic-cpu0-max$")) | select(.result == "fail" and .units == "ns" and (.measurement | tonumber) > 1)] | length == 1'
ok $? "cyclic-cpu0-max over the 1 ns budget is reported by LAVA as fail, in ns"
jq_ok "$R" '[.cases[] | select(.case == "cyclic-cpu0-p99" and .result == "pass" and .units == "ns")] | length == 1'
ok $? "cyclic-cpu0-p99 within 10 s: pass"
jq_ok "$R" '[.cases[] | select(.case == "cyclic-cpu0-p99.9" and .result == "unknown" and .units == "ns")] | length == 1'
ok $? "cyclic-cpu0-p99.9 with no budget: measured, unknown"
jq_ok "$R" '([.cases[] | select(.case == "audio-xruns" and .units == "xruns")] | length == 1) and
	([.cases[] | select(.case == "audio-wakeup_lateness-max" and .units == "ns")] | length == 1)'
ok $? "audio: xruns and worst lateness as measurements with units"
st=$(jq -r '.cases[] | select(.case == "irqlat") | .result' "$R" 2>/dev/null)
if [ "$st" = skip ]; then
	skip "irqlat stages as measurements" "irqlat skipped in this guest"
else
	jq_ok "$R" '[.cases[] | select(.case | test("^irqlat-.*-max$")) | select(.units == "ns")] | length >= 1'
	ok $? "irqlat: its stages as measurements in ns"
fi
jq_ok "$R" '[.cases[] | select(.measurement != null) | select((.units // "") == "")] | length == 0'
ok $? "every measurement carries a unit"

for d in cyclic irqlat audio; do
	f=$TMP/job/$d.json
	want=$(grep -o "RTPROOF-DOC-BEGIN $d.json [0-9]* [0-9a-f]*" "$TMP/job/lava/lava.log" | head -n 1 | cut -d' ' -f4)
	have=$(sha256sum "$f" 2>/dev/null | cut -d' ' -f1)
	[ -n "$want" ] && [ "$want" = "$have" ] && jq_ok "$f" '.schema == "rtproof/1"'
	ok $? "$d.json gathered from the job log, identical to the guest's (sha256 ${have%"${have#????????}"})"
done
jq_ok "$TMP/job/cyclic.json" '.system.preempt == "rt" and (.system.kernel_release | test("-rt-"))'
ok $? "the documents come from the RT kernel"
"$LAVA" results --out "$TMP/again" "$TMP/job/lava/lava.log" >/dev/null 2>&1
[ $? -eq 2 ] && cmp -s "$TMP/job/cyclic.json" "$TMP/again/cyclic.json" && cmp -s "$TMP/job/audio.json" "$TMP/again/audio.json"
ok $? "rtproof lava results on the job log: the same documents, the failure kept (exit 2)"
command -v xmllint >/dev/null && xmllint --noout --schema "$RTPROOF_ROOT/tests/integration/data/junit.xsd" "$TMP/job.xml" 2>/dev/null &&
	[ "$(xmllint --xpath 'count(//testcase[@name="cyclic-cpu0-max"]/failure)' "$TMP/job.xml")" = 1 ]
ok $? "JUnit XML from the job: valid, the planted failure a <failure>"
done_testing
