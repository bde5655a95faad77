// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof check: the checks, one table entry each.  Every file is read
 * below c->root, so the tests run the same code on fake trees.
 */
#include "check.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "opt.h"
#include "sysinfo.h"

#define L RTP_PROFILE_BIT(RTP_PROFILE_LATENCY)
#define A RTP_PROFILE_BIT(RTP_PROFILE_AUDIO)

const char *rtp_check_status_name(enum rtp_check_status s)
{
	switch (s) {
	case RTP_CHECK_PASS: return "pass";
	case RTP_CHECK_WARN: return "warn";
	case RTP_CHECK_FAIL: return "fail";
	case RTP_CHECK_SKIP: return "skip";
	}
	return "?";
}

int rtp_check_parse_profile(const char *s, enum rtp_check_profile *out)
{
	if (!strcmp(s, "latency"))
		*out = RTP_PROFILE_LATENCY;
	else if (!strcmp(s, "audio"))
		*out = RTP_PROFILE_AUDIO;
	else
		return -EINVAL;
	return 0;
}

const char *rtp_check_profile_name(enum rtp_check_profile p)
{
	return p == RTP_PROFILE_AUDIO ? "audio" : "latency";
}

/* ---- reading below the root ------------------------------------------- */

static void rpath(const struct rtp_check_ctx *c, const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", c->root, path);
}

int rtp_check_read(const struct rtp_check_ctx *c, const char *path, char *buf, size_t len)
{
	char p[PATH_MAX + 256];

	rpath(c, path, p, sizeof(p));
	return rtp_read_file(p, buf, len);
}

static int readf(const struct rtp_check_ctx *c, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int readf(const struct rtp_check_ctx *c, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return rtp_check_read(c, path, buf, len);
}

/* gzopen reads a plain file as well as a compressed one. */
static char *slurp_gz(const char *path, size_t max)
{
	size_t cap = 8192, used = 0;
	char *buf = NULL, *nb;
	gzFile f;
	int n;

	f = gzopen(path, "rbe");
	if (!f)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		if (used + 1 >= cap) {
			if (cap >= max)
				break;
			nb = realloc(buf, cap * 2);
			if (!nb)
				goto fail;
			buf = nb;
			cap *= 2;
		}
		n = gzread(f, buf + used, (unsigned)(cap - 1 - used));
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	gzclose(f);
	return buf;
fail:
	free(buf);
	gzclose(f);
	errno = EIO;
	return NULL;
}

char *rtp_check_slurp(const struct rtp_check_ctx *c, const char *path, size_t max)
{
	char p[PATH_MAX + 256];
	size_t cap = 4096, used = 0;
	char *buf, *nb;
	FILE *f;

	rpath(c, path, p, sizeof(p));
	f = fopen(p, "re");
	if (!f)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto out;
	for (;;) {
		size_t n;

		if (used + 1 >= cap) {
			if (cap >= max)
				break;
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = fread(buf + used, 1, cap - 1 - used, f);
		if (!n)
			break;
		used += n;
	}
	buf[used] = '\0';
out:
	fclose(f);
	return buf;
}

static void rsetf(char *dst, size_t len, const char *fmt, va_list ap)
{
	vsnprintf(dst, len, fmt, ap);
}

static void seen(struct rtp_check_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void seen(struct rtp_check_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rsetf(r->seen, sizeof(r->seen), fmt, ap);
	va_end(ap);
}

static void fix(struct rtp_check_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fix(struct rtp_check_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rsetf(r->fix, sizeof(r->fix), fmt, ap);
	va_end(ap);
}

/* Appends to a line, keeping it one line. */
static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* Opens <root>PATH (its full name into dir); NULL, the check skipped, when it cannot. */
static DIR *opendir_or_skip(const struct rtp_check_ctx *c, struct rtp_check_result *r,
			    const char *path, char *dir, size_t len)
{
	DIR *dp;

	rpath(c, path, dir, len);
	dp = opendir(dir);
	if (!dp) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "%s unreadable", dir);
	}
	return dp;
}

static int read_cpulist(const struct rtp_check_ctx *c, const char *path, cpu_set_t *set)
{
	char buf[1024];
	int ret;

	CPU_ZERO(set);
	ret = rtp_check_read(c, path, buf, sizeof(buf));
	if (ret)
		return ret;
	if (!buf[0])
		return 0;
	return rtp_parse_cpulist(buf, set);
}

static void fmt_cpus(const cpu_set_t *s, char *buf, size_t len)
{
	if (!CPU_COUNT(s))
		snprintf(buf, len, "none");
	else
		rtp_format_cpulist(s, buf, len);
}

/* The CPU list of isolcpus=[flags,]LIST: the part from the first digit on. */
static int isolcpus_list(const char *val, cpu_set_t *set)
{
	const char *p = val;

	while (*p && !isdigit((unsigned char)*p)) {
		p = strchr(p, ',');
		if (!p)
			return -EINVAL;
		p++;
	}
	if (!*p)
		return -EINVAL;
	return rtp_parse_cpulist(p, set);
}

static bool has_word(const char *hay, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = hay; (p = strstr(p, w)); p += n) {
		bool s = p == hay || !isalnum((unsigned char)p[-1]);
		bool e = !isalnum((unsigned char)p[n]) && p[n] != '_';

		if (s && e)
			return true;
	}
	return false;
}

/* ---- the context ------------------------------------------------------- */

/* passwd or group line: field i (0-based) of a ':' line into out. */
static bool field(const char *line, int i, char *out, size_t len)
{
	const char *p = line, *e;
	size_t n;

	while (i-- > 0) {
		p = strchr(p, ':');
		if (!p)
			return false;
		p++;
	}
	e = p + strcspn(p, ":\n");
	n = (size_t)(e - p);
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

static void add_group(struct rtp_check_ctx *c, const char *name)
{
	for (int i = 0; i < c->ngroups; i++)
		if (!strcmp(c->groups[i], name))
			return;
	if (c->ngroups < RTP_CHECK_MAX_GROUPS)
		snprintf(c->groups[c->ngroups++], sizeof(c->groups[0]), "%s", name);
}

static bool member_of(const char *members, const char *user)
{
	const char *p = members;
	size_t n = strlen(user);

	while (*p) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, user, n))
			return true;
		p += k;
		if (*p)
			p++;
	}
	return false;
}

static int lookup_user(struct rtp_check_ctx *c, const char *name, uid_t uid)
{
	char *pw = rtp_check_slurp(c, "/etc/passwd", 1 << 22), *gr;
	const char *line;

	c->user_found = false;
	for (line = pw; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char f0[64], f2[32], f3[32];

		if (!field(line, 0, f0, sizeof(f0)) || !field(line, 2, f2, sizeof(f2)) ||
		    !field(line, 3, f3, sizeof(f3)))
			continue;
		if ((name && !strcmp(f0, name)) || (!name && (uid_t)strtoul(f2, NULL, 10) == uid &&
						    isdigit((unsigned char)f2[0]))) {
			snprintf(c->user, sizeof(c->user), "%s", f0);
			c->uid = (uid_t)strtoul(f2, NULL, 10);
			c->gid = (gid_t)strtoul(f3, NULL, 10);
			c->user_found = true;
			break;
		}
	}
	free(pw);
	if (!c->user_found) {
		if (name)
			return -ESRCH;
		snprintf(c->user, sizeof(c->user), "%u", (unsigned)uid);
		c->uid = uid;
		c->gid = getgid();
	}
	gr = rtp_check_slurp(c, "/etc/group", 1 << 22);
	for (int pass = 0; pass < 2; pass++) {
		/* Primary group first, then the memberships. */
		for (line = gr; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
			char f0[64], f2[32], f3[4096];

			if (!field(line, 0, f0, sizeof(f0)) || !field(line, 2, f2, sizeof(f2)) ||
			    !field(line, 3, f3, sizeof(f3)))
				continue;
			if (pass == 0 && isdigit((unsigned char)f2[0]) &&
			    (gid_t)strtoul(f2, NULL, 10) == c->gid)
				add_group(c, f0);
			if (pass == 1 && member_of(f3, c->user))
				add_group(c, f0);
		}
	}
	free(gr);
	return 0;
}

