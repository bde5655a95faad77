#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# RTPROOF_OUT, the step protocol of rtproof bisect (issue 30): with it set
# and no --json a bench writes RTPROOF_OUT/<bench>.json, refuses to replace
# one there, and writes nothing new when it is unset; rtproof run and
# rtproof vm take it as their default --out, and the guest's benches write
# into /res without --json.  Plumbing only: one plain-TCG boot, no figure.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"

mkdir "$TMP/o1" "$TMP/cwd"
(cd "$TMP/cwd" && RTPROOF_OUT=$TMP/o1 rtproof-cyclic -q -D 200ms -i 1000 >/dev/null 2>&1)
rc=$?
[ $rc -eq 0 ] && jq_ok "$TMP/o1/cyclic.json" '.schema == "rtproof/1" and .tool == "rtproof-cyclic"' &&
	[ -z "$(ls "$TMP/cwd")" ]
ok $? "a bench without --json: RTPROOF_OUT/cyclic.json (exit $rc)"
cp "$TMP/o1/cyclic.json" "$TMP/before.json"
RTPROOF_OUT=$TMP/o1 rtproof-cyclic -q -D 200ms >"$TMP/e1.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/e1.txt")" -eq 1 ] && grep -q "error: RTPROOF_OUT $TMP/o1: $TMP/o1/cyclic.json exists" "$TMP/e1.txt" &&
	cmp -s "$TMP/before.json" "$TMP/o1/cyclic.json"
ok $? "a second document of the same bench: refused in one line, exit 1, the first kept ($(cat "$TMP/e1.txt"))"
RTPROOF_OUT=$TMP/nosuch rtproof-lockstress -q >"$TMP/e2.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "error: RTPROOF_OUT $TMP/nosuch: not a directory" "$TMP/e2.txt" && [ ! -e "$TMP/nosuch" ]
ok $? "RTPROOF_OUT not a directory: one line, exit 1 ($(cat "$TMP/e2.txt"))"
RTPROOF_OUT=$TMP/o1 rtproof-cyclic -q -D 200ms --json "$TMP/o1/given.json" >/dev/null 2>&1 &&
	(cd "$TMP/cwd" && env -u RTPROOF_OUT rtproof-cyclic -q -D 200ms >/dev/null 2>&1) &&
	[ -s "$TMP/o1/given.json" ] && [ -z "$(ls "$TMP/cwd")" ]
ok $? "--json wins over RTPROOF_OUT; unset, no document as before"

mkdir "$TMP/o2"
(cd "$TMP/cwd" && RTPROOF_OUT=$TMP/o2 "$RTPROOF_ROOT/scripts/rtproof-run" --benches cyclic --duration 300ms >"$TMP/run.txt" 2>&1)
rc=$?
[ $rc -eq 0 ] && jq_ok "$TMP/o2/cyclic.json" '.tool == "rtproof-cyclic"' && [ -s "$TMP/o2/suite.json" ] &&
	[ ! -e "$TMP/cwd/results" ]
ok $? "rtproof run: RTPROOF_OUT is its default --out (exit $rc)"

vm_need_qemu
vm_fetch stock
mkdir "$TMP/o3"
RTPROOF_OUT=$TMP/o3 "$VM" -q --kernel stock --clock tcg --timeout 120s -- rtproof-cyclic -q -l 200 -i 1000 >"$TMP/vm.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/vm.txt" | tail -n 5
[ $rc -eq 0 ] && jq_ok "$TMP/o3/cyclic.json" '.tool == "rtproof-cyclic" and .metrics[-1].count == 200' &&
	[ -s "$TMP/o3/vm.json" ]
ok $? "rtproof vm: RTPROOF_OUT is its --out, the guest's bench writes there without --json (exit $rc)"
done_testing
