#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# rtproof bisect's kernel mode (no step command, --repo a Linux tree) on a
# generated history of a fake tree, without building or booting a kernel:
# the build is the test's hook (RTPROOF_BISECT_KBUILD_CMD: "vmlinux" is the
# tree's file "image", commit 4 does not build) and the VM a fake one
# (RTPROOF_BISECT_VM: a synthetic rtproof-cyclic document, tests/tools/
# rtp-mkdoc, with a 40 ms stall when the image says so, from commit 6 on).
# Everything else is kernel mode's own: the build directory outside the
# tree, each revision built once (GOOD measured again at every step from its
# kept image), a revision that does not build skipped with the reason, the
# progress lines with build and measure time, bisect.json, bad input, the
# repository as it was.  bisect-kernel-vm.t boots real guests.
. "$(dirname "$0")/tap.sh"
BISECT=$RTPROOF_ROOT/scripts/rtproof-bisect

# mkrepo DIR N K BROKEN: a fake Linux tree, N commits, stall from commit K
# on, commit BROKEN does not build
mkrepo() {
	_d=$1
	git init -q "$_d" && git -C "$_d" config user.email t@example.org && git -C "$_d" config user.name t || return 1
	mkdir -p "$_d/scripts/kconfig" "$_d/arch/x86" &&
		: >"$_d/Kbuild" && : >"$_d/Kconfig" && : >"$_d/arch/x86/Kconfig" &&
		printf '#!/bin/sh\n' >"$_d/scripts/kconfig/merge_config.sh" || return 1
	for _i in $(seq 1 "$2"); do
		if [ "$_i" -ge "$3" ]; then echo 40ms; else echo 0; fi >"$_d/image"
		if [ "$_i" = "$4" ]; then echo broken; else : ; fi >"$_d/broken"
		echo "$_i" >"$_d/n"
		git -C "$_d" add -A && git -C "$_d" commit -qm "commit $_i: change $_i" || return 1
	done
}
# the build: counted per commit, into the one build directory
export BUILDS=$TMP/builds
mkdir "$BUILDS"
export RTPROOF_BISECT_KBUILD_CMD='echo "$PWD" >>"$BUILDS/$(git rev-parse HEAD)"; [ -s broken ] && { echo "error: broken: this revision does not build" >&2; exit 2; }; cp image "$KOUT/vmlinux"'
# the VM: rtproof vm's options, a synthetic document from the image
cat >"$TMP/fakevm" <<'EOF'
#!/bin/bash
kernel= out=
while [ $# -gt 0 ]; do
	case $1 in --kernel) kernel=$2; shift ;; --out) out=$2; shift ;; --) break ;; esac
	shift
done
s=$(cat "$kernel")
set -- --seed "$RTPROOF_BISECT_RUN" --duration 10s --interval 1ms --tail-rate 0 --burst-rate 0 --out "$out/cyclic.json"
[ "$s" = 0 ] || set -- "$@" --stall "0:$s:2s:300ms"
rtp-mkdoc "$@" || exit 1
echo '{"schema": "rtproof-vm/1", "outcome": "exited", "exit_status": 0}' >"$out/vm.json"
EOF
chmod +x "$TMP/fakevm"
export RTPROOF_BISECT_VM=$TMP/fakevm
state() {
	git -C "$1" status --porcelain=v1 --untracked-files=all && git -C "$1" rev-parse HEAD &&
		git -C "$1" for-each-ref && git -C "$1" worktree list --porcelain && git -C "$1" stash list
}
sha() { git -C "$1" rev-parse "$2"; }

# ---- found: 8 commits, the stall from commit 6, commit 4 does not build -----------
mkrepo "$TMP/r1" 8 6 4 || echo "# mkrepo failed"
echo dirty >>"$TMP/r1/image" && echo x >"$TMP/r1/untracked"
state "$TMP/r1" >"$TMP/s1.before"
"$BISECT" --repo "$TMP/r1" --good HEAD~7 --bad HEAD --bench cyclic --build-dir "$TMP/kb" \
	--runs 2 --max-runs 4 --out "$TMP/o1" >"$TMP/o1.txt" 2>&1
rc=$?
sed 's/^/# /' "$TMP/o1.txt"
k=$(sha "$TMP/r1" HEAD~2) b4=$(sha "$TMP/r1" HEAD~4)
[ $rc -eq 0 ] && grep -q "^first bad commit: $k commit 6: change 6$" "$TMP/o1.txt"
ok $? "kernel mode: the stall from commit 6 found past commit 4 that does not build (exit $rc)"
grep -Eq "^step [0-9]+: ${b4:0:12} commit 4: change 4 \| no figure \| skip \(the build failed after [0-9.]+ s: error: broken: this revision does not build\) \|" "$TMP/o1.txt"
ok $? "a revision that does not build: skipped, and the line says so with the build's error"
grep -Eq '^step [0-9]+: [0-9a-f]{12} commit 5: change 5 \| max [0-9.]+ us x[0-9.]+ \| good \| 2 run\(s\) a side, [0-9.]+ s \(build [0-9.]+ s, measure [0-9.]+ s\) \| ~[0-9]+ step\(s\) left, ~[0-9]+ s$' "$TMP/o1.txt" &&
	grep -Eq '^build: GOOD [0-9a-f]{12} commit 1: change 1: built in [0-9.]+ s' "$TMP/o1.txt"
