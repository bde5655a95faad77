# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for tests/integration/vm-*.t (sourced after tap.sh).
VM=$RTPROOF_ROOT/scripts/rtproof-vm
KERNEL=$RTPROOF_ROOT/scripts/rtproof-kernel
export BIN=$RTPROOF_BIN

skip_all() { echo "1..0 # SKIP $*"; exit 0; }

# vm_need_qemu: skip the whole file when QEMU cannot be run here.
vm_need_qemu() {
	command -v qemu-system-x86_64 >/dev/null || skip_all "qemu-system-x86_64 not installed (apt-get install qemu-system-x86)"
	[ -x /bin/busybox ] || skip_all "busybox-static not installed"
	command -v cpio >/dev/null || skip_all "cpio not installed"
	command -v depmod >/dev/null || skip_all "kmod (depmod) not installed"
	command -v jq >/dev/null || skip_all "jq not installed"
}

# vm_fetch [KERNEL...]: fetch through the suite's own command (first run
# downloads, later runs reuse the cache without asking apt again:
# vm-fetch.t tests the full check). Only an unreachable archive skips;
# any other failure is a failed test.
vm_fetch() {
	if "$KERNEL" fetch -q --if-missing "$@" 2>"$TMP/fetch.err"; then
		return 0
	fi
	if grep -qE 'could not be reached|not known to apt|knows no candidate' "$TMP/fetch.err"; then
		skip_all "Debian archive unreachable: $(head -n 1 "$TMP/fetch.err")"
	fi
	sed 's/^/# /' "$TMP/fetch.err"
	echo "not ok 1 - rtproof kernel fetch $*"
	echo "1..1"
	exit 1
}

# vm_kmake KERNEL [ARG...]: make in kernel/module for KERNEL, clean of any
# enclosing make (no CC=, CFLAGS= or -j reaches kbuild), one build at a time
# (a lock in build/module: two builds for one release share its directory).
# Only the build is locked, not the test: the tests that build the module
# run beside each other.
vm_kmake() {
	_k=$1
	shift
	mkdir -p "$RTPROOF_ROOT/build/module" &&
		flock "$RTPROOF_ROOT/build/module/.build.lock" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
			make --no-print-directory -C "$RTPROOF_ROOT/kernel/module" KERNEL="$_k" "$@"
}

# vm_module KERNEL DIR: builds rtproof_irqlat.ko for KERNEL (kernel/module,
# its build directory cached per release) and puts it in DIR, executable for
# --add; prints its path.  A failed build: its log in $TMP/build-KERNEL.log,
# exit 1.
vm_module() {
	mkdir -p "$2" && vm_kmake "$1" >"$TMP/build-$1.log" 2>&1 || return 1
	_ko=$(vm_kmake "$1" -s print-ko 2>/dev/null | tail -n 1)
	cp "$_ko" "$2/" && chmod +x "$2/rtproof_irqlat.ko" && echo "$2/rtproof_irqlat.ko"
}

# vm_need PROGRAM KERNEL...: QEMU here, PROGRAM built, the kernels fetched
# (else the whole test skips, as vm_need_qemu and vm_fetch say)
vm_need() {
	vm_need_qemu
	[ -x "$RTPROOF_BIN/$1" ] || skip_all "$1 not built"
	shift
	vm_fetch "$@"
}
