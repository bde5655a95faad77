#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# rtproof bisect (issue 30) on generated git histories whose step writes
# synthetic documents of known truth (tests/tools/rtp-mkdoc, the seed is
# the bisect's run count, so every run is the same on any machine): 10 s at
# 1 ms on 2 CPUs, no tail, no bursts, and from commit K on a 40 ms stall on
# CPU 0 every 2 s.  Found, GOOD and BAD alike, undecided, skip, a step's
# error, bad input; each time the repository as it was.  No host latency.
. "$(dirname "$0")/tap.sh"
BISECT=$RTPROOF_ROOT/scripts/rtproof-bisect

# mkrepo DIR N K [SKIP...]: N commits; commit i's file "stall" is the stall
# from commit K on ("-" for none), "once" at commit ONCE_AT; with NOISE_AT
# the documents have 4 CPUs, and "noise" is a smaller stall on CPUs 1-3 at
# the commits NOISE_AT lists; "skip" names the commits the step skips
mkrepo() {
	_d=$1 _n=$2 _k=$3; shift 3
	git init -q "$_d" && git -C "$_d" config user.email t@example.org && git -C "$_d" config user.name t || return 1
	for _i in $(seq 1 "$_n"); do
		if [ "$_k" != - ] && [ "$_i" -ge "$_k" ]; then echo 40ms; else echo 0; fi >"$_d/stall"
		[ "$_i" != "${ONCE_AT:-}" ] || echo once >"$_d/stall"
		echo "$_i" >"$_d/n"
		case " ${NOISE_AT:-} " in *" $_i "*) echo 5ms ;; *) : ;; esac >"$_d/noise"
		[ -z "${NOISE_AT:-}" ] || echo 4 >"$_d/cpus"
		: >"$_d/skip"
		for _s in "$@"; do [ "$_s" != "$_i" ] || echo skip >"$_d/skip"; done
		git -C "$_d" add -A && git -C "$_d" commit -qm "commit $_i: change $_i" || return 1
	done
}
# the step: one synthetic document per run, as a bench would leave it
cat >"$TMP/step" <<'EOF'
#!/bin/sh
[ -s skip ] && exit 125
s=$(cat stall) every=2s
# "once": one lone stall, in the revision's first run only
if [ "$s" = once ]; then
	s=0
	[ -e "$ONCE_DIR/$RTPROOF_BISECT_REV" ] || { : >"$ONCE_DIR/$RTPROOF_BISECT_REV"; s=40ms every=60s; }
fi
n=2
[ ! -s cpus ] || n=$(cat cpus)
set -- --seed "$RTPROOF_BISECT_RUN" --cpus "$n" --duration 10s --interval 1ms --tail-rate 0 --burst-rate 0 \
	--out "$RTPROOF_OUT/cyclic.json"
[ "$s" = 0 ] || set -- "$@" --stall "0:$s:$every:300ms"
[ ! -s noise ] || set -- "$@" --stall "1:$(cat noise):2s:300ms" --stall "2:$(cat noise):2s:300ms" \
	--stall "3:$(cat noise):2s:300ms"
exec rtp-mkdoc "$@"
EOF
chmod +x "$TMP/step"
ONCE_DIR=$TMP/once
mkdir "$ONCE_DIR" && export ONCE_DIR
# state DIR: everything of the repository a bisect must leave as it was
state() {
	git -C "$1" status --porcelain=v1 --untracked-files=all && git -C "$1" rev-parse HEAD &&
		git -C "$1" for-each-ref && git -C "$1" worktree list --porcelain && git -C "$1" stash list &&
		ls "$(git -C "$1" rev-parse --absolute-git-dir)/worktrees" 2>/dev/null
}
# dirty DIR: a staged change, an unstaged one and an untracked file
dirty() { echo staged >"$1/n" && git -C "$1" add n && echo unstaged >"$1/stall" && echo x >"$1/untracked"; }
sha() { git -C "$1" rev-parse "$2"; }

# ---- found: 12 commits, the stall from commit 7 ---------------------------------
mkrepo "$TMP/r1" 12 7 || echo "not ok - mkrepo failed"
dirty "$TMP/r1"
state "$TMP/r1" >"$TMP/s1.before"
"$BISECT" --repo "$TMP/r1" --good HEAD~11 --bad HEAD --out "$TMP/o1" -- "$TMP/step" >"$TMP/o1.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/o1.txt"
k=$(sha "$TMP/r1" HEAD~5)
[ $rc -eq 0 ] && grep -q "^first bad commit: $k commit 7: change 7$" "$TMP/o1.txt" &&
	grep -Eq '^effect: cyclic wakeup_latency .* max x[0-9]+ \([0-9.]+ us -> 40\.0 ms\)$' "$TMP/o1.txt"
