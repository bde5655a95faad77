#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof-audio --backend pipewire in the icount guest (Debian's 6.12 RT
# kernel, one vCPU) against a private pipewire (a Dummy-Driver at 48 kHz,
# quantum 256, its data thread at FIFO 95, the profiler loaded; the
# stream's data thread at FIFO 88, client-rt.conf's module-rt) (issue 27):
#  - a light run: 0 xruns, lateness under 1 ms;
#  - a SCHED_FIFO 90 spinner, 100 ms every 500 ms, below the server's
#    data thread: the Dummy-Driver's timerfd expires in ktimers/0 (FIFO 1
#    on PREEMPT_RT), so the driver itself begins its cycles up to 100 ms
#    late and catches up: xruns the server's (cycles completed past their
#    deadline), --explain naming the spinner;
#  - the same with ktimers/0 at FIFO 96: the driver on time, the stream's
#    own cycles incomplete, xruns its late wake-ups, the spinner named;
#  - --plant-stall 100ms (FIFO 99 on the one CPU): the server's, rtp-stall
#    named;
#  - a second server whose driver is an ALSA sink on snd-dummy: a light
#    run's 0 xruns; the same plant: the sink's own underruns (the
#    driver's xrun count in the profiler) are the device's, each cycle
#    once, and the late cycle after each the server's.
# Latencies asserted in the icount guest: rule (a) of tests/README.md.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/audio-servers.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
for p in rtproof-audio rtp-spin; do
	[ -x "$RTPROOF_BIN/$p" ] || skip_all "$p not built"
done
for p in pipewire chrt; do
	command -v $p >/dev/null || skip_all "$p not installed (apt-get install pipewire util-linux)"