static char *load_config(struct rtp_check_ctx *c)
{
	char p[PATH_MAX + 256];
	char *cfg;

	snprintf(p, sizeof(p), "%s/boot/config-%s", c->root, c->release);
	cfg = c->release[0] ? slurp_gz(p, 1 << 24) : NULL;
	if (!cfg) {
		snprintf(p, sizeof(p), "%s/proc/config.gz", c->root);
		cfg = slurp_gz(p, 1 << 24);
	}
	if (cfg)
		snprintf(c->config_src, sizeof(c->config_src), "%s", p + strlen(c->root));
	return cfg;
}

int rtp_check_init(struct rtp_check_ctx *c, const char *root, enum rtp_check_profile profile,
		   const char *user, const cpu_set_t *cpus, int audio_prio)
{
	struct stat st;
	char val[1024];
	cpu_set_t s;
	size_t n;
	int ret;

	memset(c, 0, sizeof(*c));
	c->profile = profile;
	c->audio_prio = audio_prio;
	if (root && strcmp(root, "/")) {
		n = strlen(root);
		while (n > 1 && root[n - 1] == '/')
			n--;
		if (n >= sizeof(c->root))
			return -ENAMETOOLONG;
		memcpy(c->root, root, n);
		c->root[n] = '\0';
		if (stat(c->root, &st))
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	rtp_check_read(c, "/proc/sys/kernel/osrelease", c->release, sizeof(c->release));
	rtp_check_read(c, "/proc/sys/kernel/version", c->version, sizeof(c->version));
	rtp_check_read(c, "/proc/cmdline", c->cmdline, sizeof(c->cmdline));
	c->config = load_config(c);

	if (read_cpulist(c, "/sys/devices/system/cpu/online", &c->online) || !CPU_COUNT(&c->online)) {
		if (c->root[0] || rtp_cpus_online(&c->online))
			CPU_ZERO(&c->online);
	}
	read_cpulist(c, "/sys/devices/system/cpu/isolated", &c->isolated);
	if (rtp_cmdline_get(c->cmdline, "isolcpus", val, sizeof(val)) == 1 && !isolcpus_list(val, &s))
		CPU_OR(&c->isolated, &c->isolated, &s);
	if (cpus) {
		c->cpus = *cpus;
		snprintf(c->cpus_why, sizeof(c->cpus_why), "--cpus");
	} else if (CPU_COUNT(&c->isolated)) {
		c->cpus = c->isolated;
		snprintf(c->cpus_why, sizeof(c->cpus_why), "isolated");
	} else {
		c->cpus = c->online;
		snprintf(c->cpus_why, sizeof(c->cpus_why), "online");
	}

	if (user) {
		ret = lookup_user(c, user, 0);
		if (ret)
			return ret;
		c->user_is_self = c->uid == getuid();
	} else {
		const char *sudo = getenv("SUDO_USER");

		if (getuid() == 0 && !c->root[0] && sudo && *sudo && !lookup_user(c, sudo, 0)) {
			c->user_is_self = false;
		} else {
			lookup_user(c, NULL, getuid());
			c->user_is_self = true;
		}
	}
	return 0;
}

void rtp_check_free(struct rtp_check_ctx *c)
{
	free(c->config);
	c->config = NULL;
}

static const char *no_config(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	r->status = RTP_CHECK_SKIP;
	seen(r, "kernel config unreadable: no %s/boot/config-%s nor %s/proc/config.gz",
	     c->root, c->release[0] ? c->release : "RELEASE", c->root);
	fix(r, "modprobe configs (gives /proc/config.gz), or install the kernel's config in /boot");
	return NULL;
}

static bool rt_kernel(const struct rtp_check_ctx *c)
{
	char buf[64];

	if (!rtp_check_read(c, "/sys/kernel/realtime", buf, sizeof(buf)) && atoi(buf) == 1)
		return true;
	if (strstr(c->version, "PREEMPT_RT"))
		return true;
	return rtp_kconfig_get(c->config, "CONFIG_PREEMPT_RT", buf, sizeof(buf)) == 1 &&
	       !strcmp(buf, "y");
}

/* ---- kernel ------------------------------------------------------------ */

static void check_preempt(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct rtp_preempt_evidence ev = { 0 };
	char realtime[16], sched[128], model[16], src[64], v[16];
	bool dynamic, threadirqs;

	if (!rtp_check_read(c, "/sys/kernel/realtime", realtime, sizeof(realtime)))
		ev.realtime = realtime;
	if (!rtp_check_read(c, "/sys/kernel/debug/sched/preempt", sched, sizeof(sched)))
		ev.sched_preempt = sched;
	ev.uname_version = c->version[0] ? c->version : NULL;
	ev.config = c->config;
	ev.cmdline = c->cmdline;
	rtp_preempt_model(&ev, model, sizeof(model), src, sizeof(src));
	dynamic = strstr(c->version, "PREEMPT_DYNAMIC") ||
		  rtp_kconfig_get(c->config, "CONFIG_PREEMPT_DYNAMIC", v, sizeof(v)) == 1;
	threadirqs = rtp_cmdline_get(c->cmdline, "threadirqs", NULL, 0) == 1;
	if (!strcmp(model, "rt")) {
		r->status = RTP_CHECK_PASS;
		seen(r, "PREEMPT_RT kernel %s (from %s)", c->release, src);
		return;
	}
	if (!strcmp(model, "unknown")) {
		r->status = RTP_CHECK_FAIL;
		seen(r, "not PREEMPT_RT as far as can be read: kernel %s, version \"%s\", no config",
		     c->release, c->version);
		fix(r, "boot a PREEMPT_RT kernel (Debian: apt-get install linux-image-rt-amd64)");
		return;
	}
	seen(r, "not PREEMPT_RT: %s is a %s kernel in mode %s (%s%s)%s", c->release,
	     dynamic ? "PREEMPT_DYNAMIC" : "non-RT", model, src,
	     dynamic && strcmp(src, "debugfs sched/preempt") ?
		     "; the live mode is in /sys/kernel/debug/sched/preempt, debugfs not mounted" : "",
	     threadirqs ? ", threadirqs on" : ", no threadirqs");
	if (dynamic)
		fix(r, "boot a PREEMPT_RT kernel (Debian: apt-get install linux-image-rt-amd64); "
		       "short of that boot with preempt=full threadirqs");
	else
		fix(r, "boot a PREEMPT_RT kernel (Debian: apt-get install linux-image-rt-amd64)");
	/* Full preemption with threaded IRQs is a usable audio machine. */
	if ((!strcmp(model, "full") || !strcmp(model, "lazy")) && threadirqs &&
	    c->profile == RTP_PROFILE_AUDIO)
		r->status = RTP_CHECK_WARN;
	else
		r->status = RTP_CHECK_FAIL;
}

static void check_threadirqs(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char v[16];
	int forced = rtp_kconfig_get(c->config, "CONFIG_IRQ_FORCED_THREADING", v, sizeof(v));

	if (rt_kernel(c)) {
		r->status = RTP_CHECK_PASS;
		seen(r, "PREEMPT_RT: every IRQ handler runs in a thread");
		return;
	}
	if (rtp_cmdline_get(c->cmdline, "threadirqs", NULL, 0) == 1) {
		r->status = RTP_CHECK_PASS;
		seen(r, "threadirqs on the command line: IRQ handlers run in threads%s",
		     forced == 0 ? ", but CONFIG_IRQ_FORCED_THREADING is not set" : "");
		if (forced == 0)
			r->status = RTP_CHECK_FAIL;
		fix(r, "rebuild with CONFIG_IRQ_FORCED_THREADING=y");
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "no threadirqs on the command line: IRQ handlers run in hard-IRQ context, "
		"above every thread, and their priority cannot be set");
	if (forced == 0)
		fix(r, "rebuild with CONFIG_IRQ_FORCED_THREADING=y and boot with threadirqs, "
		       "or boot a PREEMPT_RT kernel");
	else
		fix(r, "add threadirqs to GRUB_CMDLINE_LINUX in /etc/default/grub, update-grub, reboot");
}

static void check_hrtimers(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char v[16];
	int ret = rtp_kconfig_get(c->config, "CONFIG_HIGH_RES_TIMERS", v, sizeof(v));

	if (ret < 0) {
		no_config(c, r);
		return;
	}
	if (ret == 1 && !strcmp(v, "y")) {
		r->status = RTP_CHECK_PASS;
		seen(r, "CONFIG_HIGH_RES_TIMERS=y (%s)", c->config_src);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "CONFIG_HIGH_RES_TIMERS not set (%s): timers expire on the tick, ms late",
	     c->config_src);
	fix(r, "rebuild the kernel with CONFIG_HIGH_RES_TIMERS=y");
}

static void check_nohz(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char v[16], hz[16] = "?", val[1024];
	int full = rtp_kconfig_get(c->config, "CONFIG_NO_HZ_FULL", v, sizeof(v));
	bool idle = rtp_kconfig_get(c->config, "CONFIG_NO_HZ_IDLE", v, sizeof(v)) == 1;
	bool booted = rtp_cmdline_get(c->cmdline, "nohz_full", val, sizeof(val)) == 1;

	if (full < 0) {
		no_config(c, r);
		return;
	}
	rtp_kconfig_get(c->config, "CONFIG_HZ", hz, sizeof(hz));
	if (full == 1) {
		r->status = RTP_CHECK_PASS;
		seen(r, "CONFIG_NO_HZ_FULL=y, HZ=%s%s%s", hz, booted ? ", nohz_full=" : "",
		     booted ? val : " (not booted with nohz_full=: no CPU is tickless)");
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "no CONFIG_NO_HZ_FULL (%s, HZ=%s): the tick interrupts a busy CPU every %s ms",
	     idle ? "CONFIG_NO_HZ_IDLE=y" : "periodic tick", hz,
	     atoi(hz) > 0 ? (atoi(hz) == 1000 ? "1" : atoi(hz) == 250 ? "4" :
			     atoi(hz) == 300 ? "3.3" : atoi(hz) == 100 ? "10" : "1000/HZ") : "1000/HZ");
	fix(r, "use a kernel with CONFIG_NO_HZ_FULL=y and boot with nohz_full=<measured CPUs>");
}

static void check_clocksource(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char cur[64], avail[256] = "";

	if (rtp_check_read(c, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
			   cur, sizeof(cur))) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "%s/sys/devices/system/clocksource/clocksource0 unreadable", c->root);
		return;
	}
	rtp_check_read(c, "/sys/devices/system/clocksource/clocksource0/available_clocksource",
		       avail, sizeof(avail));
	seen(r, "clocksource %s (available: %s)", cur, avail[0] ? avail : "unknown");
	if (!strcmp(cur, "tsc") || !strcmp(cur, "arch_sys_counter") || !strcmp(cur, "riscv_clocksource")) {
		r->status = RTP_CHECK_PASS;
		return;
	}
	if (!strcmp(cur, "hpet") || !strcmp(cur, "acpi_pm") || !strcmp(cur, "jiffies") ||
	    !strcmp(cur, "pit")) {
		r->status = RTP_CHECK_FAIL;
		append(r->seen, sizeof(r->seen), ": each clock read is an I/O access of about 1 us or more");
		if (has_word(avail, "tsc"))
			fix(r, "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource "
			       "(boot: clocksource=tsc)");
		else
			fix(r, "the TSC was found unstable (dmesg | grep -i tsc); boot tsc=reliable only "
			       "if this CPU has an invariant TSC");
		return;
	}
	/* kvm-clock, hyperv, xen: paravirtual, read without an exit. */
	r->status = RTP_CHECK_WARN;
	append(r->seen, sizeof(r->seen), ": a paravirtual clock, not the TSC");
	if (has_word(avail, "tsc"))
		fix(r, "echo tsc > /sys/devices/system/clocksource/clocksource0/current_clocksource");
	else
		fix(r, "give the guest an invariant TSC (QEMU: -cpu host,+invtsc)");
}

