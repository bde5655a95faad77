# SPDX-License-Identifier: GPL-2.0-or-later
# Rule (a) of tests/README.md: a test that asserts a latency runs in the
# icount guest, where guest time counts instructions and the host's own
# stalls do not enter the figures.  Sourced after tap.sh:
#
#   in_guest KERNEL [TIMEOUT]
#
# On the host it boots KERNEL (rtproof vm, icount, one vCPU) with this very
# test, tap.sh and jq inside, runs the test there (RTPROOF_IN_GUEST=1) and
# passes its TAP through; it never returns.  In the guest it returns and
# the test goes on.  No QEMU or kernel here: the whole file skips.
in_guest() {
	[ -n "${RTPROOF_IN_GUEST:-}" ] && return 0
	. "$RTPROOF_ROOT/kernel/vm/test-lib.sh"
	vm_need_qemu
	vm_fetch "$1"
	_g=$TMP/guest
	mkdir -p "$_g/add" || exit 1
	cp "$0" "$_g/add/rtp-test.t" && cp "$(dirname "$0")/tap.sh" "$(dirname "$0")/guest.sh" "$_g/add/" &&
		chmod 755 "$_g/add/"* || exit 1
	_t0=$(date +%s)
	"$VM" -q --kernel "$1" --timeout "${2:-300s}" --out "$_g/vm" \
		--add "$_g/add/rtp-test.t" --add "$_g/add/tap.sh" --add "$_g/add/guest.sh" --add jq -- \
		env RTPROOF_IN_GUEST=1 RTPROOF_BIN=/usr/bin RTPROOF_ROOT=/ sh /usr/bin/rtp-test.t \
		>"$_g/out" 2>"$_g/err"
	_rc=$?
	echo "# in the $1 guest (icount: instruction time), $(( $(date +%s) - _t0 )) s wall, exit $_rc"
	if [ -s "$_g/vm/output.txt" ] && grep -q '^1\.\.[0-9]' "$_g/vm/output.txt"; then
		# the guest's TAP is this test's; a guest-side failure keeps its exit
		cat "$_g/vm/output.txt"
		[ $_rc -eq 0 ] && ! grep -q '^not ok' "$_g/vm/output.txt"
		exit $?
	fi
	echo "not ok 1 - the $1 guest ran the test (exit $_rc)"
	tail -n 20 "$_g/err" "$_g/vm/output.txt" "$_g/vm/serial.log" 2>/dev/null | sed 's/^/# /'
	echo "1..1"
	exit 1
}
