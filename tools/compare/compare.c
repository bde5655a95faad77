// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-compare: BASE against NEW [NEW2 ...], figure by figure, with
 * distribution-free statistics and a verdict (docs/compare.md).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doc.h"
#include "json.h"
#include "log.h"
#include "result.h"
#include "stats.h"

#define MAX_SIDES	16
#define MAX_RUNS	64
#define MIN_BLOCKS	8	/* block maxima per side for the rank test */
#define TAIL_SAMPLES	10	/* n (1 - q) below this: not enough data */

struct run {
	char path[PATH_MAX];
	struct rtp_doc *docs;
	size_t ndocs;
	bool has_suite;			/* suite.json of rtproof run */
	char suite_load[64], suite_duration[32];
	int suite_cpus;
};

struct side {
	char label[128];
	char path[PATH_MAX];
	struct run runs[MAX_RUNS];
	size_t nruns;
};

struct opts {
	double confidence;
	double threshold;
	const char *metrics;	/* NULL: the headline ones */
	const char *json;
	bool allow_unfair;
};

/* The headline measures of each bench (issue 15). */
static const char *const headline[] = {
	"cyclic:wakeup_latency",
	"irqlat:irq_latency", "irqlat:thread_wakeup", "irqlat:user_wakeup", "irqlat:total",
	"irqlat:thread_latency", "irqlat:rtc_interval_error", "irqlat:user_timer_wakeup",
	"audio:wakeup_lateness", "audio:buffer_margin",
	"lockstress:inversion_wait",
};

enum verdict { V_SAME, V_WORSE, V_BETTER, V_NED };
static const char *const vname[] = { "same", "worse", "better", "not-enough-data" };
static const char *const vtext[] = { "no significant difference", "WORSE", "better",
				     "not enough data" };

struct row {
	const char *bench, *metric, *key, *figure, *unit;
	int new_index;
	bool has_base, has_new;
	double base, new;
	bool base_ci_ok, new_ci_ok;
	double base_ci[2], new_ci[2];
	bool spread;			/* several runs on both sides */
	double base_spread[2], new_spread[2];
	double ratio;
	double effect;			/* the ratio the verdict rests on when not ratio (max: block maxima medians) */
	enum verdict v;
	char method[160];
	char note[160];
};

struct estimate {
	const char *bench, *metric, *key, *side_label;
	int new_index;			/* -1: base */
	double value, ppcc, ks, block_s, block_samples;
	size_t blocks;
};

static struct row *rows;
static size_t nrows, cap_rows;
static struct estimate *ests;
static size_t nests, cap_ests;
static char warnings[64][320];
static int nwarnings;

__attribute__((format(printf, 1, 2)))
static void warn_add(const char *fmt, ...)
{
	va_list ap;

	if (nwarnings >= 64)
		return;
	va_start(ap, fmt);
	vsnprintf(warnings[nwarnings++], sizeof(warnings[0]), fmt, ap);
	va_end(ap);
}

static struct row *row_add(void)
{
	if (nrows == cap_rows) {
		size_t nc = cap_rows ? cap_rows * 2 : 256;
		struct row *nr = realloc(rows, nc * sizeof(*rows));

		if (!nr)
			return NULL;
		rows = nr;
		cap_rows = nc;
	}
	memset(&rows[nrows], 0, sizeof(rows[0]));
	return &rows[nrows++];
}

static struct estimate *est_add(void)
{
	if (nests == cap_ests) {
		size_t nc = cap_ests ? cap_ests * 2 : 64;
		struct estimate *ne = realloc(ests, nc * sizeof(*ests));

		if (!ne)
			return NULL;
		ests = ne;
		cap_ests = nc;
	}
	memset(&ests[nests], 0, sizeof(ests[0]));
	return &ests[nests++];
}

/* ---- loading ----------------------------------------------------------- */

static bool is_doc_name(const char *n)
{
	size_t l = strlen(n);

	return l > 5 && !strcmp(n + l - 5, ".json") && strcmp(n, "compare.json") &&
	       strcmp(n, "suite.json") && !strstr(n, ".tmp.");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir that pass keep(); *names freed by the caller. */
static int list_dir(const char *dir, bool (*keep)(const char *dir, const char *name),
		    char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !keep(dir, e->d_name))
			continue;
		if (*n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 16;
			nn = realloc(*names, cap * sizeof(char *));
			if (!nn)
				break;
			*names = nn;
		}
		(*names)[*n] = strdup(e->d_name);
		if (!(*names)[*n])
			break;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(char *), cmp_str);
	return 0;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool keep_doc(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return is_doc_name(name) && !stat(p, &st) && S_ISREG(st.st_mode);
}

static bool keep_rung(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;
	char **docs;
	size_t n;
	bool ok;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (stat(p, &st) || !S_ISDIR(st.st_mode))
		return false;
	if (list_dir(p, keep_doc, &docs, &n))
		return false;
	ok = n > 0;
	free_names(docs, n);
	return ok;
}

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
	if (list_dir(path, keep_doc, &names, &n)) {
		rtp_error("%s: cannot read the directory: %s", path, strerror(errno));
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
		free_names(names, n);
		return -ENOENT;
	}
	for (i = 0; i < n && !ret; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/%s", path, names[i]);
		ret = load_doc(r, p, true);
	}
	free_names(names, n);
	return ret;
}

static bool is_ladder(const char *path)
{
	struct stat st;
	char **names;
	size_t n;
	bool ladder;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return false;
	if (list_dir(path, keep_doc, &names, &n))
		return false;
	free_names(names, n);
	if (n)
		return false;
	if (list_dir(path, keep_rung, &names, &n))
		return false;
	ladder = n > 0;
	free_names(names, n);
	return ladder;
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
}

