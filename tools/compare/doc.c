// SPDX-License-Identifier: GPL-2.0-or-later
#include "doc.h"
#include "resultdir.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RTP_DOC_SCHEMA	"rtproof/1"

/* Keys that tell metrics of one name apart (docs/results.md, by bench). */
static const char *const id_keys[] = {
	"cpu", "thread", "span", "protocol", "kind", "threads", "variant", "lock", "part",
};

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * Numbers are decoded as doubles (JSON_DECODE_INT_AS_REAL): documents may
 * hold unsigned 64-bit values (checksums) beyond jansson's int64.  The
 * figures read here are exact integers below 2^53.
 */
static bool is_int(json_t *v)
{
	double d;

	if (!json_is_number(v))
		return false;
	d = json_number_value(v);
	return d == floor(d) && fabs(d) <= 9007199254740992.0;
}

static void read_events(struct rtp_doc *d, json_t *ev);

static bool get_u64(json_t *v, uint64_t *out)
{
	if (!is_int(v) || json_number_value(v) < 0)
		return false;
	*out = (uint64_t)json_number_value(v);
	return true;
}

static void copy_str(char *dst, size_t len, json_t *v)
{
	const char *s = json_is_string(v) ? json_string_value(v) : "";

	snprintf(dst, len, "%s", s);
}

static int read_key(struct rtp_doc_metric *m, json_t *jm, char *err, size_t errlen, size_t idx)
{
	size_t i, off = 0;

	m->key[0] = 0;
	for (i = 0; i < sizeof(id_keys) / sizeof(id_keys[0]); i++) {
		json_t *v = json_object_get(jm, id_keys[i]);
		char val[64];

		if (!v)
			continue;
		if (is_int(v))
			snprintf(val, sizeof(val), "%lld", (long long)json_number_value(v));
		else if (json_is_string(v) && json_string_length(v) < sizeof(val) &&
			 !strpbrk(json_string_value(v), " \t\n"))
			snprintf(val, sizeof(val), "%s", json_string_value(v));
		else
			return fail(err, errlen, "metrics[%zu].%s: must be an integer or a word",
				    idx, id_keys[i]);
		off += (size_t)snprintf(m->key + off, off < sizeof(m->key) ? sizeof(m->key) - off : 0,
					"%s%s %s", off ? " " : "", id_keys[i], val);
		if (off >= sizeof(m->key))
			return fail(err, errlen, "metrics[%zu]: identity too long", idx);
	}
	return 0;
}

static int read_hist(struct rtp_doc_metric *m, json_t *h, char *err, size_t errlen, size_t idx)
{
	json_t *b = json_object_get(h, "buckets"), *e;
	uint64_t sum = m->overflow, prev_hi = 0;
	size_t i;

	if (!json_is_object(h) || !json_is_array(b))
		return fail(err, errlen, "metrics[%zu].histogram: no buckets array", idx);
	m->nbuckets = json_array_size(b);
	m->buckets = calloc(m->nbuckets ? m->nbuckets : 1, sizeof(*m->buckets));
	if (!m->buckets)
		return -ENOMEM;
	json_array_foreach(b, i, e) {
		struct rtp_doc_bucket *k = &m->buckets[i];

		if (!json_is_array(e) || json_array_size(e) != 3 || !get_u64(json_array_get(e, 0), &k->lo) ||
		    !get_u64(json_array_get(e, 1), &k->hi) || !get_u64(json_array_get(e, 2), &k->count))
			return fail(err, errlen, "metrics[%zu].histogram.buckets[%zu]: not [lower, upper, count]",
				    idx, i);
		if (k->hi < k->lo || (i && k->lo <= prev_hi))
			return fail(err, errlen, "metrics[%zu].histogram.buckets[%zu]: edges out of order",
				    idx, i);
		if (m->has_minmax && k->count && (k->hi < m->min || k->lo > m->max))
			return fail(err, errlen, "metrics[%zu].histogram.buckets[%zu]: outside [min, max]",
				    idx, i);
		prev_hi = k->hi;
		if (__builtin_add_overflow(sum, k->count, &sum))
			return fail(err, errlen, "metrics[%zu].histogram: counts overflow", idx);
	}
	if (sum != m->count)
		return fail(err, errlen, "metrics[%zu].histogram: buckets and overflow hold %llu samples, count says %llu",
			    idx, (unsigned long long)sum, (unsigned long long)m->count);
	return 0;
}

