#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# irqlat's timerlat source and the user-return stage (issue 16): on 6.12's RT
# kernel (timerlat_fd, Linux 6.8+) user-space threads block on timerlat_fd,
# as rtla timerlat -u does, and the tracer's "user-ret" samples become the
# user_return_latency metric, cross-checked against rtla timerlat hist -u in
# the same boot; on 6.1's RT kernel the stage is absent and the report says
# why.
. "$(dirname "$0")/tap.sh"
. "$RTPROOF_ROOT/kernel/vm/test-lib.sh"
vm_need_qemu
[ -x "$RTPROOF_BIN/rtproof-irqlat" ] || skip_all "rtproof-irqlat not built"
vm_fetch rt-6.12 rt-6.1
cat >"$TMP/guest.sh" <<'EOF2'
#!/bin/sh
rtproof-irqlat -q --source timerlat -l 1000 --json /res/tl.json >/res/tl.txt 2>&1; echo $? >/res/tl.rc
cat /sys/kernel/tracing/osnoise/options >/res/options-after.txt 2>/dev/null
if command -v rtla >/dev/null; then
	if rtla timerlat hist -h 2>&1 | grep -q -- '-u/--user'; then
		rtla timerlat hist -u -d 2 -p 1000 -n -E 1000 -b 100 -P f:95 >/res/rtla.txt 2>&1
	else
		echo "the host's rtla has no -u (user threads): compared with its kernel-thread run" >/res/rtla-note.txt
		rtla timerlat hist -d 2 -p 1000 -n -E 1000 -b 100 -P f:95 >/res/rtla.txt 2>&1
	fi
	echo $? >/res/rtla.rc
fi
exit 0
EOF2
chmod +x "$TMP/guest.sh"
adds=()
command -v rtla >/dev/null && adds+=(--add "$(command -v rtla)")
fig() { jq -r ".metrics[] | select(.name == \"$2\") |
	\"n \(.count), p50 \(.percentiles[\"50\"] / 1000) us, p99 \(.percentiles[\"99\"] / 1000) us, max \(.max / 1000) us\"" "$1" 2>/dev/null; }

for k in rt-6.12 rt-6.1; do
	"$VM" -q --kernel $k --timeout 200s --out "$TMP/$k" "${adds[@]}" -- "$TMP/guest.sh" >"$TMP/$k.out" 2>"$TMP/$k.err"
	rc=$?
	ok $rc "$k: guest ran, no kernel warning"
	[ $rc = 0 ] || sed 's/^/# /' "$TMP/$k.err" | tail -n 10
	d=$TMP/$k
	if [ $k = rt-6.12 ]; then
		[ "$(cat "$d/tl.rc" 2>/dev/null)" = 0 ] && jq_ok "$d/tl.json" '.params.user_return_offered == true
			and .params.workload == "user threads (timerlat_fd)"
			and ([.metrics[] | select(.name == "user_return_latency") | .count >= 950] == [true])
			and ([.metrics[] | select(.name == "irq_latency" or .name == "thread_latency") | .count >= 950] == [true, true])'
		rc=$?
		ok $rc "$k: user_return_latency from timerlat_fd user threads ($(fig "$d/tl.json" user_return_latency))"
		[ $rc = 0 ] || sed 's/^/# /' "$d/tl.txt" | tail -n 12
		tr ' ' '\n' <"$d/options-after.txt" 2>/dev/null | grep -qx OSNOISE_WORKLOAD &&
			! tr ' ' '\n' <"$d/options-after.txt" | grep -qx NO_OSNOISE_WORKLOAD
		ok $? "$k: osnoise/options restored (OSNOISE_WORKLOAD back on): $(cat "$d/options-after.txt" 2>/dev/null)"
		diag "$k rtproof-irqlat timerlat (user threads): irq $(fig "$d/tl.json" irq_latency); thread $(fig "$d/tl.json" thread_latency); user-ret $(fig "$d/tl.json" user_return_latency)"
		if [ "$(cat "$d/rtla.rc" 2>/dev/null)" = 0 ]; then
			diag "$k rtla timerlat hist $( [ -f "$d/rtla-note.txt" ] && cat "$d/rtla-note.txt" || echo "-u") (ns):"
			grep -E '^(count|min|avg|max):' "$d/rtla.txt" | sed 's/^/#   /'
		else
			diag "$k rtla: $(head -n 2 "$d/rtla.txt" 2>/dev/null | tr '\n' ' ')"
		fi
	else
		[ "$(cat "$d/tl.rc" 2>/dev/null)" = 0 ] && jq_ok "$d/tl.json" '.params.user_return_offered == false
			and .params.workload == "kernel threads (timerlat/N)"
			and ([.metrics[] | select(.name == "user_return_latency")] | length) == 0' &&
			grep -q "needs Linux 6.8 or later" "$d/tl.txt"
		ok $? "$k: no user-return stage, and the report says why: $(grep user-return "$d/tl.txt" 2>/dev/null)"
	fi
	[ -z "${RTPROOF_KEEP:-}" ] || cp -r "$d" "$RTPROOF_KEEP/vm-timerlat-user-$k"
done
done_testing
