// SPDX-License-Identifier: GPL-2.0-or-later
/* The text parsers of rtproof check: no file access, fuzzed. */
#include "check.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A limit value: a decimal, or unlimited/infinity/-1. */
static int parse_limit_value(const char *s, size_t n, unsigned long long *out)
{
	char buf[32], *end;
	unsigned long long v;

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!strcmp(buf, "unlimited") || !strcmp(buf, "infinity") || !strcmp(buf, "-1")) {
		*out = RTP_LIMIT_UNLIMITED;
		return 0;
	}
	if (!isdigit((unsigned char)buf[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int rtp_parse_proc_limits(const char *text, const char *name,
			  unsigned long long *soft, unsigned long long *hard)
{
	size_t nlen = strlen(name);
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *p, *q;
		unsigned long long v[2];
		int i;

		if (!strncmp(line, name, nlen) && (line[nlen] == ' ' || line[nlen] == '\t')) {
			p = line + nlen;
			for (i = 0; i < 2; i++) {
				p = skip_space(p);
				q = p;
				while (*q && *q != ' ' && *q != '\t' && *q != '\n')
					q++;
				if (parse_limit_value(p, (size_t)(q - p), &v[i]))
					return -EINVAL;
				p = q;
			}
			*soft = v[0];
			*hard = v[1];
			return 0;
		}
		line = eol ? eol + 1 : NULL;
	}
	return -ENOENT;
}

/* Splits a line into at most n whitespace-separated words (comment cut). */
static int split_words(char *line, char **w, int n)
{
	int k = 0;
	char *p = line;

	p[strcspn(p, "#")] = '\0';
	while (k < n) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		w[k++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return k;
}

static void limit_apply(struct rtp_limit_entry *e, int rank, const char *type,
			unsigned long long v, const char *file, int lineno)
{
	bool soft = !strcmp(type, "soft") || !strcmp(type, "-");
	bool hard = !strcmp(type, "hard") || !strcmp(type, "-");

	if (!soft && !hard)
		return;
	if (e->set && rank < e->rank)
		return;
	if (!e->set || rank > e->rank) {
		/* A new deciding rank: what it does not set stays the default 0. */
		e->soft = 0;
		e->hard = 0;
	}
	e->set = true;
	e->rank = rank;
	if (soft)
		e->soft = v;
	if (hard)
		e->hard = v;
	snprintf(e->where, sizeof(e->where), "%s:%d", file, lineno);
}

void rtp_parse_limits_conf(struct rtp_limits_conf *lc, const char *text, const char *file,
			   const char *user, const char (*groups)[64], int ngroups)
{
	const char *line = text;
	int lineno = 0;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		char buf[512], *w[5];
		unsigned long long v;
		int k, rank = 0;

		lineno++;
		if (n < sizeof(buf)) {
			memcpy(buf, line, n);
			buf[n] = '\0';
		} else {
			buf[0] = '\0';
		}
		line = eol ? eol + 1 : NULL;
		k = split_words(buf, w, 5);
		if (k != 4)
			continue;
		if (!strcmp(w[0], user)) {
			rank = 3;
		} else if (w[0][0] == '@') {
			for (int g = 0; g < ngroups; g++)
				if (!strcmp(w[0] + 1, groups[g]))
					rank = 2;
		} else if (!strcmp(w[0], "*") && strcmp(user, "root")) {
			/* pam_limits: the wildcard does not apply to root. */
			rank = 1;
		}
		if (!rank || parse_limit_value(w[3], strlen(w[3]), &v))
			continue;
		if (!strcmp(w[2], "rtprio"))
			limit_apply(&lc->rtprio, rank, w[1], v, file, lineno);
		else if (!strcmp(w[2], "memlock"))
			limit_apply(&lc->memlock, rank, w[1], v, file, lineno);
	}
}

int rtp_parse_interrupts_line(const char *line, char *irq, size_t irqlen,
			      char *actions, size_t actlen)
{
	const char *p = skip_space(line), *colon, *last_type = NULL, *q;
	size_t n;
	int count = 0;

	colon = strchr(p, ':');
	q = strchr(p, '\n');
	if (!colon || colon == p || (q && q < colon))
		return -EINVAL;
	for (q = p; q < colon; q++)
		if (*q == ' ' || *q == '\t')
			return -EINVAL;
	n = (size_t)(colon - p);
	if (n >= irqlen)
		return -EINVAL;
	memcpy(irq, p, n);
	irq[n] = '\0';
	/* Actions follow the trigger type ("-edge", "-fasteoi", "Level"...). */
	p = colon + 1;
	while (*p && *p != '\n') {
		const char *w;

		p = skip_space(p);
		w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		n = (size_t)(p - w);
		if ((n >= 4 && (!strncasecmp(p - 4, "edge", 4))) ||
		    (n >= 5 && !strncasecmp(p - 5, "level", 5)) ||
		    (n >= 7 && !strncmp(p - 7, "fasteoi", 7)))
			last_type = p;
	}
	if (!last_type) {
		actions[0] = '\0';
		return isdigit((unsigned char)irq[0]) ? -EINVAL : 0;
	}
	p = skip_space(last_type);
	n = strcspn(p, "\n");
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n >= actlen)
		n = actlen ? actlen - 1 : 0;
	if (actlen) {
		memcpy(actions, p, n);
		actions[n] = '\0';
	}
	if (!n)
		return 0;
	count = 1;
	for (q = p; q < p + n; q++)
		if (*q == ',')
			count++;
	return count;
}

int rtp_parse_stat_steal(const char *text, unsigned long long *steal,
			 unsigned long long *total)
{
	const char *p = text;
	unsigned long long f[10] = { 0 }, sum = 0;
	int k = 0;

	if (strncmp(p, "cpu ", 4))
		return -EINVAL;
	p += 4;
	while (k < 10) {
		char *end;

		p = skip_space(p);
		if (!isdigit((unsigned char)*p))
			break;
		errno = 0;
		f[k] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
		k++;
	}
	if (k < 8)
		return -EINVAL;
	/* guest and guest_nice (9, 10) are already in user and nice. */
	for (int i = 0; i < 8; i++) {
		if (sum + f[i] < sum)
			return -EINVAL;
		sum += f[i];
	}
	*steal = f[7];
	*total = sum;
	return 0;
}

int rtp_parse_proc_stat_prio(const char *text, int *policy, int *prio)
{
	const char *p = strrchr(text, ')');
	long v[2];
	int field = 2;

	if (!p)
		return -EINVAL;
	p++;
	/* Field 3 (state) onwards; rt_priority is field 40, policy 41. */
	while (field < 41) {
		const char *w;
		char *end;

		p = skip_space(p);
		if (!*p || *p == '\n')
			return -EINVAL;
		field++;
		w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (field < 40)
			continue;
		errno = 0;
		v[field - 40] = strtol(w, &end, 10);
		if (end != p || errno || v[field - 40] < 0 || v[field - 40] > 1000)
			return -EINVAL;
	}
	*prio = (int)v[0];
	*policy = (int)v[1];
	return 0;
}

int rtp_cmdline_get(const char *cmdline, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);
	const char *p = cmdline;
	int found = 0;

	while (*p) {
		const char *w;
		size_t n;

		p = skip_space(p);
		w = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		n = (size_t)(p - w);
		if (n == 2 && !strncmp(w, "--", 2))
			break;		/* the rest goes to init */
		if (n >= klen && !strncmp(w, key, klen) && (n == klen || w[klen] == '=')) {
			size_t vl = n > klen ? n - klen - 1 : 0;

			if (len) {
				if (vl >= len)
					vl = len - 1;
				memcpy(val, w + klen + (n > klen), vl);
				val[vl] = '\0';
			}
			found = 1;
		}
		if (*p)
			p++;
	}
	return found;
}

int rtp_kconfig_get(const char *config, const char *sym, char *val, size_t len)
{
	size_t slen = strlen(sym);
	const char *p = config;

	if (!config)
		return -ENOENT;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);

		if (n > slen && !strncmp(p, sym, slen) && p[slen] == '=') {
			size_t vl = n - slen - 1;

			if (len) {
				if (vl >= len)
					vl = len - 1;
				memcpy(val, p + slen + 1, vl);
				val[vl] = '\0';
			}
			return 1;
		}
		p = eol ? eol + 1 : NULL;
	}
	return 0;
}
