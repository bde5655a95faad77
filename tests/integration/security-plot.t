#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# Hostile result documents through rtproof-compare, rtproof-plot and
# rtproof-report (issue 23, docs/security.md "Plots and report"): gnuplot
# code in kernel_release (a newline, then `system "..."`), backticks in
# load.name and a thread name, HTML markup in hostname, cmdline, verdict
# and labels, numbers near DBL_MAX in four runs (the headline row), deep
# nesting and a 100 MB string.  Nothing may execute (canary files), no
# markup from a document may reach report.html, a symlink planted in the
# output directory must not be written through, and a document the tools
# cannot read is one error line and exit 1, never a crash.
. "$(dirname "$0")/tap.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
command -v gnuplot >/dev/null || { echo "1..0 # SKIP gnuplot not installed (gnuplot-nox)"; exit 0; }
PLOT=$RTPROOF_BIN/rtproof-plot
REPORT=$RTPROOF_BIN/rtproof-report
COMPARE=$RTPROOF_BIN/rtproof-compare
SRC=$RTPROOF_ROOT/tests/fuzz/corpus/doc/valid-cyclic.json
C1=$TMP/canary-gnuplot-system
C2=$TMP/canary-backtick-load
C3=$TMP/canary-backtick-thread
C4=$TMP/canary-comment
C5=$TMP/canary-label
canaries() { [ ! -e "$C1" ] && [ ! -e "$C2" ] && [ ! -e "$C3" ] && [ ! -e "$C4" ] && [ ! -e "$C5" ]; }
# a crash is a status above 125 (a signal): never
nocrash() { [ "$1" -lt 126 ]; }
# one error line on stderr
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -q 'error' "$1"; }

# ---- the injection document ---------------------------------------------
I=$TMP/inj
mkdir -p "$I"
jq --arg c1 "$C1" --arg c2 "$C2" --arg c3 "$C3" --arg c4 "$C4" --arg c5 "$C5" '
	.system.kernel_release = "x\nsystem \"touch \($c1)\"\n# \u0027`touch \($c4)`\u0027"
	| .system.hostname = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>"
	| .system.cmdline = "</code><script>alert(3)</script><img src=x onerror=alert(4)> \u0027 \""
	| .system.preempt = "rt\r\nset output \"/tmp/x\""
	| .load.name = "`touch \($c2)`"
	| .metrics[0].thread = "`touch \($c3)`\u0027.system(\"touch \($c5)\").\u0027"
	| .metrics[0].cpu = null
	| .verdict.status = "x\"><img src=x onerror=alert(5)>"
	| .verdict.reason = "<img src=x onerror=alert(6)>"
	| .command = ["rtproof-cyclic", "<img src=x onerror=alert(7)>", "\u0027`id`\u0027"]' \
	"$SRC" >"$I/cyclic.json"

# a symlink planted in the output directory for every file the tools write
V=$TMP/victim
echo victim >"$V"
mkdir -p "$I/plots"
for id in cyclic-wakeup_latency-hist cyclic-wakeup_latency-percentiles cyclic-wakeup_latency-over-time; do
	for ext in gp dat png svg log; do
		ln -s "$V" "$I/plots/$id.$ext"
	done
done
ln -s "$V" "$I/report.html"

