# SPDX-License-Identifier: GPL-2.0-or-later
# fake_tracefs DIR [noise]: a tracefs of plain files for rtproof-irqlat
# --source timerlat --tracefs DIR (sourced, not run): the timerlat tracer
# available and idle (no timerlat_fd: its kernel-thread mode), and a
# trace_pipe of three timerlat samples.  With
# "noise", the osnoise noise events too, and one irq_noise line among the
# samples (for --osnoise).
fake_tracefs() {
	mkdir -p "$1/osnoise" || return 1
	echo "timerlat osnoise function nop" >"$1/available_tracers"
	echo nop >"$1/current_tracer"
	echo 1 >"$1/tracing_on"
	echo 1000 >"$1/osnoise/timerlat_period_us"
	echo 0-1 >"$1/osnoise/cpus"
	: >"$1/trace"
	_noise=
	if [ "${2:-}" = noise ]; then
		for k in nmi irq softirq thread; do
			mkdir -p "$1/events/osnoise/${k}_noise" &&
				echo 0 >"$1/events/osnoise/${k}_noise/enable"
		done
		_noise='          <idle>-0     [000] d.h1.   100.100000: irq_noise: local_timer:236 start 100.099998 duration 2000 ns'
	fi
	{
		echo '     timerlat/0-1234  [000] .......   100.000001: #1 context    irq timer_latency      1234 ns'
		echo '     timerlat/0-1234  [000] .......   100.000002: #1 context thread timer_latency      5234 ns'
		[ -n "$_noise" ] && echo "$_noise"
		echo '     timerlat/0-1234  [000] .......   100.001001: #2 context    irq timer_latency      1300 ns'
		echo '     timerlat/0-1234  [000] .......   100.001002: #2 context thread timer_latency      6000 ns'
		echo '     timerlat/0-1234  [000] .......   100.002002: #3 context thread timer_latency      7000 ns'
	} >"$1/trace_pipe"
}
