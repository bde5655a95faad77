#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# Bad options: one clear line on stderr and exit 1, before anything runs.
. "$(dirname "$0")/tap.sh"

bad() {	# bad DESCRIPTION EXPECTED-STDERR-TEXT ARGS...
	_d=$1; _want=$2; shift 2
	rtproof-lockstress "$@" >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	[ $_rc -eq 1 ] && grep -qF -- "$_want" "$TMP/err"
	ok $? "$_d: exit 1 ($_rc), says: $(head -1 "$TMP/err")"
}
bad "--protocol foo" "rtproof-lockstress: error: --protocol foo: protocol must be none, inherit or protect" --protocol foo
bad "--scenario typo" "unknown scenario 'inverson'" --scenario inverson
bad "--kind futex" "kind must be mutex, pi-mutex, spin, rwlock or rwlock-writer" --kind futex
bad "--threads 0" "--threads 0: threads must be" --threads 0
bad "-D 0" "-D 0: duration must be" -D 0
bad "--hold junk" "--hold 2 apples: hold must be" --hold "2 apples"
bad "--read-share 120" "read share must be 0..100" --read-share 120
bad "--chain 12" "chain must be 2..8" --chain 12
bad "unknown option" "--frob: unknown option" --frob
bad "stray argument" "inversion: unexpected argument" inversion

rtproof-lockstress --scenario rwlock-recursion -q --json /nonexistent/dir/r.json >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "cannot create" "$TMP/err" && ! grep -q "rwlock-recursion:" "$TMP/out"
ok $? "unwritable --json: exit 1 ($rc) before the run: $(head -1 "$TMP/err")"
[ ! -e /nonexistent/dir/r.json ]; ok $? "and no file is left"

rtproof-lockstress --help >"$TMP/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q -- "--scenario LIST" "$TMP/out"; ok $? "--help: exit 0 ($rc) with the usage"
rtproof-lockstress --version | grep -q "^rtproof-lockstress [0-9]"; ok $? "--version"
done_testing
