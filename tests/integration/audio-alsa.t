#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# rtproof-audio's ALSA backend on this machine, against snd-dummy when it is
# loaded (modprobe snd-dummy).  Hosts that cannot load it skip, with the
# reason; audio-vm.t runs the same checks in a QEMU guest.
. "$(dirname "$0")/tap.sh"

if [ ! -e /proc/asound/Dummy ]; then
	why="no snd-dummy card here (/proc/asound/Dummy missing"
	[ -e /proc/asound ] || why="$why; this kernel has no ALSA core loaded"
	echo "1..0 # SKIP $why): see audio-vm.t for the guest run"
	exit 0
fi

rtproof-audio -q --device hw:Dummy --period 256 -n 3 -D 2 --json "$TMP/m.json" >"$TMP/out" 2>&1
ok $? "hw:Dummy, mmap: exit 0"
jq_ok "$TMP/m.json" '.params.backend == "alsa" and .events.xruns == 0 and .events.wakeups > 100 and
	.events.audio_written_s >= 1.8 and .events.audio_written_s <= 2.1'
ok $? "ALSA backend, no xruns, real-time rate"
rtproof-audio -q --device hw:Dummy --period 256 -n 3 -D 1 --access rw --json "$TMP/r.json" >"$TMP/out" 2>&1
ok $? "hw:Dummy, rw: exit 0"
rtproof-audio -q --device hw:Dummy --period 256 -n 2 -D 2.4 --plant-stall 40ms,1s --json "$TMP/s.json" >"$TMP/out" 2>&1
[ $? -eq 2 ] && jq_ok "$TMP/s.json" '.events.stalls_planted == 2 and .events.xruns >= 2 and
	all(.events.xrun_list[]; .duration_ns > 20000000 and .duration_ns < 50000000)'
ok $? "planted stalls: xruns with durations from ALSA's timestamps"
done_testing
