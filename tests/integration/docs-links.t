#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# The docs hold together: every relative link in docs/*.md (and
# docs/measurements/, the READMEs, CONTRIBUTING.md) names a file that
# exists, and every docs/ path a program's --help names exists.
. "$(dirname "$0")/tap.sh"
cd "$RTPROOF_ROOT" || exit 1

# links FILE: the targets of FILE's markdown links [text](target), one a
# line, outside fenced code blocks; web links and pure #anchors left out.
links() {
	awk '/^```/ { fence = !fence; next } !fence' "$1" |
		grep -o '\]([^) ]*)' | sed 's/^](//; s/)$//' |
		grep -v '^[a-z][a-z0-9+.-]*:' | grep -v '^#' | sed 's/#.*//'
}

n=0
for f in docs/*.md docs/measurements/*.md README.md CONTRIBUTING.md lib/README.md tests/README.md; do
	[ -f "$f" ] || continue
	dir=$(dirname "$f")
	missing=
	for l in $(links "$f"); do
		n=$((n + 1))
		[ -e "$dir/$l" ] || missing="$missing $l"
	done
	[ -z "$missing" ]; ok $? "$f: every relative link exists${missing:+ (missing:$missing)}"
done
[ "$n" -gt 20 ]; ok $? "links were found ($n): the reader of links works"

# The programs' --help: docs/NAME.md paths (a sentence's full stop cut).
progs=
for p in "$RTPROOF_BIN"/rtproof "$RTPROOF_BIN"/rtproof-*; do
	[ -x "$p" ] && progs="$progs $p"
done
for s in scripts/rtproof-*; do
	case $s in *.sh) continue ;; esac
	progs="$progs $s"
done
for p in $progs; do
	"$p" --help >"$TMP/help" 2>&1 </dev/null
	missing=
	for d in $(grep -o 'docs/[A-Za-z0-9_./-]*' "$TMP/help" | sed 's/\.$//' | sort -u); do
		[ -e "$d" ] || missing="$missing $d"
	done
	[ -z "$missing" ]; ok $? "$(basename "$p") --help: every docs/ path it names exists${missing:+ (missing:$missing)}"
done
"$RTPROOF_BIN/rtproof-cyclic" --help 2>&1 | grep -q 'docs/[a-z]*\.md'
ok $? "rtproof-cyclic --help names a docs page (the check above sees it)"

done_testing