"$PLOT" -q "$I" >"$TMP/inj-plot.out" 2>&1
rc=$?
# every figure made: a quote in the text (four in a row, or one first) no
# longer ends gnuplot's string early and stops the script
[ $rc -eq 0 ] && [ -s "$I/plots/cyclic-wakeup_latency-percentiles.png" ] && [ -s "$I/plots/cyclic-wakeup_latency-hist.png" ]
ok $? "rtproof-plot over the injection document: exit $rc (gnuplot failed on no figure), the figures drawn ($(head -c 300 "$TMP/inj-plot.out" | tr '\n' ' '))"
canaries
ok $? "rtproof-plot: nothing a document holds was run (no canary file)"
[ "$(cat "$V")" = victim ]
ok $? "rtproof-plot: no file written through a symlink planted in the output directory"
ls "$I"/plots/*.png >/dev/null 2>&1 && [ ! -L "$I/plots/cyclic-wakeup_latency-percentiles.png" ]
ok $? "rtproof-plot: the figures replace the planted links"
! grep -l '`' "$I"/plots/*.gp >/dev/null 2>&1
ok $? "rtproof-plot: no backtick in any gnuplot script"
# every line of every script is one the program writes: a comment, a
# setting, a plot clause or a closing brace; none starts with system
! grep -qE '^[[:space:]]*(system|!|set output "/)' "$I"/plots/*.gp
ok $? "rtproof-plot: no document text starts a line of a gnuplot script"

"$REPORT" -q "$I" >"$TMP/inj-report.out" 2>&1
rc=$?
nocrash $rc && [ $rc -le 1 ]
ok $? "rtproof-report over the injection document: exit $rc, no crash"
canaries
ok $? "rtproof-report: nothing a document holds was run (no canary file)"
[ "$(cat "$V")" = victim ] && [ -f "$I/report.html" ] && [ ! -L "$I/report.html" ]
ok $? "rtproof-report: report.html replaced the planted link, the victim is unchanged"
! grep -qiE '<(script|img|iframe|object|embed|foreignObject)|<[^>]*[[:space:]]on[a-z]+=' "$I/report.html"
ok $? "report.html: no markup or event handler from the document"
grep -q '&lt;script&gt;alert(1)' "$I/report.html" && grep -q '&lt;/code&gt;&lt;script&gt;' "$I/report.html"
ok $? "report.html: the document's markup is shown escaped"
grep -q "base-uri 'none'" "$I/report.html" && grep -q "form-action 'none'" "$I/report.html" &&
	grep -q "default-src 'none'" "$I/report.html"
ok $? "report.html: the CSP has default-src, base-uri and form-action 'none'"
grep -q '<td class="st st-other">' "$I/report.html"
ok $? "report.html: a verdict status that is not a word does not name a class (no attribute to break out of)"

# ---- rtproof-compare over hostile documents -----------------------------
"$COMPARE" "$I/cyclic.json" "$I/cyclic.json" --json "$TMP/cmp.json" >"$TMP/cmp.out" 2>&1
rc=$?
nocrash $rc && canaries
ok $? "rtproof-compare over the injection document: exit $rc, no crash, nothing run"

# ---- a comparison of hostile documents: labels through compare.json -------
K=$TMP/cmp
for d in a b; do
	mkdir -p "$K/$d"
	jq --arg d "$d" --arg c1 "$C1" --arg c2 "$C2" 'del(.metrics[0].series)
		| .system.kernel_release = "k\($d)\nsystem \"touch \($c1)\"\n`touch \($c2)`<img src=x onerror=alert(8)>"' \
		"$SRC" >"$K/$d/cyclic.json"
done
"$COMPARE" -q "$K/a" "$K/b" --json "$K/compare.json" >"$TMP/cmp2.out" 2>&1
rc=$?
nocrash $rc && [ -s "$K/compare.json" ]
ok $? "rtproof-compare: two hostile documents give compare.json (exit $rc)"
"$REPORT" -q -o "$K/report.html" "$K/compare.json" >"$TMP/cmp-r.out" 2>&1
rc=$?
[ $rc -eq 0 ] && canaries && [ -s "$K/plots/headline.png" ] &&
	! grep -qiE '<(script|img)|<[^>]*[[:space:]]on[a-z]+=' "$K/report.html" &&
	grep -q "title 'a: ka system \"touch" "$K/plots/headline.gp"
ok $? "rtproof-report over that compare.json: exit $rc, the headline drawn, its legend single-quoted, nothing run, no markup"

# ---- numbers near DBL_MAX, four runs: the headline row --------------------
H=$TMP/huge
for i in 1 2 3 4; do
	mkdir -p "$H/run$i"
	jq --arg k "huge-$i" '.system.kernel_release = $k
		| .metrics[0] |= (.max = 1.7e308 | .min = -1.7e308 | .mean = 1.7e308 | .count = 1.7e308
			| .overflow = 1.7e308
			| .percentiles = { "50": 1.7e308, "90": 1.7e308, "99": 1.7e308, "99.9": 1.7e308,
					    "99.99": 1.7e308, "99.999": 1.7e308 }
			| .histogram.buckets = [[1.7e308, 1.7e308, 1.7e308], [0, 1e-300, 3]]
			| .series.blocks = [[0, 1, 1.7e308], [1.7e308, 1, 1.7e308]]
			| .series.block_s = 1.7e308)
		| .duration_s = 1.7e308' "$SRC" >"$H/run$i/cyclic.json"
done
"$PLOT" -q -o "$H/plots" "$H"/run1 "$H"/run2 "$H"/run3 "$H"/run4 >"$TMP/huge.out" 2>&1
rc=$?
nocrash $rc && [ $rc -le 1 ]
ok $? "rtproof-plot: four runs with numbers near DBL_MAX: exit $rc, no crash"
[ ! -f "$H/plots/headline.dat" ] || awk '!/^#/ && NF && NF != 13 { bad = 1 } END { exit bad }' "$H/plots/headline.dat"
ok $? "rtproof-plot: every headline row has its 13 columns (nothing cut or run over)"
"$REPORT" -q -o "$H/report.html" "$H"/run1 "$H"/run2 "$H"/run3 "$H"/run4 >"$TMP/huge-r.out" 2>&1
rc=$?
nocrash $rc && [ $rc -le 1 ]
ok $? "rtproof-report: the same four runs: exit $rc, no crash"
"$COMPARE" "$H/run1/cyclic.json" "$H/run2/cyclic.json" "$H/run3/cyclic.json" "$H/run4/cyclic.json" \
	--json "$H/compare.json" >"$TMP/huge-c.out" 2>&1
rc=$?
nocrash $rc
ok $? "rtproof-compare: the same four runs: exit $rc, no crash"

# ---- deep nesting and a 100 MB string: one error line, or escaped ---------
D=$TMP/deep
mkdir -p "$D"
{ printf '{"schema":"rtproof/1","tool":"rtproof-cyclic","params":'
  head -c 100000 /dev/zero | tr '\0' '['
  head -c 100000 /dev/zero | tr '\0' ']'
  printf '}\n'; } >"$D/cyclic.json"
for t in plot report; do
	p=$RTPROOF_BIN/rtproof-$t
	"$p" -q "$D" >"$TMP/deep-$t.out" 2>"$TMP/deep-$t.err"
	rc=$?
	[ $rc -eq 1 ] && one_line "$TMP/deep-$t.err"
	ok $? "rtproof-$t: nesting 100000 deep: exit $rc, one error line ($(head -c 120 "$TMP/deep-$t.err"))"
done
"$COMPARE" "$D/cyclic.json" "$D/cyclic.json" >"$TMP/deep-c.out" 2>"$TMP/deep-c.err"
rc=$?
[ $rc -eq 1 ] && one_line "$TMP/deep-c.err"
ok $? "rtproof-compare: nesting 100000 deep: exit $rc, one error line"

B=$TMP/big
mkdir -p "$B"
{ jq -c '.system.kernel_release = "@@BIG@@"' "$SRC" | sed 's/@@BIG@@.*//' | tr -d '\n'
  head -c 100000000 /dev/zero | tr '\0' 'A'
  jq -c '.system.kernel_release = "@@BIG@@"' "$SRC" | sed 's/.*@@BIG@@//'; } >"$B/cyclic.json"
