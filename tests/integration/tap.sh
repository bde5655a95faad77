# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers for the shell integration tests (sourced, not run).
# The Makefile sets RTPROOF_BIN (the built programs) and RTPROOF_ROOT.
: "${RTPROOF_ROOT:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${RTPROOF_BIN:=$RTPROOF_ROOT/build/bin}"
PATH=$RTPROOF_BIN:$PATH
export RTPROOF_BIN RTPROOF_ROOT PATH
_tap_n=0
_tap_fail=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rtproof-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

ok() {	# ok COND_EXIT_STATUS DESCRIPTION
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_fail=$((_tap_fail + 1))
	fi
}
check() {	# check DESCRIPTION COMMAND...: ok when the command succeeds
	_d=$1; shift
	"$@"
	ok $? "$_d"
}
skip() {	# skip DESCRIPTION REASON
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}
diag() { echo "# $*"; }
done_testing() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}
# jq_ok FILE FILTER: the filter yields true
jq_ok() { jq -e "$2" "$1" >/dev/null 2>&1; }
# host_stall_us [CPU]: rule (b) of tests/README.md. This host's own worst
# stall just now, in us: the max of a 1 s rtproof-cyclic run (FIFO 95,
# 1 ms interval, on CPU, default 0) with nothing planted. A test that
# asserts a host latency plants an effect >= 10x this and prints both.
host_stall_us() {
	_hs=$(mktemp "$TMP/stall.XXXXXX")
	if rtproof-cyclic -t 1 -a "${1:-0}" -i 1000 -D 1s -q --json "$_hs" >/dev/null 2>&1; then
		jq '(.metrics[0].max + 999) / 1000 | floor' "$_hs"
	else
		echo 0
	fi
	rm -f "$_hs"
}
# now_ms: milliseconds of a monotonic-enough clock (date +%s%N where date
# knows %N; busybox's in the guest does not: /proc/uptime, 10 ms steps).
now_ms() {
	_n=$(date +%s%N)
	case $_n in
	*[!0-9]*) awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime ;;
	*) echo $((_n / 1000000)) ;;
	esac
}

# drop CMD...: CMD as nobody, no groups, no capabilities (needs root)
drop() { setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all "$@"; }
# need_nobody PROG: the whole test skips unless this is root with setpriv
# and nobody can run PROG; $TMP is opened to nobody
need_nobody() {
	if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
		skip "unprivileged run" "needs root and setpriv to drop privileges"
		done_testing
		exit
	fi
	chmod 777 "$TMP"
	if ! drop test -x "$1"; then
		skip "unprivileged run" "the build directory is not readable by nobody"
		done_testing
		exit
	fi
}

# stop_wait SIG PID: sends SIG to PID and waits for it; sets rc (its exit
# status) and ms (how long it took to end, in milliseconds)
stop_wait() {
	kill -"$1" "$2"
	_t0=$(date +%s%N)
	wait "$2"
	rc=$?
	ms=$(( ($(date +%s%N) - _t0) / 1000000 ))
}

# await_rt PID [SECONDS]: waits (default 30 s) until a thread of PID runs
# SCHED_FIFO or SCHED_RR, that is the run is measuring; 1 when it never
# did. A signal sent after a fixed sleep can land, on a loaded host or
# under a sanitizer, before the first sample: that run honestly ends
# "no samples were taken" (exit 1), which is not the stop being tested.
await_rt() {
	_n=$(( ${2:-30} * 20 ))
	while [ $_n -gt 0 ] && kill -0 "$1" 2>/dev/null; do
		for _s in /proc/"$1"/task/*/stat; do
			# policy: field 41, the 39th after the ")" that ends comm
			_p=$(sed 's/.*) //' "$_s" 2>/dev/null | cut -d' ' -f39)
			case $_p in 1|2) return 0 ;; esac
		done
		sleep 0.05
		_n=$((_n - 1))
	done
	return 1
}
# stop_measuring SIG PID: once PID measures (await_rt), half a second
# later, sends SIG and waits; sets rc (its exit status)
stop_measuring() {
	await_rt "$2" || diag "no SCHED_FIFO thread of $2 within 30 s"
	sleep 0.5
	kill -"$1" "$2"
	wait "$2"
	rc=$?
}
