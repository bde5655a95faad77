#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# The guest dies (docs/reliability.md): a kernel panic (sysrq c), a hang (a
# FIFO 99 spinner on the only vCPU, RT throttling off), QEMU killed from
# outside, the timeout.  Each time rtproof vm exits 1 naming what happened,
# shows the serial log's last lines, and leaves no half-written result: the
# guest is in the middle of writing a document (rtproof-cyclic --json with a
# long duration, its temporary file open) when it dies.  (A guest that
# finishes, its document complete and nothing removed: vm-boot.t.)
# No figure is asserted: the guests run on plain TCG (--clock tcg boots in
# half the time of icount), and the timeout's path is the hang's.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
vm_fetch stock

# The guest starts a long measurement writing /res/c.json, then the fault.
# (The job's output goes to /res/output.txt, not the console: the host waits
# for the temporary file itself.  A day of guest time: longer than any case.)
measuring='rtproof-cyclic -D 1d -i 1000 -q --json /res/c.json & sleep 2'

clean() {	# clean NAME DIR: no document, no temporary file, vm.json says incomplete
	check "$1: no c.json presented" test ! -e "$2/c.json"
	check "$1: no temporary file left" sh -c "! ls -a '$2' | grep -q '\\.tmp'"
	check "$1: vm.json lists the half-written file it removed" jq_ok "$2/vm.json" \
		'.exit_status == null and (.removed_partial | any(test("^c\\.json\\.tmp\\.")))'
}

# died NAME DIR RC OUTCOME ERROR SERIAL: rtproof vm exited 1 (RC), its stderr
# ($TMP/err) has ERROR and, among the serial log's last lines, SERIAL (grep
# patterns); vm.json's outcome is OUTCOME, and nothing is left half-written.
died() {
	[ "$3" -eq 1 ]; ok $? "$1: exit $3 (want 1)"
	check "$1: the error says so" grep -q "$5" "$TMP/err"
	check "$1: the serial log's last lines shown" grep -q "$6" "$TMP/err"
	check "$1: vm.json outcome $4" jq_ok "$2/vm.json" ".outcome == \"$4\""
	clean "$1" "$2"
}

# 1. Kernel panic.
"$VM" -q --kernel stock --clock tcg --timeout 120s --out "$TMP/panic" -- \
	sh -c "$measuring; echo c >/proc/sysrq-trigger; sleep 60" >/dev/null 2>"$TMP/err"
died panic "$TMP/panic" $? panic 'error: guest kernel panicked' '^    | .*Kernel panic'

# 2. Hang: a FIFO 99 spinner on the only vCPU, RT throttling off; the
# timeout (25 s: a TCG boot takes 5-15 s here) kills it while it measures.
start=$(date +%s)
"$VM" -q --kernel stock --clock tcg --timeout 25s --out "$TMP/hang" -- \
	sh -c "$measuring; echo -1 >/proc/sys/kernel/sched_rt_runtime_us; echo spinning; rtp-spin --cpu 0 --prio 99 --spin 500s --every 600s --duration 600s" \
	>/dev/null 2>"$TMP/err"
rc=$?
took=$(( $(date +%s) - start ))
died "FIFO 99 hang" "$TMP/hang" $rc timeout 'error: guest did not finish within 25s and was killed' '^    | '
wall=$(jq -r .wall_s "$TMP/hang/vm.json" 2>/dev/null)
awk -v w="$wall" 'BEGIN { exit !(w + 0 >= 25 && w + 0 <= 28) }'
ok $? "FIFO 99 hang: QEMU killed ${wall}s after its start (timeout 25s; ${took}s with the set-up)"
! ps -eo args | grep -v grep | grep -q "path=$TMP/hang,mount_tag=res"
ok $? "FIFO 99 hang: no QEMU left running"

