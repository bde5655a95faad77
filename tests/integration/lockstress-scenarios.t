#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=serial
# spin-preempt, percpu and rwlock-recursion: figures, exact sums, recorded facts; several per run.
. "$(dirname "$0")/tap.sh"

J=$TMP/s.json
start=$(date +%s)
rtproof-lockstress --scenario spin-preempt --scenario percpu,rwlock-recursion -D 400ms \
	--attempt-timeout 100ms -q --json "$J" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 2 ]; ok $? "three scenarios in one run (exit $rc)"
sed 's/^/# /' "$TMP/out" | grep -vE '^# $'
check "the scenarios ran in the order given" jq_ok "$J" '.params.scenarios == ["spin-preempt", "percpu", "rwlock-recursion"] and (.scenarios | keys | length) == 3'
check "spin-preempt: both locks measured, per thread and merged" jq_ok "$J" '
	[.metrics[] | select(.name == "spin_preempt_wait")] | length == 8 and all(.count > 0)'
check "spin-preempt: the spinlock holder was preempted and spinners backed off at the timeout" jq_ok "$J" '
	.scenarios["spin-preempt"].locks[] | select(.lock == "spin")
	| .holder_preempted > 0 and .spin_backoffs > 0 and .longest_spin_ns >= 1000000'
check "spin-preempt: the spin is bounded by its timeout (a preempted spinner keeps its clock running)" jq_ok "$J" '
	.scenarios["spin-preempt"] as $s | $s.locks[] | select(.lock == "spin") | .longest_spin_ns < $s.spin_timeout_ns + 20000000'
# One of this shared machine's own ~10 ms stalls inside the PI mutex's 400 ms
# can lift its p99 to the spinlock's: then the scenario runs once more, alone,
# with the same figures asked of it, and both attempts are reported.
pi_below() { jq_ok "$1" '.scenarios["spin-preempt"].locks |
	(map(select(.lock == "pi-mutex"))[0].wait_p99_ns) < (map(select(.lock == "spin"))[0].wait_p99_ns)'; }
p99s() { jq -r '[.scenarios["spin-preempt"].locks[] | "\(.lock) \(.wait_p99_ns) ns"] | join(", ")' "$1" 2>/dev/null; }
if pi_below "$J"; then
	ok 0 "spin-preempt: the PI mutex p99 wait is below the spinlock's ($(p99s "$J"))"
else
	diag "attempt 1: p99 wait $(p99s "$J"); again"
	rtproof-lockstress --scenario spin-preempt -D 400ms --attempt-timeout 100ms -q \
		--json "$TMP/sp2.json" >/dev/null 2>&1
	pi_below "$TMP/sp2.json"
	ok $? "spin-preempt: the PI mutex p99 wait is below the spinlock's (attempt 2: $(p99s "$TMP/sp2.json"))"
fi
jq_ok "$J" '
	.scenarios.percpu.variants | length == 3 and all(.ran and .exact and .lost_updates == 0 and .updates > 1000)
	and (map(select(.variant == "percpu-lock"))[0].migrations > 0)'
ok $? "percpu: three variants, every sum exact, threads migrated ($(jq -c '[.scenarios.percpu.variants[]
	| [.variant, .ran, .exact, .lost_updates, .updates, .migrations, .moved_in_section]]' "$J" 2>/dev/null))"
check "percpu: wait metrics" jq_ok "$J" '[.metrics[] | select(.name == "percpu_wait")] | length == 3'
fact() { jq -r --arg t "$1" --arg l "$2" '.scenarios["rwlock-recursion"].facts[] | select(.test == $t and (.lock | startswith($l))) | .outcome' "$J"; }
o=$(fact read-recursion-writer-waiting "rwlock (prefer-reader")
[ "$o" = success ]; ok $? "glibc default rwlock is read-recursive with a writer waiting ($o)"
o=$(fact read-recursion-writer-waiting "rwlock (prefer-writer-nonrecursive")
[ "$o" = deadlock ]; ok $? "prefer-writer-nonrecursive: read recursion deadlocks, caught by the timeout ($o)"
o=$(fact read-after-write rwlock)
[ "$o" = EDEADLK ]; ok $? "read-after-write by the same thread: EDEADLK ($o)"
o=$(fact mutex-relock "mutex (errorcheck)")
[ "$o" = EDEADLK ]; ok $? "errorcheck mutex relock: EDEADLK ($o)"
check "every attempt returned within its bound" jq_ok "$J" '.scenarios["rwlock-recursion"].facts | length >= 9 and all(.bounded and .elapsed_ns < 1100000000)'

rtproof-lockstress --scenario percpu -D 200ms --cs 2us -q --test-break-lock --json "$TMP/b.json" >"$TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ]; ok $? "percpu with the lock dropped early: exit 2 (got $rc)"
check "the locked variants lose updates, atomics do not" jq_ok "$TMP/b.json" '
	.scenarios.percpu.variants | map({(.variant): .lost_updates}) | add | .["global-lock"] > 0 and .atomic == 0'
end=$(date +%s)
[ $((end - start)) -le 20 ]; ok $? "bounded in time: $((end - start)) s"
done_testing
