#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel uses=install quick
# The programs are built hardened (issue 23, the Makefile's hardening
# block): full RELRO (GNU_RELRO and BIND_NOW: the GOT read-only before main),
# a stack protector (__stack_chk_fail referenced), FORTIFY (glibc's checked
# __*_chk functions in use); in $RTPROOF_BIN and in a copy installed by
# make install DESTDIR=.  Static checks of the ELF files: nothing is run.
. "$(dirname "$0")/tap.sh"
command -v readelf >/dev/null || { echo "1..0 # SKIP readelf not installed (binutils)"; exit 0; }

# is_elf FILE
is_elf() { readelf -h "$1" >/dev/null 2>&1; }
# the dynamic symbols FILE references
dynsyms() { readelf -W --dyn-syms "$1" 2>/dev/null | awk '{ print $8 }' | sed 's/@.*//'; }

# check_dir WHERE DIR: every rtproof-* ELF program in DIR
check_dir() {
	n=0; sp=0; nosp=
	for f in "$2"/rtproof-*; do
		[ -f "$f" ] && is_elf "$f" || continue
		p=${f##*/}
		n=$((n + 1))
		readelf -lW "$f" | grep -q 'GNU_RELRO' &&
			readelf -dW "$f" | grep -qE '\(FLAGS\)[[:space:]]+.*BIND_NOW|\(FLAGS_1\)[[:space:]]+.*NOW'
		ok $? "$1 $p: full RELRO (GNU_RELRO segment, BIND_NOW)"
		chk=$(dynsyms "$f" | grep -E '^__[a-z0-9_]+_chk$' | grep -v '^__stack_chk_fail$' | sort -u | tr '\n' ' ')
		[ -n "$chk" ]
		ok $? "$1 $p: FORTIFY (${chk:-no __*_chk function})"
		if dynsyms "$f" | grep -qx '__stack_chk_fail'; then
			sp=$((sp + 1))
		else
			nosp="$nosp $p"
		fi
	done
	[ "$n" -gt 0 ]
	ok $? "$1: $n programs checked"
	# a program without an array on any stack needs no canary: most have one
	[ "$n" -gt 0 ] && [ $((sp * 4)) -ge $((n * 3)) ]
	ok $? "$1: $sp of $n programs carry the stack protector${nosp:+ (not:$nosp)}"
}

check_dir built "$RTPROOF_BIN"

if command -v help2man >/dev/null; then
	D=$TMP/dest
	if make -s -C "$RTPROOF_ROOT" install DESTDIR="$D" PREFIX=/usr >"$TMP/install.out" 2>&1; then
		check_dir installed "$D/usr/bin"
	else
		sed 's/^/# /' "$TMP/install.out" | tail -n 10
		ok 1 "make install DESTDIR=... for the installed programs"
	fi
else
	skip "the installed programs" "help2man not installed (make install writes the man pages)"
fi
done_testing
