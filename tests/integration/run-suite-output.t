#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# rtproof run's suite directory (docs/reliability.md): suite.json written
# whole, "complete": false when Ctrl-C cuts the suite short (the running
# bench still leaves a complete document), a bench killed outright leaves
# no temporary file behind.
. "$(dirname "$0")/tap.sh"
RUN=$RTPROOF_ROOT/scripts/rtproof-run

"$RUN" --benches cyclic --duration 1s --out "$TMP/a" >"$TMP/a.out" 2>&1
rc=$?
ok $rc "a 1 s suite of cyclic: exit $rc"
check "suite.json: complete, cyclic exit 0 with its document" jq_ok "$TMP/a/suite.json" \
	'.complete == true and [.benches[] | {bench, exit, document}] == [{"bench": "cyclic", "exit": 0, "document": "cyclic.json"}]'
check "no temporary file" sh -c "! ls -a '$TMP/a' | grep -q tmp"

# Ctrl-C: SIGINT to the whole process group, as a terminal sends it (a
# background job starts with SIGINT ignored: perl puts the default back).
setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$RUN" --benches cyclic,irqlat --duration 30s --out "$TMP/b" >"$TMP/b.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! ls "$TMP/b" 2>/dev/null | grep -q 'cyclic.json.tmp'; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -INT -- -$pid
wait $pid
rc=$?
[ $rc -eq 130 ]; ok $? "Ctrl-C: exit $rc (want 130)"
check "Ctrl-C: cyclic.json complete, stopped by the signal" jq_ok "$TMP/b/cyclic.json" \
	'.verdict.status == "figures only" and .events.stopped_by == "signal"'
check "Ctrl-C: suite.json says incomplete, lists only cyclic" jq_ok "$TMP/b/suite.json" \
	'.complete == false and ([.benches[].bench] == ["cyclic"])'
check "Ctrl-C: irqlat never ran, no temporary file" sh -c "[ ! -e '$TMP/b/irqlat.json' ] && ! ls -a '$TMP/b' | grep -q tmp"

# A bench killed outright (SIGKILL): its half-written files removed, said so.
"$RUN" --benches cyclic --duration 30s --out "$TMP/c" >"$TMP/c.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! ls "$TMP/c" 2>/dev/null | grep -q 'cyclic.json.tmp'; do sleep 0.1; i=$((i + 1)); done
cpid=$(pgrep -P $pid -x rtproof-cyclic)
kill -KILL $cpid
wait $pid
rc=$?
[ $rc -ne 0 ]; ok $? "bench SIGKILLed: the suite fails (exit $rc)"
check "bench SIGKILLed: no temporary file, no document" sh -c "! ls -a '$TMP/c' | grep -q tmp && [ ! -e '$TMP/c/cyclic.json' ]"
check "bench SIGKILLed: the removal is reported" grep -q 'removed half-written .*cyclic.json.tmp' "$TMP/c.out"
check "bench SIGKILLed: suite.json lists exit 137, no document" jq_ok "$TMP/c/suite.json" \
	'.complete == true and [.benches[] | {bench, exit, document}] == [{"bench": "cyclic", "exit": 137, "document": ""}]'
done_testing