static void check_rt_throttle(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char run[32], per[32] = "1000000";
	long rt, p;

	if (rtp_check_read(c, "/proc/sys/kernel/sched_rt_runtime_us", run, sizeof(run))) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "%s/proc/sys/kernel/sched_rt_runtime_us unreadable", c->root);
		return;
	}
	rtp_check_read(c, "/proc/sys/kernel/sched_rt_period_us", per, sizeof(per));
	rt = atol(run);
	p = atol(per);
	if (rt < 0) {
		r->status = RTP_CHECK_PASS;
		seen(r, "sched_rt_runtime_us -1: no RT throttling");
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "sched_rt_runtime_us %ld of sched_rt_period_us %ld: RT threads are stopped for "
		"%ld ms of every %ld ms they keep a CPU busy", rt, p,
	     p > rt ? (p - rt) / 1000 : 0, p / 1000);
	fix(r, "sysctl -w kernel.sched_rt_runtime_us=-1 (keep it in /etc/sysctl.d/)");
}

/*
 * A knob that is one number in one file below the root, good at 0: it
 * passes ("NAME 0GOOD"), else warns ("NAME VALUE BAD", and the fix).
 */
struct zero_knob {
	const char *path, *name;
	const char *good, *bad, *fix;
	enum rtp_check_status absent;	/* an unreadable file: PASS (not in this kernel) or SKIP */
	const char *absent_seen;	/* PASS: the line; SKIP: after "<root><path> unreadable" */
};

static void check_zero_knob(const struct rtp_check_ctx *c, struct rtp_check_result *r,
			    const struct zero_knob *k)
{
	char v[16];

	if (rtp_check_read(c, k->path, v, sizeof(v))) {
		r->status = k->absent;
		if (k->absent == RTP_CHECK_PASS)
			seen(r, "%s", k->absent_seen);
		else
			seen(r, "%s%s unreadable%s", c->root, k->path, k->absent_seen);
		return;
	}
	if (atoi(v) == 0) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s 0%s", k->name, k->good);
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "%s %s%s", k->name, v, k->bad);
	fix(r, "%s", k->fix);
}

static void check_timer_migration(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	static const struct zero_knob k = {
		.path = "/proc/sys/kernel/timer_migration", .name = "timer_migration",
		.good = ": timers stay on the CPU that armed them",
		.bad = ": timers of idle CPUs move to busy ones",
		.fix = "sysctl -w kernel.timer_migration=0",
		.absent = RTP_CHECK_SKIP, .absent_seen = " (CONFIG_SMP off?)",
	};

	check_zero_knob(c, r, &k);
}

static void check_mitigations(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char dir[PATH_MAX + 64], v[512], val[64], names[512] = "";
	int active = 0, vuln = 0, total = 0;
	struct dirent *d;
	DIR *dp;

	dp = opendir_or_skip(c, r, "/sys/devices/system/cpu/vulnerabilities", dir, sizeof(dir));
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		if (readf(c, v, sizeof(v), "/sys/devices/system/cpu/vulnerabilities/%s", d->d_name))
			continue;
		total++;
		if (!strncmp(v, "Mitigation", 10)) {
			active++;
			append(names, sizeof(names), "%s%s", active > 1 ? ", " : "", d->d_name);
		} else if (!strncmp(v, "Vulnerable", 10)) {
			vuln++;
		}
	}
	closedir(dp);
	if (rtp_cmdline_get(c->cmdline, "mitigations", val, sizeof(val)) == 1 && !strcmp(val, "off")) {
		r->status = RTP_CHECK_PASS;
		seen(r, "mitigations=off: %d of %d vulnerability files say Mitigation", active, total);
		return;
	}
	if (!active) {
		r->status = RTP_CHECK_PASS;
		seen(r, "no mitigation active (%d vulnerability files: %d vulnerable, the rest not affected)",
		     total, vuln);
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "%d mitigations active (%s): they add to every syscall, IRQ and context switch",
	     active, names);
	fix(r, "mitigations=off on the kernel command line (a security trade: a dedicated machine only)");
}

static bool cpuinfo_hypervisor(const struct rtp_check_ctx *c)
{
	char *ci = rtp_check_slurp(c, "/proc/cpuinfo", 1 << 22);
	bool yes = false;

	for (const char *l = ci; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, "flags", 5) || !strncmp(l, "Features", 8)) {
			const char *e = strchr(l, '\n');
			char line[4096];
			size_t n = e ? (size_t)(e - l) : strlen(l);

			if (n >= sizeof(line))
				n = sizeof(line) - 1;
			memcpy(line, l, n);
			line[n] = '\0';
			yes = has_word(line, "hypervisor");
			break;
		}
	}
	free(ci);
	return yes;
}

