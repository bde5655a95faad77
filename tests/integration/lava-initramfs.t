#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rtproof-test: phase=parallel
# The LAVA ramdisk's recipe: kernel/vm/mkinitramfs --init puts lava/init in
# place of the VM runner's /init (no kernel needed for this), refuses a
# missing file; rtproof lava job writes the device dictionary (no KVM, the
# job context's QEMU options rendered in) and a job with the pitfalls
# handled (arch context, cpio.newc ramdisk with LAVA's overlay).
. "$(dirname "$0")/tap.sh"
MK=$RTPROOF_ROOT/kernel/vm/mkinitramfs
[ -x /bin/busybox ] || { echo "1..0 # SKIP busybox-static not installed"; exit 0; }
command -v cpio >/dev/null || { echo "1..0 # SKIP cpio not installed"; exit 0; }

"$MK" --out "$TMP/r.cpio" --init "$RTPROOF_ROOT/lava/init" --bin "$RTPROOF_BIN" >/dev/null 2>&1
ok $? "mkinitramfs --init lava/init builds"
(cd "$TMP" && mkdir x && cd x && cpio -id --quiet init usr/bin/rtproof-cyclic <"$TMP/r.cpio") &&
	cmp -s "$TMP/x/init" "$RTPROOF_ROOT/lava/init" && [ -x "$TMP/x/usr/bin/rtproof-cyclic" ]
ok $? "its /init is lava/init, the suite is in /usr/bin"
"$MK" --out "$TMP/n.cpio" --init "$TMP/nothing" 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "mkinitramfs: error: --init $TMP/nothing: no such file" "$TMP/err" && [ ! -e "$TMP/n.cpio" ]
ok $? "mkinitramfs --init with a missing file: one-line error, nothing written"

if ! python3 -c 'import jinja2, yaml' 2>/dev/null || [ ! -d "${RTPROOF_KERNEL_CACHE:-$HOME/.cache/rtproof/kernels}/rt" ]; then
	skip "rtproof lava job" "python3-jinja2/python3-yaml or the cached rt kernel (make kernels) missing"
else
	"$RTPROOF_ROOT/scripts/rtproof-lava" job --kernel rt --out "$TMP/job" >/dev/null 2>"$TMP/job.err"
	rc=$?
	if [ $rc -eq 4 ]; then
		skip "rtproof lava job" "$(tail -n 1 "$TMP/job.err")"
	else
		[ $rc -eq 0 ]
		ok $? "rtproof lava job writes the job (exit $rc)"
		D=$TMP/job/lava/device.yaml J=$TMP/job/lava/job.yaml
		! grep -q -- '-enable-kvm' "$D" && grep -q -- "-icount shift=0,sleep=off" "$D"
		ok $? "device dictionary: no KVM, the job context's -icount rendered in"
		jq_ok "$J" '.context.arch == "amd64"
			and (.actions[0].deploy.images.ramdisk | .format == "cpio.newc" and .compression == "gz" and .overlays.lava == true)
			and (.actions[2].test.definitions[0] | .from == "inline" and .repository.metadata.name == "rtproof")'
		ok $? "job: arch context, gzip'ed cpio.newc ramdisk with LAVA's overlay, the definition inline"
		gzip -t "$TMP/job/lava/rtproof-ramdisk.cpio.gz"
		ok $? "job: the ramdisk is a valid gzip"
	fi
fi
done_testing
