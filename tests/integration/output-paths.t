#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# Result files on every kind of path (docs/reliability.md): a new or regular
# path replaced atomically, a FIFO / character device / stdout written
# through and never replaced, a symbolic link followed, every write error an
# exit 1 naming the path, no temporary file left behind.
. "$(dirname "$0")/tap.sh"

run() {	# run ARGS...: a 50-sample run on CPU 0, stdout/stderr in $TMP/out, $TMP/err
	rtproof-cyclic -l 50 -t 1 -a 0 -q "$@" >"$TMP/out" 2>"$TMP/err"
}
no_tmp() {	# no_tmp DIR: no "*.tmp.*" left in DIR
	! ls -a "$1" | grep -q '\.tmp\.'
}
doc_ok() { jq_ok "$1" '.schema == "rtproof/1" and .verdict.status == "figures only" and .metrics[0].count == 50'; }

D=$TMP/d
mkdir -p "$D"

# A new path, then an existing regular file: replaced (a new inode), mode kept.
run --json "$D/new.json"; rc=$?
ok $rc "new path: exit 0 (got $rc)"
check "new path: a complete document" doc_ok "$D/new.json"
chmod 640 "$D/new.json"
ino0=$(stat -c %i "$D/new.json")
run --json "$D/new.json"; rc=$?
ok $rc "existing file: exit 0 (got $rc)"
check "existing file: replaced by a new inode, its mode 640 kept" \
	test "$(stat -c %i "$D/new.json")" != "$ino0" -a "$(stat -c %a "$D/new.json")" = 640
check "regular paths: no temporary file left" no_tmp "$D"

# A FIFO read by another process: written through, still a FIFO.
mkfifo "$D/fifo"
timeout 20 cat "$D/fifo" >"$TMP/fifo.got" &
cpid=$!
run --json "$D/fifo"; rc=$?
ok $rc "FIFO with a reader: exit 0 (got $rc)"
wait $cpid
check "FIFO: still a FIFO" test -p "$D/fifo"
check "FIFO: the reader got the complete document" doc_ok "$TMP/fifo.got"
# A FIFO whose reader comes only after the run: the document waits for it.
rtproof-cyclic -l 50 -t 1 -a 0 -q --json "$D/fifo" >/dev/null 2>&1 &
wpid=$!
sleep 0.5
timeout 20 cat "$D/fifo" >"$TMP/fifo2.got"
wait $wpid; rc=$?
ok $rc "FIFO, reader comes later: exit 0 (got $rc)"
check "FIFO, reader comes later: it got the complete document" doc_ok "$TMP/fifo2.got"

# Character devices made here: c 1 7 is "full" (ENOSPC on write), c 1 3 "null".
if mknod "$D/full" c 1 7 2>/dev/null && mknod "$D/null" c 1 3 && (echo x >"$D/null") 2>/dev/null; then
	run --json "$D/full"; rc=$?
	[ $rc -eq 1 ]; ok $? "--json on a full device: exit 1 (got $rc)"
	check "full device: exactly one error line naming the path, ENOSPC" \
		grep -qx "rtproof-cyclic: error: --json $D/full: cannot write: No space left on device" "$TMP/err"
	check "full device: nothing else on stderr" test "$(wc -l <"$TMP/err")" -eq 1
	check "full device: still a character device" test -c "$D/full"
	run -h 50 --histfile "$D/full" --json "$D/h.json"; rc=$?
	[ $rc -eq 1 ]; ok $? "--histfile on a full device: exit 1 (got $rc)"
	check "--histfile full device: the error names --histfile and the path" \
		grep -q "^rtproof-cyclic: error: --histfile $D/full: cannot write: No space left on device" "$TMP/err"
	check "--histfile full device: still a character device" test -c "$D/full"
	run --json "$D/null"; rc=$?
	ok $rc "--json on a null device: exit 0 (got $rc)"
	check "null device: still a character device" test -c "$D/null"
else
	skip "character devices" "cannot make or open one in $D (no CAP_MKNOD, or a nodev mount)"
