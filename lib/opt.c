// SPDX-License-Identifier: GPL-2.0-or-later
#include "opt.h"

#include "log.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

int rtp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int rtp_parse_int(const char *s, int min, int max, int *out)
{
	long v;
	char *end;
	const char *p = s;

	if (!s)
		return -EINVAL;
	if (*p == '-' || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = (int)v;
	return 0;
}

int rtp_parse_prio(const char *s, int min, int max, int *out)
{
	return rtp_parse_int(s, min, max, out);
}

static const struct {
	const char *name;
	int policy;
} policies[] = {
	{ "fifo", SCHED_FIFO }, { "rr", SCHED_RR }, { "other", SCHED_OTHER },
	{ "batch", SCHED_BATCH }, { "idle", SCHED_IDLE }, { "deadline", SCHED_DEADLINE },
};

int rtp_parse_policy(const char *s, int *out)
{
	size_t i;

	if (!s)
		return -EINVAL;
	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++) {
		if (!strcasecmp(s, policies[i].name)) {
			*out = policies[i].policy;
			return 0;
		}
	}
	return -EINVAL;
}

const char *rtp_policy_name(int policy)
{
	size_t i;

	for (i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "unknown";
}

int rtp_parse_duration_ns(const char *s, uint64_t *out_ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e9 },
		{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 },
	};
	const double limit = 100 * 86400e9;
	const char *p = s;
	double v, ns;
	char *end;
	size_t i;

	if (!s)
		return -EINVAL;
	/* Only digits and one decimal point: no sign, no hex, no exponent. */
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return -EINVAL;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		while (isdigit((unsigned char)*p))
			p++;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end != p || errno == ERANGE || !isfinite(v))
		return errno == ERANGE ? -ERANGE : -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(p, units[i].unit))
			continue;
		ns = v * units[i].ns;
		if (ns > limit)
			return -ERANGE;
		*out_ns = (uint64_t)llround(ns);
		return 0;
	}
	return -EINVAL;
}

int rtp_parse_us(const char *s, uint64_t *out_ns)
{
	uint64_t us;
	int ret;

	ret = rtp_parse_u64(s, 0, UINT64_MAX / 1000, &us);
	if (!ret) {
		*out_ns = us * 1000;
		return 0;
	}
	if (ret == -ERANGE)
		return ret;
	if (s && *s && isdigit((unsigned char)s[strlen(s) - 1]))
		return -EINVAL;	/* "1.5" is ambiguous: ask for a unit */
	return rtp_parse_duration_ns(s, out_ns);
}

int rtp_parse_cpulist(const char *s, cpu_set_t *out)
{
	cpu_set_t set;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	if (!strcmp(s, "all"))
		return rtp_cpus_online(out);
	CPU_ZERO(&set);
	for (;;) {
		unsigned long a, b, stride = 1, c;
		char *end;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		a = strtoul(p, &end, 10);
		if (errno)
			return -ERANGE;
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			b = strtoul(p, &end, 10);
			if (errno)
				return -ERANGE;
			p = end;
			if (*p == ':') {
				p++;
				if (!isdigit((unsigned char)*p))
					return -EINVAL;
				stride = strtoul(p, &end, 10);
				if (errno)
					return -ERANGE;
				if (stride == 0)
					return -EINVAL;
				p = end;
			}
		}
		if (b < a)
			return -EINVAL;
		if (b >= CPU_SETSIZE)
			return -ERANGE;
		for (c = a; c <= b; c += stride)
			CPU_SET(c, &set);
		if (*p == '\0')
			break;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
	*out = set;
	return 0;
}

void rtp_format_cpulist(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int c = 0;

	if (len)
		buf[0] = '\0';
	while (c < CPU_SETSIZE) {
		int start;
		int n;

		if (!CPU_ISSET(c, set)) {
			c++;
			continue;
		}
		start = c;
		while (c + 1 < CPU_SETSIZE && CPU_ISSET(c + 1, set))
			c++;
		if (start == c)
			n = snprintf(buf + used, len - used, "%s%d", used ? "," : "", start);
		else
			n = snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", start, c);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
		c++;
	}
}

const char *rtp_opt_strerror(int err)
{
	switch (err) {
	case -EINVAL: return "malformed";
	case -ERANGE: return "out of range";
	default: return strerror(-err);
	}
}

int rtp_cpus_online(cpu_set_t *out)
{
	char buf[1024];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	int ret = -ENOENT;

	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			ret = rtp_parse_cpulist(buf, out);
		}
		fclose(f);
		if (!ret)
			return 0;
	}
	CPU_ZERO(out);
	if (sched_getaffinity(0, sizeof(*out), out))
		return -errno;
	return 0;
}

void rtp_opt_name(const struct option *longopts, int li, int c, char *buf, size_t len)
{
	if (li >= 0)
		snprintf(buf, len, "--%s", longopts[li].name);
	else
		snprintf(buf, len, "-%c", c);
}

int rtp_opt_fail(int c, char **argv)
{
	const char *what = c == ':' ? "option needs a value" : "unknown option";

	/* optopt names a short option; long ones (and their codes >= 256) by argv. */
	if (optopt > 0 && optopt < 256)
		rtp_error("-%c: %s (see --help)", optopt, what);
	else
		rtp_error("%s: %s (see --help)", argv[optind - 1], what);
	return 1;
}

const char *rtp_parse_online_cpu(const char *s, int *out)
{
	cpu_set_t online;
	int cpu;

	if (rtp_parse_int(s, 0, CPU_SETSIZE - 1, &cpu))
		return "CPU must be a number 0..1023";
	if (!rtp_cpus_online(&online) && !CPU_ISSET(cpu, &online))
		return "CPU is not online";
	*out = cpu;
	return NULL;
}
