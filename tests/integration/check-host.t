#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof check on this machine: what it says must agree with what the
# kernel itself tells (uname -v, /sys/kernel/realtime, CPUID, /proc/asound),
# its exit status with its own count of failures, in both profiles.
. "$(dirname "$0")/tap.sh"

rtproof check --json "$TMP/lat.json" >"$TMP/lat.txt" 2>"$TMP/lat.err"
rc=$?
sed "s/^/# /" "$TMP/lat.txt"
[ $rc -eq 0 ] || [ $rc -eq 2 ]; ok $? "rtproof check reaches rtproof-check: exit $rc"
jq_ok "$TMP/lat.json" '.schema == "rtproof/1" and .tool == "rtproof-check" and
	(.verdict.criteria | length) == 30 and .params.profile == "latency"'
ok $? "--json: rtproof/1, one criterion for each of the 30 checks"
jq_ok "$TMP/lat.json" '[.verdict.criteria[] | select(.status != "pass" and .status != "skip" and (.fix | type) != "string")] | length == 0'
ok $? "every warn and fail carries a fix line"
fails=$(jq '[.verdict.criteria[] | select(.status == "fail")] | length' "$TMP/lat.json")
{ [ "$fails" -gt 0 ] && [ $rc -eq 2 ] && jq_ok "$TMP/lat.json" '.verdict.status == "fail"'; } ||
	{ [ "$fails" -eq 0 ] && [ $rc -eq 0 ] && jq_ok "$TMP/lat.json" '.verdict.status == "pass"'; }
ok $? "exit $rc agrees with $fails failing checks"
n=$(grep -cE '^(pass|warn|fail|skip) ' "$TMP/lat.txt")
[ "$n" -eq 30 ]; ok $? "the table has a row per check ($n)"

status() { jq -r --arg id "$2" '.verdict.criteria[] | select(.name == $id) | .status' "$1"; }
seen() { jq -r --arg id "$2" '.verdict.criteria[] | select(.name == $id) | .seen' "$1"; }

# The preemption model, against the kernel's own word.
if [ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] || uname -v | grep -q PREEMPT_RT; then
	[ "$(status "$TMP/lat.json" preempt)" = pass ]; ok $? "PREEMPT_RT kernel: preempt passes"
else
	[ "$(status "$TMP/lat.json" preempt)" = fail ] && grep -q '^fail  kernel  preempt .*not PREEMPT_RT' "$TMP/lat.txt"
	ok $? "not PREEMPT_RT ($(uname -v)): preempt fails and says so"
	if uname -v | grep -q PREEMPT_DYNAMIC; then
		seen "$TMP/lat.json" preempt | grep -q "PREEMPT_DYNAMIC kernel in mode"
		ok $? "names PREEMPT_DYNAMIC and its mode: $(seen "$TMP/lat.json" preempt)"
	fi
fi
# Virtualisation, against CPUID.
if grep -qw hypervisor /proc/cpuinfo; then
	s=$(status "$TMP/lat.json" virt)
	{ [ "$s" = warn ] || [ "$s" = fail ]; } && seen "$TMP/lat.json" virt | grep -q "runs under a hypervisor"
	ok $? "CPUID hypervisor flag: virt $s: $(seen "$TMP/lat.json" virt)"
else
	skip "virtualisation named" "no hypervisor flag in /proc/cpuinfo"
fi
# The sound card, against /proc/asound.
if ! grep -q '^ *[0-9]' /proc/asound/cards 2>/dev/null; then
	[ "$(status "$TMP/lat.json" sound_cards)" = warn ] && seen "$TMP/lat.json" sound_cards | grep -q "no sound card"
	ok $? "no sound card: a warning in the latency profile"
	rtproof-check --profile audio --json "$TMP/audio.json" >"$TMP/audio.txt" 2>&1
	rc=$?
	[ $rc -eq 2 ] && [ "$(status "$TMP/audio.json" sound_cards)" = fail ]
	ok $? "no sound card: fails the audio profile, exit $rc"
