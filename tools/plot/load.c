// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading what rtproof-plot and rtproof-report are given: result documents,
 * suite directories, kernel-ladder directories and compare.json. */
#include "plot.h"
#include "resultdir.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const rtp_plot_bench_name[RP_NBENCH] = { "cyclic", "irqlat", "audio", "lockstress" };

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s/%s", a, b) < 0)
		return NULL;
	return s;
}

/* a warning names a path and what a document says: bounded, one line */
static void warnf(struct rtp_plot_set *set, const char *fmt, const char *a, const char *b)
{
	char raw[2048], *s;

	if (set->nwarnings >= sizeof(set->warnings) / sizeof(set->warnings[0]))
		return;
	snprintf(raw, sizeof(raw), fmt, a, b);
	s = malloc(sizeof(raw));
	if (s)
		set->warnings[set->nwarnings++] = rtp_plot_text(s, sizeof(raw), raw);
}

static int bench_of(const json_t *doc)
{
	const char *tool = rtp_plot_str(doc, "tool", "");
	int b;

	if (!strncmp(tool, "rtproof-", 8))
		tool += 8;
	for (b = 0; b < RP_NBENCH; b++)
		if (!strcmp(tool, rtp_plot_bench_name[b]))
			return b;
	return -1;
}

static struct rtp_plot_run *add_run(struct rtp_plot_set *set, const char *dir, const char *label)
{
	struct rtp_plot_run *v = realloc(set->runs, (set->nruns + 1) * sizeof(*v));

	if (!v)
		return NULL;
	set->runs = v;
	v = &set->runs[set->nruns];
	memset(v, 0, sizeof(*v));
	v->dir = strdup(dir);
	v->label = label ? strdup(label) : NULL;
	if (!v->dir || (label && !v->label)) {
		free(v->dir);
		free(v->label);
		return NULL;
	}
	set->nruns++;
	return v;
}

/* Loads FILE as a result document into run; 1 when it was one. */
static int add_doc(struct rtp_plot_set *set, struct rtp_plot_run *run, const char *file, json_t *doc)
{
	int b = bench_of(doc);

	if (b < 0) {
		warnf(set, "%s: tool %s is not a bench this version plots", file,
		      rtp_plot_str(doc, "tool", "(none)"));
		return 0;
	}
	if (run->doc[b]) {
		warnf(set, "%s: a second %s document for the same run, not shown", file,
		      rtp_plot_bench_name[b]);
		return 0;
	}
	if (rtp_plot_per_cpu(doc))
		return -ENOMEM;
	run->doc[b] = json_incref(doc);
	run->path[b] = strdup(file);
	return run->path[b] ? 1 : -ENOMEM;
}

/* Longest string kept from a document: a longer one is cut (at a
 * character boundary, "..." after it), so that no title, label or page
 * line costs time or space in proportion to what a document chose. */
#define RTP_PLOT_STR_MAX 16384

/* Cuts every string in j to RTP_PLOT_STR_MAX (jansson bounds the depth). */
static void clip_strings(json_t *j)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_string(j) && json_string_length(j) > RTP_PLOT_STR_MAX) {
		const char *s = json_string_value(j);
		size_t n = RTP_PLOT_STR_MAX;
		char *c;

		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		c = malloc(n + 4);
		if (c) {
			memcpy(c, s, n);
			memcpy(c + n, "...", 4);
			json_string_set(j, c);
			free(c);
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			clip_strings(v);
	} else if (json_is_object(j)) {
		json_object_foreach(j, k, v)
			clip_strings(v);
	}
}

static json_t *read_json(const char *path, char *msg, size_t len)
{
	json_error_t e;
	json_t *j = json_load_file(path, JSON_DECODE_INT_AS_REAL, &e);

	if (!j) {
		snprintf(msg, len, "%s: not a JSON document (line %d: %s)", path, e.line, e.text);
		return NULL;
	}
	if (json_array_size(json_object_get(j, "metrics")) > RTP_DOC_MAX_METRICS) {
		snprintf(msg, len, "%s: %zu metrics: more than %d, the most a result document may hold", path,
			 json_array_size(json_object_get(j, "metrics")), RTP_DOC_MAX_METRICS);
		json_decref(j);
		return NULL;
	}
	clip_strings(j);
	return j;
}

static json_t *read_json_quiet(const char *path)
{
	json_t *j = json_load_file(path, JSON_DECODE_INT_AS_REAL, NULL);

	clip_strings(j);
	return j;
}

/* One file beside the documents, when it is an object of the schema or
 * tool named (NULL when absent or another). */
static json_t *beside_one(const char *dir, const char *name, const char *key, const char *want, int *err)
{
	char *p = join(dir, name);
	json_t *j = NULL;

	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	if (is_file(p))
		j = read_json_quiet(p);
	free(p);
	if (j && (!json_is_object(j) || strcmp(rtp_plot_str(j, key, ""), want))) {
		json_decref(j);
		j = NULL;
	}
	return j;
}

