# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-lib.sh: shell functions shared by the runners, sourced (POSIX sh,
# busybox too): rtproof run and bench-cyclic on this machine, rtproof vm and
# rtproof compare-kernels on the host, and the guest's /init (the
# initramfs carries this file as /lib/rtproof-lib.sh).  One duration
# grammar, the benches' own, and one place where loads are started.

# The loads a runner can start beside a bench; a bench's --load NAME only
# records the name.
RTP_LOADS="none io hackbench mixed cpu"
# the guest's hackbench (one vCPU, icount): kernel/vm/init runs it, rtproof-vm describes it
RTP_GUEST_HACKBENCH_ARGS="-g 2 -f 4 -l 50"

# rtp_load_known NAME: is NAME one of RTP_LOADS?
rtp_load_known() {
	case " $RTP_LOADS " in *" $1 "*) return 0 ;; esac
	return 1
}

# rtp_kbuild_missing: what a kernel build needs and this machine lacks, one
# "WHAT PACKAGE" a line (a program, or a header under /usr/include, with its
# Debian package): rtproof bisect's kernel mode and its demo
rtp_kbuild_missing() {
	for _t in make:make gcc:gcc flex:flex bison:bison bc:bc; do
		command -v "${_t%%:*}" >/dev/null || echo "${_t%%:*} ${_t#*:}"
	done
	[ -f /usr/include/gelf.h ] || echo "gelf.h libelf-dev"
	[ -f /usr/include/openssl/opensslv.h ] || echo "openssl/opensslv.h libssl-dev"
}

# rtp_duration_ok T: the benches' grammar: a number, decimals allowed, with
# an optional unit ns, us, ms, s, m, min, h or d (a bare number is seconds).
rtp_duration_ok() {
	printf '%s\n' "$1" | grep -Eq '^([0-9]+(\.[0-9]+)?|\.[0-9]+)(ns|us|ms|s|m|min|h|d)?$'
}

# rtp_duration_seconds T: T in whole seconds, rounded up (0 only for 0).
rtp_duration_seconds() {
	rtp_duration_ok "$1" || return 1
	printf '%s\n' "$1" | awk '{
		n = $0; u = $0; sub(/[a-z]+$/, "", n); sub(/^[0-9.]+/, "", u)
		m = 1
		if (u == "ns") m = 1e-9; else if (u == "us") m = 1e-6; else if (u == "ms") m = 1e-3
		else if (u == "m" || u == "min") m = 60; else if (u == "h") m = 3600
		else if (u == "d") m = 86400
		s = n * m; i = int(s); if (i < s) i++; print i }'
}

# rtp_results_dir TOP: TOP/results in a source tree, else ./results (an
# installed tree is not the place for results).
rtp_results_dir() {
	if [ -d "$1/results" ] && [ -w "$1/results" ]; then
		echo "$1/results"
	else
		echo "$PWD/results"
	fi
}

