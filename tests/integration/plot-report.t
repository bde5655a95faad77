#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# rtproof plot and rtproof report on synthesised documents (the shared
# formats: rtproof/1 with block series, rtproof-compare/1): the figures are
# valid PNG and SVG and follow the data (a spike planted on CPU 1 shows in
# CPU 1's curve, not CPU 0's); a missing gnuplot is a clear skip; a
# ladder with throughput rows gets the price on its first screen, the trade
# table and the Pareto figure, a hostile part name and rung label staying
# data; the page loads in headless Chromium without console errors, with
# the verdict table, the expected figures and no broken image, and a
# screenshot is taken.
. "$(dirname "$0")/tap.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
command -v gnuplot >/dev/null || { echo "1..0 # SKIP gnuplot not installed (gnuplot-nox)"; exit 0; }
PLOT=$RTPROOF_BIN/rtproof-plot
REPORT=$RTPROOF_BIN/rtproof-report

# synth OUT KERNEL PREEMPT BASE_NS SPIKE_CPU1_NS: a cyclic document, 2 CPUs,
# with histograms, percentiles from them, and block series (0.1 s blocks).
synth_cyclic() {
	jq -n --arg k "$2" --arg p "$3" --argjson base "$4" --argjson spike "$5" '
	def pct($b; $p): ([$b[][2]] | add) as $n | ($p / 100 * $n | ceil) as $r
		| reduce $b[] as $x ({c: 0, v: null};
			if .v == null then (.c += $x[2] | if .c >= $r then .v = $x[1] else . end) else . end) | .v;
	def metric($cpu; $spk):
		[1, 5, 40, 200, 500, 400, 200, 100, 40, 10, 4, 2, 1] as $cs
		| [range(0; $cs | length) as $i | [$base + $i * 256, $base + $i * 256 + 255, $cs[$i]]]
		  + (if $spk > 0 then [[$spk - 4096, $spk + 4095, 1]] else [] end)
		| . as $b | ([$b[][2]] | add) as $n
		| { name: "wakeup_latency", unit: "ns", cpu: $cpu, thread: $cpu, count: $n,
		    min: $b[0][0], max: (if $spk > 0 then $spk else $b[-1][1] end), mean: ($base + 1500),
		    stddev: 700, overflow: 0, missed: 0,
		    percentiles: ({} | .["50"] = pct($b; 50) | .["90"] = pct($b; 90) | .["99"] = pct($b; 99)
		                  | .["99.9"] = pct($b; 99.9) | .["99.99"] = pct($b; 99.99) | .["99.999"] = pct($b; 99.999)),
		    histogram: { kind: "log-linear", sub_bucket_bits: 7, edges: "inclusive", limit: 68719476736, buckets: $b },
		    series: { kind: "time-blocks", clock: "monotonic", t0_s: 0, block_s: 0.1, coarsened: 0,
		              blocks: [range(0; 30) as $t | [($t / 10), 50,
		                       (if $spk > 0 and $t == 20 then $spk else $base + 2000 + 100 * ($t % 3) end)]] } };
	{ schema: "rtproof/1", tool: "rtproof-cyclic", version: "0.1.0",
	  command: ["rtproof-cyclic", "-D", "3s", "--json", "cyclic.json"], start: "2026-12-04T10:00:00Z",
	  system: { hostname: "box", kernel_release: $k, kernel_version: "#1 SMP", machine: "x86_64",
	            preempt: $p, preempt_source: "uname", cpus_online: 2, cpus_online_list: "0-1",
	            cpu_model: "Test CPU", cmdline: "quiet isolcpus=1", clocksource: "tsc",
	            virtualized: true, hypervisor: "cpuid" },
	  params: { policy: "fifo", priority: 95, interval_us: 1000, cpu_dma_latency_us: 0, mlockall: true },
	  load: { name: "hackbench" },
	  metrics: ([metric(0; 0), metric(1; $spike)]
	           | . + [{ name: "wakeup_latency", unit: "ns", cpu: "all", thread: "all",
	                    count: ([.[].count] | add), min: ([.[].min] | min), max: ([.[].max] | max),
	                    mean: ($base + 1500), stddev: 700, overflow: 0, missed: 0,
	                    percentiles: .[1].percentiles,
	                    histogram: { kind: "log-linear", sub_bucket_bits: 7, edges: "inclusive",
	                                 buckets: (.[0].histogram.buckets + .[1].histogram.buckets
	                                           | group_by(.[0]) | map([.[0][0], .[0][1], ([.[][2]] | add)])) },
	                    series: .[1].series }]),
	  events: { missed: 0, early: 0, spikes: 0, overflow: 0, stopped_by: "duration" },
	  duration_s: 3.0,
	  verdict: { status: "pass", reason: "no latency budget given", criteria: [] } }' >"$1"
}