fi

# /dev/stdout and "-": written through, after the summary; a closed pipe is exit 1.
# $D/stdout is what /dev/stdout is (a link to /proc/self/fd/1); the real one is
# tried only once that passed, so a regression cannot replace the system's.
ln -s /proc/self/fd/1 "$D/stdout"
stdout_ok=1
for p in "$D/stdout" /dev/stdout; do
	if [ $p = /dev/stdout ] && [ $stdout_ok -ne 0 ]; then
		skip "--json /dev/stdout" "the same through $D/stdout failed"
		continue
	fi
	rtproof-cyclic -l 50 -t 1 -a 0 --json $p >"$TMP/so" 2>"$TMP/err"; rc=$?
	ok $rc "--json $p to a file: exit 0 (got $rc)"
	check "--json $p: the summary, then the whole document" sh -c \
		"grep -q '^verdict: figures only' '$TMP/so' && sed -n '/^{/,\$p' '$TMP/so' | jq -e '.metrics[0].count == 50' >/dev/null"
	check "--json $p: still a link" test -L $p
	[ -L "$D/stdout" ] && [ $rc -eq 0 ] && stdout_ok=0
done
for p in "$D/stdout" -; do
	{ sleep 0.3; rtproof-cyclic -l 50 -t 1 -a 0 -q --json $p 2>"$TMP/err.pipe"; echo $? >"$TMP/rc.pipe"; } | true
	rc=$(cat "$TMP/rc.pipe")
	[ "$rc" -eq 1 ]; ok $? "--json $p into a closed pipe: exit 1, not a signal (got $rc)"
	check "--json $p closed pipe: one line naming the path, EPIPE" \
		grep -qx "rtproof-cyclic: error: --json $p: cannot .*: Broken pipe" "$TMP/err.pipe"
done

# A symbolic link (relative, to a new file; then a chain to an existing one).
mkdir -p "$D/sub"
ln -s sub/target.json "$D/link.json"
run --json "$D/link.json"; rc=$?
ok $rc "symlink to a new file: exit 0 (got $rc)"
check "symlink: still a link, to the same name" test -L "$D/link.json" -a "$(readlink "$D/link.json")" = sub/target.json
check "symlink: its target holds the document" doc_ok "$D/sub/target.json"
ln -s link.json "$D/link2.json"
ino0=$(stat -c %i "$D/sub/target.json")
run --json "$D/link2.json"; rc=$?
ok $rc "chain of two links: exit 0 (got $rc)"
check "chain: both links kept, the target replaced" sh -c \
	"test -L '$D/link2.json' && test -L '$D/link.json' && test \$(stat -c %i '$D/sub/target.json') != $ino0"
check "symlinks: no temporary file left" sh -c "! ls -a '$D' '$D/sub' | grep -q '\\.tmp\\.'"

# fs.protected_symlinks, kept by rtproof itself (it resolves links on its
# own): in a sticky world-writable directory such as /tmp, a link someone
# else owns is refused before the run (one line naming the path, exit 1,
# nothing written), unless the directory's owner owns it; the caller's own
# link there, and links anywhere else, are followed as above.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	S=$TMP/sticky
	mkdir "$S" && chmod 1777 "$S"
	ln -s "$D/victim.json" "$S/theirs.json" && chown -h nobody "$S/theirs.json"
	run --json "$S/theirs.json"; rc=$?
	[ $rc -eq 1 ]; ok $? "another user's link in a sticky world-writable dir: exit 1 (got $rc)"
	check "... one error line naming the path, no run" sh -c \
		"[ \$(wc -l <'$TMP/err') -eq 1 ] && grep -qx 'rtproof-cyclic: error: --json $S/theirs.json: cannot create: Permission denied' '$TMP/err' && ! grep -q verdict '$TMP/out'"
	check "... nothing written: no target, the link kept, no temporary file" sh -c \
		"[ ! -e '$D/victim.json' ] && [ -L '$S/theirs.json' ] && ! ls -a '$S' '$D' | grep -q '\\.tmp\\.'"
	run -h 50 --histfile "$S/theirs.json" --json "$D/h2.json"; rc=$?
	[ $rc -eq 1 ] && [ ! -e "$D/victim.json" ] && [ ! -e "$D/h2.json" ]
	ok $? "--histfile through the same link: exit 1, nothing written (got $rc)"
	ln -s "$D/mine.json" "$S/mine.json"
	run --json "$S/mine.json"; rc=$?
	ok $rc "the caller's own link in the sticky dir: followed, exit 0 (got $rc)"
	check "... into its target, the link kept" sh -c "test -L '$S/mine.json' && jq -e '.metrics[0].count == 50' '$D/mine.json' >/dev/null"
	chown nobody "$S"
	run --json "$S/theirs.json"; rc=$?
	[ $rc -eq 0 ] && doc_ok "$D/victim.json"
	ok $? "the link's owner owns the sticky dir too: followed, exit 0 (got $rc)"
	rm -f "$D/victim.json"; chown root "$S"; chmod 0777 "$S"
	run --json "$S/theirs.json"; rc=$?
	[ $rc -eq 0 ] && doc_ok "$D/victim.json"
	ok $? "world-writable but not sticky: followed, exit 0 (got $rc)"
