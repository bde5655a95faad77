#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# Without RT privilege: a clear message and exit 4 (skip), a skip document; SCHED_OTHER scenarios still run.
. "$(dirname "$0")/tap.sh"

need_nobody "$RTPROOF_BIN/rtproof-lockstress"
drop sh -c 'ulimit -r 0 2>/dev/null; exec "$0" "$@"' "$RTPROOF_BIN/rtproof-lockstress" --scenario inversion -q \
	--json "$TMP/u.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 4 ]; ok $? "unprivileged inversion: exit 4 (got $rc)"
grep -q "cannot measure here: SCHED_FIFO 40 needs root, CAP_SYS_NICE or RLIMIT_RTPRIO" "$TMP/err"
ok $? "the message says what is missing: $(cat "$TMP/err")"
check "a skip document is written" jq_ok "$TMP/u.json" '.verdict.status == "skip" and .tool == "rtproof-lockstress"'
drop sh -c 'ulimit -r 0 2>/dev/null; exec "$0" "$@"' "$RTPROOF_BIN/rtproof-lockstress" --scenario contention,rwlock-recursion \
	--kind mutex --threads 2 -D 200ms --attempt-timeout 50ms --no-mlockall -q --json "$TMP/o.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ]; ok $? "SCHED_OTHER scenarios run unprivileged (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err" "$TMP/out" | head -n 20
check "with results" jq_ok "$TMP/o.json" '.scenarios.contention.cases[0].acquisitions > 0 and (.scenarios["rwlock-recursion"].facts | length) > 0'
done_testing