# Max x of what is drawn in colour RGB ("0, 114, 178") on the figure's
# lowest drawn row (the one-sample level of a log-y histogram), in SVG units.
bottom_max_x() {	# FILE RGB
	awk -v want="$2" '
	/<g id="gnuplot_plot_/ { inplot = 1 }
	/^\t<\/g>/ { inplot = 0 }
	{
		line = $0
		if (match(line, /(stroke|color)=.rgb\( *[0-9]+, *[0-9]+, *[0-9]+\)/)) {
			c = substr(line, RSTART, RLENGTH); sub(/.*rgb\( */, "", c); sub(/\)$/, "", c)
			gsub(/ +/, " ", c); cur = c
		}
		if (!inplot) next
		while (match(line, /[0-9]+\.[0-9]+,[0-9]+\.[0-9]+/)) {
			p = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
			split(p, xy, ","); n++; X[n] = xy[1] + 0; Y[n] = xy[2] + 0; C[n] = cur
			if (Y[n] > maxy) maxy = Y[n]
		}
	}
	END {
		gsub(/ +/, " ", want); best = -1
		for (i = 1; i <= n; i++)
			if (C[i] == want && Y[i] > maxy - 3 && X[i] > best) best = X[i]
		print best
	}' "$1"
}

# ---- one run: the planted spike ----------------------------------------
mkdir -p "$TMP/base" "$TMP/spike"
synth_cyclic "$TMP/base/cyclic.json" 6.1.0-test-amd64 voluntary 20000 0
synth_cyclic "$TMP/spike/cyclic.json" 6.1.0-test-amd64 voluntary 20000 5000000
check "synthesised documents parse" jq_ok "$TMP/spike/cyclic.json" '.metrics | length == 3'

for d in base spike; do
	"$PLOT" -q "$TMP/$d" >"$TMP/$d.out" 2>&1
	ok $? "rtproof plot $d exits 0"
done
H=cyclic-wakeup_latency-hist
for f in $H cyclic-wakeup_latency-percentiles cyclic-wakeup_latency-over-time; do
	p=$TMP/spike/plots/$f
	# the signature, then the IHDR chunk: 960 x 600 as the script asks
	[ "$(head -c 24 "$p.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a0000000d49484452000003c000000258 ]
	ok $? "$f.png is a 960x600 PNG"
	head -c 400 "$p.svg" | grep -q '<svg' && tail -c 20 "$p.svg" | grep -q '</svg>' &&
		{ ! command -v xmllint >/dev/null || xmllint --noout "$p.svg"; }
	ok $? "$f.svg is an SVG document"
	[ -s "$p.gp" ] && [ -s "$p.dat" ] && grep -q "$f.dat" "$p.gp"
	ok $? "$f: its gnuplot script and data are kept beside it"
done
! cmp -s "$TMP/base/plots/$H.png" "$TMP/spike/plots/$H.png"
ok $? "the histogram image changes with the data"

# The data behind the figure: the 5 ms bucket is in CPU 1's block, not CPU 0's.
cpu_max_us() { awk -v want="$2" '/^# index/ { idx = $3 + 0; sub(/:$/, "", $3); lab = $0 } /^[0-9]/ && lab ~ want ": histogram" { if ($1 > m) m = $1 } END { print m + 0 }' "$1"; }
c0=$(cpu_max_us "$TMP/spike/plots/$H.dat" "CPU 0")
c1=$(cpu_max_us "$TMP/spike/plots/$H.dat" "CPU 1")
awk -v a="$c0" -v b="$c1" 'BEGIN { exit !(a < 100 && b > 4000) }'
ok $? "data: CPU 1's curve reaches the 5 ms spike ($c1 us), CPU 0's does not ($c0 us)"

# The picture: on the one-sample row, CPU 1's colour reaches far right of CPU 0's.
b0=$(bottom_max_x "$TMP/spike/plots/$H.svg" "0, 114, 178")
b1=$(bottom_max_x "$TMP/spike/plots/$H.svg" "213, 94, 0")
awk -v a="$b0" -v b="$b1" 'BEGIN { exit !(a > 0 && b > a + 200) }'
ok $? "image: CPU 1's curve is drawn at the spike (x $b1), CPU 0's ends well left (x $b0)"
n0=$(bottom_max_x "$TMP/base/plots/$H.svg" "0, 114, 178")
n1=$(bottom_max_x "$TMP/base/plots/$H.svg" "213, 94, 0")
awk -v a="$n0" -v b="$n1" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d < 5) }'
ok $? "image without the spike: both CPUs end together (x $n0, $n1)"

# Over time: CPU 1's block series peaks at t = 2 s, CPU 0's stays flat.
T=$TMP/spike/plots/cyclic-wakeup_latency-over-time.dat
awk '/^# index/ { lab = $0 } /^[0-9]/ && lab ~ /CPU 1/ && $2 > 4000 { print $1 }' "$T" | grep -q '^2\.0'
ok $? "over time: CPU 1's 5 ms block is at 2.0 s"
! awk '/^# index/ { lab = $0 } /^[0-9]/ && lab ~ /CPU 0/ && $2 > 100 { f = 1 } END { exit !f }' "$T"
ok $? "over time: CPU 0 has no block above 100 us"

# A document without the series: a note, no figure.
jq 'del(.metrics[].series)' "$TMP/base/cyclic.json" >"$TMP/noseries.json"
mkdir -p "$TMP/ns" && mv "$TMP/noseries.json" "$TMP/ns/cyclic.json"
"$PLOT" "$TMP/ns" >"$TMP/ns.out" 2>&1
ok $? "rtproof plot without series exits 0"
grep -q 'over-time: not drawn: .*no block series' "$TMP/ns.out" && [ ! -e "$TMP/ns/plots/cyclic-wakeup_latency-over-time.png" ]
ok $? "no series: a note says so and no over-time image is made"

