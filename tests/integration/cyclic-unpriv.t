#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# Without RT privilege: a clear message and exit 4 (skip); --policy other still runs.
. "$(dirname "$0")/tap.sh"

need_nobody "$RTPROOF_BIN/rtproof-cyclic"
drop sh -c 'ulimit -r 0 2>/dev/null; exec "$0" "$@"' "$RTPROOF_BIN/rtproof-cyclic" -D 1s -q --json "$TMP/u.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 4 ]; ok $? "unprivileged: exit 4 (got $rc)"
grep -q "cannot measure here: SCHED_FIFO 95 needs root, CAP_SYS_NICE or RLIMIT_RTPRIO" "$TMP/err"
ok $? "the message says what is missing: $(cat "$TMP/err")"
check "a skip document is written" jq_ok "$TMP/u.json" '.verdict.status == "skip" and (.verdict.reason|test("CAP_SYS_NICE"))'
drop "$RTPROOF_BIN/rtproof-cyclic" --policy other -D 1s -q --json "$TMP/o.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ]; ok $? "--policy other runs unprivileged (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err" "$TMP/out" | head -n 20
check "with samples and warnings about mlock/dma latency" jq_ok "$TMP/o.json" '.metrics[-1].count > 500 and .params.policy == "other"'
done_testing
