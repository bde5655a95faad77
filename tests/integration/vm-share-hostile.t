#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=guest
# The guest's 9p share is untrusted (issue 23 item 2, docs/security.md).
# A guest job plants, in its result directory: symbolic links to host paths
# where the host writes (kernel-warnings.txt, with a kernel warning on the
# console and a directory at dmesg.txt so the host lists it from the serial
# log) and reads (output.txt, exit-status), a link to the host's root, setuid
# and setgid copies of busybox, a FIFO, a character and a block device.
# Afterwards the host file the links point at is unchanged, a root-only
# secret reached through them appears nowhere the host printed or wrote,
# and the result directory holds regular files and directories only, none
# setuid or setgid.  A second boot checks commas in the result and
# temporary directories (QEMU's option syntax) and that the guest's own
# results still come back readable.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/tests/vm/test-lib.sh"
vm_need_qemu
k=${RTPROOF_VM_KERNEL:-stock}
vm_fetch "$k"

# Host paths the guest aims at (it sees only its share, but a link it makes
# there is a plain absolute path on the host).
secret="WARNING: SECRET-$RANDOM$RANDOM"	# "WARNING:" so a kernel-warning scan would copy it
printf '%s\n' "$secret" >"$TMP/secret"
chmod 600 "$TMP/secret"
echo "victim intact" >"$TMP/victim"
sum_victim=$(sha256sum <"$TMP/victim")

cat >"$TMP/plant.sh" <<EOF
#!/bin/sh
cd /res
# a kernel warning on the console, and no dmesg.txt (/init cannot write over
# a directory): the host lists the warning from the serial log in
# kernel-warnings.txt, where the guest put a link to a host file
echo "<2>WARNING: planted by the guest" >/dev/kmsg
mkdir dmesg.txt
ln -sf '$TMP/victim' kernel-warnings.txt
ln -sf '$TMP/secret' exit-status
ln -s / hostroot
cp /bin/busybox suid; chmod 4755 suid
cp /bin/busybox sgid; chmod 2755 sgid
mkfifo fifo
mknod null c 1 3
mknod disk b 8 0
ls -la /res >/res/planted.txt 2>&1
# output.txt last: this job's stdout stays open on the replaced file
rm -f output.txt
ln -s '$TMP/secret' output.txt
exit 0
EOF
chmod +x "$TMP/plant.sh"

"$VM" --kernel "$k" --clock tcg --timeout 150s --out "$TMP/h" -- "$TMP/plant.sh" >"$TMP/h.out" 2>"$TMP/h.err"
rc=$?
diag "rtproof vm exit $rc"
[ $rc = 2 ]
ok $? "the hostile job runs to its end, failed for its planted kernel warning: exit $rc (want 2)"
sed 's/^/# guest: /' "$TMP/h/planted.txt" 2>/dev/null
[ -f "$TMP/h/kernel-warnings.txt" ] && [ ! -L "$TMP/h/kernel-warnings.txt" ] &&
	grep -q 'WARNING: planted by the guest' "$TMP/h/kernel-warnings.txt"
ok $? "the host's kernel-warnings.txt is a regular file in the result directory, listing the warning"
[ "$(sha256sum <"$TMP/victim")" = "$sum_victim" ] && [ ! -L "$TMP/victim" ]
ok $? "the host file behind the guest's kernel-warnings.txt link is unchanged"
sec=${secret#WARNING: }
! grep -rqF -- "$sec" "$TMP/h.out" "$TMP/h.err" "$TMP/h" "$TMP/victim"
ok $? "the root-only secret is in nothing the host printed or wrote"
grep -F -- "$sec" "$TMP/h.out" "$TMP/h.err" 2>/dev/null | head -n 3 | sed 's/^/# leaked: /'
odd=$(find "$TMP/h" -mindepth 1 ! -type f ! -type d 2>/dev/null)
[ -z "$odd" ]
ok $? "no symlink, FIFO or device node left in the result directory${odd:+: $(echo $odd)}"
sx=$(find "$TMP/h" \( -perm -4000 -o -perm -2000 \) 2>/dev/null)
[ -z "$sx" ]
ok $? "no setuid or setgid file in the result directory${sx:+: $(echo $sx)}"
[ -f "$TMP/h/vm.json" ] && [ ! -L "$TMP/h/vm.json" ] && jq_ok "$TMP/h/vm.json" '.outcome == "exited"' &&
	[ -f "$TMP/h/serial.log" ] && [ ! -L "$TMP/h/serial.log" ] && grep -q 'RTPROOF-VM-EXIT' "$TMP/h/serial.log"
ok $? "the host's own vm.json and serial.log are regular files, the serial log complete"
jq_ok "$TMP/h/vm.json" '.exit_status == 0'
ok $? "the exit status is the job's (0), not digits read through a planted link: $(jq -c .exit_status "$TMP/h/vm.json" 2>/dev/null)"
jq_ok "$TMP/h/vm.json" '(.share_security_model | IN("mapped-xattr", "mapped-file")) and (.removed_unsafe | type) == "array"'
ok $? "the share maps the guest's owners and modes: $(jq -c '[.share_security_model, .removed_unsafe]' "$TMP/h/vm.json" 2>/dev/null)"
sed 's/^/# /' "$TMP/h.err" | tail -n 12

# Commas: QEMU's -virtfs and -chardev take "a,,b" for a literal comma.  This
# boot uses the mapped-file model (for file systems without user xattrs):
# its .virtfs_metadata directories are not left in the results.
mkdir -p "$TMP/t,mp"
RTPROOF_VM_SHARE=mapped-file TMPDIR="$TMP/t,mp" "$VM" -q --kernel "$k" --clock tcg --timeout 150s --out "$TMP/res,dir" -- \
	sh -c 'echo hello >/res/hello.txt; mkdir /res/sub; echo deep >/res/sub/d.txt; echo out-ok' >"$TMP/c.out" 2>"$TMP/c.err"
rc=$?
ok $rc "a result and a temporary directory with commas in their names: exit $rc"
[ "$(cat "$TMP/res,dir/hello.txt" 2>/dev/null)" = hello ] && [ "$(cat "$TMP/res,dir/sub/d.txt" 2>/dev/null)" = deep ] &&
	grep -q 'RTPROOF-VM-EXIT 0' "$TMP/res,dir/serial.log"
ok $? "the guest's files and the serial log come back under the comma'd name"
um=$(umask)
want=$(printf '%o' $((0644 & ~um)))
[ "$(stat -c %a "$TMP/res,dir/hello.txt")" = "$want" ] && [ "$(stat -c %a "$TMP/res,dir/sub")" = "$(printf '%o' $((0755 & ~um)))" ]
ok $? "the guest's files are readable on the host: $(stat -c %a "$TMP/res,dir/hello.txt") (want $want)"
[ -z "$(find "$TMP/res,dir" -name .virtfs_metadata)" ] && jq_ok "$TMP/res,dir/vm.json" '.share_security_model == "mapped-file"'
ok $? "mapped-file: no .virtfs_metadata left in the results"
[ $rc = 0 ] || sed 's/^/# /' "$TMP/c.err" | tail -n 8
done_testing