static int read_series(struct rtp_doc_metric *m, json_t *s, char *err, size_t errlen, size_t idx)
{
	json_t *b = json_object_get(s, "blocks"), *e, *t0 = json_object_get(s, "t0_s"),
	       *bs = json_object_get(s, "block_s"), *co = json_object_get(s, "coarsened");
	const char *kind = json_string_value(json_object_get(s, "kind"));
	uint64_t sum = 0, c;
	double prev = -1;
	size_t i;

	if (!json_is_object(s) || !kind || strcmp(kind, "time-blocks") || !json_is_number(t0) ||
	    !json_is_number(bs) || !json_is_array(b) || !get_u64(co, &c))
		return fail(err, errlen, "metrics[%zu].series: not a time-blocks series", idx);
	m->t0_s = json_number_value(t0);
	m->block_s = json_number_value(bs);
	m->coarsened = c > 64 ? 64 : (unsigned)c;
	if (!(m->block_s > 0) || !isfinite(m->block_s) || !isfinite(m->t0_s))
		return fail(err, errlen, "metrics[%zu].series: block_s must be positive", idx);
	m->nblocks = json_array_size(b);
	m->blocks = calloc(m->nblocks ? m->nblocks : 1, sizeof(*m->blocks));
	if (!m->blocks)
		return -ENOMEM;
	json_array_foreach(b, i, e) {
		struct rtp_doc_block *k = &m->blocks[i];
		json_t *st = json_array_get(e, 0);

		if (!json_is_array(e) || json_array_size(e) != 3 || !json_is_number(st) ||
		    !get_u64(json_array_get(e, 1), &k->count) || !get_u64(json_array_get(e, 2), &k->max))
			return fail(err, errlen, "metrics[%zu].series.blocks[%zu]: not [start_s, count, max]", idx, i);
		k->start_s = json_number_value(st);
		if (!(k->start_s > prev) || !isfinite(k->start_s) || !k->count)
			return fail(err, errlen, "metrics[%zu].series.blocks[%zu]: out of order or empty", idx, i);
		if (!m->has_minmax || k->max > m->max)
			return fail(err, errlen, "metrics[%zu].series.blocks[%zu]: max above the metric's max",
				    idx, i);
		prev = k->start_s;
		if (__builtin_add_overflow(sum, k->count, &sum))
			return fail(err, errlen, "metrics[%zu].series: counts overflow", idx);
	}
	if (sum > m->count)
		return fail(err, errlen, "metrics[%zu].series: blocks hold more samples than count", idx);
	m->has_series = true;
	return 0;
}

/* a positive finite number, else false */
static bool get_pos(json_t *v, double *out)
{
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || !(json_number_value(v) > 0))
		return false;
	*out = json_number_value(v);
	return true;
}

/* ops_per_s (a throughput metric) and, with it, the rounds' mean and stddev */
static int read_rate(struct rtp_doc_metric *m, json_t *jm, char *err, size_t errlen, size_t idx)
{
	json_t *r = json_object_get(jm, "ops_per_s"), *sd = json_object_get(jm, "stddev");

	if (!r || json_is_null(r))
		return 0;
	if (!get_pos(r, &m->ops_per_s) || !m->count)
		return fail(err, errlen, "metrics[%zu] (%s): ops_per_s must be a positive number with count > 0",
			    idx, m->name);
	if (!get_pos(json_object_get(jm, "mean"), &m->mean) || !json_is_number(sd) ||
	    !isfinite(json_number_value(sd)) || json_number_value(sd) < 0)
		return fail(err, errlen, "metrics[%zu] (%s): a throughput metric needs mean > 0 and stddev >= 0",
			    idx, m->name);
	m->stddev = json_number_value(sd);
	m->has_rate = true;
	return 0;
}