static void check_virt(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char vendor[128] = "", hv[64] = "", how[256] = "", stat[1024];
	unsigned long long steal = 0, total = 0;
	bool virt = false, have_steal;

	if (cpuinfo_hypervisor(c)) {
		virt = true;
		append(how, sizeof(how), "CPUID hypervisor flag");
	}
	if (!rtp_check_read(c, "/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)) &&
	    (strstr(vendor, "QEMU") || strstr(vendor, "VMware") || strstr(vendor, "Xen") ||
	     strstr(vendor, "Microsoft") || strstr(vendor, "innotek") || strstr(vendor, "Amazon EC2"))) {
		virt = true;
		append(how, sizeof(how), "%sDMI vendor %s", how[0] ? ", " : "", vendor);
	}
	if (!rtp_check_read(c, "/sys/hypervisor/type", hv, sizeof(hv)) && hv[0]) {
		virt = true;
		append(how, sizeof(how), "%s/sys/hypervisor/type %s", how[0] ? ", " : "", hv);
	}
	have_steal = !rtp_check_read(c, "/proc/stat", stat, sizeof(stat)) &&
		     !rtp_parse_stat_steal(stat, &steal, &total) && total;
	if (!virt) {
		r->status = RTP_CHECK_PASS;
		seen(r, "no hypervisor seen (CPUID flag, DMI vendor, /sys/hypervisor)");
		if (!have_steal || !steal)
			return;
	}
	if (virt)
		seen(r, "runs under a hypervisor (%s)", how);
	if (have_steal)
		append(r->seen, sizeof(r->seen), ", steal time %.3f %% of CPU time since boot",
		       100.0 * (double)steal / (double)total);
	else
		append(r->seen, sizeof(r->seen), ", steal time unreadable");
	fix(r, "measure on bare metal for hardware figures; in a VM give each vCPU its own host "
	       "CPU (virsh vcpupin / QEMU -smp pinned with taskset) on an RT host");
	r->status = have_steal && (double)steal >= 0.01 * (double)total ? RTP_CHECK_FAIL
									  : RTP_CHECK_WARN;
	if (r->status == RTP_CHECK_FAIL)
		append(r->seen, sizeof(r->seen), ": the host takes CPUs away from this system");
	else if (virt)
		append(r->seen, sizeof(r->seen), ": figures are a VM's, not the hardware's");
}

/* ---- cpu --------------------------------------------------------------- */

static void check_governor(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char bad[512] = "", gov[64], list[256];
	int ok = 0, nbad = 0;

	fmt_cpus(&c->cpus, list, sizeof(list));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		if (readf(c, gov, sizeof(gov), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu))
			continue;
		if (!strcmp(gov, "performance")) {
			ok++;
		} else {
			nbad++;
			append(bad, sizeof(bad), "%scpu%d %s", nbad > 1 ? ", " : "", cpu, gov);
		}
	}
	if (!ok && !nbad) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no cpufreq for CPUs %s (no %s/sys/devices/system/cpu/cpuN/cpufreq): "
			"the frequency is set by firmware or the hypervisor", list, c->root);
		return;
	}
	if (!nbad) {
		r->status = RTP_CHECK_PASS;
		seen(r, "governor performance on CPUs %s (%d read)", list, ok);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "governor not performance: %s: the clock ramps up after each wake-up", bad);
	fix(r, "cpupower frequency-set -g performance "
	       "(or: echo performance | tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)");
}

/*
 * A boost switch in <root>PATH: passes at the value good, else warns, the
 * fix writing good; false, nothing set, when the file is unreadable.
 */
static bool boost_switch(const struct rtp_check_ctx *c, struct rtp_check_result *r, const char *path,
			 int good, const char *good_seen, const char *bad_seen)
{
	char v[16];

	if (rtp_check_read(c, path, v, sizeof(v)))
		return false;
	if (atoi(v) == good) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s", good_seen);
		return true;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "%s", bad_seen);
	fix(r, "echo %d > %s", good, path);
	return true;
}

static void check_boost(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	if (boost_switch(c, r, "/sys/devices/system/cpu/intel_pstate/no_turbo", 1,
			 "intel_pstate no_turbo 1: turbo off, a steady clock",
			 "intel_pstate no_turbo 0: turbo on, the clock moves with load and heat"))
		return;
	if (boost_switch(c, r, "/sys/devices/system/cpu/cpufreq/boost", 0,
			 "cpufreq boost 0: a steady clock",
			 "cpufreq boost 1: the clock moves with load and heat"))
		return;
	r->status = RTP_CHECK_SKIP;
	seen(r, "no intel_pstate/no_turbo nor cpufreq/boost under %s/sys/devices/system/cpu: "
		"no boost control here", c->root);
}

static void check_cstates(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	unsigned limit = c->profile == RTP_PROFILE_AUDIO ? 100 : 10;
	char name[64], lat[32], dis[16], drv[64] = "unknown", deep[128] = "", bad[512] = "";
	char cmd[512] = "";
	unsigned long worst = 0;
	unsigned badstates = 0;
	int nstates = 0, nbad = 0;

	rtp_check_read(c, "/sys/devices/system/cpu/cpuidle/current_driver", drv, sizeof(drv));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		for (int s = 0; s < 32; s++) {
			unsigned long us;

			if (readf(c, name, sizeof(name), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
				  cpu, s) ||
			    readf(c, lat, sizeof(lat), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency",
				  cpu, s))
				break;
			nstates++;
			if (!readf(c, dis, sizeof(dis), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable",
				   cpu, s) && atoi(dis))
				continue;
			us = strtoul(lat, NULL, 10);
			if (us > worst) {
				worst = us;
				snprintf(deep, sizeof(deep), "%s (cpu%d state%d, exit %lu us)", name, cpu, s, us);
			}
			if (us > limit)
				badstates |= 1u << s;
			if (us > limit && nbad++ < 4)
				append(bad, sizeof(bad), "%scpu%d state%d %s %lu us", nbad > 1 ? ", " : "",
				       cpu, s, name, us);
		}
	}
	if (!nstates) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no cpuidle states for the CPUs in use (driver %s): exit latencies unknown", drv);
		fix(r, "processor.max_cstate=1 intel_idle.max_cstate=0 keep idle shallow whatever the driver");
		return;
	}
	if (!nbad) {
		r->status = RTP_CHECK_PASS;
		seen(r, "driver %s, deepest enabled state %s, within %u us", drv,
		     deep[0] ? deep : "none", limit);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "driver %s, %d enabled idle state(s) exit slower than %u us: %s%s", drv, nbad, limit,
	     bad, nbad > 4 ? ", ..." : "");
	for (int k = 0; k < 32; k++)
		if (badstates >> k & 1)
			append(cmd, sizeof(cmd), " /sys/devices/system/cpu/cpu*/cpuidle/state%d/disable", k);
	fix(r, "echo 1 | tee%s (boot: processor.max_cstate=1 intel_idle.max_cstate=0; "
	       "rtproof benches also hold /dev/cpu_dma_latency at 0 while they run)", cmd);
}

static bool user_in_gid(const struct rtp_check_ctx *c, gid_t gid)
{
	char *gr;
	bool yes = c->gid == gid;

	if (yes)
		return true;
	gr = rtp_check_slurp(c, "/etc/group", 1 << 22);
	for (const char *l = gr; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char f0[64], f2[32];

		if (field(l, 0, f0, sizeof(f0)) && field(l, 2, f2, sizeof(f2)) &&
		    isdigit((unsigned char)f2[0]) && (gid_t)strtoul(f2, NULL, 10) == gid) {
			for (int i = 0; i < c->ngroups; i++)
				if (!strcmp(c->groups[i], f0))
					yes = true;
			break;
		}
	}
	free(gr);
	return yes;
}