/* What a run directory holds beside its documents: the VM runner's
 * vm.json, rtproof run's suite.json and check.json.  0 or -ENOMEM. */
static int beside(struct rtp_plot_run *run, const char *dir)
{
	char *p = join(dir, "vm.json");
	int err = 0;

	if (!p)
		return -ENOMEM;
	if (is_file(p))
		run->vm = read_json_quiet(p);
	free(p);
	run->suite = beside_one(dir, "suite.json", "schema", "rtproof-suite/1", &err);
	run->check = beside_one(dir, "check.json", "tool", "rtproof-check", &err);
	run->load = beside_one(dir, "load.json", "tool", "rtproof-load", &err);
	return err;
}

/* A directory holding result documents directly: one run.  1 when it held
 * at least one, 0 when none, negative on error. */
static int load_run_dir(struct rtp_plot_set *set, const char *dir, const char *label, char *msg,
			size_t len)
{
	struct rtp_plot_run *run;
	int b, found = 0, ret;

	for (b = 0; b < RP_NBENCH; b++) {
		char name[32], *p;

		snprintf(name, sizeof(name), "%s.json", rtp_plot_bench_name[b]);
		p = join(dir, name);
		if (!p)
			return -ENOMEM;
		if (is_file(p))
			found++;
		free(p);
	}
	if (!found)
		return 0;
	run = add_run(set, dir, label);
	if (!run)
		return -ENOMEM;
	for (b = 0; b < RP_NBENCH; b++) {
		char name[32], *p;
		json_t *doc;

		snprintf(name, sizeof(name), "%s.json", rtp_plot_bench_name[b]);
		p = join(dir, name);
		if (!p)
			return -ENOMEM;
		if (!is_file(p)) {
			free(p);
			continue;
		}
		doc = read_json(p, msg, len);
		if (!doc) {
			free(p);
			return -EINVAL;
		}
		if (strcmp(rtp_plot_str(doc, "schema", ""), "rtproof/1")) {
			warnf(set, "%s: schema %s, not rtproof/1: not shown", p,
			      rtp_plot_str(doc, "schema", "(none)"));
			ret = 0;
		} else {
			ret = add_doc(set, run, p, doc);
		}
		json_decref(doc);
		free(p);
		if (ret < 0)
			return ret;
	}
	for (b = 0; b < RP_NBENCH && !run->doc[b]; b++)
		;
	if (b == RP_NBENCH) {
		/* nothing readable here (the warnings say why): no run */
		free(run->dir);
		free(run->label);
		set->nruns--;
		return 0;
	}
	ret = beside(run, dir);
	return ret < 0 ? ret : 1;
}

static int load_compare(struct rtp_plot_set *set, const char *path, json_t *j)
{
	const char *schema = rtp_plot_str(j, "schema", "");

	if (!strcmp(schema, "rtproof-compare/1")) {
		if (set->compare) {
			warnf(set, "%s: a second comparison, not shown%s", path, "");
			return 0;
		}
		set->compare = json_incref(j);
		set->compare_path = strdup(path);
		return set->compare_path ? 1 : -ENOMEM;
	}
	warnf(set, "%s: schema %s is not rtproof-compare/1: its table is not shown", path,
	      schema[0] ? schema : "(none)");
	return 0;
}

/* a run was attempted here: the VM runner's files */
static bool ran_here(const char *dir)
{
	static const char *const f[] = { "vm.json", "serial.log", "exit-status" };
	size_t i;
	bool r = false;

	for (i = 0; i < sizeof(f) / sizeof(f[0]) && !r; i++) {
		char *p = join(dir, f[i]);

		r = p && is_file(p);
		free(p);
	}
	return r;
}

