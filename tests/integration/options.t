#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# The common options are one table (lib/driver.c, common_opts): every bench
# takes each of them with the same meaning, its --help lists them,
# docs/options.md names them, and the man pages (help2man, from --help)
# hold every option --help shows.
. "$(dirname "$0")/tap.sh"

# every_bench: the entries taken by every bench (take 0); all: every entry
table=$(sed -n '/common_opts\[\] = {/,/^};/p' "$RTPROOF_ROOT/lib/driver.c")
all=$(echo "$table" | sed -n 's/.*{ { "\([a-z-]*\)".*/\1/p')
common=$(echo "$table" | awk '/{ { "/ { split($0, a, "\""); n = a[2] }
	/, 0 },$/ && n { print n; n = "" } /RTP_TAKES_[A-Z]* },$/ { n = "" }')
[ -n "$common" ]; ok $? "the common table is read from lib/driver.c: $(echo $common) (and, when taken: $(echo "$all" | grep -vxF "$common" | tr '\n' ' '))"
for o in $all; do
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
# The common options only some benches take mean the same in each.
for b in cyclic irqlat; do
	rtproof-$b -l 0 >/dev/null 2>"$TMP/e"
	grep -q "error: -l 0: loops must be a positive integer" "$TMP/e"
	ok $? "rtproof-$b -l 0: the common loops error"
	rtproof-$b --max-latency 0 >/dev/null 2>"$TMP/e"
	grep -q "error: --max-latency 0: latency budget must be a positive number of us" "$TMP/e"
	ok $? "rtproof-$b --max-latency 0: the common budget error"
done
for b in audio lockstress; do
	rtproof-$b -l 5 >/dev/null 2>"$TMP/e"
	grep -q "error: -l: unknown option" "$TMP/e"
	ok $? "rtproof-$b does not take -l (it means nothing else there either)"
done
done_testing