static void check_dma_latency(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char p[PATH_MAX + 64];
	struct stat st;
	bool w;

	rpath(c, "/dev/cpu_dma_latency", p, sizeof(p));
	if (stat(p, &st)) {
		r->status = RTP_CHECK_FAIL;
		seen(r, "%s missing: nothing can hold the CPUs out of deep C-states (no CONFIG_CPU_IDLE/PM QoS?)",
		     p);
		fix(r, "use a kernel with CONFIG_CPU_IDLE, or boot with processor.max_cstate=1 "
		       "intel_idle.max_cstate=0");
		return;
	}
	if (c->uid == 0)
		w = true;
	else if (st.st_uid == c->uid)
		w = st.st_mode & S_IWUSR;
	else if (user_in_gid(c, st.st_gid))
		w = st.st_mode & S_IWGRP;
	else
		w = st.st_mode & S_IWOTH;
	if (w) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s writable by %s (mode %04o): benches hold C-state exit latency at 0 while they run",
		     p, c->user, (unsigned)(st.st_mode & 07777));
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "%s not writable by %s (mode %04o, uid %u gid %u): a bench cannot hold C-states shallow",
	     p, c->user, (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid, (unsigned)st.st_gid);
	fix(r, "echo 'KERNEL==\"cpu_dma_latency\", GROUP=\"audio\", MODE=\"0660\"' > "
	       "/etc/udev/rules.d/99-cpu-dma-latency.rules && udevadm trigger");
}

static void check_smt(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char ctl[32] = "unknown", shared[512] = "", a[64];
	int read = 0, nshared = 0;
	cpu_set_t sib;

	rtp_check_read(c, "/sys/devices/system/cpu/smt/control", ctl, sizeof(ctl));
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		char path[128];

		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		if (read_cpulist(c, path, &sib))
			continue;
		read++;
		CPU_CLR(cpu, &sib);
		CPU_AND(&sib, &sib, &c->online);
		if (CPU_COUNT(&sib)) {
			nshared++;
			rtp_format_cpulist(&sib, a, sizeof(a));
			append(shared, sizeof(shared), "%scpu%d with %s", nshared > 1 ? ", " : "", cpu, a);
		}
	}
	if (!read) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no topology/thread_siblings_list for the CPUs in use");
		return;
	}
	if (!nshared) {
		r->status = RTP_CHECK_PASS;
		seen(r, "no online SMT sibling of the CPUs in use (smt/control %s)", ctl);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "SMT siblings share a core: %s (smt/control %s): a sibling's load stalls the measured thread",
	     shared, ctl);
	fix(r, "echo off > /sys/devices/system/cpu/smt/control (boot: nosmt)");
}

/* Housekeeping CPU 0, the rest for real-time work. */
static void suggest_cpus(const struct rtp_check_ctx *c, char *buf, size_t len)
{
	cpu_set_t s = c->online;

	CPU_CLR(0, &s);
	if (!CPU_COUNT(&s))
		snprintf(buf, len, "<CPUs>");
	else
		rtp_format_cpulist(&s, buf, len);
}

static void check_isolation(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char iso[1024], nohz[1024], rcu[1024], sug[256], missing[128] = "";
	bool hi = rtp_cmdline_get(c->cmdline, "isolcpus", iso, sizeof(iso)) == 1;
	bool hn = rtp_cmdline_get(c->cmdline, "nohz_full", nohz, sizeof(nohz)) == 1;
	bool hr = rtp_cmdline_get(c->cmdline, "rcu_nocbs", rcu, sizeof(rcu)) == 1;

	suggest_cpus(c, sug, sizeof(sug));
	if (CPU_COUNT(&c->online) == 1) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "one CPU online: nothing to isolate");
		return;
	}
	if (!hi)
		append(missing, sizeof(missing), " isolcpus");
	if (!hn)
		append(missing, sizeof(missing), " nohz_full");
	if (!hr)
		append(missing, sizeof(missing), " rcu_nocbs");
	if (hi && hn && hr) {
		r->status = RTP_CHECK_PASS;
		seen(r, "isolcpus=%s nohz_full=%s rcu_nocbs=%s", iso, nohz, rcu);
		return;
	}
	r->status = RTP_CHECK_WARN;
	if (!hi && !hn && !hr)
		seen(r, "no isolcpus, nohz_full or rcu_nocbs: every CPU runs housekeeping work");
	else
		seen(r, "%s%s%s%s%s%s, no%s", hi ? "isolcpus=" : "", hi ? iso : "",
		     hn ? " nohz_full=" : "", hn ? nohz : "", hr ? " rcu_nocbs=" : "", hr ? rcu : "",
		     missing);
	fix(r, "boot with isolcpus=domain,managed_irq,%s nohz_full=%s rcu_nocbs=%s", sug, sug, sug);
}

static void check_irq_affinity(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char dir[PATH_MAX + 64], iso[256], hk[256], bad[512] = "", path[128];
	int nbad = 0, nread = 0;
	cpu_set_t aff, house;
	struct dirent *d;
	DIR *dp;

	if (!CPU_COUNT(&c->isolated)) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no isolated CPUs: no IRQ to keep off them");
		return;
	}
	fmt_cpus(&c->isolated, iso, sizeof(iso));
	CPU_XOR(&house, &c->online, &c->isolated);
	CPU_AND(&house, &house, &c->online);
	fmt_cpus(&house, hk, sizeof(hk));
	dp = opendir_or_skip(c, r, "/proc/irq", dir, sizeof(dir));
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%.16s/effective_affinity_list", d->d_name);
		if (read_cpulist(c, path, &aff) || !CPU_COUNT(&aff)) {
			snprintf(path, sizeof(path), "/proc/irq/%.16s/smp_affinity_list", d->d_name);
			if (read_cpulist(c, path, &aff))
				continue;
		}
		nread++;
		CPU_AND(&aff, &aff, &c->isolated);
		if (CPU_COUNT(&aff) && nbad++ < 8)
			append(bad, sizeof(bad), "%sIRQ %s", nbad > 1 ? ", " : "", d->d_name);
	}
	closedir(dp);
	if (!nread) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no readable %s/N/smp_affinity_list", dir);
		return;
	}
	if (!nbad) {
		r->status = RTP_CHECK_PASS;
		seen(r, "none of %d IRQs may run on the isolated CPUs %s", nread, iso);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "%d of %d IRQs may run on the isolated CPUs %s: %s%s", nbad, nread, iso, bad,
	     nbad > 8 ? ", ..." : "");
	fix(r, "for f in /proc/irq/*/smp_affinity_list; do echo %s > $f; done (boot: irqaffinity=%s)",
	    hk, hk);
}

/* Calls fn(pid, comm) for each process under <root>/proc; stops when it returns nonzero. */
static void each_proc(const struct rtp_check_ctx *c,
		      int (*fn)(const struct rtp_check_ctx *c, const char *pid, const char *comm, void *arg),
		      void *arg)
{
	char dir[PATH_MAX + 16], comm[64];
	struct dirent *d;
	DIR *dp;

	rpath(c, "/proc", dir, sizeof(dir));
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		if (readf(c, comm, sizeof(comm), "/proc/%.16s/comm", d->d_name))
			continue;
		if (fn(c, d->d_name, comm, arg))
			break;
	}
	closedir(dp);
}

static int find_irqbalance(const struct rtp_check_ctx *c, const char *pid, const char *comm, void *arg)
{
	(void)c;
	if (strcmp(comm, "irqbalance"))
		return 0;
	snprintf(arg, 32, "%s", pid);
	return 1;
}

static void check_irqbalance(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char pid[32] = "";

	each_proc(c, find_irqbalance, pid);
	if (!pid[0]) {
		r->status = RTP_CHECK_PASS;
		seen(r, "irqbalance not running");
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "irqbalance running (pid %s): it moves IRQs, the sound card's too, every 10 s", pid);
	fix(r, "systemctl disable --now irqbalance (or IRQBALANCE_BANNED_CPULIST=<RT CPUs> in "
	       "/etc/default/irqbalance)");
}

/* ---- memory ------------------------------------------------------------ */

