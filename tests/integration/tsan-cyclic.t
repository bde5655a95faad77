#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The threaded code under ThreadSanitizer (RTPROOF_BIN is the -fsanitize=thread build).
. "$(dirname "$0")/tap.sh"

TSAN_OPTIONS="halt_on_error=1 exitcode=66" rtproof-cyclic -D 1.5s -i 200 --no-mlockall --spike 100 -b 100000 --json "$TMP/t.json" -h 50 --histfile "$TMP/t.hist" >"$TMP/out" 2>"$TMP/err"
rc=$?
# exit 2 (the -b break or a failed verdict): host stalls beside the
# integration pool, not what this file checks; data races are
[ $rc -eq 0 ] || [ $rc -eq 2 ]; ok $? "runs to its end under TSan (exit $rc)"
grep -q "WARNING: ThreadSanitizer" "$TMP/err"; [ $? -ne 0 ]; ok $? "no data race reported"
[ -s "$TMP/err" ] && sed 's/^/# /' "$TMP/err" | head -40
rtproof-cyclic -D 5s -i 200 --no-mlockall -q --json "$TMP/s.json" >"$TMP/out" 2>"$TMP/err" &
pid=$!
stop_measuring INT $pid
[ $rc -eq 0 ]; ok $? "SIGINT under TSan: clean stop (exit $rc, $(jq -r '"\(.verdict.status): \(.verdict.reason)"' "$TMP/s.json" 2>/dev/null))"
[ $rc -ne 0 ] && sed 's/^/# /' "$TMP/err" | head -40
check "valid document" jq_ok "$TMP/s.json" '.events.stopped_by == "signal"'
done_testing
