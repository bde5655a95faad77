#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof-audio --duplex: an impulse's round trip through snd-aloop in a QEMU
# guest (PREEMPT_RT kernel, icount: the host's stalls stay out of it).  Loopback,0,0 plays into Loopback,1,0: every
# impulse must come back at the same stream index (the streams are linked),
# after about one buffer; a capture device that is not the loopback's other
# end returns nothing, and the run says so (exit 1).
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need rtproof-audio rt

start=$(date +%s)
"$VM" -q --kernel rt --module snd-aloop --timeout 90s --out "$TMP/vm" -- sh -c '
	rtproof-audio -q --device hw:Loopback,0,0 --duplex hw:Loopback,1,0 --period 1024 -n 3 -D 2 --json /res/mmap.json
	echo "mmap rc=$?"
	rtproof-audio -q --device hw:Loopback,0,0 --duplex hw:Loopback,1,0 --access rw --period 1024 -n 3 -D 2 \
		--json /res/rw.json
	echo "rw rc=$?"
	rtproof-audio -q --device hw:Loopback,0,0 --duplex hw:Loopback,0,1 --period 1024 -n 3 -D 1.5 --json /res/no.json
	echo "no rc=$?"
	exit 0' >"$TMP/vm.out" 2>"$TMP/vm.err"
rc=$?
took=$(( $(date +%s) - start ))
ok $rc "guest with snd-aloop boots and runs the jobs (${took} s)"
[ $rc -eq 0 ] || tail -n 20 "$TMP/vm.err" "$TMP/vm/serial.log" 2>/dev/null | sed 's/^/# /'
out=$TMP/vm/output.txt

# 1024 x 3 at 48 kHz: P = 21.3 ms, B = 64 ms.
P=21333334 B=64000000
for a in mmap rw; do
	f=$TMP/vm/$a.json
	grep -Eq "^$a rc=(0|2)\$" "$out"
	ok $? "$a: a verdict ($(grep "^$a rc" "$out"))"
	jq_ok "$f" '.params.stream == "duplex" and .params.duplex_device == "hw:Loopback,1,0" and
		.events.duplex.impulses_sent >= 6 and
		.events.duplex.impulses_found + .events.duplex.impulses_lost >= .events.duplex.impulses_sent - 1 and
		.events.duplex.impulses_found >= .events.duplex.impulses_sent - .events.xruns - 1'
	ok $? "$a: impulses sent four a second come back ($(jq -c '.events.duplex | [.impulses_sent, .impulses_found, .impulses_lost]' "$f"))"
	jq_ok "$f" '.events.duplex.linked == false or (.events.duplex.delay_min_frames == 0 and .events.duplex.delay_max_frames == 0)'
	ok $? "$a: linked streams: each impulse at the same index in both streams"
	jq_ok "$f" "(.metrics[] | select(.name == \"roundtrip_latency\")) as \$m |
		\$m.count == .events.duplex.impulses_found and \$m.unit == \"ns\" and
		\$m.percentiles[\"50\"] >= $B - $P and \$m.percentiles[\"50\"] <= $B + 2 * $P + 20000000"
	ok $? "$a: round trip about one buffer (p50 $(jq '.metrics[] | select(.name == "roundtrip_latency") | .percentiles["50"] / 1e6' "$f") ms of 64 ms)"
	jq -r '"# \(.params.granted.access): \(.verdict.reason)"' "$f"
done

f=$TMP/vm/no.json
# (An xrun from emulation noise would make it a plain fail: still no impulse back.)
{ grep -q '^no rc=1$' "$out" && jq_ok "$f" '.verdict.status == "error" and .events.duplex.impulses_found == 0 and
	(.verdict.reason | test("came back"))'; } ||
{ grep -q '^no rc=2$' "$out" && jq_ok "$f" '.events.xruns > 0 and .events.duplex.impulses_found == 0'; }
ok $? "a capture device that is not the other end: no impulse back, an error (exit 1)"

done_testing
