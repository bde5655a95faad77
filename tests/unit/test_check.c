// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof check on fake /proc, /sys, /etc, /boot and /dev trees: a good
 * real-time machine where every check passes, then one change per case
 * that must make its check warn, fail or skip, in each profile.  Then the
 * parsers on text from real kernels.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tap.h"

static char root[PATH_MAX];

static void mkparents(const char *path)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = p + 1; *s; s++) {
		if (*s == '/') {
			*s = '\0';
			mkdir(p, 0755);
			*s = '/';
		}
	}
}

static void put(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(const char *rel, const char *fmt, ...)
{
	char p[PATH_MAX];
	va_list ap;
	FILE *f;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	mkparents(p);
	f = fopen(p, "w");
	if (!f) {
		printf("Bail out! cannot write %s: %s\n", p, strerror(errno));
		exit(1);
	}
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static void rm(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	unlink(p);
}

static int rm_cb(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(p);
}

static void rmtree(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s%s", root, rel);
	nftw(p, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static void put_stat(int pid, const char *comm, int prio, int policy)
{
	char rel[64], fields[256] = "";

	/* Fields 4..39 (ppid .. processor), rsslim as the kernel writes it. */
	for (int f = 4; f <= 39; f++)
		strcat(fields, f == 25 ? " 18446744073709551615" : " 0");
	snprintf(rel, sizeof(rel), "/proc/%d/comm", pid);
	put(rel, "%s\n", comm);
	snprintf(rel, sizeof(rel), "/proc/%d/stat", pid);
	put(rel, "%d (%.15s) S%s %d %d 0 0 0\n", pid, comm, fields, prio, policy);
}

static gid_t audio_gid, alice_gid;

/* A good PREEMPT_RT audio and measurement machine, CPUs 2-3 isolated. */
static void good_tree(void)
{
	rmtree("");
	mkdir(root, 0755);
	put("/proc/sys/kernel/osrelease", "6.1.0-99-rt-amd64\n");
	put("/proc/sys/kernel/version", "#1 SMP PREEMPT_RT Debian 6.1.99-1 (2026-01-01)\n");
	put("/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=domain,managed_irq,2-3 "
	    "nohz_full=2-3 rcu_nocbs=2-3 mitigations=off quiet\n");
	put("/sys/kernel/realtime", "1\n");
	put("/boot/config-6.1.0-99-rt-amd64", "CONFIG_PREEMPT_RT=y\n# CONFIG_PREEMPT_DYNAMIC is not set\n"
	    "CONFIG_HIGH_RES_TIMERS=y\nCONFIG_NO_HZ_FULL=y\nCONFIG_HZ_1000=y\nCONFIG_HZ=1000\n"
	    "CONFIG_IRQ_FORCED_THREADING=y\n");
	put("/sys/devices/system/cpu/online", "0-3\n");
	put("/sys/devices/system/cpu/isolated", "2-3\n");
	put("/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	put("/sys/devices/system/clocksource/clocksource0/available_clocksource", "tsc hpet acpi_pm \n");
	put("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	put("/proc/sys/kernel/sched_rt_period_us", "1000000\n");
	put("/proc/sys/kernel/timer_migration", "0\n");
	put("/sys/devices/system/cpu/vulnerabilities/spectre_v2", "Mitigation: Retpolines\n");
	put("/sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
	put("/proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu tsc constant_tsc\n\n");
	put("/proc/stat", "cpu  1000 0 500 80000 10 0 20 0 0 0\ncpu0 250 0 125 20000 2 0 5 0 0 0\n");
	put("/sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
	for (int cpu = 0; cpu < 4; cpu++) {
		char p[128];

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		put(p, "performance\n");
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		put(p, "%d\n", cpu);
		for (int s = 0; s < 3; s++) {
			static const char *const name[] = { "POLL", "C1", "C6" };
			static const char *const lat[] = { "0", "2", "133" };

			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name", cpu, s);
			put(p, "%s\n", name[s]);
			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu, s);
			put(p, "%s\n", lat[s]);
			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", cpu, s);
			put(p, "%d\n", s == 2);
		}
	}
	put("/sys/devices/system/cpu/cpuidle/current_driver", "intel_idle\n");
	put("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	put("/sys/devices/system/cpu/smt/control", "off\n");
	put("/dev/cpu_dma_latency", "%s", "");
	{
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/dev/cpu_dma_latency", root);
		chmod(p, 0660);
	}
	put("/proc/irq/10/smp_affinity_list", "0-1\n");
	put("/proc/irq/33/smp_affinity_list", "0-3\n");
	put("/proc/irq/33/effective_affinity_list", "1\n");
	put("/proc/1/comm", "systemd\n");
	put("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]\n");
	put("/proc/sys/vm/swappiness", "10\n");
	put("/sys/kernel/mm/ksm/run", "0\n");
	put("/proc/sys/kernel/numa_balancing", "0\n");
	put("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\nalice:x:1000:%u::/home/alice:/bin/bash\n"
	    "me:x:%u:%u::/home/me:/bin/sh\n", (unsigned)alice_gid, (unsigned)getuid(),
	    (unsigned)alice_gid);
	put("/etc/group", "audio:x:%u:alice,me\nalice:x:%u:\n", (unsigned)audio_gid, (unsigned)alice_gid);
	put("/etc/security/limits.conf", "# defaults\n*  soft  core  0\n");
	put("/etc/security/limits.d/99-realtime.conf", "@audio - rtprio 95\n@audio - memlock unlimited\n");
	put("/proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units\n"
	    "Max locked memory         unlimited            unlimited            bytes\n"
	    "Max realtime priority     95                   95\n");
	put("/proc/self/status", "Name:\ttest\nCapEff:\t0000000000000000\n");
	put("/proc/asound/cards", " 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n"
	    "                      HDA Intel PCH at 0xf7f10000 irq 33\n"
	    " 1 [USB            ]: USB-Audio - Scarlett 2i2 USB\n"
	    "                      Focusrite Scarlett 2i2 USB at usb-0000:00:14.0-2, high speed\n");
	put("/sys/class/sound/card0/device/msi_irqs/33", "msi\n");
	put("/sys/class/sound/card0/device/irq", "16\n");
	put("/sys/class/sound/card1/device/uevent", "DRIVER=snd-usb-audio\n");
	put("/sys/class/sound/card1/power/control", "on\n");
	put("/proc/interrupts", "           CPU0       CPU1       CPU2       CPU3\n"
	    "  0:         10          0          0          0   IO-APIC   2-edge      timer\n"
	    " 16:          0          0          0          0   IO-APIC  16-fasteoi   i801_smbus\n"
	    " 33:       1000          0          0          0   PCI-MSI 442368-edge      snd_hda_intel:card0\n"
	    " 40:        500          0          0          0   PCI-MSI 327680-edge      xhci_hcd\n"
	    "NMI:          0          0          0          0   Non-maskable interrupts\n"
	    "LOC:      12345      12345      12345      12345   Local timer interrupts\n");
	put_stat(500, "irq/33-snd_hda_intel", 90, 1);
	put_stat(501, "irq/40-xhci_hcd", 85, 1);
	put_stat(502, "irq/16-i801_smbus", 50, 1);
	put("/sys/module/usbcore/parameters/autosuspend", "-1\n");
	put_stat(18, "ktimers/0", 81, 1);
	put_stat(19, "rcuc/0", 1, 1);
}

static enum rtp_check_status run(const char *id, enum rtp_check_profile prof, const char *user,
				 struct rtp_check_result *r)
{
	struct rtp_check_ctx c;
	int i = rtp_check_find(id);
	int ret;

	memset(r, 0, sizeof(*r));
	if (i < 0) {
		snprintf(r->seen, sizeof(r->seen), "no such check");
		return RTP_CHECK_SKIP;
	}
	ret = rtp_check_init(&c, root, prof, user ? user : "alice", NULL, 80);
	if (ret) {
		snprintf(r->seen, sizeof(r->seen), "init: %s", strerror(-ret));
		return RTP_CHECK_SKIP;
	}
	rtp_check_run(&c, (size_t)i, r);
	rtp_check_free(&c);
	return r->status;
}

static void expect(const char *id, enum rtp_check_profile prof, const char *user,
		   enum rtp_check_status want, const char *seen_has, const char *what)
{
	struct rtp_check_result r;
	enum rtp_check_status got = run(id, prof, user, &r);
	bool good = got == want && (!seen_has || strstr(r.seen, seen_has));

	ok(good, "%s [%s] %s: %s", id, rtp_check_profile_name(prof), what, rtp_check_status_name(want));
	if (!good)
		tap_diag("  got %s: %s | fix: %s", rtp_check_status_name(got), r.seen, r.fix);
	else if (want != RTP_CHECK_PASS && want != RTP_CHECK_SKIP && !r.fix[0])
		ok(false, "%s: a %s without a fix line", id, rtp_check_status_name(want));
}

/* Each case: a change to the good tree, then the check in both profiles. */
struct bad_case {
	const char *id, *what;
	enum rtp_check_status latency, audio;
	const char *seen_has;
	const char *user;
	void (*change)(void);		/* the change; NULL: */
	const char *file, *text;	/* file written with text, or removed when text is NULL */
};

static void ch_preempt_voluntary(void)
{
	rm("/sys/kernel/realtime");
	put("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.99-1\n");
	put("/boot/config-6.1.0-99-rt-amd64", "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_VOLUNTARY=y\n"
	    "CONFIG_HIGH_RES_TIMERS=y\nCONFIG_IRQ_FORCED_THREADING=y\n");
}

static void ch_preempt_full_threadirqs(void)
{
	ch_preempt_voluntary();
	put("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	put("/proc/cmdline", "root=/dev/sda1 threadirqs\n");
}

static void ch_vm(void)
{
	put("/proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu tsc hypervisor\n");
	put("/sys/class/dmi/id/sys_vendor", "QEMU\n");
}
static void ch_steal(void)
{
	ch_vm();
	put("/proc/stat", "cpu  1000 0 500 80000 10 0 20 5000 0 0\n");
}
static void ch_no_cpufreq(void)
{
	for (int cpu = 0; cpu < 4; cpu++) {
		char p[128];

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		rm(p);
	}
}
static void ch_dma_mode(void)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/dev/cpu_dma_latency", root);
	chmod(p, 0600);
}
static void ch_smt(void)
{
	put("/sys/devices/system/cpu/cpu2/topology/thread_siblings_list", "0,2\n");
	put("/sys/devices/system/cpu/smt/control", "on\n");
}
static void ch_no_isolation(void)
{
	put("/proc/cmdline", "root=/dev/sda1 mitigations=off\n");
	put("/sys/devices/system/cpu/isolated", "\n");
}
static void ch_swap_none(void)
{
	put("/proc/sys/vm/swappiness", "60\n");
	put("/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
}
static void ch_swap_some(void)
{
	ch_swap_none();
	put("/proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sda2                               partition\t8388604\t\t0\t\t-2\n");
}
static void ch_realtime_group(void)
{
	put("/etc/group", "realtime:x:%u:alice,me\nalice:x:%u:\n", (unsigned)audio_gid, (unsigned)alice_gid);
}
static void ch_no_limits_file(void) { rm("/etc/security/limits.d/99-realtime.conf"); }
static void ch_self_limits(void)
{
	put("/proc/self/limits", "Max locked memory         65536                65536                bytes\n"
	    "Max realtime priority     0                    0\n");
}
static void ch_not_audio(void)
{
	put("/etc/group", "audio:x:%u:me\nalice:x:%u:\n", (unsigned)audio_gid, (unsigned)alice_gid);
}
static void ch_no_alsa(void) { rmtree("/proc/asound"); }
static void ch_no_cards(void) { put("/proc/asound/cards", "--- no soundcards ---\n"); }
static void ch_irq_prio_low(void) { put_stat(500, "irq/33-snd_hda_intel", 50, 1); }
static void ch_irq_no_thread(void)
{
	rmtree("/proc/500");
	rmtree("/proc/501");
}
/* 6.12: the fair server, 50 ms of every 1 s on the CPUs in use (2-3) */
static void ch_fair_server(void)
{
	put("/proc/sys/kernel/osrelease", "6.12.117+deb13-rt-amd64\n");
	put("/proc/sys/kernel/sched_rt_runtime_us", "950000\n");
	for (int cpu = 0; cpu < 4; cpu++) {
		char p[96];

		snprintf(p, sizeof(p), "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", cpu);
		put(p, "50000000\n");
		snprintf(p, sizeof(p), "/sys/kernel/debug/sched/fair_server/cpu%d/period", cpu);
		put(p, "1000000000\n");
	}
}
static void ch_fair_server_rt_off(void)
{
	ch_fair_server();
	put("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
}
static void ch_fair_server_off(void)
{
	ch_fair_server();
	put("/sys/kernel/debug/sched/fair_server/cpu2/runtime", "0\n");
	put("/sys/kernel/debug/sched/fair_server/cpu3/runtime", "0\n");
}
static void ch_fair_server_no_debugfs(void)
{
	ch_fair_server_rt_off();
	rmtree("/sys/kernel/debug");
}
static void ch_fair_server_group(void)
{
	ch_fair_server_off();
	put("/boot/config-6.12.117+deb13-rt-amd64", "CONFIG_PREEMPT_RT=y\nCONFIG_RT_GROUP_SCHED=y\n");
}
static void ch_ktimers_low(void) { put_stat(18, "ktimers/0", 1, 1); }
static void ch_ktimers_low_dummy(void)
{
	ch_ktimers_low();
	put("/proc/asound/cards", " 0 [Dummy          ]: Dummy - Dummy PCM\n"
	    "                      Dummy PCM\n");
}
static void ch_ktimers_low_pipewire(void)
{
	ch_ktimers_low();
	put_stat(700, "pipewire", 0, 0);
}
static void ch_ktimers_stock(void)
{
	ch_preempt_voluntary();
	ch_ktimers_low_dummy();
}
static void ch_autosuspend(void)
{
	put("/sys/class/sound/card1/power/control", "auto\n");
	put("/sys/module/usbcore/parameters/autosuspend", "2\n");
}

#define P RTP_CHECK_PASS
#define W RTP_CHECK_WARN
#define F RTP_CHECK_FAIL
#define S RTP_CHECK_SKIP
#define FN(change)		change, NULL, NULL
#define WRITE(file, text)	NULL, file, text
#define REMOVE(file)		NULL, file, NULL

static const struct bad_case cases[] = {
	{ "preempt", "PREEMPT_DYNAMIC voluntary", F, F, "not PREEMPT_RT", NULL,
	  FN(ch_preempt_voluntary) },
	{ "preempt", "PREEMPT_DYNAMIC full with threadirqs", F, W, "mode full", NULL,
	  FN(ch_preempt_full_threadirqs) },
	{ "threadirqs", "non-RT without threadirqs", W, F, "no threadirqs", NULL,
	  FN(ch_preempt_voluntary) },
	{ "threadirqs", "non-RT with threadirqs", P, P, "threadirqs on", NULL,
	  FN(ch_preempt_full_threadirqs) },
	{ "hrtimers", "not set", F, F, "not set", NULL,
	  WRITE("/boot/config-6.1.0-99-rt-amd64",
		"CONFIG_PREEMPT_RT=y\n# CONFIG_HIGH_RES_TIMERS is not set\n") },
	{ "hrtimers", "no config", S, S, "config unreadable", NULL,
	  REMOVE("/boot/config-6.1.0-99-rt-amd64") },
	{ "nohz", "NO_HZ_IDLE", W, W, "every 4 ms", NULL,
	  WRITE("/boot/config-6.1.0-99-rt-amd64",
		"CONFIG_PREEMPT_RT=y\nCONFIG_NO_HZ_IDLE=y\nCONFIG_HZ=250\n") },
	{ "clocksource", "hpet", F, F, "clocksource hpet", NULL,
	  WRITE("/sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n") },
	{ "rt_throttle", "950000", F, W, "50 ms of every 1000 ms", NULL,
	  WRITE("/proc/sys/kernel/sched_rt_runtime_us", "950000\n") },
	{ "rt_throttle", "6.12 fair server, rt_runtime -1", F, W,
	  "CFS tasks for 50 ms of every 1000 ms on CPU(s) 2,3", NULL, FN(ch_fair_server_rt_off) },
	{ "rt_throttle", "6.12 fair server, rt_runtime 950000", F, W, "sched_rt_runtime_us (950000) does not",
	  NULL, FN(ch_fair_server) },
	{ "rt_throttle", "6.12 fair server off", P, P, "fair server runtime 0 on CPU(s) 2,3", NULL,
	  FN(ch_fair_server_off) },
	{ "rt_throttle", "6.12 without debugfs", S, S, "not by sched_rt_runtime_us", NULL,
	  FN(ch_fair_server_no_debugfs) },
	{ "rt_throttle", "6.12 with RT_GROUP_SCHED", F, W, "RT throttling of groups", NULL,
	  FN(ch_fair_server_group) },
	{ "timer_migration", "1", W, W, NULL, NULL,
	  WRITE("/proc/sys/kernel/timer_migration", "1\n") },
	{ "mitigations", "active", W, W, "spectre_v2", NULL,
	  WRITE("/proc/cmdline", "root=/dev/sda1 isolcpus=2-3\n") },
	{ "virt", "QEMU guest", W, W, "DMI vendor QEMU", NULL, FN(ch_vm) },
	{ "virt", "5 % steal", F, W, "steal time 5.7", NULL, FN(ch_steal) },
	{ "governor", "powersave", F, F, "cpu3 powersave", NULL,
	  WRITE("/sys/devices/system/cpu/cpu3/cpufreq/scaling_governor", "powersave\n") },
	{ "governor", "no cpufreq", S, S, "no cpufreq", NULL, FN(ch_no_cpufreq) },
	{ "boost", "turbo on", W, W, "turbo on", NULL,
	  WRITE("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n") },
	{ "cstates", "C6 at 133 us enabled", F, W, "state2 C6 133 us", NULL,
	  WRITE("/sys/devices/system/cpu/cpu2/cpuidle/state2/disable", "0\n") },
	{ "dma_latency", "mode 0600", F, W, "not writable by alice", NULL, FN(ch_dma_mode) },
	{ "dma_latency", "missing", F, W, "missing", NULL, REMOVE("/dev/cpu_dma_latency") },
	{ "smt", "sibling online", F, W, "cpu2 with 0", NULL, FN(ch_smt) },
	{ "isolation", "none", W, W, "no isolcpus", NULL, FN(ch_no_isolation) },
	{ "isolation", "isolcpus alone", W, W, "no nohz_full rcu_nocbs", NULL,
	  WRITE("/proc/cmdline", "root=/dev/sda1 isolcpus=2-3 mitigations=off\n") },
	{ "irq_affinity", "IRQ 10 may run on 2-3", F, W, "IRQ 10", NULL,
	  WRITE("/proc/irq/10/smp_affinity_list", "0-3\n") },
	{ "irq_affinity", "nothing isolated", S, S, NULL, NULL, FN(ch_no_isolation) },
	{ "irqbalance", "running", W, W, "pid 777", NULL, WRITE("/proc/777/comm", "irqbalance\n") },
	{ "thp", "always", W, W, NULL, NULL,
	  WRITE("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n") },
	{ "swappiness", "60", W, W, NULL, NULL, WRITE("/proc/sys/vm/swappiness", "60\n") },
	{ "swappiness", "60 with a swap partition", W, W, "swappiness 60:", NULL,
	  FN(ch_swap_some) },
	{ "swappiness", "60 without swap", P, P, "no swap", NULL, FN(ch_swap_none) },
	{ "ksm", "running", W, W, NULL, NULL, WRITE("/sys/kernel/mm/ksm/run", "1\n") },
	{ "numa_balancing", "on", W, W, NULL, NULL,
	  WRITE("/proc/sys/kernel/numa_balancing", "1\n") },
	{ "rtprio", "no limits file", F, F, "soft 0", NULL, FN(ch_no_limits_file) },
	{ "rtprio", "rtprio 50", W, W, "soft 50, hard 50", NULL,
	  WRITE("/etc/security/limits.d/99-realtime.conf",
		"@audio - rtprio 50\n@audio - memlock unlimited\n") },
	{ "rtprio", "rtprio 85: enough for audio at 80", W, P, "soft 85", NULL,
	  WRITE("/etc/security/limits.d/99-realtime.conf",
		"@audio - rtprio 85\n@audio - memlock unlimited\n") },
	/* alice's own line beats the group's, whatever the file order */
	{ "rtprio", "the user's own line wins", F, F, "10-alice.conf:2", NULL,
	  WRITE("/etc/security/limits.d/10-alice.conf",
		"alice hard rtprio 0\nalice soft rtprio 0\n") },
	{ "rtprio", "this process at 0", F, F, "this process", "me", FN(ch_self_limits) },
	{ "memlock", "8 MiB", F, F, "soft 8192 KiB", NULL,
	  WRITE("/etc/security/limits.d/99-realtime.conf",
		"@audio - rtprio 95\n@audio - memlock 8192\n") },
	{ "memlock", "this process at 64 KiB", F, F, "soft 64 KiB", "me", FN(ch_self_limits) },
	{ "limits_files", "none", W, W, "rtprio not set", NULL, FN(ch_no_limits_file) },
	{ "audio_group", "in realtime instead", P, P, "group realtime", NULL,
	  FN(ch_realtime_group) },
	{ "audio_group", "not a member", W, F, "not in group audio", NULL, FN(ch_not_audio) },
	{ "sound_cards", "no ALSA", W, F, "no sound card", NULL, FN(ch_no_alsa) },
	{ "sound_cards", "no card", W, F, "no sound card", NULL, FN(ch_no_cards) },
	{ "sound_irq", "shared with ehci", W, F, "shared", NULL,
	  WRITE("/proc/interrupts",
		"           CPU0       CPU1\n"
		" 33:       1000          0   PCI-MSI 442368-edge      snd_hda_intel:card0, ehci_hcd:usb1\n"
		" 40:        500          0   PCI-MSI 327680-edge      xhci_hcd\n") },
	{ "sound_irq", "no card", S, S, NULL, NULL, FN(ch_no_cards) },
	{ "irq_prio", "IRQ thread at 50", W, F, "irq/33-snd_hda_intel FIFO 50", NULL,
	  FN(ch_irq_prio_low) },
	{ "irq_prio", "no IRQ thread", W, F, "no IRQ thread", NULL, FN(ch_irq_no_thread) },
	{ "usb_autosuspend", "power/control auto", W, F, "card 1 power/control auto", NULL,
	  FN(ch_autosuspend) },
	{ "ktimers", "FIFO 1, no timer-driven card", W, W, "ktimers/0 FIFO 1", NULL, FN(ch_ktimers_low) },
	{ "ktimers", "FIFO 1 with snd-dummy", W, F, "after rcuc/0 1", NULL, FN(ch_ktimers_low_dummy) },
	{ "ktimers", "FIFO 1 with PipeWire running", W, F, "PipeWire running here", NULL, FN(ch_ktimers_low_pipewire) },
	{ "ktimers", "not PREEMPT_RT", S, S, "not a PREEMPT_RT kernel", NULL, FN(ch_ktimers_stock) },
	{ "ktimers", "no ktimers thread", S, S, "without ktimers", NULL, REMOVE("/proc/18/comm") },
	{ "usb_autosuspend", "no USB audio", S, S, NULL, NULL,
	  WRITE("/proc/asound/cards", " 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n") },
};

/* The good tree with case b's change. */
static void apply(const struct bad_case *b)
{
	good_tree();
	if (b->change)
		b->change();
	else if (b->text)
		put(b->file, "%s", b->text);
	else
		rm(b->file);
}

/* The case of check id called what; bails out when there is none. */
static const struct bad_case *find_case(const char *id, const char *what)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		if (!strcmp(cases[k].id, id) && !strcmp(cases[k].what, what))
			return &cases[k];
	printf("Bail out! no case %s %s\n", id, what);
	exit(1);
}

/* The fix line names the exact files, CPUs or IRQs. */
static void expect_fix(const char *id, const char *what, const char *want)
{
	struct rtp_check_result r;

	apply(find_case(id, what));
	run(id, RTP_PROFILE_LATENCY, NULL, &r);
	ok(strstr(r.fix, want) != NULL, "%s: the fix says %s", id, want);
	if (!strstr(r.fix, want))
		tap_diag("  fix: %s", r.fix);
}

static void test_fixes(void)
{
	expect_fix("cstates", "C6 at 133 us enabled",
		   "echo 1 | tee /sys/devices/system/cpu/cpu*/cpuidle/state2/disable (");
	expect_fix("usb_autosuspend", "power/control auto",
		   "echo on | tee /sys/class/sound/card1/device/../power/control");
	expect_fix("isolation", "none", "isolcpus=domain,managed_irq,1-3 nohz_full=1-3 rcu_nocbs=1-3");
	expect_fix("irq_affinity", "IRQ 10 may run on 2-3", "echo 0-1 > $f");
	expect_fix("rt_throttle", "950000", "sysctl -w kernel.sched_rt_runtime_us=-1");
	expect_fix("clocksource", "hpet",
		   "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource");
	expect_fix("irq_prio", "IRQ thread at 50", "pgrep -P 2 '^irq/33-'); do chrt -f -p 85 $p");
	expect_fix("audio_group", "not a member", "usermod -aG audio alice");
	expect_fix("ktimers", "FIFO 1 with snd-dummy", "for p in $(pgrep '^ktimers/'); do chrt -f -p 81 $p; done");
	expect_fix("rt_throttle", "6.12 fair server, rt_runtime -1",
		   "for f in /sys/kernel/debug/sched/fair_server/cpu*/runtime; do echo 0 > $f; done");
	expect_fix("rt_throttle", "6.12 with RT_GROUP_SCHED", "sysctl -w kernel.sched_rt_runtime_us=-1");
	{
		struct rtp_check_result r;

		/* -1 already: the runtime write alone */
		apply(find_case("rt_throttle", "6.12 fair server, rt_runtime -1"));
		run("rt_throttle", RTP_PROFILE_AUDIO, NULL, &r);
		ok(!strstr(r.fix, "sched_rt_runtime_us") && strstr(r.fix, "fair_server/cpu*/runtime"),
		   "rt_throttle on 6.12, sched_rt_runtime_us -1: the fix writes the fair server's "
		   "runtime, nothing else (%s)", r.fix);
		/* >= 0: the sysctl first (else EBUSY), then the write; never the sysctl alone */
		apply(find_case("rt_throttle", "6.12 fair server, rt_runtime 950000"));
		run("rt_throttle", RTP_PROFILE_AUDIO, NULL, &r);
		ok(!strncmp(r.fix, "sysctl -w kernel.sched_rt_runtime_us=-1; for f in "
			    "/sys/kernel/debug/sched/fair_server/cpu*/runtime; do echo 0 > $f; done", 112) &&
		   strstr(r.fix, "alone stops nothing"),
		   "rt_throttle on 6.12, sched_rt_runtime_us 950000: the sysctl, then the runtime "
		   "write (%s)", r.fix);
	}
}

static void test_trees(void)
{
	struct rtp_check_ctx c;
	bool seen_bad[64] = { false };

	good_tree();
	for (int p = 0; p < 2; p++) {
		int n = 0, ret = rtp_check_init(&c, root, (enum rtp_check_profile)p, "alice", NULL, 80);

		ok(!ret, "init on the good tree");
		for (size_t i = 0; i < rtp_check_count(); i++) {
			struct rtp_check_result r;

			rtp_check_run(&c, i, &r);
			if (r.status != RTP_CHECK_PASS) {
				n++;
				tap_diag("  %s: %s: %s", rtp_check_get(i)->id, rtp_check_status_name(r.status),
					 r.seen);
			}
		}
		ok(n == 0, "good tree, profile %s: all %zu checks pass",
		   rtp_check_profile_name((enum rtp_check_profile)p), rtp_check_count());
		ok(!strcmp(c.cpus_why, "isolated") && CPU_ISSET(2, &c.cpus) && !CPU_ISSET(1, &c.cpus),
		   "the isolated CPUs are the CPUs in use");
		rtp_check_free(&c);
	}
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct bad_case *b = &cases[k];
		int i = rtp_check_find(b->id);

		apply(b);
		expect(b->id, RTP_PROFILE_LATENCY, b->user, b->latency, b->seen_has, b->what);
		expect(b->id, RTP_PROFILE_AUDIO, b->user, b->audio, b->seen_has, b->what);
		if (i >= 0 && i < 64 && (b->latency == F || b->latency == W || b->audio == F ||
					 b->audio == W))
			seen_bad[i] = true;
	}
	for (size_t i = 0; i < rtp_check_count(); i++)
		ok(seen_bad[i], "check %s is seen to warn or fail by a fixture", rtp_check_get(i)->id);

	/* Every check skips, none crashes, on an empty tree. */
	rmtree("");
	mkdir(root, 0755);
	ok(!rtp_check_init(&c, root, RTP_PROFILE_LATENCY, NULL, NULL, 80), "init on an empty tree");
	for (size_t i = 0; i < rtp_check_count(); i++) {
		struct rtp_check_result r;

		rtp_check_run(&c, i, &r);
		if (!r.seen[0])
			ok(false, "empty tree: %s says what it saw", rtp_check_get(i)->id);
	}
	rtp_check_free(&c);
	ok(rtp_check_init(&c, root, RTP_PROFILE_LATENCY, "nobody-here", NULL, 80) == -ESRCH,
	   "an unknown --user is refused");
	ok(rtp_check_init(&c, "/nonexistent/rtproof", RTP_PROFILE_LATENCY, NULL, NULL, 80) == -ENOENT,
	   "a missing root is refused");
}

static void test_parsers(void)
{
	char irq[16], act[128], val[64];
	unsigned long long s, h, steal, total;
	struct rtp_limits_conf lc;
	const char groups[2][64] = { "bob", "audio" };
	int policy, prio;
	FILE *f;

	ok(rtp_parse_interrupts_line(" 33:   1000   0   PCI-MSI 442368-edge      snd_hda_intel:card0\n",
				     irq, sizeof(irq), act, sizeof(act)) == 1 &&
	   !strcmp(irq, "33") && !strcmp(act, "snd_hda_intel:card0"), "interrupts: one action");
	ok(rtp_parse_interrupts_line("  9:  0  0  IO-APIC   9-fasteoi   acpi, snd_hda_intel\n",
				     irq, sizeof(irq), act, sizeof(act)) == 2 &&
	   !strcmp(act, "acpi, snd_hda_intel"), "interrupts: a shared line has two actions");
	ok(rtp_parse_interrupts_line(" 11:   4711  GICv3  27 Level     arch_timer\n",
				     irq, sizeof(irq), act, sizeof(act)) == 1 &&
	   !strcmp(act, "arch_timer"), "interrupts: an ARM GIC line");
	ok(rtp_parse_interrupts_line("           CPU0       CPU1\n", irq, sizeof(irq), act, sizeof(act)) < 0,
	   "interrupts: the header is not a line");
	ok(rtp_parse_interrupts_line("NMI:  0  0  Non-maskable interrupts\n", irq, sizeof(irq), act,
				     sizeof(act)) == 0 && !strcmp(irq, "NMI"), "interrupts: NMI has no action");

	ok(!rtp_parse_stat_steal("cpu  10 0 10 70 0 0 0 10 5 0\n", &steal, &total) && steal == 10 &&
	   total == 100, "stat: steal 10 of 100 (guest time not counted twice)");
	ok(rtp_parse_stat_steal("cpu0 1 2 3\n", &steal, &total) < 0, "stat: not the cpu line");

	ok(!rtp_parse_proc_limits("Max realtime priority     95                   99\n",
				  "Max realtime priority", &s, &h) && s == 95 && h == 99, "limits: rtprio");
	ok(!rtp_parse_proc_limits("Max locked memory         unlimited            unlimited            bytes\n",
				  "Max locked memory", &s, &h) && s == RTP_LIMIT_UNLIMITED, "limits: unlimited");
	ok(rtp_parse_proc_limits("Max nice priority 0 0\n", "Max realtime priority", &s, &h) == -ENOENT,
	   "limits: missing line");

	memset(&lc, 0, sizeof(lc));
	rtp_parse_limits_conf(&lc, "* - rtprio 10\n@audio - rtprio 95\n# bob - rtprio 1\n"
			      "@audio soft memlock 1024\n@audio hard memlock unlimited\n", "f", "bob",
			      groups, 2);
	ok(lc.rtprio.set && lc.rtprio.soft == 95 && lc.rtprio.rank == 2, "limits.conf: the group beats *");
	ok(lc.memlock.soft == 1024 && lc.memlock.hard == RTP_LIMIT_UNLIMITED && !strcmp(lc.memlock.where, "f:5"),
	   "limits.conf: soft and hard lines combine");
	rtp_parse_limits_conf(&lc, "@audio - rtprio 99\n", "g", "bob", groups, 2);
	ok(lc.rtprio.soft == 99 && !strcmp(lc.rtprio.where, "g:1"), "limits.conf: a later file overrides");
	memset(&lc, 0, sizeof(lc));
	rtp_parse_limits_conf(&lc, "* - rtprio 10\n", "f", "root", groups, 0);
	ok(!lc.rtprio.set, "limits.conf: * does not apply to root");

	ok(rtp_cmdline_get("a=1 isolcpus=nohz,2-3 b threadirqs", "isolcpus", val, sizeof(val)) == 1 &&
	   !strcmp(val, "nohz,2-3"), "cmdline: key=value");
	ok(rtp_cmdline_get("a=1 threadirqs", "threadirqs", val, sizeof(val)) == 1 && !val[0],
	   "cmdline: a bare key");
	ok(rtp_cmdline_get("nothreadirqs threadirqs_x=1", "threadirqs", val, sizeof(val)) == 0,
	   "cmdline: whole words only");
	ok(rtp_cmdline_get("ro -- threadirqs", "threadirqs", NULL, 0) == 0, "cmdline: init's part is not the kernel's");

	ok(rtp_kconfig_get("# CONFIG_A is not set\nCONFIG_AB=y\nCONFIG_HZ=250\n", "CONFIG_HZ", val,
			   sizeof(val)) == 1 && !strcmp(val, "250"), "kconfig: a value");
	ok(rtp_kconfig_get("# CONFIG_A is not set\nCONFIG_AB=y\n", "CONFIG_A", val, sizeof(val)) == 0,
	   "kconfig: not set, and not a prefix match");
	ok(rtp_kconfig_get(NULL, "CONFIG_A", val, sizeof(val)) == -ENOENT, "kconfig: no config");

	f = fopen("/proc/self/stat", "r");
	if (f && fgets(act, sizeof(act), f)) {
		char line[1024];

		rewind(f);
		if (fgets(line, sizeof(line), f))
			ok(!rtp_parse_proc_stat_prio(line, &policy, &prio) && policy == 0 && prio == 0,
			   "proc stat: this process is SCHED_OTHER, rt_priority 0");
	}
	if (f)
		fclose(f);
	{
		char line[512] = "1 (a) b) S";

		for (int fld = 4; fld <= 39; fld++)
			strcat(line, " 0");
		strcat(line, " 90 1 0\n");
		ok(!rtp_parse_proc_stat_prio(line, &policy, &prio) && prio == 90 && policy == 1,
		   "proc stat: a comm with ') ' in it");
	}
	ok(rtp_parse_proc_stat_prio("1 (a) S 0 0\n", &policy, &prio) < 0, "proc stat: too short");
}

static int rm_root(void)
{
	rmtree("");
	return 0;
}

int main(void)
{
	char tmpl[] = "/tmp/rtproof-check-XXXXXX";

	if (!mkdtemp(tmpl)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(root, sizeof(root), "%s", tmpl);
	audio_gid = getegid();
	alice_gid = audio_gid == 1000 ? 1001 : 1000;
	test_parsers();
	test_trees();
	test_fixes();
	rm_root();
	return tap_done();
}