# gnuplot missing: a skip that names the package, scripts and data still written.
RTPROOF_GNUPLOT=/nonexistent "$PLOT" -o "$TMP/nognu" "$TMP/base" >"$TMP/nognu.out" 2>&1
rc=$?
[ $rc -eq 4 ] && grep -q 'skip: gnuplot not found (Debian: apt-get install gnuplot-nox)' "$TMP/nognu.out" &&
	[ -s "$TMP/nognu/$H.gp" ] && [ ! -e "$TMP/nognu/$H.png" ]
ok $? "no gnuplot: exit 4 (got $rc), the skip names gnuplot-nox, scripts kept, no image"
RTPROOF_GNUPLOT=/nonexistent "$REPORT" -q "$TMP/base" >"$TMP/nognu-r.out" 2>&1
ok $? "no gnuplot: rtproof report still writes the page"
grep -q 'gnuplot is not installed' "$TMP/base/report.html"
ok $? "no gnuplot: the page says the figures were not drawn"

# Bad input: one line naming the option or path, exit 1.
"$PLOT" "$TMP/none" >"$TMP/bad.out" 2>&1; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$TMP/bad.out")" -eq 1 ] && grep -q "rtproof-plot: error: $TMP/none" "$TMP/bad.out"
ok $? "a missing RESULT: one-line error, exit 1 (got $rc)"
echo '{"schema": "something/9"}' >"$TMP/odd.json"
"$REPORT" -o "$TMP/odd.html" "$TMP/odd.json" >"$TMP/bad2.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "error: $TMP/odd.json: schema 'something/9'" "$TMP/bad2.out" && [ ! -e "$TMP/odd.html" ]
ok $? "a document of another schema: error, exit 1, no page (got $rc)"

