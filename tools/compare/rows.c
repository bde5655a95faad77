// SPDX-License-Identifier: GPL-2.0-or-later
/* rtproof-compare: one metric pooled over a side's runs, and each row's verdict. */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define MIN_BLOCKS	8	/* block maxima per side for the rank test */

/* ---- pooled figures of one metric on one side --------------------------- */

void pooled_free(struct pooled *p)
{
	free(p->b);
	free(p->bmax);
	free(p->brun);
	memset(p, 0, sizeof(*p));
}

/*
 * Block maxima of a metric coarsened to block_s.  Every non-empty block is
 * kept: a block a stall emptied of samples is exactly the one whose max
 * matters, so a short count is never a reason to leave it out.
 */
size_t block_maxima(const struct rtp_doc_metric *m, double block_s, double *out, double *samples)
{
	size_t i, k = 0, n = 0;
	int f = 0;
	double *cnt, *mx;
	long long last = -1;

	*samples = 0;
	if (!m->nblocks || !(m->block_s > 0))
		return 0;
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
	k++;
	for (i = 0; i < k; i++)
		if (cnt[i] > 0)
			out[n++] = mx[i];
	memcpy(mx, cnt, k * sizeof(double));
	*samples = rtp_median(mx, k);
	free(cnt);
	free(mx);
	return n;
}

int pool_metrics(struct pooled *p, const struct rtp_doc_metric *const *ms, size_t nm, double block_s)
{
	size_t r, i, tot = 0, k = 0;

	memset(p, 0, sizeof(*p));
	p->min = UINT64_MAX;
	p->have_hist = p->have_series = true;
	for (r = 0; r < nm; r++) {
		const struct rtp_doc_metric *m = ms[r];

		if (!m)
			continue;
		if (p->nruns >= MAX_RUNS)
			return -E2BIG;
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
		if (!m->has_series || !m->nblocks)
			p->have_series = false;
	}
	if (!p->nruns)
		return -ENOENT;
	if (!p->count)
		p->min = 0;
	if (p->have_hist) {
		for (r = 0; r < p->nruns; r++)
			tot += p->per_run[r]->nbuckets;
		p->b = malloc((tot ? tot : 1) * sizeof(*p->b));
		if (!p->b)
			return -ENOMEM;
		for (r = 0; r < p->nruns; r++)
			for (i = 0; i < p->per_run[r]->nbuckets; i++) {
				const struct rtp_doc_bucket *d = &p->per_run[r]->buckets[i];

				p->b[k++] = (struct rtp_span){ d->lo, d->hi, d->count };
			}
		/* coarse pages overlap other runs' fine buckets: spanned, never split */
		p->nbuckets = rtp_span_merge(p->b, tot);
	}
	if (p->have_series) {
		double bs = block_s;

		tot = 0;
		for (r = 0; r < p->nruns; r++) {
			tot += p->per_run[r]->nblocks;
			if (p->per_run[r]->block_s > bs)
				bs = p->per_run[r]->block_s;
		}
		p->block_s = bs;
		p->bmax = malloc((tot ? tot : 1) * sizeof(double));
		p->brun = malloc((tot ? tot : 1) * sizeof(size_t));
		if (!p->bmax || !p->brun)
			return -ENOMEM;
		for (r = 0; r < p->nruns; r++) {
			const struct rtp_doc_metric *m = p->per_run[r];
			double smp = 0;
			size_t n0 = p->nbmax, j;

			p->nbmax += block_maxima(m, bs, p->bmax + p->nbmax, &smp);
			for (j = n0; j < p->nbmax; j++)
				p->brun[j] = r;
			p->block_samples += smp / (double)p->nruns;
			p->duration_s += m->blocks[m->nblocks - 1].start_s + m->block_s - m->blocks[0].start_s;
		}
	}
	return 0;
}

int pool(struct pooled *p, const struct side *s, const char *bench, const char *name,
	 const char *key, double block_s)
{
	const struct rtp_doc_metric *ms[MAX_RUNS];
	size_t r;

	for (r = 0; r < s->nruns; r++) {
		const struct rtp_doc *d = run_doc(&s->runs[r], bench);

		ms[r] = d ? rtp_doc_find(d, name, key) : NULL;
	}
	return pool_metrics(p, ms, s->nruns, block_s);
}