/* "a,b,c": several runs of one side (a path that exists is taken whole). */
static int load_side(struct side *s, const char *arg)
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
static int load_ladder(struct side *sides, int *nsides, const char *dir)
{
	char **names, groups[MAX_SIDES][128];
	int ngroups = 0, g, rt = -1, ret = 0;
	size_t n, i;

	if (list_dir(dir, keep_rung, &names, &n))
		return -EIO;
	for (i = 0; i < n; i++) {
		char base[128], *p;

		snprintf(base, sizeof(base), "%s", names[i]);
		p = strstr(base, "-run");
		if (p && p[4] && strspn(p + 4, "0123456789") == strlen(p + 4))
			*p = 0;
		for (g = 0; g < ngroups; g++)
			if (!strcmp(groups[g], base))
				break;
		if (g == ngroups) {
			if (ngroups == MAX_SIDES) {
				rtp_error("%s: more than %d rungs", dir, MAX_SIDES);
				free_names(names, n);
				return -E2BIG;
			}
			snprintf(groups[ngroups++], sizeof(groups[0]), "%s", base);
		}
	}
	for (g = 0; g < ngroups; g++)
		if (!strcmp(groups[g], "rt"))
			rt = g;
	if (rt < 0) {
		rtp_error("%s: a compare-kernels directory without an rt rung", dir);
		free_names(names, n);
		return -ENOENT;
	}
	if (ngroups < 2) {
		rtp_error("%s: a compare-kernels directory with the rt rung alone", dir);
		free_names(names, n);
		return -ENOENT;
	}
	/* rt first, then stock-none, stock-voluntary, stock-full, then the rest by name */
	{
		static const char *const order[] = { "rt", "stock-none", "stock-voluntary", "stock-full" };
		int ord[MAX_SIDES], k = 0, o;
		bool used[MAX_SIDES] = { 0 };

		for (o = 0; o < 4; o++)
			for (g = 0; g < ngroups; g++)
				if (!used[g] && !strcmp(groups[g], order[o])) {
					ord[k++] = g;
					used[g] = true;
				}
		for (g = 0; g < ngroups; g++)
			if (!used[g])
				ord[k++] = g;
		for (o = 0; o < ngroups && !ret; o++) {
			struct side *s = &sides[o];

			g = ord[o];
			snprintf(s->label, sizeof(s->label), "%s", groups[g]);
			snprintf(s->path, sizeof(s->path), "%s/%s", dir, groups[g]);
			for (i = 0; i < n && !ret; i++) {
				char base[128], *p, path[PATH_MAX];

				snprintf(base, sizeof(base), "%s", names[i]);
				p = strstr(base, "-run");
				if (p && p[4] && strspn(p + 4, "0123456789") == strlen(p + 4))
					*p = 0;
				if (strcmp(base, groups[g]))
					continue;
				if (s->nruns >= MAX_RUNS) {
					rtp_error("%s: more than %d runs of %s", dir, MAX_RUNS, groups[g]);
					ret = -E2BIG;
					break;
				}
				snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
				ret = load_run(&s->runs[s->nruns++], path);
			}
			if (s->nruns > 1)
				snprintf(s->path, sizeof(s->path), "%s/%s-run*", dir, groups[g]);
		}
	}
	*nsides = ngroups;
	free_names(names, n);
	return ret;
}

static const struct rtp_doc *run_doc(const struct run *r, const char *bench)
{
	size_t i;

	for (i = 0; i < r->ndocs; i++)
		if (!strcmp(r->docs[i].bench, bench))
			return &r->docs[i];
	return NULL;
}

/* ---- fairness ---------------------------------------------------------- */

/* The command without argv[0]'s directory and without output paths. */
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
		if (!strcmp(t, "--json") || !strcmp(t, "--histfile") || !strcmp(t, "-o")) {
			skip = true;
			continue;
		}
		if (!strncmp(t, "--json=", 7) || !strncmp(t, "--histfile=", 11))
			continue;
		if (first && strrchr(t, '/'))
			t = strrchr(t, '/') + 1;
		first = false;
		off += (size_t)snprintf(out + off, off < len ? len - off : 0, "%s%s", off ? " " : "", t);
	}
	free(copy);
}

/* Warns about, or refuses (1), comparisons that are not like for like. */
static int check_fair(const struct side *base, const struct side *nw, const struct opts *o)
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
			  base->label, nw->label, warnings[nwarnings - 1]);
		return 1;
	}
	return 0;
}

/* ---- pooled figures of one metric on one side --------------------------- */

struct pooled {
	uint64_t count, min, max;
	size_t nbuckets, capb;
	struct rtp_doc_bucket *b;	/* merged, ordered */
	bool have_hist;
	double *bmax;			/* block maxima, all runs, common block length */
	size_t nbmax;
	double block_s, block_samples;
	bool have_series;
	/* per run, for the spread */
	const struct rtp_doc_metric *per_run[MAX_RUNS];
	size_t nruns;
};