static void check_thp(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char v[128];

	if (rtp_check_read(c, "/sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v))) {
		r->status = RTP_CHECK_PASS;
		seen(r, "no transparent hugepages in this kernel");
		return;
	}
	if (strstr(v, "[always]")) {
		r->status = RTP_CHECK_WARN;
		seen(r, "transparent_hugepage %s: page faults and khugepaged compact memory at any time", v);
		fix(r, "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled "
		       "(boot: transparent_hugepage=madvise)");
		return;
	}
	r->status = RTP_CHECK_PASS;
	seen(r, "transparent_hugepage %s", v);
}

static void check_swappiness(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	bool noswap = false;
	char v[32], *swaps;

	if (rtp_check_read(c, "/proc/sys/vm/swappiness", v, sizeof(v))) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "%s/proc/sys/vm/swappiness unreadable", c->root);
		return;
	}
	if (atoi(v) <= 10) {
		r->status = RTP_CHECK_PASS;
		seen(r, "swappiness %s", v);
		return;
	}
	/* Without swap there is nothing to swap out (only the header line). */
	swaps = rtp_check_slurp(c, "/proc/swaps", 1 << 16);
	if (swaps) {
		char *nl = strchr(swaps, '\n');

		noswap = !nl || !nl[1];
		free(swaps);
	}
	if (noswap) {
		r->status = RTP_CHECK_PASS;
		seen(r, "swappiness %s, but no swap is configured (%s/proc/swaps)", v, c->root);
		return;
	}
	r->status = RTP_CHECK_WARN;
	seen(r, "swappiness %s: memory not locked is swapped out early, and faults back in late", v);
	fix(r, "sysctl -w vm.swappiness=10 (keep it in /etc/sysctl.d/)");
}

static void check_ksm(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	static const struct zero_knob k = {
		.path = "/sys/kernel/mm/ksm/run", .name = "ksm run",
		.good = ": not merging pages",
		.bad = ": ksmd scans and merges pages, a write to a merged page faults",
		.fix = "echo 0 > /sys/kernel/mm/ksm/run",
		.absent = RTP_CHECK_PASS, .absent_seen = "no KSM in this kernel",
	};

	check_zero_knob(c, r, &k);
}

static void check_numa_balancing(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	static const struct zero_knob k = {
		.path = "/proc/sys/kernel/numa_balancing", .name = "numa_balancing",
		.good = "",
		.bad = ": pages are unmapped to sample access, each sample a fault",
		.fix = "sysctl -w kernel.numa_balancing=0",
		.absent = RTP_CHECK_PASS, .absent_seen = "no NUMA balancing in this kernel",
	};

	check_zero_knob(c, r, &k);
}

/* ---- limits ------------------------------------------------------------ */

/* Every limits file pam_limits reads, in its order. */
static void read_limits_conf(const struct rtp_check_ctx *c, struct rtp_limits_conf *lc)
{
	char dir[PATH_MAX + 64], rel[PATH_MAX];
	struct dirent **names = NULL;
	char *t;
	int n;

	memset(lc, 0, sizeof(*lc));
	t = rtp_check_slurp(c, "/etc/security/limits.conf", 1 << 20);
	if (t)
		rtp_parse_limits_conf(lc, t, "/etc/security/limits.conf", c->user, c->groups, c->ngroups);
	free(t);
	rpath(c, "/etc/security/limits.d", dir, sizeof(dir));
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 5 && !strcmp(names[i]->d_name + len - 5, ".conf") && names[i]->d_name[0] != '.') {
			snprintf(rel, sizeof(rel), "/etc/security/limits.d/%s", names[i]->d_name);
			t = rtp_check_slurp(c, rel, 1 << 20);
			if (t)
				rtp_parse_limits_conf(lc, t, rel, c->user, c->groups, c->ngroups);
			free(t);
		}
		free(names[i]);
	}
	free(names);
}

/* A capability bit of the process (self only) from <root>/proc/self/status. */
static bool self_cap(const struct rtp_check_ctx *c, int bit)
{
	char *st = rtp_check_slurp(c, "/proc/self/status", 1 << 16);
	const char *p = st ? strstr(st, "CapEff:") : NULL;
	unsigned long long caps = 0;

	if (p)
		caps = strtoull(p + 7, NULL, 16);
	free(st);
	return caps >> bit & 1;
}

static void fmt_limit(unsigned long long v, bool bytes, char *buf, size_t len)
{
	if (v == RTP_LIMIT_UNLIMITED)
		snprintf(buf, len, "unlimited");
	else if (bytes)
		snprintf(buf, len, "%llu KiB", v / 1024);
	else
		snprintf(buf, len, "%llu", v);
}

enum { LIM_RTPRIO, LIM_MEMLOCK };

static void check_limit(const struct rtp_check_ctx *c, struct rtp_check_result *r, int which)
{
	const bool rtprio = which == LIM_RTPRIO;
	/* rtproof-cyclic's default priority, or the audio thread's. */
	const unsigned long long need = rtprio ? (c->profile == RTP_PROFILE_AUDIO ?
						  (unsigned long long)c->audio_prio : 95ull)
					       : 64ull << 20;
	struct rtp_limits_conf lc;
	const struct rtp_limit_entry *e;
	unsigned long long soft = 0, hard = 0, conf = 0;
	char text[4096], a[32], b[32], cf[PATH_MAX + 64] = "";
	bool cap = false, self = false;

	read_limits_conf(c, &lc);
	e = rtprio ? &lc.rtprio : &lc.memlock;
	if (e->set) {
		conf = e->soft == RTP_LIMIT_UNLIMITED || rtprio ? e->soft : e->soft * 1024;
		fmt_limit(conf, !rtprio, a, sizeof(a));
		snprintf(cf, sizeof(cf), "%s grants %s", e->where, a);
	} else {
		snprintf(cf, sizeof(cf), "no limits file grants %s", rtprio ? "rtprio" : "memlock");
	}
	if (c->user_is_self && !rtp_check_read(c, "/proc/self/limits", text, sizeof(text)) &&
	    !rtp_parse_proc_limits(text, rtprio ? "Max realtime priority" : "Max locked memory",
				   &soft, &hard)) {
		self = true;
		cap = self_cap(c, rtprio ? 23 : 14);	/* CAP_SYS_NICE, CAP_IPC_LOCK */
	} else if (e->set) {
		soft = conf;
		hard = e->hard == RTP_LIMIT_UNLIMITED || rtprio ? e->hard : e->hard * 1024;
	} else {
		/* pam_limits sets nothing: the kernel's defaults. */
		soft = hard = rtprio ? 0 : 8ull << 20;
	}
	fmt_limit(soft, !rtprio, a, sizeof(a));
	fmt_limit(hard, !rtprio, b, sizeof(b));
	seen(r, "%s %s: soft %s, hard %s (%s; %s)", c->user, rtprio ? "RLIMIT_RTPRIO" : "RLIMIT_MEMLOCK",
	     a, b, self ? "this process" : e->set ? "from the limits files" : "the kernel's default", cf);
	if (rtprio)
		fix(r, "echo '@audio - rtprio 95' >> /etc/security/limits.d/99-realtime.conf; "
		       "usermod -aG audio %s; log in again", c->user);
	else
		fix(r, "echo '@audio - memlock unlimited' >> /etc/security/limits.d/99-realtime.conf; "
		       "usermod -aG audio %s; log in again", c->user);
	if (cap || (c->uid == 0 && !c->user_is_self)) {
		r->status = RTP_CHECK_PASS;
		append(r->seen, sizeof(r->seen), ": %s, which the limit does not bind",
		       cap ? (rtprio ? "has CAP_SYS_NICE" : "has CAP_IPC_LOCK") : "root");
		return;
	}
	if (soft == RTP_LIMIT_UNLIMITED || soft >= need) {
		r->status = RTP_CHECK_PASS;
		return;
	}
	fmt_limit(need, !rtprio, a, sizeof(a));
	if (rtprio)
		r->status = soft == 0 ? RTP_CHECK_FAIL : RTP_CHECK_WARN;
	else
		r->status = RTP_CHECK_FAIL;
	append(r->seen, sizeof(r->seen), ": below %s", a);
	if (self && e->set && (conf == RTP_LIMIT_UNLIMITED || conf > soft))
		append(r->seen, sizeof(r->seen), ", the file's grant is not in effect for this session");
}

static void check_rtprio(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	check_limit(c, r, LIM_RTPRIO);
}

static void check_memlock(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	check_limit(c, r, LIM_MEMLOCK);
}

