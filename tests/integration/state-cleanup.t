#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# State left behind (docs/security.md): `rtproof run` killed by
# SIGKILL, or by SIGQUIT sent to its process group (Ctrl-\), leaves none
# of its load generators or benches running; `rtproof cleanup` on planted
# state files (a fake tracefs tree) restores a dead run's settings, leaves
# a live run's alone and refuses a path outside the allowed roots.
. "$(dirname "$0")/tap.sh"

# ---- load generators die with the runner --------------------------------
# Every process the run starts carries the mark in its environment.
marked() {
	grep -lsxzF "$mark" /proc/[0-9]*/environ 2>/dev/null | while IFS= read -r f; do
		p=${f#/proc/}; p=${p%/environ}
		printf '%s(%s) ' "$p" "$(cat "/proc/$p/comm" 2>/dev/null)"
	done
}
# wait_for COND SECONDS: polls COND every 0.1 s
wait_for() {
	_i=0
	while [ $_i -lt $(($2 * 10)) ]; do
		eval "$1" && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}
has_load() { marked | grep -q 'stress-ng'; }

kill_run() {	# kill_run SIG TARGET_DESC: start a run, kill it, count what is left
	mark=RTPROOF_STATE_T=$$.$1.$(date +%s%N)
	# (a job started with & ignores SIGINT and SIGQUIT: their defaults back, as
	# in a terminal's foreground)
	env --default-signal=INT,QUIT "$mark" setsid "$RTPROOF_ROOT/scripts/rtproof" run --benches cyclic --duration 30s \
		--load cpu --out "$TMP/run-$1" >"$TMP/run-$1.out" 2>&1 &
	pid=$!
	if ! wait_for has_load 15; then
		ok 1 "rtproof run started its load before SIG$1 (nothing marked: $(marked))"
		kill -KILL -"$pid" 2>/dev/null
		return
	fi
	ok 0 "rtproof run started its load: $(marked)"
	sleep 0.5
	case $1 in
	KILL) kill -KILL "$pid" ;;		# the runner alone, as the OOM killer would
	QUIT) kill -QUIT -"$pid" ;;		# its group, as Ctrl-\ does
	esac
	wait_for '[ -z "$(marked)" ]' 10
	left=$(marked)
	[ -z "$left" ]
	ok $? "after SIG$1 nothing of the run is left running (${left:-none})"
	[ -z "$left" ] || for p in $left; do kill -KILL "${p%%(*}" 2>/dev/null; done
	wait "$pid" 2>/dev/null
}
if command -v setpriv >/dev/null && setpriv --pdeathsig KILL true 2>/dev/null; then
	kill_run KILL
else
	skip "SIGKILL: load generators die with the runner" "setpriv --pdeathsig (util-linux) not here"
fi
kill_run QUIT
sed 's/^/# run: /' "$TMP/run-QUIT.out" | tail -n 5
grep -q 'interrupted' "$TMP/run-QUIT.out"
ok $? "SIGQUIT: the runner says it was interrupted ($(grep -m1 interrupted "$TMP/run-QUIT.out"))"

# ---- rtproof cleanup on planted state files -----------------------------
fake=$TMP/tracing
sd=$TMP/state
mkdir -p "$fake/instances" "$sd" "$TMP/outside"
chmod 700 "$sd"
echo timerlat >"$fake/current_tracer"
echo 1 >"$fake/tracing_on"
echo precious >"$TMP/outside/victim"
dead_pid() { sh -c 'echo $$'; }
plant() {	# plant PID LINES...
	_p=$1; shift
	{ printf 'rtproof-state 1\npid %s\nstart 0\n' "$_p"; printf '%s\n' "$@"; } >"$sd/$_p.state"
	chmod 600 "$sd/$_p.state"
}
d=$(dead_pid)
mkdir "$fake/instances/rtproof-explain-$d"
plant "$d" "write $fake/current_tracer nop" "write $fake/tracing_on 0" \
	"rmdir $fake/instances/rtproof-explain-$d"
# a live run: its pid alive and its state file locked
sleep 60 &
live=$!
plant "$live" "write $fake/tracing_on 0"
flock -o "$sd/$live.state" sleep 60 &
locker=$!
wait_for "! flock -n '$sd/$live.state' true" 5

cleanup() { rtproof cleanup --state-dir "$sd" --test-root "$fake" >"$TMP/c.out" 2>"$TMP/c.err"; }
cleanup
rc=$?
sed 's/^/# out: /' "$TMP/c.out"
sed 's/^/# err: /' "$TMP/c.err"
[ $rc -eq 0 ]
ok $? "rtproof cleanup: exit 0 ($rc)"
grep -qxF "restored $fake/current_tracer to 'nop' (left by pid $d)" "$TMP/c.out"
ok $? "says: restored $fake/current_tracer to 'nop' (left by pid $d)"
grep -qxF "removed tracing instance $fake/instances/rtproof-explain-$d (left by pid $d)" "$TMP/c.out"
ok $? "says it removed the dead run's instance"
[ "$(cat "$fake/current_tracer")" = nop ] && [ "$(cat "$fake/tracing_on")" = 0 ] &&
	[ ! -e "$fake/instances/rtproof-explain-$d" ] && [ ! -e "$sd/$d.state" ]
ok $? "the dead run's settings are back, its instance and state file gone"
grep -q "pid $live still runs" "$TMP/c.out" && [ -e "$sd/$live.state" ]
ok $? "the live run is left alone, and said so"

echo 1 >"$fake/tracing_on"
pkill -P "$locker" 2>/dev/null
kill "$locker" "$live" 2>/dev/null
wait "$locker" "$live" 2>/dev/null
cleanup
grep -qxF "restored $fake/tracing_on to '0' (left by pid $live)" "$TMP/c.out" && [ "$(cat "$fake/tracing_on")" = 0 ]
ok $? "once it has ended, its setting is restored ($(head -1 "$TMP/c.out"))"

d=$(dead_pid)
plant "$d" "write $TMP/outside/victim pwned" "write /etc/hostname pwned"
cleanup
rc=$?
sed 's/^/# err: /' "$TMP/c.err"
[ $rc -eq 1 ] && [ "$(cat "$TMP/outside/victim")" = precious ] && grep -q "refused $TMP/outside/victim" "$TMP/c.err"
ok $? "a state file naming paths outside the roots is refused, exit 1 ($rc), nothing written"

chmod 777 "$sd"
d=$(dead_pid)
echo timerlat >"$fake/current_tracer"
plant "$d" "write $fake/current_tracer nop"
cleanup
rc=$?
[ $rc -eq 1 ] && [ "$(cat "$fake/current_tracer")" = timerlat ]
ok $? "a state directory others may write is not trusted (exit $rc: $(cat "$TMP/c.err"))"
chmod 700 "$sd"

rtproof cleanup --state-dir "$TMP/none" >"$TMP/c.out" 2>&1
ok $? "no state directory: nothing to do ($(cat "$TMP/c.out"))"
done_testing