static int cmp_bucket(const void *a, const void *b)
{
	const struct rtp_doc_bucket *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void pooled_free(struct pooled *p)
{
	free(p->b);
	free(p->bmax);
	memset(p, 0, sizeof(*p));
}

/* Block maxima of a metric coarsened to block_s; blocks with under half the median count left out. */
static size_t block_maxima(const struct rtp_doc_metric *m, double block_s, double *out, double *samples)
{
	size_t i, k = 0, n = 0;
	int f = 0;
	double *cnt, *mx, med;
	long long last = -1;

	while (ldexp(m->block_s, f) < block_s * 0.999 && f < 40)
		f++;
	cnt = calloc(m->nblocks + 1, sizeof(double));
	mx = calloc(m->nblocks + 1, sizeof(double));
	if (!cnt || !mx) {
		free(cnt);
		free(mx);
		return 0;
	}
	for (i = 0; i < m->nblocks; i++) {
		long long idx = llround(m->blocks[i].start_s / m->block_s) >> f;

		if (idx != last) {
			if (last >= 0)
				k++;
			last = idx;
		}
		cnt[k] += (double)m->blocks[i].count;
		if ((double)m->blocks[i].max > mx[k])
			mx[k] = (double)m->blocks[i].max;
	}
	if (m->nblocks)
		k++;
	{
		double *tmp = malloc((k ? k : 1) * sizeof(double));

		if (!tmp) {
			free(cnt);
			free(mx);
			return 0;
		}
		memcpy(tmp, cnt, k * sizeof(double));
		med = rtp_median(tmp, k);
		free(tmp);
	}
	for (i = 0; i < k; i++)
		if (cnt[i] >= med / 2)
			out[n++] = mx[i];
	*samples = med;
	free(cnt);
	free(mx);
	return n;
}

static int pool(struct pooled *p, const struct side *s, const char *bench, const char *name,
		const char *key, double block_s)
{
	size_t r, i;

	memset(p, 0, sizeof(*p));
	p->min = UINT64_MAX;
	p->have_hist = p->have_series = true;
	for (r = 0; r < s->nruns; r++) {
		const struct rtp_doc *d = run_doc(&s->runs[r], bench);
		const struct rtp_doc_metric *m = d ? rtp_doc_find(d, name, key) : NULL;

		if (!m)
			continue;
		p->per_run[p->nruns++] = m;
		p->count += m->count;
		if (m->has_minmax) {
			if (m->min < p->min)
				p->min = m->min;
			if (m->max > p->max)
				p->max = m->max;
		}
		if (!m->buckets)
			p->have_hist = false;
		if (!m->has_series)
			p->have_series = false;
	}
	if (!p->nruns)
		return -ENOENT;
	if (!p->count)
		p->min = 0;
	if (p->have_hist) {
		size_t tot = 0, k = 0;

		for (r = 0; r < p->nruns; r++)
			tot += p->per_run[r]->nbuckets;
		p->b = malloc((tot ? tot : 1) * sizeof(*p->b));
		if (!p->b)
			return -ENOMEM;
		for (r = 0; r < p->nruns; r++)
			for (i = 0; i < p->per_run[r]->nbuckets; i++)
				p->b[k++] = p->per_run[r]->buckets[i];
		qsort(p->b, tot, sizeof(*p->b), cmp_bucket);
		/* equal buckets add up; the scheme is the same in every document */
		p->nbuckets = 0;
		for (i = 0; i < tot; i++) {
			if (p->nbuckets && p->b[p->nbuckets - 1].lo == p->b[i].lo &&
			    p->b[p->nbuckets - 1].hi == p->b[i].hi)
				p->b[p->nbuckets - 1].count += p->b[i].count;
			else
				p->b[p->nbuckets++] = p->b[i];
		}
	}
	if (p->have_series) {
		size_t tot = 0;
		double bs = block_s;

		for (r = 0; r < p->nruns; r++) {
			tot += p->per_run[r]->nblocks;
			if (p->per_run[r]->block_s > bs)
				bs = p->per_run[r]->block_s;
		}
		p->block_s = bs;
		p->bmax = malloc((tot ? tot : 1) * sizeof(double));
		if (!p->bmax)
			return -ENOMEM;
		for (r = 0; r < p->nruns; r++) {
			double smp = 0;

			p->nbmax += block_maxima(p->per_run[r], bs, p->bmax + p->nbmax, &smp);
			p->block_samples += smp / (double)p->nruns;
		}
	}
	return 0;
}

/* Value bounds of the sample of rank r (1-based) in the pooled histogram. */
static void rank_value(const struct pooled *p, uint64_t r, double *lo, double *hi)
{
	uint64_t cum = 0;
	size_t i;

	for (i = 0; i < p->nbuckets; i++) {
		cum += p->b[i].count;
		if (cum >= r) {
			*lo = (double)(p->b[i].lo > p->min ? p->b[i].lo : p->min);
			*hi = (double)(p->b[i].hi < p->max ? p->b[i].hi : p->max);
			return;
		}
	}
	/* in the overflow: beyond the histogram's limit */
	*lo = p->nbuckets ? (double)p->b[p->nbuckets - 1].hi + 1 : (double)p->min;
	*hi = (double)p->max;
}

/* Percentile of one document's metric (upper edge, capped at max), for the spread. */
static double doc_quantile(const struct rtp_doc_metric *m, double q, bool lower)
{
	struct pooled p = { .count = m->count, .min = m->min, .max = m->max,
			    .nbuckets = m->nbuckets, .b = m->buckets };
	uint64_t r = (uint64_t)ceil(q * (double)m->count);
	double lo, hi;

	if (!r)
		r = 1;
	rank_value(&p, r, &lo, &hi);
	return lower ? lo : hi;
}

/* ---- verdicts ---------------------------------------------------------- */

struct ctx {
	const struct opts *o;
	double alpha;		/* 1 - confidence */
	double c1;		/* level of each side's interval: both hold with >= confidence */
};

static void set_ratio(struct row *w)
{
	if (w->base > 0)
		w->ratio = w->new / w->base;
	else
		w->ratio = w->new > 0 ? INFINITY : 1;
}

/* Rank test on block maxima: +1 new larger, -1 smaller, 0 neither; -2 not enough blocks. */
static int block_test(const struct pooled *b, const struct pooled *n, const struct ctx *c,
		      double *med_ratio, double *pval)
{
	double pg, pl, auc, *x, *y, mb, mn;
	int dir = 0;

	if (!b->have_series || !n->have_series || b->nbmax < MIN_BLOCKS || n->nbmax < MIN_BLOCKS)
		return -2;
	if (rtp_mann_whitney(b->bmax, b->nbmax, n->bmax, n->nbmax, &pg, &pl, &auc))
		return -2;
	x = malloc(b->nbmax * sizeof(double));
	y = malloc(n->nbmax * sizeof(double));
	if (!x || !y) {
		free(x);
		free(y);
		return -2;
	}
	memcpy(x, b->bmax, b->nbmax * sizeof(double));
	memcpy(y, n->bmax, n->nbmax * sizeof(double));
	mb = rtp_median(x, b->nbmax);
	mn = rtp_median(y, n->nbmax);
	free(x);
	free(y);
	*med_ratio = mb > 0 ? mn / mb : (mn > 0 ? INFINITY : 1);
	if (pg < c->alpha / 2) {
		dir = 1;
		*pval = pg;
	} else if (pl < c->alpha / 2) {
		dir = -1;
		*pval = pl;
	} else {
		*pval = pg < pl ? pg : pl;
	}
	return dir;
}

/* Runs' point values separate (for worse: every new run above every base run). */
static enum verdict spread_check(struct row *w, enum verdict v)
{
	if (!w->spread || (v != V_WORSE && v != V_BETTER))
		return v;
	if (v == V_WORSE && w->new_spread[0] > w->base_spread[1])
		return v;
	if (v == V_BETTER && w->new_spread[1] < w->base_spread[0])
		return v;
	snprintf(w->note, sizeof(w->note), "within the run-to-run spread");
	return V_SAME;
}

static void fill_spread(struct row *w, const struct pooled *b, const struct pooled *n,
			double (*fig)(const struct rtp_doc_metric *m, double q), double q)
{
	size_t r;

	w->spread = b->nruns > 1 && n->nruns > 1;
	if (!w->spread)
		return;
	w->base_spread[0] = w->new_spread[0] = INFINITY;
	w->base_spread[1] = w->new_spread[1] = -INFINITY;
	for (r = 0; r < b->nruns; r++) {
		double v = fig(b->per_run[r], q);

		w->base_spread[0] = fmin(w->base_spread[0], v);
		w->base_spread[1] = fmax(w->base_spread[1], v);
	}
	for (r = 0; r < n->nruns; r++) {
		double v = fig(n->per_run[r], q);

		w->new_spread[0] = fmin(w->new_spread[0], v);
		w->new_spread[1] = fmax(w->new_spread[1], v);
	}
}

static double fig_q_hi(const struct rtp_doc_metric *m, double q)
{
	return m->count ? doc_quantile(m, q, false) : NAN;
}

static double fig_q_lo(const struct rtp_doc_metric *m, double q)
{
	return m->count ? doc_quantile(m, q, true) : NAN;
}

/* A run's median block maximum: what the max row's verdict rests on (the max itself without a series). */
static double fig_max(const struct rtp_doc_metric *m, double q)
{
	double *v, med, smp;
	size_t n;

	(void)q;
	if (!m->has_series || !m->nblocks)
		return (double)m->max;
	v = malloc(m->nblocks * sizeof(double));
	if (!v)
		return (double)m->max;
	n = block_maxima(m, q > 0 ? q : m->block_s, v, &smp);
	med = n ? rtp_median(v, n) : (double)m->max;
	free(v);
	return med;
}

static double fig_min(const struct rtp_doc_metric *m, double q)
{
	(void)q;
	return (double)m->min;
}

/* One side's percentile and its interval; false when there are too few samples. */
static bool side_quantile(const struct pooled *p, double q, bool lower_tail, const struct ctx *c,
			  double *val, double ci[2], bool *ci_ok)
{
	uint64_t r, lo, hi;
	double a, b;
	double tail = lower_tail ? q : 1 - q;

	*ci_ok = false;
	if (!p->count || !p->have_hist)
		return false;
	r = (uint64_t)ceil(q * (double)p->count);
	if (!r)
		r = 1;
	rank_value(p, r, &a, &b);
	*val = lower_tail ? a : b;
	if ((double)p->count * tail < TAIL_SAMPLES)
		return false;
	rtp_quantile_ranks(p->count, q, c->c1, &lo, &hi);
	if (lo < 1 || hi > p->count)
		return false;
	rank_value(p, lo, &a, &b);
	ci[0] = a;
	rank_value(p, hi, &a, &b);
	ci[1] = b;
	*ci_ok = true;
	return true;
}

static void quantile_row(struct row *w, const struct pooled *b, const struct pooled *n, double q,
			 bool lower_worse, const struct ctx *c)
{
	bool okb, okn;
	double t = 1 + c->o->threshold;

	okb = side_quantile(b, q, lower_worse, c, &w->base, w->base_ci, &w->base_ci_ok);
	okn = side_quantile(n, q, lower_worse, c, &w->new, w->new_ci, &w->new_ci_ok);
	w->has_base = b->count && b->have_hist;
	w->has_new = n->count && n->have_hist;
	set_ratio(w);
	fill_spread(w, b, n, lower_worse ? fig_q_lo : fig_q_hi, q);
	snprintf(w->method, sizeof(w->method), "order-statistic CI (each at %.3g)", c->c1);
	if (!b->have_hist || !n->have_hist) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "no histogram in a document");
		return;
	}
	if (!okb || !okn) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "fewer than %d samples beyond the percentile",
			 TAIL_SAMPLES);
		return;
	}
	w->v = V_SAME;
	/* significant and beyond the threshold: the whole ratio interval lies past it */
	if (!lower_worse) {
		if (w->base_ci[1] > 0 && w->new_ci[0] / w->base_ci[1] > t)
			w->v = V_WORSE;
		else if (w->new_ci[1] * t < w->base_ci[0])
			w->v = V_BETTER;
	} else {
		if (w->base_ci[1] > 0 && w->new_ci[0] / w->base_ci[1] > t)
			w->v = V_BETTER;
		else if (w->new_ci[1] * t < w->base_ci[0])
			w->v = V_WORSE;
	}
	/* a tail shift must also show across time, not in one burst */
	if (q >= 0.99 && !lower_worse && w->v != V_SAME) {
		double mr, pv;
		int dir = block_test(b, n, c, &mr, &pv);

		if (dir != -2) {
			snprintf(w->method, sizeof(w->method),
				 "order-statistic CI (each at %.3g) + Mann-Whitney on block maxima", c->c1);
			if ((w->v == V_WORSE && dir != 1) || (w->v == V_BETTER && dir != -1)) {
				if (dir == 0)
					snprintf(w->note, sizeof(w->note),
						 "not borne out across %.3g s blocks (rank test p %.2g): a burst",
						 b->block_s, pv);
				else
					snprintf(w->note, sizeof(w->note),
						 "the %.3g s block maxima move the other way (rank test p %.2g)",
						 b->block_s, pv);
				w->v = V_SAME;
			}
		}
	}
	w->v = spread_check(w, w->v);
}

