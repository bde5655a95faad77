#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# Boot each kernel under QEMU (icount), run a short rtproof-cyclic inside and
# get a valid result document back: system.preempt reads rt on the RT kernel
# and full on stock booted with preempt=full.  The stock boot runs on plain
# TCG (half icount's boot time): no figure is asserted.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
[ -x "$RTPROOF_BIN/rtproof-cyclic" ] || skip_all "rtproof-cyclic not built"
vm_fetch stock rt

boot() { # boot NAME VM-ARGS... : runs rtproof-cyclic -l 300 in $TMP/NAME
	name=$1; shift
	start=$(date +%s)
	"$VM" -q "$@" --timeout 120s --out "$TMP/$name" -- \
		rtproof-cyclic -q -p 90 -l 300 --json /res/cyclic.json >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	took=$(( $(date +%s) - start ))
	[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/$name.err" "$TMP/$name/serial.log" 2>/dev/null | tail -n 20
	return $rc
}
doc_ok() { # doc_ok FILE: a complete rtproof/1 document with 300 merged samples
	jq_ok "$1" '.schema == "rtproof/1" and .tool == "rtproof-cyclic"
		and (.metrics[] | select(.name == "wakeup_latency" and .thread == "all")
		     | .count == 300 and .unit == "ns" and .min > 0 and .max >= .min)'
}

boot rt --kernel rt
ok $? "rt: boots and the command exits 0 (${took}s)"
doc_ok "$TMP/rt/cyclic.json"
ok $? "rt: result document is valid, 300 samples"
p=$(jq -r .system.preempt "$TMP/rt/cyclic.json" 2>/dev/null)
[ "$p" = rt ]
ok $? "rt: system.preempt is '$p' (want rt)"
r=$(jq -r .system.kernel_release "$TMP/rt/cyclic.json" 2>/dev/null)
case $r in *-rt-*) true ;; *) false ;; esac
ok $? "rt: kernel_release $r"
grep -q 'RTPROOF-VM-EXIT 0' "$TMP/rt/serial.log" && jq_ok "$TMP/rt/vm.json" '.outcome == "exited" and .exit_status == 0 and .clock == "icount"'
ok $? "rt: serial log and vm.json brought back"
grep -q timerlat "$TMP/rt/guest-info.txt"
ok $? "rt: the timerlat tracer is available in the guest"

grep -q 'RTPROOF-VM-EXIT 0' "$TMP/rt/serial.log" && jq_ok "$TMP/rt/vm.json" '.outcome == "exited" and .removed_partial == []'
ok $? "rt: a guest that finishes: outcome exited, nothing removed as half-written"
# stock, with preempt=full: not rt, and the preemption model asked for takes
boot full --kernel stock --preempt full --clock tcg
ok $? "stock preempt=full: boots and the command exits 0 (${took}s)"
doc_ok "$TMP/full/cyclic.json"
ok $? "stock preempt=full: result document is valid, 300 samples"
p=$(jq -r .system.preempt "$TMP/full/cyclic.json" 2>/dev/null)
[ "$p" = full ]
ok $? "stock preempt=full: system.preempt is '$p' (not rt)"
done_testing
