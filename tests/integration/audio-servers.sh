# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the sound-server tests (audio-jack.t, audio-pipewire.t,
# vm-audio-pipewire.t), sourced after tap.sh.

# expect1 PATTERN DESCRIPTION -- ARGS...: $BENCH (the bench on the test's
# server) with ARGS refused: one line matching PATTERN, exit 1, no document
expect1() {
	_pat=$1 _d=$2; shift 3
	rm -f "$TMP/bad.json"
	$BENCH -D 1 --json "$TMP/bad.json" "$@" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	[ $_rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -- "$_pat" "$TMP/err" && [ ! -e "$TMP/bad.json" ]
	ok $? "$_d: one line, exit 1, no document (got $_rc: $(cat "$TMP/err"))"
}

# server_gone_ok LINE: the bench's run ended by its server going away
# (exit status in rc, stderr in $TMP/gone.err, document $TMP/gone.json):
# one line matching LINE, exit 1, and the partial document kept.
server_gone_ok() {
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/gone.err")" -eq 1 ] && grep -q "$1" "$TMP/gone.err"
	ok $? "server gone mid-run: one line, exit 1 (got $rc: $(cat "$TMP/gone.err"))"
	jq_ok "$TMP/gone.json" '.events.stopped_by == "server-gone" and .verdict.status == "error" and
		.metrics[0].count > 0 and .duration_s < 10'
	ok $? "the partial document is kept: stopped_by $(jq .events.stopped_by "$TMP/gone.json"), $(jq .metrics[0].count "$TMP/gone.json") cycles in $(jq .duration_s "$TMP/gone.json") s"
}

# pw_server_conf FILE NAME QUANTUM RT_PRIO [ALSA_PCM]: a minimal pipewire -c
# configuration for the audio tests (audio-pipewire.t on the host,
# vm-audio-pipewire.t in the guest): the native protocol under the remote
# NAME, the profiler, a support.node.driver Dummy-Driver at 48 kHz with
# QUANTUM frames a cycle, the data thread at SCHED_FIFO RT_PRIO (module-rt);
# no session manager, no D-Bus.  With ALSA_PCM, the driver is instead an
# ALSA sink on that device (node dummy-sink, its ports configured at
# creation, as no session manager does it).
pw_server_conf() {
	if [ -n "${5:-}" ]; then
		_pw_lib='    api.alsa.* = alsa/libspa-alsa'
		_pw_obj="    { factory = adapter
      args = { factory.name = api.alsa.pcm.sink node.name = dummy-sink media.class = Audio/Sink
               api.alsa.path = \"$5\" audio.rate = 48000 audio.channels = 2 audio.format = S16LE
               priority.driver = 30000 node.pause-on-idle = false node.always-process = true
               adapter.auto-port-config = { mode = dsp monitor = false position = preserve } } }"
	else
		_pw_lib=
		_pw_obj='    { factory = spa-node-factory
      args = { factory.name = support.node.driver node.name = Dummy-Driver priority.driver = 20000 } }'
	fi
	cat >"$1" <<PWEOF
context.properties = {
    core.daemon = true
    core.name = $2
    default.clock.rate = 48000
    default.clock.allowed-rates = [ 48000 ]
    default.clock.quantum = $3
    default.clock.min-quantum = 16
    default.clock.max-quantum = 2048
    log.level = 2
}
context.spa-libs = {
    audio.convert.* = audioconvert/libspa-audioconvert
    support.* = support/libspa-support
$_pw_lib
}
context.modules = [
    { name = libpipewire-module-rt args = { nice.level = -11 rt.prio = $4 } flags = [ ifexists nofail ] }
    { name = libpipewire-module-protocol-native }
    { name = libpipewire-module-profiler }
    { name = libpipewire-module-metadata }
    { name = libpipewire-module-spa-node-factory }
    { name = libpipewire-module-client-node }
    { name = libpipewire-module-access args = { } }
    { name = libpipewire-module-adapter }
    { name = libpipewire-module-link-factory }
]
context.objects = [
$_pw_obj
]
PWEOF
}
