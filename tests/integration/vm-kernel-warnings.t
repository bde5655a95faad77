#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof vm reads the guest's whole kernel log (issue 13 item 7): a real
# kernel warning planted in the guest (rtproof_irqlat.ko's plant_warning
# parameter raises WARN(): a KERN_WARNING "WARNING:" line and a call trace,
# below the console's loglevel, so serial.log never shows it) is listed in
# kernel-warnings.txt and vm.json and fails the run (exit 2);
# --ignore-kernel-warnings reports it and keeps the command's status.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
k=${RTPROOF_VM_KERNEL:-stock-6.1}
command -v make >/dev/null || skip_all "make not installed"
vm_fetch "$k"
[ -d "$("$KERNEL" path "$k")/headers/" ] || skip_all "no kernel headers for $k in the cache (rtproof kernel fetch $k)"
mk=(vm_kmake "$k")
"${mk[@]}" >"$TMP/build.log" 2>&1 || { sed 's/^/# /' "$TMP/build.log" | tail -n 15; ok 1 "rtproof_irqlat.ko builds for $k"; done_testing; exit; }
mkdir -p "$TMP/add" && cp "$("${mk[@]}" -s print-ko)" "$TMP/add/rtproof_irqlat.ko" && chmod +x "$TMP/add/rtproof_irqlat.ko"
cat >"$TMP/plant.sh" <<'EOF2'
#!/bin/sh
insmod /usr/bin/rtproof_irqlat.ko || exit 9
echo 1 >/sys/module/rtproof_irqlat/parameters/plant_warning
rmmod rtproof_irqlat
exit 0
EOF2
chmod +x "$TMP/plant.sh"
"$VM" -q --kernel "$k" --clock tcg --timeout 120s --add "$TMP/add/rtproof_irqlat.ko" --out "$TMP/w" -- "$TMP/plant.sh" >"$TMP/w.out" 2>"$TMP/w.err"
rc=$?
[ $rc = 2 ]
ok $? "a planted kernel warning fails the run: exit $rc (want 2)"
! grep -q "WARNING:.*set_plant_warning" "$TMP/w/serial.log" 2>/dev/null && grep -q "WARNING:.*set_plant_warning" "$TMP/w/dmesg.txt" 2>/dev/null
ok $? "the warning is in the saved dmesg.txt, not on the console"
grep -q "WARNING:.*set_plant_warning" "$TMP/w/kernel-warnings.txt" 2>/dev/null && grep -q "Call Trace" "$TMP/w/kernel-warnings.txt" &&
	jq_ok "$TMP/w/vm.json" '.kernel_warnings >= 2 and .kernel_log == "dmesg.txt" and .exit_status == 0' &&
	grep -q "kernel warnings: [0-9]* line" "$TMP/w.err"
ok $? "listed in kernel-warnings.txt, vm.json (kernel_warnings $(jq .kernel_warnings "$TMP/w/vm.json" 2>/dev/null)) and on stderr"
[ $rc = 2 ] || sed 's/^/# /' "$TMP/w.err" | tail -n 8
"$VM" -q --kernel "$k" --clock tcg --timeout 120s --ignore-kernel-warnings --add "$TMP/add/rtproof_irqlat.ko" --out "$TMP/i" -- "$TMP/plant.sh" >/dev/null 2>"$TMP/i.err"
rc=$?
[ $rc = 0 ] && grep -q "kernel warnings: [0-9]* line" "$TMP/i.err" && jq_ok "$TMP/i/vm.json" '.kernel_warnings_ignored == true'
ok $? "--ignore-kernel-warnings: reported, exit $rc (want 0)"
done_testing