static void max_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct ctx *c)
{
	double mr = 1, pv = 1;
	int dir;

	w->has_base = b->count > 0;
	w->has_new = n->count > 0;
	w->base = (double)b->max;
	w->new = (double)n->max;
	set_ratio(w);
	fill_spread(w, b, n, fig_max, b->block_s);
	dir = block_test(b, n, c, &mr, &pv);
	if (dir == -2) {
		w->v = V_NED;
		snprintf(w->method, sizeof(w->method), "Mann-Whitney on block maxima");
		snprintf(w->note, sizeof(w->note), "fewer than %d time blocks on a side", MIN_BLOCKS);
		return;
	}
	snprintf(w->method, sizeof(w->method), "Mann-Whitney on block maxima (%zu vs %zu blocks of %.3g s)",
		 b->nbmax, n->nbmax, b->block_s);
	snprintf(w->note, sizeof(w->note), "block maxima median x%.2f, p %.2g", mr, pv);
	w->v = V_SAME;
	/*
	 * The verdict is on the maxima over time (the typical block maximum,
	 * by rank), not on the single largest sample, which one stall of the
	 * machine decides.
	 */
	w->effect = mr;
	if (dir == 1 && mr > 1 + c->o->threshold)
		w->v = V_WORSE;
	else if (dir == -1 && mr * (1 + c->o->threshold) < 1)
		w->v = V_BETTER;
	w->v = spread_check(w, w->v);
}

static void min_row(struct row *w, const struct pooled *b, const struct pooled *n)
{
	w->has_base = b->count > 0;
	w->has_new = n->count > 0;
	w->base = (double)b->min;
	w->new = (double)n->min;
	set_ratio(w);
	fill_spread(w, b, n, fig_min, 0);
	snprintf(w->method, sizeof(w->method), "run-to-run spread");
	/* One smallest value has no distribution-free interval: runs decide. */
	if (!w->spread) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "one run per side: the p1 row carries the verdict");
		return;
	}
	w->v = V_SAME;
	if (w->new_spread[1] < w->base_spread[0] && w->new * 1.0 < w->base / 1.0)
		w->v = V_WORSE;
	else if (w->new_spread[0] > w->base_spread[1])
		w->v = V_BETTER;
}

