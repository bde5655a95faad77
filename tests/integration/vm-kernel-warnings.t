#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof vm reads the guest's whole kernel log (issue 13 item 7): a warning
# planted in it (a KERN_WARNING "WARNING:" line with a call trace, written
# to /dev/kmsg: below the console's loglevel, so serial.log never shows it)
# is listed in kernel-warnings.txt and vm.json and fails the run (exit 2);
# --ignore-kernel-warnings reports it and keeps the command's status.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/kernel/vm/test-lib.sh"
vm_need_qemu
k=${RTPROOF_VM_KERNEL:-stock-6.1}
vm_fetch "$k"
cat >"$TMP/plant.sh" <<'EOF2'
#!/bin/sh
echo "<4>WARNING: CPU: 0 PID: 1 at planted/by/the/test.c:1 rtproof_planted+0x0/0x10" >/dev/kmsg
echo "<4>Call Trace:" >/dev/kmsg
exit 0
EOF2
chmod +x "$TMP/plant.sh"
"$VM" -q --kernel "$k" --timeout 120s --out "$TMP/w" -- "$TMP/plant.sh" >"$TMP/w.out" 2>"$TMP/w.err"
rc=$?
[ $rc = 2 ]
ok $? "a planted kernel warning fails the run: exit $rc (want 2)"
! grep -q "planted/by/the/test" "$TMP/w/serial.log" 2>/dev/null && grep -q "planted/by/the/test" "$TMP/w/dmesg.txt" 2>/dev/null
ok $? "the warning is in the saved dmesg.txt, not on the console"
grep -q "planted/by/the/test" "$TMP/w/kernel-warnings.txt" 2>/dev/null && grep -q "Call Trace" "$TMP/w/kernel-warnings.txt" &&
	jq_ok "$TMP/w/vm.json" '.kernel_warnings == 2 and .kernel_log == "dmesg.txt" and .exit_status == 0' &&
	grep -q "kernel warnings: 2 line" "$TMP/w.err"
ok $? "listed in kernel-warnings.txt, vm.json (kernel_warnings $(jq .kernel_warnings "$TMP/w/vm.json" 2>/dev/null)) and on stderr"
[ $rc = 2 ] || sed 's/^/# /' "$TMP/w.err" | tail -n 8
"$VM" -q --kernel "$k" --timeout 120s --ignore-kernel-warnings --out "$TMP/i" -- "$TMP/plant.sh" >/dev/null 2>"$TMP/i.err"
rc=$?
[ $rc = 0 ] && grep -q "kernel warnings: 2 line" "$TMP/i.err" && jq_ok "$TMP/i/vm.json" '.kernel_warnings_ignored == true'
ok $? "--ignore-kernel-warnings: reported, exit $rc (want 0)"
done_testing
