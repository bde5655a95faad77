#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# The first screen (docs/plots.md): report.html's overall line and
# rtproof report --text, on synthetic documents (tests/tools/rtp-mkdoc,
# verdicts set with jq): no budget is "figures only", never PASS, with
# what was measured and what was not; a profile's budget missed is "not
# suitable for ..." with the figure, the --explain culprit and the failed
# check that most likely explains it; a kernel ladder opens with the
# trade and never calls RT worse when its worst case is >= 5x better;
# before/after keeps FAIL.  rtproof run --profile on the host (plumbing
# only: a 1 us budget cannot be met); the layout in headless Chromium at
# 1280 and 400 px.
. "$(dirname "$0")/tap.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
REPORT=$RTPROOF_BIN/rtproof-report
MKDOC=$RTPROOF_BIN/rtp-mkdoc
[ -x "$MKDOC" ] || { echo "1..0 # SKIP $MKDOC not built (make build/bin/rtp-mkdoc)"; exit 0; }
export RTPROOF_GNUPLOT=/nonexistent	# the figures are not what is tested here

check_json() {	# DIR: rtproof check's document with two failed checks
	jq -n '{ schema: "rtproof/1", tool: "rtproof-check", verdict: { status: "fail", criteria: [
		{ name: "preempt", group: "kernel", title: "preemption model", status: "fail", pass: false,
		  seen: "not PREEMPT_RT: a PREEMPT_DYNAMIC kernel in mode none", fix: "boot a PREEMPT_RT kernel" },
		{ name: "rt_throttle", group: "kernel", title: "RT throttling", status: "fail", pass: false,
		  seen: "950000 of 1000000 us", fix: "echo -1 >/proc/sys/kernel/sched_rt_runtime_us" },
		{ name: "thp", group: "memory", title: "transparent huge pages", status: "pass", pass: true, seen: "never" } ] } }' >"$1/check.json"
}
irqlat_skip() {	# DIR
	jq -n '{ schema: "rtproof/1", tool: "rtproof-irqlat", version: "0.1.0", command: ["rtproof-irqlat"],
		start: "2026-12-05T10:00:00Z", system: { kernel_release: "6.1.0-test", preempt: "none" },
		params: {}, load: { name: "none" }, metrics: [], duration_s: 0,
		verdict: { status: "skip", reason: "no IRQ latency source", criteria: [] } }' >"$1/irqlat.json"
}
# cyclic DIR STATUS [CRITERION_JSON]: a synthetic cyclic document with that verdict
cyclic() {
	"$MKDOC" --seed 7 --duration 2s --kernel 6.1.0-test --preempt none --out "$1/cyclic.tmp" || return 1
	jq --arg st "$2" --argjson c "${3:-[]}" '.verdict = { status: $st, reason: "synthetic", criteria: $c }' \
		"$1/cyclic.tmp" >"$1/cyclic.json" && rm -f "$1/cyclic.tmp"
}

# ---- no budget: figures only, what was and was not measured ------------
F=$TMP/figures
mkdir -p "$F"
cyclic "$F" "figures only" && irqlat_skip "$F" && check_json "$F"
"$REPORT" -q --text "$F" >"$TMP/f.txt" 2>"$TMP/f.err"
ok $? "rtproof report --text on a run without a budget: exit 0"
sed 's/^/# /' "$TMP/f.txt"
head -n 1 "$TMP/f.txt" | grep -q '^Overall: FIGURES ONLY: no budget was given, so nothing was judged'
ok $? "the first line: figures only, no budget given"
grep -q 'Measured: cyclic (worst wake-up [0-9.]* us)\. Not measured: irqlat (skip: no IRQ latency source)\. rtproof check failed: preempt, rt_throttle\.' "$TMP/f.txt"
ok $? "one sentence: measured cyclic with its worst figure, irqlat skipped, the failed checks"
grep -q 'id="overall">Overall: <b>FIGURES ONLY</b>' "$F/report.html" && ! grep -q 'id="overall">Overall: <b>[^<]*PASS' "$F/report.html" &&
	grep -q 'st-figures">&#8226; FIGURES ONLY' "$F/report.html"
