#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest guest=rt
# rtproof check --profile audio on the 6.12 PREEMPT_RT kernel: rt_throttle
# reads the fair server (the deadline server that, from 6.12, runs starved
# CFS tasks ahead of RT threads) and gives its knob, never
# sched_rt_runtime_us=-1 alone; with snd-dummy loaded, the ktimers check fails
# and gives the chrt line (snd-dummy's period timer expires in ktimers/0 at
# FIFO 1, the measured cause of the RT guest's audio tail, docs/audio.md).
# No figure is asserted; the guest is the default generation's rt, the
# icount boot the batch shares (another generation: the test skips), and
# snd-dummy is unloaded at the end for the tests after it in that boot.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/guest.sh"
in_guest rt
case $(uname -r) in
6.12.*-rt-*) ;;
*) echo "1..0 # SKIP the fair server came with 6.12; this guest runs $(uname -r) (RTPROOF_KERNEL_GENERATION)"; exit 0 ;;
esac

FS=/sys/kernel/debug/sched/fair_server/cpu0
crit() { jq -r --arg id "$2" --arg f "$3" '.verdict.criteria[] | select(.name == $id) | .[$f] // ""' "$1"; }

modprobe snd-dummy 2>"$TMP/modprobe.err"
ok $? "snd-dummy loads in the guest"
rtproof-check --profile audio --json "$TMP/a.json" >"$TMP/a.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/a.txt"
[ $rc -eq 0 ] || [ $rc -eq 2 ]; ok $? "rtproof check --profile audio: a verdict (exit $rc)"
jq_ok "$TMP/a.json" '.system.kernel_release | test("^6\\.12\\..*-rt-")'
ok $? "the kernel is 6.12 PREEMPT_RT ($(jq -r .system.kernel_release "$TMP/a.json"))"

# rt_throttle: the fair server, read from debugfs, and its knob.
rt=$(cat "$FS/runtime" 2>/dev/null) per=$(cat "$FS/period" 2>/dev/null)
[ -n "$rt" ] && [ "$rt" -gt 0 ]; ok $? "the fair server is on: cpu0 runtime $rt ns of $per ns"
s=$(crit "$TMP/a.json" rt_throttle seen) f=$(crit "$TMP/a.json" rt_throttle fix)
[ "$(crit "$TMP/a.json" rt_throttle status)" = warn ] &&
	echo "$s" | grep -q "fair server.* $((rt / 1000000)) ms of every $((per / 1000000)) ms on CPU(s) 0" &&
	echo "$f" | grep -qF 'for f in /sys/kernel/debug/sched/fair_server/cpu*/runtime; do echo 0 > $f; done'
ok $? "rt_throttle names the fair server, its runtime and its knob: $s | fix: $f"
# sched_rt_runtime_us=-1 is never the whole advice: alone it stops nothing here.
! jq -r '.verdict.criteria[].fix // empty' "$TMP/a.json" | grep -v fair_server | grep -q 'sched_rt_runtime_us=-1'
ok $? "no check prescribes sched_rt_runtime_us=-1 alone"
# The fix as given (the sysctl first: on 6.12.117 the runtime write fails
# with EBUSY while it is >= 0), then the check passes; then put back.
old_rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
echo 0 2>/dev/null >"$FS/runtime"; echo "# runtime write with sched_rt_runtime_us $old_rt: exit $?, runtime now $(cat "$FS/runtime")"
case $f in
"sysctl -w kernel.sched_rt_runtime_us=-1; for f in /sys/kernel/debug/sched/fair_server/cpu*/runtime; do echo 0 > \$f; done ("*)
	echo -1 >/proc/sys/kernel/sched_rt_runtime_us &&
		for x in /sys/kernel/debug/sched/fair_server/cpu*/runtime; do echo 0 >"$x"; done
	fixrc=$? ;;
*) fixrc=9 ;;	# not the fix this test knows how to apply
esac
rtproof-check --profile audio --only rt_throttle --json "$TMP/off.json" >/dev/null 2>&1
[ $fixrc -eq 0 ] && [ "$(crit "$TMP/off.json" rt_throttle status)" = pass ]
ok $? "the fix applied (exit $fixrc): rt_throttle passes ($(crit "$TMP/off.json" rt_throttle seen))"
echo "$rt" >"$FS/runtime"
echo "$old_rt" >/proc/sys/kernel/sched_rt_runtime_us

# ktimers: FIFO 1, below the audio thread's 80, with a timer-driven card.
s=$(crit "$TMP/a.json" ktimers seen) f=$(crit "$TMP/a.json" ktimers fix)
[ "$(crit "$TMP/a.json" ktimers status)" = fail ] && echo "$s" | grep -q 'ktimers/0 FIFO 1' &&
	echo "$s" | grep -q 'snd-dummy or snd-aloop here'
ok $? "ktimers fails in the audio profile with snd-dummy: $s"
echo "$f" | grep -qF "for p in \$(pgrep '^ktimers/'); do chrt -f -p 81 \$p; done"
ok $? "ktimers: the fix is a chrt line above the audio thread: $f"
rmmod snd-dummy 2>/dev/null
done_testing
