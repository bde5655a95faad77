// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Many threads, few curves: a document with more than RTP_PLOT_MAX_THREADS
 * per-thread metrics of one name (1024 threads on a 2-CPU machine, one
 * thread on each of 256 CPUs) is shown per CPU.  The threads of a CPU are
 * merged exactly from what the document holds: counts, overflow, missed
 * and releases add, min and max are the extremes, the mean is weighted,
 * the standard deviation pooled, the histogram's buckets add (every thread
 * has the same bucket edges, but for a coarse page, which takes in the
 * fine buckets of others inside it), the percentiles are read again from
 * the merged buckets (upper edge, capped at the max: never understated), and
 * the block series merge on their common time grid (counts add, the
 * block's max is the largest).  The "all" metric is kept as it is.
 */
#include "plot.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "histmerge.h"

struct block {
	double start, count, max;	/* start from the run's start (s) */
};

/* A bucket edge or count of a document (integers by the schema): a
 * negative or NaN one as 0, a huge one as UINT64_MAX, never a cast out of
 * range. */
static uint64_t u64(double v)
{
	return !(v > 0) ? 0 : v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)v;
}

static int cmp_block(const void *a, const void *b)
{
	const struct block *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static bool per_thread(const json_t *m)
{
	return rtp_plot_is_int(json_object_get(m, "cpu")) && json_is_number(json_object_get(m, "thread"));
}

static void add_sum(json_t *dst, json_t *const *ms, size_t n, const char *key)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!json_is_number(json_object_get(ms[i], key)))
			return;
		s += num(ms[i], key);
	}
	json_object_set_new(dst, key, json_real(s));
}

/* The merged buckets into dst's "histogram", and its percentiles. */
static int merge_hist(json_t *dst, json_t *const *ms, size_t n, double count, double max)
{
	static const char *const pn[] = { "50", "90", "99", "99.9", "99.99", "99.999" };
	static const double pv[] = { 50, 90, 99, 99.9, 99.99, 99.999 };
	struct rtp_span *b = NULL, *nb;
	size_t nbk = 0, cap = 0, i, k, out;
	json_t *h = NULL, *arr, *pct;
	double seen;

	for (i = 0; i < n; i++) {
		json_t *src = json_object_get(ms[i], "histogram"), *bs = json_object_get(src, "buckets"), *e;
		size_t j;

		if (!json_is_array(bs)) {
			free(b);
			json_decref(h);
			return 0;	/* a thread without buckets: no histogram, no percentiles */
		}
		if (!h)
			h = json_deep_copy(src);
		json_array_foreach(bs, j, e) {
			if (nbk == cap) {
				cap = cap ? 2 * cap : 256;
				nb = realloc(b, cap * sizeof(*b));
				if (!nb)
					goto nomem;
				b = nb;
			}
			b[nbk].lo = u64(json_number_value(json_array_get(e, 0)));
			b[nbk].hi = u64(json_number_value(json_array_get(e, 1)));
			b[nbk].count = u64(json_number_value(json_array_get(e, 2)));
			nbk++;
		}
	}
	if (!h)
		goto nomem;
	/* equal buckets add; a coarse page takes in the fine buckets inside it */
	out = rtp_span_merge(b, nbk);
	arr = json_array();
	for (i = 0; arr && i < out; i++)
		json_array_append_new(arr, json_pack("[fff]", (double)b[i].lo, (double)b[i].hi,
						     (double)b[i].count));
	json_object_set_new(h, "buckets", arr);
	/* values known only to their power of two: every thread's, not the first's */
	for (i = 0, seen = 0; i < n; i++) {
		double c = num(json_object_get(ms[i], "histogram"), "coarse");

		if (c > 0)
			seen += c;
	}
	if (json_object_get(h, "coarse") || seen > 0)
		json_object_set_new(h, "coarse", json_real(seen));
	json_object_set_new(dst, "histogram", h);
	pct = json_object();
	for (k = 0; pct && k < sizeof(pv) / sizeof(pv[0]); k++) {
		double rank = ceil(pv[k] / 100.0 * count - 1e-9), v = max;

		if (rank < 1)
			rank = 1;
		for (i = 0, seen = 0; i < out; i++) {
			seen += b[i].count;
			if (seen >= rank) {
				v = (double)b[i].hi < max ? (double)b[i].hi : max;
				break;
			}
		}
		json_object_set_new(pct, pn[k], json_real(v));
	}
	json_object_set_new(dst, "percentiles", pct);
	free(b);
	return 0;
nomem:
	free(b);
	json_decref(h);
	return -1;
}