# 3. QEMU killed from outside, once the guest is measuring.
"$VM" -q --kernel stock --clock tcg --timeout 300s --out "$TMP/kill" -- sh -c "$measuring; sleep 600" >/dev/null 2>"$TMP/err" &
vpid=$!
i=0
while [ $i -lt 600 ] && ! ls "$TMP/kill" 2>/dev/null | grep -q '^c\.json\.tmp\.'; do sleep 0.5; i=$((i + 1)); done
qpid=$(ps -eo pid,args | grep -v grep | grep "path=$TMP/kill,mount_tag=res" | awk '{ print $1 }')
if [ -n "$qpid" ]; then
	kill -9 "$qpid"
	t0=$(date +%s)
	wait $vpid
	rc=$?
	took=$(( $(date +%s) - t0 ))
	died "QEMU killed" "$TMP/kill" $rc killed 'error: QEMU ended from outside (killed by SIGKILL)' '^    | '
	[ $took -le 5 ]; ok $? "QEMU killed: rtproof vm noticed within ${took}s"
else
	wait $vpid
	ok 1 "QEMU killed: no QEMU process found for $TMP/kill (guest never got ready: $(tail -n 3 "$TMP/kill/serial.log" 2>/dev/null))"
fi

# 4. Ctrl-C to rtproof vm (SIGINT to its process group) while the guest measures.
setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$VM" -q --kernel stock --clock tcg --timeout 300s --out "$TMP/int" -- \
	sh -c "$measuring; wait" >/dev/null 2>"$TMP/err" &
vpid=$!
i=0
while [ $i -lt 600 ] && ! ls "$TMP/int" 2>/dev/null | grep -q '^c\.json\.tmp\.'; do sleep 0.5; i=$((i + 1)); done
[ $i -lt 600 ] || diag "Ctrl-C: the guest was not measuring after 300 s; interrupting anyway"
kill -INT -$vpid
wait $vpid
rc=$?
[ $rc -eq 130 ]; ok $? "Ctrl-C: exit $rc (want 130)"
check "Ctrl-C: says so, lists the half-written file removed" grep -q 'interrupted; removed what the guest left half-written: c.json.tmp.' "$TMP/err"
check "Ctrl-C: no c.json, no temporary file" sh -c "[ ! -e '$TMP/int/c.json' ] && ! ls -a '$TMP/int' | grep -q '\.tmp'"
! ps -eo args | grep -v grep | grep -q "path=$TMP/int,mount_tag=res"
ok $? "Ctrl-C: no QEMU left running"

# 5. The runner that started rtproof vm is killed outright (compare-kernels
# sets RTPROOF_VM_OWNER; SIGKILL runs no trap there): the guest stops.
sleep 600 &
owner=$!
RTPROOF_VM_OWNER=$owner "$VM" -q --kernel stock --clock tcg --timeout 300s --out "$TMP/orph" -- \
	sh -c "$measuring; wait" >/dev/null 2>"$TMP/err" &
vpid=$!
i=0
while [ $i -lt 600 ] && ! ls "$TMP/orph" 2>/dev/null | grep -q '^c\.json\.tmp\.'; do sleep 0.5; i=$((i + 1)); done
kill -9 $owner
t0=$(date +%s)
wait $vpid
rc=$?
took=$(( $(date +%s) - t0 ))
[ $rc -eq 1 ] && [ $took -le 10 ] && grep -q "the runner that started this guest (pid $owner) is gone" "$TMP/err" &&
	jq_ok "$TMP/orph/vm.json" '.outcome == "orphaned"'
ok $? "owner killed: rtproof vm stops the guest within ${took}s, exit $rc, says why ($(head -n 1 "$TMP/err"))"
! ps -eo args | grep -v grep | grep -q "path=$TMP/orph,mount_tag=res"
ok $? "owner killed: no QEMU left running"

# 6. A second rtproof vm into a result directory in use: refused at once.
mkdir -p "$TMP/busy"
flock "$TMP/busy" sleep 30 &
hold=$!
sleep 0.3
"$VM" -q --kernel stock --clock tcg --timeout 60s --out "$TMP/busy" -- true >/dev/null 2>"$TMP/err"
rc=$?
kill $hold 2>/dev/null
[ $rc -eq 1 ] && grep -q "is in use by another rtproof vm" "$TMP/err" && [ ! -e "$TMP/busy/vm.json" ]
ok $? "--out in use: refused before booting, exit $rc ($(head -n 1 "$TMP/err"))"

done_testing
