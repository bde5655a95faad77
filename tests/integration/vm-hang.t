#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# The VM runner's failure paths: the guest's exit status comes back, bad
# options are refused before anything is written.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
vm_fetch stock rt-6.1 rt-6.12

# No figure is asserted here: the guests run on plain TCG (half the boot
# time of icount).  (A hung guest killed at its timeout: vm-faults.t.)
"$VM" -q --kernel stock --clock tcg --timeout 60s --out "$TMP/exit3" -- sh -c 'echo from-guest >/res/note.txt; exit 3' >/dev/null 2>&1
rc=$?
[ $rc -eq 3 ]
ok $? "guest exit status 3 propagates (got $rc)"
grep -qx from-guest "$TMP/exit3/note.txt" 2>/dev/null
ok $? "files the guest writes to /res come back"

bad() { # bad DESCRIPTION EXPECTED ARGS...
	d=$1 want=$2; shift 2
	"$VM" --out "$TMP/bad" "$@" -- true >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$want" "$TMP/err" && [ ! -e "$TMP/bad" ]
	ok $? "$d: exit $rc, $(cat "$TMP/err")"
}
bad "--kernel foo" "rtproof-vm: error: --kernel foo: no such kernel (stock, rt, stock-6.1, rt-6.1, stock-6.12, rt-6.12 or a path)" --kernel foo
bad "--preempt lazy" "error: --preempt lazy: kernel stock has no PREEMPT_LAZY" --preempt lazy
bad "--clock fast" "error: --clock fast: must be icount, tcg or kvm" --clock fast
bad "--timeout soon" "error: --timeout soon" --timeout soon
bad "--load disk" "error: --load disk" --load disk
# The RT kernels' preemption models, by generation: 6.1's is not
# PREEMPT_DYNAMIC (preempt= would be ignored); 6.12's is, and takes full or
# lazy (its default) but refuses none and voluntary ("Dynamic Preempt:
# unsupported mode" in its log, then boots lazy).
bad "--preempt on 6.1's RT kernel" "error: --preempt full: kernel rt-6.1 is PREEMPT_RT; preempt= only switches PREEMPT_DYNAMIC kernels" --kernel rt-6.1 --preempt full
bad "--preempt none on 6.12's RT kernel" "error: --preempt none: kernel rt-6.12 is PREEMPT_RT; its preempt= takes full or lazy only" --kernel rt-6.12 --preempt none
bad "--preempt voluntary on 6.12's RT kernel" "error: --preempt voluntary: kernel rt-6.12 is PREEMPT_RT; its preempt= takes full or lazy only" --kernel rt-6.12 --preempt voluntary
"$VM" -q --kernel rt-6.12 --clock tcg --preempt full --timeout 200s --out "$TMP/rtfull" -- true >/dev/null 2>"$TMP/err"
rc=$?
sp=$(sed -n 's/^sched\/preempt: //p' "$TMP/rtfull/guest-info.txt" 2>/dev/null)
[ $rc -eq 0 ] && case " $sp " in *" (full) "*) true ;; *) false ;; esac &&
	grep -q 'PREEMPT_RT' "$TMP/rtfull/guest-info.txt" && jq_ok "$TMP/rtfull/vm.json" '.preempt == "full"'
ok $? "--preempt full on 6.12's RT kernel: exit $rc, the guest runs PREEMPT_RT with sched/preempt '$sp'"
"$VM" --out "$TMP/bad" -- no-such-program >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "error: no-such-program: not found" "$TMP/err" && [ ! -e "$TMP/bad" ]
ok $? "unknown command: $(cat "$TMP/err")"
done_testing