start=$(date +%s)
"$REPORT" -q "$B" >"$TMP/big.out" 2>"$TMP/big.err"
rc=$?
end=$(date +%s)
{ [ $rc -eq 0 ] || { [ $rc -eq 1 ] && one_line "$TMP/big.err"; }; } && [ "$(stat -c %s "$B/report.html" 2>/dev/null || echo 0)" -lt 20000000 ]
ok $? "rtproof-report: a 100 MB kernel_release: exit $rc, the page stays small ($((end - start)) s)"
"$COMPARE" -q "$B/cyclic.json" "$B/cyclic.json" >"$TMP/big-c.out" 2>"$TMP/big-c.err"
rc=$?
nocrash $rc
ok $? "rtproof-compare: a 100 MB kernel_release: exit $rc, no crash"
canaries
ok $? "no canary file after every tool ran over the corpus"
# ---- 5000 metrics: matching them is quadratic, so past 4096 one error line
M=$TMP/many
mkdir -p "$M"
jq '.metrics = [range(5000) as $i | .metrics[0] | .thread = $i]' "$SRC" >"$M/cyclic.json"
t0=$(date +%s)
"$COMPARE" "$M/cyclic.json" "$M/cyclic.json" >/dev/null 2>"$TMP/m1.err"; r1=$?
"$PLOT" -q -o "$TMP/mplots" "$M/cyclic.json" >/dev/null 2>"$TMP/m2.err"; r2=$?
"$REPORT" -q -o "$TMP/m.html" "$M/cyclic.json" >/dev/null 2>"$TMP/m3.err"; r3=$?
t1=$(date +%s)
[ $r1 -eq 1 ] && [ $r2 -eq 1 ] && [ $r3 -eq 1 ] && one_line "$TMP/m1.err" && one_line "$TMP/m2.err" &&
	one_line "$TMP/m3.err" && grep -q "5000 metrics: more than 4096" "$TMP/m1.err" "$TMP/m2.err" "$TMP/m3.err" &&
	[ $((t1 - t0)) -le 20 ]
