#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof vm modes: the background load really runs beside the command, and
# --clock kvm either runs under KVM or says it fell back to tcg.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
vm_fetch stock

# Half a second of guest time under the mixed load; the command first
# lists the boot's crypto self-test threads still alive (none: the boot
# settled before it).
"$VM" -q --kernel stock --load mixed --timeout 120s --out "$TMP/load" -- \
	sh -c 'grep -sx -e cryptomgr_test -e cryptomgr_probe /proc/[0-9]*/comm >/res/crypto.txt; usleep 500000' \
	>/dev/null 2>"$TMP/err"
rc=$?
[ $rc -ne 0 ] && sed 's/^/# /' "$TMP/err"
ok $rc "--load mixed: the guest runs and exits 0"
r() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/load/load-rounds.txt" 2>/dev/null; }
diag "load rounds: $(tr '\n' ' ' <"$TMP/load/load-rounds.txt" 2>/dev/null)"
if command -v hackbench >/dev/null; then
	[ "$(r hackbench)" -gt 0 ] 2>/dev/null
	ok $? "hackbench rounds completed beside the command: $(r hackbench)"
else
	skip "hackbench rounds" "hackbench (rt-tests) not installed on the host"
fi
[ "$(r dd)" -gt 0 ] 2>/dev/null && [ "$(r drop_caches)" -gt 0 ] 2>/dev/null
ok $? "dd and drop_caches rounds completed: $(r dd), $(r drop_caches)"
jq_ok "$TMP/load/vm.json" '.load_work | .where == "guest" and .load == "mixed" and .interval_s > 0.4
	and ([.parts[] | select(.kind == "dd" or .kind == "drop_caches") | .rounds > 0 and .per_s > 0] | length == 2)
	and all(.parts[]; .per_s != null or (.why | length) > 0)'
ok $? "vm.json: what the guest's load did, per guest second ($(jq -c '.load_work | {interval_s, parts: [.parts[] | [.kind, .rounds, .per_s]]}' "$TMP/load/vm.json" 2>/dev/null))"
[ -f "$TMP/load/crypto.txt" ] && [ ! -s "$TMP/load/crypto.txt" ] &&
	jq_ok "$TMP/load/vm.json" '.settle.state == "settled" and .settle.waited_s >= 0 and .settle.at_uptime_s > 0'
ok $? "the boot settled before the command: no crypto self-test thread left ($(tr '\n' ' ' <"$TMP/load/crypto.txt" 2>/dev/null); vm.json settle $(jq -c .settle "$TMP/load/vm.json" 2>/dev/null))"
grep -q '^load: mixed' "$TMP/load/guest-info.txt" && grep -q '^LOAD=mixed' "$TMP/load/guest-job.sh"
ok $? "the load is recorded in guest-job.sh and guest-info.txt"

"$VM" -q --kernel stock --clock kvm --timeout 60s --out "$TMP/kvm" -- true >/dev/null 2>"$TMP/err"
rc=$?
ok $rc "--clock kvm: the guest runs (exit $rc)"
c=$(jq -r .clock "$TMP/kvm/vm.json" 2>/dev/null)
case $c in
kvm) ok 0 "KVM works here: the run used kvm" ;;
tcg) grep -q 'falling back to tcg' "$TMP/err"; ok $? "KVM unusable here: fell back to tcg and said so" ;;
*) ok 1 "--clock kvm: vm.json clock is '$c'" ;;
esac
done_testing
