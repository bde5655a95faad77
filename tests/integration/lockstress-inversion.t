#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest guest=rt
# Planted truth for the inversion scenario: short, known work lengths.
# Low holds the lock for 2 ms of CPU time; medium burns 30 ms from +0.5 ms;
# high asks at +1 ms, when the holder has ~1.5 ms left.  Expected: none
# waits for the burner (~31 ms), inherit for the holder's remainder
# (~1.5 ms), protect from its release until the ceiling holder is done but
# hardly at all inside lock().  In the icount guest (rule a of
# tests/README.md): the bounds below (a 5 ms margin, 20 % of a 1.5 ms
# remainder) are smaller than this host's own stalls (5-35 ms); guest
# time counts instructions and cannot see them.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/guest.sh"
in_guest rt

J=$TMP/inv.json
start=$(date +%s)
rtproof-lockstress --scenario inversion --protocol none,inherit,protect --hold 2ms --burn 30ms \
	--iterations 12 -q --json "$J" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ]; ok $? "protocol none makes the run fail: exit 2 (got $rc)"
sed 's/^/# /' "$TMP/out" | grep -E "protocol|none|inherit|protect|verdict"
check "a complete rtproof/1 document" jq_ok "$J" '.schema == "rtproof/1" and .tool == "rtproof-lockstress" and .verdict.status == "fail"'

p50() { jq -r --arg n "$1" --arg p "$2" '.metrics[] | select(.name == $n and .protocol == $p) | .percentiles["50"]' "$J"; }
none=$(p50 inversion_wait none)
inh=$(p50 inversion_wait inherit)
pro=$(p50 inversion_wait protect)
rem=$(p50 inversion_holder_remaining inherit)
pcall=$(p50 inversion_lock_wait protect)
diag "p50 wait: none $none ns, inherit $inh ns (holder remaining $rem ns), protect $pro ns (in lock() $pcall ns)"

[ "$none" -ge $((10 * inh)) ]; ok $? "none >= 10x inherit ($none vs $inh ns)"
awk -v w="$inh" -v r="$rem" 'BEGIN { d = w - r; if (d < 0) d = -d; exit !(r > 0 && d <= 0.2 * r) }'
ok $? "inherit within 20% of the holder's remaining critical section ($inh vs $rem ns)"
[ "$none" -ge 25000000 ] && [ "$none" -le 60000000 ]; ok $? "none waits for the 30 ms burner ($none ns)"
[ "$pro" -le 2600000 ]; ok $? "protect: bounded by the holder's section from the release ($pro ns)"
[ "$pcall" -le 500000 ]; ok $? "protect: the delay is before lock(), not in it ($pcall ns)"
check "verdict: none unbounded, inherit and protect bounded" jq_ok "$J" '
	[.scenarios.inversion.protocols[] | {(.protocol): .bounded}] | add == {"none": false, "inherit": true, "protect": true}'
check "the holder ran at high's priority with inherit and protect, at its own with none" jq_ok "$J" '
	.scenarios.inversion as $s | [$s.protocols[] | {(.protocol): .holder_prio_max}] | add
	| .inherit == $s.priority_high and .protect == $s.priority_high and .none == $s.priority_low'
check "verdict criteria per protocol" jq_ok "$J" '[.verdict.criteria[] | select(.name | startswith("max inversion_wait"))] | length == 3'
check "metrics carry histograms and units" jq_ok "$J" '[.metrics[] | select(.name == "inversion_wait")] | length == 3 and all(.unit == "ns" and (.histogram.buckets | length) > 0)'
grep -q "inherit .* bounded" "$TMP/out" && grep -q "none .* UNBOUNDED" "$TMP/out"
ok $? "the summary says which protocol bounded the inversion"

rtproof-lockstress --scenario inversion --hold 2ms --burn 30ms --iterations 8 --margin 5ms -q \
	--json "$TMP/pi.json" >"$TMP/out2" 2>&1
rc=$?
[ $rc -eq 0 ]; ok $? "default protocols (inherit, protect): bounded, exit 0 (got $rc)"
[ $rc -ne 0 ] && sed 's/^/# /' "$TMP/out2"
end=$(date +%s)
[ $((end - start)) -le 20 ]; ok $? "bounded in time: $((end - start)) s"

# --control: none is the control that must show the inversion; the verdict
# bounds the others.  A control that stays bounded (a burner shorter than
# the bound) means no inversion was planted: the run fails.
rtproof-lockstress --scenario inversion --protocol all --control --hold 2ms --burn 30ms --iterations 6 -q \
	--json "$TMP/ctl.json" >"$TMP/ctl.out" 2>&1
rc=$?
[ $rc -eq 0 ] && jq_ok "$TMP/ctl.json" '.params.control == true and .verdict.status == "pass" and
	any(.verdict.criteria[]; .name == "max inversion_wait protocol=none (control)" and .op == ">" and .pass) and
	([.verdict.criteria[] | select(.op == "<=")] | length == 2 and all(.pass))'
ok $? "--control: none unbounded as the control, inherit and protect bounded: exit 0 (got $rc)"
[ $rc -ne 0 ] && sed 's/^/# /' "$TMP/ctl.out"
rtproof-lockstress --scenario inversion --protocol none --control --hold 2ms --burn 500us --iterations 4 -q \
	--json "$TMP/ctl2.json" >"$TMP/ctl2.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "the control (none) stayed bounded: no inversion was planted" "$TMP/ctl2.out" &&
	jq_ok "$TMP/ctl2.json" 'any(.verdict.criteria[]; .name == "max inversion_wait protocol=none (control)" and (.pass | not))'
ok $? "--control with a 0.5 ms burner: the control stays bounded, the run fails: exit 2 (got $rc)"
rtproof-lockstress --scenario inversion --control -q >/dev/null 2>"$TMP/ctl3.err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/ctl3.err")" -eq 1 ] && grep -q -- "--control: .*not in --protocol inherit,protect" "$TMP/ctl3.err"
ok $? "--control without none: one line, exit 1 ($rc: $(cat "$TMP/ctl3.err"))"
done_testing
