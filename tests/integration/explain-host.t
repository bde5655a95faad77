#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel uses=tracefs quick
# --explain where the kernel cannot be traced (this host has no tracefs):
# each bench says why on stderr, the run goes on with the exit status it
# has without --explain, and the document says why with no explained[].
# Bad thresholds: one line naming the option, exit 1.  With tracefs
# (a guest), vm-explain.t tests the explanations.
. "$(dirname "$0")/tap.sh"

if [ -d /sys/kernel/tracing/instances ] || [ -d /sys/kernel/debug/tracing/instances ]; then
	skip_all "this system has tracefs: vm-explain.t covers --explain there"
fi

run_pair() { # run_pair NAME CMD...: the same run without and with --explain
	n=$1; shift
	"$@" --json "$TMP/$n-0.json" >"$TMP/$n-0.out" 2>"$TMP/$n-0.err"; rc0=$?
	"$@" --explain --json "$TMP/$n-1.json" >"$TMP/$n-1.out" 2>"$TMP/$n-1.err"; rc1=$?
	[ $rc0 -eq $rc1 ]
	ok $? "$n: exit status unchanged by --explain ($rc0, $rc1)"
	grep -q -- '--explain: cannot trace here: no tracefs' "$TMP/$n-1.err"
	ok $? "$n: says why it cannot explain: $(head -n 1 "$TMP/$n-1.err")"
	jq_ok "$TMP/$n-1.json" '.events.explain.status == "unavailable"
		and (.events.explain.reason | test("tracefs")) and (.events | has("explained") | not)
		and .events.explain.threshold_ns == 100000'
	ok $? "$n: the document says why, explained[] absent"
	jq_ok "$TMP/$n-0.json" '.events | has("explain") | not'
	ok $? "$n: without --explain, nothing about it in the document"
}

run_pair cyclic rtproof-cyclic -q -l 200 -i 1000 -a 0
run_pair irqlat rtproof-irqlat -q --source user -l 200
run_pair audio rtproof-audio -q --backend timer --period 256 -n 2 -D 0.3

rtproof-lockstress -q --scenario contention -D 0.2 --explain >"$TMP/ls.out" 2>"$TMP/ls.err"
grep -q 'has no outliers to explain' "$TMP/ls.err"
ok $? "lockstress: says it has nothing to explain: $(head -n 1 "$TMP/ls.err")"

for bad in 0 abc 1.5 -3us; do
	rtproof-cyclic -l 10 --explain=$bad >"$TMP/bad.out" 2>"$TMP/bad.err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/bad.err")" -eq 1 ] &&
		grep -q "^rtproof-cyclic: error: --explain $bad: " "$TMP/bad.err" && [ ! -s "$TMP/bad.out" ]
	ok $? "--explain=$bad: one error line naming it, exit 1 (got $rc: $(cat "$TMP/bad.err"))"
done
done_testing
