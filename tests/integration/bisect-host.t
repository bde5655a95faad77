#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=serial
# rtproof bisect on this host (issue 30, "done when"): a generated history
# of 8 commits whose step runs rtproof-cyclic for about a second on CPU 0,
# beside a FIFO-99 spinner (rtp-spin) from commit 5 on.  Rule (b) of
# tests/README.md: the planted stall is at least 50 ms and at least 10x
# this host's own worst stall measured just before; both are printed.  The
# bisect names commit 5, and every step's verdict is the truth (no false
# step).  The effect line follows the figure with the largest ratio between
# GOOD and BAD: the max, or a p99 or p99.9 the stall's samples reached (seen:
# max x9.1 to x17, p99 x4.5 to x323); it must be a tail figure of CPU 0 at
# least 2x worse, not a fixed ratio the host's own stalls on the good side
# can eat.  About 5 s a step, 4 steps.  When it fails and GOOD's own runs
# show the host stalling past a tenth of the plant mid-bisect (the
# premise of rule (b) broken: 50 ms in a fresh-clone run once, against
# 8.9 ms sampled before), it runs once more, and skips with both figures
# if the second attempt fails with the host as noisy.
. "$(dirname "$0")/tap.sh"
BISECT=$RTPROOF_ROOT/scripts/rtproof-bisect
for p in rtproof-cyclic rtp-spin rtproof-compare; do
	[ -x "$RTPROOF_BIN/$p" ] || { echo "1..0 # SKIP $p not built"; exit 0; }
done
[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP needs root (FIFO priorities)"; exit 0; }
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "1..0 # SKIP needs 2 CPUs"; exit 0; }

m=$(host_stall_us 0)
s=$(( (m * 10 + 999) / 1000 ))
[ "$s" -ge 50 ] || s=50
diag "this host's own worst stall just now: $m us; planted: $s ms"
if [ "$m" -eq 0 ] || [ "$s" -gt 200 ]; then
	skip "bisect beside a planted stall" "the host stalls $m us now: 10x that ($s ms) leaves no room in a short step"
	done_testing; exit
fi
every=$(( s * 2 < 100 ? 100 : s * 2 ))
dur=$(( every * 6 < 1000 ? 1000 : every * 6 ))
diag "step: rtproof-cyclic -t 1 -a 0 -i 1000 -D ${dur}ms; from commit 5 on, rtp-spin ${s} ms every ${every} ms on CPU 0"

git init -q "$TMP/r" && git -C "$TMP/r" config user.email t@example.org && git -C "$TMP/r" config user.name t ||
	echo "not ok - git init"
for i in 1 2 3 4 5 6 7 8; do
	if [ $i -ge 5 ]; then echo "${s}ms"; else echo 0; fi >"$TMP/r/stall"
	git -C "$TMP/r" add stall && git -C "$TMP/r" commit -qm "commit $i" --allow-empty || echo "not ok - commit"
done
cat >"$TMP/step" <<EOF
#!/bin/sh
s=\$(cat stall)
[ "\$s" = 0 ] || rtp-spin --cpu 0 --prio 99 --spin "\$s" --every ${every}ms --delay $((every / 2))ms \
	--duration $((dur + 100))ms >/dev/null 2>&1 &
rtproof-cyclic -q -t 1 -a 0 -i 1000 -D ${dur}ms >/dev/null
rc=\$?
wait
exit \$rc
EOF
chmod +x "$TMP/step"
git -C "$TMP/r" status --porcelain >"$TMP/before"; git -C "$TMP/r" worktree list >>"$TMP/before"
k=$(git -C "$TMP/r" rev-parse HEAD~3)
# bisect OUT: the run, its output in OUT.txt; 0 when it named commit 5
# with a tail effect of x2 or more and no false step
bisect() {
	"$BISECT" --repo "$TMP/r" --good HEAD~7 --bad HEAD --runs 2 --max-runs 6 --out "$1" -- "$TMP/step" >"$1.txt" 2>&1
	rc=$?
	sed 's/^/# /' "$1.txt"
	named=1 truth=1
	[ $rc -eq 0 ] && grep -q "^first bad commit: $k commit 5$" "$1.txt" &&
		grep -Eq '^effect: cyclic wakeup_latency cpu 0 thread 0 (max|p99(\.9+)?) x[0-9]' "$1.txt" &&
		awk '/^effect: /{ r = $9; sub(/^x/, "", r); exit !(r + 0 >= 2) }' "$1.txt" && named=0
	jq -e '[.steps[] | select(.step > 0)] | length >= 2 and
		all(.[]; (.subject | ltrimstr("commit ") | tonumber) as $n | .verdict == (if $n >= 5 then "bad" else "good" end))' \
		"$1/bisect.json" >/dev/null 2>&1 && truth=0
	[ $named -eq 0 ] && [ $truth -eq 0 ]
}
# GOOD's own worst wake-up over the bisect, in us: the host's stalls
# during it (the rule's premise is that they stay under a tenth of the plant)
good_max_us() {
	cat "$1"/step-*/good-*/*.json 2>/dev/null |
		jq -n '[inputs | .metrics[]? | select(.name == "wakeup_latency") | .max] | max // 0 | . / 1000 | floor'
}
attempt=1
if ! bisect "$TMP/o"; then
	g=$(good_max_us "$TMP/o")
	diag "attempt 1 failed; GOOD's own worst wake-up during it: $g us (the plant: ${s} ms)"
	if [ "$g" -gt $((s * 100)) ]; then
		# the host stalled past a tenth of the plant mid-bisect: the premise
		# of rule (b) broke, not the bisect; once more
		attempt=2
		bisect "$TMP/o2"
		g2=$(good_max_us "$TMP/o2")
		if [ $named -ne 0 ] || [ $truth -ne 0 ]; then
			if [ "$g2" -gt $((s * 100)) ]; then
				skip "bisect beside a planted stall" "this host stalled ${g} us and ${g2} us in GOOD's own runs, over a tenth of the ${s} ms plant, in both attempts"
				skip "no false step" "as above"
				git -C "$TMP/r" status --porcelain >"$TMP/after"; git -C "$TMP/r" worktree list >>"$TMP/after"
				cmp -s "$TMP/before" "$TMP/after"
				ok $? "the repository as it was"
				done_testing; exit
			fi
		fi
		o=$TMP/o2
	fi
fi
o=${o:-$TMP/o}
ok $named "a ${s} ms stall from commit 5 on, against this host's own $m us: commit 5 named, its effect a tail figure (max or p99 and up) at least x2 (attempt $attempt, exit $rc)"
ok $truth "no false step: every revision's verdict is its truth ($(jq -r '[.steps[] | "\(.subject): \(.verdict)"] | join(", ")' "$o/bisect.json" 2>/dev/null))"
git -C "$TMP/r" status --porcelain >"$TMP/after"; git -C "$TMP/r" worktree list >>"$TMP/after"
cmp -s "$TMP/before" "$TMP/after"
ok $? "the repository as it was"
done_testing