void rank_value(const struct pooled *p, uint64_t r, double *lo, double *hi)
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
	struct pooled p;
	uint64_t r = (uint64_t)ceil(q * (double)m->count);
	double lo = NAN, hi = NAN;

	if (pool_metrics(&p, &m, 1, 0)) {
		pooled_free(&p);
		return NAN;
	}
	if (!r)
		r = 1;
	rank_value(&p, r, &lo, &hi);
	pooled_free(&p);
	return lower ? lo : hi;
}

/* ---- verdicts ---------------------------------------------------------- */

static void set_ratio(struct row *w)
{
	if (w->base > 0)
		w->ratio = w->new / w->base;
	else
		w->ratio = w->new > 0 ? INFINITY : 1;
}

/* Rank test on block maxima: +1 new larger, -1 smaller, 0 neither; -2 not enough blocks. */
static int block_test(const struct pooled *b, const struct pooled *n, const struct ctx *c, double *pval)
{
	double pg, pl, auc;

	if (!b->have_series || !n->have_series || b->nbmax < MIN_BLOCKS || n->nbmax < MIN_BLOCKS)
		return -2;
	if (rtp_mann_whitney(b->bmax, b->nbmax, n->bmax, n->nbmax, &pg, &pl, &auc))
		return -2;
	*pval = pg < pl ? pg : pl;
	if (pg < c->alpha / 2)
		return 1;
	if (pl < c->alpha / 2)
		return -1;
	return 0;
}

/*
 * The runs' point values must separate in the direction called: for a
 * worse figure where higher is worse, every new run above every base
 * run; where lower is worse, every new run below every base run.
 */
enum verdict spread_check(struct row *w, enum verdict v)
{
	bool up;	/* the call says new is higher */

	if (!w->spread || (v != V_WORSE && v != V_BETTER))
		return v;
	up = (v == V_WORSE) == w->higher_is_worse;
	if (up && w->new_spread[0] > w->base_spread[1])
		return v;
	if (!up && w->new_spread[1] < w->base_spread[0])
		return v;
	if (w->spread_halves) {
		/* one run a side: a change seen in one half only may be the day's */
		snprintf(w->note, sizeof(w->note),
			 "not in both halves of each run (one run a side: the halves stand in for runs; run each side 3 times)");
		return V_UNDECIDED;
	}
	snprintf(w->note, sizeof(w->note), "within the run-to-run spread");
	return V_SAME;
}

/*
 * One run on a side: a percentile's interval knows the run's own sampling
 * spread, not the spread from run to run, and on a shared machine a whole
 * run sits higher or lower than the next (idle pairs here: p99 +20 to +57
 * %, p50 up to +27 %, the same in both halves).  Such a run cannot call a
 * change under ONE_RUN_FACTOR: it is undecided, and says to run each side
 * 3 times.  Beyond the factor (the interval's near end) the call stands.
 */
#define ONE_RUN_FACTOR	2.0

enum verdict one_run_check(struct row *w, const struct pooled *b, const struct pooled *n, enum verdict v)
{
	double near;

	if ((v != V_WORSE && v != V_BETTER) || (b->nruns > 1 && n->nruns > 1))
		return v;
	/* the interval's end nearest to no change, as a factor >= 1 */
	if (w->new_ci[0] > w->base_ci[1])
		near = w->base_ci[1] > 0 ? w->new_ci[0] / w->base_ci[1] : INFINITY;
	else
		near = w->new_ci[1] > 0 ? w->base_ci[0] / w->new_ci[1] : INFINITY;
	if (near >= ONE_RUN_FACTOR)
		return v;
	snprintf(w->note, sizeof(w->note),
		 "one run a side: a shift under x%.0f may be the day's, not the change (run each side 3 times)",
		 ONE_RUN_FACTOR);
	return V_UNDECIDED;
}