static int read_metric(struct rtp_doc_metric *m, json_t *jm, char *err, size_t errlen, size_t idx)
{
	json_t *name = json_object_get(jm, "name"), *unit = json_object_get(jm, "unit");
	json_t *mn = json_object_get(jm, "min"), *mx = json_object_get(jm, "max"), *h, *s;
	int ret;

	if (!json_is_object(jm))
		return fail(err, errlen, "metrics[%zu]: not an object", idx);
	if (!json_is_string(name) || !json_string_length(name) || json_string_length(name) >= sizeof(m->name))
		return fail(err, errlen, "metrics[%zu]: no name", idx);
	copy_str(m->name, sizeof(m->name), name);
	if (!json_is_string(unit) || json_string_length(unit) >= sizeof(m->unit))
		return fail(err, errlen, "metrics[%zu] (%s): no unit", idx, m->name);
	copy_str(m->unit, sizeof(m->unit), unit);
	ret = read_key(m, jm, err, errlen, idx);
	if (ret)
		return ret;
	if (!get_u64(json_object_get(jm, "count"), &m->count))
		return fail(err, errlen, "metrics[%zu] (%s): count must be a non-negative integer", idx, m->name);
	if (json_object_get(jm, "overflow") && !get_u64(json_object_get(jm, "overflow"), &m->overflow))
		return fail(err, errlen, "metrics[%zu] (%s): bad overflow", idx, m->name);
	if (m->count) {
		if (!get_u64(mn, &m->min) || !get_u64(mx, &m->max) || m->min > m->max)
			return fail(err, errlen, "metrics[%zu] (%s): min and max must be integers, min <= max",
				    idx, m->name);
		m->has_minmax = true;
	}
	ret = read_rate(m, jm, err, errlen, idx);
	if (ret)
		return ret;
	h = json_object_get(jm, "histogram");
	if (h && !json_is_null(h)) {
		ret = read_hist(m, h, err, errlen, idx);
		if (ret)
			return ret;
	}
	s = json_object_get(jm, "series");
	if (s && !json_is_null(s)) {
		ret = read_series(m, s, err, errlen, idx);
		if (ret)
			return ret;
	}
	return 0;
}

static int read_command(struct rtp_doc *d, json_t *c)
{
	size_t i, len = 1;
	json_t *a;
	char *p;

	if (!json_is_array(c))
		return 0;
	json_array_foreach(c, i, a)
		len += (json_is_string(a) ? json_string_length(a) : 0) + 1;
	d->command = calloc(1, len);
	if (!d->command)
		return -ENOMEM;
	p = d->command;
	json_array_foreach(c, i, a) {
		if (!json_is_string(a))
			continue;
		p += sprintf(p, "%s%s", i ? " " : "", json_string_value(a));
	}
	return 0;
}


static int cmp_metric(const void *a, const void *b)
{
	const struct rtp_doc_metric *x = *(const struct rtp_doc_metric *const *)a;
	const struct rtp_doc_metric *y = *(const struct rtp_doc_metric *const *)b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->key, y->key);
	/* ties by position, so the error names the later of the two */
	return c ? c : (x < y ? -1 : x > y);
}

/*
 * No metric twice: sorted, so a crafted document with a million metrics
 * costs n log n comparisons, not n^2.
 */
static int check_unique(const struct rtp_doc *d, char *err, size_t errlen)
{
	const struct rtp_doc_metric **v;
	size_t i;
	int ret = 0;

	if (d->nmetrics < 2)
		return 0;
	v = malloc(d->nmetrics * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < d->nmetrics; i++)
		v[i] = &d->metrics[i];
	qsort(v, d->nmetrics, sizeof(*v), cmp_metric);
	for (i = 1; i < d->nmetrics; i++)
		if (!strcmp(v[i - 1]->name, v[i]->name) && !strcmp(v[i - 1]->key, v[i]->key)) {
			ret = fail(err, errlen, "metrics[%zu]: %s %s appears twice",
				   (size_t)(v[i] - d->metrics), v[i]->name, v[i]->key);
			break;
		}
	free(v);
	return ret;
}

/*
 * events.explain.by_culprit[] (untrusted: rows of another shape are
 * skipped), summed by kind, name and kthread; at most RTP_DOC_MAX_CULPRITS.
 */
