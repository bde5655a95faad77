# SPDX-License-Identifier: GPL-2.0-or-later
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
