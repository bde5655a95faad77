#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# Bad input: a one-line error naming the option and value, exit 1, no file.
. "$(dirname "$0")/tap.sh"

bad() {	# bad DESCRIPTION EXPECTED-TEXT ARGS...
	d=$1 want=$2; shift 2
	rm -f "$TMP/out.json"
	rtproof-cyclic "$@" --json "$TMP/out.json" -D 1s -q >"$TMP/stdout" 2>"$TMP/stderr"
	rc=$?
	lines=$(wc -l <"$TMP/stderr")
	[ $rc -eq 1 ] && [ "$lines" -eq 1 ] && grep -q -- "$want" "$TMP/stderr" && [ ! -e "$TMP/out.json" ] &&
		! ls "$TMP" | grep -q '\.tmp\.'
	ok $? "$d: exit $rc, $lines line: $(cat "$TMP/stderr")"
}
bad "unknown option" "--frobnicate: unknown option" --frobnicate
bad "-p 120" "error: -p 120: priority must be 1..99" -p 120
bad "-i 0" "error: -i 0: interval" -i 0
bad "-a 99" "error: -a 99: CPU 99 is not online" -a 99
bad "-D 5x" "error: -D 5x: duration" -D 5x
bad "--policy bogus" "error: --policy bogus" --policy bogus
bad "-l -1" "error: -l -1" -l -1
rm -f "$TMP/x"
rtproof-cyclic -D 1s -q --json /nonexistent/dir/out.json >"$TMP/stdout" 2>"$TMP/stderr"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/stderr")" -eq 1 ] && grep -q "error: --json /nonexistent/dir/out.json: cannot create" "$TMP/stderr"
ok $? "unwritable --json path: exit $rc, $(cat "$TMP/stderr")"
[ ! -s "$TMP/stdout" ]; ok $? "and no run happened"
mkdir "$TMP/ro"; chmod 555 "$TMP/ro"
if [ "$(id -u)" -eq 0 ]; then
	skip "read-only directory" "root writes anywhere"
else
	rtproof-cyclic -D 1s -q --json "$TMP/ro/out.json" >/dev/null 2>&1
	[ $? -eq 1 ] && [ -z "$(ls "$TMP/ro")" ]; ok $? "read-only directory: exit 1, nothing written"
fi
rtproof-cyclic -D 1s -q --histfile /nonexistent/h.txt >/dev/null 2>"$TMP/stderr"
[ $? -eq 1 ] && grep -q "error: --histfile /nonexistent/h.txt: cannot create" "$TMP/stderr"
ok $? "unwritable --histfile: exit 1"
rtproof-cyclic --help >"$TMP/help" 2>&1
[ $? -eq 0 ] && grep -q -- "--max-latency" "$TMP/help"; ok $? "--help exits 0 and lists the options"
done_testing