static int load_ladder(struct rtp_plot_set *set, const char *dir, char *msg, size_t len)
{
	char **names = NULL;
	size_t n = 0, i;
	int ret, found = 0;
	char *cp;

	/* every directory but plots/ (this program's own output), in the ladder's order */
	ret = rtp_resultdir_list(dir, RTP_RD_DIRS, &names, &n);
	if (ret) {
		snprintf(msg, len, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	qsort(names, n, sizeof(*names), rtp_resultdir_cmp_rung);
	for (i = 0; i < n && ret >= 0; i++) {
		char *p = join(dir, names[i]);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		ret = load_run_dir(set, p, names[i], msg, len);
		if (ret > 0)
			found++;
		else if (ret == 0 && !ran_here(p))
			warnf(set, "%s: neither result documents nor a VM run's files: not a run, left out%s", p, "");
		else if (ret == 0)
			if (set->nfailed < sizeof(set->failed) / sizeof(set->failed[0]) &&
			    !(set->failed[set->nfailed++] = strdup(names[i])))
				ret = -ENOMEM;
		free(p);
	}
	rtp_resultdir_free(names, n);
	if (ret < 0)
		return ret;
	cp = join(dir, "compare.json");
	if (!cp)
		return -ENOMEM;
	if (is_file(cp)) {
		json_t *j = read_json(cp, msg, len);

		if (!j) {
			free(cp);
			return -EINVAL;
		}
		ret = load_compare(set, cp, j);
		json_decref(j);
	}
	free(cp);
	return ret < 0 ? ret : found;
}

static char *dir_of(const char *file)
{
	const char *s = strrchr(file, '/');

	return s ? strndup(file, (size_t)(s - file)) : strdup(".");
}

static int load_file(struct rtp_plot_set *set, const char *file, char *msg, size_t len)
{
	json_t *j = read_json(file, msg, len);
	const char *schema;
	char *dir;
	size_t i;
	int ret;

	if (!j)
		return -EINVAL;
	schema = rtp_plot_str(j, "schema", "");
	if (!strncmp(schema, "rtproof-compare", 15)) {
		ret = load_compare(set, file, j);
		json_decref(j);
		return ret;
	}
	if (strcmp(schema, "rtproof/1")) {
		snprintf(msg, len, "%s: schema '%s': neither a result document (rtproof/1) nor a comparison",
			 file, schema);
		json_decref(j);
		return -EINVAL;
	}
	dir = dir_of(file);
	if (!dir) {
		json_decref(j);
		return -ENOMEM;
	}
	ret = 0;
	/* documents of one directory given one by one form one run */
	for (i = 0; i < set->nruns; i++) {
		int b = bench_of(j);

		if (!strcmp(set->runs[i].dir, dir) && b >= 0 && !set->runs[i].doc[b]) {
			ret = add_doc(set, &set->runs[i], file, j);
			break;
		}
	}
	if (i == set->nruns) {
		struct rtp_plot_run *run = add_run(set, dir, NULL);

		ret = run ? add_doc(set, run, file, j) : -ENOMEM;
		if (run && ret >= 0 && beside(run, dir) < 0)
			ret = -ENOMEM;
	}
	free(dir);
	json_decref(j);
	return ret;
}

/* Runs named by a comparison that came alone: its base and new paths. */
static int load_compare_runs(struct rtp_plot_set *set, char *msg, size_t len)
{
	json_t *all[32];
	size_t n = 0, i, k;
	char *cdir;
	int ret = 0;

	all[n++] = json_object_get(set->compare, "base");
	json_array_foreach(json_object_get(set->compare, "new"), k, all[n]) {
		if (n + 1 >= sizeof(all) / sizeof(all[0]))
			break;
		n++;
	}
	cdir = dir_of(set->compare_path);
	if (!cdir)
		return -ENOMEM;
	for (i = 0; i < n && ret >= 0; i++) {
		const char *p = rtp_plot_str(all[i], "path", NULL);
		char *full = NULL;
		size_t before = set->nruns;

		if (!p)
			continue;
		if (p[0] != '/' && !is_dir(p) && !is_file(p))
			full = join(cdir, p);
		else
			full = strdup(p);
		if (!full) {
			ret = -ENOMEM;
			break;
		}
		if (is_dir(full))
			ret = load_run_dir(set, full, rtp_plot_str(all[i], "label", NULL), msg, len);
		else if (is_file(full))
			ret = load_file(set, full, msg, len);
		else
			warnf(set, "%s: named in the comparison, not found%s", full, "");
		if (ret >= 0 && set->nruns > before && !set->runs[before].label &&
		    rtp_plot_str(all[i], "label", NULL))
			set->runs[before].label = strdup(rtp_plot_str(all[i], "label", ""));
		free(full);
	}
	free(cdir);
	return ret < 0 ? ret : 0;
}

static void set_labels(struct rtp_plot_set *set)
{
	size_t i, j;

	for (i = 0; i < set->nruns; i++) {
		struct rtp_plot_run *r = &set->runs[i];
		json_t *sys = json_object_get(rtp_plot_sysdoc(r), "system");
		char *l;

		if (r->label)
			continue;
		if (asprintf(&l, "%s preempt=%s", rtp_plot_str(sys, "kernel_release", "unknown kernel"),
			     rtp_plot_str(sys, "preempt", "unknown")) < 0)
			continue;
		r->label = l;
	}
	for (i = 1; i < set->nruns; i++)
		for (j = 0; j < i; j++)
			if (set->runs[i].label && set->runs[j].label &&
			    !strcmp(set->runs[i].label, set->runs[j].label)) {
				char *l;

				if (asprintf(&l, "%s #%zu", set->runs[i].label, i + 1) >= 0) {
					free(set->runs[i].label);
					set->runs[i].label = l;
				}
				break;
			}
}

int rtp_plot_load(struct rtp_plot_set *set, char *const *args, int nargs, char *msg, size_t len)
{
	int i, ret = 0;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < nargs && ret >= 0; i++) {
		const char *a = args[i];

		if (is_dir(a)) {
			size_t before = set->nruns;

			ret = load_run_dir(set, a, NULL, msg, len);
			if (ret == 0)
				ret = load_ladder(set, a, msg, len);
			if (ret >= 0 && set->nruns == before && !set->compare) {
				snprintf(msg, len, "%s: no result documents (cyclic.json, irqlat.json, "
					 "audio.json, lockstress.json) here or one level below", a);
				ret = -ENOENT;
			}
		} else if (is_file(a)) {
			ret = load_file(set, a, msg, len);
		} else {
			snprintf(msg, len, "%s: %s", a, strerror(ENOENT));
			ret = -ENOENT;
		}
	}
	if (ret >= 0 && !set->nruns && set->compare)
		ret = load_compare_runs(set, msg, len);
	if (ret >= 0 && !set->nruns) {
		snprintf(msg, len, "%s: no result documents to show", nargs ? args[0] : "(nothing given)");
		ret = -ENOENT;
	}
	if (ret < 0)
		return ret;
	set_labels(set);
	return 0;
}

void rtp_plot_set_free(struct rtp_plot_set *set)
{
	size_t i;
	int b;

	for (i = 0; i < set->nruns; i++) {
		for (b = 0; b < RP_NBENCH; b++) {
			json_decref(set->runs[i].doc[b]);
			free(set->runs[i].path[b]);
		}
		json_decref(set->runs[i].vm);
		json_decref(set->runs[i].suite);
		json_decref(set->runs[i].check);
		json_decref(set->runs[i].load);
		free(set->runs[i].label);
		free(set->runs[i].dir);
	}
	free(set->runs);
	json_decref(set->compare);
	free(set->compare_path);
	for (i = 0; i < set->nwarnings; i++)
		free(set->warnings[i]);
	for (i = 0; i < set->nfailed; i++)
		free(set->failed[i]);
	memset(set, 0, sizeof(*set));
}

json_t *rtp_plot_sysdoc(const struct rtp_plot_run *r)
{
	int b;

	for (b = 0; b < RP_NBENCH; b++)
		if (r->doc[b] && json_is_object(json_object_get(r->doc[b], "system")))
			return r->doc[b];
	return NULL;
}

/* "6.1.0-57-rt-amd64, preempt rt, virtualised (cpuid), QEMU icount: instruction time" */
void rtp_plot_where(const struct rtp_plot_run *r, char *buf, size_t len)
{
	json_t *sys = json_object_get(rtp_plot_sysdoc(r), "system");
	json_t *virt = json_object_get(sys, "virtualized");
	char vm[256] = "";

	if (r->vm)
		snprintf(vm, sizeof(vm), ", QEMU %s: %s", rtp_plot_str(r->vm, "clock", "?"),
			 rtp_plot_str(r->vm, "time_base", "time base not recorded"));
	snprintf(buf, len, "kernel %s, preempt %s, %s%s%s%s%s",
		 rtp_plot_str(sys, "kernel_release", "unknown"), rtp_plot_str(sys, "preempt", "unknown"),
		 json_is_true(virt) ? "virtualised" : json_is_false(virt) ? "not virtualised" :
		 "virtualisation unknown",
		 json_is_true(virt) && rtp_plot_str(sys, "hypervisor", NULL) ? " (" : "",
		 json_is_true(virt) ? rtp_plot_str(sys, "hypervisor", "") : "",
		 json_is_true(virt) && rtp_plot_str(sys, "hypervisor", NULL) ? ")" : "", vm);
}

/* The load the documents record: the bench's --load label, and the VM's. */
void rtp_plot_load_text(const struct rtp_plot_run *r, char *buf, size_t len)
{
	const char *seen[RP_NBENCH + 1];
	size_t n = 0, i, off = 0;
	int b;

	buf[0] = 0;
	for (b = 0; b <= RP_NBENCH; b++) {
		const char *l = b < RP_NBENCH ?
			rtp_plot_str(json_object_get(r->doc[b], "load"), "name", NULL) :
			rtp_plot_str(r->vm, "load", NULL);

		if (!l || !strcmp(l, "unspecified"))
			continue;
		for (i = 0; i < n; i++)
			if (!strcmp(seen[i], l))
				break;
		if (i < n)
			continue;
		seen[n++] = l;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s", n > 1 ? ", " : "", l);
		if (off >= len)
			break;
	}
	if (!n)
		snprintf(buf, len, "not recorded");
}
