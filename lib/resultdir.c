// SPDX-License-Identifier: GPL-2.0-or-later
/* The layout of result directories, read in one place (resultdir.h). */
#include "resultdir.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool rtp_resultdir_doc_name(const char *name)
{
	size_t l = strlen(name);

	return l > 5 && !strcmp(name + l - 5, ".json") && strcmp(name, "compare.json") &&
	       strcmp(name, "suite.json") && !strstr(name, ".tmp.");
}

static bool path_is(const char *dir, const char *name, mode_t type)
{
	char p[PATH_MAX];
	struct stat st;

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p))
		return false;
	return !stat(p, &st) && (st.st_mode & S_IFMT) == type;
}

static bool has_docs(const char *dir, const char *name)
{
	char p[PATH_MAX];
	char **docs;
	size_t n;
	bool any;

	if (snprintf(p, sizeof(p), "%s/%s", dir, name) >= (int)sizeof(p) ||
	    rtp_resultdir_list(p, RTP_RD_DOCS, &docs, &n))
		return false;
	any = n > 0;
	rtp_resultdir_free(docs, n);
	return any;
}

static bool keep(const char *dir, const char *name, enum rtp_resultdir_kind kind)
{
	switch (kind) {
	case RTP_RD_DOCS:
		return rtp_resultdir_doc_name(name) && path_is(dir, name, S_IFREG);
	case RTP_RD_RUNS:
		return strcmp(name, "plots") && path_is(dir, name, S_IFDIR) && has_docs(dir, name);
	case RTP_RD_DIRS:
		return strcmp(name, "plots") && path_is(dir, name, S_IFDIR);
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int rtp_resultdir_list(const char *dir, enum rtp_resultdir_kind kind, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;
	int ret = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !keep(dir, e->d_name, kind))
			continue;
		if (*n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 16;
			nn = realloc(*names, cap * sizeof(char *));
			if (!nn) {
				ret = -ENOMEM;
				break;
			}
			*names = nn;
		}
		(*names)[*n] = strdup(e->d_name);
		if (!(*names)[*n]) {
			ret = -ENOMEM;
			break;
		}
		(*n)++;
	}
	closedir(d);
	if (ret) {
		rtp_resultdir_free(*names, *n);
		*names = NULL;
		*n = 0;
		return ret;
	}
	if (*n)
		qsort(*names, *n, sizeof(char *), cmp_str);
	return 0;
}

void rtp_resultdir_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

bool rtp_resultdir_is_ladder(const char *dir)
{
	struct stat st;
	char **names;
	size_t n;
	bool ladder;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return false;
	if (rtp_resultdir_list(dir, RTP_RD_DOCS, &names, &n))
		return false;
	rtp_resultdir_free(names, n);
	if (n)
		return false;
	if (rtp_resultdir_list(dir, RTP_RD_RUNS, &names, &n))
		return false;
	ladder = n > 0;
	rtp_resultdir_free(names, n);
	return ladder;
}

void rtp_resultdir_rung(const char *entry, char *out, size_t len)
{
	char *p;

	snprintf(out, len, "%s", entry);
	p = strstr(out, "-run");
	if (p && p[4] && strspn(p + 4, "0123456789") == strlen(p + 4))
		*p = 0;
}

int rtp_resultdir_rung_rank(const char *rung)
{
	static const char *const order[] = { "stock-none", "stock-voluntary", "stock-full", "stock", "rt" };
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		size_t l = strlen(order[i]);

		if (!strncmp(rung, order[i], l) && (rung[l] == 0 || rung[l] == '-'))
			return (int)i;
	}
	return 10;
}

int rtp_resultdir_cmp_rung(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = rtp_resultdir_rung_rank(x), ry = rtp_resultdir_rung_rank(y);

	return rx != ry ? rx - ry : strverscmp(x, y);
}
