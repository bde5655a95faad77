// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof check: what every group of checks uses: reading below the root,
 * the result's lines, and small facts (CPU lists, users, the RT kernel).
 * It calls no check.
 */
#include "checks.h"

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

/* ---- reading below the root ------------------------------------------- */

void rpath(const struct rtp_check_ctx *c, const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", c->root, path);
}

int rtp_check_read(const struct rtp_check_ctx *c, const char *path, char *buf, size_t len)
{
	char p[PATH_MAX + 256];

	rpath(c, path, p, sizeof(p));
	return rtp_read_file(p, buf, len);
}

int readf(const struct rtp_check_ctx *c, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return rtp_check_read(c, path, buf, len);
}

/* gzopen reads a plain file as well as a compressed one. */
char *slurp_gz(const char *path, size_t max)
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

void seen(struct rtp_check_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rsetf(r->seen, sizeof(r->seen), fmt, ap);
	va_end(ap);
}

void fix(struct rtp_check_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rsetf(r->fix, sizeof(r->fix), fmt, ap);
	va_end(ap);
}

/* Opens <root>PATH (its full name into dir); NULL, the check skipped, when it cannot. */
DIR *opendir_or_skip(const struct rtp_check_ctx *c, struct rtp_check_result *r,
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

int read_cpulist(const struct rtp_check_ctx *c, const char *path, cpu_set_t *set)
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

void fmt_cpus(const cpu_set_t *s, char *buf, size_t len)
{
	if (!CPU_COUNT(s))
		snprintf(buf, len, "none");
	else
		rtp_format_cpulist(s, buf, len);
}

/* The CPU list of isolcpus=[flags,]LIST: the part from the first digit on. */
int isolcpus_list(const char *val, cpu_set_t *set)
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

bool has_word(const char *hay, const char *w)
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

/* ---- small facts -------------------------------------------------------- */


/* passwd or group line: field i (0-based) of a ':' line into out. */
bool field(const char *line, int i, char *out, size_t len)
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


const char *no_config(const struct rtp_check_ctx *c, struct rtp_check_result *r)
{
	r->status = RTP_CHECK_SKIP;
	seen(r, "kernel config unreadable: no %s/boot/config-%s nor %s/proc/config.gz",
	     c->root, c->release[0] ? c->release : "RELEASE", c->root);
	fix(r, "modprobe configs (gives /proc/config.gz), or install the kernel's config in /boot");
	return NULL;
}

void check_zero_knob(const struct rtp_check_ctx *c, struct rtp_check_result *r,
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

bool rt_kernel(const struct rtp_check_ctx *c)
{
	char buf[64];

	if (!rtp_check_read(c, "/sys/kernel/realtime", buf, sizeof(buf)) && atoi(buf) == 1)
		return true;
	if (strstr(c->version, "PREEMPT_RT"))
		return true;
	return rtp_kconfig_get(c->config, "CONFIG_PREEMPT_RT", buf, sizeof(buf)) == 1 &&
	       !strcmp(buf, "y");
}


bool user_in_gid(const struct rtp_check_ctx *c, gid_t gid)
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


void each_proc(const struct rtp_check_ctx *c,
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