static int read_culprits(struct rtp_doc *d, json_t *rows)
{
	size_t i, k;
	json_t *r;

	if (!json_is_array(rows))
		return 0;
	d->has_culprits = true;
	d->culprits = calloc(RTP_DOC_MAX_CULPRITS, sizeof(*d->culprits));
	if (!d->culprits)
		return -ENOMEM;
	json_array_foreach(rows, i, r) {
		struct rtp_doc_culprit c;
		json_t *kind = json_object_get(r, "kind"), *name = json_object_get(r, "name"), *kt;

		memset(&c, 0, sizeof(c));
		if (!json_is_string(kind) || !json_is_string(name) || !get_u64(json_object_get(r, "ns"), &c.ns) ||
		    !get_u64(json_object_get(r, "outliers"), &c.outliers))
			continue;
		copy_str(c.kind, sizeof(c.kind), kind);
		copy_str(c.name, sizeof(c.name), name);
		kt = json_object_get(r, "kthread");
		c.kthread = json_is_boolean(kt) ? json_is_true(kt) : -1;
		for (k = 0; k < d->nculprits; k++)
			if (!strcmp(d->culprits[k].kind, c.kind) && !strcmp(d->culprits[k].name, c.name) &&
			    d->culprits[k].kthread == c.kthread)
				break;
		if (k == d->nculprits) {
			if (k == RTP_DOC_MAX_CULPRITS)
				continue;
			d->culprits[d->nculprits++] = c;
		} else {
			d->culprits[k].ns += c.ns;
			d->culprits[k].outliers += c.outliers;
		}
	}
	return 0;
}

static int parse_root(struct rtp_doc *d, json_t *root, char *err, size_t errlen)
{
	json_t *schema, *tool, *sys, *metrics, *m, *v, *params, *ev;
	size_t i;
	int ret;

	if (!json_is_object(root))
		return fail(err, errlen, "not an rtproof/1 document (the top level is not an object)");
	schema = json_object_get(root, "schema");
	if (!json_is_string(schema))
		return fail(err, errlen, "not an rtproof/1 document (no schema)");
	if (strcmp(json_string_value(schema), RTP_DOC_SCHEMA)) {
		fail(err, errlen, "not an rtproof/1 document (schema \"%.60s\")", json_string_value(schema));
		return -EPROTO;
	}
	tool = json_object_get(root, "tool");
	if (!json_is_string(tool) || strncmp(json_string_value(tool), "rtproof-", 8) ||
	    json_string_length(tool) >= sizeof(d->tool) || json_string_length(tool) <= 8)
		return fail(err, errlen, "no tool (\"rtproof-NAME\")");
	copy_str(d->tool, sizeof(d->tool), tool);
	snprintf(d->bench, sizeof(d->bench), "%s", d->tool + 8);
	sys = json_object_get(root, "system");
	copy_str(d->kernel_release, sizeof(d->kernel_release), json_object_get(sys, "kernel_release"));
	copy_str(d->preempt, sizeof(d->preempt), json_object_get(sys, "preempt"));
	copy_str(d->hostname, sizeof(d->hostname), json_object_get(sys, "hostname"));
	copy_str(d->cmdline, sizeof(d->cmdline), json_object_get(sys, "cmdline"));
	v = json_object_get(sys, "cpus_online");
	d->cpus_online = is_int(v) && fabs(json_number_value(v)) < 1e9 ? (int)json_number_value(v) : -1;
	d->virtualized = json_is_true(json_object_get(sys, "virtualized"));
	copy_str(d->load, sizeof(d->load), json_object_get(json_object_get(root, "load"), "name"));
	copy_str(d->status, sizeof(d->status), json_object_get(json_object_get(root, "verdict"), "status"));
	v = json_object_get(root, "duration_s");
	d->duration_s = json_is_number(v) ? json_number_value(v) : -1;
	params = json_object_get(root, "params");
	if (params) {
		d->params = json_dumps(params, JSON_COMPACT | JSON_SORT_KEYS);
		if (!d->params)
			return -ENOMEM;
	}
	ret = read_command(d, json_object_get(root, "command"));
	if (ret)
		return ret;
	ev = json_object_get(root, "events");
	if (json_object_get(ev, "xruns")) {
		if (!get_u64(json_object_get(ev, "xruns"), &d->xruns))
			return fail(err, errlen, "events.xruns: must be a non-negative integer");
		d->has_xruns = true;
	}
	read_events(d, ev);
	ret = read_culprits(d, json_object_get(json_object_get(ev, "explain"), "by_culprit"));
	if (ret)
		return ret;
	metrics = json_object_get(root, "metrics");
	if (!json_is_array(metrics))
		return fail(err, errlen, "no metrics array");
	if (json_array_size(metrics) > RTP_DOC_MAX_METRICS)
		return fail(err, errlen, "%zu metrics: more than %d, the most a result document may hold",
			    json_array_size(metrics), RTP_DOC_MAX_METRICS);
	d->nmetrics = json_array_size(metrics);
	d->metrics = calloc(d->nmetrics ? d->nmetrics : 1, sizeof(*d->metrics));
	if (!d->metrics)
		return -ENOMEM;
	json_array_foreach(metrics, i, m) {
		ret = read_metric(&d->metrics[i], m, err, errlen, i);
		if (ret)
			return ret;
	}
	return check_unique(d, err, errlen);
}