/*
 * One run on each side: a run's two halves (by time) stand in for runs,
 * so that a tail change must show throughout both runs, not in a burst
 * of one (this host's own stalls come and go over seconds to minutes).
 * A half's figure comes from its block maxima: its max for the max row,
 * its median block max for a percentile where a block holds about one
 * sample beyond it (the typical block's worst, which a burst in a few
 * blocks does not move; where blocks hold many, their maxima say nothing
 * about the percentile, and no halves are taken).  Not for sides of
 * several runs (the runs' spread decides) nor without a series.
 */
#define HALF_BLOCKS	4	/* block maxima per half, at least */

static bool half_figures(const struct pooled *p, bool use_max, double out[2])
{
	size_t h, i, n[2];
	double *v;

	if (p->nruns != 1 || !p->have_series || p->nbmax < 2 * HALF_BLOCKS)
		return false;
	v = malloc(p->nbmax * sizeof(double));
	if (!v)
		return false;
	memcpy(v, p->bmax, p->nbmax * sizeof(double));
	h = p->nbmax / 2;
	n[0] = h;
	n[1] = p->nbmax - h;
	for (i = 0; i < 2; i++) {
		double *x = v + (i ? h : 0);
		size_t k;

		if (use_max) {
			out[i] = x[0];
			for (k = 1; k < n[i]; k++)
				out[i] = fmax(out[i], x[k]);
		} else {
			out[i] = rtp_median(x, n[i]);
		}
	}
	free(v);
	return true;
}