done
L=$(dirname "$(ls /usr/lib/*/pipewire-0.3/libpipewire-module-rt.so 2>/dev/null | head -n 1)")
S=$(ls -d /usr/lib/*/spa-0.2 2>/dev/null | head -n 1)
[ -n "$L" ] && [ "$L" != . ] && [ -n "$S" ] || skip_all "PipeWire's modules or SPA plugins not found"
vm_fetch rt-6.12

# the modules, SPA plugins and the server's configuration, executable for --add (it puts them in
# /usr/bin; the guest points PIPEWIRE_MODULE_DIR there and links the SPA
# plugins into the subdirectories PipeWire loads them from)
adds=(--add pipewire --add chrt)
mkdir -p "$TMP/so"
for m in rt protocol-native profiler metadata spa-node-factory client-node access adapter link-factory; do
	install -m 755 "$L/libpipewire-module-$m.so" "$TMP/so/" || echo "not ok - module $m missing"
done
install -m 755 "$S/support/libspa-support.so" "$S/audioconvert/libspa-audioconvert.so" "$S/alsa/libspa-alsa.so" \
	"$TMP/so/" || echo "not ok - SPA plugins missing"
pw_server_conf "$TMP/so/server.conf" rtpguest 256 95 && pw_server_conf "$TMP/so/server-alsa.conf" rtpguest 256 95 hw:Dummy &&
	chmod 755 "$TMP"/so/server*.conf
for f in "$TMP"/so/*.so "$TMP"/so/server*.conf; do adds+=(--add "$f"); done

cat >"$TMP/guest.sh" <<'XEOF'
#!/bin/sh
export PIPEWIRE_MODULE_DIR=/usr/bin SPA_PLUGIN_DIR=/tmp/spa PIPEWIRE_CONFIG_DIR=/tmp/pwconf
export XDG_RUNTIME_DIR=/tmp/pwrun PIPEWIRE_RUNTIME_DIR=/tmp/pwrun
mkdir -p /tmp/spa/support /tmp/spa/audioconvert /tmp/pwconf /tmp/pwrun
ln -s /usr/bin/libspa-support.so /tmp/spa/support/
ln -s /usr/bin/libspa-audioconvert.so /tmp/spa/audioconvert/
mkdir -p /tmp/spa/alsa && ln -s /usr/bin/libspa-alsa.so /tmp/spa/alsa/
cat >/tmp/pwconf/client-rt.conf <<EOF
context.properties = { log.level = 0 }
context.spa-libs = {
    audio.convert.* = audioconvert/libspa-audioconvert
    support.* = support/libspa-support
}
context.modules = [
    { name = libpipewire-module-rt args = { } flags = [ ifexists nofail ] }
    { name = libpipewire-module-protocol-native }
    { name = libpipewire-module-client-node }
    { name = libpipewire-module-adapter }
    { name = libpipewire-module-metadata }
]
EOF
# start_pw CONF LOG: a server, up when its socket is (10 s at most); its pid in pw
start_pw() {
	pipewire -c "$1" >"$2" 2>&1 &
	pw=$!
	i=0
	while [ ! -S /tmp/pwrun/rtpguest ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}
start_pw /usr/bin/server.conf /res/pw.log
PW="rtproof-audio -q --backend pipewire --server rtpguest"
$PW -D 3 --json /res/light.json >/res/light.txt 2>&1
echo $? >/res/light.rc
kt=$(for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = ktimers/0 ] && echo ${p#/proc/}; done)
for run in spin kt; do
	[ $run = kt ] && chrt -f -p 96 "$kt"
	# the spinner outlives the run: its policy is read after it
	rtp-spin --cpu 0 --prio 90 --spin 100ms --every 500ms --duration 30s --delay 1s >/res/$run.spin 2>&1 &
	sp=$!
	echo $sp >/res/$run.pid
	$PW -D 3 --explain=1ms --json /res/$run.json >/res/$run.txt 2>&1
	echo $? >/res/$run.rc
	kill $sp
	wait $sp
done
chrt -f -p 1 "$kt"
$PW -D 2.2 --plant-stall 100ms,500ms --explain=1ms --json /res/st.json >/res/st.txt 2>&1
echo $? >/res/st.rc
kill $pw
wait $pw
# the ALSA sink on snd-dummy as the driver
start_pw /usr/bin/server-alsa.conf /res/pwa.log
$PW -D 3 --json /res/alight.json >/res/alight.txt 2>&1
echo $? >/res/alight.rc
$PW -D 2.2 --plant-stall 100ms,500ms --explain=1ms --json /res/ast.json >/res/ast.txt 2>&1
echo $? >/res/ast.rc
kill $pw
wait $pw
exit 0
XEOF
chmod +x "$TMP/guest.sh"
v0=$(date +%s)
"$VM" -q --kernel rt-6.12 --module snd-dummy --timeout 300s --out "$TMP/g" "${adds[@]}" -- "$TMP/guest.sh" >"$TMP/vm.out" 2>"$TMP/vm.err"
rc=$?
ok $rc "guest ran ($(($(date +%s) - v0)) s)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/vm.err" | tail -n 20
d=$TMP/g
for f in light spin kt st alight ast; do
	[ -f "$d/$f.txt" ] && grep -v ' \.\. ' "$d/$f.txt" | sed -n '/samples/,+1p;/^xruns:/,/^  missed/p;/explain: culprits/,+3p;/^verdict/p' |
		sed "s/^/# $f: /"
done
[ -s "$d/pw.log" ] && sed 's/^/# pipewire: /' "$d/pw.log" | head -n 5

jq_ok "$d/light.json" '.events.xruns == 0 and .metrics[0].count > 500 and .metrics[0].max < 1000000
	and .events.pipewire.profiler and .events.pipewire.data_thread.priority == 88'
ok $? "light run: 0 xruns, $(jq .metrics[0].count "$d/light.json" 2>/dev/null) cycles, lateness max $(jq '.metrics[0].max / 1000' "$d/light.json" 2>/dev/null) us, the data thread FIFO 88, the profiler bound (exit $(cat "$d/light.rc" 2>/dev/null))"

# the spinner in (nearly) every window --explain kept, and over the run
named() {	# named FILE NAME PRIO PID
	jq_ok "$1" '.events.explain.outliers >= 4
		and .events.explain.by_culprit[0].name == "'"$2"'" and .events.explain.by_culprit[0].prio == '"$3"'
		and ('"$4"' == 0 or .events.explain.by_culprit[0].pid == '"$4"')
		and .events.explain.by_culprit[0].attributed >= 0.9 * .events.explain.outliers'
}
sp=$(cat "$d/spin.pid" 2>/dev/null)
[ "$(cat "$d/spin.rc" 2>/dev/null)" = 2 ] && jq_ok "$d/spin.json" '.events.xruns >= 4 and .events.xrun_causes.server == .events.xruns
	and all(.events.xrun_list[]; .culprit == "Dummy-Driver" and .lateness_ns >= 5000000)
	and .events.pipewire.server_late_max_ns >= 80000000 and .events.pipewire.server_late_max_ns <= 130000000'
ok $? "FIFO 90 spinner, ktimers/0 at FIFO 1: the driver's timer held, its cycles up to $(jq '.events.pipewire.server_late_max_ns / 1e6' "$d/spin.json" 2>/dev/null) ms late: xruns the server's $(jq -c .events.xrun_causes "$d/spin.json" 2>/dev/null), each its call's lateness (ms): $(jq -c '[.events.xrun_list[0:20][] | .lateness_ns / 1e6 | floor]' "$d/spin.json" 2>/dev/null)"
named "$d/spin.json" rtp-spin 90 "${sp:-0}"
ok $? "--explain names the spinner (FIFO 90, pid ${sp:-?}): $(jq -c '.events.explain | {outliers, attributed, top: .by_culprit[0] | {name, prio, attributed}}' "$d/spin.json" 2>/dev/null)"

sp=$(cat "$d/kt.pid" 2>/dev/null)
[ "$(cat "$d/kt.rc" 2>/dev/null)" = 2 ] && jq_ok "$d/kt.json" '.events.xruns >= 4 and .events.xrun_causes["late-wakeup"] == .events.xruns
	and all(.events.xrun_list[]; .culprit == "rtproof-audio") and .events.pipewire.server_late_cycles == 0
	and ([.events.xrun_list[].lateness_ns] | max >= 80000000 and max <= 130000000)'
ok $? "the same with ktimers/0 at FIFO 96: the driver on time, xruns this stream's late wake-ups $(jq -c .events.xrun_causes "$d/kt.json" 2>/dev/null), the worst $(jq '[.events.xrun_list[].lateness_ns] | max / 1e6' "$d/kt.json" 2>/dev/null) ms"
named "$d/kt.json" rtp-spin 90 "${sp:-0}"
ok $? "--explain names the spinner: $(jq -c '.events.explain | {outliers, attributed, top: .by_culprit[0] | {name, prio, attributed}}' "$d/kt.json" 2>/dev/null)"

[ "$(cat "$d/st.rc" 2>/dev/null)" = 2 ] && jq_ok "$d/st.json" '.events.stalls_planted >= 3 and .events.xruns >= .events.stalls_planted
	and .events.xrun_causes.server == .events.xruns'
ok $? "FIFO 99 plant on the one CPU: xruns the server's $(jq -c .events.xrun_causes "$d/st.json" 2>/dev/null)"
named "$d/st.json" rtp-stall 99 0
ok $? "--explain names the planted thread: $(jq -c '.events.explain | {outliers, attributed, top: .by_culprit[0] | {name, prio, attributed}}' "$d/st.json" 2>/dev/null)"

jq_ok "$d/alight.json" '.events.xruns == 0 and .metrics[0].count > 500 and .metrics[0].max < 1000000
	and .events.pipewire.driver == "dummy-sink"'
ok $? "ALSA sink on snd-dummy as the driver, light run: 0 xruns, $(jq .metrics[0].count "$d/alight.json" 2>/dev/null) cycles, lateness max $(jq '.metrics[0].max / 1000' "$d/alight.json" 2>/dev/null) us (exit $(cat "$d/alight.rc" 2>/dev/null))"
[ "$(cat "$d/ast.rc" 2>/dev/null)" = 2 ] && jq_ok "$d/ast.json" '.events.stalls_planted >= 3
	and .events.pipewire.driver_xruns >= .events.stalls_planted
	and .events.xrun_causes.device == .events.pipewire.driver_xruns
	and .events.xrun_causes.device + .events.xrun_causes.server == .events.xruns
	and all(.events.xrun_list[]; .culprit == "dummy-sink")
	and ([.events.xrun_list[].time_s] | unique | length) == (.events.xrun_list | length)'
ok $? "the same plant: the sink's own underruns the device's, once a cycle, the late cycles after them the server's: $(jq -c '.events.xrun_causes' "$d/ast.json" 2>/dev/null), the driver's xruns $(jq .events.pipewire.driver_xruns "$d/ast.json" 2>/dev/null)"
named "$d/ast.json" rtp-stall 99 0
ok $? "--explain names the planted thread: $(jq -c '.events.explain | {outliers, attributed, top: .by_culprit[0] | {name, prio, attributed}}' "$d/ast.json" 2>/dev/null)"
done_testing
