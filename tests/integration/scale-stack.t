#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# Each bench's measuring threads run on small stacks of their own (lib/stack.h):
# painted when mapped, the deepest byte written is in every document
# (resources.stack_peak_bytes).  Run each bench briefly, the real loop on
# the real stack, and check that at least half of the stack was never
# touched; the margin is printed.  A bench that grows its stack use past
# that fails here before it overflows in the field.
. "$(dirname "$0")/tap.sh"

# margin NAME DOC: stack_peak_bytes <= stack_bytes_per_thread / 2
margin() {
	size=$(jq -r '.resources.stack_bytes_per_thread // 0' "$2" 2>/dev/null)
	peak=$(jq -r '.resources.stack_peak_bytes // 0' "$2" 2>/dev/null)
	diag "$1: stack $size bytes, deepest use $peak bytes, margin $((size - peak)) bytes"
	[ "${peak:-0}" -gt 0 ] && [ "$((2 * peak))" -le "${size:-0}" ]
	ok $? "$1: at most half of the stack used ($peak of $size bytes)"
}

# cyclic: a run stopped by a signal (the stop's SIGUSR1 lands on the threads' stacks)
rtproof-cyclic -q -t 4 -i 200 -D 5s --json "$TMP/c.json" >"$TMP/c.out" 2>&1 &
pid=$!
stop_measuring INT $pid
ok $rc "rtproof-cyclic -t 4, stopped by SIGINT, exits 0 (exit $rc)"
margin "rtproof-cyclic" "$TMP/c.json"
rtproof-cyclic -q -t 2 -i 500 -l 200 --timer timerfd --spike 1 -h 100 --json "$TMP/c2.json" >"$TMP/c2.out" 2>&1
ok $? "rtproof-cyclic --timer timerfd --spike -h exits 0"
margin "rtproof-cyclic --timer timerfd --spike -h" "$TMP/c2.json"

rtproof-irqlat -q --source user -D 1s --json "$TMP/i.json" >"$TMP/i.out" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	ok 0 "rtproof-irqlat --source user exits 0"
	margin "rtproof-irqlat --source user" "$TMP/i.json"
else
	skip "rtproof-irqlat --source user" "exit $rc: $(tail -n 1 "$TMP/i.out")"
fi
diag "rtproof-irqlat's module, timerlat and rtc readers cannot run here; its stack has room for timerlat's 8 KiB line buffer"

rtproof-audio -q --backend timer --period 256 -n 2 -D 2 --plant-stall 5ms --json "$TMP/a.json" >"$TMP/a.out" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 2 ]
ok $? "rtproof-audio --backend timer --plant-stall runs (exit $rc)"
margin "rtproof-audio --backend timer" "$TMP/a.json"

rtproof-lockstress -q -D 300ms --scenario inversion,pi-chain,contention,spin-preempt,percpu \
	--json "$TMP/l.json" >"$TMP/l.out" 2>&1
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 2 ]
ok $? "rtproof-lockstress, five scenarios, runs (exit $rc)"
margin "rtproof-lockstress" "$TMP/l.json"
done_testing
