// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-compare: loading documents, suites and ladders; the fairness check. */
#include "compare.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "resultdir.h"

/* ---- loading ----------------------------------------------------------- */

/* in_dir: another rtproof format (rtproof-vm/1 ...) beside the documents is skipped. */
static int load_doc(struct run *r, const char *path, bool in_dir)
{
	struct rtp_doc *nd = realloc(r->docs, (r->ndocs + 1) * sizeof(*nd));
	char err[256];
	size_t i;
	int ret;

	if (!nd) {
		rtp_error("%s: out of memory", path);
		return -ENOMEM;
	}
	r->docs = nd;
	ret = rtp_doc_load(&r->docs[r->ndocs], path, err, sizeof(err));
	if (ret == -EPROTO && in_dir && strstr(err, "(schema \"rtproof-"))
		return 0;
	if (ret) {
		rtp_error("%s: %s", path, err);
		return -EINVAL;
	}
	for (i = 0; i < r->ndocs; i++)
		if (!strcmp(r->docs[i].tool, r->docs[r->ndocs].tool)) {
			rtp_error("%s: a second %s document in %s", path, r->docs[i].tool, r->path);
			rtp_doc_free(&r->docs[r->ndocs]);
			return -EINVAL;
		}
	r->ndocs++;
	return 0;
}

/* A document or a suite directory into one run. */
static int load_run(struct run *r, const char *path)
{
	struct stat st;
	char **names;
	size_t n, i;
	int ret = 0;

	snprintf(r->path, sizeof(r->path), "%s", path);
	if (stat(path, &st)) {
		rtp_error("%s: %s", path, strerror(errno));
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode))
		return load_doc(r, path, false);
	ret = rtp_resultdir_list(path, RTP_RD_DOCS, &names, &n);
	if (ret) {
		rtp_error("%s: cannot read the directory: %s", path, strerror(-ret));
		return -EIO;
	}
	{
		char sp[PATH_MAX];
		json_t *sj;

		snprintf(sp, sizeof(sp), "%s/suite.json", path);
		sj = json_load_file(sp, 0, NULL);
		if (sj) {
			json_t *v = json_object_get(sj, "cpus_online");

			r->has_suite = true;
			snprintf(r->suite_load, sizeof(r->suite_load), "%s",
				 json_string_value(json_object_get(sj, "load")) ?: "");
			snprintf(r->suite_duration, sizeof(r->suite_duration), "%s",
				 json_string_value(json_object_get(sj, "duration")) ?: "");
			r->suite_cpus = json_is_integer(v) ? (int)json_integer_value(v) : -1;
			json_decref(sj);
		}
	}
	if (!n) {
		rtp_error("%s: no result documents (*.json) in the directory", path);
		rtp_resultdir_free(names, n);
		return -ENOENT;
	}
	for (i = 0; i < n && !ret; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/%s", path, names[i]);
		ret = load_doc(r, p, true);
	}
	rtp_resultdir_free(names, n);
	return ret;
}

bool cmp_is_ladder(const char *path)
{
	return rtp_resultdir_is_ladder(path);
}

/* A label from a path or a directory entry (anyone's bytes): printed, so
 * control characters become '?' (no terminal escape reaches the screen). */
static void label_clean(char *l)
{
	for (; *l; l++)
		if ((unsigned char)*l < 0x20 || *l == 0x7f)
			*l = '?';
}

static void side_label(struct side *s, const char *name)
{
	const char *b = strrchr(name, '/');
	char tmp[PATH_MAX];
	size_t l;

	snprintf(tmp, sizeof(tmp), "%s", name);
	l = strlen(tmp);
	while (l > 1 && tmp[l - 1] == '/')
		tmp[--l] = 0;
	b = strrchr(tmp, '/');
	snprintf(s->label, sizeof(s->label), "%s", b ? b + 1 : tmp);
	label_clean(s->label);
}