static void check_limits_files(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct rtp_limits_conf lc;
	char a[32], b[32];

	read_limits_conf(c, &lc);
	if (lc.rtprio.set)
		fmt_limit(lc.rtprio.soft, false, a, sizeof(a));
	if (lc.memlock.set)
		fmt_limit(lc.memlock.soft == RTP_LIMIT_UNLIMITED ? RTP_LIMIT_UNLIMITED
								  : lc.memlock.soft * 1024, true, b, sizeof(b));
	seen(r, "for %s: rtprio %s%s%s, memlock %s%s%s", c->user,
	     lc.rtprio.set ? a : "not set", lc.rtprio.set ? " at " : "", lc.rtprio.set ? lc.rtprio.where : "",
	     lc.memlock.set ? b : "not set", lc.memlock.set ? " at " : "",
	     lc.memlock.set ? lc.memlock.where : "");
	fix(r, "printf '@audio - rtprio 95\\n@audio - memlock unlimited\\n' > "
	       "/etc/security/limits.d/99-realtime.conf; usermod -aG audio %s", c->user);
	if (lc.rtprio.set && lc.rtprio.soft > 0 && lc.memlock.set &&
	    (lc.memlock.soft == RTP_LIMIT_UNLIMITED || lc.memlock.soft >= 64 * 1024)) {
		r->status = RTP_CHECK_PASS;
		return;
	}
	if (c->uid == 0) {
		r->status = RTP_CHECK_PASS;
		append(r->seen, sizeof(r->seen), ": root needs none (CAP_SYS_NICE, CAP_IPC_LOCK)");
		return;
	}
	r->status = RTP_CHECK_WARN;
	append(r->seen, sizeof(r->seen), " in %s/etc/security/limits.conf and limits.d/*.conf", c->root);
}

static void check_audio_group(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	bool member = false;

	const char *grp = "audio";

	/* Some distributions grant the limits to "realtime" instead. */
	for (int i = 0; i < c->ngroups; i++) {
		if (!strcmp(c->groups[i], "audio") || !strcmp(c->groups[i], "realtime")) {
			member = true;
			grp = c->groups[i];
		}
	}
	fix(r, "usermod -aG audio %s; log in again", c->user);
	if (member) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s is in group %s", c->user, grp);
		return;
	}
	if (c->uid == 0) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%s (uid 0) is not in group audio, and as root need not be", c->user);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "%s is not in group audio (groups: %s%s%s%s): the sound devices and the group's "
		"limits are not theirs", c->user, c->ngroups > 0 ? c->groups[0] : "none",
	     c->ngroups > 1 ? ", " : "", c->ngroups > 1 ? c->groups[1] : "", c->ngroups > 2 ? ", ..." : "");
}

/* ---- audio ------------------------------------------------------------- */

#define MAX_CARDS 8
struct cards {
	int n;
	int num[MAX_CARDS];
	char desc[MAX_CARDS][128];
	bool usb[MAX_CARDS];
	bool no_alsa;
};

static void read_cards(const struct rtp_check_ctx *c, struct cards *k)
{
	char *t = rtp_check_slurp(c, "/proc/asound/cards", 1 << 16);

	memset(k, 0, sizeof(*k));
	if (!t) {
		k->no_alsa = true;
		return;
	}
	for (const char *l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *p = l, *e;
		char *end;
		long num;
		size_t n;

		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p) || k->n >= MAX_CARDS)
			continue;
		num = strtol(p, &end, 10);
		if (*end != ' ')
			continue;
		e = strchr(p, '\n');
		n = e ? (size_t)(e - p) : strlen(p);
		if (n >= sizeof(k->desc[0]))
			n = sizeof(k->desc[0]) - 1;
		k->num[k->n] = (int)num;
		memcpy(k->desc[k->n], p, n);
		k->desc[k->n][n] = '\0';
		k->usb[k->n] = strstr(k->desc[k->n], "USB-Audio") != NULL;
		k->n++;
	}
	free(t);
}

static bool no_cards(const struct rtp_check_ctx *c, const struct cards *k,
		     struct rtp_check_result *r, bool skip)
{
	if (k->n)
		return false;
	r->status = skip ? RTP_CHECK_SKIP : RTP_CHECK_FAIL;
	if (k->no_alsa)
		seen(r, "no sound card: %s/proc/asound missing (no ALSA driver loaded)", c->root);
	else
		seen(r, "no sound card in %s/proc/asound/cards", c->root);
	fix(r, "attach a sound card; to exercise the audio path without one: modprobe snd-dummy");
	return true;
}

static void check_sound_cards(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct cards k;

	read_cards(c, &k);
	if (no_cards(c, &k, r, false))
		return;
	r->status = RTP_CHECK_PASS;
	seen(r, "%d sound card(s):", k.n);
	for (int i = 0; i < k.n; i++)
		append(r->seen, sizeof(r->seen), "%s %s", i ? ";" : "", k.desc[i]);
}

#define MAX_SND_IRQS 16
struct snd_irqs {
	int n;
	char irq[MAX_SND_IRQS][16];
	int card[MAX_SND_IRQS];
	int actions[MAX_SND_IRQS];	/* -1 not in /proc/interrupts */
	char names[MAX_SND_IRQS][128];
};

static void add_irq(struct snd_irqs *s, const char *irq, int card)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->irq[i], irq))
			return;
	if (s->n >= MAX_SND_IRQS)
		return;
	snprintf(s->irq[s->n], sizeof(s->irq[0]), "%s", irq);
	s->card[s->n] = card;
	s->actions[s->n] = -1;
	s->names[s->n][0] = '\0';
	s->n++;
}

/* The IRQs of each card: MSI vectors, else the PCI line; USB cards: the host controllers'. */
static void sound_irqs(const struct rtp_check_ctx *c, const struct cards *k, struct snd_irqs *s)
{
	char *ints = rtp_check_slurp(c, "/proc/interrupts", 1 << 22);

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < k->n; i++) {
		char rel[128], dir[PATH_MAX + 128], irq[32];
		struct dirent *d;
		DIR *dp;
		bool got = false;

		if (k->usb[i]) {
			for (const char *l = ints; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
				char name[16], act[256];

				if (rtp_parse_interrupts_line(l, name, sizeof(name), act, sizeof(act)) > 0 &&
				    (strstr(act, "xhci_hcd") || strstr(act, "ehci_hcd") ||
				     strstr(act, "ohci_hcd") || strstr(act, "uhci_hcd") || strstr(act, "dwc")))
					add_irq(s, name, k->num[i]);
			}
			continue;
		}
		snprintf(rel, sizeof(rel), "/sys/class/sound/card%d/device/msi_irqs", k->num[i]);
		rpath(c, rel, dir, sizeof(dir));
		dp = opendir(dir);
		while (dp && (d = readdir(dp))) {
			if (isdigit((unsigned char)d->d_name[0])) {
				add_irq(s, d->d_name, k->num[i]);
				got = true;
			}
		}
		if (dp)
			closedir(dp);
		if (!got && !readf(c, irq, sizeof(irq), "/sys/class/sound/card%d/device/irq", k->num[i]) &&
		    atoi(irq) > 0)
			add_irq(s, irq, k->num[i]);
	}
	for (const char *l = ints; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char name[16], act[128];
		int n = rtp_parse_interrupts_line(l, name, sizeof(name), act, sizeof(act));

		for (int i = 0; n >= 0 && i < s->n; i++) {
			if (!strcmp(s->irq[i], name)) {
				s->actions[i] = n;
				snprintf(s->names[i], sizeof(s->names[0]), "%s", act);
			}
		}
	}
	free(ints);
}

static void check_sound_irq(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct snd_irqs s;
	struct cards k;
	int shared = 0, known = 0;

	read_cards(c, &k);
	if (no_cards(c, &k, r, true))
		return;
	sound_irqs(c, &k, &s);
	seen(r, "%s", "");
	for (int i = 0; i < s.n; i++) {
		if (s.actions[i] < 0)
			continue;
		known++;
		append(r->seen, sizeof(r->seen), "%scard %d IRQ %s: %s", known > 1 ? "; " : "", s.card[i],
		       s.irq[i], s.names[i][0] ? s.names[i] : "no action");
		if (s.actions[i] > 1)
			shared++;
	}
	if (!known) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "the cards' IRQs were not found in %s/proc/interrupts "
			"(no device/irq or device/msi_irqs under /sys/class/sound/cardN)", c->root);
		return;
	}
	if (!shared) {
		r->status = RTP_CHECK_PASS;
		append(r->seen, sizeof(r->seen), ": not shared");
		return;
	}
	r->status = RTP_CHECK_FAIL;
	append(r->seen, sizeof(r->seen), ": %d IRQ(s) shared with other devices", shared);
	fix(r, "move the card to another slot or port, or unbind the other device sharing the IRQ "
	       "(echo ADDR > /sys/bus/pci/drivers/DRIVER/unbind); a USB card: its own USB controller");
}