ok $? "report.html: the overall line says figures only, not PASS; so does cyclic's row"
grep -q 'The failed check that most likely explains these figures: preempt (preemption model)' "$TMP/f.txt"
ok $? "the failed check first in the table (preempt) is named"

# ---- a profile's budget missed: not suitable, the figure, culprit, check --
A=$TMP/audio
mkdir -p "$A"
cyclic "$A" fail '[{ "name": "max wakeup_latency", "op": "<=", "limit": 1333, "observed": 4260.1, "unit": "us", "pass": false }]' &&
	jq '.events.explained = [
		{ time_s: 1.5, cpu: 1, tid: 100, metric: "wakeup_latency", latency_ns: 4260100,
		  culprits: [ { kind: "task", name: "hackbench", pid: 4242, policy: "OTHER", prio: 0, ns: 4100000, share: 0.96 } ] },
		{ time_s: 0.5, cpu: 0, tid: 99, metric: "wakeup_latency", latency_ns: 900000,
		  culprits: [ { kind: "irq", name: "eth0", ns: 800000, share: 0.9 } ] } ]' "$A/cyclic.json" >"$A/c.tmp" &&
	mv "$A/c.tmp" "$A/cyclic.json"
jq -n '{ schema: "rtproof/1", tool: "rtproof-audio", version: "0.1.0", command: ["rtproof-audio"],
	start: "2026-12-05T10:00:00Z", system: { kernel_release: "6.1.0-test", preempt: "none" },
	params: { backend: "timer" }, load: { name: "none" }, duration_s: 2,
	metrics: [ { name: "wakeup_lateness", unit: "ns", thread: "audio", count: 1500, min: 20000, max: 3100000,
	             mean: 40000, stddev: 9000, percentiles: { "50": 40000, "99": 90000, "99.9": 3100000 } } ],
	events: { xruns: 3 },
	verdict: { status: "fail", reason: "3 xruns", criteria: [
		{ name: "xruns", op: "==", limit: 0, observed: 3, unit: "count", pass: false },
		{ name: "max wakeup_lateness", op: "<=", limit: 1333, observed: 3100, unit: "us", pass: false } ] } }' >"$A/audio.json"
check_json "$A"
jq -n '{ schema: "rtproof-suite/1", complete: true, benches: [],
	profile: { name: "audio", wakeup_budget_us: 1333, budget_from: "the period minus its work",
	           period_frames: 64, periods: 2, rate_hz: 48000 } }' >"$A/suite.json"
"$REPORT" -q --text "$A" >"$TMP/a.txt" 2>"$TMP/a.err"
ok $? "rtproof report --text on an audio-profile run: exit 0"
sed 's/^/# /' "$TMP/a.txt"
head -n 1 "$TMP/a.txt" | grep -q "^Overall: NOT SUITABLE: not suitable for audio at 64 x 2 frames / 48 kHz because audio had 3 xruns (0 allowed); cyclic's max wakeup_latency was 4260.1 us, over the 1333 us budget"
ok $? "the first line: not suitable for audio at 64 x 2 / 48 kHz, because of the xruns and cyclic's worst wake-up"
grep -q 'Worst culprit (--explain): task hackbench (OTHER) held the CPU for 4100.0 us of cyclic.s worst explained wake-up (4260.1 us, CPU 1' "$TMP/a.txt"
ok $? "the worst culprit --explain named: hackbench, in the worst outlier"
grep -q '^  The failed check that most likely explains it: preempt (preemption model): not PREEMPT_RT' "$TMP/a.txt"
ok $? "the failed check that most likely explains it: preempt"
grep -q 'id="overall">Overall: <b>NOT SUITABLE</b> &mdash; not suitable for audio at 64 x 2 frames / 48 kHz' "$A/report.html" &&
	grep -q 'because audio had 3 xruns' "$A/report.html" && grep -q '<ul id="answer"><li>Worst culprit' "$A/report.html"