# ---- loads ------------------------------------------------------------------
# rtp_load_start NAME: starts the load in the background, SCHED_OTHER, and
# returns.  io: stress-ng's disk mix when it is installed, else dd to /tmp,
# find and drop_caches loops; cpu: stress-ng on every CPU, else one busy
# shell loop; hackbench: hackbench in a loop (RTP_HACKBENCH_ARGS, default
# -g 4 -l 2000); mixed: io and hackbench.  With RTP_LOAD_MARKS set to a
# directory, every completed round of a loop adds a line to
# RTP_LOAD_MARKS/load.KIND (rtp_load_rounds prints the counts).
#
# Each load runs in a process group of its own (setsid: its pid is the
# group's), killed whole by rtp_load_stop, and dies with the runner even
# when that is killed by SIGKILL (setpriv --pdeathsig, util-linux, where it
# is installed; docs/security.md).  A runner that starts loads traps
# EXIT INT TERM HUP QUIT and calls rtp_load_stop.
RTP_LOAD_PIDS=
# rtp_pdeath: "setpriv --pdeathsig KILL" where setpriv has it, else nothing.
rtp_pdeath() {
	if [ -z "${_rtp_pdeath_known:-}" ]; then
		_rtp_pdeath_known=1 _rtp_pdeath=
		setpriv --pdeathsig KILL true 2>/dev/null && _rtp_pdeath="setpriv --pdeathsig KILL"
	fi
	echo "$_rtp_pdeath"
}
_rtp_bg() {
	_pd=$(rtp_pdeath)
	if command -v setsid >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		setsid $_pd "$@" & RTP_LOAD_PIDS="$RTP_LOAD_PIDS $!"
	else
		# shellcheck disable=SC2086
		$_pd "$@" & RTP_LOAD_PIDS="$RTP_LOAD_PIDS $!"
	fi
}
# _rtp_loop KIND PAUSE COMMAND...: the command again and again, each round
# marked, then PAUSE seconds (0: none).  The loop waits for its round in
# the background, so a SIGTERM ends the round it is running and the loop
# at once (only this loop's: nobody else's hackbench is touched).
_rtp_loop() {
	_k=$1; _s=$2; shift 2
	_rtp_bg sh -c 'k=$1; m=$2; s=$3; pd=$4; shift 4; c=
		trap '\''[ -z "$c" ] || kill "$c" 2>/dev/null; exit 0'\'' TERM HUP INT QUIT
		[ -z "$m" ] || : >>"$m/load.$k"
		while :; do
			$pd "$@" >/dev/null 2>&1 & c=$!
			if wait "$c"; then
				[ -z "$m" ] || echo >>"$m/load.$k"
			else
				[ -z "$m" ] || echo >>"$m/failed.$k"
				sleep 0.1 & c=$!; wait "$c"
			fi
			[ "$s" = 0 ] || { sleep "$s" & c=$!; wait "$c"; }
		done' sh "$_k" "${RTP_LOAD_MARKS:-}" "$_s" "$(rtp_pdeath)" "$@"
}
# _rtp_stressng NAME ARGS...: stress-ng in the background until stopped;
# with RTP_LOAD_MARKS, its metrics (bogo ops per stressor, written when
# it is stopped) go to RTP_LOAD_MARKS/stress-ng.NAME.yaml and its output
# to stress-ng.NAME.log there.
_rtp_stressng() {
	_n=$1
	shift
	if [ -n "${RTP_LOAD_MARKS:-}" ]; then
		_rtp_bg sh -c 'l=$1; shift; exec "$@" >"$l" 2>&1' sh "$RTP_LOAD_MARKS/stress-ng.$_n.log" \
			stress-ng "$@" --timeout 0 --metrics-brief --yaml "$RTP_LOAD_MARKS/stress-ng.$_n.yaml"
	else
		_rtp_bg stress-ng "$@" --timeout 0 --quiet
	fi
}
_rtp_load_io() {
	if command -v stress-ng >/dev/null 2>&1; then
		_rtp_stressng io --hdd 1 --iomix 1 --temp-path "${TMPDIR:-/tmp}"
		return
	fi
	# A fresh mktemp name each round: a fixed one in /tmp (load.dd) let any
	# user plant a link there for a root dd to write 16 MiB through.
	# The trap first: a round ended while mktemp runs removes its file too.
	_rtp_loop dd 0 sh -c 'f=; trap '\''[ -z "$f" ] || rm -f "$f"; exit 0'\'' TERM
		f=$(mktemp "${TMPDIR:-/tmp}/rtproof-load.XXXXXX") || exit 1
		dd if=/dev/zero of="$f" bs=64k count=256 2>/dev/null; rm -f "$f"'
	_rtp_loop find 0 sh -c 'find / -xdev >/dev/null 2>&1; find /sys >/dev/null 2>&1'
	_rtp_loop drop_caches 1 sh -c 'echo 3 >/proc/sys/vm/drop_caches'
}
_rtp_load_hackbench() {
	if ! command -v hackbench >/dev/null 2>&1; then
		echo "rtproof: warning: --load: hackbench not found (Debian: rt-tests); the load runs without it" >&2
		return 0
	fi
	# shellcheck disable=SC2086
	_rtp_loop hackbench 0 hackbench ${RTP_HACKBENCH_ARGS:--g 4 -l 2000}
}
rtp_load_start() {
	RTP_LOAD_PIDS=
	case $1 in
	none) ;;
	io) _rtp_load_io ;;
	hackbench) _rtp_load_hackbench ;;
	mixed) _rtp_load_io; _rtp_load_hackbench ;;
	cpu)
		if command -v stress-ng >/dev/null 2>&1; then
			_rtp_stressng cpu --cpu 0
		else
			_rtp_loop cpu 0 sh -c 'i=0; while [ $i -lt 10000 ]; do i=$((i + 1)); done'
		fi ;;
	*) echo "rtproof: error: --load $1: load must be one of: $RTP_LOADS" >&2; return 1 ;;
	esac
}

# rtp_load_stop: ends what rtp_load_start started (each loop ends the round
# it is running; stress-ng ends its workers).
rtp_load_stop() {
	for _p in $RTP_LOAD_PIDS; do
		# the whole group (its pid is the group's under setsid), else the one
		kill -TERM "-$_p" 2>/dev/null || kill -TERM "$_p" 2>/dev/null
	done
	for _p in $RTP_LOAD_PIDS; do
		wait "$_p" 2>/dev/null
	done
	RTP_LOAD_PIDS=
	return 0
}