static void halves_spread(struct row *w, const struct pooled *b, const struct pooled *n, bool use_max)
{
	double hb[2], hn[2];

	if (w->spread || !half_figures(b, use_max, hb) || !half_figures(n, use_max, hn))
		return;
	w->spread = w->spread_halves = true;
	w->base_spread[0] = fmin(hb[0], hb[1]);
	w->base_spread[1] = fmax(hb[0], hb[1]);
	w->new_spread[0] = fmin(hn[0], hn[1]);
	w->new_spread[1] = fmax(hn[0], hn[1]);
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

static double fig_max(const struct rtp_doc_metric *m, double q)
{
	(void)q;
	return (double)m->max;
}

static double fig_min(const struct rtp_doc_metric *m, double q)
{
	(void)q;
	return (double)m->min;
}

/*
 * How many independent samples' worth a side's histogram holds at the
 * q-quantile: n times the extremal index at that level (blocks
 * estimator on the time series, wctest.c).  Without a series, or where
 * the series cannot tell, *how says so and n is returned.
 */
static double side_neff(const struct pooled *p, double q, bool lower_tail, const char **how)
{
	double lo, hi, theta = 1, qq = lower_tail ? 0.99 : q;
	uint64_t r = (uint64_t)ceil(qq * (double)p->count);
	size_t k = p->components > 1 ? p->components : 1;

	if (!p->have_series || !p->nbmax) {
		*how = k > 1 ? "no time series: samples as if independent; an aggregate counts as one thread"
			     : "no time series: samples as if independent";
	} else {
		/* the level: just below the quantile's bucket, so that the bucket counts */
		rank_value(p, r ? r : 1, &lo, &hi);
		theta = cmp_extremal_index(p, lo - 1);
		if (isnan(theta)) {
			theta = 1;
			*how = k > 1 ? "no sample above the level: as if independent; an aggregate counts as one thread"
				     : "no sample above the level: as if independent";
		} else if (lower_tail) {
			*how = k > 1 ? "dependence from the p99's clusters; an aggregate counts as one thread"
				     : "dependence from the p99's clusters";
		} else {
			*how = k > 1 ? "dependence from the series' clusters; an aggregate counts as one thread"
				     : "dependence from the series' clusters";
		}
	}
	return fmax(1, floor((double)p->count * theta / (double)k));
}

/* One side's percentile and its interval at level conf over neff effective samples. */
static bool side_quantile(const struct pooled *p, double q, bool lower_tail, double conf, double neff,
			  double *val, double ci[2])
{
	uint64_t r, lo, hi, ne = (uint64_t)neff;
	double a, b, tail = lower_tail ? q : 1 - q, scale;

	if (!p->count || !p->have_hist)
		return false;
	r = (uint64_t)ceil(q * (double)p->count);
	if (!r)
		r = 1;
	rank_value(p, r, &a, &b);
	*val = lower_tail ? a : b;
	if ((double)ne * tail < TAIL_SAMPLES)
		return false;
	rtp_quantile_ranks(ne, q, conf, &lo, &hi);
	if (lo < 1 || hi > ne)
		return false;
	/* the ranks of ne effective samples, as fractions of all n */
	scale = (double)p->count / (double)ne;
	lo = (uint64_t)floor((double)lo * scale);
	hi = (uint64_t)ceil((double)hi * scale);
	if (lo < 1)
		lo = 1;
	if (hi > p->count)
		hi = p->count;
	rank_value(p, lo, &a, &b);
	ci[0] = a;
	rank_value(p, hi, &a, &b);
	ci[1] = b;
	return true;
}

/* The call of a quantile row at overall level alpha (each side at 1 - alpha / 2). */
static enum verdict quantile_call(struct row *w, const struct pooled *b, const struct pooled *n, double q,
				  bool lower_worse, double alpha, double t, double nb, double nn, bool *ok)
{
	bool okb, okn;
	double vb, vn;

	okb = side_quantile(b, q, lower_worse, 1 - alpha / 2, nb, &vb, w->base_ci);
	okn = side_quantile(n, q, lower_worse, 1 - alpha / 2, nn, &vn, w->new_ci);
	*ok = okb && okn;
	if (!*ok)
		return V_NED;
	if (w->base_ci[1] > 0 && w->new_ci[0] / w->base_ci[1] > t)
		return lower_worse ? V_BETTER : V_WORSE;
	if (w->new_ci[1] * t < w->base_ci[0])
		return lower_worse ? V_WORSE : V_BETTER;
	return V_SAME;
}

void quantile_row(struct row *w, const struct pooled *b, const struct pooled *n, double q,
		  bool lower_worse, const struct ctx *c)
{
	double t = 1 + c->o->threshold, nb, nn, lo, hi, bci[2], nci[2];
	const char *howb, *hown;
	bool ok;
	int i;

	w->higher_is_worse = !lower_worse;
	w->p = NAN;
	w->has_base = b->count && b->have_hist;
	w->has_new = n->count && n->have_hist;
	fill_spread(w, b, n, lower_worse ? fig_q_lo : fig_q_hi, q);
	/* halves where block maxima speak to the percentile (about one sample beyond it a block) */
	if (!lower_worse && b->block_samples > 0 && (1 - q) * b->block_samples <= 1 &&
	    n->block_samples > 0 && (1 - q) * n->block_samples <= 1)
		halves_spread(w, b, n, false);
	if (!b->have_hist || !n->have_hist) {
		w->v = V_NED;
		snprintf(w->method, sizeof(w->method), "order-statistic CI");
		snprintf(w->note, sizeof(w->note), "no histogram in a document");
		return;
	}
	nb = side_neff(b, q, lower_worse, &howb);
	nn = side_neff(n, q, lower_worse, &hown);
	snprintf(w->method, sizeof(w->method), "order-statistic CI on %.0f and %.0f effective samples (%s)",
		 nb, nn, howb);
	w->v = quantile_call(w, b, n, q, lower_worse, c->alpha, t, nb, nn, &ok);
	/* the point values, whatever the intervals */
	{
		uint64_t r = (uint64_t)ceil(q * (double)b->count);

		rank_value(b, r ? r : 1, &lo, &hi);
		w->base = lower_worse ? lo : hi;
		r = (uint64_t)ceil(q * (double)n->count);
		rank_value(n, r ? r : 1, &lo, &hi);
		w->new = lower_worse ? lo : hi;
	}
	set_ratio(w);
	w->base_ci_ok = w->new_ci_ok = ok;
	if (!ok) {
		snprintf(w->note, sizeof(w->note), "fewer than %d effective samples beyond the percentile",
			 TAIL_SAMPLES);
		return;
	}
	w->tested = true;
	w->p = 1;
	if (w->v == V_WORSE || w->v == V_BETTER) {
		/* the p-value: the smallest level at which the call still holds (bisection in log) */
		double a_hi = c->alpha, a_lo = 1e-12;
		enum verdict v0 = w->v;

		memcpy(bci, w->base_ci, sizeof(bci));
		memcpy(nci, w->new_ci, sizeof(nci));
		if (quantile_call(w, b, n, q, lower_worse, a_lo, t, nb, nn, &ok) == v0) {
			a_hi = a_lo;
		} else {
			for (i = 0; i < 40 && a_hi / a_lo > 1.05; i++) {
				double mid = sqrt(a_hi * a_lo);

				if (quantile_call(w, b, n, q, lower_worse, mid, t, nb, nn, &ok) == v0)
					a_hi = mid;
				else
					a_lo = mid;
			}
		}
		w->p = a_hi;
		memcpy(w->base_ci, bci, sizeof(bci));
		memcpy(w->new_ci, nci, sizeof(nci));
	}
	/*
	 * Block maxima speak to a quantile only where a block holds about one
	 * sample beyond it; there a tail shift must also show across time.
	 */
	if (!lower_worse && w->v != V_SAME && b->block_samples > 0 && (1 - q) * b->block_samples <= 1) {
		double pv = 1;
		int dir = block_test(b, n, c, &pv);

		if (dir != -2) {
			strncat(w->method, " + Mann-Whitney on block maxima",
				sizeof(w->method) - strlen(w->method) - 1);
			if ((w->v == V_WORSE && dir != 1) || (w->v == V_BETTER && dir != -1)) {
				snprintf(w->note, sizeof(w->note),
					 dir == 0 ? "not borne out across %.3g s blocks (rank test p %.2g): a burst"
						  : "the %.3g s block maxima move the other way (rank test p %.2g)",
					 b->block_s, pv);
				w->v = V_SAME;
			}
		}
	}
	w->v = spread_check(w, w->v);
	w->v = one_run_check(w, b, n, w->v);
	if (w->v == V_SAME &&
	    (lower_worse ? w->new * t < w->base : w->base > 0 && w->new / w->base > t)) {
		w->v = V_UNDECIDED;
		if (!*w->note)
			snprintf(w->note, sizeof(w->note), "worse beyond the threshold in the point values only");
	}
}

/* ---- the max row: episodes above the other side's max ------------------ */

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x > y ? -1 : x < y;
}