ok $? "report.html opens with the same answer"

# ---- document text is data: no control character reaches the terminal ----
H=$TMP/hostile
mkdir -p "$H"
cp -r "$A/." "$H/"
jq '.verdict.criteria[0].name = "preempt\u001b[2J\nOverall: SUITABLE" | .verdict.criteria[0].seen = "x\u001b]0;t\u0007"' \
	"$A/check.json" >"$H/check.json"
jq '.events.explained[0].culprits[0].name = "hack\u001b[31mbench\r\nfake line" | .events.explained[0].culprits[0].kind = "task\u009b"' \
	"$A/cyclic.json" >"$H/cyclic.json"
jq '.verdict.status = "odd\u001b[0m" | .verdict.criteria = []' "$A/audio.json" >"$H/audio.json"
"$REPORT" -q --text "$H" >"$TMP/h.txt" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && ! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/h.txt" &&
	[ "$(grep -c '^Overall' "$TMP/h.txt")" -eq 1 ] && grep -q 'hack.\{1,2\}\[31mbench' "$TMP/h.txt"
ok $? "document strings in --text: control characters gone, one Overall line (exit $rc)"

# ---- a profile met: suitable -------------------------------------------
S=$TMP/latency
mkdir -p "$S"
cyclic "$S" pass '[{ "name": "max wakeup_latency", "op": "<=", "limit": 100, "observed": 45.2, "unit": "us", "pass": true }]'
jq -n '{ schema: "rtproof-suite/1", profile: { name: "latency", wakeup_budget_us: 100 } }' >"$S/suite.json"
"$REPORT" -q --text "$S" >"$TMP/s.txt" 2>/dev/null
head -n 1 "$TMP/s.txt" | grep -q "^Overall: SUITABLE: suitable for latency in this run: cyclic's max wakeup_latency was 45.2 us, within the 100 us budget"
ok $? "a budget met: suitable for latency, with the figure ($(head -n 1 "$TMP/s.txt"))"
# 2 s with no miss: below -ln(0.05) / 2 s = 5.39e3 an hour; 1/h needs 3.0 h
grep -q "^  How long: cyclic 2 s\. No budget missed in 2 s bounds misses below 5.39e+03 an hour (95 % confidence); fewer than one an hour needs 3.0 h a bench with none\.$" "$TMP/s.txt"
ok $? "how long the run was against how long a confident answer needs ($(grep -m1 'How long' "$TMP/s.txt"))"

# ---- a ladder: the trade, never "RT worse" over a 5x better worst case --
# ladder DIR RT_MAX RT_P50 STOCK_MAX STOCK_P50: an RT base against stock-none
ladder() {
	mkdir -p "$1/rt" "$1/stock-none"
	"$MKDOC" --seed 11 --duration 2s --kernel 6.1.0-rt --preempt rt --out "$1/rt/cyclic.json" &&
	"$MKDOC" --seed 12 --duration 2s --kernel 6.1.0 --preempt none --out "$1/stock-none/cyclic.json" || return 1
	jq -n --argjson rm "$2" --argjson r50 "$3" --argjson sm "$4" --argjson s50 "$5" '
	def row($b; $m; $f; $base; $new; $v): { bench: $b, metric: $m, cpu: "all", thread: "all", key: "cpu all thread all",
		figure: $f, unit: "ns", new_index: 0, base: $base, new: $new, ratio: ($new / $base),
		base_ci: [$base * 0.97, $base * 1.03], new_ci: [$new * 0.97, $new * 1.03],
		verdict: $v, p_holm: 0.001,
		method: "Harrell-Davis quantile, bootstrap interval over 1 s blocks (2000 resamples), Holm-adjusted" };
	{ schema: "rtproof-compare/1", confidence: 0.95, threshold: 0.10,
	  base: { label: "rt", kernel_release: "6.1.0-rt", preempt: "rt" },
	  new: [ { label: "stock-none", kernel_release: "6.1.0", preempt: "none" } ],
	  rows: [ row("cyclic"; "wakeup_latency"; "p50"; $r50; $s50; (if $s50 < $r50 then "better" else "worse" end)),
	          row("cyclic"; "wakeup_latency"; "p99.9"; $rm * 0.8; $sm * 0.6; (if $sm < $rm then "better" else "worse" end)),
	          row("cyclic"; "wakeup_latency"; "max"; $rm; $sm; (if $sm < $rm then "better" else "worse" end)),
	          row("audio"; "wakeup_lateness"; "p50"; 37600; 29400; "better"),
	          row("audio"; "wakeup_lateness"; "max"; 60000; 70000; "same") ],
	  verdict: { status: "fail", regressions: ["cyclic wakeup_latency cpu all thread all max"] } }' >"$1/compare.json"
}
L=$TMP/ladder
ladder "$L" 7500 37600 533000 29400
"$REPORT" -q --text "$L" >"$TMP/l.txt" 2>/dev/null
ok $? "rtproof report --text on a ladder: exit 0"
sed 's/^/# /' "$TMP/l.txt"
head -n 1 "$TMP/l.txt" | grep -q "^Overall: RT AGAINST STOCK: RT's worst case is 5x or more better than stock's: cyclic 71.1x against stock-none (max; significant)" &&
	! head -n 1 "$TMP/l.txt" | grep -qi 'RT worse\|FAIL'
