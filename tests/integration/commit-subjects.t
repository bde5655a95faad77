#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# Commit subjects are at most 72 characters (CONTRIBUTING.md): every
# commit after the base below, the commit the rule took effect on; the
# history before it has long subjects and is left as it is.  A tarball (no
# git, or inside another project's git), or a shallow clone that does not reach the base, has nothing to
# check: the test says so and skips.
. "$(dirname "$0")/tap.sh"

BASE=c529784ab9c65ce53af5d04ed1323756a09f3502
MAX=72

if ! command -v git >/dev/null 2>&1; then
	skip "commit subjects <= $MAX characters" "no git here"
elif [ "$(git -C "$RTPROOF_ROOT" rev-parse --show-toplevel 2>/dev/null)" != "$(cd "$RTPROOF_ROOT" && pwd -P)" ]; then
	skip "commit subjects <= $MAX characters" "not a git checkout (a tarball)"
elif ! git -C "$RTPROOF_ROOT" cat-file -e "$BASE^{commit}" 2>/dev/null; then
	skip "commit subjects <= $MAX characters" "the base ${BASE%"${BASE#???????}"} is not in this clone (shallow)"
else
	n=$(git -C "$RTPROOF_ROOT" rev-list --count "$BASE..HEAD")
	long=$(git -C "$RTPROOF_ROOT" log --format='%h %s' "$BASE..HEAD" |
		awk -v max="$MAX" '{ s = substr($0, index($0, " ") + 1) } length(s) > max { printf "%s (%d)\n", $0, length(s) }')
	[ -n "$long" ] && diag "$long"
	[ -z "$long" ]; ok $? "the $n commits after the base have subjects of at most $MAX characters"
fi
done_testing
