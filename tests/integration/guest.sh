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
#
# tests/run boots one guest for all the tests whose header says guest=KERNEL
# (a boot each cost more than most of these tests' runs) and sets
# RTPROOF_GUEST_BATCH to what it brought back: a test whose TAP is there
# relays it instead of booting.
in_guest() {
	[ -n "${RTPROOF_IN_GUEST:-}" ] && return 0
	_n=$(basename "$0" .t)
	if [ -n "${RTPROOF_GUEST_BATCH:-}" ] && [ -f "$RTPROOF_GUEST_BATCH/$_n.rc" ]; then
		echo "# in the shared $1 guest (icount: instruction time), $(cat "$RTPROOF_GUEST_BATCH/$_n.took" 2>/dev/null) s of guest time, exit $(cat "$RTPROOF_GUEST_BATCH/$_n.rc")"
		in_guest_relay "$1" "$(cat "$RTPROOF_GUEST_BATCH/$_n.rc")" "$RTPROOF_GUEST_BATCH/$_n.tap" \
			"$RTPROOF_GUEST_BATCH/serial.log"
	fi
	. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
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
	in_guest_relay "$1" $_rc "$_g/vm/output.txt" "$_g/err" "$_g/vm/serial.log"
}

# in_guest_relay KERNEL RC TAP LOG...: the guest's TAP is this test's (a
# guest-side failure keeps its exit); no TAP: one failure and the logs' tails
in_guest_relay() {
	_k=$1 _rc=$2 _tap=$3
	shift 3
	if [ -s "$_tap" ] && grep -q '^1\.\.[0-9]' "$_tap"; then
		cat "$_tap"
		[ "$_rc" -eq 0 ] && ! grep -q '^not ok' "$_tap"
		exit $?
	fi
	echo "not ok 1 - the $_k guest ran the test (exit $_rc)"
	tail -n 20 "$_tap" "$@" 2>/dev/null | sed 's/^/# /'
	echo "1..1"
	exit 1
}
