#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel quick
# rtp_load_work_json (scripts/rtproof-lib.sh): what a load did, as JSON,
# from counts that may be a guest's (anyone's text): only [a-z_] kinds and
# short digit counts are taken, the interval only when it is a number; a
# part with no round says why instead of a zero rate; no load is null.
. "$(dirname "$0")/tap.sh"
lib=$RTPROOF_ROOT/scripts/rtproof-lib.sh
j() { printf "$1" | bash -c '. "$1"; shift; rtp_load_work_json "$@"' sh "$lib" "$2" "$3" "$4"; }

j 'hackbench 6 0\ndd 0 3\nfind 0 0\n' mixed guest 2.000 >"$TMP/a.json"
jq -e '.where == "guest" and .interval_s == 2 and ([.parts[] | [.kind, .rounds, .failed, .per_s]]
	== [["hackbench", 6, 0, 3], ["dd", 0, 3, null], ["find", 0, 0, null]])
	and (.parts[1].why | test("every round failed")) and (.parts[2].why | test("no round completed"))' "$TMP/a.json" >/dev/null
ok $? "counts, rates per second, and why a part has none ($(jq -c '[.parts[] | [.kind, .per_s, .why]]' "$TMP/a.json" 2>/dev/null))"

j 'x$(id) 5 0\n"q" 1 0\nhackbench 99999999999999999999 0\ndd 1e3 0\ndd 2 0 junk\n' mixed guest '1.5;rm' >"$TMP/b.json"
jq -e '.interval_s == null and ([.parts[] | [.kind, .rounds, .per_s]] == [["dd", 2, null]])
	and (.parts[0].why | test("interval is unknown"))' "$TMP/b.json" >/dev/null
ok $? "a guest's hostile lines: dropped; a bad interval: null, no rate ($(jq -c . "$TMP/b.json" 2>/dev/null | head -c 300))"

(export RTP_HACKBENCH_ARGS='-g "4" \x'; j 'hackbench 1 0\n' mixed host 1.0) >"$TMP/q.json"
jq -e '.parts[0].counted == "hackbench runs (-g \"4\" \\x)"' "$TMP/q.json" >/dev/null
ok $? "what a round is, with quotes and backslashes in the user's hackbench arguments: a JSON string ($(jq -c '.parts[0].counted' "$TMP/q.json" 2>/dev/null))"

j '' mixed host 3.0 >"$TMP/c.json"
jq -e '.parts == [] and (.why | test("never started"))' "$TMP/c.json" >/dev/null
ok $? "no part reported a count: said, not zero"
j 'dd 2 0\n' none host 3.0 >"$TMP/d.json"
jq -e '. == null' "$TMP/d.json" >/dev/null
ok $? "no load: null"
done_testing
