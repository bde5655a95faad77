#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof check in the guest: on the RT kernel the preempt check passes, on
# the stock kernel booted preempt=voluntary it fails and names the mode;
# both name the hypervisor.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
vm_fetch stock
vm_fetch rt

st() { jq -r --arg id "$2" '.verdict.criteria[] | select(.name == $id) | .status' "$1/check.json" 2>/dev/null; }
sn() { jq -r --arg id "$2" '.verdict.criteria[] | select(.name == $id) | .seen' "$1/check.json" 2>/dev/null; }

"$VM" -q --kernel rt --clock tcg --timeout 240s --out "$TMP/rt" -- rtproof-check --json /res/check.json >"$TMP/rt.txt" 2>"$TMP/rt.err"
rc=$?
sed 's/^/# /' "$TMP/rt.txt" "$TMP/rt.err"
[ "$(st "$TMP/rt" preempt)" = pass ] && sn "$TMP/rt" preempt | grep -q "PREEMPT_RT kernel"
ok $? "RT guest: preempt passes: $(sn "$TMP/rt" preempt) (exit $rc)"
[ "$(st "$TMP/rt" threadirqs)" = pass ]; ok $? "RT guest: IRQs are threaded"
[ "$(st "$TMP/rt" virt)" = warn ] || [ "$(st "$TMP/rt" virt)" = fail ]
ok $? "RT guest: the hypervisor is named: $(sn "$TMP/rt" virt)"

"$VM" -q --kernel stock --preempt voluntary --clock tcg --timeout 240s --out "$TMP/stock" -- rtproof-check --json /res/check.json >"$TMP/stock.txt" 2>"$TMP/stock.err"
rc=$?
sed 's/^/# /' "$TMP/stock.txt" "$TMP/stock.err"
[ $rc -eq 2 ] && [ "$(st "$TMP/stock" preempt)" = fail ] && sn "$TMP/stock" preempt | grep -q "not PREEMPT_RT.*mode voluntary"
ok $? "stock guest preempt=voluntary: preempt fails and names the mode: $(sn "$TMP/stock" preempt) (exit $rc)"
done_testing