ok $? "a stall from commit 7 on: found, named with its subject and its effect (exit $rc)"
jq -e --arg k "$k" '.schema == "rtproof-bisect/1" and .status == "found"
	and .first_bad.commit == $k and (.steps | length) >= 3
	and all(.steps[]; (.verdict == "bad") == (.figure | test("40.0 ms")))' "$TMP/o1/bisect.json" >/dev/null
ok $? "bisect.json: found, the commit, each step's verdict agrees with its figure"
grep -Eq '^step 1: [0-9a-f]{12} commit [0-9]+: change [0-9]+ \| max [0-9.]+ [mu]s x[0-9.]+ \| (good|bad) \| 3 run\(s\) a side, [0-9.]+ s \| ~[0-9]+ step\(s\) left, ~[0-9]+ s$' "$TMP/o1.txt"
ok $? "a progress line per step: revision, subject, key figure, verdict, runs, time, steps and time left"
# every step's runs: GOOD measured again beside the revision
[ -d "$TMP/o1/step-01/good-1" ] && [ -d "$TMP/o1/step-01/rev-3" ] && [ -s "$TMP/o1/step-01/rev-1/cyclic.json" ]
ok $? "each step measures GOOD again, interleaved with the revision's runs"
state "$TMP/r1" >"$TMP/s1.after"
cmp -s "$TMP/s1.before" "$TMP/s1.after" && [ "$(cat "$TMP/r1/stall")" = unstaged ]
ok $? "the dirty checkout, index, branches and worktree list as they were"

# ---- GOOD and BAD do not differ -------------------------------------------------
mkrepo "$TMP/r2" 4 - || echo "not ok - mkrepo failed"
state "$TMP/r2" >"$TMP/s2.before"
"$BISECT" --repo "$TMP/r2" --good HEAD~3 --bad HEAD --out "$TMP/o2" -- "$TMP/step" >"$TMP/o2.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/o2.txt"
state "$TMP/r2" >"$TMP/s2.after"
[ $rc -eq 3 ] && grep -q '^rtproof-bisect: GOOD and BAD do not differ: ' "$TMP/o2.txt" &&
	jq -e '.status == "not-different" and .first_bad == null' "$TMP/o2/bisect.json" >/dev/null &&
	cmp -s "$TMP/s2.before" "$TMP/s2.after"
ok $? "no stall anywhere: 'GOOD and BAD do not differ', exit 3 (exit $rc)"

# ---- undecided: one lone stall in BAD's runs, no room for more runs -----------------
mkrepo "$TMP/r3" 3 - || echo "not ok - mkrepo failed"
sed -i 's|--stall "0:$s:2s:300ms"|--stall "0:$s:60s:5s"|' "$TMP/step"
echo 40ms >"$TMP/r3/stall" && git -C "$TMP/r3" commit -qam "commit 4: one stall" || echo "not ok - commit failed"
"$BISECT" --repo "$TMP/r3" --good HEAD~3 --bad HEAD --runs 1 --max-runs 1 --out "$TMP/o3" -- "$TMP/step" >"$TMP/o3.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/o3.txt"
[ $rc -eq 3 ] && grep -q '^rtproof-bisect: GOOD against BAD is undecided after 1 runs a side' "$TMP/o3.txt" &&
	jq -e '.status == "inconclusive"' "$TMP/o3/bisect.json" >/dev/null
ok $? "a lone stall, one run a side: undecided, exit 3, not called a regression (exit $rc)"
sed -i 's|--stall "0:$s:60s:5s"|--stall "0:$s:2s:300ms"|' "$TMP/step"

# ---- an undecided revision: commit 4 has one lone stall in its first run;
# more runs cannot decide it, and the search steps around it
ONCE_AT=4 mkrepo "$TMP/r9" 8 7 || echo "not ok - mkrepo failed"
"$BISECT" --repo "$TMP/r9" --good HEAD~7 --bad HEAD --runs 2 --max-runs 4 --out "$TMP/o9" -- "$TMP/step" >"$TMP/o9.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/o9.txt"
k=$(sha "$TMP/r9" HEAD~1)
[ $rc -eq 0 ] && grep -q "^first bad commit: $k commit 7: change 7$" "$TMP/o9.txt" &&
	jq -e '[.steps[] | select(.verdict == "undecided")] | length == 1 and .[0].subject == "commit 4: change 4" and .[0].runs == 4' \
		"$TMP/o9/bisect.json" >/dev/null
