#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# rtproof_irqlat.ko misused in the guest (docs/reliability.md), dmesg checked
# after each step for a WARNING, BUG, Oops or Call Trace:
#  - a second opener at once (EBUSY), and two readers sharing one open file;
#  - a read buffer smaller than a record (EINVAL, nothing consumed);
#  - rmmod while a reader blocks in read() (refused, the reader unharmed,
#    rmmod works once it closed);
#  - parameters out of range at runtime and at insmod (refused: ERANGE as
#    docs/irqlat.md says, EINVAL for a non-number), the value unchanged;
#    cpu= naming an offline CPU (open fails EINVAL).
# One boot of the stock kernel (tcg, two vCPUs).
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
command -v make >/dev/null || skip_all "make not installed"
vm_fetch stock
[ -d "$("$KERNEL" path stock)/headers/" ] || skip_all "no kernel headers for stock in the cache (rtproof kernel fetch stock)"

vm_kmake stock >"$TMP/build.log" 2>&1
rc=$?
ko=$(vm_kmake stock -s print-ko 2>/dev/null)
ok $rc "rtproof_irqlat.ko builds for stock"
[ -f "$ko" ]
ok $? "make print-ko names the module file ($ko)"
if [ $rc -ne 0 ] || [ ! -f "$ko" ]; then
	sed 's/^/# /' "$TMP/build.log" | tail -n 15
	done_testing
	exit
fi
mkdir -p "$TMP/add" && cp "$ko" "$TMP/add/" && chmod +x "$TMP/add/rtproof_irqlat.ko"