else
	[ "$(status "$TMP/lat.json" sound_cards)" = pass ]; ok $? "a sound card: sound_cards passes"
fi
# Limits: the process's own, as the kernel reports them.
rt=$(awk '/^Max realtime priority/ {print $4}' /proc/self/limits)
seen "$TMP/lat.json" rtprio | grep -q "RLIMIT_RTPRIO: soft $rt"
ok $? "rtprio reads this process's limit ($rt): $(seen "$TMP/lat.json" rtprio)"

# --user: another user's limits come from the limits files.
if grep -q '^nobody:' /etc/passwd; then
	rtproof-check --user nobody --only rtprio,audio_group --profile audio --json "$TMP/nobody.json" >"$TMP/nobody.txt" 2>&1
	rc=$?
	seen "$TMP/nobody.json" rtprio | grep -Eq "^nobody RLIMIT_RTPRIO: .*(from the limits files|the kernel's default)"
	ok $? "--user nobody: limits from the files or the default, not this process: $(seen "$TMP/nobody.json" rtprio)"
	if ! id -nG nobody | grep -qw audio; then
		[ $rc -eq 2 ] && [ "$(status "$TMP/nobody.json" audio_group)" = fail ]
		ok $? "--user nobody, not in audio: fails the audio profile (exit $rc)"
	fi
fi

# --root: the same program on a tree, so the fixtures reach the front end too.
mkdir -p "$TMP/t/sys/kernel" "$TMP/t/proc/sys/kernel"
echo 1 >"$TMP/t/sys/kernel/realtime"
echo 6.1.0-rt-test >"$TMP/t/proc/sys/kernel/osrelease"
rtproof-check --root "$TMP/t" --only preempt >"$TMP/t.txt" 2>&1
ok $? "--root with /sys/kernel/realtime 1: exit 0 ($(grep preempt "$TMP/t.txt"))"
echo 0 >"$TMP/t/sys/kernel/realtime"
echo '#1 SMP PREEMPT_DYNAMIC' >"$TMP/t/proc/sys/kernel/version"
rtproof-check --root "$TMP/t" --only preempt >"$TMP/t.txt" 2>&1
[ $? -eq 2 ]; ok $? "--root with /sys/kernel/realtime 0: exit 2 ($(grep preempt "$TMP/t.txt"))"
rtproof-check --root "$TMP/t" --only preempt --json - 2>/dev/null | jq -e '.system.root and .verdict.status == "fail"' >/dev/null
ok $? "--json -: the document on stdout, the tree's system, not this machine's"

bad() {	# bad DESCRIPTION EXPECTED-TEXT ARGS...
	d=$1 want=$2; shift 2
	rm -f "$TMP/bad.json"
	rtproof-check "$@" --json "$TMP/bad.json" >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/stderr")" -eq 1 ] && grep -q -- "$want" "$TMP/stderr" &&
		[ ! -e "$TMP/bad.json" ] && ! ls "$TMP" | grep -q '\.tmp\.'
	ok $? "$d: exit $rc: $(cat "$TMP/stderr")"
}
bad "--profile bogus" "rtproof-check: error: --profile bogus: profile must be latency or audio" --profile bogus
bad "--user unknown" "error: --user no-such-user-x: no such user" --user no-such-user-x
bad "--root missing" "error: --root /nonexistent/x:" --root /nonexistent/x
bad "--only unknown" "error: --only preempt,bogus: no check named bogus" --only preempt,bogus
bad "--cpus bad" "error: --cpus 1-x:" --cpus 1-x
bad "--audio-prio 0" "error: --audio-prio 0: priority must be 1..99" --audio-prio 0
bad "unknown option" "--frobnicate: unknown option" --frobnicate
rtproof-check --json /nonexistent/dir/c.json >/dev/null 2>"$TMP/stderr"
[ $? -eq 1 ] && grep -q "error: --json /nonexistent/dir/c.json: cannot create" "$TMP/stderr"
ok $? "unwritable --json: exit 1"
rtproof-check --list | grep -c . | grep -qx 30; ok $? "--list names the 30 checks"
done_testing