/*
 * Both sides' episodes, declustered at the pooled p90 of the block maxima
 * of both (consecutive blocks of one run above it are one episode), each
 * side's episode values sorted from the largest.  False: out of memory.
 */
static bool both_episodes(const struct pooled *b, const struct pooled *n, double **ub, size_t *mb,
			  double **un, size_t *mn, double *level)
{
	double *all = malloc((b->nbmax + n->nbmax) * sizeof(double));

	*ub = malloc(b->nbmax * sizeof(double));
	*un = malloc(n->nbmax * sizeof(double));
	if (!all || !*ub || !*un) {
		free(all);
		return false;
	}
	memcpy(all, b->bmax, b->nbmax * sizeof(double));
	memcpy(all + b->nbmax, n->bmax, n->nbmax * sizeof(double));
	qsort(all, b->nbmax + n->nbmax, sizeof(double), cmp_desc);
	*level = all[(size_t)floor(0.1 * (double)(b->nbmax + n->nbmax))];
	free(all);
	*mb = cmp_episodes(b->bmax, b->brun, b->nbmax, *level, *ub);
	*mn = cmp_episodes(n->bmax, n->brun, n->nbmax, *level, *un);
	qsort(*ub, *mb, sizeof(double), cmp_desc);
	qsort(*un, *mn, sizeof(double), cmp_desc);
	return true;
}

