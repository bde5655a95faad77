// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysinfo.h"
#include "kconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "opt.h"

int rtp_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	size_t used = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (used + 1 < len) {
		n = read(fd, buf + used, len - 1 - used);
		if (n < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	while (used && (buf[used - 1] == '\n' || buf[used - 1] == ' '))
		buf[--used] = '\0';
	return 0;
}

static bool has_word(const char *hay, const char *word)
{
	size_t n = strlen(word);
	const char *p = hay;

	while (hay && (p = strstr(p, word))) {
		bool start = p == hay || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n';
		bool end = p[n] == '\0' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n';

		if (start && end)
			return true;
		p += n;
	}
	return false;
}

static bool config_set(const char *config, const char *sym)
{
	char line[128];

	snprintf(line, sizeof(line), "%s=y", sym);
	for (const char *p = config; p && (p = strstr(p, line)); p += strlen(line)) {
		bool start = p == config || p[-1] == '\n';
		char e = p[strlen(line)];

		if (start && (e == '\n' || e == '\0'))
			return true;
	}
	return false;
}

/* preempt=X on the command line, X copied to out. */
static bool cmdline_preempt(const char *cmdline, char *out, size_t len)
{
	const char *p = cmdline;

	while (p && (p = strstr(p, "preempt="))) {
		if (p == cmdline || p[-1] == ' ') {
			size_t n = strcspn(p + 8, " \n");

			if (n && n < len) {
				memcpy(out, p + 8, n);
				out[n] = '\0';
				return true;
			}
		}
		p += 8;
	}
	return false;
}

void rtp_preempt_model(const struct rtp_preempt_evidence *ev,
		       char *model, size_t mlen, char *source, size_t slen)
{
	char word[32];

	if (ev->realtime && atoi(ev->realtime) == 1) {
		snprintf(model, mlen, "rt");
		snprintf(source, slen, "/sys/kernel/realtime");
		return;
	}
	if (ev->uname_version && strstr(ev->uname_version, "PREEMPT_RT")) {
		snprintf(model, mlen, "rt");
		snprintf(source, slen, "uname");
		return;
	}
	if (ev->sched_preempt) {
		const char *o = strchr(ev->sched_preempt, '(');
		const char *c = o ? strchr(o, ')') : NULL;

		if (o && c && c - o - 1 > 0 && (size_t)(c - o - 1) < sizeof(word)) {
			memcpy(word, o + 1, (size_t)(c - o - 1));
			word[c - o - 1] = '\0';
		} else {
			word[0] = '\0';
		}
		/* Only a model the schema names; anything else falls through to weaker evidence. */
		if (!strcmp(word, "none") || !strcmp(word, "voluntary") || !strcmp(word, "full") ||
		    !strcmp(word, "lazy")) {
			snprintf(model, mlen, "%s", word);
			snprintf(source, slen, "debugfs sched/preempt");
			return;
		}
	}
	if (ev->config) {
		if (config_set(ev->config, "CONFIG_PREEMPT_RT")) {
			snprintf(model, mlen, "rt");
			snprintf(source, slen, "kernel config");
			return;
		}
		if (config_set(ev->config, "CONFIG_PREEMPT_DYNAMIC") &&
		    cmdline_preempt(ev->cmdline, word, sizeof(word)) &&
		    (!strcmp(word, "none") || !strcmp(word, "voluntary") ||
		     !strcmp(word, "full") || !strcmp(word, "lazy"))) {
			snprintf(model, mlen, "%s", word);
			snprintf(source, slen, "cmdline preempt=");
			return;
		}
		snprintf(source, slen, "kernel config");
		if (config_set(ev->config, "CONFIG_PREEMPT_LAZY")) {
			snprintf(model, mlen, "lazy");
			return;
		}
		if (config_set(ev->config, "CONFIG_PREEMPT")) {
			snprintf(model, mlen, "full");
			return;
		}
		if (config_set(ev->config, "CONFIG_PREEMPT_VOLUNTARY")) {
			snprintf(model, mlen, "voluntary");
			return;
		}
		if (config_set(ev->config, "CONFIG_PREEMPT_NONE")) {
			snprintf(model, mlen, "none");
			return;
		}
	}
	/* Non-dynamic kernels say "PREEMPT" in their version for full preemption. */
	if (ev->uname_version && has_word(ev->uname_version, "PREEMPT")) {
		snprintf(model, mlen, "full");
		snprintf(source, slen, "uname");
		return;
	}
	snprintf(model, mlen, "unknown");
	snprintf(source, slen, "none");
}

/* Only the PREEMPT lines of the kernel config matter: keep them small. */
struct config_buf {
	char *buf;
	size_t used, cap;
};

static int config_line(const char *text, void *arg)
{
	struct config_buf *c = arg;
	size_t n = strlen(text);

	/*
	 * The preemption model is one block of init/Kconfig (kernel/Kconfig.preempt);
	 * the menu after it ends the search, the rest of the file has nothing for it.
	 */
	if (c->used && !strcmp(text, "# CPU/Task time and stats accounting"))
		return 1;
	if (strncmp(text, "CONFIG_PREEMPT", 14))
		return 0;
	if (c->used + n + 2 > c->cap)
		return 1;
	memcpy(c->buf + c->used, text, n);
	c->used += n;
	c->buf[c->used++] = '\n';
	c->buf[c->used] = '\0';
	return 0;
}

static char *read_config(const char *release)
{
	struct config_buf c = { malloc(4096), 0, 4096 };

	if (!c.buf)
		return NULL;
	c.buf[0] = '\0';
	if (rtp_kconfig_foreach(release, config_line, &c)) {
		free(c.buf);
		return NULL;
	}
	return c.buf;
}

static void read_cpu_model(struct rtp_sysinfo *si)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(si->cpu_model, sizeof(si->cpu_model), "%s", colon);
		}
		if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor")) {
			si->virtualized = true;
			snprintf(si->hypervisor, sizeof(si->hypervisor), "cpuid");
		}
		if (si->cpu_model[0] && !strncmp(line, "flags", 5))
			break;
	}
	fclose(f);
}

