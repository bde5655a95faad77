#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# SIGINT and SIGTERM half-way through leave a complete, valid document.
. "$(dirname "$0")/tap.sh"

for sig in INT TERM; do
	rtproof-cyclic -D 30s -q --json "$TMP/$sig.json" -h 100 --histfile "$TMP/$sig.hist" >"$TMP/$sig.out" 2>&1 &
	pid=$!
	sleep 1.5
	kill -$sig $pid
	wait $pid
	rc=$?
	ok $rc "SIG$sig: exits 0 with its results (got $rc)"
	check "SIG$sig: the document parses and is complete" jq_ok "$TMP/$sig.json" \
		'.schema == "rtproof/1" and .verdict.status == "figures only" and .metrics[-1].count > 500 and
		 .events.stopped_by == "signal" and .duration_s > 1 and .duration_s < 10'
	check "SIG$sig: the histogram file is complete" grep -q '^# Max Latencies:' "$TMP/$sig.hist"
	check "SIG$sig: the summary was printed" grep -q "stopped by signal (SIG$sig)" "$TMP/$sig.out"
	ls "$TMP" | grep -q '\.tmp\.'; [ $? -ne 0 ]; ok $? "SIG$sig: no temporary file left"
done
done_testing