static void max_advice(struct row *w, const struct pooled *hi_side, size_t k, const char *who,
		       const struct ctx *c)
{
	/* equal lengths: the top k of all are one side's with chance ~2^-k */
	double need = ceil(log2(2 / c->alpha));
	double rate = hi_side->duration_s > 0 ? (double)k / hi_side->duration_s : 0;

	if (rate > 0) {
		w->decide_s = need / rate;
		snprintf(w->advice, sizeof(w->advice),
			 "to decide: %.0f episodes above the other side's max on the %s side; at %.3g per hour that takes runs of %.0f s a side",
			 need, who, rate * 3600, need / rate);
	}
}

void max_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct ctx *c)
{
	double *ub = NULL, *un = NULL, level, t = 1 + c->o->threshold, pw, pb;
	size_t mb, mn, kn = 0, kb = 0;

	w->higher_is_worse = true;
	w->p = NAN;
	w->has_base = b->count > 0;
	w->has_new = n->count > 0;
	w->base = (double)b->max;
	w->new = (double)n->max;
	set_ratio(w);
	fill_spread(w, b, n, fig_max, 0);
	halves_spread(w, b, n, true);
	snprintf(w->method, sizeof(w->method), "episode exceedance test");
	if (!b->have_series || !n->have_series || !b->nbmax || !n->nbmax) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "no time series in a document: episodes cannot be told");
		goto gap;
	}
	if (!both_episodes(b, n, &ub, &mb, &un, &mn, &level)) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "out of memory");
		goto out;
	}
	while (kn < mn && un[kn] > ub[0])
		kn++;
	while (kb < mb && ub[kb] > un[0])
		kb++;
	w->episodes_new = (int)kn;
	w->episodes_base = (int)kb;
	pw = cmp_top_k_p(mb, mn, kn);
	pb = cmp_top_k_p(mn, mb, kb);
	w->p = fmin(1, 2 * fmin(pw, pb));
	w->tested = true;
	w->episode_s = b->block_s;
	snprintf(w->method, sizeof(w->method),
		 "episode exceedance test (top-k of %zu vs %zu declustered %.3g s blocks above %.1f us)",
		 mb, mn, b->block_s, level / 1000);
	if (kn)
		snprintf(w->note, sizeof(w->note), "%zu new episodes above the base max, p %.2g", kn, w->p);
	else if (kb)
		snprintf(w->note, sizeof(w->note), "%zu base episodes above the new max, p %.2g", kb, w->p);
	else
		snprintf(w->note, sizeof(w->note), "equal maxima");
	w->v = V_SAME;
	if (2 * pw <= c->alpha && w->ratio > t)
		w->v = V_WORSE;
	else if (2 * pb <= c->alpha && w->ratio * t < 1)
		w->v = V_BETTER;
	w->v = spread_check(w, w->v);
	if (w->v == V_SAME && w->ratio > t && kn)
		max_advice(w, n, kn, "new", c);
	else if (w->v == V_SAME && w->ratio * t < 1 && kb)
		max_advice(w, b, kb, "base", c);
gap:
	/* a max gap this large is never "same" (nor better for the larger side) */
	if ((w->v == V_SAME || w->v == V_NED) && w->has_base && w->has_new &&
	    (w->ratio >= GAP_UNDECIDED || w->ratio * GAP_UNDECIDED <= 1)) {
		char why[200];

		snprintf(why, sizeof(why), "max x%.3g apart, not decided: %s", w->ratio, w->note);
		snprintf(w->note, sizeof(w->note), "%s", why);
		w->v = V_UNDECIDED;
	}
out:
	free(ub);
	free(un);
}

/* ---- the peaks row: how often the worst case comes --------------------- */

#define PEAKS_R	2	/* the level: the other side's (PEAKS_R + 1)-th highest episode */

/*
 * The episodes of the rank test (declustered at dlevel as both_episodes
 * does) above level, per hour in each run of a side, or in each half of
 * its one run: the lowest and highest rate.  False without two parts.
 */
