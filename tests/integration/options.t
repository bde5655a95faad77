#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The common options are one table (lib/driver.c, common_opts): every bench
# takes each of them with the same meaning, its --help lists them,
# docs/options.md names them, and the man pages (help2man, from --help)
# hold every option --help shows.
. "$(dirname "$0")/tap.sh"

common=$(sed -n '/common_opts\[\] = {/,/^};/p' "$RTPROOF_ROOT/lib/driver.c" |
	sed -n 's/.*{ { "\([a-z-]*\)".*/\1/p')
[ -n "$common" ]; ok $? "the common table is read from lib/driver.c: $(echo $common)"
for o in $common; do
	grep -q -- "--$o" "$RTPROOF_ROOT/docs/options.md"
	ok $? "docs/options.md names --$o"
done

for b in cyclic irqlat audio lockstress; do
	rtproof-$b --help >"$TMP/$b.help" 2>&1
	ok $? "rtproof-$b --help exits 0"
	missing=
	for o in $common; do
		grep -q -- "--$o\b" "$TMP/$b.help" || missing="$missing --$o"
	done
	[ -z "$missing" ]; ok $? "rtproof-$b --help lists the common options${missing:+ (missing:$missing)}"
	# One letter, one meaning: -D is the duration everywhere.
	rtproof-$b -D 5x >/dev/null 2>"$TMP/$b.err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "error: -D 5x: duration must be" "$TMP/$b.err"
	ok $? "rtproof-$b -D 5x: the duration's one-line error (exit $rc)"
	rtproof-$b --load '' >/dev/null 2>"$TMP/$b.err"
	grep -q "error: --load '': empty load name" "$TMP/$b.err"
	ok $? "rtproof-$b --load '': the same error as every bench"
	man=$RTPROOF_BIN/../man/rtproof-$b.1
	if [ -f "$man" ]; then
		sed 's/\\-/-/g' "$man" >"$TMP/$b.man"
		missing=
		for o in $(grep -o -- '--[a-z][a-z-]*' "$TMP/$b.help" | sort -u); do
			grep -q -- "$o" "$TMP/$b.man" || missing="$missing $o"
		done
		[ -z "$missing" ]; ok $? "rtproof-$b.1 holds every option of --help${missing:+ (missing:$missing)}"
	else
		skip "rtproof-$b.1 against --help" "no man pages built (make man)"
	fi
done
done_testing