ok $? "RT's max 71x better: the top says so, never FAIL or RT worse, though its p50 is higher"
grep -q '^  cyclic wakeup_latency, RT against stock-none: worst case max RT 7.5 us against 533.0 us (RT 71.1x better; significant, p 0.001 (Holm)), p99.9 .*; typical p50: RT costs 8.2 us (37.6 us against 29.4 us; significant, p 0.001 (Holm))' "$TMP/l.txt"
ok $? "the trade per bench: worst case by how much, the p50 cost in us, each with its confidence"
grep -q '^  audio wakeup_lateness, RT against stock-none: worst case max RT 60.0 us against 70.0 us (RT 1.2x better; no significant difference' "$TMP/l.txt"
ok $? "every bench of the comparison has its line (audio)"
grep -q 'id="overall">Overall: <b>RT AGAINST STOCK</b>' "$L/report.html" && grep -q 'st-trade">&#8646; TRADE' "$L/report.html" &&
	grep -q 'v-worse">&#9650; worse (RT better)</td>' "$L/report.html" && grep -q 'v-better">&#9660; better (RT worse)</td>' "$L/report.html"
ok $? "report.html: the trade at the top, the comparison's row a trade, each row says whose side it favours"

# 6.12's ladder holds an RT rung beside the stock ones (rt-full against rt):
# still the trade, and the RT rung is not a stock rung in it
L2=$TMP/ladder-rtfull
mkdir -p "$L2" && cp -r "$L"/rt "$L"/stock-none "$L2"/ && mkdir -p "$L2/rt-full" && cp "$L/rt/cyclic.json" "$L2/rt-full/" &&
	jq '.new += [{ label: "rt-full", kernel_release: "6.1.0-rt", preempt: "rt" }]
	    | .rows += [.rows[] | .new_index = 1 | .verdict = "worse"]' "$L/compare.json" >"$L2/compare.json"
