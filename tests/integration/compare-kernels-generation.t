#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtproof compare-kernels' generation options (issue 16), without a boot:
# bad values are refused with one line naming the option, exit 1, nothing
# written; rtproof kernel resolves stock and rt through the generation.
. "$(dirname "$0")/tap.sh"
CK=$RTPROOF_ROOT/scripts/rtproof-compare-kernels
K=$RTPROOF_ROOT/scripts/rtproof-kernel

"$CK" --generation 5.4 --out "$TMP/o1" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q -- '--generation 5.4: must be 6.1, 6.12 or all' "$TMP/err" && [ ! -e "$TMP/o1" ]
ok $? "--generation 5.4: exit $rc, $(cat "$TMP/err")"
"$CK" --ladder rt:none --out "$TMP/o2" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && grep -q -- '--ladder rt:none: rungs are' "$TMP/err" && [ ! -e "$TMP/o2" ]
ok $? "--ladder rt:none: exit $rc, $(cat "$TMP/err")"
"$CK" --generation >"$TMP/out" 2>"$TMP/err"
[ $? = 1 ] && grep -q -- '--generation: missing value' "$TMP/err"
ok $? "--generation without a value: $(cat "$TMP/err")"
"$CK" --help | grep -q -- '--generation G'
ok $? "--help names --generation"

# The names: stock and rt follow RTPROOF_KERNEL_GENERATION (nothing fetched).
[ "$("$K" generation)" = 6.12 ] && [ "$(RTPROOF_KERNEL_GENERATION=6.1 "$K" generation)" = 6.1 ]
ok $? "default generation 6.12, RTPROOF_KERNEL_GENERATION=6.1 switches it"
RTPROOF_KERNEL_GENERATION=5.4 "$K" generation >/dev/null 2>"$TMP/err"
[ $? = 1 ] && grep -q 'RTPROOF_KERNEL_GENERATION=5.4: must be one of 6.1 6.12' "$TMP/err"
ok $? "RTPROOF_KERNEL_GENERATION=5.4: $(cat "$TMP/err")"
done_testing
