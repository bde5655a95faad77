#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# Two rtproof runs on one thing (issue 23 item 6, docs/security.md):
#  - two `rtproof run` into one --out: the second fails at once with one
#    line naming the first's pid, exit 1; the first's files are complete;
#  - two kernel fetches on one cache: the second says who holds it and
#    waits, then finds the cache filled (no network: the "first fetch" is a
#    flock(1) holder that fills the cache by hand), or gives up after
#    RTPROOF_KERNEL_LOCK_WAIT seconds;
#  - the timerlat tracer: a run on a tracefs of plain files while the lock
#    is held fails at once, exit 1, and leaves the tracefs untouched.  The
#    real tracer's lock (/run/rtproof/timerlat.lock) needs a kernel with the
#    timerlat tracer: not on this host (the lock itself: test_runlock).
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/fake-tracefs.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
command -v flock >/dev/null || { echo "1..0 # SKIP flock(1) not installed"; exit 0; }
RUN=$RTPROOF_ROOT/scripts/rtproof-run
KERNEL=$RTPROOF_ROOT/scripts/rtproof-kernel

# wait_file FILE: up to 10 s for FILE to appear
wait_file() {
	local i
	for i in $(seq 1 100); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# ---- two runs into one result directory ----
O=$TMP/out
"$RUN" --benches cyclic --duration 3s --out "$O" >"$TMP/first.out" 2>&1 &
first=$!
if wait_file "$O/.rtproof-run.pid"; then
	t0=$(now_ms)
	"$RUN" --benches cyclic --duration 1s --out "$O" >"$TMP/second.out" 2>"$TMP/second.err"
	rc=$?
	ms=$(( $(now_ms) - t0 ))
	kill -0 $first 2>/dev/null
	still=$?	# the first still running: the second did not wait for it
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/second.err")" -eq 1 ] &&
		grep -qx "rtproof-run: error: $O is in use by another rtproof run (pid $first)" "$TMP/second.err" &&
		[ $still -eq 0 ]
	ok $? "a second rtproof run into the same --out fails at once, one line, exit 1 ($rc, ${ms} ms: $(head -c 200 "$TMP/second.err"))"
	[ ! -s "$TMP/second.out" ]
	ok $? "  and prints nothing else"
else
	ok 1 "the first run wrote its pid file ($(tail -n 3 "$TMP/first.out" | tr '\n' ' '))"
fi
wait $first
rc=$?
{ [ $rc -eq 0 ] || [ $rc -eq 4 ]; } &&
	jq_ok "$O/suite.json" '.complete == true and (.benches | length) == 1 and .benches[0].bench == "cyclic"' &&
	jq_ok "$O/cyclic.json" '.schema == "rtproof/1" and .params != null' &&
	jq_ok "$O/check.json" '.schema == "rtproof/1"' &&
	[ -z "$(find "$O" -maxdepth 1 -name '*.tmp.*' -o -maxdepth 1 -name '.suite.json.*')" ]
ok $? "the first run's files are complete: suite.json, cyclic.json, check.json, no temporary left (exit $rc)"
[ ! -e "$O/.rtproof-run.pid" ] && flock -n "$O" true
ok $? "  its lock is released and its pid file gone at its end"

# ---- two kernel fetches on one cache ----
if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
	skip "the kernel cache lock" "rtproof-kernel fetch needs apt-get and dpkg"
	skip "the kernel cache lock's time-out" "rtproof-kernel fetch needs apt-get and dpkg"