"$REPORT" -q --text "$L2" >"$TMP/l2.txt" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && head -n 1 "$TMP/l2.txt" | grep -q "^Overall: RT AGAINST STOCK" && ! grep -q "against rt-full" "$TMP/l2.txt"
ok $? "a ladder with an RT rung (rt-full) beside stock: still the trade, the RT rung not in it ($(head -c 120 "$TMP/l2.txt"))"
head=$L/plots/headline.dat
grep -q '^"cyclic max"' "$head" && grep -q '^"audio p50"' "$head"
ok $? "the headline figure's data holds every bench (cyclic and audio rows)"
L3=$TMP/ladder-nocpu
ladder "$L3" 7500 37600 533000 29400
jq 'del(.rows[].cpu, .rows[].thread)' "$L3/compare.json" >"$L3/c.tmp" && mv "$L3/c.tmp" "$L3/compare.json"
"$REPORT" -q "$L3" >/dev/null 2>&1
grep -q '^"cyclic max"' "$L3/plots/headline.dat" && grep -q '^"audio max"' "$L3/plots/headline.dat"
ok $? "rows without a CPU: the headline is still drawn, every bench in it"
L2=$TMP/ladder-stock
ladder "$L2" 533000 29400 7500 37600
"$REPORT" -q --text "$L2" >"$TMP/l2.txt" 2>/dev/null
head -n 1 "$TMP/l2.txt" | grep -q "^Overall: RT AGAINST STOCK: Stock's worst case is 5x or more better than RT's: cyclic 71.1x against RT (stock-none, max; significant)"
ok $? "the other way round: stock's 5x better worst case is said at the top too"

# ---- before/after keeps PASS/FAIL ----------------------------------------
B=$TMP/before-after
ladder "$B" 7500 37600 533000 29400
jq '.base.preempt = "none" | .new[0].preempt = "none"' "$B/compare.json" >"$B/c.tmp" && mv "$B/c.tmp" "$B/compare.json"
"$REPORT" -q --text "$B" >"$TMP/b.txt" 2>/dev/null
head -n 1 "$TMP/b.txt" | grep -q '^Overall: FAIL: 1 regression(s) beyond the 10 % threshold' &&
	grep -q '^  Regression: cyclic wakeup_latency cpu all thread all max' "$TMP/b.txt"
ok $? "a before/after comparison: a regression is FAIL, named"

# ---- rtproof run ----------------------------------------------------------
rtproof run --profile loud --out "$TMP/bad" >"$TMP/bad.out" 2>&1
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/bad.out")" -eq 1 ] &&
	grep -qx 'rtproof-run: error: --profile loud: profile must be latency or audio' "$TMP/bad.out" && [ ! -e "$TMP/bad" ]
ok $? "an unknown profile: one line naming the known ones, exit 1 (got $rc), nothing made"
rtproof run --benches cyclic --duration 300ms --out "$TMP/r0" >"$TMP/r0.out" 2>&1
rc=$?
sed -n '/^== rtproof run:/,$p' "$TMP/r0.out" | sed 's/^/# /'
[ $rc -eq 0 ] && grep -v '^rtproof-report: warning' "$TMP/r0.out" | sed -n '/^== rtproof run:/{n;p}' | grep -q '^Overall: FIGURES ONLY: no budget was given' &&
	grep -Eq '^cyclic +figures only +no latency budget given' "$TMP/r0.out"
ok $? "rtproof run without a budget: exit $rc, the first line after the header is figures only, the table says so"
rtproof run --benches cyclic --duration 300ms --profile latency --max-latency 1 --out "$TMP/r1" >"$TMP/r1.out" 2>&1
rc=$?
sed -n '/^== rtproof run:/,$p' "$TMP/r1.out" | sed 's/^/# /'
[ $rc -eq 2 ] && grep -v '^rtproof-report: warning' "$TMP/r1.out" | sed -n '/^== rtproof run:/{n;p}' |
	grep -q "^Overall: NOT SUITABLE: not suitable for latency because cyclic's max wakeup_latency was [0-9.]* us, over the 1 us budget" &&
	jq_ok "$TMP/r1/suite.json" '.profile.name == "latency" and .profile.wakeup_budget_us == 1' &&
	jq_ok "$TMP/r1/cyclic.json" '.verdict.criteria[0].limit == 1'
ok $? "rtproof run --profile latency --max-latency 1: exit $rc, not suitable at once, the budget recorded"

rtproof-audio --backend timer -D 300ms -q --max-latency 1 --json "$TMP/au.json" >/dev/null 2>&1
rc=$?
if [ $rc -eq 4 ]; then
	skip "audio --max-latency" "rtproof-audio cannot measure here"