static bool peak_parts(const struct pooled *p, double dlevel, double level, double out[2])
{
	size_t cnt[MAX_RUNS] = { 0 }, blk[MAX_RUNS] = { 0 };
	size_t i, parts = p->nruns > 1 ? p->nruns : 2, half = p->nbmax / 2, part = 0;
	double top = -INFINITY;	/* the open episode's max */

	if (p->nruns == 1 && p->nbmax < 2 * HALF_BLOCKS)
		return false;
	for (i = 0; i < p->nbmax; i++) {
		size_t k = p->nruns > 1 ? p->brun[i] : i >= half;
		bool joins = i && p->bmax[i] > dlevel && p->bmax[i - 1] > dlevel &&
			     p->brun[i] == p->brun[i - 1] && !(p->nruns == 1 && i == half);

		if (k >= parts)
			continue;
		blk[k]++;
		if (joins) {
			top = fmax(top, p->bmax[i]);
			continue;
		}
		if (top > level)
			cnt[part]++;
		top = p->bmax[i];
		part = k;
	}
	if (top > level)
		cnt[part]++;
	out[0] = INFINITY;
	out[1] = -INFINITY;
	for (i = 0; i < parts; i++) {
		double r = blk[i] ? (double)cnt[i] / ((double)blk[i] * p->block_s) * 3600 : 0;

		out[0] = fmin(out[0], r);
		out[1] = fmax(out[1], r);
	}
	return true;
}

/* The median block max of a side (0 without blocks or room). */
static double typical_block_max(const struct pooled *p)
{
	double *v = p->nbmax ? malloc(p->nbmax * sizeof(double)) : NULL, m;

	if (!v)
		return 0;
	memcpy(v, p->bmax, p->nbmax * sizeof(double));
	m = rtp_median(v, p->nbmax);
	free(v);
	return m;
}

static size_t count_above(const double *v, size_t n, double level)
{
	size_t k = 0;

	while (k < n && v[k] > level)
		k++;
	return k;
}

/*
 * The worst case's frequency: episodes above the base's third highest
 * episode (PEAKS_R + 1), per hour on each side.  Under no change every
 * ranking of the two sides' episodes is as likely, so the chance that j
 * or more new episodes rank above the base's third is exact
 * (cmp_above_rth_p); the other way round for better.  It sees stalls as
 * high as the base's own worst that come far more often, and stalls
 * under a base that had one wild outlier, which the max row cannot.
 */
void peaks_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct ctx *c)
{
	double *ub = NULL, *un = NULL, dlevel, level, lw, lb, pw, pb, hb, hn, t = 1 + c->o->threshold, ci[2];
	size_t mb, mn, jn, jb, kb, kn;
	bool better;

	w->higher_is_worse = true;
	w->p = NAN;
	snprintf(w->method, sizeof(w->method), "episode rank test above the other side's 3rd highest episode");
	if (!b->have_series || !n->have_series || !b->nbmax || !n->nbmax || !(b->duration_s > 0) ||
	    !(n->duration_s > 0)) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "no time series in a document: episodes cannot be told");
		return;
	}
	if (!both_episodes(b, n, &ub, &mb, &un, &mn, &dlevel)) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "out of memory");
		goto out;
	}
	if (mb <= PEAKS_R || mn <= PEAKS_R) {
		w->v = V_NED;
		snprintf(w->note, sizeof(w->note), "fewer than %d episodes on a side", PEAKS_R + 1);
		goto out;
	}
	/* and beyond the threshold over the side's typical block max: a peak, not the bulk */
	lw = fmax(ub[PEAKS_R], t * typical_block_max(b));
	lb = fmax(un[PEAKS_R], t * typical_block_max(n));
	jn = count_above(un, mn, lw);
	jb = count_above(ub, mb, lb);
	pw = cmp_above_rth_p(mb, mn, jn, PEAKS_R);
	pb = cmp_above_rth_p(mn, mb, jb, PEAKS_R);
	better = pb < pw;
	level = better ? lb : lw;
	kb = count_above(ub, mb, level);
	kn = count_above(un, mn, level);
	hb = b->duration_s / 3600;
	hn = n->duration_s / 3600;
	w->has_base = w->has_new = true;
	w->base = (double)kb / hb;
	w->new = (double)kn / hn;
	w->ratio = kb ? w->new / w->base : (kn ? INFINITY : 1);
	cmp_poisson_ci(kb, c->c1, ci);
	w->base_ci[0] = ci[0] / hb, w->base_ci[1] = ci[1] / hb;
	cmp_poisson_ci(kn, c->c1, ci);
	w->new_ci[0] = ci[0] / hn, w->new_ci[1] = ci[1] / hn;
	w->base_ci_ok = w->new_ci_ok = true;
	w->p = fmin(1, 2 * fmin(pw, pb));
	w->tested = true;
	w->episode_s = b->block_s;
	snprintf(w->method, sizeof(w->method),
		 "episode rank test above %.1f us: the %s side's 3rd highest, >= (1 + threshold) x its median block max (%zu vs %zu %.3g s blocks)",
		 level / 1000, better ? "new" : "base", mb, mn, b->block_s);
	snprintf(w->note, sizeof(w->note), "%zu base vs %zu new episodes above %.1f us, p %.2g", kb, kn,
		 level / 1000, w->p);
	w->v = V_SAME;
	if (2 * pw <= c->alpha && w->ratio > t)
		w->v = V_WORSE;
	else if (2 * pb <= c->alpha && w->ratio * t < 1)
		w->v = V_BETTER;
	if (peak_parts(b, dlevel, level, w->base_spread) && peak_parts(n, dlevel, level, w->new_spread) &&
	    (b->nruns > 1) == (n->nruns > 1)) {
		w->spread = true;
		w->spread_halves = b->nruns == 1;
	}
	w->v = spread_check(w, w->v);
	if (w->v == V_SAME && w->ratio > t && 2 * pw <= c->alpha)
		w->v = V_UNDECIDED;
