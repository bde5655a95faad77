// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtproof-compare: tests that respect the dependence in the data
 * (episodes, blocks) and the family-wise control over all rows.
 */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t cmp_episodes(const double *bmax, const size_t *run, size_t n, double level, double *out)
{
	size_t i, k = 0;
	bool in = false;

	for (i = 0; i < n; i++) {
		bool above = bmax[i] > level;

		if (above && in && run[i] == run[i - 1]) {
			if (bmax[i] > out[k - 1])
				out[k - 1] = bmax[i];
			continue;
		}
		out[k++] = bmax[i];
		in = above;
	}
	return k;
}

double cmp_top_k_p(size_t m, size_t n, size_t k)
{
	double lp = 0;
	size_t i;

	if (k > n)
		return 0;
	/* C(n, k) / C(m + n, k) = prod_{i<k} (n - i) / (m + n - i) */
	for (i = 0; i < k; i++)
		lp += log((double)(n - i)) - log((double)(m + n - i));
	return exp(lp);
}

static double lchoose(size_t n, size_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

double cmp_above_rth_p(size_t m, size_t n, size_t j, size_t r)
{
	/* j or more new among the top j + r of all: at most r base ones there */
	size_t K = j + r, x;
	double p = 0;

	if (j > n)
		return 0;
	if (K > m + n)
		return 1;
	for (x = j; x <= K && x <= n; x++)
		if (K - x <= m)
			p += exp(lchoose(n, x) + lchoose(m, K - x) - lchoose(m + n, K));
	return fmin(1, p);
}

/* A max row whose sides are 5x apart: never "same" (compare.h GAP_UNDECIDED). */
static bool max_gap(const struct row *w)
{
	return w->figure && !strcmp(w->figure, "max") &&
	       (w->ratio >= GAP_UNDECIDED || w->ratio * GAP_UNDECIDED <= 1);
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *a, const void *b)
{
	const struct pidx *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

size_t cmp_holm(struct row *rows, size_t n, double alpha)
{
	struct pidx *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i, m = 0, demoted = 0;
	double run = 0;
	bool stop = false;

	if (!v) {
		/* without room to sort, Bonferroni: stricter, never looser */
		for (i = 0; i < n; i++)
			m += rows[i].tested;
		for (i = 0; i < n; i++) {
			if (!rows[i].tested)
				continue;
			rows[i].p_adj = fmin(1, rows[i].p * (double)m);
			if ((rows[i].v == V_WORSE || rows[i].v == V_BETTER) && rows[i].p_adj > alpha) {
				rows[i].v = rows[i].v == V_WORSE || max_gap(&rows[i]) ? V_UNDECIDED : V_SAME;
				demoted++;
			}
		}
		return demoted;
	}
	for (i = 0; i < n; i++)
		if (rows[i].tested)
			v[m++] = (struct pidx){ isnan(rows[i].p) ? 1 : rows[i].p, i };
	qsort(v, m, sizeof(*v), cmp_pidx);
	for (i = 0; i < m; i++) {
		struct row *w = &rows[v[i].i];
		double adj = fmin(1, v[i].p * (double)(m - i));

		run = fmax(run, adj);		/* adjusted p-values are monotone */
		w->p_adj = run;
		if (run > alpha)
			stop = true;
		if (stop && (w->v == V_WORSE || w->v == V_BETTER)) {
			char note[sizeof(w->note)];

			snprintf(note, sizeof(note), "%s%snot significant over %zu figures (Holm p %.2g)", w->note,
				 *w->note ? "; " : "", m, run);
			memcpy(w->note, note, sizeof(note));
			w->v = w->v == V_WORSE || max_gap(w) ? V_UNDECIDED : V_SAME;
			demoted++;
		}
	}
	free(v);
	return demoted;
}

double cmp_extremal_index(const struct pooled *p, double x)
{
	uint64_t above = 0, cum = 0;
	size_t i, k = 0;
	double nb = (double)p->nbmax, kk, cbar, theta;

	if (!p->nbmax || !p->count)
		return NAN;
	for (i = 0; i < p->nbuckets; i++) {
		if ((double)p->b[i].lo > x)
			above += p->b[i].count;
		cum += p->b[i].count;
	}
	above += p->count > cum ? p->count - cum : 0;	/* the overflow lies above */
	if (!above || above >= p->count)
		return NAN;
	for (i = 0; i < p->nbmax; i++)
		k += p->bmax[i] > x;
	if (!k)
		return NAN;
	/* every block has one: all that can be said is a bound, taken as the value */
	kk = k < p->nbmax ? (double)k : nb - 0.5;
	cbar = (double)p->count / nb;
	theta = log1p(-kk / nb) / (cbar * log1p(-(double)above / (double)p->count));
	/* an index is at most 1 (exceedances alone); above it is the estimator's noise */
	return theta < 1 ? theta : 1;
}