int rtp_sysinfo_read(struct rtp_sysinfo *si)
{
	char realtime[16], sched_preempt[128], buf[128];
	struct rtp_preempt_evidence ev = { 0 };
	struct utsname u;
	cpu_set_t online;
	char *config;

	memset(si, 0, sizeof(*si));
	if (gethostname(si->hostname, sizeof(si->hostname) - 1))
		snprintf(si->hostname, sizeof(si->hostname), "unknown");
	if (!uname(&u)) {
		snprintf(si->kernel_release, sizeof(si->kernel_release), "%s", u.release);
		snprintf(si->kernel_version, sizeof(si->kernel_version), "%s", u.version);
		snprintf(si->machine, sizeof(si->machine), "%s", u.machine);
	}
	rtp_read_file("/proc/cmdline", si->cmdline, sizeof(si->cmdline));
	if (!rtp_read_file("/sys/kernel/realtime", realtime, sizeof(realtime)))
		ev.realtime = realtime;
	if (!rtp_read_file("/sys/kernel/debug/sched/preempt", sched_preempt, sizeof(sched_preempt)))
		ev.sched_preempt = sched_preempt;
	ev.uname_version = si->kernel_version;
	ev.cmdline = si->cmdline;
	config = read_config(si->kernel_release);
	ev.config = config;
	rtp_preempt_model(&ev, si->preempt, sizeof(si->preempt),
			  si->preempt_source, sizeof(si->preempt_source));
	free(config);

	if (!rtp_cpus_online(&online)) {
		si->cpus_online = CPU_COUNT(&online);
		rtp_format_cpulist(&online, si->cpus_online_list, sizeof(si->cpus_online_list));
	}
	read_cpu_model(si);
	if (rtp_read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			  si->clocksource, sizeof(si->clocksource)))
		snprintf(si->clocksource, sizeof(si->clocksource), "unknown");
	if (!si->virtualized && !rtp_read_file("/sys/class/dmi/id/sys_vendor", buf, sizeof(buf)) &&
	    (strstr(buf, "QEMU") || strstr(buf, "VMware") || strstr(buf, "Xen") ||
	     strstr(buf, "Microsoft") || strstr(buf, "innotek"))) {
		si->virtualized = true;
		snprintf(si->hypervisor, sizeof(si->hypervisor), "%s", buf);
	}
	if (!rtp_read_file("/sys/hypervisor/type", buf, sizeof(buf))) {
		si->virtualized = true;
		snprintf(si->hypervisor, sizeof(si->hypervisor), "%s", buf);
	}
	if (!si->cpu_model[0])
		snprintf(si->cpu_model, sizeof(si->cpu_model), "unknown");
	return 0;
}