/* "a,b,c": several runs of one side (a path that exists is taken whole). */
int cmp_load_side(struct side *s, const char *arg)
{
	struct stat st;
	char *copy, *tok, *save = NULL;
	int ret = 0;

	snprintf(s->path, sizeof(s->path), "%s", arg);
	if (!stat(arg, &st) || !strchr(arg, ',')) {
		side_label(s, arg);
		s->nruns = 1;
		return load_run(&s->runs[0], arg);
	}
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		if (s->nruns >= MAX_RUNS) {
			rtp_error("%s: more than %d runs", arg, MAX_RUNS);
			ret = -E2BIG;
			break;
		}
		if (!s->nruns)
			side_label(s, tok);
		ret = load_run(&s->runs[s->nruns++], tok);
	}
	free(copy);
	if (!ret && s->nruns > 1) {
		size_t l = strlen(s->label);

		snprintf(s->label + l, sizeof(s->label) - l, " (+%zu runs)", s->nruns - 1);
	}
	return ret;
}

/* A compare-kernels directory: base is the rt rung, the others are the news. */
int cmp_load_ladder(struct side *sides, int *nsides, const char *dir)
{
	char **names, groups[MAX_SIDES][128], rung[128];
	int ngroups = 0, g, rt = -1, ret = 0;
	size_t n, i;

	if (rtp_resultdir_list(dir, RTP_RD_RUNS, &names, &n))
		return -EIO;
	/* the ladder's order (resultdir.h), then rt first: it is the base */
	qsort(names, n, sizeof(*names), rtp_resultdir_cmp_rung);
	for (i = 0; i < n; i++) {
		rtp_resultdir_rung(names[i], rung, sizeof(rung));
		for (g = 0; g < ngroups; g++)
			if (!strcmp(groups[g], rung))
				break;
		if (g == ngroups) {
			if (ngroups == MAX_SIDES) {
				rtp_error("%s: more than %d rungs", dir, MAX_SIDES);
				rtp_resultdir_free(names, n);
				return -E2BIG;
			}
			snprintf(groups[ngroups++], sizeof(groups[0]), "%s", rung);
		}
	}
	for (g = 0; g < ngroups; g++)
		if (!strcmp(groups[g], "rt"))
			rt = g;
	if (rt < 0) {
		rtp_error("%s: a compare-kernels directory without an rt rung", dir);
		rtp_resultdir_free(names, n);
		return -ENOENT;
	}
	if (ngroups < 2) {
		rtp_error("%s: a compare-kernels directory with the rt rung alone", dir);
		rtp_resultdir_free(names, n);
		return -ENOENT;
	}
	for (g = 0; g < ngroups && !ret; g++) {
		/* side 0 is rt; the others keep the ladder's order */
		int o = g == 0 ? rt : g <= rt ? g - 1 : g;
		struct side *s = &sides[g];

		snprintf(s->label, sizeof(s->label), "%s", groups[o]);
		label_clean(s->label);
		snprintf(s->path, sizeof(s->path), "%s/%s", dir, groups[o]);
		for (i = 0; i < n && !ret; i++) {
			char path[PATH_MAX];

			rtp_resultdir_rung(names[i], rung, sizeof(rung));
			if (strcmp(rung, groups[o]))
				continue;
			if (s->nruns >= MAX_RUNS) {
				rtp_error("%s: more than %d runs of %s", dir, MAX_RUNS, groups[o]);
				ret = -E2BIG;
				break;
			}
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			ret = load_run(&s->runs[s->nruns++], path);
		}
		if (s->nruns > 1)
			snprintf(s->path, sizeof(s->path), "%s/%s-run*", dir, groups[o]);
	}
	*nsides = ngroups;
	rtp_resultdir_free(names, n);
	return ret;
}

const struct rtp_doc *run_doc(const struct run *r, const char *bench)
{
	size_t i;

	for (i = 0; i < r->ndocs; i++)
		if (!strcmp(r->docs[i].bench, bench))
			return &r->docs[i];
	return NULL;
}

/* ---- fairness ---------------------------------------------------------- */