else
	skip "protected symlinks" "needs root and a user nobody to own a link"
fi

# Refused before the run: a directory, a missing directory.
for p in "$D/sub" "$D/nodir/x.json"; do
	run --json "$p"; rc=$?
	[ $rc -eq 1 ]; ok $? "--json $p: exit 1 (got $rc)"
	check "--json $p: one error line naming it, no run" sh -c \
		"[ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q '^rtproof-cyclic: error: --json $p: cannot create: ' '$TMP/err' && ! grep -q verdict '$TMP/out'"
done

# A read-only file system and a full one (small tmpfs mounts).
mkdir -p "$TMP/ro" "$TMP/small"
if mount -t tmpfs -o size=1m tmpfs "$TMP/ro" 2>/dev/null; then
	echo old >"$TMP/ro/old.json"
	mount -o remount,ro "$TMP/ro"
	for p in "$TMP/ro/x.json" "$TMP/ro/old.json"; do
		run --json "$p"; rc=$?
		[ $rc -eq 1 ]; ok $? "read-only fs, $(basename "$p"): exit 1 (got $rc)"
		check "read-only fs, $(basename "$p"): one line naming it, EROFS" \
			grep -qx "rtproof-cyclic: error: --json $p: cannot create: Read-only file system" "$TMP/err"
	done
	check "read-only fs: the old file untouched" grep -qx old "$TMP/ro/old.json"
	umount "$TMP/ro"
else
	skip "read-only file system" "cannot mount a tmpfs here"
fi
if mount -t tmpfs -o size=64k tmpfs "$TMP/small" 2>/dev/null; then
	echo old >"$TMP/small/old.json"
	dd if=/dev/zero of="$TMP/small/fill" bs=4k 2>/dev/null
	for p in "$TMP/small/new.json" "$TMP/small/old.json"; do
		run -h 100 --histfile "$TMP/small/h.txt" --json "$p"; rc=$?
		[ $rc -eq 1 ]; ok $? "full fs, $(basename "$p"): exit 1 (got $rc)"
		check "full fs, $(basename "$p"): error lines name the paths, ENOSPC" sh -c \
			"grep -qx 'rtproof-cyclic: error: --json $p: cannot write: No space left on device' '$TMP/err' &&
			 grep -qx 'rtproof-cyclic: error: --histfile $TMP/small/h.txt: cannot write: No space left on device' '$TMP/err'"
	done
	check "full fs: the old file untouched, nothing new" sh -c \
		"grep -qx old '$TMP/small/old.json' && [ ! -e '$TMP/small/new.json' ] && [ ! -e '$TMP/small/h.txt' ]"
	check "full fs: no temporary file left" no_tmp "$TMP/small"
	umount "$TMP/small"
else
	skip "full file system" "cannot mount a tmpfs here"
fi
done_testing
