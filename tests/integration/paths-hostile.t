#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# Writing where others can reach (issue 23 items 3 and 7, docs/security.md):
# temporary names come from mktemp, never from a fixed or $$ name another
# user can plant first; a ladder given to compare-kernels --from is not
# written through its links; rtproof-junit takes paths with spaces; a cached
# kernel .deb is hashed again on every reuse.
. "$(dirname "$0")/tap.sh"
R=$RTPROOF_ROOT

# --load io's dd round: a link planted at the old fixed name /tmp/load.dd is
# not written through.  In a private mount namespace with its own /tmp (and
# without stress-ng, which the io load prefers), so nothing here meets
# another user's /tmp or load.
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	unshare -m sh -c '
		. "$1/scripts/rtproof-lib.sh"	# first: the checkout may be under /tmp
		mount -t tmpfs -o mode=1777 tmpfs /tmp || exit 9
		mkdir /tmp/pbin /tmp/marks
		for c in sh dd rm mktemp sleep find cat wc; do ln -s "$(command -v $c)" /tmp/pbin/$c; done
		echo intact >/tmp/victim
		ln -s /tmp/victim /tmp/load.dd
		unset TMPDIR
		PATH=/tmp/pbin
		RTP_LOAD_MARKS=/tmp/marks
		rtp_load_start io
		sleep 2
		rtp_load_stop
		sleep 1
		echo "victim: $(cat /tmp/victim)"
		echo "rounds: $(cat /tmp/marks/load.dd 2>/dev/null | wc -l)"
		echo "left: $(cd /tmp && echo rtproof-load.*)"' sh "$R" >"$TMP/load.out" 2>&1
	sed 's/^/# /' "$TMP/load.out"
	grep -qx 'victim: intact' "$TMP/load.out" && grep -q '^rounds: [1-9]' "$TMP/load.out"
	ok $? "--load io: dd rounds ran, and a link at /tmp/load.dd was not written through"
	grep -qx 'left: rtproof-load.\*' "$TMP/load.out"
	ok $? "--load io: no round's temporary file left behind"
else
	skip "--load io in a private /tmp" "needs root and unshare -m"
	skip "--load io: no temporary file left" "needs root and unshare -m"
fi

# rtproof-lava-guest without --out: a directory pre-made at the name its
# pid would give, owned by another user, receives nothing.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v jq >/dev/null; then
	mkdir -p "$TMP/lt"
	TMPDIR=$TMP/lt sh -c 'mkdir "$TMPDIR/rtproof-lava.$$" && chown nobody "$TMPDIR/rtproof-lava.$$" &&
		exec "$0" --duration 300ms --benches cyclic' "$R/lava/rtproof-lava-guest" >"$TMP/lava.out" 2>&1
	rc=$?
	planted=$(find "$TMP/lt" -maxdepth 1 -user nobody -name 'rtproof-lava.*')
	mine=$(find "$TMP/lt" -maxdepth 1 -user root -name 'rtproof-lava.??????' -perm 700)
	[ -n "$planted" ] && [ -z "$(ls -A "$planted")" ] && [ -n "$mine" ] && [ -f "$mine/cyclic.json" ]
	ok $? "rtproof-lava-guest: results in a private mkdtemp directory, none in another user's (exit $rc)"
else
	skip "rtproof-lava-guest's result directory" "needs root, a user nobody and jq"
fi

# compare-kernels --from: the ladder's .build/bench-exits.txt as a link, or
# .build itself a link to elsewhere: neither target is touched.
echo "victim intact" >"$TMP/victim"
mkdir -p "$TMP/ladder1/.build" "$TMP/ladder2" "$TMP/elsewhere"
ln -s "$TMP/victim" "$TMP/ladder1/.build/bench-exits.txt"
ln -s "$TMP/elsewhere" "$TMP/ladder2/.build"
for l in ladder1 ladder2; do
	BIN=$RTPROOF_BIN "$R/scripts/rtproof-compare-kernels" --from "$TMP/$l" >/dev/null 2>"$TMP/$l.err"
	diag "compare-kernels --from $l: exit $?: $(head -n 1 "$TMP/$l.err")"
