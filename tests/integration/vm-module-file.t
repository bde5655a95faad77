#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof vm --module-file: an out-of-tree module goes into the initramfs
# (vermagic checked against the kernel) and is loaded in the guest.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
command -v make >/dev/null || skip_all "make not installed"
vm_fetch stock rt

# a clean make: nothing from an enclosing make reaches kbuild
kmake() { vm_kmake stock "$@"; }
kmake >"$TMP/build.log" 2>&1
rc=$?
ko=$(kmake -s print-ko 2>/dev/null)
ok $rc "rtproof_irqlat.ko builds for the stock kernel"
[ $rc -eq 0 ] && [ -f "$ko" ] || { sed 's/^/# /' "$TMP/build.log" | tail -n 15; done_testing; exit; }

"$VM" -q --kernel rt --module-file "$ko" --timeout 60s --out "$TMP/bad" -- true 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "rtproof-vm: error: --module-file .*: built for .*-amd64, not .*-rt-amd64" "$TMP/err"
ok $? "a module built for stock is refused for the RT kernel (exit $rc: $(head -n 1 "$TMP/err"))"
"$VM" -q --kernel stock --module-file /nonexistent.ko -- true 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "error: --module-file /nonexistent.ko: no such file" "$TMP/err"
ok $? "a missing file: one-line error, exit 1"

# Every record is accounted for: it has its user stage (d) or the reader
# was not blocked in read() at (c). Those misses happen before the reader
# first blocks (the module's timer starts with the open; between it and the
# first read() come the IRQ thread's look-up in /proc and the reader
# thread's start: 4 periods of guest time on stock 6.12, 1 on 6.1 in the
# icount guest; this one is plain TCG, whose time is the host's, so a busy
# host stretches that start: 33 periods seen beside two other tests); after
# it, none. Most records are measured: the misses are the start alone.
"$VM" -q --kernel stock --clock tcg --module-file "$ko" --timeout 120s --out "$TMP/good" -- \
	sh -c '[ -c /dev/rtproof_irqlat ] && rtproof-irqlat -q --source module -l 300 --json /res/i.json' \
	>"$TMP/out" 2>&1
rc=$?
[ $rc -eq 0 ] && jq_ok "$TMP/good/i.json" '([.metrics[] | select(.name == "user_wakeup" or .name == "total") | .count] | unique) as $u
	| .params.source == "module" and .events.records == 300
	and ($u | length) == 1 and $u[0] + .events.reader_not_waiting == .events.records
	and .events.reader_not_waiting == .events.reader_not_waiting_at_start
	and .events.reader_not_waiting_at_start * 2 < .events.records'
ok $? "stock: the module is loaded in the guest and measures (exit $rc): $(jq -r '.events | "\(.records) records, \(.reader_not_waiting) without a waiting reader, \(.reader_not_waiting_at_start) of them before it first waited"' "$TMP/good/i.json" 2>/dev/null)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/out" | tail -n 15
done_testing