cat >"$TMP/guest.sh" <<'EOF'
#!/bin/sh
P=/sys/module/rtproof_irqlat/parameters
D=/dev/rtproof_irqlat
step() { dmesg >/res/dmesg-$1.txt; }
insmod /usr/bin/rtproof_irqlat.ko >/res/insmod.txt 2>&1; echo $? >/res/insmod.rc
step 0-load
# A second opener while one holds the device.
exec 3<$D
( exec 4<$D ) 2>/res/open2.err; echo $? >/res/open2.rc
exec 3<&-
step 1-open2
# Two readers sharing one open file, one per vCPU, 500 records each, 200 us
# period (two vCPUs: the race between the two wake-ups needs both running).
echo 200 >$P/period_us
exec 3<$D
taskset 1 dd bs=96 count=500 <&3 >/res/r1.bin 2>/res/r1.err &
p1=$!
taskset 2 dd bs=96 count=500 <&3 >/res/r2.bin 2>/res/r2.err &
p2=$!
wait $p1; echo $? >/res/r1.rc
wait $p2; echo $? >/res/r2.rc
exec 3<&-
echo 1000 >$P/period_us
step 2-readers
# A buffer smaller than a record, then a whole one.
exec 3<$D
dd bs=50 count=1 <&3 >/res/small.bin 2>/res/small.err; echo $? >/res/small.rc
dd bs=96 count=1 <&3 >/res/after-small.bin 2>/dev/null
exec 3<&-
step 3-small
# rmmod while a reader blocks (1 s period: each read waits about 1 s).
echo 1000000 >$P/period_us
exec 3<$D
dd bs=96 count=2 <&3 >/res/blocked.bin 2>/res/blocked.err &
bp=$!
sleep 0.3
rmmod rtproof_irqlat >/res/rmmod-busy.err 2>&1; echo $? >/res/rmmod-busy.rc
wait $bp; echo $? >/res/blocked.rc
exec 3<&-
echo 1000 >$P/period_us
step 4-rmmod-busy
# Parameters out of range at runtime: each write refused, the value kept.
for pv in period_us=10 period_us=1000001 period_us=abc queue_len=8 queue_len=65537 \
	delay_us=1001 hold_us=100001 period_us=-1 delay_us=99999999999; do
	n=${pv%%=*} v=${pv#*=}
	before=$(cat $P/$n)
	( echo "$v" >$P/$n ) 2>/res/param-$n-$v.err; rc=$?
	echo "$rc $before $(cat $P/$n)" >/res/param-$n-$v.rc
done
step 5-params
# cpu= an offline CPU: open refused.
echo 7 >$P/cpu
( exec 3<$D ) 2>/res/cpu7.err; echo $? >/res/cpu7.rc
echo -1 >$P/cpu
step 6-cpu
rmmod rtproof_irqlat >/res/rmmod.txt 2>&1; echo $? >/res/rmmod.rc
# Out of range at insmod: the load refused, nothing left.
insmod /usr/bin/rtproof_irqlat.ko period_us=10 >/res/insmod-bad.txt 2>&1; echo $? >/res/insmod-bad.rc
[ -e $D ] && echo present >/res/insmod-bad-dev.txt
insmod /usr/bin/rtproof_irqlat.ko queue_len=1 >/res/insmod-bad2.txt 2>&1; echo $? >/res/insmod-bad2.rc
step 7-insmod-bad
exit 0
EOF
chmod +x "$TMP/guest.sh"

"$VM" -q --kernel stock --clock tcg --smp 2 --timeout 240s --out "$TMP/g" --add "$TMP/add/rtproof_irqlat.ko" -- "$TMP/guest.sh" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
ok $rc "the guest ran to its end (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$TMP/err" | tail -n 15
g=$TMP/g
v() { cat "$g/$1" 2>/dev/null; }

[ "$(v insmod.rc)" = 0 ]; ok $? "module loads $(v insmod.txt)"
[ "$(v open2.rc)" != 0 ] && grep -q 'busy' "$g/open2.err"
ok $? "a second opener at once: refused, busy ($(v open2.err))"

s1=$(stat -c %s "$g/r1.bin" 2>/dev/null || echo 0) s2=$(stat -c %s "$g/r2.bin" 2>/dev/null || echo 0)
[ "$s1" -eq 48000 ] && [ "$s2" -eq 48000 ]
ok $? "two readers on one open file: each got its 500 records (got $((s1 / 96)) and $((s2 / 96)); issue 13 item 8: no EOF from a blocking read())"
[ "$(v small.rc)" != 0 ] && grep -q 'Invalid argument' "$g/small.err" && [ "$(stat -c %s "$g/small.bin")" -eq 0 ]
ok $? "a 50-byte read: EINVAL, nothing returned ($(v small.err | head -n 1))"
[ "$(stat -c %s "$g/after-small.bin" 2>/dev/null)" = 96 ]
ok $? "after it, a whole record still comes"

[ "$(v rmmod-busy.rc)" != 0 ]
ok $? "rmmod while a reader blocks: refused ($(v rmmod-busy.err))"
[ "$(v blocked.rc)" = 0 ] && [ "$(stat -c %s "$g/blocked.bin" 2>/dev/null)" = 192 ]
ok $? "the blocked reader got its 2 records regardless (rc $(v blocked.rc))"
[ "$(v rmmod.rc)" = 0 ]
ok $? "rmmod once the reader closed ($(v rmmod.txt))"

for f in "$g"/param-*.rc; do
	[ -f "$f" ] || { ok 1 "parameter results missing"; break; }
	pv=${f##*/param-}; pv=${pv%.rc}
	read -r prc before after <"$f"
	err=$(head -n 1 "${f%.rc}.err")
	case ${pv#*-} in
	abc) want='Invalid argument' ;;
	*) want='Numerical result out of range\|Invalid argument' ;;
	esac
	[ "$prc" != 0 ] && [ "$before" = "$after" ] && echo "$err" | grep -q "$want"
	ok $? "parameter $pv: refused, value kept at $before ($err)"
done
[ "$(v cpu7.rc)" != 0 ] && grep -q 'Invalid argument' "$g/cpu7.err"
ok $? "cpu=7 (offline): open refused with EINVAL ($(v cpu7.err))"
[ "$(v insmod-bad.rc)" != 0 ] && [ ! -e "$g/insmod-bad-dev.txt" ]
ok $? "insmod period_us=10: refused, no device ($(v insmod-bad.txt))"
[ "$(v insmod-bad2.rc)" != 0 ]
ok $? "insmod queue_len=1: refused ($(v insmod-bad2.txt))"

for f in "$g"/dmesg-*.txt; do
	[ -f "$f" ] || { ok 1 "dmesg after each step missing"; break; }
	s=${f##*/dmesg-}; s=${s%.txt}
	bad=$(grep -E 'WARNING|BUG:|Oops|Call Trace|general protection|lockdep|refcount_t' "$f" | head -n 2)
	[ -z "$bad" ]
	ok $? "dmesg after $s: no warning, BUG or trace${bad:+ ($bad)}"
done
done_testing
