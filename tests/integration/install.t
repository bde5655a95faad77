#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest uses=install
# make install into a DESTDIR gives working commands, run from another
# directory: the benches, rtproof run, rtproof vm and rtproof
# compare-kernels (the VM ones when QEMU and the cached kernels are here),
# the runners' library, kernel/vm, the docs and the man pages.
. "$(dirname "$0")/tap.sh"

D=$TMP/dest
make -s -C "$RTPROOF_ROOT" install DESTDIR="$D" PREFIX=/usr >"$TMP/install.out" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/install.out" | tail -n 20
ok $rc "make install DESTDIR=... PREFIX=/usr"
for f in usr/bin/rtproof usr/bin/rtproof-cyclic usr/bin/rtproof-irqlat usr/bin/rtproof-audio \
	usr/bin/rtproof-lockstress usr/bin/rtproof-load usr/lib/rtproof/scripts/rtproof-run usr/lib/rtproof/scripts/rtproof-vm \
	usr/lib/rtproof/scripts/rtproof-kernel usr/lib/rtproof/scripts/rtproof-compare-kernels \
	usr/lib/rtproof/scripts/rtproof-bisect \
	usr/lib/rtproof/scripts/rtproof-lib.sh usr/lib/rtproof/kernel/vm/init \
	usr/lib/rtproof/kernel/vm/mkinitramfs usr/share/doc/rtproof/README.md \
	usr/share/doc/rtproof/docs/options.md usr/share/man/man1/rtproof.1 \
	usr/share/man/man1/rtproof-cyclic.1; do
	[ -e "$D/$f" ] || missing="${missing:-} $f"
done
[ -z "${missing:-}" ]
ok $? "the programs, the runners and their library, kernel/vm, the docs and man pages are there${missing:+ (missing:$missing)}"
grep -q '^RTPROOF_LIBEXEC_DEFAULT=/usr/lib/rtproof/scripts$' "$D/usr/bin/rtproof"
ok $? "the front end knows the installed scripts' directory"

# From /tmp, with nothing of the source tree on the way.
mkdir -p "$TMP/cwd"
cd "$TMP/cwd" || exit 1
env -u RTPROOF_BIN -u RTPROOF_ROOT PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	"$D/usr/bin/rtproof" cyclic -l 50 -q --json c.json >/dev/null 2>"$TMP/e1"
ok $? "installed: rtproof cyclic runs ($(head -1 "$TMP/e1"))"
env -u RTPROOF_BIN -u RTPROOF_ROOT PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	"$D/usr/bin/rtproof" run --duration 1s --benches cyclic,irqlat --load none --out run \
	>"$TMP/run.out" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/run.out" | tail -n 10
ok $rc "installed: rtproof run from another directory (exit $rc)"
jq_ok run/cyclic.json '.tool == "rtproof-cyclic"' && jq_ok run/irqlat.json '.tool == "rtproof-irqlat"'
ok $? "installed: rtproof run wrote its documents"

if ! command -v qemu-system-x86_64 >/dev/null; then
	skip "installed rtproof compare-kernels" "qemu-system-x86_64 not installed"
	skip "installed rtproof vm" "qemu-system-x86_64 not installed"
elif ! "$D/usr/bin/rtproof" kernel path stock >/dev/null 2>&1; then
	skip "installed rtproof compare-kernels" "no cached stock kernel (make kernels)"
	skip "installed rtproof vm" "no cached stock kernel (make kernels)"
else
	env -u RTPROOF_BIN -u RTPROOF_ROOT PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		"$D/usr/bin/rtproof" compare-kernels --ladder stock:full,rt:rt --loops 100 --irq-loops 100 \
		--audio 1s --iterations 2 --load none --clock tcg --timeout 300s --out ladder >"$TMP/cmp.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/cmp.out" | tail -n 10
	ok $rc "installed: rtproof compare-kernels runs a two-rung ladder (exit $rc)"
	# its boots are the installed rtproof vm's (one boot less than its own case)
	n=0
	for f in $(find ladder -name vm.json); do
		jq_ok "$f" '.outcome == "exited" and .exit_status == 0' &&
			jq_ok "${f%/vm.json}/cyclic.json" '.tool == "rtproof-cyclic" and .metrics[-1].count == 100' &&
			n=$((n + 1))
	done
	[ $n -eq 2 ]
	ok $? "installed: rtproof vm booted both rungs and brought rtproof-cyclic's documents back ($n of 2)"
fi
done_testing