out:
	free(ub);
	free(un);
}

void min_row(struct row *w, const struct pooled *b, const struct pooled *n, const struct ctx *c)
{
	double t = 1 + c->o->threshold;

	w->higher_is_worse = false;
	w->p = NAN;
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
	/*
	 * Runs are exchangeable under no change: the rank test on the runs'
	 * minima (exact for few runs) gives the p that enters the Holm
	 * family; 3 runs a side cannot reach 95 % (p >= 0.1).
	 */
	{
		double vb[MAX_RUNS], vn[MAX_RUNS], pg, pl, auc;
		size_t r;

		for (r = 0; r < b->nruns; r++)
			vb[r] = (double)b->per_run[r]->min;
		for (r = 0; r < n->nruns; r++)
			vn[r] = (double)n->per_run[r]->min;
		if (rtp_mann_whitney(vb, b->nruns, vn, n->nruns, &pg, &pl, &auc)) {
			w->v = V_NED;
			return;
		}
		w->p = fmin(1, 2 * fmin(pg, pl));
		w->tested = true;
		snprintf(w->method, sizeof(w->method), "run-to-run spread + Mann-Whitney on the %zu vs %zu runs' minima",
			 b->nruns, n->nruns);
		w->v = V_SAME;
		/* lower is worse: beyond the spread, the test and the threshold */
		if (2 * pl <= c->alpha && w->new_spread[1] < w->base_spread[0] && w->new * t < w->base)
			w->v = V_WORSE;
		else if (2 * pg <= c->alpha && w->new_spread[0] > w->base_spread[1] && w->new > w->base * t)
			w->v = V_BETTER;
		else if (w->new * t < w->base)
			w->v = V_UNDECIDED;
	}
}

/* xruns: counts over durations, a conditional binomial test of two Poisson rates. */
void xrun_row(struct row *w, const struct side *bs, const struct side *ns, const struct ctx *c)
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
	w->higher_is_worse = true;
	w->p = NAN;
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
	w->p = fmin(1, 2 * fmin(pg, pl));
	w->tested = true;
	snprintf(w->note, sizeof(w->note), "p %.2g", w->p);
	w->v = V_SAME;
	if (pg < c->alpha / 2 && w->ratio > 1 + c->o->threshold)
		w->v = V_WORSE;
	else if (pl < c->alpha / 2 && w->ratio * (1 + c->o->threshold) < 1)
		w->v = V_BETTER;
	else if (w->ratio > 1 + c->o->threshold)
		w->v = V_UNDECIDED;
}