int rtp_doc_parse(struct rtp_doc *d, const char *buf, size_t len, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root;
	int ret;

	memset(d, 0, sizeof(*d));
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
	if (!root) {
		if (len == 0)
			return fail(err, errlen, "empty file, not JSON");
		return fail(err, errlen, "not JSON (line %d column %d: %s)", je.line, je.column, je.text);
	}
	ret = parse_root(d, root, err, errlen);
	json_decref(root);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		rtp_doc_free(d);
	}
	return ret;
}

int rtp_doc_load(struct rtp_doc *d, const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f;
	int ret;

	memset(d, 0, sizeof(*d));
	f = fopen(path, "rb");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return ret;
	}
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				ret = -ENOMEM;
				snprintf(err, errlen, "out of memory");
				goto out_close;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		ret = -EIO;
		snprintf(err, errlen, "cannot read");
		goto out_close;
	}
	ret = rtp_doc_parse(d, buf, len, err, errlen);
out_close:
	fclose(f);
	free(buf);
	return ret;
}

static bool is_count_name(const char *k)
{
	size_t l = strlen(k);

	return !(l > 3 && (!strcmp(k + l - 3, "_ns") || !strcmp(k + l - 3, "_us"))) &&
	       !(l > 4 && !strcmp(k + l - 4, "_pct")) && strcmp(k, "thread") && strcmp(k, "priority") &&
	       strcmp(k, "threads") && strcmp(k, "cpu");
}

static void add_event(struct rtp_doc *d, const char *prefix, const char *k, json_t *v)
{
	uint64_t u;

	if (d->nevents >= RTP_DOC_MAX_EVENTS || !is_count_name(k) || !get_u64(v, &u))
		return;
	if (strlen(prefix) + strlen(k) + 2 > sizeof(d->events[0].name))
		return;
	snprintf(d->events[d->nevents].name, sizeof(d->events[0].name), "%s%s%s", prefix, *prefix ? "." : "", k);
	d->events[d->nevents++].value = u;
}

/*
 * Not incidents: counts of the work done (wake-ups, periods written,
 * records read) and audio's buffer advice (a model's estimate).  More of
 * them is not worse; they are not compared as event rates.
 */
static bool is_work_count(const char *k)
{
	static const char *const work[] = { "wakeups", "periods_written", "records", "fired", "delivered",
					     "buffer_advice" };
	size_t i;

	for (i = 0; i < sizeof(work) / sizeof(work[0]); i++)
		if (!strcmp(k, work[i]))
			return true;
	return false;
}

/* Counts from events (untrusted: only what has the shape of a count is kept). */
static void read_events(struct rtp_doc *d, json_t *ev)
{
	const char *k, *k2;
	json_t *v, *v2;

	if (!json_is_object(ev))
		return;
	json_object_foreach(ev, k, v) {
		if (is_work_count(k))
			continue;
		if (json_is_object(v) && strlen(k) < 32) {
			json_object_foreach(v, k2, v2)
				add_event(d, k, k2, v2);
		} else {
			add_event(d, "", k, v);
		}
	}
}

void rtp_doc_free(struct rtp_doc *d)
{
	size_t i;

	for (i = 0; i < d->nmetrics; i++) {
		free(d->metrics[i].buckets);
		free(d->metrics[i].blocks);
	}
	free(d->metrics);
	free(d->params);
	free(d->command);
	free(d->culprits);
	memset(d, 0, sizeof(*d));
}

const struct rtp_doc_metric *rtp_doc_find(const struct rtp_doc *d, const char *name,
					  const char *key)
{
	size_t i;

	for (i = 0; i < d->nmetrics; i++)
		if (!strcmp(d->metrics[i].name, name) && !strcmp(d->metrics[i].key, key))
			return &d->metrics[i];
	return NULL;
}