ok $? "5000 metrics: compare, plot and report refuse it in one line each, exit 1 ($r1 $r2 $r3, $((t1 - t0)) s: $(head -c 160 "$TMP/m2.err"))"

# ---- quotes: a kernel_release in quotes, four quotes in a row --------------
Q=$TMP/quotes
mkdir -p "$Q"
jq '.system.kernel_release = "\u00276.1-rt\u0027" | .load.name = "\u0027\u0027\u0027\u0027x"' "$SRC" >"$Q/cyclic.json"
"$PLOT" -q "$Q" >"$TMP/q.out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ -s "$Q/plots/cyclic-wakeup_latency-percentiles.png" ] && [ -s "$Q/plots/cyclic-wakeup_latency-hist.png" ]
ok $? "quotes in the document's text: exit $rc, gnuplot failed on no figure ($(head -c 200 "$TMP/q.out" | tr '\n' ' '))"

# ---- a plots link someone else planted in their result directory ---------
P=$TMP/planted
E=$TMP/elsewhere
mkdir -p "$P" "$E"
cp "$SRC" "$P/cyclic.json"
ln -s "$E" "$P/plots"
other=$(id -u nobody 2>/dev/null || echo 65534)
if [ "$(id -u)" = 0 ] && chown -h "$other" "$P/plots"; then
	"$PLOT" -q "$P" >"$TMP/pl.out" 2>"$TMP/pl.err"
	rc=$?
	[ $rc -eq 1 ] && [ -z "$(ls -A "$E")" ] && one_line "$TMP/pl.err"
	ok $? "rtproof-plot: another user's plots link is refused, nothing written there (exit $rc: $(head -c 200 "$TMP/pl.err"))"
	"$REPORT" -q "$P" >"$TMP/pr.out" 2>"$TMP/pr.err"
	rc=$?
	[ -z "$(ls -A "$E")" ]
	ok $? "rtproof-report: nothing written through it either (exit $rc: $(head -c 200 "$TMP/pr.err"))"
	rm -f "$P/plots"
	ln -s "$E" "$P/plots"	# the caller's own link: followed
	"$PLOT" -q "$P" >/dev/null 2>&1
	[ -s "$E/cyclic-wakeup_latency-percentiles.png" ]
	ok $? "rtproof-plot: the caller's own plots link is followed"
else
	skip "another user's plots link" "not root: cannot plant a link owned by another user"
	skip "rtproof-report through it" "not root"
	skip "the caller's own plots link" "not root"
fi

done_testing
