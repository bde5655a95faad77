#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# A measuring thread that cannot be started, for real: a user of its own
# (no other process counts against its limit) keeps CAP_SYS_NICE, so the
# privilege check passes, and RLIMIT_NPROC (prlimit --nproc 2) lets the main
# thread start one thread more.  Every handshake (cyclic, audio, and the
# five lockstress scenarios that start threads together) must end with
# exit 1, one error line naming the thread, the started threads released
# (no hang) and no document left behind.
. "$(dirname "$0")/tap.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || ! command -v prlimit >/dev/null; then
	skip "thread start failures" "needs root, setpriv and prlimit to run as another user"
	done_testing
	exit 0
fi
UID_T=64999
chmod 777 "$TMP"

# fail NAME PROGRAM ARGS...: runs it as UID_T with RLIMIT_NPROC 2 (ulimit -u 2).
fail() {
	_name=$1; shift
	t0=$(date +%s)
	timeout 30 prlimit --nproc=2:2 setpriv --reuid=$UID_T --regid=$UID_T --clear-groups \
		--inh-caps=+sys_nice --ambient-caps=+sys_nice "$@" --no-mlockall -q \
		--json "$TMP/$_name.json" >"$TMP/$_name.out" 2>"$TMP/$_name.err"
	rc=$?
	t1=$(date +%s)
	sed 's/^/# /' "$TMP/$_name.err"
	ok $([ $rc -eq 1 ]; echo $?) "$_name: exit 1 (got $rc) in $((t1 - t0)) s, no hang"
	n=$(grep -c 'error:' "$TMP/$_name.err")
	grep 'error:' "$TMP/$_name.err" | grep -q 'cannot start .*: Resource temporarily unavailable'
	ok $([ $? -eq 0 ] && [ "$n" -eq 1 ]; echo $?) "$_name: one error line naming the thread ($n)"
	[ ! -e "$TMP/$_name.json" ] && ! ls "$TMP" | grep -q "$_name.json.tmp"
	ok $? "$_name: no document, no temporary file"
}

fail cyclic rtproof-cyclic -t 4 -l 100
fail audio rtproof-audio --backend timer -D 1 --plant-stall 10ms,1s
for s in contention inversion pi-chain percpu spin-preempt; do
	fail "lockstress-$s" rtproof-lockstress --scenario "$s" -D 0.2 --iterations 2
done
done_testing