ok $? "a revision the data cannot decide: more runs (4 a side), then stepped around; commit 7 found (exit $rc)"

# ---- key figures that disagree: commit 6 (no stall on CPU 0) has BAD's 5 ms
# stalls on CPUs 1-3, three key figures like BAD against two like GOOD
# (CPU 0's 40 ms max and the all-CPU max): outvoted, CPU 0's max, the
# first key figure, decides
NOISE_AT="6 12" mkrepo "$TMP/r10" 12 7 || echo "not ok - mkrepo failed"
"$BISECT" --repo "$TMP/r10" --good HEAD~11 --bad HEAD --runs 2 --max-runs 4 --out "$TMP/o10" -- "$TMP/step" >"$TMP/o10.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/o10.txt"
k=$(sha "$TMP/r10" HEAD~5)
[ $rc -eq 0 ] && grep -q "^first bad commit: $k commit 7: change 7$" "$TMP/o10.txt" &&
	grep -Eq '^step 1: [0-9a-f]{12} commit 6: change 6 \| .* \| good \(the key figures disagreed after 4 runs a side: 3 said bad, 2 good; the first decided\) \| 4 run' "$TMP/o10.txt" &&
	jq -e '[.steps[] | select(.subject == "commit 6: change 6")][0] | .verdict == "good" and .runs == 4 and (.reason | test("disagreed"))' \
		"$TMP/o10/bisect.json" >/dev/null
ok $? "key figures that disagree: more runs, then the first key figure decides; commit 7 found (exit $rc)"

# ---- skip: the step cannot measure commits 3 and 9; the stall from 7 -----------------
mkrepo "$TMP/r4" 12 7 3 9 || echo "not ok - mkrepo failed"
"$BISECT" --repo "$TMP/r4" --good HEAD~11 --bad HEAD --out "$TMP/o4" -- "$TMP/step" >"$TMP/o4.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/o4.txt"
k=$(sha "$TMP/r4" HEAD~5)
[ $rc -eq 0 ] && grep -q "^first bad commit: $k " "$TMP/o4.txt" &&
	jq -e '[.steps[] | select(.verdict == "skip")] | length > 0' "$TMP/o4/bisect.json" >/dev/null
ok $? "exit 125 skips a revision: shown as skip, commit 7 still found (exit $rc)"
# the first bad commit itself skipped: one of two, inconclusive
mkrepo "$TMP/r5" 8 5 5 || echo "not ok - mkrepo failed"
"$BISECT" --repo "$TMP/r5" --good HEAD~7 --bad HEAD --out "$TMP/o5" -- "$TMP/step" >"$TMP/o5.txt" 2>&1
rc=$?
grep -q "^inconclusive: the first bad commit is one of: $(git -C "$TMP/r5" rev-parse --short=12 HEAD~3) (skip) $(git -C "$TMP/r5" rev-parse --short=12 HEAD~2) (bad)$" "$TMP/o5.txt" &&
	[ $rc -eq 3 ]
ok $? "the first bad commit skipped: inconclusive, both candidates named, exit 3 (exit $rc: $(tail -n 1 "$TMP/o5.txt"))"

# ---- a step's error: exit 7 on the commits between GOOD and BAD ----------------------
mkrepo "$TMP/r6" 6 4 || echo "not ok - mkrepo failed"
state "$TMP/r6" >"$TMP/s6.before"
"$BISECT" --repo "$TMP/r6" --good HEAD~5 --bad HEAD --out "$TMP/o6" -- sh -c \
	'[ "$(cat n)" = 1 ] || [ "$(cat n)" = 6 ] || { echo broken build >&2; exit 7; }; exec "$0"' "$TMP/step" \
	>"$TMP/o6.txt" 2>&1
