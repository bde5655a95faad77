#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# Stop signals at random moments (docs/reliability.md): SIGINT, SIGTERM or
# SIGHUP sent to each bench at a random time from its first instruction to
# past its natural end, so start-up, measuring and teardown are all hit.
# Whatever the moment, either the process died of the signal before it
# created any file (the signal came before it blocked them), or it exited
# with its own status leaving a valid, complete document (verdict present,
# stopped_by "signal" with the signal's name when the signal stopped it),
# consistent where that holds, and no temporary file.
# SIGNAL_RUNS (default 20) kill points per bench; make bench-signals: 500.
. "$(dirname "$0")/tap.sh"
RUNS=${SIGNAL_RUNS:-20}
SIGS=(INT TERM HUP)

# Per bench: the command (JSON to $J, cyclic's histogram to $H), the latest
# kill point in ms (a little past the natural end), and the consistency check.
cmd_cyclic() { exec rtproof-cyclic -D 300ms -i 1000 -h 100 --histfile "$H" -q --json "$J"; }
cmd_irqlat() { exec rtproof-irqlat --source user -D 300ms -q --json "$J"; }
cmd_audio() { exec rtproof-audio -D 300ms -q --json "$J"; }
cmd_lockstress() { exec rtproof-lockstress --scenario percpu,pi-chain --iterations 1 -D 100ms -q --json "$J"; }
declare -A late=([cyclic]=450 [irqlat]=450 [audio]=500 [lockstress]=1500)
# Checks every complete document must pass, then by why it stopped.
consistent_cyclic='
	(.metrics[-1].count == ([.metrics[:-1][].count] | add)) and
	(.metrics[-1].missed == ([.metrics[:-1][].missed] | add)) and
	if .events.stopped_by == "duration" then
		all(.metrics[:-1][]; .count + .missed == 301)
	else all(.metrics[:-1][]; .count + .missed <= 301) end'
consistent_irqlat='all(.metrics[]; .count >= 0)'
# One lateness and one margin sample per wake-up that was not spurious (an
# xrun's wake-up included: docs/audio.md); one work-time sample per wake-up
# that went on to write (all but those that found an xrun waiting), and one
# period written per such wake-up unless its write found an xrun (a wake-up
# after a recovery may write more than one).
consistent_audio='.events as $e | ($e.wakeups - $e.spurious_wakeups) as $w |
	(.metrics[] | select(.name == "wakeup_lateness") | .count) == $w and
	(.metrics[] | select(.name == "buffer_margin") | .count) == $w and
	(.metrics[] | select(.name == "work_time") | .count) as $k |
	$k <= $w and $k >= $w - $e.xruns and $e.periods_written >= $k - $e.xruns'
consistent_lockstress='.events.abandoned_threads == 0'
# A run stopped before it measured anything may say "error" (exit 1): still complete.
complete='.schema == "rtproof/1" and (.verdict.status | IN("pass", "figures only", "fail", "skip", "error")) and
	(.verdict.reason | type) == "string" and (.duration_s | type) == "number" and
	(.events.stopped_by | type) == "string"'

for b in cyclic irqlat audio lockstress; do
	declare -A tally=()
	bad=0
	for i in $(seq 1 "$RUNS"); do
		d=$TMP/$b.$i
		mkdir -p "$d"
		J=$d/doc.json H=$d/hist.txt
		sig=${SIGS[RANDOM % 3]}
		ms=$(( (RANDOM * 32768 + RANDOM) % ${late[$b]} ))
		"cmd_$b" >"$d/out" 2>"$d/err" &
		pid=$!
		sleep "$(printf '0.%03d' "$ms")"
		kill -s "$sig" $pid 2>/dev/null
		wait $pid
		rc=$?
		what=
		if [ $rc -gt 128 ]; then
			# Died of the signal: only before anything was created.
			if [ -z "$(ls -A "$d" | grep -v '^out$\|^err$')" ] &&
			   [ "$(kill -l $((rc - 128)))" = "$sig" ]; then
				what="killed by SIG$sig before start"
			else
				what="BAD: killed (rc $rc) leaving $(ls -A "$d" | sed "s/\.tmp\..*/.tmp.X/" | tr "\n" " ")"
			fi
		elif ls -A "$d" | grep -q '\.tmp\.'; then
			what="BAD: temporary file left (rc $rc)"
		elif [ ! -e "$J" ]; then
			what="BAD: exit $rc without a document"
		elif ! jq -e "$complete" "$J" >/dev/null 2>&1; then
			what="BAD: exit $rc, document invalid or incomplete"
		else
			cv=consistent_$b
			stop=$(jq -r .events.stopped_by "$J")
			if [ "$stop" = signal ] && ! jq -e --arg s "$sig" '.events.signal == ("SIG" + $s) or .events.signal == $s' "$J" >/dev/null; then
				what="BAD: stopped_by signal, another signal named"
			elif ! jq -e "${!cv}" "$J" >/dev/null 2>&1; then
				what="BAD: stopped by $stop, counts inconsistent"
			elif [ $b = cyclic ] && ! grep -q '^# Max Latencies:' "$H"; then
				what="BAD: stopped by $stop, histogram file incomplete"
			elif [ "$rc" -ne "$(jq -r '.verdict.status | {"pass":0,"figures only":0,"fail":2,"skip":4,"error":1}[.]' "$J")" ]; then
				what="BAD: exit $rc does not match the verdict"
			else
				what="complete, stopped by $stop"
			fi
		fi
		tally[$what]=$(( ${tally[$what]:-0} + 1 ))
		case $what in BAD*)
			bad=$((bad + 1))
			diag "$b run $i: SIG$sig at ${ms} ms: $what"
			sed 's/^/#   /' "$d/err" | head -n 5
			[ -s "$J" ] && jq -c '{verdict: .verdict.status, events: (.events | del(.xrun_list)),
				counts: [.metrics[] | {name, count, missed}]}' "$J" 2>/dev/null | cut -c1-600 | sed 's/^/#   /' ;;
		*) rm -rf "$d" ;;
		esac
	done
	for k in "${!tally[@]}"; do diag "$b: ${tally[$k]} x $k"; done
	ok $bad "$b: $RUNS random SIGINT/SIGTERM/SIGHUP kill points, every outcome clean ($bad bad)"
	unset tally
done
done_testing