# rtp_load_rounds: "KIND ROUNDS FAILED" per line, from RTP_LOAD_MARKS:
# the rounds completed and those whose command failed (a round cut by the
# stop is neither).
rtp_load_rounds() {
	for _k in $(cd "${RTP_LOAD_MARKS:-/nonexistent}" 2>/dev/null && ls load.* failed.* 2>/dev/null |
		sed 's/^[a-z]*\.//' | sort -u); do
		_n=0 _x=0
		[ -f "$RTP_LOAD_MARKS/load.$_k" ] && _n=$(wc -l <"$RTP_LOAD_MARKS/load.$_k" | tr -d ' ')
		[ -f "$RTP_LOAD_MARKS/failed.$_k" ] && _x=$(wc -l <"$RTP_LOAD_MARKS/failed.$_k" | tr -d ' ')
		echo "$_k $_n $_x"
	done
	# stress-ng's parts: bogo ops per stressor; one that left no metrics failed
	for _l in "${RTP_LOAD_MARKS:-/nonexistent}"/stress-ng.*.log; do
		[ -f "$_l" ] || continue
		_y=${_l%.log}.yaml
		if [ -f "$_y" ]; then
			awk '/- stressor:/ { s = $3; gsub(/[^a-z]/, "", s) }
			     /bogo-ops:/ && s != "" { print "stressng_" s, $2, 0; s = "" }' "$_y"
		else
			_s=${_l##*/stress-ng.}
			echo "stressng_${_s%.log} 0 1"
		fi
	done
	return 0
}

# rtp_json_str TEXT: TEXT as a JSON string literal (backslash, quote,
# newline, tab and carriage return escaped), for the runners' JSON files.
rtp_json_str() {
	_js=$1
	_js=${_js//\\/\\\\}; _js=${_js//\"/\\\"}
	_js=${_js//$'\n'/\\n}; _js=${_js//$'\t'/\\t}; _js=${_js//$'\r'/\\r}
	printf '"%s"' "$_js"
}

# _rtp_load_counted KIND: what one round of KIND is.
_rtp_load_counted() {
	case $1 in
	hackbench) echo "hackbench runs (${RTP_HACKBENCH_ARGS:--g 4 -l 2000})" ;;
	dd) echo "16 MiB written to a file (dd, 64 KiB blocks) and removed" ;;
	find) echo "walks of / and /sys (find -xdev)" ;;
	drop_caches) echo "page cache drops, 1 s apart" ;;
	cpu) echo "10000-step shell loops" ;;
	stressng_*) echo "stress-ng ${1#stressng_} bogo ops (stress-ng's own unit of work)" ;;
	*) echo "rounds" ;;
	esac
}

# rtp_load_work_json LOAD WHERE INTERVAL_S: the "load_work" value of
# suite.json and vm.json from rtp_load_rounds' lines on stdin (a guest's
# file is anyone's text: only [a-z_] kinds and digit counts are taken):
# what each part of the load did, per second of the interval it ran.
# A part that never completed a round says why, with no rate; the value is
# null with no load.  Host and guest loads are different programs.
rtp_load_work_json() {
	_l=$1 _w=$2 _t=$3 _sep=
	case $_t in ''|*[!0-9.]*|*.*.*|.*|*.) _t= ;; esac
	[ ${#_t} -le 15 ] || _t=
	if [ "$_l" = none ]; then
		cat >/dev/null
		echo null
		return 0
	fi
	printf '{ "where": %s, "load": %s, "interval_s": %s,\n' "$(rtp_json_str "$_w")" "$(rtp_json_str "$_l")" "${_t:-null}"
	printf '    "note": "what the %s load did beside the benches; a %s load is not the same program as a %s one: never compared",\n' \
		"$_w" "$_w" "$([ "$_w" = guest ] && echo host || echo guest)"
	printf '    "parts": ['
	while read -r _k _n _x _rest; do
		case $_k in ''|*[!a-z_]*) continue ;; esac
		case $_n in ''|*[!0-9]*) continue ;; esac
		case $_x in ''|*[!0-9]*) _x=0 ;; esac
		[ ${#_n} -le 15 ] && [ ${#_x} -le 15 ] || continue	# a count, not anyone's digits
		printf '%s\n      { "kind": "%s", "counted": %s, "rounds": %s, "failed": %s, ' "$_sep" "$_k" \
			"$(rtp_json_str "$(_rtp_load_counted "$_k")")" "$_n" "$_x"
		if [ "$_n" -gt 0 ] && [ -n "$_t" ]; then
			printf '"per_s": %s }' "$(awk -v n="$_n" -v t="$_t" 'BEGIN { printf "%.4g", (t > 0 ? n / t : 0) }')"
		elif [ "$_n" -gt 0 ]; then
			printf '"per_s": null, "why": "the interval is unknown" }'
		elif [ "$_x" -gt 0 ]; then
			printf '"per_s": null, "why": "every round failed (%s)" }' "$_x"
		else
			printf '"per_s": null, "why": "no round completed in the interval" }'
		fi
		_sep=,
	done
	if [ -n "$_sep" ]; then
		printf '\n    ] }\n'
	else
		printf '],\n    "why": "no part of the load reported a count: it never started, or the run ended before it could say" }\n'
	fi
}