else
	[ $rc -eq 2 ] && jq_ok "$TMP/au.json" '.verdict.status == "fail" and
		any(.verdict.criteria[]; .name == "max wakeup_lateness" and .limit == 1 and .pass == false)'
	ok $? "rtproof-audio --max-latency 1 (the audio profile's lateness budget): fail, exit $rc"
fi

# ---- the layout in a real browser -----------------------------------------
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROME" ]; then
	skip "layout at 1280 and 400 px" "chromium not installed (Debian: apt-get install chromium)"
	done_testing
	exit
fi
# A probe page (its own script; the report has none) measures the report in
# an iframe of the given width.
probe() {	# WIDTH PAGE: prints the measurements as JSON
	cat >"$TMP/probe-$1.html" <<EOF
<!DOCTYPE html><html><body style="margin:0"><iframe id="f" src="file://$2" style="width:$1px;height:900px;border:0"></iframe>
<pre id="out">pending</pre><script>
document.getElementById('f').onload = function () {
  var d = this.contentDocument, box = d.getElementById('compare-box'), t = d.getElementById('compare-table'),
      o = d.getElementById('overall'), th = [].map.call(t.querySelectorAll('th'), function (c) { return c.textContent; });
  document.getElementById('out').textContent = JSON.stringify({
    page: d.documentElement.scrollWidth, view: d.documentElement.clientWidth,
    box_client: box.clientWidth, box_scroll: box.scrollWidth, overall_bottom: o.getBoundingClientRect().bottom,
    verdict_right: t.querySelector('th:nth-last-child(2)').getBoundingClientRect().right - box.getBoundingClientRect().left,
    question: [].some.call(t.querySelectorAll('td'), function (c) { return c.textContent.trim() === '?'; }),
    cpu_col: th.indexOf('CPU') >= 0 });
};
</script></body></html>
EOF
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
		--allow-file-access-from-files --user-data-dir="$TMP/prof-probe-$1" --virtual-time-budget=5000 \
		--dump-dom "file://$TMP/probe-$1.html" 2>/dev/null | sed -n 's/.*<pre id="out">\([^<]*\)<.*/\1/p'
}
p=$(probe 1280 "$L/report.html")
diag "1280 px: $p"
echo "$p" | jq -e '.box_scroll <= .box_client and .verdict_right <= .box_client and .page <= .view and
	.overall_bottom < 900 and (.question | not) and .cpu_col' >/dev/null
ok $? "1280 px: the comparison table fits whole, the verdict column shown, the answer on the first screen"
p=$(probe 400 "$L/report.html")
diag "400 px: $p"
echo "$p" | jq -e '.page <= .view and .box_scroll > .box_client and .overall_bottom < 900' >/dev/null
ok $? "400 px: the page is no wider than the screen, the table scrolls inside its own box"
jq 'del(.rows[].cpu, .rows[].thread)' "$L/compare.json" >"$TMP/c.tmp" && mv "$TMP/c.tmp" "$L/compare.json"
"$REPORT" -q "$L" >/dev/null 2>&1
p=$(probe 1280 "$L/report.html")
echo "$p" | jq -e '(.cpu_col | not) and (.question | not)' >/dev/null
ok $? "rows without a CPU: no CPU column, no \"?\" ($p)"
for w in 1280 400; do
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
		--user-data-dir="$TMP/prof-shot-$w" --window-size=$w,900 --screenshot="$TMP/ladder-$w.png" \
		"file://$TMP/ladder/report.html" >/dev/null 2>&1
	[ -z "${RTPROOF_KEEP_SCREENSHOT:-}" ] || cp "$TMP/ladder-$w.png" "$RTPROOF_KEEP_SCREENSHOT-$w.png"
done
[ "$(head -c 8 "$TMP/ladder-400.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
ok $? "screenshots at 1280 and 400 px taken (RTPROOF_KEEP_SCREENSHOT=PREFIX keeps them)"
done_testing