done
grep -qx "victim intact" "$TMP/victim" && [ -z "$(ls -A "$TMP/elsewhere")" ]
ok $? "compare-kernels --from: nothing written through the ladder's links"
# a ladder with real rungs, so that compare.json and the figures get
# written: compare.json planted as a link, plots as another user's link
L3=$TMP/ladder3
for n in 1 2; do
	mkdir -p "$L3/rt-run$n" "$L3/stock-none-run$n"
	rtp-mkdoc --seed $((10 + n)) --duration 2s --kernel 6.12.0-rt --preempt rt --out "$L3/rt-run$n/cyclic.json" &&
		rtp-mkdoc --seed $((20 + n)) --duration 2s --kernel 6.12.0 --preempt none \
			--out "$L3/stock-none-run$n/cyclic.json" || echo "# rtp-mkdoc failed"
done
echo "victim intact" >"$TMP/victim3"
mkdir -p "$TMP/elsewhere3"
ln -s "$TMP/victim3" "$L3/compare.json"
ln -s "$TMP/elsewhere3" "$L3/plots"
chown -h nobody "$L3/plots" 2>/dev/null
BIN=$RTPROOF_BIN "$R/scripts/rtproof-compare-kernels" --from "$L3" >"$TMP/l3.out" 2>"$TMP/l3.err"
rc=$?
grep -qx "victim intact" "$TMP/victim3" && [ ! -L "$L3/compare.json" ] && jq -e '.rows | length > 0' "$L3/compare.json" >/dev/null &&
	{ [ "$(stat -c %U "$L3/plots")" != nobody ] || [ -z "$(ls -A "$TMP/elsewhere3")" ]; }
ok $? "compare-kernels --from a ladder: compare.json replaces the planted link, another user's plots link is not written through (exit $rc; $(head -n 1 "$TMP/l3.err"))"

# rtproof-junit: a suite directory and an --out path with spaces.
S="$TMP/my suite"
mkdir -p "$S"
rtproof-cyclic -l 50 -t 1 -a 0 -q --json "$S/cyclic run.json" >/dev/null 2>&1
"$R/scripts/rtproof-junit" --out "$S/junit out.xml" "$S" 2>"$TMP/junit.err"
rc=$?
[ $rc -eq 0 ] && grep -q '<testcase classname="rtproof.cyclic" name="verdict"' "$S/junit out.xml"
ok $? "rtproof-junit: paths with spaces (exit $rc$( [ -s "$TMP/junit.err" ] && echo ": $(head -n 1 "$TMP/junit.err")"))"

# rtproof kernel: a cached .deb changed with its time kept (older than its
# .sha256) is hashed again, found out and fetched anew.  A private cache
# holding a copy of the trixie index; rtla's few small packages.
real=$("$R/scripts/rtproof-kernel" path stock-6.12 2>/dev/null | xargs -r dirname)
if command -v apt-get >/dev/null && [ -n "$real" ] && [ -d "$real/apt-trixie" ]; then
	K=$TMP/kcache
	mkdir -p "$K/debs"
	cp -a "$real/apt-trixie" "$K/"
	if RTPROOF_KERNEL_CACHE=$K "$R/scripts/rtproof-kernel" rtla -q >/dev/null 2>"$TMP/k1.err"; then
		d=$(ls "$K"/debs/libgcc-s1_*.deb | head -n 1)
		sha=$(cat "$d.sha256")
		# one byte changed in place near the end, the times put back
		off=$(( $(stat -c %s "$d") - 100 ))
		printf 'Z' | dd of="$d" bs=1 seek="$off" conv=notrunc 2>/dev/null
		touch -d '2000-01-01' "$d"
		RTPROOF_KERNEL_CACHE=$K "$R/scripts/rtproof-kernel" rtla -q >/dev/null 2>"$TMP/k2.err"
		rc=$?
		sed 's/^/# /' "$TMP/k2.err"
		grep -q "${d##*/}: sha256 mismatch in cache" "$TMP/k2.err" && [ "$(sha256sum <"$d" | cut -d' ' -f1)" = "$sha" ]
		ok $? "rtproof kernel: a changed cached .deb is hashed again and replaced (exit $rc)"
	else
		sed 's/^/# /' "$TMP/k1.err" | tail -n 3
		skip "rtproof kernel: a changed cached .deb" "the trixie archive could not be reached"
	fi
else
	skip "rtproof kernel: a changed cached .deb" "no apt-get, or no 6.12 kernel cache with its trixie index"
fi
done_testing
