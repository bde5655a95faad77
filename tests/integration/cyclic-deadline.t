#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# --policy deadline: SCHED_DEADLINE threads run unpinned (a deadline task's
# affinity must span its root domain), and the document says so.
. "$(dirname "$0")/tap.sh"

rtproof-cyclic --policy deadline -t 2 -i 1ms -D 1 -q --json "$TMP/d.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ]; then
	skip "--policy deadline" "$(head -1 "$TMP/err")"
	done_testing
	exit 0
fi
ok $rc "--policy deadline -t 2 runs (got $rc: $(head -1 "$TMP/err"))"
check "params say deadline, unpinned" jq_ok "$TMP/d.json" \
	'.params.policy == "deadline" and (.params.placement | startswith("unpinned"))'
check "both threads sampled every release; their CPU is 'any'" jq_ok "$TMP/d.json" \
	'[.metrics[] | select(.thread != "all")] | length == 2 and
	 all(.[]; .cpu == "any" and .count + .missed == 1001)'
check "the summary says the threads are unpinned" grep -q "SCHED_DEADLINE threads run unpinned" "$TMP/out"
done_testing
