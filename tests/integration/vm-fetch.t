#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof kernel fetch: stock and RT kernels of both generations in the cache
# (6.1 from the host's bookworm sources, 6.12 through the private trixie
# list), a second fetch downloads and unpacks nothing, bad input is refused.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
command -v apt-get >/dev/null || skip_all "not a Debian system (no apt-get)"
command -v jq >/dev/null || true

vm_fetch everything
ok 0 "rtproof kernel fetch everything (stock-6.1 rt-6.1 stock-6.12 rt-6.12)"
cache=$("$KERNEL" path stock | xargs dirname)
for k in stock-6.1 rt-6.1 stock-6.12 rt-6.12; do
	d=$("$KERNEL" path $k)
	[ -f "$d/vmlinux" ] && [ "$(head -c 4 "$d/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ]
	ok $? "$k: vmlinux extracted ($(basename "$d"))"
	ls "$d"/root/lib/modules/*/kernel/fs/9p/9p.ko* >/dev/null 2>&1
	ok $? "$k: modules unpacked ($(ls -d "$d"/root/usr/lib/modules >/dev/null 2>&1 && echo "merged /usr" || echo "lib/modules"))"
	[ -d "$d/headers/include" ] || [ -d "$d/headers/arch" ]
	ok $? "$k: headers unpacked ($(readlink "$d/headers"))"
done
for g in 6.1 6.12; do
	grep -q '^CONFIG_PREEMPT_RT=y' "$("$KERNEL" path rt-$g)/config"
	ok $? "rt-$g kernel config has CONFIG_PREEMPT_RT=y"
	! grep -q '^CONFIG_PREEMPT_RT=y' "$("$KERNEL" path stock-$g)/config" &&
		grep -q '^CONFIG_PREEMPT_DYNAMIC=y' "$("$KERNEL" path stock-$g)/config"
	ok $? "stock-$g kernel config is PREEMPT_DYNAMIC, not RT"
done
[ "$("$KERNEL" path rt)" = "$("$KERNEL" path rt-$("$KERNEL" generation))" ] &&
	[ "$(RTPROOF_KERNEL_GENERATION=6.1 "$KERNEL" path stock)" = "$("$KERNEL" path stock-6.1)" ]
ok $? "stock and rt name the default generation's pair ($("$KERNEL" generation)); RTPROOF_KERNEL_GENERATION switches it"
[ -f "$cache/apt-trixie/sources.list" ] && grep -q ' trixie main' "$cache/apt-trixie/sources.list" &&
	! grep -rqs trixie /etc/apt/sources.list /etc/apt/sources.list.d/
ok $? "6.12 comes through the private sources list; the host's apt sources do not mention trixie"

# Reuse: nothing downloaded, nothing unpacked, files untouched.
before=$(ls -l --time-style=+%s.%N "$cache"/debs/*.deb "$cache"/*/vmlinux | md5sum)
"$KERNEL" fetch everything >"$TMP/out" 2>"$TMP/err"
rc=$?
ok $rc "second fetch succeeds"
! grep -q downloading "$TMP/err" && ! grep -q unpacking "$TMP/err" && [ "$(grep -c '^rtproof-kernel: cached:' "$TMP/err")" -ge 12 ]
ok $? "second fetch reuses the cache ($(grep -c cached: "$TMP/err") cached lines, no download)"
after=$(ls -l --time-style=+%s.%N "$cache"/debs/*.deb "$cache"/*/vmlinux | md5sum)
[ "$before" = "$after" ]
ok $? "cached files untouched"
grep -q '^stock-6\.1  *6\.1\.' "$TMP/out" && grep -q '^rt-6\.1  *6\.1\..*rt$' "$TMP/out" &&
	grep -q '^stock-6\.12  *6\.12\.' "$TMP/out" && grep -q '^rt-6\.12  *6\.12\..*rt$' "$TMP/out"
ok $? "list shows the four kernels"

# A corrupted cached .deb is detected and fetched again.
# (one kernel that needs it: a fetch of everything costs ~11 s of apt-cache)
d=$(ls "$cache"/debs/linux-kbuild-6.12*.deb | head -n 1)
cp "$d" "$TMP/kbuild.deb"
printf 'x' >>"$d"
"$KERNEL" fetch stock-6.12 2>"$TMP/err" >/dev/null
cmp -s "$d" "$TMP/kbuild.deb" && grep -q 'mismatch\|downloading linux-kbuild' "$TMP/err"
ok $? "a damaged cached .deb is re-verified and replaced"

"$KERNEL" fetch foo >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && grep -q 'error: fetch: foo: unknown kernel' "$TMP/err"
ok $? "fetch foo: $(cat "$TMP/err")"
RTPROOF_KERNEL_CACHE=$TMP/empty "$KERNEL" path rt >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "not in $TMP/empty" "$TMP/err"
ok $? "path rt on an empty cache: $(cat "$TMP/err")"
# An unreachable archive (a proxy on a closed local port): a clear error,
# exit 1, nothing half-written in the cache.
printf 'Acquire::http::Proxy "http://127.0.0.1:9";\nAcquire::Retries "0";\n' >"$TMP/apt.conf"
APT_CONFIG=$TMP/apt.conf RTPROOF_KERNEL_CACHE=$TMP/unreach "$KERNEL" fetch --no-headers rt-6.1 >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'error: apt-get download linux-image-.*failed' "$TMP/err" &&
	grep -q 'could not be reached' "$TMP/err" && [ -z "$(ls -A "$TMP/unreach/debs")" ] && [ ! -e "$TMP/unreach/rt" ]
ok $? "unreachable archive: exit $rc, explained, cache left empty"
APT_CONFIG=$TMP/apt.conf RTPROOF_KERNEL_CACHE=$TMP/unreach12 "$KERNEL" fetch --no-headers rt-6.12 >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'could not be reached' "$TMP/err" && [ -z "$(ls -A "$TMP/unreach12/debs" 2>/dev/null)" ] &&
	[ ! -e "$TMP/unreach12/rt-6.12" ]
ok $? "unreachable archive for 6.12 (private index): exit $rc, $(grep error: "$TMP/err" | head -n 1)"
done_testing