/* xruns: counts over durations, a conditional binomial test of two Poisson rates. */
static void xrun_row(struct row *w, const struct side *bs, const struct side *ns, const struct ctx *c)
{
	uint64_t kb = 0, kn = 0;
	double db = 0, dn = 0, p, pg, pl;
	size_t r;

	for (r = 0; r < bs->nruns; r++) {
		const struct rtp_doc *d = run_doc(&bs->runs[r], "audio");

		if (d && d->has_xruns && d->duration_s > 0) {
			kb += d->xruns;
			db += d->duration_s;
		}
	}
	for (r = 0; r < ns->nruns; r++) {
		const struct rtp_doc *d = run_doc(&ns->runs[r], "audio");

		if (d && d->has_xruns && d->duration_s > 0) {
			kn += d->xruns;
			dn += d->duration_s;
		}
	}
	w->has_base = db > 0;
	w->has_new = dn > 0;
	w->base = (double)kb;
	w->new = (double)kn;
	snprintf(w->method, sizeof(w->method), "conditional binomial test of rates (%.3g s vs %.3g s)", db, dn);
	if (!(db > 0) || !(dn > 0)) {
		w->v = V_NED;
		w->ratio = NAN;
		return;
	}
	w->ratio = kb ? ((double)kn / dn) / ((double)kb / db) : (kn ? INFINITY : 1);
	if (kb + kn == 0) {
		w->v = V_SAME;
		return;
	}
	p = dn / (db + dn);	/* P(an xrun falls on the new side) under equal rates */
	pg = kn ? 1 - rtp_binom_cdf(kn - 1, kb + kn, p) : 1;
	pl = rtp_binom_cdf(kn, kb + kn, p);
	snprintf(w->note, sizeof(w->note), "p %.2g", pg < pl ? pg : pl);
	w->v = V_SAME;
	if (pg < c->alpha / 2 && w->ratio > 1 + c->o->threshold)
		w->v = V_WORSE;
	else if (pl < c->alpha / 2 && w->ratio * (1 + c->o->threshold) < 1)
		w->v = V_BETTER;
}

/* ---- the comparison ---------------------------------------------------- */

static bool metric_selected(const char *bench, const char *name, const struct opts *o)
{
	char bn[160];
	size_t i;

	snprintf(bn, sizeof(bn), "%s:%s", bench, name);
	if (o->metrics) {
		const char *p = o->metrics;
		size_t ln = strlen(name), lb = strlen(bn);

		if (!strcmp(p, "all"))
			return true;
		while (*p) {
			size_t l = strcspn(p, ",");

			if ((l == ln && !strncmp(p, name, l)) || (l == lb && !strncmp(p, bn, l)))
				return true;
			p += l + (p[l] == ',');
		}
		return false;
	}
	for (i = 0; i < sizeof(headline) / sizeof(headline[0]); i++)
		if (!strcmp(headline[i], bn))
			return true;
	return false;
}

static void key_field(const char *key, const char *field, char *out, size_t len)
{
	const char *p = key;
	size_t fl = strlen(field);

	out[0] = 0;
	while (p && *p) {
		if (!strncmp(p, field, fl) && p[fl] == ' ') {
			size_t l = strcspn(p + fl + 1, " ");

			snprintf(out, len, "%.*s", (int)l, p + fl + 1);
			return;
		}
		p = strchr(p, ' ');
		if (p)
			p = strchr(p + 1, ' ');
		if (p)
			p++;
	}
}

static void add_estimate(const struct pooled *p, const struct rtp_doc_metric *m, const char *bench,
			 const char *label, int new_index)
{
	struct rtp_gumbel g;
	struct estimate *e;
	double *v;
	char thr[32];

	key_field(m->key, "thread", thr, sizeof(thr));
	if (thr[0] && strcmp(thr, "all"))
		return;			/* per-thread series: the merge carries the estimate */
	if (!p->have_series || p->nbmax < 16 || !(p->block_samples > 0))
		return;
	v = malloc(p->nbmax * sizeof(double));
	if (!v)
		return;
	memcpy(v, p->bmax, p->nbmax * sizeof(double));
	if (rtp_gumbel_fit(v, p->nbmax, &g)) {
		free(v);
		return;
	}
	free(v);
	e = est_add();
	if (!e)
		return;
	e->bench = bench;
	e->metric = m->name;
	e->key = m->key;
	e->side_label = label;
	e->new_index = new_index;
	e->value = rtp_gumbel_quantile(&g, p->block_samples * 1e-9);
	e->ppcc = g.ppcc;
	e->ks = g.ks;
	e->blocks = g.n;
	e->block_s = p->block_s;
	e->block_samples = p->block_samples;
}

static int compare_side(const struct side *base, const struct side *nw, int ni, const struct ctx *c,
			size_t *matched, size_t *unmatched, char *first_unmatched, size_t fulen)
{
	const struct run *rb = &base->runs[0];
	size_t i, k;

	for (i = 0; i < rb->ndocs; i++) {
		const struct rtp_doc *bd = &rb->docs[i];
		bool xruns_done = false;

		for (k = 0; k < bd->nmetrics; k++) {
			const struct rtp_doc_metric *m = &bd->metrics[k];
			struct pooled pb, pn;
			bool margin = !strcmp(m->name, "buffer_margin");
			static const double qs[] = { 0.50, 0.99, 0.999, 0.9999 };
			static const char *const qn[] = { "p50", "p99", "p99.9", "p99.99" };
			size_t f;
			int ret;

			if (!metric_selected(bd->bench, m->name, c->o))
				continue;
			ret = pool(&pb, base, bd->bench, m->name, m->key, 0);
			if (ret) {
				pooled_free(&pb);
				return ret == -ENOENT ? 0 : ret;
			}
			ret = pool(&pn, nw, bd->bench, m->name, m->key, pb.block_s);
			if (ret == -ENOENT) {
				if (!*unmatched)
					snprintf(first_unmatched, fulen, "%s %s %s", bd->bench, m->name, m->key);
				(*unmatched)++;
				pooled_free(&pb);
				pooled_free(&pn);
				continue;
			}
			if (ret) {
				pooled_free(&pb);
				pooled_free(&pn);
				return ret;
			}
			/* both at the coarser block length */
			if (pn.block_s > pb.block_s * 1.001) {
				pooled_free(&pb);
				ret = pool(&pb, base, bd->bench, m->name, m->key, pn.block_s);
				if (ret) {
					pooled_free(&pb);
					pooled_free(&pn);
					return ret;
				}
			}
			(*matched)++;
			for (f = 0; f < (margin ? 2u : 5u); f++) {
				struct row *w = row_add();

				if (!w) {
					pooled_free(&pb);
					pooled_free(&pn);
					return -ENOMEM;
				}
				w->bench = bd->bench;
				w->metric = m->name;
				w->key = m->key;
				w->unit = m->unit;
				w->new_index = ni;
				if (margin) {
					w->figure = f == 0 ? "p1" : "min";
					if (f == 0)
						quantile_row(w, &pb, &pn, 0.01, true, c);
					else
						min_row(w, &pb, &pn);
				} else if (f < 4) {
					w->figure = qn[f];
					quantile_row(w, &pb, &pn, qs[f], false, c);
				} else {
					w->figure = "max";
					max_row(w, &pb, &pn, c);
				}
			}
			if (!margin && !strcmp(m->unit, "ns")) {
				if (ni == 0)
					add_estimate(&pb, m, bd->bench, base->label, -1);
				add_estimate(&pn, m, bd->bench, nw->label, ni);
			}
			pooled_free(&pb);
			pooled_free(&pn);
		}
		if (bd->has_xruns && !xruns_done && metric_selected(bd->bench, "wakeup_lateness", c->o)) {
			struct row *w = row_add();

			if (!w)
				return -ENOMEM;
			xruns_done = true;
			w->bench = bd->bench;
			w->metric = "xruns";
			w->key = "";
			w->unit = "xruns";
			w->figure = "count";
			w->new_index = ni;
			xrun_row(w, base, nw, c);
			if (w->has_new)
				(*matched)++;
		}
	}
	return 0;
}

