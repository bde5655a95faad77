#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel uses=tracefs,timerlat
# rtproof-irqlat's timerlat source against a tracefs made of plain files
# (--tracefs DIR): this host has no timerlat tracer, so what the source does
# with the tracefs files, its errors and its documents are checked here, the
# tracer itself in the VM (vm-irqlat.t, vm-timerlat-user.t).  trace_pipe is
# a file of ready-made lines; the run ends by -l at its last sample.  A
# file that reads but refuses writes is a symbolic link to /dev/full (never
# read it whole: it does not end).
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/fake-tracefs.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
P=rtproof-irqlat


T=$TMP/tfs
fake_tracefs "$T" noise
$P --source timerlat --tracefs "$T" --osnoise -p 0 -l 3 -D 5s -q --json "$TMP/ok.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ]; then
	skip "the timerlat source on a tracefs of files" "$(head -1 "$TMP/err")"
	done_testing
	exit
fi
[ $rc -eq 0 ] && jq_ok "$TMP/ok.json" '.events.records == 3 and .osnoise.recorded == true
	and (.osnoise.cpus[0] | .cpu == 0 and .irq.count == 1 and .irq.max_ns == 2000)'
ok $? "--osnoise: three records, the irq noise event counted (exit $rc)"
[ "$(cat "$T/current_tracer")" = nop ] &&
	[ "$(cat "$T/events/osnoise/irq_noise/enable" "$T/events/osnoise/thread_noise/enable" | tr -d '\n')" = 00 ]
ok $? "  the tracer and the events' enable put back"

# One event's enable refuses the write: the noise is not recorded (the
# document must not say 0 for a kind it did not record), and the events
# enabled before it are put back.
fake_tracefs "$T" noise
rm "$T/events/osnoise/softirq_noise/enable"
ln -s /dev/full "$T/events/osnoise/softirq_noise/enable"
$P --source timerlat --tracefs "$T" --osnoise -p 0 -l 3 -D 5s --json "$TMP/part.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
diag "osnoise: $(jq -c '.osnoise | {recorded, reason}' "$TMP/part.json" 2>/dev/null)"
[ $rc -eq 0 ] && jq_ok "$TMP/part.json" '.osnoise.recorded == false and (.osnoise.reason | test("softirq_noise"))
	and (.osnoise | has("cpus") | not)' && grep -q "^osnoise: not available: .*softirq_noise" "$TMP/out"
ok $? "one event cannot be enabled: osnoise not recorded, the document and the summary say why (exit $rc)"
[ "$(cat "$T/events/osnoise/nmi_noise/enable" "$T/events/osnoise/irq_noise/enable" | tr -d '\n')" = 00 ] &&
	! grep -q "could not be restored" "$TMP/err"
ok $? "  the events enabled before it are put back, the one never changed is left alone"
# timerlat_fd offered, each CPU's a FIFO fed a byte every 10 ms (a period):
# the user threads run at --irq-prio's priority, and the document says so.
F=$TMP/f
fake_tracefs "$F" noise
mkdir -p "$F/osnoise/per_cpu/cpu0" "$F/osnoise/per_cpu/cpu1"
mkfifo "$F/osnoise/per_cpu/cpu0/timerlat_fd" "$F/osnoise/per_cpu/cpu1/timerlat_fd"
echo "OSNOISE_WORKLOAD" >"$F/osnoise/options"
exec 3<>"$F/osnoise/per_cpu/cpu0/timerlat_fd" 4<>"$F/osnoise/per_cpu/cpu1/timerlat_fd"
(for i in $(seq 1 1000); do printf x >&3; printf x >&4; sleep 0.01; done) &
feeder=$!
timeout 30 $P --source timerlat --tracefs "$F" -p 0 --irq-prio 50 -l 3 -D 5s -q \
	--json "$TMP/f.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
kill $feeder 2>/dev/null
wait $feeder 2>/dev/null
exec 3>&- 4>&-
diag "params: $(jq -c '{user_threads: .params.user_threads, prio: .params.irq_thread.priority}' "$TMP/f.json" 2>/dev/null)"
[ $rc -eq 0 ] && jq_ok "$TMP/f.json" '.params.workload == "user threads (timerlat_fd)"
	and .params.irq_thread.name == "timerlatu/0" and .params.irq_thread.priority == 50
	and .params.user_threads == "one per CPU, pinned, SCHED_FIFO 50"'
ok $? "timerlat_fd user threads with --irq-prio 50: they ran at 50 and the document says 50 (exit $rc)"
grep -q "OSNOISE_WORKLOAD" "$F/osnoise/options" && [ "$(cat "$F/current_tracer")" = nop ]
ok $? "  osnoise/options and the tracer put back"

# timerlat_fd offered (user threads, one per CPU) and the second thread
# cannot start (another user, RLIMIT_NPROC 2, as thread-start.t): exit 1,
# one error line, no document, the tracefs files put back, no hang.  The
# thread that started reads a plain file (EOF at once) until it is stopped.
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || ! command -v prlimit >/dev/null ||
	[ "$(nproc)" -lt 2 ]; then
	skip "a timerlat_fd thread that cannot start" "needs root, setpriv, prlimit and 2 CPUs"
	done_testing
	exit
fi
U=$TMP/u
fake_tracefs "$U" noise
mkdir -p "$U/osnoise/per_cpu/cpu0" "$U/osnoise/per_cpu/cpu1"
: >"$U/osnoise/per_cpu/cpu0/timerlat_fd"
: >"$U/osnoise/per_cpu/cpu1/timerlat_fd"
echo "OSNOISE_WORKLOAD TIMERLAT_ALIGN" >"$U/osnoise/options"
chmod -R a+rwX "$TMP"
t0=$(date +%s)
timeout 30 prlimit --nproc=2:2 setpriv --reuid=64999 --regid=64999 --clear-groups \
	--inh-caps=+sys_nice --ambient-caps=+sys_nice \
	$RTPROOF_BIN/$P --source timerlat --tracefs "$U" -p 0 -l 3 -D 5s --no-mlockall -q \
	--json "$TMP/u.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
t1=$(date +%s)
sed 's/^/# /' "$TMP/err"
[ $rc -eq 1 ] && [ "$(grep -c 'error:' "$TMP/err")" -eq 1 ] &&
	grep -q "error: timerlat: timerlat_fd user threads: Resource temporarily unavailable" "$TMP/err" &&
	[ ! -e "$TMP/u.json" ] && ! ls "$TMP" | grep -q "u.json.tmp"
ok $? "a timerlat_fd thread that cannot start: exit 1 (got $rc) in $((t1 - t0)) s, one error line, no document"
[ "$(cat "$U/current_tracer")" = nop ] && grep -q "^OSNOISE_WORKLOAD" "$U/osnoise/options" &&
	[ "$(cat "$U/tracing_on")" = 1 ]
ok $? "  the tracer, osnoise/options and tracing_on put back"
done_testing
