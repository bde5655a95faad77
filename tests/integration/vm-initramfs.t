#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# kernel/vm/mkinitramfs on the stock and the RT kernel: busybox, /init, the
# suite's binaries with every library they need, ALSA's configuration, the
# virtio/9p modules with their dependencies and a modules.dep.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
vm_fetch stock rt
MK=$RTPROOF_ROOT/kernel/vm/mkinitramfs

for k in stock rt; do
	kdir=$("$KERNEL" path $k)
	rel=$(sed -n 's/^release=//p' "$kdir/info")
	img=$TMP/$k.cpio
	"$MK" --out "$img" --kernel-dir "$kdir" --bin "$RTPROOF_BIN" --add hackbench 2>"$TMP/err"
	ok $? "$k: mkinitramfs builds ($(du -k "$img" 2>/dev/null | cut -f1) KiB)"
	cpio -it --quiet <"$img" >"$TMP/list" 2>/dev/null
	ok $? "$k: a valid cpio archive"
	has() { grep -qx "$1" "$TMP/list"; }
	has init && has bin/busybox && has bin/sh && has bin/poweroff && has bin/modprobe
	ok $? "$k: /init and busybox applets"
	has usr/bin/rtproof-cyclic
	ok $? "$k: rtproof-cyclic from build/bin"
	missing=
	for lib in $(ldd "$RTPROOF_BIN/rtproof-cyclic" "$(command -v hackbench)" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p' | sort -u); do
		has "${lib#/}" || missing="$missing $lib"
	done
	has lib64/ld-linux-x86-64.so.2 && [ -z "$missing" ]
	ok $? "$k: the dynamic loader and every ldd library${missing:+ (missing:$missing)}"
	if [ -f /usr/share/alsa/alsa.conf ]; then
		has usr/share/alsa/alsa.conf
		ok $? "$k: ALSA configuration"
	else
		skip "$k: ALSA configuration" "no /usr/share/alsa on this host"
	fi
	# The builder's modules and their closure, as the kernel's own
	# modules.dep gives it (6.1: .ko, 9p needs 9pnet, netfs and fscache,
	# virtio_pci a module; 6.12: .ko.xz, fscache is part of netfs, 9pnet
	# needs netfs, virtio_pci built in). A module the kernel has built in is
	# checked in modules.builtin instead.  The image holds them unpacked
	# (.ko), and no packed one.
	mdir=$(find "$kdir/root" -path "*/modules/$rel/modules.dep" | head -n 1)
	mdir=${mdir%/modules.dep}
	missing= n=0
	for m in virtio_pci 9pnet_virtio 9p snd-aloop snd-dummy; do
		need=$(awk -v m="$m" '{ f = $1; sub(/:$/, "", f); n = f; sub(/.*\//, "", n); sub(/\.ko(\.[a-z]+)?$/, "", n)
			if (n == m) { print f; for (i = 2; i <= NF; i++) print $i } }' "$mdir/modules.dep")
		if [ -z "$need" ]; then
			grep -Eq "/$m\.ko$" "$mdir/modules.builtin" || missing="$missing $m(neither module nor built in)"
			continue
		fi
		for f in $need; do
			n=$((n + 1))
			# unpacked on the host: the guest inflates nothing
			f=${f%.xz} f=${f%.zst} f=${f%.gz}
			has "lib/modules/$rel/$f" || missing="$missing $f"
		done
	done
	packed=$(cpio -it --quiet <"$img" | grep -c '\.ko\.\(xz\|zst\|gz\)$')
	[ "$packed" = 0 ] || missing="$missing ($packed packed .ko files)"
	[ -n "$mdir" ] && [ "$n" -gt 5 ] && [ -z "$missing" ]
	ok $? "$k: 9p, virtio and snd-aloop modules with the $n files modules.dep names${missing:+ (missing:$missing)}"
	mkdir -p "$TMP/x-$k" && (cd "$TMP/x-$k" && cpio -id --quiet "lib/modules/$rel/modules.dep" <"$img")
	grep -Eq '^kernel/fs/9p/9p\.ko(\.[a-z]+)?:.* kernel/fs/netfs/netfs\.ko' "$TMP/x-$k/lib/modules/$rel/modules.dep"
	ok $? "$k: modules.dep generated (9p depends on netfs: $(grep -E '^kernel/fs/9p/9p\.ko' "$TMP/x-$k/lib/modules/$rel/modules.dep" | sed 's/.*: //'))"
done

# --add of a program build/bin also holds: one copy, the added one
kdir=$("$KERNEL" path stock)
cp /bin/true "$TMP/rtproof-cyclic"
"$MK" --out "$TMP/dup.cpio" --kernel-dir "$kdir" --bin "$RTPROOF_BIN" --add "$TMP/rtproof-cyclic" \
	--add "$RTPROOF_BIN/rtp-spin" 2>"$TMP/err"
rc=$?
mkdir -p "$TMP/dup" && (cd "$TMP/dup" && cpio -id --quiet usr/bin/rtproof-cyclic <"$TMP/dup.cpio")
[ $rc -eq 0 ] && cmp -s "$TMP/dup/usr/bin/rtproof-cyclic" "$TMP/rtproof-cyclic"
ok $? "--add of a program build/bin holds: builds, the added copy wins (rc $rc$(head -c 200 "$TMP/err" | tr '\n' ' '))"

# --cache (rtproof-vm's boots): the base kept and reused, the --add
# programs after it as a second archive, without the libraries it holds
C=$TMP/cache
"$MK" --out "$TMP/c1.cpio" --kernel-dir "$kdir" --bin "$RTPROOF_BIN" --add "$TMP/rtproof-cyclic" --cache "$C" 2>"$TMP/err" &&
	"$MK" --out "$TMP/c2.cpio" --kernel-dir "$kdir" --bin "$RTPROOF_BIN" --add "$(command -v cpio)" --cache "$C" 2>>"$TMP/err"
rc=$?
base=$(ls "$C"/*.cpio 2>/dev/null)
n=$(printf '%s\n' "$base" | grep -c .)
size=$(stat -c %s "$base" 2>/dev/null || echo 0)
tail -c +$((size + 1)) "$TMP/c2.cpio" | cpio -it --quiet >"$TMP/extra" 2>/dev/null
[ $rc -eq 0 ] && [ "$n" = 1 ] && [ "$(stat -c %a "$C")" = 700 ] &&
	cmp -s -n "$size" "$base" "$TMP/c1.cpio" && cmp -s -n "$size" "$base" "$TMP/c2.cpio" &&
	grep -qx usr/bin/cpio "$TMP/extra" && ! grep -q 'libc\.so' "$TMP/extra" &&
	cpio -it --quiet <"$TMP/c2.cpio" | grep -qx usr/bin/rtproof-cyclic
ok $? "--cache: one base for two builds, reused byte for byte, the --add after it without the base's libraries ($n base(s), $(tr '\n' ' ' <"$TMP/extra"))"
mkdir -p "$TMP/open" && chmod 1777 "$TMP/open"
"$MK" --out "$TMP/c3.cpio" --kernel-dir "$kdir" --bin "$RTPROOF_BIN" --cache "$TMP/open" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && grep -q "warning: --cache $TMP/open: not a directory of ours closed to others" "$TMP/err" &&
	[ -z "$(ls -A "$TMP/open")" ] && cpio -it --quiet <"$TMP/c3.cpio" | grep -qx init
ok $? "--cache in a directory others may write: not used, said so, built as without it ($(head -c 200 "$TMP/err"))"

"$MK" --out "$TMP/bad.cpio" --kernel-dir "$TMP/nope" 2>"$TMP/err"
[ $? -eq 1 ] && [ ! -e "$TMP/bad.cpio" ] && grep -q -- '--kernel-dir' "$TMP/err"
ok $? "bad --kernel-dir: exit 1, nothing written: $(cat "$TMP/err")"
done_testing