/* ---- output ------------------------------------------------------------ */

static void fmt_val(char *buf, size_t len, double v, const char *unit, bool has)
{
	if (!has || isnan(v))
		snprintf(buf, len, "-");
	else if (!strcmp(unit, "ns"))
		snprintf(buf, len, "%.1f", v / 1000);
	else
		snprintf(buf, len, "%.0f", v);
}

static void fmt_ci(char *buf, size_t len, const double ci[2], bool ok, const char *unit)
{
	char a[32], b[32];

	if (!ok) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_val(a, sizeof(a), ci[0], unit, true);
	fmt_val(b, sizeof(b), ci[1], unit, true);
	snprintf(buf, len, "[%s, %s]", a, b);
}

static const char *unit_shown(const char *unit)
{
	return !strcmp(unit, "ns") ? "us" : unit;
}

static void fmt_ratio(char *buf, size_t len, double r)
{
	if (isnan(r))
		snprintf(buf, len, "-");
	else if (isinf(r))
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "x%.2f", r);
}

static void print_text(FILE *f, const struct side *sides, int nsides, const struct ctx *c)
{
	int s;
	size_t i;
	char last[320];

	fprintf(f, "rtproof compare: base %s (%s, preempt %s)\n", sides[0].label,
		sides[0].runs[0].docs[0].kernel_release, sides[0].runs[0].docs[0].preempt);
	for (s = 1; s < nsides; s++)
		fprintf(f, "                 new  %s (%s, preempt %s)\n", sides[s].label,
			sides[s].runs[0].docs[0].kernel_release, sides[s].runs[0].docs[0].preempt);
	fprintf(f, "confidence %.3g, threshold %.3g %%: a figure is worse when its whole ratio interval\n"
		   "lies beyond the threshold (tails and max: also across time blocks; runs: beyond the spread)\n",
		c->o->confidence, c->o->threshold * 100);
	for (i = 0; i < (size_t)nwarnings; i++)
		fprintf(f, "warning: %s\n", warnings[i]);
	for (s = 1; s < nsides; s++) {
		last[0] = 0;
		if (nsides > 2)
			fprintf(f, "\n==== %s against %s ====\n", sides[s].label, sides[0].label);
		for (i = 0; i < nrows; i++) {
			const struct row *w = &rows[i];
			char head[320], bv[32], nv[32], bc[64], nc[64], ra[32];

			if (w->new_index != s - 1)
				continue;
			snprintf(head, sizeof(head), "%s %s%s%s (%s)", w->bench, w->metric, *w->key ? " " : "",
				 w->key, unit_shown(w->unit));
			if (strcmp(head, last)) {
				fprintf(f, "\n%s\n  %-7s %10s %-22s %10s %-22s %8s  %s\n", head, "figure", "base",
					"  interval", "new", "  interval", "ratio", "verdict");
				snprintf(last, sizeof(last), "%s", head);
			}
			fmt_val(bv, sizeof(bv), w->base, w->unit, w->has_base);
			fmt_val(nv, sizeof(nv), w->new, w->unit, w->has_new);
			fmt_ci(bc, sizeof(bc), w->base_ci, w->base_ci_ok, w->unit);
			fmt_ci(nc, sizeof(nc), w->new_ci, w->new_ci_ok, w->unit);
			fmt_ratio(ra, sizeof(ra), w->ratio);
			fprintf(f, "  %-7s %10s %-22s %10s %-22s %8s  %s%s%s%s\n", w->figure, bv, bc, nv, nc, ra,
				vtext[w->v], *w->note ? " (" : "", w->note, *w->note ? ")" : "");
		}
	}
	if (nests) {
		fprintf(f, "\nEstimates, not measurements: the latency exceeded once in 1e9 samples, from a\n"
			   "Gumbel fit (probability-weighted moments) of block maxima; fit quality as the\n"
			   "probability-plot correlation (1 = perfect) and the Kolmogorov-Smirnov distance.\n");
		for (i = 0; i < nests; i++) {
			const struct estimate *e = &ests[i];

			fprintf(f, "  %-16s %s %s%s%s: %.1f us (estimate; %zu blocks of %.0f samples, ppcc %.3f, KS %.3f)\n",
				e->side_label, e->bench, e->metric, *e->key ? " " : "", e->key, e->value / 1000,
				e->blocks, e->block_samples, e->ppcc, e->ks);
		}
	}
}

static void json_num(struct rtp_json *j, const char *k, double v, bool has)
{
	if (has && isfinite(v))
		rtp_json_double(j, k, v);
	else
		rtp_json_null(j, k);
}

static void json_pair(struct rtp_json *j, const char *k, const double v[2], bool ok)
{
	if (!ok) {
		rtp_json_null(j, k);
		return;
	}
	rtp_json_begin_array(j, k);
	rtp_json_double(j, NULL, v[0]);
	rtp_json_double(j, NULL, v[1]);
	rtp_json_end_array(j);
}

static void json_side(struct rtp_json *j, const char *k, const struct side *s)
{
	const struct rtp_doc *d = &s->runs[0].docs[0];

	rtp_json_begin_object(j, k);
	rtp_json_string(j, "label", s->label);
	rtp_json_string(j, "path", s->path);
	rtp_json_string(j, "kernel_release", d->kernel_release);
	rtp_json_string(j, "preempt", d->preempt);
	rtp_json_int(j, "runs", (int64_t)s->nruns);
	rtp_json_end_object(j);
}

static void key_json(struct rtp_json *j, const char *key, const char *field)
{
	char v[64];
	char *end;
	long long n;

	key_field(key, field, v, sizeof(v));
	if (!v[0]) {
		rtp_json_null(j, field);
		return;
	}
	n = strtoll(v, &end, 10);
	if (!*end)
		rtp_json_int(j, field, n);
	else
		rtp_json_string(j, field, v);
}