else
	C=$TMP/kcache
	mkdir -p "$C"
	# the "first fetch": holds the cache 2 s, then leaves stock-6.1 in it
	flock "$C" sh -c 'echo $$ >"$1/.fetch.pid"; sleep 2; mkdir -p "$1/stock-6.1" &&
		echo generation=6.1 >"$1/stock-6.1/info" && : >"$1/stock-6.1/vmlinux"' sh "$C" &
	holder=$!
	wait_file "$C/.fetch.pid"
	hp=$(cat "$C/.fetch.pid")
	t0=$(now_ms)
	RTPROOF_KERNEL_CACHE=$C RTPROOF_KERNEL_LOCK_WAIT=10 RTPROOF_DEBIAN_ARCHIVE=http://127.0.0.1:9/debian \
		timeout 15 "$KERNEL" fetch --if-missing --no-headers -q stock-6.1 >"$TMP/kf.out" 2>"$TMP/kf.err"
	rc=$?
	ms=$(( $(now_ms) - t0 ))
	wait $holder
	[ $rc -eq 0 ] && [ $ms -ge 1000 ] &&
		grep -q "the kernel cache $C is in use by another fetch (pid $hp): waiting for it" "$TMP/kf.err"
	ok $? "a second fetch says who holds the cache, waits, then finds it filled (exit $rc, ${ms} ms: $(tr '\n' ' ' <"$TMP/kf.err" | head -c 300))"

	# held by this shell now (fd 7), as a fetch would
	exec 7<"$C"
	flock -n 7
	echo $$ >"$C/.fetch.pid"
	hp=$$
	t0=$(now_ms)
	RTPROOF_KERNEL_CACHE=$C RTPROOF_KERNEL_LOCK_WAIT=1 RTPROOF_DEBIAN_ARCHIVE=http://127.0.0.1:9/debian \
		timeout 15 "$KERNEL" fetch --if-missing --no-headers -q stock-6.12 >"$TMP/kf2.out" 2>"$TMP/kf2.err"
	rc=$?
	ms=$(( $(now_ms) - t0 ))
	exec 7<&-
	[ $rc -eq 1 ] && [ $ms -lt 5000 ] &&
		[ "$(tail -n 1 "$TMP/kf2.err")" = "rtproof-kernel: error: the kernel cache $C is still in use by another fetch (pid $hp) after 1s" ]
	ok $? "RTPROOF_KERNEL_LOCK_WAIT=1: gives up after 1 s, one line naming the holder, exit 1 ($rc, ${ms} ms)"
	[ ! -e "$C/stock-6.12" ] && [ -z "$(find "$C" -name '.unpack.*' -o -name '.dl.*')" ]
	ok $? "  nothing written into the cache"
fi

# ---- the timerlat tracer ----
T=$TMP/tfs
fake_tracefs "$T"
export RTPROOF_RUN_DIR=$TMP/run
mkdir -m 0700 "$RTPROOF_RUN_DIR"
L=$RTPROOF_RUN_DIR/timerlat-$(stat -c '%d-%i' "$T").lock
# held by this shell (fd 7), its pid in the file, as a run would
exec 7<>"$L"
flock -n 7
echo $$ >"$L"
hp=$$
touch "$TMP/marker"
sleep 0.05
t0=$(now_ms)
rtproof-irqlat --source timerlat --tracefs "$T" --cpu 0 -p 0 -l 3 -D 5s -q --json "$TMP/tl.json" \
	>"$TMP/tl.out" 2>"$TMP/tl.err"
rc=$?
ms=$(( $(now_ms) - t0 ))
exec 7<&-
if [ $rc -eq 4 ]; then
	skip "the timerlat lock" "$(head -n 1 "$TMP/tl.err")"
	skip "the timerlat lock: the tracefs untouched" "as above"
	skip "the timerlat lock: free again" "as above"
else
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/tl.err")" -eq 1 ] && [ $ms -lt 3000 ] &&
		grep -qx "rtproof-irqlat: error: timerlat: the timerlat tracer ($T) is in use by another rtproof run (pid $hp)" "$TMP/tl.err"
	ok $? "timerlat held by another run: fails at once, one line naming its pid, exit 1 ($rc, ${ms} ms: $(head -c 200 "$TMP/tl.err"))"
	[ -z "$(find "$T" -newer "$TMP/marker")" ]
	ok $? "  the tracer's files untouched"
	rtproof-irqlat --source timerlat --tracefs "$T" -p 0 -l 3 -D 5s -q --json "$TMP/tl2.json" \
		>"$TMP/tl2.out" 2>"$TMP/tl2.err"
	rc=$?
	[ $rc -eq 0 ] && jq_ok "$TMP/tl2.json" '.events.records == 3' && [ ! -e "$L" ]
	ok $? "  the holder gone: a run takes the tracer, and frees the lock at its end, its file removed (exit $rc)"
fi
done_testing