/* The command without argv[0]'s directory, output paths and run length. */
static void norm_command(const char *cmd, char *out, size_t len)
{
	char *copy = strdup(cmd ? cmd : ""), *tok, *save = NULL;
	size_t off = 0;
	bool skip = false, first = true;

	out[0] = 0;
	if (!copy)
		return;
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		const char *t = tok;

		if (skip) {
			skip = false;
			continue;
		}
		/*
		 * Output paths, and how long the run was (-D, -l: the common
		 * options of lib/driver.c): rates are per hour, quantiles per
		 * sample and the max test weighs the two run lengths, so runs
		 * of different lengths compare.
		 */
		if (!strcmp(t, "--json") || !strcmp(t, "--histfile") || !strcmp(t, "-o") || !strcmp(t, "-D") ||
		    !strcmp(t, "--duration") || !strcmp(t, "-l") || !strcmp(t, "--loops")) {
			skip = true;
			continue;
		}
		if (!strncmp(t, "--json=", 7) || !strncmp(t, "--histfile=", 11) || !strncmp(t, "--duration=", 11) ||
		    !strncmp(t, "--loops=", 8) || (!strncmp(t, "-D", 2) && t[2]) || (!strncmp(t, "-l", 2) && t[2]))
			continue;
		if (first && strrchr(t, '/'))
			t = strrchr(t, '/') + 1;
		first = false;
		off += (size_t)snprintf(out + off, off < len ? len - off : 0, "%s%s", off ? " " : "", t);
	}
	free(copy);
}

/* Warns about, or refuses (1), comparisons that are not like for like. */
int check_fair(const struct side *base, const struct side *nw, const struct opts *o)
{
	const struct run *rb = &base->runs[0];
	size_t i, r;
	int unfair = 0;

	for (r = 0; r < nw->nruns; r++) {
		const struct run *rn = &nw->runs[r];

		if (!rb->has_suite || !rn->has_suite)
			continue;
		if (strcmp(rb->suite_load, rn->suite_load)) {
			warn_add("suite: different load: base '%s', %s '%s'", rb->suite_load, nw->label,
				 rn->suite_load);
			unfair = 1;
		}
		if (rb->suite_cpus != rn->suite_cpus) {
			warn_add("suite: different CPU counts: base %d, %s %d", rb->suite_cpus, nw->label,
				 rn->suite_cpus);
			unfair = 1;
		}
		if (strcmp(rb->suite_duration, rn->suite_duration))
			warn_add("suite: different durations: base %s, %s %s", rb->suite_duration, nw->label,
				 rn->suite_duration);
		break;
	}
	for (i = 0; i < rb->ndocs; i++) {
		const struct rtp_doc *b = &rb->docs[i];

		for (r = 0; r < nw->nruns; r++) {
			const struct rtp_doc *n = run_doc(&nw->runs[r], b->bench);
			char cb[1024], cn[1024];

			if (!n)
				continue;
			norm_command(b->command, cb, sizeof(cb));
			norm_command(n->command, cn, sizeof(cn));
			if (strcmp(cb, cn)) {
				warn_add("%s: different bench commands: base '%s', %s '%s'", b->bench, cb,
					 nw->label, cn);
				unfair = 1;
			}
			if (strcmp(b->load, n->load)) {
				warn_add("%s: different load: base '%s', %s '%s'", b->bench, b->load, nw->label,
					 n->load);
				unfair = 1;
			}
			if (b->cpus_online != n->cpus_online) {
				warn_add("%s: different CPU counts: base %d, %s %d", b->bench, b->cpus_online,
					 nw->label, n->cpus_online);
				unfair = 1;
			}
			if (b->virtualized != n->virtualized)
				warn_add("%s: one side ran in a VM, the other did not", b->bench);
			if (strcmp(b->hostname, n->hostname))
				warn_add("%s: different hosts: base '%s', %s '%s'", b->bench, b->hostname,
					 nw->label, n->hostname);
			if (strcmp(b->status, "skip") && !strcmp(n->status, "skip"))
				warn_add("%s: skipped in %s", b->bench, nw->label);
			break;		/* one run of each side is enough to tell */
		}
		if (r == nw->nruns)
			warn_add("%s: no document in %s", b->bench, nw->label);
	}
	for (r = 0; r < nw->nruns; r++)
		for (i = 0; i < nw->runs[r].ndocs; i++)
			if (!run_doc(rb, nw->runs[r].docs[i].bench))
				warn_add("%s: in %s but not in the base: not compared", nw->runs[r].docs[i].bench,
					 nw->label);
	if (unfair && !o->allow_unfair) {
		rtp_error("%s against %s: not like for like (%s); --allow-unfair compares anyway",
			  base->label, nw->label, cmp_warnings[cmp_nwarnings - 1]);
		return 1;
	}
	return 0;
}