static void regression_text(const struct row *w, const struct side *sides, int nsides, char *buf, size_t len)
{
	char pct[32];
	double r = w->effect > 0 ? w->effect : w->ratio;

	if (isinf(r))
		snprintf(pct, sizeof(pct), "from 0");
	else
		snprintf(pct, sizeof(pct), "%+.0f %%", (r - 1) * 100);
	snprintf(buf, len, "%s%s%s%s %s%s%s %s%s %s", nsides > 2 ? "[" : "",
		 nsides > 2 ? sides[w->new_index + 1].label : "", nsides > 2 ? "] " : "", w->bench, w->metric,
		 *w->key ? " " : "", w->key, w->figure, w->effect > 0 ? " (block maxima median)" : "", pct);
}

static int write_json(const char *path, const struct side *sides, int nsides, const struct ctx *c,
		      bool fail)
{
	struct rtp_afile a;
	struct rtp_json j;
	size_t i;
	int s, ret;

	ret = rtp_afile_open(&a, path);
	if (ret) {
		rtp_error("--json %s: cannot create: %s", path, strerror(-ret));
		return ret;
	}
	rtp_json_init(&j, a.f, true);
	rtp_json_begin_object(&j, NULL);
	rtp_json_string(&j, "schema", "rtproof-compare/1");
	rtp_json_double(&j, "confidence", c->o->confidence);
	rtp_json_double(&j, "threshold", c->o->threshold);
	json_side(&j, "base", &sides[0]);
	rtp_json_begin_array(&j, "new");
	for (s = 1; s < nsides; s++)
		json_side(&j, NULL, &sides[s]);
	rtp_json_end_array(&j);
	rtp_json_begin_array(&j, "warnings");
	for (s = 0; s < nwarnings; s++)
		rtp_json_string(&j, NULL, warnings[s]);
	rtp_json_end_array(&j);
	rtp_json_begin_array(&j, "rows");
	for (i = 0; i < nrows; i++) {
		const struct row *w = &rows[i];

		rtp_json_begin_object(&j, NULL);
		rtp_json_string(&j, "bench", w->bench);
		rtp_json_string(&j, "metric", w->metric);
		key_json(&j, w->key, "cpu");
		key_json(&j, w->key, "thread");
		rtp_json_string(&j, "key", w->key);
		rtp_json_string(&j, "figure", w->figure);
		rtp_json_string(&j, "unit", w->unit);
		rtp_json_int(&j, "new_index", w->new_index);
		json_num(&j, "base", w->base, w->has_base);
		json_pair(&j, "base_ci", w->base_ci, w->base_ci_ok);
		json_num(&j, "new", w->new, w->has_new);
		json_pair(&j, "new_ci", w->new_ci, w->new_ci_ok);
		if (w->spread) {
			json_pair(&j, "base_spread", w->base_spread, true);
			json_pair(&j, "new_spread", w->new_spread, true);
		}
		json_num(&j, "ratio", w->ratio, w->has_base && w->has_new);
		if (w->effect > 0)
			rtp_json_double(&j, "block_max_median_ratio", w->effect);
		rtp_json_string(&j, "verdict", vname[w->v]);
		rtp_json_string(&j, "method", w->method);
		if (*w->note)
			rtp_json_string(&j, "note", w->note);
		rtp_json_end_object(&j);
	}
	rtp_json_end_array(&j);
	rtp_json_begin_array(&j, "estimates");
	for (i = 0; i < nests; i++) {
		const struct estimate *e = &ests[i];

		rtp_json_begin_object(&j, NULL);
		rtp_json_string(&j, "bench", e->bench);
		rtp_json_string(&j, "metric", e->metric);
		rtp_json_string(&j, "key", e->key);
		rtp_json_string(&j, "side", e->side_label);
		rtp_json_int(&j, "new_index", e->new_index);
		rtp_json_string(&j, "figure", "exceeded once in 1e9 samples");
		rtp_json_string(&j, "kind", "estimate: Gumbel fit of block maxima (probability-weighted moments)");
		rtp_json_string(&j, "unit", "ns");
		json_num(&j, "value", e->value, true);
		rtp_json_int(&j, "blocks", (int64_t)e->blocks);
		rtp_json_double(&j, "block_s", e->block_s);
		rtp_json_double(&j, "samples_per_block", e->block_samples);
		rtp_json_double(&j, "ppcc", e->ppcc);
		rtp_json_double(&j, "ks", e->ks);
		rtp_json_end_object(&j);
	}
	rtp_json_end_array(&j);
	rtp_json_begin_object(&j, "verdict");
	rtp_json_string(&j, "status", fail ? "fail" : "pass");
	rtp_json_begin_array(&j, "regressions");
	for (i = 0; i < nrows; i++) {
		char buf[512];

		if (rows[i].v != V_WORSE)
			continue;
		regression_text(&rows[i], sides, nsides, buf, sizeof(buf));
		rtp_json_string(&j, NULL, buf);
	}
	rtp_json_end_array(&j);
	rtp_json_end_object(&j);
	rtp_json_end_object(&j);
	ret = rtp_json_finish(&j);
	if (ret) {
		rtp_afile_abort(&a);
		rtp_error("--json %s: cannot write", path);
		return ret;
	}
	ret = rtp_afile_commit(&a);
	if (ret)
		rtp_error("--json %s: cannot write: %s", path, strerror(-ret));
	return ret;
}