rc=$?
state "$TMP/r6" >"$TMP/s6.after"
sed 's/^/# /' "$TMP/o6.txt"
[ $rc -eq 1 ] && grep -Eq '^rtproof-bisect: error: step at [0-9a-f]{12} \(commit [0-9]: change [0-9]\) exited 7; its output: .*/step-01/rev-1.log$' "$TMP/o6.txt" &&
	grep -q 'broken build' "$TMP/o6/step-01/rev-1.log" && jq -e '.status == "error"' "$TMP/o6/bisect.json" >/dev/null &&
	cmp -s "$TMP/s6.before" "$TMP/s6.after"
ok $? "a step exiting 7: reported with the revision and its log, exit 1, the repo as it was (exit $rc)"

# ---- bad input: one line, exit 1, the repository as it was ------------------------------
bad() {	# bad DESCRIPTION PATTERN ARGS...
	_desc=$1 _pat=$2; shift 2
	state "$TMP/r1" >"$TMP/b.before"
	"$BISECT" "$@" >"$TMP/b.txt" 2>&1
	_rc=$?
	state "$TMP/r1" >"$TMP/b.after"
	[ $_rc -eq 1 ] && [ "$(wc -l <"$TMP/b.txt")" -eq 1 ] && grep -q "$_pat" "$TMP/b.txt" &&
		cmp -s "$TMP/b.before" "$TMP/b.after" && [ ! -e "$TMP/ob" ]
	ok $? "$_desc: one line, exit 1, the repo as it was ($(cat "$TMP/b.txt"))"
}
bad "--good not in the repo" '^rtproof-bisect: error: --good nosuch: not a commit in ' \
	--repo "$TMP/r1" --good nosuch --bad HEAD --out "$TMP/ob" -- "$TMP/step"
bad "--bad not in the repo" '^rtproof-bisect: error: --bad 0123456789abcdef: not a commit in ' \
	--repo "$TMP/r1" --good HEAD~3 --bad 0123456789abcdef --out "$TMP/ob" -- "$TMP/step"
bad "GOOD not an ancestor of BAD" '^rtproof-bisect: error: --good HEAD: not an ancestor of --bad HEAD~3$' \
	--repo "$TMP/r1" --good HEAD --bad HEAD~3 --out "$TMP/ob" -- "$TMP/step"
bad "no repository" '^rtproof-bisect: error: --repo .*: not a git repository$' \
	--repo "$TMP" --good HEAD~1 --bad HEAD --out "$TMP/ob" -- "$TMP/step"
bad "--runs 0" '^rtproof-bisect: error: --runs 0: ' \
	--repo "$TMP/r1" --good HEAD~3 --bad HEAD --runs 0 --out "$TMP/ob" -- "$TMP/step"
bad "no step command, not a Linux tree (kernel mode)" '^rtproof-bisect: error: --repo .*: not a Linux tree at --bad HEAD (no Kbuild); kernel mode builds Linux, give a step command after -- for anything else$' \
	--repo "$TMP/r1" --good HEAD~3 --bad HEAD --out "$TMP/ob"
# a step that writes no document: found at GOOD's first run
state "$TMP/r1" >"$TMP/b.before"
"$BISECT" --repo "$TMP/r1" --good HEAD~3 --bad HEAD --out "$TMP/o7" -- true >"$TMP/o7.txt" 2>&1
rc=$?
state "$TMP/r1" >"$TMP/b.after"
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/o7.txt")" -eq 2 ] &&
	grep -Eq '^rtproof-bisect: error: step at [0-9a-f]{12} \(commit 9: change 9\) wrote no rtproof/1 document into RTPROOF_OUT; its output: ' "$TMP/o7.txt" &&
	cmp -s "$TMP/b.before" "$TMP/b.after"
ok $? "a step that writes no document: one error line, exit 1, the repo as it was (exit $rc: $(grep error "$TMP/o7.txt"))"

# ---- SIGTERM in the middle of a step: worktrees removed -------------------------------
state "$TMP/r1" >"$TMP/b.before"
"$BISECT" --repo "$TMP/r1" --good HEAD~3 --bad HEAD --out "$TMP/o8" -- sleep 30 >"$TMP/o8.txt" 2>&1 &
p=$!
sleep 1
kill -TERM "$p"
wait "$p"
rc=$?
state "$TMP/r1" >"$TMP/b.after"
[ $rc -eq 143 ] && cmp -s "$TMP/b.before" "$TMP/b.after" && ! pgrep -f "sleep 30$" >/dev/null
ok $? "SIGTERM during a step: the step ended, the worktrees gone, exit 143 (exit $rc)"
done_testing