/* The block series on their common grid (the coarsest block length of the threads). */
static int merge_series(json_t *dst, json_t *const *ms, size_t n)
{
	struct block *b = NULL, *nb;
	size_t nbk = 0, cap = 0, i, j, out;
	double bs = 0, t0 = INFINITY, co = 0;
	json_t *s, *arr, *e;

	for (i = 0; i < n; i++) {
		s = json_object_get(ms[i], "series");
		if (!json_is_object(s))
			continue;
		if (num(s, "block_s") > bs)
			bs = num(s, "block_s");
		if (num(s, "t0_s") < t0)
			t0 = num(s, "t0_s");
		if (num(s, "coarsened") > co)
			co = num(s, "coarsened");	/* the coarsest one's, as block_s */
	}
	if (!(bs > 0) || !isfinite(t0))
		return 0;
	for (i = 0; i < n; i++) {
		s = json_object_get(ms[i], "series");
		if (!json_is_object(s))
			continue;
		json_array_foreach(json_object_get(s, "blocks"), j, e) {
			double abs_s = num(s, "t0_s") + json_number_value(json_array_get(e, 0));

			if (nbk == cap) {
				cap = cap ? 2 * cap : 256;
				nb = realloc(b, cap * sizeof(*b));
				if (!nb) {
					free(b);
					return -1;
				}
				b = nb;
			}
			/* the grid is absolute: a block of a finer series lies inside one of bs */
			b[nbk].start = floor((abs_s - t0) / bs + 1e-6) * bs;
			b[nbk].count = json_number_value(json_array_get(e, 1));
			b[nbk].max = json_number_value(json_array_get(e, 2));
			nbk++;
		}
	}
	if (nbk)	/* b is NULL when no thread had a block */
		qsort(b, nbk, sizeof(*b), cmp_block);
	for (i = 0, out = 0; i < nbk; i++) {
		if (out && fabs(b[out - 1].start - b[i].start) < bs / 2) {
			b[out - 1].count += b[i].count;
			if (b[i].max > b[out - 1].max)
				b[out - 1].max = b[i].max;
		} else {
			b[out++] = b[i];
		}
	}
	/* the first thread that has a series gives the merged one its fields */
	for (i = 0; i < n && !json_is_object(json_object_get(ms[i], "series")); i++)
		;
	s = json_deep_copy(json_object_get(ms[i], "series"));
	arr = json_array();
	if (!s || !arr) {
		free(b);
		json_decref(s);
		json_decref(arr);
		return -1;
	}
	for (i = 0; i < out; i++)
		json_array_append_new(arr, json_pack("[fff]", b[i].start, b[i].count, b[i].max));
	json_object_set_new(s, "t0_s", json_real(t0));
	json_object_set_new(s, "block_s", json_real(bs));
	json_object_set_new(s, "coarsened", json_real(co));
	json_object_set_new(s, "blocks", arr);
	json_object_set_new(dst, "series", s);
	free(b);
	return 0;
}

/* One metric for the threads ms[0..n) of one CPU. */
static json_t *merge(json_t *const *ms, size_t n)
{
	double count = 0, sum = 0, mn = INFINITY, mx = -INFINITY, mean, ss = 0;
	json_t *m = json_object();
	size_t i;

	if (!m)
		return NULL;
	json_object_set(m, "name", json_object_get(ms[0], "name"));
	json_object_set(m, "unit", json_object_get(ms[0], "unit"));
	json_object_set(m, "cpu", json_object_get(ms[0], "cpu"));
	json_object_set_new(m, "thread", json_string("merged"));
	json_object_set_new(m, "threads", json_real((double)n));
	for (i = 0; i < n; i++) {
		double c = num(ms[i], "count");

		if (!(c > 0))
			continue;
		count += c;
		sum += c * num(ms[i], "mean");
		if (num(ms[i], "min") < mn)
			mn = num(ms[i], "min");
		if (num(ms[i], "max") > mx)
			mx = num(ms[i], "max");
	}
	json_object_set_new(m, "count", json_real(count));
	if (count > 0) {
		mean = sum / count;
		for (i = 0; i < n; i++) {
			double c = num(ms[i], "count"), sd = num(ms[i], "stddev"), d = num(ms[i], "mean") - mean;

			if (c > 0)
				ss += (c - 1) * (isfinite(sd) ? sd * sd : 0) + c * d * d;
		}
		json_object_set_new(m, "min", json_real(mn));
		json_object_set_new(m, "mean", json_real(mean));
		json_object_set_new(m, "max", json_real(mx));
		json_object_set_new(m, "stddev", json_real(count > 1 ? sqrt(ss / (count - 1)) : 0));
	} else {
		json_object_set_new(m, "min", json_null());
		json_object_set_new(m, "mean", json_null());
		json_object_set_new(m, "max", json_null());
		json_object_set_new(m, "stddev", json_null());
	}
	add_sum(m, ms, n, "overflow");
	add_sum(m, ms, n, "missed");
	add_sum(m, ms, n, "releases");
	if (merge_hist(m, ms, n, count, mx) || merge_series(m, ms, n)) {
		json_decref(m);
		return NULL;
	}
	return m;
}

int rtp_plot_per_cpu(json_t *doc)
{
	json_t *metrics = json_object_get(doc, "metrics"), *out, *m, *m2, **group = NULL;
	size_t i, j, n, nm;
	int ret = 0;

	if (!json_is_array(metrics))
		return 0;
	nm = json_array_size(metrics);
	out = json_array();
	group = calloc(nm ? nm : 1, sizeof(*group));
	if (!out || !group)
		goto nomem;
	json_array_foreach(metrics, i, m) {
		const char *name = rtp_plot_str(m, "name", "");
		double cpu = num(m, "cpu");
		size_t threads = 0;

		if (!per_thread(m)) {
			json_array_append(out, m);
			continue;
		}
		/* per-thread metrics of this name: few enough to show one by one? */
		json_array_foreach(metrics, j, m2)
			if (per_thread(m2) && !strcmp(rtp_plot_str(m2, "name", ""), name))
				threads++;
		if (threads <= RTP_PLOT_MAX_THREADS) {
			json_array_append(out, m);
			continue;
		}
		/* the first of its CPU's threads stands for them all */
		for (j = 0, n = 0; j < nm; j++) {
			m2 = json_array_get(metrics, j);
			if (per_thread(m2) && !strcmp(rtp_plot_str(m2, "name", ""), name) &&
			    num(m2, "cpu") == cpu) {
				if (j < i)
					break;
				group[n++] = m2;
			}
		}
		if (j < nm && n == 0)
			continue;	/* merged already */
		m2 = merge(group, n);
		if (!m2)
			goto nomem;
		json_array_append_new(out, m2);
	}
	json_object_set_new(doc, "metrics", out);
	free(group);
	return ret;
nomem:
	json_decref(out);
	free(group);
	return -1;
}