/* ---- main -------------------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("usage: rtproof compare [options] BASE NEW [NEW2 ...]\n"
	      "       rtproof compare [options] LADDER\n"
	      "Compares result documents figure by figure: percentiles (p50, p99, p99.9,\n"
	      "p99.99) with order-statistic intervals from the histograms, the max with a\n"
	      "Mann-Whitney test on the block maxima of the time series, audio xruns as\n"
	      "rates; with several runs per side, changes within the run-to-run spread are\n"
	      "not called.  Each argument is a result document, a suite directory (rtproof\n"
	      "run) or several of either joined by commas (runs of one side).  A\n"
	      "compare-kernels directory alone compares each rung against its rt rung.\n"
	      "\n"
	      "  --confidence C   confidence of every verdict (default 0.95; 0.5 < C < 1)\n"
	      "  --threshold T    smaller changes are not called (default 10%; 10% or 0.1)\n"
	      "  --metric LIST    metric names or bench:name, comma list, or all (default:\n"
	      "                   the headline measure of each bench)\n"
	      "  --json OUT       also write the comparison as JSON (rtproof-compare/1)\n"
	      "  --allow-unfair   compare despite different loads, CPU counts or commands\n"
	      "  -q, --quiet      no table, only the verdict line\n"
	      "\n"
	      "Exit: 0 no significant regression, 2 a significant regression beyond the\n"
	      "threshold (each is named), 1 error.  See docs/compare.md.\n", f);
}

static int parse_fraction(const char *opt, const char *s, double *out, bool pct_ok)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v)) {
		rtp_error("%s %s: not a number", opt, s);
		return -EINVAL;
	}
	if (pct_ok && *end == '%') {
		v /= 100;
		end++;
	}
	if (*end) {
		rtp_error("%s %s: not a number%s", opt, s, pct_ok ? " (like 10% or 0.1)" : "");
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "confidence", required_argument, NULL, 'c' },
		{ "threshold", required_argument, NULL, 't' },
		{ "metric", required_argument, NULL, 'm' },
		{ "json", required_argument, NULL, 'j' },
		{ "allow-unfair", no_argument, NULL, 'u' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .confidence = 0.95, .threshold = 0.10 };
	static struct side sides[MAX_SIDES];
	struct ctx c = { .o = &o };
	int nsides = 0, opt, i, s, ret = RTP_EXIT_ERROR;
	size_t matched = 0, unmatched = 0, k, nworse = 0, nbetter = 0, nsame = 0, nned = 0;
	char first_unmatched[320] = "";
	bool quiet = false, fail;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":q", lopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (parse_fraction("--confidence", optarg, &o.confidence, false))
				return RTP_EXIT_ERROR;
			if (!(o.confidence > 0.5 && o.confidence < 1)) {
				rtp_error("--confidence %s: must be between 0.5 and 1 (e.g. 0.95)", optarg);
				return RTP_EXIT_ERROR;
			}
			break;
		case 't':
			if (parse_fraction("--threshold", optarg, &o.threshold, true))
				return RTP_EXIT_ERROR;
			if (!(o.threshold >= 0 && o.threshold < 10)) {
				rtp_error("--threshold %s: must be 0 %% or more (and under 1000 %%)", optarg);
				return RTP_EXIT_ERROR;
			}
			break;
		case 'm':
			if (!*optarg) {
				rtp_error("--metric '': empty list");
				return RTP_EXIT_ERROR;
			}
			o.metrics = optarg;
			break;
		case 'j':
			if (!*optarg) {
				rtp_error("--json '': empty path");
				return RTP_EXIT_ERROR;
			}
			o.json = optarg;
			break;
		case 'u':
			o.allow_unfair = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'H':
			usage(stdout);
			return RTP_EXIT_PASS;
		case ':':
			rtp_error("%s: option needs a value (see --help)", argv[optind - 1]);
			return RTP_EXIT_ERROR;
		default:
			rtp_error("%s: unknown option (see --help)", argv[optind - 1]);
			return RTP_EXIT_ERROR;
		}
	}
	c.alpha = 1 - o.confidence;
	c.c1 = 1 - c.alpha / 2;
	if (argc - optind < 1) {
		rtp_error("BASE and NEW needed (see --help)");
		return RTP_EXIT_ERROR;
	}
	if (argc - optind == 1) {
		if (!is_ladder(argv[optind])) {
			struct stat st;

			if (stat(argv[optind], &st))
				rtp_error("%s: %s", argv[optind], strerror(errno));
			else if (S_ISDIR(st.st_mode) && !is_ladder(argv[optind]))
				rtp_error("%s: one argument must be a compare-kernels directory (with rung subdirectories); otherwise give BASE and NEW",
					  argv[optind]);
			else
				rtp_error("%s: NEW missing: give BASE and NEW (or a compare-kernels directory)",
					  argv[optind]);
			return RTP_EXIT_ERROR;
		}
		if (load_ladder(sides, &nsides, argv[optind]))
			goto out;
	} else {
		if (argc - optind > MAX_SIDES) {
			rtp_error("at most %d arguments", MAX_SIDES);
			return RTP_EXIT_ERROR;
		}
		for (i = optind; i < argc; i++) {
			if (is_ladder(argv[i])) {
				rtp_error("%s: a compare-kernels directory compares alone (rtproof compare %s)",
					  argv[i], argv[i]);
				goto out;
			}
			if (load_side(&sides[nsides++], argv[i]))
				goto out;
		}
	}
	for (s = 0; s < nsides; s++) {
		size_t r;

		for (r = 0; r < sides[s].nruns; r++)
			if (!sides[s].runs[r].ndocs) {
				rtp_error("%s: no result documents", sides[s].runs[r].path);
				goto out;
			}
	}
	for (s = 1; s < nsides; s++)
		if (check_fair(&sides[0], &sides[s], &o))
			goto out;
	for (s = 1; s < nsides; s++) {
		size_t m0 = matched, u0 = unmatched;

		if (compare_side(&sides[0], &sides[s], s - 1, &c, &matched, &unmatched, first_unmatched,
				 sizeof(first_unmatched))) {
			rtp_error("out of memory");
			goto out;
		}
		if (matched == m0) {
			rtp_error("%s against %s: no metric matches (bench, name, cpu, thread)%s%s", sides[0].label,
				  sides[s].label, unmatched > u0 ? "; e.g. " : "", unmatched > u0 ? first_unmatched : "");
			goto out;
		}
	}
	if (unmatched)
		warn_add("%zu metrics of %s have no match on a new side (e.g. %s)", unmatched, sides[0].label,
			 first_unmatched);
	for (k = 0; k < nrows; k++) {
		switch (rows[k].v) {
		case V_WORSE: nworse++; break;
		case V_BETTER: nbetter++; break;
		case V_SAME: nsame++; break;
		default: nned++; break;
		}
	}
	fail = nworse > 0;
	if (o.json && write_json(o.json, sides, nsides, &c, fail))
		goto out;
	if (!quiet)
		print_text(stdout, sides, nsides, &c);
	printf("\nverdict: %s: %zu figures: %zu worse, %zu better, %zu no significant difference, %zu not enough data\n",
	       fail ? "fail" : "pass", nrows, nworse, nbetter, nsame, nned);
	for (k = 0; k < nrows; k++) {
		char buf[512];

		if (rows[k].v != V_WORSE)
			continue;
		regression_text(&rows[k], sides, nsides, buf, sizeof(buf));
		printf("  regression: %s\n", buf);
	}
	ret = fail ? RTP_EXIT_FAIL : RTP_EXIT_PASS;
out:
	for (s = 0; s < nsides; s++) {
		size_t r, d;

		for (r = 0; r < sides[s].nruns; r++) {
			for (d = 0; d < sides[s].runs[r].ndocs; d++)
				rtp_doc_free(&sides[s].runs[r].docs[d]);
			free(sides[s].runs[r].docs);
		}
	}
	free(rows);
	free(ests);
	return ret;
}