# ---- a whole suite: audio xruns, irqlat stages, lockstress inversion ------
# synth_suite DIR: audio.json (xruns at 0.7 s and 1.5 s, a lateness series),
# irqlat.json (module stages), lockstress.json (inversion per protocol).
synth_suite() {
	jq -n '
	def pct($b; $p): ([$b[][2]] | add) as $n | ($p / 100 * $n | ceil) as $r
		| reduce $b[] as $x ({c: 0, v: null};
			if .v == null then (.c += $x[2] | if .c >= $r then .v = $x[1] else . end) else . end) | .v;
	def m($name; $base; $step; $extra): [5, 50, 300, 120, 20, 3] as $cs
		| [range(0; 6) as $i | [$base + $i * $step, $base + $i * $step + $step - 1, $cs[$i]]] as $b
		| { name: $name, unit: "ns", count: ([$b[][2]] | add), min: $b[0][0], max: $b[-1][1],
		    mean: ($base + 2 * $step), stddev: $step, overflow: 0,
		    percentiles: ({} | .["50"] = pct($b; 50) | .["90"] = pct($b; 90) | .["99"] = pct($b; 99)
		                  | .["99.9"] = pct($b; 99.9) | .["99.99"] = pct($b; 99.99) | .["99.999"] = pct($b; 99.999)),
		    histogram: { kind: "log-linear", sub_bucket_bits: 7, buckets: $b } } + $extra;
	{ system: { kernel_release: "6.1.0-57-rt-amd64", preempt: "rt", virtualized: false, cpus_online: 1,
	            cpu_model: "Test CPU", cmdline: "quiet", clocksource: "tsc", kernel_version: "#1 SMP PREEMPT_RT" },
	  start: "2026-12-04T10:00:00Z", version: "0.1.0", schema: "rtproof/1", load: { name: "cpu" } } as $common
	| { audio: ($common + { tool: "rtproof-audio", command: ["rtproof-audio", "-d", "3s"], duration_s: 3,
	      params: { backend: "timer", policy: "fifo", priority: 80, mlockall: true,
	                granted: { rate: 48000, period_frames: 64, periods: 2, period_ns: 1333334, buffer_ns: 2666667 } },
	      metrics: [ m("wakeup_lateness"; 10000; 2000; { thread: "audio",
	                   series: { kind: "time-blocks", clock: "monotonic", t0_s: 0, block_s: 0.1, coarsened: 0,
	                             blocks: [range(0; 30) as $t | [$t / 10, 75,
	                                      (if $t == 7 or $t == 15 then 3000000 else 20000 end)]] } }),
	                 m("buffer_margin"; 200000; 100000; { thread: "audio" }) ],
	      events: { xruns: 2, xrun_list: [ { kind: "xrun", time_s: 0.71, lateness_ns: 3000000, duration_ns: 1200000 },
	                                        { kind: "xrun", time_s: 1.53, lateness_ns: 2900000, duration_ns: 1100000 } ],
	                xrun_list_truncated: false },
	      verdict: { status: "fail", reason: "2 xruns in 3.0 s", criteria: [] } }),
	    irqlat: ($common + { tool: "rtproof-irqlat", command: ["rtproof-irqlat", "-l", "500"], duration_s: 0.5,
	      params: { source: "module", mlockall: true, reader_policy: "fifo", reader_priority: 90,
	                irq_thread: { found: true, name: "irq/26-rtproof", policy: "fifo", priority: 70,
	                              priority_set: true, original_policy: "fifo", original_priority: 50,
	                              threading: "forced (PREEMPT_RT)" } },
	      metrics: [ m("irq_latency"; 1000; 100; { span: "a->b", cpu: 0, thread: 0 }),
	                 m("thread_wakeup"; 3000; 200; { span: "b->c", cpu: 0, thread: 0 }),
	                 m("user_wakeup"; 8000; 300; { span: "c->d", cpu: 0, thread: 0 }),
	                 m("total"; 12000; 600; { span: "a->d", cpu: 0, thread: 0 }) ],
	      events: { records: 500 }, verdict: { status: "pass", reason: "figures only", criteria: [] } }),
	    lockstress: ($common + { tool: "rtproof-lockstress", command: ["rtproof-lockstress", "-q"], duration_s: 30,
	      params: { policy_rt: "fifo", priority: 40, mlockall: true },
	      scenarios: { inversion: { bound_ns: 30000000 } },
	      metrics: [ m("inversion_wait"; 15000000; 100000; { protocol: "inherit", scenario: "inversion", cpu: 1, thread: "high" }),
	                 m("inversion_wait"; 10000000; 100000; { protocol: "protect", scenario: "inversion", cpu: 1, thread: "high" }),
	                 m("inversion_wait"; 280000000; 5000000; { protocol: "none", scenario: "inversion", cpu: 1, thread: "high" }),
	                 m("contention_wait"; 100; 50; { kind: "mutex", threads: 2, thread: "all", cpu: "all" }) ],
	      events: { stopped_by: "end" }, verdict: { status: "fail", reason: "inversion unbounded without a protocol", criteria: [] } }) }
	' >"$TMP/suite.json"
	mkdir -p "$1"
	for b in audio irqlat lockstress; do jq ".$b" "$TMP/suite.json" >"$1/$b.json"; done
}
S=$TMP/suite
synth_suite "$S"
"$REPORT" -q "$S" >"$TMP/suite.out" 2>&1
ok $? "rtproof report on a suite of audio, irqlat and lockstress documents exits 0"
for f in audio-timeline audio-lateness-margin audio-wakeup_lateness-percentiles irqlat-stages irqlat-stages-percentiles \
	irqlat-total-hist irqlat-total-percentiles lockstress-inversion lockstress-contention; do
	[ "$(head -c 8 "$S/plots/$f.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		grep -q '</svg>' "$S/plots/$f.svg"
	ok $? "suite: $f drawn (PNG and SVG)"
done
xr=$(awk '/^# index/ { lab = $0 } /^[0-9]/ && lab ~ /xruns/ { printf "%s ", $1 }' "$S/plots/audio-timeline.dat")
[ "$xr" = "0.710000 1.530000 " ] && grep -q 'set arrow from 0.710000, graph 0' "$S/plots/audio-timeline.gp" &&
	grep -q 'set arrow from 1.530000, graph 0' "$S/plots/audio-timeline.gp"
ok $? "audio: both xruns marked at their times ($xr)"
awk '/^# index/ { lab = $0 } /^[0-9]/ && lab ~ /wakeup_lateness/ && $2 > 1000 { printf "%s ", $1 }' \
	"$S/plots/audio-timeline.dat" | grep -q '^0.700000 0.800000 1.500000 1.600000 $'
ok $? "audio: the lateness series peaks in the blocks of the xruns"
# The stages' p50 as the synthesised percentiles say, in us, stacked in order.
st=$(jq -r '[.metrics[] | .percentiles["50"] / 1000] | map(tostring) | join(" ")' "$S/irqlat.json")
got=$(awk '/^"p50"/ { printf "%g %g %g %g", $2, $3, $4, $5 }' "$S/plots/irqlat-stages.dat")
[ "$got" = "$(for v in $st; do printf '%g ' "$v"; done | sed 's/ $//')" ]
ok $? "irqlat: the stacked p50 stages are the documents' (got '$got', want '$st')"
prot=$(awk '/^"/ { gsub(/"/, "", $1); printf "%s ", $1 }' "$S/plots/lockstress-inversion.dat")
[ "$prot" = "inherit protect none " ] && grep -q 'bound 30.0 ms' "$S/plots/lockstress-inversion.gp"
ok $? "lockstress: one bar per protocol ($prot) and the bound"
grep -q 'set to fifo 70 (was fifo 50; restored at exit)' "$S/report.html" && grep -q '&#10008; FAIL' "$S/report.html"
ok $? "suite page: the IRQ thread priority change and the overall FAIL"

# ---- a ladder with compare.json -----------------------------------------
L=$TMP/ladder
mkdir -p "$L/stock-none" "$L/rt"
synth_cyclic "$L/stock-none/cyclic.json" 6.1.0-57-amd64 none 40000 9000000
synth_cyclic "$L/rt/cyclic.json" 6.1.0-57-rt-amd64 rt 20000 0
for r in stock-none rt; do
	echo '{"schema": "rtproof-vm/1", "clock": "icount", "time_base": "instruction time (icount shift=0: 1 ns per guest instruction)", "load": "mixed", "vcpus": 1, "memory_mib": 512, "command": ["rtproof-cyclic", "-l", "3000"], "kernel_cmdline": "console=ttyS0", "qemu": "7.2.0"}' >"$L/$r/vm.json"
done
jq -n --slurpfile b "$L/stock-none/cyclic.json" --slurpfile n "$L/rt/cyclic.json" '
	def m($d): $d[0].metrics[] | select(.cpu == "all");
	{ schema: "rtproof-compare/1", confidence: 0.95, threshold: 0.10,
	  base: { label: "stock-none", path: "stock-none", kernel_release: "6.1.0-57-amd64", preempt: "none" },
	  new: [ { label: "rt", path: "rt", kernel_release: "6.1.0-57-rt-amd64", preempt: "rt" } ],
	  warnings: [ "stock-none: 3000 samples: p99.99 and above have no interval" ],
	  rows: [ ["p50", "50"], ["p99", "99"], ["p99.9", "99.9"], ["max", null] ] | map(. as [$f, $k]
	    | (m($b)) as $mb | (m($n)) as $mn
	    | ( if $k then $mb.percentiles[$k] else $mb.max end ) as $bv
	    | ( if $k then $mn.percentiles[$k] else $mn.max end ) as $nv
	    | { bench: "cyclic", metric: "wakeup_latency", cpu: "all", thread: "all", figure: $f, unit: "ns",
	        new_index: 0, base: $bv, base_ci: (if $k then [$bv * 0.95, $bv * 1.05] else null end),
	        new: $nv, new_ci: (if $k then [$nv * 0.95, $nv * 1.05] else null end),
	        ratio: ($nv / $bv), verdict: (if $nv < $bv * 0.9 then "better" elif $nv > $bv * 1.1 then "worse" else "same" end),
	        method: "order-statistic CI" }),
	  verdict: { status: "pass", regressions: [] } }' >"$L/compare.json"
"$REPORT" "$L" >"$TMP/ladder.out" 2>&1
ok $? "rtproof report on a ladder directory exits 0"
[ -s "$L/report.html" ] && [ -s "$L/plots/headline.png" ] && [ -s "$L/plots/cyclic-wakeup_latency-percentiles.svg" ]
ok $? "the ladder gets report.html, a headline chart and the percentile overlay"
# Overlay data: RT's tail below stock's (what the synthesised runs hold).
P=$L/plots/cyclic-wakeup_latency-percentiles.dat
s_tail=$(awk '/^# index/ { lab = $0 } /^[0-9]/ && lab ~ /stock-none/ { v = $2 } END { print v }' "$P")
r_tail=$(awk '/^# index/ { lab = $0 } /^[0-9]/ && lab ~ /: rt/ || (/^[0-9]/ && lab ~ /index 1: rt/) { v = $2 } END { print v }' "$P")
awk -v s="$s_tail" -v r="$r_tail" 'BEGIN { exit !(r > 0 && r < s) }'
ok $? "percentile overlay: the rt curve ends below stock's ($r_tail us < $s_tail us)"
grep -q 'id="compare-table"' "$L/report.html" && grep -q 'order-statistic CI' "$L/report.html" &&
	grep -q 'instruction time' "$L/report.html"
ok $? "the ladder page holds the comparison's table, its method and the VM time base"
grep -q '<rect x="0" y="0" width="960" height="600" fill="#ffffff"/>' "$L/report.html" &&
	! grep -q '="#f[0-9]*-[0-9a-fA-F]\{6\}"' "$L/report.html"
ok $? "inline SVG: colours stay colours (fill=\"#ffffff\"), only references take the figure's prefix"

# A rung whose boot failed (a serial log, no document) is an error, not left out.
cp -r "$L" "$TMP/ladder2" && rm -rf "$TMP/ladder2/plots" "$TMP/ladder2/report.html"
mkdir -p "$TMP/ladder2/stock-full" && echo "Kernel panic" >"$TMP/ladder2/stock-full/serial.log"
"$REPORT" -q "$TMP/ladder2" >/dev/null 2>&1 &&
	grep -q 'id="overall">Overall: <b>ERROR</b> &mdash; stock-full: no result document' "$TMP/ladder2/report.html"
ok $? "a failed rung makes the overall verdict ERROR and is named"

# ---- a ladder with throughput rows: the price beside the worst case -------
# price_ladder DIR: rungs rt (the base), stock-none, stock-full and rt-full
# (cyclic documents), a compare.json with each bench's max and one
# throughput row per part of rtproof-load (new/base ops per second).
price_ladder() {
	mkdir -p "$1/rt" "$1/stock-none" "$1/stock-full" "$1/rt-full"
	synth_cyclic "$1/rt/cyclic.json" 6.12.0-rt-amd64 rt 5000 0
	synth_cyclic "$1/stock-none/cyclic.json" 6.12.0-amd64 none 8000 300000
	synth_cyclic "$1/stock-full/cyclic.json" 6.12.0-amd64 full 4000 2900000
	synth_cyclic "$1/rt-full/cyclic.json" 6.12.0-rt-amd64 rt 5000 0
	jq -n '
	def lat($b; $m; $k; $base; $new): { bench: $b, metric: $m, cpu: "all", thread: "all", key: "cpu all thread all",
		figure: "max", unit: "ns", new_index: $k, base: $base, new: $new, base_ci: null, new_ci: null,
		ratio: ($new / $base), verdict: (if $new > 2 * $base then "worse" elif $new < $base / 2 then "better" else "same" end),
		p_holm: 0.001, method: "episode exceedance test" };
	def tput($k; $part; $r; $lo; $hi; $v): { bench: "load", metric: "ns_per_op", cpu: 0, thread: null,
		key: ("cpu 0 part " + $part), figure: "throughput", unit: "ops/s", new_index: $k,
		base: 100000, base_ci: [99000, 101000], new: (100000 * $r), new_ci: [100000 * $lo, 100000 * $hi],
		ratio: $r, ratio_ci: [$lo, $hi], higher_is_worse: false, p_holm: 0.001, verdict: $v,
		method: "t interval on log throughput over 2 and 2 runs (boot-to-boot spread; rounds within)" };
	{ schema: "rtproof-compare/1", confidence: 0.95, threshold: 0.10,
	  base: { label: "rt", path: "rt", kernel_release: "6.12.0-rt-amd64", preempt: "rt" },
	  new: [ { label: "stock-none", path: "stock-none", kernel_release: "6.12.0-amd64", preempt: "none" },
	         { label: "stock-full", path: "stock-full", kernel_release: "6.12.0-amd64", preempt: "full" },
	         { label: "rt-full", path: "rt-full", kernel_release: "6.12.0-rt-amd64", preempt: "rt" } ],
	  rows: [ lat("cyclic"; "wakeup_latency"; 0; 6800; 356600), lat("cyclic"; "wakeup_latency"; 1; 6800; 2908300),
	          lat("cyclic"; "wakeup_latency"; 2; 6800; 7100),
	          lat("irqlat"; "total"; 0; 21900; 1355400), lat("irqlat"; "total"; 1; 21900; 2728400),
	          lat("irqlat"; "total"; 2; 21900; 23000),
	          tput(0; "ctxsw"; 1.10; 1.09; 1.11; "better"), tput(0; "futex-pi"; 1.35; 1.30; 1.40; "better"),
	          tput(0; "syscall"; 1.02; 0.995; 1.04; "same"), tput(0; "loopback"; 1.12; 1.10; 1.14; "better"),
	          tput(0; "spawn"; 1.01; 0.98; 1.04; "same"),
	          tput(1; "ctxsw"; 1.05; 1.04; 1.06; "same"), tput(1; "futex-pi"; 1.30; 1.25; 1.35; "better"),
	          tput(1; "syscall"; 1.00; 0.98; 1.02; "same"), tput(1; "loopback"; 1.08; 1.06; 1.10; "same"),
	          tput(1; "spawn"; 0.99; 0.96; 1.02; "same"),
	          tput(2; "ctxsw"; 0.99; 0.98; 1.00; "same"), tput(2; "futex-pi"; 0.98; 0.95; 1.01; "same"),
	          tput(2; "syscall"; 1.00; 0.99; 1.01; "same"), tput(2; "loopback"; 0.97; 0.96; 0.98; "worse"),
	          tput(2; "spawn"; 1.00; 0.97; 1.03; "undecided") ],
	  verdict: { status: "fail", regressions: [] } }' >"$1/compare.json"
}
LP=$TMP/ladder-price
price_ladder "$LP"
"$REPORT" -q --text "$LP" >"$TMP/lp.txt" 2>"$TMP/lp.err"
ok $? "rtproof report --text on a ladder with throughput rows: exit 0"
sed 's/^/# /' "$TMP/lp.txt"
# stock-none's geometric mean 1.1137 [1.0873, 1.1389]: RT does 1/1.1137 = 89.8 %, 10.2 % less work per second
grep -qF '  throughput, RT against stock-none: RT does 10.2 % less work per second than stock-none (geometric mean of the 5 parts, 95 % CI [-12.2, -8.0] %, significant; per part: ctxsw -9.1 % [-9.9, -8.3] significant, futex-pi -25.9 % [-28.6, -23.1] significant, syscall -2.0 % [-3.8, +0.5] no significant difference, loopback -10.7 % [-12.3, -9.1] significant, spawn -1.0 % [-3.8, +2.0] no significant difference).' "$TMP/lp.txt"
ok $? "the first screen: RT's throughput against stock-none, the geometric mean and each part with its interval and significance"
# a difference inside compare's 10 % threshold (its verdict "same") is still significant when its interval leaves out 0
grep -qF '  throughput, RT against stock-full: RT does 7.3 % less work per second than stock-full (geometric mean of the 5 parts, 95 % CI [-9.4, -5.1] %, significant; per part: ctxsw -4.8 % [-5.7, -3.8] significant,' "$TMP/lp.txt" &&
	! grep -q 'throughput, RT against rt-full' "$TMP/lp.txt"
ok $? "a line per stock rung, significance from the interval; the RT rung (rt-full) is not a side of the trade"
head -n 1 "$TMP/lp.txt" | grep -qF "Its price in work done: RT does 10.2 % less work per second than the fastest stock rung, stock-none (geometric mean of 5 parts; 95 % CI [-12.2, -8.0] %, significant)."
ok $? "the top names RT's price against the fastest stock rung, with its interval"
grep -q 'throughput, RT against stock-none: RT does 10.2 % less' "$LP/report.html" && grep -q 'id="trade-table"' "$LP/report.html"
ok $? "report.html: the same line, and the trade table"
# the table: a row per rung; the worst cases and throughput against RT with intervals
tr=$(sed -n '/id="trade-table"/,/<\/table>/p' "$LP/report.html")
[ "$(grep -o '<tr><td class="rung">' <<<"$tr" | wc -l)" -eq 4 ] &&
	grep -q '<th colspan="2">worst case (max)</th><th colspan="6">throughput against RT</th>' <<<"$tr" &&
	grep -q '<th>cyclic<br><small>wakeup_latency</small></th><th>irqlat<br><small>total</small></th><th>ctxsw</th>' <<<"$tr" &&
	grep -q '<th>geometric mean</th>' <<<"$tr" &&
	grep -qF '<tr><td class="rung">stock-none<br><small>preempt none</small></td><td class="num">356.6&nbsp;&micro;s<br><small>RT better</small></td><td class="num">1355.4&nbsp;&micro;s<br><small>RT better</small></td><td class="num">+10.0&nbsp;%<br><small>[+9.0, +11.0]</small><br><small>RT worse</small></td>' <<<"$tr" &&
	grep -qF '<td class="num">+11.4&nbsp;%<br><small>[+8.7, +13.9]</small><br><small>RT worse</small></td></tr>' <<<"$tr" &&
	grep -qF '<td class="num">-1.2&nbsp;%<br><small>[-3.0, +0.6]</small><br><small>undecided</small></td></tr>' <<<"$tr" &&
	grep -qF '<tr><td class="rung">rt<br><small>preempt rt</small></td><td class="num">6.8&nbsp;&micro;s</td><td class="num">21.9&nbsp;&micro;s</td><td class="num">reference</td>' <<<"$tr"
ok $? "trade table: a row per rung, each bench's worst case, throughput against RT per part and the mean, with intervals"
PP=$LP/plots/trade-pareto
[ "$(head -c 8 "$PP.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && grep -q '</svg>' "$PP.svg" &&
	grep -q 'href="plots/trade-pareto.png"' "$LP/report.html" && grep -q '<figure id="trade-pareto">' "$LP/report.html" &&
	grep -q 'href="#trade-pareto"' "$LP/report.html"
ok $? "the Pareto figure: PNG and SVG written, inline on the page, linked from the trade table"
# x: each rung against the fastest stock rung (stock-none, 1.1137): RT 89.8 %, stock-full 96.8 %, rt-full 88.7 %
pts=$(awk '/^# index 0: cyclic/ { on = 1; next } /^# index/ { on = 0 } on && /^[0-9]/ { printf "%s %.1f %s|", $5, $1, $4 }' "$PP.dat")
[ "$pts" = '"rt" 89.8 6.8|"stock-none" 100.0 356.6|"stock-full" 96.8 2908.3|"rt-full" 88.7 7.1|' ] &&
	grep -q 'using 1:4:2:3 with xerrorbars' "$PP.gp" && grep -q 'with labels' "$PP.gp"
ok $? "Pareto data: a point per rung (x: throughput against the fastest stock rung, y: worst case), x error bars, labels from data ($pts)"
# an older ladder, no price phase: nothing new is shown, and the first screen says nothing was measured
"$REPORT" -q --text "$L" >"$TMP/l-old.txt" 2>/dev/null
grep -q '^  Throughput: not measured (compare.json has no throughput rows' "$TMP/l-old.txt" &&
	! grep -q 'id="trade-table"\|trade-pareto' "$L/report.html" && [ ! -e "$L/plots/trade-pareto.png" ]
ok $? "a ladder without throughput rows: no trade table or Pareto figure, the first screen says throughput was not measured"

# Hostile part names and rung labels: data, never gnuplot code or page markup.
LH=$TMP/ladder-price-hostile
price_ladder "$LH"
CP=$TMP/canary-price
jq --arg c "$CP" '(.rows[] | select(.key == "cpu 0 part spawn") | .key) |= "cpu 0 part <script>alert(1)</script>`touch \($c)`;\nsystem \"touch \($c)\""
	| .new[0].label = "stock-none\u0027`touch \($c)`\"\nset output \u0027/tmp/x\u0027<blink>"' "$LH/compare.json" >"$LH/c.tmp" &&
	mv "$LH/c.tmp" "$LH/compare.json"
"$REPORT" -q --text "$LH" >"$TMP/lh.txt" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && [ ! -e "$CP" ] && [ -s "$LH/plots/trade-pareto.png" ] && ! grep -q '`' "$LH/plots/trade-pareto.gp" &&
	! grep -qE '^[[:space:]]*(system|set output .?/tmp)' "$LH/plots/trade-pareto.gp" &&
	! grep -vE '^(#.*|([0-9.e+-]+ ){2,4}"[^"\\]*"|)$' "$LH/plots/trade-pareto.dat" | grep -q .
ok $? "a hostile part name and rung label reach no gnuplot code: no canary, no backtick, every data line a comment or a row (exit $rc)"
! grep -q '<script>\|<blink>' "$LH/report.html" && grep -q '<th>&lt;script&gt;alert(1)&lt;/script&gt;&#39;touch ' "$LH/report.html" &&
	! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$TMP/lh.txt" &&
	grep -q "per part: ctxsw .*, <script>alert(1)</script>'touch [^,]* -1.0 %" "$TMP/lh.txt"
ok $? "the hostile part name: escaped on the page, one line in the text"

# ---- the page in a real browser -------------------------------------------
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$CHROME" ]; then
	skip "the page in headless Chromium" "chromium not installed (Debian: apt-get install chromium)"
	done_testing
	exit
fi
chrome() {	# PROFILE ARGS...: headless, no network, nothing shared between runs
	local prof=$1; shift
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --disable-extensions \
		--user-data-dir="$prof" --enable-logging=stderr --v=0 "$@"
}
# The console check can fail: a page that logs an error is caught.
printf '<!DOCTYPE html><html><body><script>console.error("planted failure")</script></body></html>' >"$TMP/err.html"
chrome "$TMP/prof0" --dump-dom "file://$TMP/err.html" >/dev/null 2>"$TMP/err.log"
grep -q 'CONSOLE.*planted failure' "$TMP/err.log"
ok $? "the console check sees a planted console error"

for page in "$L/report.html" "$TMP/spike/report.html" "$LP/report.html"; do
	[ "$page" = "$L/report.html" ] || "$REPORT" -q "$TMP/spike" >/dev/null 2>&1
	name=$(basename "$(dirname "$page")")
	chrome "$TMP/prof-$name" --dump-dom "file://$page" >"$TMP/$name.dom" 2>"$TMP/$name.log"
	ok $? "$name: Chromium loads report.html"
	! grep -E 'CONSOLE|Refused to|ERR_' "$TMP/$name.log" | grep -q .
	ok $? "$name: no console errors, nothing refused"
	rows=$(sed -n '/id="verdicts"/,/<\/table>/p' "$TMP/$name.dom" | grep -o '<tr><td>' | wc -l)
	want_rows=1
	[ "$name" = ladder ] && want_rows=3	# two rungs and the comparison
	[ "$name" = ladder-price ] && want_rows=5	# four rungs and the comparison
	[ "$rows" -eq "$want_rows" ] && grep -q 'id="overall">Overall: <b>' "$TMP/$name.dom"
	ok $? "$name: the DOM holds the verdict table ($rows rows, want $want_rows) and the overall verdict"
	want=$(ls "$(dirname "$page")"/plots/*.svg | wc -l)
	figs=$(grep -o '<figure id=' "$TMP/$name.dom" | wc -l)
	svgs=$(grep -o '<svg role="img"' "$TMP/$name.dom" | wc -l)
	[ "$figs" -eq "$want" ] && [ "$svgs" -eq "$want" ] && [ "$want" -ge 3 ]
	ok $? "$name: $figs figures, each an inline SVG, one per drawn image ($want)"
	broken=0
	for src in $(grep -o '<img [^>]*src="[^"]*"' "$TMP/$name.dom" | sed 's/.*src="//; s/"$//'); do
		case $src in data:*) ;; *) [ -s "$(dirname "$page")/$src" ] || broken=$((broken + 1)) ;; esac
	done
	for href in $(grep -o 'href="plots/[^"]*"' "$TMP/$name.dom" | sed 's/href="//; s/"$//' | sort -u); do
		[ -s "$(dirname "$page")/$href" ] || broken=$((broken + 1))
	done
	! grep -qE '<(script|link|iframe)|src="https?:|href="https?:' "$TMP/$name.dom" && [ $broken -eq 0 ]
	ok $? "$name: no broken image or file link ($broken), no script, nothing from the network"
	grep -oE "id=\"[^\"]*\"" "$TMP/$name.dom" | sed 's/^id="//; s/"$//' | sort >"$TMP/$name.ids"
	dups=$(uniq -d "$TMP/$name.ids" | wc -l)
	missing=0
	for ref in $( { grep -oE "url\(#[^)]*\)" "$TMP/$name.dom" | sed 's/^url(#//; s/)$//'
			grep -oE "href=\"#[^\"]*\"" "$TMP/$name.dom" | sed 's/^href="#//; s/"$//'; } | sort -u); do
		grep -qxF "$ref" "$TMP/$name.ids" || { missing=$((missing + 1)); diag "$name: #$ref is referenced, not defined"; }
	done
	[ "$dups" -eq 0 ] && [ "$missing" -eq 0 ] && grep -q "url(#f0-gpPat\|href=\"#f0-gp" "$TMP/$name.dom"
	ok $? "$name: every id is unique and every #reference (patterns, point symbols, links) resolves ($dups duplicate, $missing missing)"
	chrome "$TMP/prof-$name-shot" --window-size=1280,2400 --hide-scrollbars \
		--screenshot="$TMP/$name.png" "file://$page" >/dev/null 2>&1
	[ "$(head -c 8 "$TMP/$name.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	ok $? "$name: a screenshot is taken"
	[ -z "${RTPROOF_KEEP_SCREENSHOT:-}" ] || cp "$TMP/$name.png" "$RTPROOF_KEEP_SCREENSHOT-$name.png"
done

# SIGTERM while gnuplot draws (a stand-in that sleeps): the tool ends it,
# removes its private directory and says so in one line; nothing runs on.
SD=$TMP/sigdir
mkdir -p "$SD"
cp "$RTPROOF_ROOT/tests/fuzz/corpus/doc/valid-cyclic.json" "$SD/cyclic.json"
printf '#!/bin/sh\nexec sleep 297\n' >"$TMP/slowplot"
chmod +x "$TMP/slowplot"
RTPROOF_GNUPLOT=$TMP/slowplot "$RTPROOF_BIN/rtproof-report" -q "$SD" >/dev/null 2>"$TMP/sig.err" &
rp=$!
i=0
while [ $i -lt 100 ] && ! pgrep -x -f "sleep 297" >/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -TERM $rp
t0=$(date +%s)
wait $rp
rc=$?
took=$(( $(date +%s) - t0 ))
sleep 0.2
[ $rc -eq 1 ] && [ $took -le 3 ] && [ "$(wc -l <"$TMP/sig.err")" -eq 1 ] && ! ls -a "$SD/plots" 2>/dev/null | grep -q '^\.rtproof-plot' &&
	! pgrep -f "$TMP/slowplot" >/dev/null && ! pgrep -x -f "sleep 297" >/dev/null && [ ! -e "$SD/report.html" ]
ok $? "SIGTERM while gnuplot draws: exit $rc in ${took}s, one line ($(head -c 120 "$TMP/sig.err")), no private directory, no gnuplot left, no page"
done_testing