struct irq_threads {
	const struct snd_irqs *s;
	int found, low;
	int audio_prio;
	char list[512];
};

static int find_irq_thread(const struct rtp_check_ctx *c, const char *pid, const char *comm, void *arg)
{
	struct irq_threads *t = arg;
	char stat[1024];
	int policy, prio;

	if (strncmp(comm, "irq/", 4))
		return 0;
	for (int i = 0; i < t->s->n; i++) {
		size_t n = strlen(t->s->irq[i]);

		if (strncmp(comm + 4, t->s->irq[i], n) || comm[4 + n] != '-')
			continue;
		if (readf(c, stat, sizeof(stat), "/proc/%s/stat", pid) ||
		    rtp_parse_proc_stat_prio(stat, &policy, &prio))
			continue;
		t->found++;
		if (policy == 0 || prio <= t->audio_prio)
			t->low++;
		append(t->list, sizeof(t->list), "%s%s %s %d", t->found > 1 ? ", " : "", comm,
		       policy == 1 ? "FIFO" : policy == 2 ? "RR" : "OTHER", prio);
	}
	return 0;
}

static void check_irq_prio(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	struct irq_threads t = { 0 };
	struct snd_irqs s;
	struct cards k;

	read_cards(c, &k);
	if (no_cards(c, &k, r, true))
		return;
	sound_irqs(c, &k, &s);
	if (!s.n) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "the cards' IRQs are unknown (no device/irq or msi_irqs under /sys/class/sound)");
		return;
	}
	t.s = &s;
	t.audio_prio = c->audio_prio;
	each_proc(c, find_irq_thread, &t);
	fix(r, "apt-get install rtirq-init (raises sound IRQ threads above the audio thread), or: "
	       "for p in $(pgrep -P 2 '^irq/%s-'); do chrt -f -p %d $p; done", s.irq[0],
	    c->audio_prio + 5 > 99 ? 99 : c->audio_prio + 5);
	if (!t.found) {
		r->status = RTP_CHECK_FAIL;
		seen(r, "no IRQ thread for the sound IRQ(s) %s%s: their handlers are not threaded "
			"and cannot be prioritised", s.irq[0], s.n > 1 ? ",..." : "");
		fix(r, "boot with threadirqs (or a PREEMPT_RT kernel), then apt-get install rtirq-init");
		return;
	}
	if (!t.low) {
		r->status = RTP_CHECK_PASS;
		seen(r, "sound IRQ threads above the audio thread's priority %d: %s", c->audio_prio, t.list);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "%d sound IRQ thread(s) at or below the audio thread's priority %d: %s", t.low,
	     c->audio_prio, t.list);
}

static void check_usb_autosuspend(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	char auto_s[32] = "unread: usbcore not loaded", ctl[32], bad[256] = "", cmd[512] = "";
	int nusb = 0, nbad = 0;
	struct cards k;

	read_cards(c, &k);
	rtp_check_read(c, "/sys/module/usbcore/parameters/autosuspend", auto_s, sizeof(auto_s));
	for (int i = 0; i < k.n; i++) {
		if (!k.usb[i])
			continue;
		nusb++;
		if (readf(c, ctl, sizeof(ctl), "/sys/class/sound/card%d/device/../power/control", k.num[i]))
			continue;
		if (strcmp(ctl, "on") && nbad++ < 4) {
			append(bad, sizeof(bad), "%scard %d power/control %s", nbad > 1 ? ", " : "",
			       k.num[i], ctl);
			append(cmd, sizeof(cmd), " /sys/class/sound/card%d/device/../power/control", k.num[i]);
		}
	}
	if (!nusb) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no USB audio device (usbcore.autosuspend %s)", auto_s);
		return;
	}
	fix(r, "echo on | tee%s (boot: usbcore.autosuspend=-1)", cmd[0] ? cmd : " /sys/class/sound/cardN/device/../power/control");
	if (!nbad) {
		r->status = RTP_CHECK_PASS;
		seen(r, "%d USB audio device(s) kept powered (power/control on; usbcore.autosuspend=%s)",
		     nusb, auto_s);
		return;
	}
	r->status = RTP_CHECK_FAIL;
	seen(r, "USB audio may autosuspend: %s (usbcore.autosuspend=%s)", bad, auto_s);
}

/* ---- the table --------------------------------------------------------- */

static const struct rtp_check_def checks[] = {
	{ "preempt", "kernel", "preemption model", L | A, check_preempt },
	{ "threadirqs", "kernel", "threaded IRQ handlers", A, check_threadirqs },
	{ "hrtimers", "kernel", "high-resolution timers", L | A, check_hrtimers },
	{ "nohz", "kernel", "tickless CPUs (NO_HZ_FULL)", 0, check_nohz },
	{ "clocksource", "kernel", "clocksource", L | A, check_clocksource },
	{ "rt_throttle", "kernel", "RT throttling", L, check_rt_throttle },
	{ "timer_migration", "kernel", "timer migration", 0, check_timer_migration },
	{ "mitigations", "kernel", "CPU vulnerability mitigations", 0, check_mitigations },
	{ "virt", "kernel", "hypervisor and steal time", L, check_virt },
	{ "governor", "cpu", "cpufreq governor", L | A, check_governor },
	{ "boost", "cpu", "frequency boost", 0, check_boost },
	{ "cstates", "cpu", "idle states", L, check_cstates },
	{ "dma_latency", "cpu", "/dev/cpu_dma_latency", L, check_dma_latency },
	{ "smt", "cpu", "SMT siblings", L, check_smt },
	{ "isolation", "cpu", "isolcpus, nohz_full, rcu_nocbs", 0, check_isolation },
	{ "irq_affinity", "cpu", "IRQ affinity of isolated CPUs", L, check_irq_affinity },
	{ "irqbalance", "cpu", "irqbalance", 0, check_irqbalance },
	{ "thp", "memory", "transparent hugepages", 0, check_thp },
	{ "swappiness", "memory", "swappiness", 0, check_swappiness },
	{ "ksm", "memory", "KSM", 0, check_ksm },
	{ "numa_balancing", "memory", "NUMA balancing", 0, check_numa_balancing },
	{ "rtprio", "limits", "RLIMIT_RTPRIO", L | A, check_rtprio },
	{ "memlock", "limits", "RLIMIT_MEMLOCK", L | A, check_memlock },
	{ "limits_files", "limits", "/etc/security/limits.d", 0, check_limits_files },
	{ "audio_group", "limits", "audio group", A, check_audio_group },
	{ "sound_cards", "audio", "sound cards", A, check_sound_cards },
	{ "sound_irq", "audio", "sound IRQs not shared", A, check_sound_irq },
	{ "irq_prio", "audio", "sound IRQ thread priority", A, check_irq_prio },
	{ "usb_autosuspend", "audio", "USB autosuspend", A, check_usb_autosuspend },
};

size_t rtp_check_count(void)
{
	return sizeof(checks) / sizeof(checks[0]);
}

const struct rtp_check_def *rtp_check_get(size_t i)
{
	return i < rtp_check_count() ? &checks[i] : NULL;
}

int rtp_check_find(const char *id)
{
	for (size_t i = 0; i < rtp_check_count(); i++)
		if (!strcmp(checks[i].id, id))
			return (int)i;
	return -ENOENT;
}

void rtp_check_run(const struct rtp_check_ctx *c, size_t i, struct rtp_check_result *r)
{
	memset(r, 0, sizeof(*r));
	if (i >= rtp_check_count()) {
		r->status = RTP_CHECK_SKIP;
		seen(r, "no such check");
		return;
	}
	checks[i].run(c, r);
	if (r->status == RTP_CHECK_FAIL && !(checks[i].fail_in & RTP_PROFILE_BIT(c->profile)))
		r->status = RTP_CHECK_WARN;
	if (r->status == RTP_CHECK_PASS)
		r->fix[0] = '\0';
}
