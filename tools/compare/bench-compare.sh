#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench-compare: rtproof compare validated on synthetic documents of
# known truth (tests/tools/rtp-mkdoc: lognormal body, Pareto tail, bursts
# on every CPU at once; fixed seeds, so the figures repeat on any
# machine).  Prints, per case, how often compare called a regression:
# false alarms where both sides come from one model, power where the
# new side has a planted change.  docs/compare.md records the figures.
#   tools/compare/bench-compare.sh BIN [PAIRS]
set -u
BIN=${1:?usage: bench-compare.sh BIN [PAIRS]}
PAIRS=${2:-200}
case $PAIRS in ''|*[!0-9]*|0) echo "bench-compare: error: PAIRS $PAIRS: a positive count" >&2; exit 1 ;; esac
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtproof-bench-compare.XXXXXX") || exit 1
trap 'rm -rf "$DIR"' EXIT INT TERM
MK=$BIN/rtp-mkdoc
CMP=$BIN/rtproof-compare

# side NAME SEED0 RUNS OPTIONS...: RUNS documents, seeds SEED0.., joined by commas
side() {
	name=$1 s=$2 runs=$3
	shift 3
	list=
	i=0
	while [ $i -lt "$runs" ]; do
		"$MK" --seed $((s + i)) --out "$DIR/$name$i.json" "$@" || exit 1
		list=$list${list:+,}$DIR/$name$i.json
		i=$((i + 1))
	done
	echo "$list"
}

# case LABEL PAIRS RUNS WANT 'BASE OPTIONS' 'NEW OPTIONS': counts exit 2
# (seeds from the pair number and the label's length: a label keeps its
# length, or the case's figures change)
# (and, with WANT=cpu0, exit 2 naming CPU 0 and no other CPU)
run_case() {
	label=$1 n=$2 runs=$3 want=$4 bo=$5 no=$6
	p=0 hit=0 named=0 und=0
	while [ $p -lt "$n" ]; do
		seed=$((1000003 * (p + 1) + 7919 * ${#label}))
		# shellcheck disable=SC2086
		b=$(side b $seed "$runs" $bo) && nw=$(side n $((seed + 500)) "$runs" $no) || exit 1
		"$CMP" -q "$b" "$nw" >"$DIR/out" 2>&1
		rc=$?
		[ $rc -eq 1 ] && { cat "$DIR/out" >&2; exit 1; }
		[ $rc -eq 2 ] && hit=$((hit + 1))
		grep -q '^verdict: .*, 0 undecided' "$DIR/out" || und=$((und + 1))
		if [ $rc -eq 2 ] && grep -q '^  regression: .* cpu 0 thread 0 ' "$DIR/out" &&
		   ! grep -q '^  regression: .* cpu [1-9][0-9]* thread ' "$DIR/out"; then
			named=$((named + 1))
		fi
		p=$((p + 1))
	done
	if [ "$want" = cpu0 ]; then
		printf '%-58s %4d pairs  regression %5.1f %%  named CPU 0 alone %5.1f %%\n' "$label" "$n" \
			"$(echo "100 * $hit / $n" | bc -l)" "$(echo "100 * $named / $n" | bc -l)"
	else
		printf '%-58s %4d pairs  regression %5.1f %%  any undecided %5.1f %%\n' "$label" "$n" \
			"$(echo "100 * $hit / $n" | bc -l)" "$(echo "100 * $und / $n" | bc -l)"
	fi
}

M="--duration 30s --interval 200us"
P=$(( PAIRS / 4 > 10 ? PAIRS / 4 : 10 ))
echo "# false alarms: both sides from one model (family-wise, all rows of a comparison)"
run_case "same model, 2 CPUs, 1 run a side" "$PAIRS" 1 none "$M" "$M"
run_case "same model, 2 CPUs, 3 runs a side" "$PAIRS" 3 none "$M" "$M"
run_case "same model, 64 CPUs, 1 run a side (65 metrics) " "$PAIRS" 1 none "--cpus 64 --duration 5s --interval 1000us" "--cpus 64 --duration 5s --interval 1000us"
echo "# power: a planted change on the new side"
run_case "stall 5 ms every 2 s on CPU 0" "$P" 1 cpu0 "$M" "$M --stall 0:5ms:2s:300ms"
run_case "stall 50 ms every 2.5 s on CPU 0" "$P" 1 cpu0 "$M" "$M --stall 0:50ms:2500ms:700ms"
run_case "stall 60 ms every 5 s on CPU 0" "$P" 1 cpu0 "$M" "$M --stall 0:60ms:5s:1s"
run_case "stall 5 ms every 5 s on CPU 0, 3 runs a side" "$P" 3 cpu0 "$M" "$M --stall 0:5ms:5s:1s"
run_case "stall 60 ms every 5 s on CPU 0, 3 runs a side" "$P" 3 cpu0 "$M" "$M --stall 0:60ms:5s:1s"
run_case "doubled spike rate (tail 0.001 -> 0.002), 3 runs a side" "$P" 3 any "$M" "$M --tail-rate 0.002"
run_case "+20 % body and p99 (base 5 us -> 6 us), 3 runs a side" "$P" 3 any "$M" "$M --base 6us"