ok $? "progress lines: GOOD and BAD built first, each step's build and measure time"
# each revision built once, all from one checkout path, none from the user's
n_multi=0
for f in "$BUILDS"/*; do [ "$(wc -l <"$f")" = 1 ] || n_multi=$((n_multi + 1)); done
[ "$(ls "$BUILDS" | wc -l)" = 5 ] && [ "$n_multi" = 0 ] &&
	[ "$(cat "$BUILDS"/* | sort -u | wc -l)" = 1 ] && ! grep -qx "$TMP/r1" "$BUILDS"/*
ok $? "GOOD, BAD, commits 4, 5 and 6 built once each (GOOD measured again from its kept image), from one worktree"
[ -f "$TMP/kb/vmlinux" ] && [ "$(ls -d "$TMP"/kb/.rtproof-images/*/ | wc -l)" = 5 ] &&
	ls "$TMP"/kb/.rtproof-images/"$b4"-*/failed >/dev/null
ok $? "one build directory outside the tree: the images kept, the failed build remembered"
jq -e --arg k "$k" --arg b4 "$b4" --arg kb "$TMP/kb" '.status == "found" and .mode == "kernel"
	and .first_bad.commit == $k and .kernel.build_dir == $kb and .kernel.benches == ["cyclic"]
	and .kernel.load == "mixed"
	and (.steps[] | select(.revision == $b4) | .verdict == "skip" and (.reason | test("build failed")))
	and all(.steps[]; .build_seconds >= 0)' "$TMP/o1/bisect.json" >/dev/null
ok $? "bisect.json: kernel mode, its settings, the skip's reason, each step's build time"
state "$TMP/r1" >"$TMP/s1.after"
cmp -s "$TMP/s1.before" "$TMP/s1.after" && [ ! -e "$TMP/r1/vmlinux" ] && [ -z "$(ls "$TMP/r1/.git/worktrees" 2>/dev/null)" ]
ok $? "the user's checkout (dirty), branches and worktrees as they were"

# ---- again, the same build directory: nothing built ----------------------------------
rm -rf "$BUILDS" && mkdir "$BUILDS"
"$BISECT" --repo "$TMP/r1" --good HEAD~7 --bad HEAD --bench cyclic --build-dir "$TMP/kb" \
	--runs 2 --max-runs 4 --out "$TMP/o2" >"$TMP/o2.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && [ -z "$(ls "$BUILDS")" ] && grep -q '^build: GOOD .*: built before' "$TMP/o2.txt" &&
	grep -q "^first bad commit: $k " "$TMP/o2.txt"
ok $? "a second bisect over the same build directory builds nothing (exit $rc)"

# ---- bad input: one line, exit 1 -----------------------------------------------------
bad() {	# bad DESCRIPTION PATTERN ARGS...
	_desc=$1 _pat=$2; shift 2
	"$BISECT" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	_rc=$?
	[ $_rc -eq 1 ] && [ "$(wc -l <"$TMP/bad.err")" = 1 ] && grep -q -- "$_pat" "$TMP/bad.err"
	ok $? "$_desc (exit $_rc: $(cat "$TMP/bad.err"))"
}
git init -q "$TMP/plain" && git -C "$TMP/plain" config user.email t@example.org && git -C "$TMP/plain" config user.name t &&
	for i in 1 2; do echo $i >"$TMP/plain/f"; git -C "$TMP/plain" add f; git -C "$TMP/plain" commit -qm "c$i"; done
bad "not a Linux tree" 'not a Linux tree at --bad HEAD (no Kbuild)' --repo "$TMP/plain" --good HEAD~1 --bad HEAD --out "$TMP/ob1"
bad "a build directory inside the tree" 'inside --repo' --repo "$TMP/r1" --good HEAD~7 --bad HEAD --build-dir "$TMP/r1/build" --out "$TMP/ob2"
bad "an unknown bench" '--bench audio: not a bench kernel mode runs' --repo "$TMP/r1" --good HEAD~7 --bad HEAD --bench cyclic,audio
bad "kernel options with a step command" '--bench: kernel mode only' --repo "$TMP/r1" --good HEAD~7 --bad HEAD --bench cyclic -- true
bad "--loops 0" '--loops 0: must be a whole number' --repo "$TMP/r1" --good HEAD~7 --bad HEAD --loops 0
bad "GOOD does not build" 'GOOD [0-9a-f]* does not build: the build failed after .*: error: broken' \
	--repo "$TMP/r1" --good HEAD~4 --bad HEAD --bench cyclic --build-dir "$TMP/kb" --out "$TMP/ob3"
[ ! -e "$TMP/r1/build" ] && state "$TMP/r1" >"$TMP/s1.after2" && cmp -s "$TMP/s1.before" "$TMP/s1.after2"
ok $? "after bad input the repository is as it was"
# a missing build tool, named with its package: a PATH without flex
mkdir "$TMP/nf" && for f in /usr/bin/* /bin/*; do
	case ${f##*/} in flex|flex++) ;; *) [ -e "$TMP/nf/${f##*/}" ] || ln -s "$f" "$TMP/nf/${f##*/}" ;; esac
done
env -u RTPROOF_BISECT_KBUILD_CMD PATH="$RTPROOF_BIN:$TMP/nf" "$BISECT" --repo "$TMP/r1" --good HEAD~7 --bad HEAD \
	--out "$TMP/ob4" >"$TMP/bad.out" 2>"$TMP/bad.err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/bad.err")" = 1 ] &&
	grep -qF 'flex not found, needed to build each revision (apt-get install flex)' "$TMP/bad.err"
ok $? "no flex: named with its package (exit $rc: $(cat "$TMP/bad.err"))"
done_testing
